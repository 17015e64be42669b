//! Methods and capabilities the host adds (docs/server-machine.md §Extension methods):
//! `tools/list`, `tools/call`, `logging/setLevel`, vendor methods. The machine validates the
//! envelope, `_meta` and the version exactly as for its own methods, verifies a retry's
//! `requestState`, and emits [`Event::Request`]; the host answers with a result object
//! ([`Server::respond_result`]), an error ([`Server::fail`]) or `input_required`
//! ([`Server::respond_input_required`]). Unregistered methods stay -32601.

use super::vecmap::{VecMap, VecSet};
use alloc::format;
use alloc::string::String;

use super::config::CacheHint;
use super::event::{DeclaredCapabilities, Event, Handle, RequestEvent, Retry};
use super::io::Ctx;
use super::machine::Server;
use super::mrtr;
use super::outbox;
use super::pending::{Bound, Owed};
use super::registry::RegisterError;
use super::reply::RespondError;
use crate::http::RequestHeaders;
use crate::json::{Encode, EncodeError, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{FromJson, Method, Request, RequestId, TypedResponse};
use crate::messages::owned::{AsView, OwnedJson};
use crate::messages::{DiscoverResult, Implementation, InputResponses, ResultMeta};

/// What the host registered: method names and extra `server/discover` capabilities.
#[derive(Debug, Default)]
pub(crate) struct Extensions {
    pub(crate) methods: VecSet<String>,
    pub(crate) capabilities: VecMap<String, OwnedJson>,
}

/// Whether the core owns `method`: it serves it, answers it itself (`initialize`), it is a
/// legacy method replaced by one the core serves, a server-to-client request, or a
/// notification.
fn core_owned(method: &str) -> bool {
    method.is_empty()
        || method.starts_with("notifications/")
        || matches!(
            Method::from_name(method),
            Method::ServerDiscover
                | Method::ResourcesList
                | Method::ResourcesTemplatesList
                | Method::ResourcesRead
                | Method::PromptsList
                | Method::PromptsGet
                | Method::CompletionComplete
                | Method::SubscriptionsListen
                | Method::Initialize
                | Method::ResourcesSubscribe
                | Method::ResourcesUnsubscribe
                | Method::ElicitationCreate
                | Method::SamplingCreateMessage
                | Method::RootsList
        )
}

/// `tools/list` and `tools/call`: the host's own while no tool is registered in the core.
pub(crate) fn is_tools_method(method: &str) -> bool {
    method == "tools/list" || method == "tools/call"
}

/// Capabilities the machine derives from what is registered and configured.
const DERIVED_CAPABILITIES: [&str; 3] = ["resources", "prompts", "completions"];

impl Server {
    /// Serves `method` (e.g. `tools/list`, `tools/call`, `acme/search`): its requests are
    /// validated like the core's own and reported as [`Event::Request`]. Registering a method
    /// twice is harmless.
    ///
    /// # Errors
    /// [`RegisterError::CoreMethod`] for a method the core owns: the context primitives,
    /// `server/discover`, `subscriptions/listen`, `initialize`, `resources/subscribe` and
    /// `resources/unsubscribe`, the server-to-client requests (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`), notifications, and the empty name.
    pub fn add_method(&mut self, method: &str) -> Result<(), RegisterError> {
        if core_owned(method) {
            return Err(RegisterError::CoreMethod);
        }
        if is_tools_method(method) && self.serves_tools() {
            return Err(RegisterError::ToolsByMethod);
        }
        self.ext.methods.add(String::from(method));
        Ok(())
    }

    /// Stops serving `method` (its requests get -32601 again); `false` if it was not
    /// registered. Requests already reported stay answerable.
    pub fn remove_method(&mut self, method: &str) -> bool {
        self.ext.methods.take(method)
    }

    /// Announces `key: value` in `server/discover`'s `capabilities` (e.g. `"tools"`,
    /// `{"listChanged":true}`), replacing an earlier value for `key`.
    ///
    /// # Errors
    /// [`RegisterError::CoreCapability`] for `resources`, `prompts` and `completions` (the
    /// machine derives them from what is registered; see
    /// [`ServerConfig::declare_resources`](super::ServerConfig::declare_resources));
    /// [`RegisterError::NotAnObject`] when `value` is not a JSON object (the schema's
    /// capabilities are objects).
    pub fn set_capability(&mut self, key: &str, value: OwnedJson) -> Result<(), RegisterError> {
        if DERIVED_CAPABILITIES.contains(&key) {
            return Err(RegisterError::CoreCapability);
        }
        if key == "tools" && self.serves_tools() {
            return Err(RegisterError::ToolsByMethod);
        }
        if value.as_raw().object().is_none() {
            return Err(RegisterError::NotAnObject);
        }
        self.ext.capabilities.insert(String::from(key), value);
        self.discover = None;
        Ok(())
    }

    /// Withdraws a capability set with [`Server::set_capability`]; `false` if none was set.
    pub fn remove_capability(&mut self, key: &str) -> bool {
        self.discover = None;
        self.ext.capabilities.remove(key).is_some()
    }

    /// Whether `tools: {listChanged: true}` is announced (tools registered in the core, or
    /// the host's own capability): listen subscriptions then honour `toolsListChanged`, and
    /// [`Server::tools_list_changed`] reaches them.
    pub(crate) fn announces_tools_list_changed(&self) -> bool {
        self.serves_tools()
            || self
                .ext
                .capabilities
                .get("tools")
                .and_then(|v| v.as_raw().get("listChanged"))
                .and_then(|v| v.as_bool())
                == Some(true)
    }

    /// The registered name of `method`, when the host serves it.
    pub(crate) fn extension_method(&self, method: Method<'_>) -> Option<String> {
        if self.ext.methods.is_empty() {
            return None;
        }
        let name = match method {
            Method::UnknownEscaped(src) => JsonStr::from_source(src, true).to_cow(),
            other => alloc::borrow::Cow::Borrowed(other.as_str()),
        };
        self.ext
            .methods
            .contains_key(name.as_ref())
            .then(|| name.into_owned())
    }

    /// A request for a registered method, in the order of the core's own
    /// (docs/server-machine.md §Per-request validation):
    /// `_meta` (-32602, HTTP 400), version (-32022), then the MRTR retry inputs (-32602).
    pub(crate) fn on_extension(
        &mut self,
        r: Request<'_>,
        ctx: Ctx,
        method: String,
        headers: Option<&RequestHeaders<'_>>,
    ) {
        let Some(meta) = self.envelope(&r, None, ctx, headers) else {
            return;
        };
        // `_meta` was found, so `params` is an object; answer anyway if not.
        let Some(params) = r.params else {
            return self.invalid_params(ctx, r.id, "params: expected an object");
        };
        let Some(retry) = self.raw_retry(ctx, r.id, &method, params) else {
            return;
        };
        let caps = DeclaredCapabilities::of(&meta.client_capabilities);
        let params = OwnedJson::from_raw(params);
        let bound = Bound::Method {
            method: method.clone(),
            params: params.clone(),
        };
        self.ask(
            ctx,
            r.id,
            Owed::Method,
            Some(&meta),
            Some(bound),
            |handle, progress| {
                Event::Request(RequestEvent {
                    handle,
                    method,
                    params,
                    progress,
                    auth: ctx.auth,
                    capabilities: caps,
                    retry,
                })
            },
        );
    }

    /// The MRTR inputs of a params object the machine does not decode itself (a registered
    /// method's, `tools/call`'s): `requestState` (a string, opened and verified against
    /// `method` and the params' digest) and `inputResponses` (an object). `None` when an
    /// error (-32602) was answered.
    pub(crate) fn raw_retry(
        &mut self,
        ctx: Ctx,
        id: RequestId<'_>,
        method: &str,
        params: RawJson<'_>,
    ) -> Option<Option<Retry>> {
        let state = match params.get("requestState") {
            None => None,
            Some(v) => match v.as_str() {
                Some(s) => Some(s),
                None => {
                    self.invalid_params(ctx, id, "requestState: expected a string");
                    return None;
                }
            },
        };
        let responses = match params.get("inputResponses") {
            None => None,
            Some(v) => match InputResponses::from_json(v) {
                Ok(m) => Some(m),
                Err(e) => {
                    self.invalid_params(ctx, id, &format!("{e}"));
                    return None;
                }
            },
        };
        let binding = || mrtr::method_binding(method, params);
        match self.retry_inputs(state, responses, binding, ctx.auth) {
            Ok(r) => Some(r),
            Err(e) => {
                self.invalid_params(ctx, id, &format!("{e}"));
                None
            }
        }
    }

    /// Answers a [`RequestEvent`] with `result`, a JSON object in the method's result shape
    /// (e.g. `{"tools":[…]}` or `{"content":[…]}`). The machine writes `resultType:
    /// "complete"` first, adds `_meta.serverInfo` (keeping the other `_meta` keys given),
    /// and, when `cache` is given, `ttlMs` and `cacheScope` (replacing any given). Give
    /// `cache` for cacheable results (`tools/list`: the schema requires the hints).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`] (not a registered-method
    /// event), [`RespondError::InvalidResult`] (not an object, a `resultType` other than
    /// `"complete"`, or a `_meta` that is not an object); the request gets -32603 unless the error [is late](RespondError::is_late).
    pub fn respond_result(
        &mut self,
        handle: Handle,
        result: OwnedJson,
        cache: Option<CacheHint>,
    ) -> Result<(), RespondError> {
        let r = self.answer_result(handle, result, cache);
        self.settle(handle, r)
    }

    fn answer_result(
        &mut self,
        handle: Handle,
        result: OwnedJson,
        cache: Option<CacheHint>,
    ) -> Result<(), RespondError> {
        let p = self
            .pending
            .get(handle)
            .ok_or(RespondError::UnknownHandle)?;
        if !matches!(p.owed, Owed::Method) {
            return Err(RespondError::WrongKind);
        }
        let raw = result.as_raw();
        let complete = |v: RawJson<'_>| v.as_str().is_some_and(|s| s == "complete");
        if raw.object().is_none()
            || raw.get("resultType").is_some_and(|v| !complete(v))
            || raw.get("_meta").is_some_and(|v| v.object().is_none())
        {
            return Err(RespondError::InvalidResult);
        }
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let server_info = self.config.server_info.as_ref().map(AsView::view);
        let encoded = outbox::encode(&TypedResponse {
            id: p.id.as_ref(),
            result: HostResult {
                raw,
                cache,
                server_info,
            },
        });
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }

    /// The `capabilities` object of `server/discover`: the derived ones, then the host's
    /// (a host key replaces nothing derived: those keys are refused).
    pub(crate) fn merged_capabilities(&self, derived: RawJson<'_>) -> Option<String> {
        if self.ext.capabilities.is_empty() {
            return Some(String::from(derived.as_text()));
        }
        let bytes = outbox::encode(&MergedCaps {
            derived,
            extra: &self.ext.capabilities,
        })
        .ok()?;
        String::from_utf8(bytes).ok()
    }
}

/// A host's result object with the machine's members.
pub(crate) struct HostResult<'a> {
    pub(crate) raw: RawJson<'a>,
    pub(crate) cache: Option<CacheHint>,
    pub(crate) server_info: Option<Implementation<'a>>,
}

