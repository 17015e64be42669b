//! The 2025-11-25 era of the dual-era server machine (docs/server-machine.md §"Legacy
//! sessions"; spec 2026-07-28, basic/versioning: "A dual-era server ... MAY serve both eras
//! concurrently").
//!
//! An `initialize` selects legacy semantics for its stream (stdio: the connection) or its
//! HTTP session; a request with modern `_meta` stays stateless modern. This module owns only
//! what 2025-11-25 has and 2026-07-28 does not: `initialize` with version negotiation,
//! `ping`, `resources/subscribe` / `resources/unsubscribe` with unsolicited
//! `notifications/resources/updated`, list-changed notifications pushed to every legacy
//! stream, `logging/setLevel` ([`logging`]), server-to-client requests for `input_required`
//! ([`bridge`]), HTTP sessions ([`session`]) and the shape of results ([`shape`]). Every other
//! request is rebuilt with modern `_meta` and runs through the modern pipeline (catalogue,
//! routing, completion, prompts, visibility, cancellation: one code path), and its answer is
//! reshaped on the way out.
//!
//! | piece | where |
//! | --- | --- |
//! | dispatch hook | `Server::receive` (`machine.rs`) calls [`Server::legacy_request`] |
//! | output hook | `Server::poll_output` and `handle_http` call [`Server::legacy_shape`] |
//! | HTTP sessions | `server/http.rs` with [`session::Sessions`] |
//! | capabilities and log level per connection or session | [`peer`] |
//! | `input_required` as server-to-client requests | [`bridge`] |
//! | `logging/setLevel`, `notifications/message` | [`logging`] |

mod bridge;
mod logging;
mod peer;
mod session;
mod shape;
mod shared;

use super::vecmap::{VecMap, VecSet};
use alloc::string::String;
use alloc::vec::Vec;

use session::negotiated;
pub(crate) use session::{Bounds, Sessions};
pub use shared::{
    SESSION_ORIGIN_LEN, SessionChange, SessionEvent, SessionImportError, SessionLoad,
    SessionMessage, session_event_seq,
};

use super::io::{Ctx, StreamId, Transport};
use super::machine::Server;
use super::outbox;
use crate::error_code::ErrorCode;
use crate::json::{Encode, JsonSink, Writer};
use crate::jsonrpc::{ErrorObject, Message, Method, Request};
use crate::messages::owned::{AsView, ListKind, OwnedListChanged, OwnedResourceUpdated};

/// The 2025-era revisions this server negotiates: a client asking for one of them gets it;
/// any other gets the first (spec 2025-11-25, basic/lifecycle "Version Negotiation"). Every
/// answer is shaped as the 2025-11-25 schema says (the older revisions' shapes are subsets).
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26"];

/// Resource subscriptions one legacy stream or session may hold.
const MAX_SUBSCRIPTIONS: usize = 1024;

/// Which legacy era a stream belongs to.
#[derive(Debug)]
enum Era {
    /// A stdio connection after `initialize`, with its `resources/subscribe` URIs.
    Stdio { subs: VecSet<String> },
    /// One HTTP POST of a session, until its answer is out.
    Post,
}

/// Legacy state: streams whose answers go to 2025-11-25 clients, and HTTP sessions.
#[derive(Debug, Default)]
pub(crate) struct Legacy {
    streams: VecMap<StreamId, Era>,
    pub(crate) sessions: Sessions,
    /// The session an `initialize` created in the current `handle_http` call.
    pub(crate) created: Option<String>,
    /// The session of the current `handle_http` call (for `resources/subscribe`).
    pub(crate) current: Option<String>,
    /// An `initialize` of the current `handle_http` call found no place: the
    /// `Retry-After` seconds for its 503 or 429.
    pub(crate) retry_after_s: Option<u64>,
    /// The current `handle_http` request's `MCP-Protocol-Version` names a modern revision:
    /// a modern envelope claim, as `_meta` is.
    pub(crate) modern_header: bool,
    /// Requests with a modern claim on a legacy stdio connection, `(stream, id as JSON)`:
    /// their answers keep the modern shape.
    modern_ids: VecSet<(StreamId, String)>,
    /// Per connection or session: capabilities, log level, outstanding client requests.
    peers: peer::Peers,
    /// Requests waiting for the client's answers to server-to-client requests.
    bridge: bridge::Bridge,
}

