//! [`Server`]: the state, the run-loop entry points and the
//! per-request validation pipeline (docs/server-machine.md §Per-request validation).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::config::{CacheHint, ConfigError, ServerConfig};
use super::event::{CancelReason, Event};
use super::extension::Extensions;
use super::io::{Ctx, Output, Received, StreamId, Transport};
use super::legacy::Legacy;
use super::outbox::{self, Outbox};
use super::pending::PendingTable;
use super::registry::{Listed, Registry, VisibilityFilter};
use super::route::{IndexedRouter, TemplateRouter};
use super::subscriptions::Subscriptions;
use crate::error_code::ErrorCode;
use crate::http::{MALFORMED_META_STATUS, RequestHeaders};
use crate::json::{Encode, EncodeError, JsonStr, RawJson};
use crate::jsonrpc::{
    DecodeError, ErrorData, ErrorObject, ErrorResponse, FromJson, Message, Method, Notification,
    ParamsError, Request, RequestId, TypedResponse, recover_id,
};
use crate::messages::owned::AsView;
use crate::messages::{ClientRequest, RequestMeta, ResultMeta, Seq, ServerNotification};

/// HTTP status for a body that is not a JSON-RPC message (the spec fixes none, §19.9).
const MALFORMED_BODY_STATUS: u16 = 400;

/// The sans-IO MCP 2026-07-28 server for the context primitives.
///
/// See the [module docs](super) for the run loop. **Drain rule:** after every input
/// (`handle_message`, `handle_http`, `respond_*`, `fail`, `progress`, `handle_timeout`,
/// `resource_updated`, `*_list_changed`, `stream_closed`, `shutdown`) and after every wake of
/// the [waker](Server::set_waker), call [`Server::poll_output`] until it returns `None`, then
/// [`Server::poll_timeout`].
pub struct Server {
    pub(crate) config: ServerConfig,
    pub(crate) registry: Registry,
    pub(crate) router: Box<dyn TemplateRouter>,
    pub(crate) filter: Option<VisibilityFilter>,
    pub(crate) pending: PendingTable,
    pub(crate) subs: Subscriptions,
    pub(crate) out: Outbox,
    pub(crate) now: u64,
    /// The encoded `server/discover` result, rebuilt after any registry change.
    pub(crate) discover: Option<String>,
    /// Methods and capabilities the host added.
    pub(crate) ext: Extensions,
    /// 2025-11-25 streams and HTTP sessions (`server/legacy`).
    pub(crate) legacy: Legacy,
    /// Scopes items require (docs/rules.md §22.4).
    pub(crate) scopes: super::protect::ScopeTable,
    /// The step-up challenge of the request being handled, for its HTTP 403 answer.
    pub(crate) step_up_challenge: Option<String>,
    /// Observations, when the host asked for them ([`Server::observe`]).
    pub(crate) observer: Option<Box<crate::observe::track::Observer>>,
    /// The largest answer sent as is ([`Server::limit_responses`]).
    pub(crate) response_cap: Option<usize>,
    /// Whether requests stop at the gate first ([`Server::gate`]).
    pub(crate) gate: bool,
    /// The annotations of the request the gate admitted last (observations on).
    pub(crate) admitted: Option<Box<super::gate::Admitted>>,
}

impl core::fmt::Debug for Server {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Server")
            .field("resources", &self.registry.resources.len())
            .field("templates", &self.registry.templates.len())
            .field("prompts", &self.registry.prompts.len())
            .field("tools", &self.registry.tools.len())
            .field("pending", &self.pending.len())
            .field("subscriptions", &self.subs.len())
            .field("queued", &self.out.len())
            .finish_non_exhaustive()
    }
}

