//! Era and version negotiation (docs/rules.md §2, §17.2): `server/discover` first; `-32022` picks
//! the best common version from `data.supported` and retries once; any other error or no
//! answer means a legacy server, which gets `initialize` + `notifications/initialized`.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{CallError, ConnectError};
use super::event::{Era, Event, ServerFeatures, Session};
use super::machine::{Client, Internal, Phase};
use super::pending::Purpose;
use super::reply::{self, Reply};
use super::wire;
use crate::cache::{Attempt, CacheKey};
use crate::error_code::ErrorCode;
use crate::json::RawJson;
use crate::jsonrpc::{ErrorData, ErrorObject, FromJson};
use crate::messages::{DiscoverResult, ServerCapabilities};

/// The best common version: the first of ours (in preference order) the server lists.
enum Choice {
    Modern(String),
    Legacy(String),
    None,
}

fn choose(modern: &[String], legacy: &[String], supported: &[String]) -> Choice {
    if let Some(v) = modern.iter().find(|v| supported.contains(v)) {
        Choice::Modern(v.clone())
    } else if let Some(v) = legacy.iter().find(|v| supported.contains(v)) {
        Choice::Legacy(v.clone())
    } else {
        Choice::None
    }
}

/// `data.supported` of a `-32022` (or of a legacy `-32602` unsupported-version error,
/// docs/rules.md §17.2 item 7).
pub(crate) fn supported_versions(e: &ErrorObject<'_>) -> Option<Vec<String>> {
    let list = match e.details() {
        Ok(ErrorData::UnsupportedProtocolVersion { supported, .. }) => supported,
        _ => match e.data {
            ErrorData::Raw(d) => {
                crate::messages::Seq::decode_raw(d.get("supported")?, "supported").ok()?
            }
            _ => return None,
        },
    };
    let list: crate::messages::Seq<'_, crate::json::JsonStr<'_>> = list;
    Some(list.iter().map(|s| s.to_cow().into_owned()).collect())
}

fn features(caps: &ServerCapabilities<'_>) -> ServerFeatures {
    let resources = caps.resources.unwrap_or_default();
    ServerFeatures {
        resources: caps.resources.is_some(),
        resources_subscribe: resources.subscribe == Some(true),
        resources_list_changed: resources.list_changed == Some(true),
        prompts: caps.prompts.is_some(),
        prompts_list_changed: caps.prompts.and_then(|p| p.list_changed) == Some(true),
        tools_list_changed: caps.tools.and_then(|p| p.list_changed) == Some(true),
        completions: caps.completions.is_some(),
    }
}

impl Client {
    pub(crate) fn start_probe(&mut self, now_ms: u64) {
        let Some(version) = self.config.versions.first().cloned() else {
            return self.connect_failed(ConnectError::NoCommonVersion);
        };
        self.probe(version, false, now_ms);
    }

    fn probe(&mut self, version: String, retried: bool, now_ms: u64) {
        let deadline = now_ms.saturating_add(self.config.probe_timeout_ms);
        self.phase = Phase::Probing {
            version: version.clone(),
            retried,
        };
        if self
            .send_internal(Internal::Probe(version), Purpose::Probe, Some(deadline))
            .is_none()
        {
            self.connect_failed(ConnectError::NoCommonVersion);
        }
    }