impl Legacy {
    /// Marks `stream` as one HTTP POST of a legacy session.
    pub(crate) fn mark_post(&mut self, stream: StreamId) {
        self.streams.insert(stream, Era::Post);
    }

    /// Forgets an HTTP POST stream (its answer is out, or it was not a request).
    pub(crate) fn forget_post(&mut self, stream: StreamId) {
        if matches!(self.streams.get(&stream), Some(Era::Post)) {
            self.streams.remove(&stream);
            self.peers.forget_post(stream);
        }
    }

    pub(crate) fn is_legacy(&self, stream: StreamId) -> bool {
        self.streams.contains_key(&stream)
    }
}

/// Whether a session accepts the `MCP-Protocol-Version` header value `v`: any revision this
/// server negotiates ([`LEGACY_VERSIONS`]), not only the session's own (the official SDKs
/// accept any version they support; the spec asks clients to send the negotiated one with a
/// SHOULD). Anything else, a modern revision included (2026-07-28 has no sessions), is 400
/// (spec 2025-11-25, basic/transports "Protocol Version Header"; docs/rules.md §17.3 item 9).
pub(crate) fn session_speaks(v: &str) -> bool {
    LEGACY_VERSIONS.contains(&v)
}

impl Server {
    /// Number of open 2025-11-25 HTTP sessions.
    #[must_use]
    pub fn open_sessions(&self) -> usize {
        self.legacy.sessions.len()
    }