impl Server {
    /// A server with nothing registered.
    ///
    /// # Errors
    /// [`ConfigError`] for a configuration it cannot run with.
    pub fn new(config: ServerConfig) -> Result<Self, ConfigError> {
        config.check()?;
        Ok(Self {
            config,
            registry: Registry::default(),
            router: Box::new(IndexedRouter::default()),
            filter: None,
            pending: PendingTable::default(),
            subs: Subscriptions::default(),
            out: Outbox::default(),
            now: 0,
            discover: None,
            ext: Extensions::default(),
            legacy: Legacy::default(),
            scopes: super::protect::ScopeTable::default(),
            step_up_challenge: None,
            observer: None,
            response_cap: None,
            gate: false,
            admitted: None,
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    // ---- run loop ---------------------------------------------------------------------

    /// The next output, in the order produced; `None` when drained.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<Output> {
        let mut q = self.out.pop()?;
        if let Output::Transmit(t) = &mut q.output
            && (self.observer.is_some() || self.response_cap.is_some())
        {
            self.leaving(t);
        }
        if let Some((k, tag)) = &q.sub {
            self.subs.dequeued(*k, tag);
        }
        Some(self.legacy_shape(q.output))
    }

    /// Every queued output at once, appended to `out` in the order produced: what
    /// [`Server::poll_output`] gives until `None` (the drain rule in one call), so a binding
    /// returns the outputs of an input in the same crossing as the input.
    pub fn drain(&mut self, out: &mut Vec<Output>) {
        out.reserve(self.out.len());
        while let Some(o) = self.poll_output() {
            out.push(o);
        }
    }

    /// Installs the output-ready signal: the machine calls `waker.wake_by_ref()` each time
    /// an output is queued while the queue was empty, whatever queued it (`respond_*`,
    /// `fail`, `progress`, `resource_updated`, the list changes, `shutdown`,
    /// `handle_timeout`, `stream_closed`, `handle_message`), and at once when output is
    /// already waiting. After a wake, drain [`Server::poll_output`] until `None` (the drain
    /// rule); a host that answers events after async work thus writes the answer at once.
    /// Replaces any earlier waker.
    pub fn set_waker(&mut self, waker: core::task::Waker) {
        self.out.set_waker(waker);
    }

    /// Whether [`Server::poll_output`] has something to give.
    #[must_use]
    pub fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    /// The earliest instant (ms, the host's clock) at which [`Server::handle_timeout`] has
    /// work: the deadline of the oldest unanswered event.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        let legacy = self.legacy_next_deadline();
        match (self.pending.next_deadline(), legacy) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Fails every request whose deadline is at or before `now_ms` with -32603 and reports
    /// [`Event::Cancelled`] with [`CancelReason::TimedOut`].
    pub fn handle_timeout(&mut self, now_ms: u64) {
        self.tick(now_ms);
        self.legacy_timeout(self.now);
        for h in self.pending.expired(self.now) {
            if let Some(p) = self.pending.remove(h) {
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Request timed out");
                self.send_error(p.stream, p.transport, Some(p.id.as_ref()), &err, 200);
                self.out.event(Event::Cancelled {
                    handle: h,
                    reason: CancelReason::TimedOut,
                });
            }
        }
    }

    /// The transport closed `stream` (on HTTP: the client cancelled, docs/rules.md §16.10 rule 65).
    /// Its subscriptions end silently, its unanswered events are reported
    /// [`Event::Cancelled`], and nothing more is sent on it.
    pub fn stream_closed(&mut self, stream: StreamId) {
        if let Some(o) = self.observer.as_deref_mut() {
            o.closed(stream);
        }
        for k in self.subs.on_stream(stream) {
            self.subs.remove(k);
        }
        for h in self.pending.on_stream(stream) {
            self.pending.remove(h);
            self.out.event(Event::Cancelled {
                handle: h,
                reason: CancelReason::StreamClosed,
            });
        }
        self.out.purge_stream(stream);
        self.legacy_closed(stream);
    }

    /// Handles one JSON-RPC message received at `now_ms` from `ctx`.
    pub fn handle_message(&mut self, bytes: &[u8], now_ms: u64, ctx: Ctx) -> Received {
        self.receive(bytes, now_ms, ctx, None)
    }

    /// [`Server::handle_message`]; with `headers` (an HTTP POST, `server/http.rs`), requests
    /// are also checked against them after `_meta` (step 4 of the validation order).
    pub(crate) fn receive(
        &mut self,
        bytes: &[u8],
        now_ms: u64,
        ctx: Ctx,
        headers: Option<&RequestHeaders<'_>>,
    ) -> Received {
        self.tick(now_ms);
        match ClientRequest::decode_message(bytes, self.config.limits) {
            Ok((Message::Request(r), params)) => {
                self.observe_request(&r, ctx);
                if !self.legacy_request(&r, ctx) {
                    self.on_request_with(r, params, ctx, headers);
                }
                Received::Request
            }
            Ok((Message::Notification(n), _)) => {
                self.on_notification(n, ctx);
                Received::Notification
            }
            Ok((Message::Response(_) | Message::Error(_), _)) => {
                self.legacy_client_answer(bytes, ctx);
                Received::Response
            }
            Err(e) => {
                let id = match e {
                    DecodeError::Json(_) => None,
                    _ => recover_id(bytes),
                };
                let msg = format!("{e}");
                let err = ErrorObject::new(e.error_code(), &msg);
                self.send_error(ctx.stream, ctx.transport, id, &err, MALFORMED_BODY_STATUS);
                Received::Invalid
            }
        }
    }

    fn tick(&mut self, now_ms: u64) {
        self.now = self.now.max(now_ms);
    }

    /// docs/rules.md §19.8 order: `_meta` (-32602, 400), version (-32022), method and its server
    /// capability (-32601), then params (-32602). Unknown and removed methods are -32601
    /// before anything else, so legacy probes get the modern answer (docs/rules.md §17, §18).
    #[cfg(feature = "legacy")] // the 2025-11-25 paths re-enter here
    pub(crate) fn on_request(
        &mut self,
        r: Request<'_>,
        ctx: Ctx,
        headers: Option<&RequestHeaders<'_>>,
    ) {
        self.on_request_with(r, None, ctx, headers);
    }

    /// [`Server::on_request`] with the params the decode already read (`Some`: what
    /// `ClientRequest::from_request` returns, found in the same pass as the envelope).
    fn on_request_with<'a>(
        &mut self,
        r: Request<'a>,
        params: Option<Result<ClientRequest<'a>, ParamsError>>,
        ctx: Ctx,
        headers: Option<&RequestHeaders<'_>>,
    ) {
        if matches!(r.method, Method::ToolsList | Method::ToolsCall) && self.serves_tools() {
            return self.on_tools(r, ctx, headers);
        }
        let served = matches!(
            r.method,
            Method::ServerDiscover
                | Method::ResourcesList
                | Method::ResourcesTemplatesList
                | Method::ResourcesRead
                | Method::PromptsList
                | Method::PromptsGet
                | Method::CompletionComplete
                | Method::SubscriptionsListen
        );
        if !served {
            return match self.extension_method(r.method) {
                Some(name) => self.on_extension(r, ctx, name, headers),
                None => self.method_not_found(ctx, r.id, r.method),
            };
        }
        let decoded = match params {
            Some(decoded) => decoded,
            None => ClientRequest::from_request(&r),
        };
        let known = decoded.as_ref().ok().and_then(ClientRequest::meta).copied();
        let Some(meta) = self.envelope(&r, known, ctx, headers) else {
            return;
        };
        let declared = match r.method {
            Method::ResourcesList | Method::ResourcesTemplatesList | Method::ResourcesRead => {
                self.serves_resources()
            }
            Method::PromptsList | Method::PromptsGet => self.serves_prompts(),
            Method::CompletionComplete => self.serves_completions(),
            _ => true,
        };
        if !declared {
            return self.method_not_found(ctx, r.id, r.method);
        }
        match decoded {
            Ok(req) => self.dispatch(req, r.id, ctx, &meta),
            Err(e) => {
                let msg = format!("{e}");
                self.invalid_params(ctx, r.id, &msg);
            }
        }
    }

    /// Whether the request's protocol version is served; if not, -32022 (HTTP 400) with
    /// `data.supported` and `data.requested` was queued.
    pub(crate) fn version_served(
        &mut self,
        meta: &RequestMeta<'_>,
        ctx: Ctx,
        id: RequestId<'_>,
    ) -> bool {
        let supported = &self.config.supported_versions;
        if supported
            .iter()
            .any(|v| meta.protocol_version == v.as_str())
        {
            return true;
        }
        let err = ErrorObject {
            code: ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            message: JsonStr::new("Unsupported protocol version"),
            data: ErrorData::UnsupportedProtocolVersion {
                supported: Seq::from_source(supported),
                requested: meta.protocol_version,
            },
        };
        if let Some(bytes) = error_bytes(Some(id), &err) {
            let t = outbox::response(ctx.stream, ctx.transport, bytes, 400);
            self.out.transmit(t, None);
        }
        false
    }

    /// The envelope steps every request shares, in order: `_meta` (-32602, HTTP 400; `known`
    /// when the method's decoder already found it), headers against the body (-32020, HTTP
    /// only), the version (-32022). `None` when one of them answered the request.
    pub(crate) fn envelope<'a>(
        &mut self,
        r: &Request<'a>,
        known: Option<RequestMeta<'a>>,
        ctx: Ctx,
        headers: Option<&RequestHeaders<'_>>,
    ) -> Option<RequestMeta<'a>> {
        let meta = match known.map_or_else(|| meta_of(r.params), Ok) {
            Ok(m) => m,
            Err(e) => {
                let msg = format!("{e}");
                let err = ErrorObject::new(ErrorCode::INVALID_PARAMS, &msg);
                self.reply_error(ctx, r.id, &err, MALFORMED_META_STATUS);
                return None;
            }
        };
        if let Some(h) = headers
            && self.header_mismatch(h, r, &meta, ctx)
        {
            return None;
        }
        self.version_served(&meta, ctx, r.id).then_some(meta)
    }

    fn on_notification(&mut self, n: Notification<'_>, ctx: Ctx) {
        // The only client notification of the core protocol (docs/rules.md §1.3); invalid
        // cancellations are ignored (docs/rules.md §12).
        if let Ok(ServerNotification::Cancelled(p)) = ServerNotification::from_notification(&n)
            && !self.legacy_cancelled(ctx, &p.request_id)
        {
            self.cancel(ctx.stream, &p.request_id);
        }
    }

    /// A client cancelled request `id` on `stream`: a listen subscription ends, an
    /// unanswered event is reported; nothing more is sent for it (docs/rules.md §16.9 rule 56).
    pub(crate) fn cancel(&mut self, stream: StreamId, id: &RequestId<'_>) {
        if let Some(o) = self.observer.as_deref_mut() {
            o.cancelled(stream, id);
        }
        if let Some(k) = self.subs.find(stream, id) {
            self.subs.remove(k);
            self.out.purge_subscription(k);
        } else if let Some(h) = self.pending.find(stream, id) {
            if let Some(p) = self.pending.remove(h) {
                self.out.forget_stream(p.stream);
            }
            self.out.event(Event::Cancelled {
                handle: h,
                reason: CancelReason::Client,
            });
        }
    }

    // ---- capabilities -----------------------------------------------------------------

    pub(crate) fn serves_resources(&self) -> bool {
        self.config.declare_resources
            || self.config.forward_unlisted_reads
            || self.config.dynamic_resources
            || !self.registry.resources.is_empty()
            || !self.registry.templates.is_empty()
    }

    pub(crate) fn serves_prompts(&self) -> bool {
        self.config.declare_prompts || !self.registry.prompts.is_empty()
    }

    pub(crate) fn serves_completions(&self) -> bool {
        self.config.completion_events || self.registry.has_value_sets()
    }

    /// Whether `item` is visible to `auth`.
    pub(crate) fn visible(&self, auth: u64, item: Listed<'_>) -> bool {
        self.filter.as_ref().is_none_or(|f| f(auth, item))
    }

    /// Whether `item` is listed to `ctx`'s caller: visible, and its required scopes held
    /// (docs/rules.md §22.4).
    pub(crate) fn listed(&self, ctx: &Ctx, item: Listed<'_>) -> bool {
        self.visible(ctx.auth, item) && self.scopes_missing(ctx, item.scoped()).is_empty()
    }

    /// `hint`, made private when results depend on the caller: a visibility filter, or a
    /// protected endpoint (docs/rules.md §4, §22.5).
    pub(crate) fn scoped(&self, hint: CacheHint) -> CacheHint {
        if self.filter.is_some() || self.config.protection.is_some() {
            CacheHint::private(hint.ttl_ms)
        } else {
            hint
        }
    }

    pub(crate) fn result_meta(&self) -> Option<ResultMeta<'_>> {
        self.config
            .server_info
            .as_ref()
            .map(|i| ResultMeta::server_info(i.view()))
    }

    // ---- answering --------------------------------------------------------------------

    /// Sends a successful response whose result encoding was `encoded`; an encoding
    /// failure (a value the schema forbids) becomes -32603.
    pub(crate) fn reply<R: Encode>(&mut self, ctx: Ctx, id: RequestId<'_>, result: &R) {
        self.respond_on(ctx.stream, ctx.transport, id, result);
    }

    pub(crate) fn respond_on<R: Encode>(
        &mut self,
        stream: StreamId,
        transport: Transport,
        id: RequestId<'_>,
        result: &R,
    ) {
        match outbox::encode(&TypedResponse { id, result }) {
            Ok(bytes) => self
                .out
                .transmit(outbox::response(stream, transport, bytes, 200), None),
            Err(e) => self.encode_failed(stream, transport, id, e),
        }
    }

    fn encode_failed(
        &mut self,
        stream: StreamId,
        transport: Transport,
        id: RequestId<'_>,
        _: EncodeError,
    ) {
        let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
        self.send_error(stream, transport, Some(id), &err, 200);
    }

    pub(crate) fn reply_error<'a>(
        &mut self,
        ctx: Ctx,
        id: RequestId<'a>,
        err: &ErrorObject<'a>,
        status: u16,
    ) {
        self.send_error(ctx.stream, ctx.transport, Some(id), err, status);
    }

    pub(crate) fn send_error<'a>(
        &mut self,
        stream: StreamId,
        transport: Transport,
        id: Option<RequestId<'a>>,
        error: &ErrorObject<'a>,
        status: u16,
    ) {
        if let Some(bytes) = error_bytes(id, error) {
            self.out
                .transmit(outbox::response(stream, transport, bytes, status), None);
        }
    }

    pub(crate) fn invalid_params(&mut self, ctx: Ctx, id: RequestId<'_>, message: &str) {
        let err = ErrorObject::new(ErrorCode::INVALID_PARAMS, message);
        self.reply_error(ctx, id, &err, 200);
    }

    fn method_not_found(&mut self, ctx: Ctx, id: RequestId<'_>, method: Method<'_>) {
        // A modern-only server SHOULD name its versions to an `initialize` (docs/rules.md §17.2).
        let data = match method {
            Method::Initialize => {
                let mut text = String::from("{\"supported\":[");
                for (i, v) in self.config.supported_versions.iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    text.push('"');
                    text.push_str(v);
                    text.push('"');
                }
                text.push_str("]}");
                Some(text)
            }
            _ => None,
        };
        let err = ErrorObject {
            code: ErrorCode::METHOD_NOT_FOUND,
            message: JsonStr::new("Method not found"),
            data: match data.as_deref().map(|t| RawJson::parse(t.as_bytes())) {
                Some(Ok(raw)) => ErrorData::Raw(raw),
                _ => ErrorData::None,
            },
        };
        self.reply_error(ctx, id, &err, 404);
    }

    /// Number of requests waiting for the application.
    #[must_use]
    pub fn pending_requests(&self) -> usize {
        self.pending.len()
    }

    /// Number of live listen subscriptions.
    #[must_use]
    pub fn subscriptions(&self) -> usize {
        self.subs.len()
    }
}

/// An error response's bytes; an error whose encoding fails (cannot happen for the
/// machine's own errors) degrades to -32603.
fn error_bytes<'a>(id: Option<RequestId<'a>>, error: &ErrorObject<'a>) -> Option<Vec<u8>> {
    outbox::encode(&ErrorResponse { id, error: *error })
        .or_else(|_| {
            let error = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
            outbox::encode(&ErrorResponse { id, error })
        })
        .ok()
}

/// `params._meta` alone, to tell a malformed `_meta` (-32602, HTTP 400) from other bad
/// params.
pub(crate) fn meta_of(params: Option<RawJson<'_>>) -> Result<RequestMeta<'_>, ParamsError> {
    let m = params.and_then(|p| p.get("_meta")).ok_or(ParamsError::new(
        crate::jsonrpc::ParamsErrorKind::Missing,
        "_meta",
    ))?;
    RequestMeta::from_json(m)
}