impl Encode for HostResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_object()?;
        w.field("resultType", "complete")?;
        for (k, v) in self.raw.object().into_iter().flatten() {
            let ours = k == "resultType"
                || k == "_meta"
                || (self.cache.is_some() && (k == "ttlMs" || k == "cacheScope"));
            if !ours {
                w.json_key(k)?;
                w.raw(v)?;
            }
        }
        if let Some(c) = self.cache {
            w.field("ttlMs", &c.ttl_ms)?;
            w.field("cacheScope", &c.scope)?;
        }
        let host_meta = self.raw.get("_meta");
        match self.server_info {
            Some(info) => w.field(
                "_meta",
                &ResultMeta {
                    server_info: Some(info),
                    subscription_id: None,
                    extra: host_meta,
                },
            )?,
            None => w.opt_field("_meta", &host_meta)?,
        }
        w.end_object()
    }
}

struct MergedCaps<'a> {
    derived: RawJson<'a>,
    extra: &'a VecMap<String, OwnedJson>,
}

impl Encode for MergedCaps<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_object()?;
        for (k, v) in self.derived.object().into_iter().flatten() {
            if !self.extra.keys().any(|e| k == e.as_str()) {
                w.json_key(k)?;
                w.raw(v)?;
            }
        }
        for (k, v) in self.extra {
            w.field(k, &v.as_raw())?;
        }
        w.end_object()
    }
}

/// A `server/discover` result whose `capabilities` object is given as JSON (derived and
/// host capabilities merged); the other members as [`DiscoverResult`] writes them.
pub(crate) struct DiscoverOut<'a> {
    pub(crate) result: DiscoverResult<'a>,
    pub(crate) capabilities: RawJson<'a>,
}

impl Encode for DiscoverOut<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        let r = &self.result;
        w.begin_object()?;
        w.opt_field("resultType", &r.result_type)?;
        w.field("supportedVersions", &r.supported_versions)?;
        w.field("capabilities", &self.capabilities)?;
        w.opt_field("instructions", &r.instructions)?;
        w.opt_field("ttlMs", &r.ttl_ms)?;
        w.opt_field("cacheScope", &r.cache_scope)?;
        w.opt_field("_meta", &r.meta)?;
        w.end_object()
    }
}