    /// The legacy dispatch: `true` when the request was handled here (`initialize` on any
    /// stream; every request on a legacy stream), `false` for the modern pipeline.
    pub(crate) fn legacy_request(&mut self, r: &Request<'_>, ctx: Ctx) -> bool {
        // The modern hot path: legacy off, or neither `initialize` nor a legacy stream.
        if !self.config.legacy_sessions
            || (r.method != Method::Initialize && !self.legacy.is_legacy(ctx.stream))
        {
            return false;
        }
        // The common case, first and cheap: a stream that is not legacy and a request that is
        // not `initialize` have nothing to do here (the checks below would only conclude
        // that, after scanning `params._meta`; docs/server-machine.md §Cost per read).
        if r.method != Method::Initialize && !self.legacy.is_legacy(ctx.stream) {
            return false;
        }
        // A modern envelope claim (`_meta` protocolVersion, or a modern MCP-Protocol-Version
        // header) is served statelessly as modern, whatever the method or stream (spec,
        // versioning: "a request with modern `_meta`" is modern; the official conformance
        // suite sends `initialize` with `_meta` and expects -32601).
        if self.legacy.modern_header || modern_claim(r) {
            match self.legacy.streams.get(&ctx.stream) {
                Some(Era::Stdio { .. }) => {
                    if let Some(id) = id_text(r) {
                        self.legacy.modern_ids.add((ctx.stream, id));
                    }
                }
                Some(Era::Post) => self.legacy.forget_post(ctx.stream),
                None => {}
            }
            return false;
        }
        if r.method == Method::Initialize {
            self.legacy_initialize(r, ctx);
            return true;
        }
        if !self.legacy.is_legacy(ctx.stream) {
            return false;
        }
        match r.method {
            Method::Ping => self.legacy_empty_result(ctx, r),
            Method::LoggingSetLevel => self.legacy_set_level(r, ctx),
            Method::ResourcesSubscribe | Method::ResourcesUnsubscribe => {
                self.legacy_subscribe(r, ctx);
            }
            // Modern-only methods do not exist for a 2025-11-25 client.
            Method::ServerDiscover | Method::SubscriptionsListen => {
                let err = ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, "Method not found");
                self.reply_error(ctx, r.id, &err, 200);
            }
            _ => {
                let version = self
                    .config
                    .supported_versions
                    .first()
                    .cloned()
                    .unwrap_or_default();
                let peer = self.legacy_peer(ctx);
                let state = peer.as_ref().and_then(|p| self.legacy.peers.get(p));
                let caps = state.map_or("{}", |s| s.caps.as_str());
                let level = state.and_then(|s| s.level);
                match shape::modern_request(r, &version, caps, level) {
                    Some(bytes) => {
                        if let Ok(Message::Request(m)) =
                            Message::decode_with(&bytes, self.config.limits)
                        {
                            self.on_request(m, ctx, None);
                        }
                    }
                    None => {
                        let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
                        self.reply_error(ctx, r.id, &err, 200);
                    }
                }
            }
        }
        true
    }

    /// `initialize` (spec 2025-11-25, basic/lifecycle): negotiates the version, answers the
    /// `InitializeResult` and makes the stream (stdio) or a new session (HTTP) legacy.
    fn legacy_initialize(&mut self, r: &Request<'_>, ctx: Ctx) {
        let requested = r
            .params
            .and_then(|p| p.get("protocolVersion"))
            .and_then(|v| v.as_str());
        let Some(requested) = requested else {
            let err = ErrorObject::new(
                ErrorCode::INVALID_PARAMS,
                "Invalid params: initialize needs a string protocolVersion",
            );
            return self.reply_error(ctx, r.id, &err, 200);
        };
        // A second `initialize` on an initialized connection or inside a session is refused,
        // as the official TypeScript server does (-32600, HTTP 400): initialization is the
        // first interaction of a session, once (spec 2025-11-25, basic/lifecycle;
        // docs/rules.md §17.3 item 10). The client starts a new session without the id.
        let again = match ctx.transport {
            Transport::Stdio => self.legacy.is_legacy(ctx.stream),
            Transport::Http => self.legacy.current.is_some(),
        };
        if again {
            self.legacy.forget_post(ctx.stream);
            let err = ErrorObject::new(
                ErrorCode::INVALID_REQUEST,
                "Invalid Request: Server already initialized",
            );
            return self.reply_error(ctx, r.id, &err, 400);
        }
        let version = negotiated(requested.to_cow().as_ref());
        let capabilities = r.params.and_then(|p| p.get("capabilities"));
        match ctx.transport {
            Transport::Stdio => {
                self.legacy
                    .streams
                    .get_or_insert_with(ctx.stream, || Era::Stdio {
                        subs: VecSet::new(),
                    });
                self.legacy
                    .peers
                    .open(peer::Peer::Stdio(ctx.stream), ctx, capabilities);
            }
            Transport::Http => {
                let secret = self
                    .config
                    .state_keys
                    .first()
                    .map(|k| k.secret.clone())
                    .unwrap_or_default();
                let bounds = self.session_bounds();
                self.legacy.sessions.prune(self.now, &bounds);
                let id = match self
                    .legacy
                    .sessions
                    .create(ctx.auth, ctx.peer, self.now, &secret, &bounds)
                {
                    Ok(id) => id,
                    Err(full) => {
                        let limit = match full {
                            session::Full::Peer { .. } => crate::observe::Limit::SessionsPerPeer,
                            session::Full::Table { .. } => crate::observe::Limit::Sessions,
                        };
                        self.observe_refusal(limit, &ctx);
                        let (status, retry) = full.status_and_retry();
                        self.legacy.retry_after_s = Some(retry);
                        let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Too many sessions");
                        return self.reply_error(ctx, r.id, &err, status);
                    }
                };
                if let Some(s) = self.legacy.sessions.get_mut(&id, ctx.auth) {
                    s.version = negotiated(requested.to_cow().as_ref());
                    if let Some(info) = r.params.and_then(|p| p.get("clientInfo")) {
                        s.client = String::from(info.as_text());
                    }
                }
                let sessions = &self.legacy.sessions;
                self.legacy.peers.retain_sessions(|s| sessions.contains(s));
                self.legacy
                    .peers
                    .open(peer::Peer::Session(id.clone()), ctx, capabilities);
                self.legacy.created = Some(id);
                self.legacy.mark_post(ctx.stream);
            }
        }
        let bytes = encode_with(|w| {
            w.begin_object()?;
            w.key("jsonrpc")?;
            w.str("2.0")?;
            w.key("id")?;
            r.id.encode(w)?;
            w.key("result")?;
            w.begin_object()?;
            w.key("protocolVersion")?;
            w.str(version)?;
            w.key("capabilities")?;
            self.legacy_capabilities(w)?;
            w.key("serverInfo")?;
            match &self.config.server_info {
                Some(info) => info.view().encode(w)?,
                None => {
                    w.begin_object()?;
                    w.key("name")?;
                    w.str("mcp-context")?;
                    w.key("version")?;
                    w.str(env!("CARGO_PKG_VERSION"))?;
                    w.end_object()?;
                }
            }
            if let Some(text) = &self.config.instructions {
                w.key("instructions")?;
                w.str(text)?;
            }
            w.end_object()?;
            w.end_object()
        });
        self.legacy_transmit(ctx, bytes);
    }

    /// The session bounds of the configuration.
    pub(crate) fn session_bounds(&self) -> Bounds {
        Bounds {
            max: self.config.max_sessions,
            per_peer: self.config.max_sessions_per_peer,
            idle_ms: self.config.session_idle_ms,
            handshake_ms: self.config.session_handshake_ms,
        }
    }

    /// `ServerCapabilities` as the registry implies them (the same rules as `server/discover`):
    /// `resources {subscribe, listChanged}`, `prompts {listChanged}`, `completions`, then
    /// the host's extra capabilities.
    fn legacy_capabilities<S: JsonSink + ?Sized>(
        &self,
        w: &mut Writer<'_, S>,
    ) -> Result<(), crate::json::EncodeError> {
        w.begin_object()?;
        if self.serves_resources() {
            w.key("resources")?;
            w.begin_object()?;
            w.key("subscribe")?;
            w.bool(true)?;
            w.key("listChanged")?;
            w.bool(true)?;
            w.end_object()?;
        }
        let listed = [
            ("prompts", self.serves_prompts()),
            ("completions", self.serves_completions()),
            ("tools", self.serves_tools()),
        ];
        for (key, on) in listed {
            if on {
                w.key(key)?;
                w.begin_object()?;
                if key != "completions" {
                    w.key("listChanged")?;
                    w.bool(true)?;
                }
                w.end_object()?;
            }
        }
        // `logging/setLevel` is the core's for legacy clients (`logging.rs`).
        if !self.ext.capabilities.contains_key("logging") {
            w.key("logging")?;
            w.begin_object()?;
            w.end_object()?;
        }
        // The host's own (`set_capability`: `tools`, `logging`, …), as in `server/discover`.
        for (k, v) in &self.ext.capabilities {
            w.key(k)?;
            w.raw(v.as_raw())?;
        }
        w.end_object()
    }

    /// The legacy client `ctx` belongs to: its stdio connection, or the session of its
    /// HTTP POST (mapped to the session from here on, for answers given later).
    fn legacy_peer(&mut self, ctx: Ctx) -> Option<peer::Peer> {
        match self.legacy.streams.get(&ctx.stream)? {
            Era::Stdio { .. } => Some(peer::Peer::Stdio(ctx.stream)),
            Era::Post => {
                if let Some((id, _)) = self.legacy.peers.post(ctx.stream) {
                    return Some(peer::Peer::Session(id.clone()));
                }
                let id = self.legacy.current.clone()?;
                self.legacy.peers.map_post(&id, ctx);
                Some(peer::Peer::Session(id))
            }
        }
    }

    fn legacy_empty_result(&mut self, ctx: Ctx, r: &Request<'_>) {
        let bytes = encode_with(|w| {
            w.begin_object()?;
            w.key("jsonrpc")?;
            w.str("2.0")?;
            w.key("id")?;
            r.id.encode(w)?;
            w.key("result")?;
            w.begin_object()?;
            w.end_object()?;
            w.end_object()
        });
        self.legacy_transmit(ctx, bytes);
    }

    fn legacy_transmit(&mut self, ctx: Ctx, bytes: Option<Vec<u8>>) {
        match bytes {
            Some(b) => self
                .out
                .transmit(outbox::response(ctx.stream, ctx.transport, b, 200), None),
            None => {
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
                self.send_error(ctx.stream, ctx.transport, None, &err, 200);
            }
        }
    }

    /// `resources/subscribe` / `resources/unsubscribe` `{uri}` → `{}` (spec 2025-11-25,
    /// server/resources "Subscriptions").
    fn legacy_subscribe(&mut self, r: &Request<'_>, ctx: Ctx) {
        let uri = r
            .params
            .and_then(|p| p.get("uri"))
            .and_then(|u| u.as_str())
            .map(|u| u.to_cow());
        let Some(uri) = uri.filter(|u| super::check_uri(u).is_ok()) else {
            let err = ErrorObject::new(ErrorCode::INVALID_PARAMS, "Invalid params: uri");
            return self.reply_error(ctx, r.id, &err, 200);
        };
        let subscribe = r.method == Method::ResourcesSubscribe;
        // Only to what the caller may read (docs/rules.md §22.4): the step-up answer for a
        // missing scope, "not found" for an item hidden from it.
        if subscribe && !self.may_read(&ctx, &uri) {
            let missing = self.uri_scopes_missing(&ctx, &uri);
            if !missing.is_empty() {
                return self.insufficient_scope(ctx, r.id, missing);
            }
            let err = ErrorObject::resource_not_found(crate::json::JsonStr::new(&uri));
            return self.reply_error(ctx, r.id, &err, 200);
        }
        let subs = match ctx.transport {
            Transport::Stdio => match self.legacy.streams.get_mut(&ctx.stream) {
                Some(Era::Stdio { subs }) => Some(subs),
                _ => None,
            },
            Transport::Http => match &self.legacy.current {
                Some(id) => self
                    .legacy
                    .sessions
                    .get_mut(id, ctx.auth)
                    .map(|s| &mut s.subs),
                None => None,
            },
        };
        let Some(subs) = subs else {
            let err = ErrorObject::new(ErrorCode::INVALID_REQUEST, "No session");
            return self.reply_error(ctx, r.id, &err, 200);
        };
        if subscribe {
            if subs.len() >= MAX_SUBSCRIPTIONS && !subs.contains_key(uri.as_ref()) {
                let err = ErrorObject::new(ErrorCode::INVALID_REQUEST, "Too many subscriptions");
                return self.reply_error(ctx, r.id, &err, 200);
            }
            subs.add(String::from(uri.as_ref()));
        } else {
            subs.take(uri.as_ref());
        }
        self.legacy_empty_result(ctx, r);
    }

    /// The transport closed `stream`: a legacy stdio connection ends, a session's GET
    /// stream is gone.
    pub(crate) fn legacy_closed(&mut self, stream: StreamId) {
        self.legacy_bridge_closed(stream);
        self.legacy.peers.forget_post(stream);
        self.legacy.peers.remove(&peer::Peer::Stdio(stream));
        self.legacy.streams.remove(&stream);
        self.legacy.modern_ids.retain(|(s, _), _| *s != stream);
        for (_, s) in self.legacy.sessions.iter_mut() {
            if s.get_stream == Some(stream) {
                s.get_stream = None;
            }
        }
    }

    /// `notifications/resources/updated {uri}` to every legacy stream and session that
    /// subscribed to `uri`.
    pub(crate) fn legacy_updated(&mut self, uri: &str) {
        let n = OwnedResourceUpdated {
            subscription_id: None,
            uri: String::from(uri),
        };
        let Ok(bytes) = outbox::encode(&n) else {
            return;
        };
        let wants = |subs: &VecSet<String>| subs.contains_key(uri);
        self.legacy_push(&bytes, wants);
    }

    /// `notifications/{resources,prompts}/list_changed` to every legacy stream and session
    /// stream (2025-11-25 pushes them whenever `listChanged` is declared).
    pub(crate) fn legacy_list_changed(&mut self, kind: ListKind) {
        let declared = match kind {
            ListKind::Resources => self.serves_resources(),
            ListKind::Prompts => self.serves_prompts(),
            // The registry's tools, or the host's own (extension methods) that it announced.
            ListKind::Tools => true,
        };
        if !declared {
            return;
        }
        let n = OwnedListChanged {
            kind,
            subscription_id: None,
        };
        if let Ok(bytes) = outbox::encode(&n) {
            self.legacy_push(&bytes, |_| true);
        }
    }

    fn legacy_push(&mut self, bytes: &[u8], wants: impl Fn(&VecSet<String>) -> bool) {
        let mut targets: Vec<(StreamId, Transport)> = Vec::new();
        for (stream, era) in &self.legacy.streams {
            if let Era::Stdio { subs } = era
                && wants(subs)
            {
                targets.push((*stream, Transport::Stdio));
            }
        }
        for (_, s) in self.legacy.sessions.iter() {
            if let Some(g) = s.get_stream
                && wants(&s.subs)
            {
                targets.push((g, Transport::Http));
            }
        }
        for (stream, transport) in targets {
            let t = outbox::on_listen_stream(stream, transport, Vec::from(bytes), false);
            self.out.transmit(t, None);
        }
    }
}

/// Whether `r` carries the modern envelope claim: `params._meta` with a protocol version.
fn modern_claim(r: &Request<'_>) -> bool {
    r.params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
        .is_some()
}

/// The request id as compact JSON text (the key a response is matched by).
fn id_text(r: &Request<'_>) -> Option<String> {
    let bytes = encode_with(|w| r.id.encode(w))?;
    String::from_utf8(bytes).ok()
}

fn encode_with(
    f: impl FnOnce(&mut Writer<'_, Vec<u8>>) -> Result<(), crate::json::EncodeError>,
) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(256);
    let mut w = Writer::new(&mut out);
    f(&mut w).ok()?;
    Some(out)
}