    /// The answer to the probe.
    pub(crate) fn on_probe(&mut self, outcome: Result<RawJson<'_>, ErrorObject<'_>>, now_ms: u64) {
        let Phase::Probing { version, retried } = &self.phase else {
            return;
        };
        let (version, retried) = (version.clone(), *retried);
        let (modern, legacy) = (&self.config.versions, &self.config.legacy_versions);
        match outcome {
            Ok(result) => {
                let discover = match DiscoverResult::from_json(result) {
                    Ok(d) => d,
                    Err(e) => return self.connect_failed(ConnectError::InvalidResult(e)),
                };
                let supported: Vec<String> = discover
                    .supported_versions
                    .iter()
                    .map(|s| s.to_cow().into_owned())
                    .collect();
                let choice = if supported.contains(&version) {
                    Choice::Modern(version)
                } else {
                    choose(modern, legacy, &supported)
                };
                match choice {
                    Choice::Modern(v) => {
                        let features = features(&discover.capabilities);
                        let hints = super::results::hints(discover.ttl_ms, discover.cache_scope);
                        if let Some(cache) = self.cache.as_mut() {
                            let value = result.as_text().as_bytes();
                            let _ = cache.insert(
                                &CacheKey::Discover,
                                self.auth,
                                hints,
                                Attempt::Original,
                                value,
                                now_ms,
                            );
                        }
                        self.ready(Era::Modern, v, features, result, now_ms);
                    }
                    Choice::Legacy(v) => self.initialize(v, false, now_ms),
                    Choice::None => self.connect_failed(ConnectError::NoCommonVersion),
                }
            }
            Err(e) if e.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let Some(supported) = supported_versions(&e) else {
                    return self.fall_back(now_ms);
                };
                match choose(modern, legacy, &supported) {
                    // One retry, even at the version just refused when the server lists it as
                    // supported (its refusal and its list disagree; the spec's answer to
                    // -32022 is to retry with a listed version).
                    Choice::Modern(v) if !retried => self.probe(v, true, now_ms),
                    Choice::Legacy(v) => self.initialize(v, false, now_ms),
                    Choice::Modern(_) | Choice::None => {
                        self.connect_failed(ConnectError::NoCommonVersion);
                    }
                }
            }
            // Recognised modern errors: a modern server that refuses us (docs/rules.md §17.2).
            Err(e) if matches!(e.code.code(), -32021 | -32020) => {
                self.connect_failed(ConnectError::Rejected(e.code));
            }
            // "The fallback **MUST NOT** be keyed to one specific error code."
            Err(_) => self.fall_back(now_ms),
        }
    }

    /// No answer to the probe, or a non-modern error: the server is legacy.
    pub(crate) fn fall_back(&mut self, now_ms: u64) {
        match self.config.legacy_versions.first().cloned() {
            Some(v) => self.initialize(v, false, now_ms),
            None => self.connect_failed(ConnectError::LegacyDisabled),
        }
    }

    pub(crate) fn initialize(&mut self, version: String, retried: bool, now_ms: u64) {
        let deadline = now_ms.saturating_add(self.config.request_timeout_ms);
        self.phase = Phase::Initializing {
            version: version.clone(),
            retried,
        };
        if self
            .send_internal(
                Internal::Initialize(version),
                Purpose::Initialize,
                Some(deadline),
            )
            .is_none()
        {
            self.connect_failed(ConnectError::NoCommonVersion);
        }
    }

    /// The answer to `initialize`.
    pub(crate) fn on_initialize(
        &mut self,
        outcome: Result<RawJson<'_>, ErrorObject<'_>>,
        now_ms: u64,
    ) {
        let Phase::Initializing {
            version: sent,
            retried,
        } = &self.phase
        else {
            return;
        };
        let (sent, retried) = (sent.clone(), *retried);
        match outcome {
            Ok(result) => {
                let version = result.get("protocolVersion").and_then(|v| v.as_str());
                let caps = result
                    .get("capabilities")
                    .map(ServerCapabilities::from_json);
                let (Some(version), Some(Ok(caps))) = (version, caps) else {
                    let field = if version.is_none() {
                        "protocolVersion"
                    } else {
                        "capabilities"
                    };
                    let e = crate::jsonrpc::ParamsError::new(
                        crate::jsonrpc::ParamsErrorKind::Missing,
                        field,
                    );
                    return self.connect_failed(ConnectError::InvalidResult(e));
                };
                let version = version.to_cow().into_owned();
                // The server may answer with another version; only one of ours will do.
                if !self.config.legacy_versions.contains(&version) {
                    return self.connect_failed(ConnectError::NoCommonVersion);
                }
                let features = features(&caps);
                self.transmit(
                    wire::initialized(),
                    None,
                    Some(alloc::borrow::Cow::Borrowed("notifications/initialized")),
                    None,
                );
                self.ready(Era::Legacy, version, features, result, now_ms);
            }
            Err(e) => {
                let retry = supported_versions(&e).and_then(|s| {
                    self.config
                        .legacy_versions
                        .iter()
                        .find(|v| s.contains(v))
                        .cloned()
                });
                match retry {
                    Some(v) if !retried && v != sent => self.initialize(v, true, now_ms),
                    _ => self.connect_failed(ConnectError::Rejected(e.code)),
                }
            }
        }
    }

    fn ready(
        &mut self,
        era: Era,
        version: String,
        features: ServerFeatures,
        result: RawJson<'_>,
        now_ms: u64,
    ) {
        let Ok(handshake) = Reply::<reply::Raw>::decode(result, false) else {
            return;
        };
        let session = Session {
            era,
            version,
            features,
            handshake,
        };
        self.phase = Phase::Ready(session.clone());
        self.emit(Event::Connected(session));
        while let Some(call) = self.queued.pop_front() {
            self.advance(call, now_ms);
        }
    }

    /// The negotiation failed: queued calls fail, the next call probes again.
    pub(crate) fn connect_failed(&mut self, error: ConnectError) {
        self.phase = Phase::Idle;
        self.emit(Event::ConnectFailed(error));
        while let Some(call) = self.queued.pop_front() {
            self.fail(call, CallError::NotConnected(error));
        }
    }

    /// A `-32022` on a call in a modern session: switch to the best common modern version
    /// and send again, once per call (docs/rules.md §2 "The client **SHOULD** select a mutually
    /// supported version from the `supported` list and retry the request"). `true` if
    /// retried.
    pub(crate) fn version_retry(
        &mut self,
        call: super::call::CallId,
        e: &ErrorObject<'_>,
        now_ms: u64,
    ) -> bool {
        let Some(supported) = supported_versions(e) else {
            return false;
        };
        let Some(v) = self
            .config
            .versions
            .iter()
            .find(|v| supported.contains(v))
            .cloned()
        else {
            return false;
        };
        let Phase::Ready(session) = &mut self.phase else {
            return false;
        };
        let Some(state) = self.calls.get_mut(&call) else {
            return false;
        };
        if state.version_retried || session.era != Era::Modern {
            return false;
        }
        state.version_retried = true;
        session.version = v;
        // A cache holds one protocol version's results (cache::CacheKey docs).
        if let Some(cache) = self.cache.as_mut() {
            cache.clear();
        }
        self.advance(call, now_ms);
        true
    }
}
