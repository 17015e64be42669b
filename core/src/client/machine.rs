//! [`Client`]: state, the public calls, and the send path shared by every call.

use alloc::borrow::Cow;
use alloc::collections::{BTreeMap, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

use super::call::{CachePolicy, CallId, Retry, Spec};
use super::config::{ClientConfig, ConfigError, Transport};
use super::error::CallError;
use super::event::{Era, Event, Output, Session, Transmit};
use super::pending::{Inflight, Pending, Purpose};
use super::wire::{self, Body, Meta};
use crate::cache::{AuthContext, Cache, CacheKey, Lookup};
use crate::messages::owned::{AsView, OwnedSubscriptionFilter};

/// The negotiation state (docs/rules.md §2, §17.2).
#[derive(Debug)]
pub(crate) enum Phase {
    /// Not connected; the next call starts the probe.
    Idle,
    /// `server/discover` sent with `version`.
    Probing { version: String, retried: bool },
    /// Legacy `initialize` sent with `version`.
    Initializing { version: String, retried: bool },
    /// Negotiated.
    Ready(Session),
}

/// An internal request, owning what it sends.
#[derive(Debug)]
pub(crate) enum Internal {
    /// `server/discover` with this version.
    Probe(String),
    /// Legacy `initialize` with this version.
    Initialize(String),
    /// Legacy `resources/subscribe`.
    Subscribe(String),
    /// Legacy `resources/unsubscribe`.
    Unsubscribe(String),
}

/// Where a call is.
#[derive(Debug)]
pub(crate) enum Stage {
    /// Waiting for the negotiation.
    Queued,
    /// Request `id` is outstanding.
    Sent(i64),
    /// The server asked for input (docs/rules.md §13): these keys, this `requestState` token.
    AwaitingInput {
        keys: Vec<String>,
        state_token: Option<String>,
    },
    /// An open subscription.
    Listening(Listen),
}

/// An open subscription (docs/rules.md §11), or its legacy emulation (docs/rules.md §17.2 item 4).
#[derive(Debug, Default)]
pub(crate) struct Listen {
    /// The listen request's id (modern only).
    pub(crate) id: Option<i64>,
    /// The honoured filter, once acknowledged.
    pub(crate) honoured: Option<OwnedSubscriptionFilter>,
    /// Legacy: `resources/subscribe` requests still unanswered.
    pub(crate) outstanding: usize,
    /// Legacy: URIs subscribed for this call.
    pub(crate) granted: Vec<String>,
    /// Legacy: URIs the server refused.
    pub(crate) refused: Vec<String>,
}

#[derive(Debug)]
pub(crate) struct CallState {
    pub(crate) spec: Spec,
    pub(crate) policy: CachePolicy,
    /// MRTR data for the next attempt (its result is never cached).
    pub(crate) retry: Option<Retry>,
    /// `input_required` rounds so far.
    pub(crate) round: u8,
    /// Whether the one `-32022` version retry was used.
    pub(crate) version_retried: bool,
    pub(crate) stage: Stage,
}

/// The sans-IO MCP client: bytes and time in, bytes and events out.
///
/// Drain rule: after any input (`handle_*`, a call, [`Client::cancel`],
/// [`Client::respond_input`]), call [`Client::poll_output`] until it returns `None`, then
/// arm a timer for [`Client::poll_timeout`]. See the [module docs](super) for the run loop.
#[derive(Debug)]
pub struct Client {
    pub(crate) config: ClientConfig,
    pub(crate) phase: Phase,
    pub(crate) pending: Pending,
    pub(crate) calls: BTreeMap<CallId, CallState>,
    pub(crate) queued: VecDeque<CallId>,
    pub(crate) out: crate::wake::WakingQueue<Output>,
    pub(crate) cache: Option<Cache>,
    pub(crate) auth: Option<AuthContext>,
    /// Legacy session: subscribed URI → how many listen calls hold it.
    pub(crate) legacy_uris: BTreeMap<String, usize>,
    /// Tools seen in `tools/list` results: name → its `x-mcp-header` pairs, or `None` when
    /// its annotations are invalid (the tool is rejected: never listed to the host, never
    /// called).
    pub(crate) tools: BTreeMap<String, Option<Vec<(String, String)>>>,
    /// The 2025-11-25 HTTP session the server assigned at `initialize`.
    pub(crate) http_session: Option<super::session::HttpSession>,
    next_call: u64,
}

impl Client {
    /// A client that has not talked to the server yet.
    ///
    /// # Errors
    /// [`ConfigError`] for a configuration it cannot run with.
    pub fn new(config: ClientConfig) -> Result<Self, ConfigError> {
        config.check()?;
        Ok(Self {
            cache: config.cache.map(Cache::new),
            config,
            phase: Phase::Idle,
            pending: Pending::default(),
            calls: BTreeMap::new(),
            queued: VecDeque::new(),
            out: crate::wake::WakingQueue::default(),
            auth: None,
            legacy_uris: BTreeMap::new(),
            tools: BTreeMap::new(),
            http_session: None,
            next_call: 0,
        })
    }

    /// The next output, `None` when drained.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// Installs the output-ready signal: the machine calls `waker.wake_by_ref()` each time
    /// an output is queued while the queue was empty (from any call, including a later
    /// [`Client::respond_input`] or [`Client::handle_timeout`]), and at once when output is
    /// already waiting. After a wake, drain [`Client::poll_output`] until `None`.
    pub fn set_waker(&mut self, waker: core::task::Waker) {
        self.out.set_waker(waker);
    }

    /// Whether [`Client::poll_output`] has something to give.
    #[must_use]
    pub fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    /// When [`Client::handle_timeout`] must be called next (the earliest request deadline).
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        self.pending.next_deadline()
    }

    /// The negotiated session, once [`Event::Connected`] was emitted.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        match &self.phase {
            Phase::Ready(s) => Some(s),
            _ => None,
        }
    }

    /// How many requests are outstanding.
    #[must_use]
    pub fn outstanding(&self) -> usize {
        self.pending.len()
    }

    /// Sets the authorization context of the requests that follow (a stable id the host
    /// derives from the credentials it attaches). Private results are cached per context and
    /// never served to another (docs/rules.md §4).
    pub fn set_auth_context(&mut self, auth: Option<AuthContext>) {
        self.auth = auth;
    }

    /// Request `id` is being answered under `auth`, not the context it was sent under: the
    /// credentials changed on the way (e.g. a 401 ran an authorization and the request went
    /// again with the new token). Call it before feeding the answer, so its result is cached
    /// for the context that obtained it (docs/rules.md §21.7). No-op for an unknown id.
    pub fn set_request_auth_context(&mut self, id: i64, auth: Option<AuthContext>) {
        if let Some(inflight) = self.pending.get_mut(id) {
            inflight.auth = auth;
        }
    }

    /// Starts the negotiation (`server/discover` first, docs/rules.md §17.2) if not connected.
    /// Calls made before it completes are queued; a call connects by itself.
    pub fn connect(&mut self, now_ms: u64) {
        if matches!(self.phase, Phase::Idle) {
            self.start_probe(now_ms);
        }
    }

    /// Abandons request `id` and tells the server (docs/rules.md §11.4, §12: only requests the
    /// client issued and believes in progress).
    pub(crate) fn cancel_request(&mut self, id: i64, reason: Option<&str>) {
        self.pending.abandon(id);
        match self.config.transport {
            Transport::Http => self.out.push_back(Output::CloseStream { id }),
            Transport::Stdio => {
                if let Ok(bytes) = wire::cancelled(id, reason) {
                    self.transmit(
                        bytes,
                        None,
                        Some(Cow::Borrowed("notifications/cancelled")),
                        None,
                    );
                }
            }
        }
    }

    pub(crate) fn start(&mut self, spec: Spec, policy: CachePolicy, now_ms: u64) -> CallId {
        self.next_call += 1;
        let call = CallId(self.next_call);
        let state = CallState {
            spec,
            policy,
            retry: None,
            round: 0,
            version_retried: false,
            stage: Stage::Queued,
        };
        self.calls.insert(call, state);
        match self.phase {
            Phase::Ready(_) => self.advance(call, now_ms),
            Phase::Idle => {
                self.queued.push_back(call);
                self.start_probe(now_ms);
            }
            Phase::Probing { .. } | Phase::Initializing { .. } => self.queued.push_back(call),
        }
        call
    }

    /// Sends the next attempt of `call`, answering from the cache while it can.
    pub(crate) fn advance(&mut self, call: CallId, now_ms: u64) {
        let era = match &self.phase {
            Phase::Ready(s) => s.era,
            _ => return self.queued.push_back(call),
        };
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        match (&state.spec, era) {
            (Spec::Discover, Era::Legacy) => return self.fail(call, CallError::UnsupportedInEra),
            (Spec::Listen { .. }, Era::Legacy) => return self.legacy_listen(call, now_ms),
            _ => {}
        }
        // Bounded by `max_pages`: each cached page either ends the walk or adds a page.
        for _ in 0..=self.config.max_pages {
            match self.cached(call, now_ms) {
                Some(json) => {
                    if !self.accept_cached(call, &json, now_ms) {
                        return;
                    }
                }
                None => return self.send(call, now_ms),
            }
        }
    }

    /// The fresh cached result for the next attempt of `call`, if it may use one.
    fn cached(&mut self, call: CallId, now_ms: u64) -> Option<Vec<u8>> {
        let state = self.calls.get(&call)?;
        if state.policy != CachePolicy::PreferCache || state.retry.is_some() {
            return None;
        }
        let key = cache_key(&state.spec)?;
        match self.cache.as_mut()?.lookup(&key, self.auth, now_ms) {
            Lookup::Fresh(bytes) => Some(Vec::from(bytes)),
            Lookup::Stale(_) | Lookup::Miss => None,
        }
    }

    fn send(&mut self, call: CallId, now_ms: u64) {
        let id = self.pending.allocate();
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        let encoded = wire::request(
            id,
            Body::Call(&state.spec, state.retry.as_ref()),
            self.meta(),
        );
        let name = state.spec.name();
        let method = state.spec.method();
        let param_headers = match &state.spec {
            Spec::Custom { param_headers, .. } => param_headers.clone(),
            _ => Vec::new(),
        };
        let listen = matches!(state.spec, Spec::Listen { .. });
        let Ok(bytes) = encoded else {
            return self.fail(call, CallError::Unencodable);
        };
        let deadline = (!listen).then(|| now_ms.saturating_add(self.config.request_timeout_ms));
        self.pending.insert(
            id,
            Inflight {
                purpose: Purpose::Call(call),
                deadline,
                auth: self.auth,
            },
        );
        if let Some(state) = self.calls.get_mut(&call) {
            state.stage = if listen {
                Stage::Listening(Listen {
                    id: Some(id),
                    ..Listen::default()
                })
            } else {
                Stage::Sent(id)
            };
        }
        self.transmit_with(bytes, Some(id), Some(method), name, param_headers);
    }

    /// Sends an internal request (probe, initialize, legacy subscribe/unsubscribe).
    pub(crate) fn send_internal(
        &mut self,
        request: Internal,
        purpose: Purpose,
        deadline: Option<u64>,
    ) -> Option<i64> {
        let id = self.pending.allocate();
        let capabilities = self.config.capabilities();
        let client_info = self.config.client_info.as_ref().map(AsView::view);
        let (body, meta) = match &request {
            Internal::Probe(version) => (
                Body::Call(&Spec::Discover, None),
                Some(Meta {
                    version,
                    capabilities,
                    client_info,
                }),
            ),
            Internal::Initialize(version) => (
                Body::Initialize {
                    version,
                    capabilities,
                    client_info,
                },
                None,
            ),
            Internal::Subscribe(uri) => (Body::Subscribe(uri), None),
            Internal::Unsubscribe(uri) => (Body::Unsubscribe(uri), None),
        };
        let method = match &request {
            Internal::Probe(_) => "server/discover",
            Internal::Initialize(_) => "initialize",
            Internal::Subscribe(_) => "resources/subscribe",
            Internal::Unsubscribe(_) => "resources/unsubscribe",
        };
        let bytes = wire::request(id, body, meta).ok()?;
        let protocol_version = match &request {
            Internal::Probe(v) => Some(v.clone()),
            Internal::Initialize(_) => None,
            Internal::Subscribe(_) | Internal::Unsubscribe(_) => match &self.phase {
                Phase::Ready(s) => Some(s.version.clone()),
                _ => None,
            },
        };
        self.pending.insert(
            id,
            Inflight {
                purpose,
                deadline,
                auth: self.auth,
            },
        );
        self.out.push_back(Output::Transmit(Transmit {
            bytes,
            id: Some(id),
            method: Some(Cow::Borrowed(method)),
            name: None,
            protocol_version,
            param_headers: Vec::new(),
            session_id: self.session_id(),
        }));
        Some(id)
    }

    /// The `_meta` of a modern request in the current phase; `None` when legacy.
    pub(crate) fn meta(&self) -> Option<Meta<'_>> {
        let version = match &self.phase {
            Phase::Ready(s) if s.era == Era::Modern => s.version.as_str(),
            Phase::Probing { version, .. } => version.as_str(),
            _ => return None,
        };
        Some(Meta {
            version,
            capabilities: self.config.capabilities(),
            client_info: self.config.client_info.as_ref().map(AsView::view),
        })
    }

    pub(crate) fn transmit(
        &mut self,
        bytes: Vec<u8>,
        id: Option<i64>,
        method: Option<Cow<'static, str>>,
        name: Option<String>,
    ) {
        self.transmit_with(bytes, id, method, name, Vec::new());
    }

    /// [`Client::transmit`] with the `Mcp-Param-*` headers of a `tools/call`.
    pub(crate) fn transmit_with(
        &mut self,
        bytes: Vec<u8>,
        id: Option<i64>,
        method: Option<Cow<'static, str>>,
        name: Option<String>,
        param_headers: Vec<(String, String)>,
    ) {
        let protocol_version = match &self.phase {
            Phase::Ready(s) => Some(s.version.clone()),
            _ => None,
        };
        self.out.push_back(Output::Transmit(Transmit {
            bytes,
            id,
            method,
            name,
            protocol_version,
            param_headers,
            session_id: self.session_id(),
        }));
    }

    /// The session id every request of a 2025-11-25 HTTP session carries.
    fn session_id(&self) -> Option<String> {
        self.http_session.as_ref().map(|s| s.id.clone())
    }

    pub(crate) fn emit(&mut self, event: Event) {
        self.out.push_back(Output::Event(event));
    }

    /// Ends `call` with `error`.
    pub(crate) fn fail(&mut self, call: CallId, error: CallError) {
        self.calls.remove(&call);
        self.emit(Event::Failed { call, error });
    }
}

/// The cache key of a cacheable request (docs/rules.md §4): method + `cursor` or `uri`.
pub(crate) fn cache_key(spec: &Spec) -> Option<CacheKey<'_>> {
    match spec {
        Spec::Discover => Some(CacheKey::Discover),
        Spec::List { kind, cursor, .. } => Some(CacheKey::List {
            list: *kind,
            cursor: cursor.as_deref(),
        }),
        Spec::Read { uri } => Some(CacheKey::Read { uri }),
        _ => None,
    }
}
