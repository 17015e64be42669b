//! `input_required` for a 2025-11-25 client (docs/rules.md §17.3 item 12): 2025-11-25 has no such
//! result, so each input request goes to the client as a real server-to-client request
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`; spec 2025-11-25,
//! client/elicitation, client/sampling, client/roots), on stdio on the connection and on HTTP
//! on the POST's response stream (which becomes SSE: spec 2025-11-25, basic/transports "The
//! server MAY send JSON-RPC requests and notifications before sending the JSON-RPC
//! response. These messages SHOULD relate to the originating client request").
//!
//! The client's responses are matched by id (and by connection or session); once every
//! input has its answer, the original request runs again through the modern pipeline as the
//! MRTR retry a modern client would send: the original params, `inputResponses` and the
//! sealed `requestState` (docs/rules.md §13). The host gets the same event with
//! `retry: Some(Retry { state, input_responses })`, so one handler serves both eras.
//!
//! Bounded: at most [`MAX_CLIENT_REQUESTS`] unanswered server-to-client requests per
//! connection or session, and each waiting request has the deadline of
//! `request_timeout_ms` (then -32603, and `notifications/cancelled` for the inputs still
//! open). A client cancellation or a closed stream drops it.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::io::{Ctx, StreamId};
use super::super::machine::Server;
use super::super::pending::{Bound, Owed, Pending};
use super::super::vecmap::VecMap;
use super::peer::Peer;
use super::{Era, encode_with};
use crate::error_code::ErrorCode;
use crate::json::{Encode, RawJson};
use crate::jsonrpc::{ErrorObject, Message, OwnedRequestId, RequestId};
use crate::messages::owned::{OwnedInputRequest, OwnedJson};

/// Unanswered server-to-client requests one connection or session may have.
pub(crate) const MAX_CLIENT_REQUESTS: usize = 64;

/// One input of a waiting request.
#[derive(Debug)]
struct Input {
    /// The `inputRequests` key.
    key: String,
    /// The id of the server-to-client request.
    id: u64,
    /// `None` while waiting; `Some(None)` for an error answer; `Some(Some(result))`.
    answer: Option<Option<OwnedJson>>,
}

/// A request waiting for the client's answers.
#[derive(Debug)]
struct Parked {
    peer: Peer,
    /// The host's context of the original request (its stream, auth, transport).
    ctx: Ctx,
    id: OwnedRequestId,
    method: String,
    /// The original params members (`_meta` included), as a JSON object text without
    /// `requestState` and `inputResponses`.
    params: String,
    /// The sealed `requestState` to hand back, when one was sealed.
    state: Option<String>,
    inputs: Vec<Input>,
    deadline: u64,
}

/// The waiting requests, and the server-to-client ids that lead to them.
#[derive(Debug, Default)]
pub(crate) struct Bridge {
    parked: VecMap<u64, Parked>,
    /// Server-to-client request id → key of its [`Parked`].
    ids: VecMap<u64, u64>,
    next_key: u64,
    next_id: u64,
}

impl Server {
    /// The `input_required` answer to `p` (already checked and sealed), when `p` came from a
    /// legacy client: the inputs are sent to it as requests and `true` is returned.
    /// `false` for a modern request (the caller sends the `InputRequiredResult`).
    pub(crate) fn legacy_ask_client(
        &mut self,
        p: &Pending,
        requests: &[(String, OwnedInputRequest)],
        state: Option<&str>,
    ) -> bool {
        let Some(peer) = self.legacy_peer_of_stream(p.stream) else {
            return false;
        };
        // A request with a modern claim on a legacy connection keeps the modern answer.
        if !self.legacy.modern_ids.is_empty()
            && let Some(id) =
                encode_with(|w| p.id.encode(w)).and_then(|b| String::from_utf8(b).ok())
            && self.legacy.modern_ids.contains_key(&(p.stream, id))
        {
            return false;
        }
        let ctx = match &peer {
            Peer::Stdio(_) => self.legacy.peers.get(&peer).map(|s| s.ctx),
            Peer::Session(_) => self.legacy.peers.post(p.stream).map(|(_, c)| *c),
        };
        let outstanding = self.legacy.peers.get(&peer).map(|s| s.outstanding);
        let (Some(mut ctx), Some(outstanding)) = (ctx, outstanding) else {
            return false;
        };
        // The retry runs as the request's caller (its `requestState` is bound to it).
        ctx.auth = p.auth;
        let id = p.id.as_ref();
        if requests.is_empty() {
            // Nothing to ask: 2025-11-25 has no way to say "retry" to the client.
            let err = ErrorObject::new(
                ErrorCode::INTERNAL_ERROR,
                "input_required without input requests cannot be served to a 2025-11-25 client",
            );
            self.send_error(p.stream, p.transport, Some(id), &err, 200);
            return true;
        }
        if outstanding.saturating_add(requests.len()) > MAX_CLIENT_REQUESTS {
            let err = ErrorObject::new(
                ErrorCode::INTERNAL_ERROR,
                "Too many requests waiting for the client",
            );
            self.send_error(p.stream, p.transport, Some(id), &err, 200);
            return true;
        }
        let version = self.config.supported_versions.first().map(String::as_str);
        let caps = self.legacy.peers.get(&peer).map(|s| s.caps.as_str());
        let Some((method, params)) =
            retry_base(p, version.unwrap_or_default(), caps.unwrap_or("{}"))
        else {
            let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
            self.send_error(p.stream, p.transport, Some(id), &err, 200);
            return true;
        };
        let b = &mut self.legacy.bridge;
        let key = b.next_key;
        b.next_key = b.next_key.wrapping_add(1);
        let mut inputs = Vec::with_capacity(requests.len());
        let mut sends = Vec::with_capacity(requests.len());
        for (k, r) in requests {
            b.next_id = b.next_id.wrapping_add(1);
            let rid = b.next_id;
            b.ids.insert(rid, key);
            inputs.push(Input {
                key: k.clone(),
                id: rid,
                answer: None,
            });
            sends.push(client_request(rid, r));
        }
        b.parked.insert(
            key,
            Parked {
                peer: peer.clone(),
                ctx,
                id: p.id.clone(),
                method,
                params,
                state: state.map(String::from),
                inputs,
                deadline: self.now.saturating_add(self.config.request_timeout_ms),
            },
        );
        if let Some(s) = self.legacy.peers.get_mut(&peer) {
            s.outstanding += requests.len();
        }
        for bytes in sends.into_iter().flatten() {
            self.request_scoped(p.stream, p.transport, bytes);
        }
        true
    }

    /// A client's response or error (`bytes`, one JSON-RPC message) on `ctx`: the answer to
    /// one of our requests, matched by id and by connection or session; anything else is
    /// ignored. The last answer of a waiting request runs its retry.
    pub(crate) fn legacy_client_answer(&mut self, bytes: &[u8], ctx: Ctx) {
        if self.legacy.bridge.ids.is_empty() {
            return;
        }
        let Ok(msg) = RawJson::parse(bytes) else {
            return;
        };
        let Some(rid) = msg
            .get("id")
            .and_then(|i| i.as_number())
            .and_then(|n| n.as_u64())
        else {
            return;
        };
        let peer = match self.legacy.streams.get(&ctx.stream) {
            Some(Era::Stdio { .. }) => Peer::Stdio(ctx.stream),
            Some(Era::Post) => match &self.legacy.current {
                Some(id) => Peer::Session(id.clone()),
                None => return,
            },
            None => return,
        };
        let b = &mut self.legacy.bridge;
        let Some(key) = b.ids.get(&rid).copied() else {
            return;
        };
        let Some(parked) = b.parked.get_mut(&key).filter(|p| p.peer == peer) else {
            return;
        };
        let answer = msg
            .get("result")
            .filter(|r| r.object().is_some())
            .map(OwnedJson::from_raw);
        if let Some(input) = parked.inputs.iter_mut().find(|i| i.id == rid) {
            input.answer = Some(answer);
        }
        b.ids.remove(&rid);
        if let Some(s) = self.legacy.peers.get_mut(&peer) {
            s.outstanding = s.outstanding.saturating_sub(1);
        }
        let done = b
            .parked
            .get(&key)
            .is_some_and(|p| p.inputs.iter().all(|i| i.answer.is_some()));
        if done && let Some(parked) = self.legacy.bridge.parked.remove(&key) {
            self.legacy_retry(parked);
        }
    }

    /// Runs the retry of a request whose inputs are all answered: the modern pipeline gets
    /// the original params with `inputResponses` (errors left out) and `requestState`.
    fn legacy_retry(&mut self, p: Parked) {
        let bytes = encode_with(|w| {
            w.begin_object()?;
            w.key("jsonrpc")?;
            w.str("2.0")?;
            w.key("id")?;
            p.id.encode(w)?;
            w.key("method")?;
            w.str(&p.method)?;
            w.key("params")?;
            w.begin_object()?;
            let params = RawJson::parse(p.params.as_bytes()).ok();
            for (k, v) in params.and_then(|v| v.object()).into_iter().flatten() {
                w.json_key(k)?;
                w.raw(v)?;
            }
            if let Some(s) = &p.state {
                w.key("requestState")?;
                w.str(s)?;
            }
            w.key("inputResponses")?;
            w.begin_object()?;
            for i in &p.inputs {
                if let Some(Some(r)) = &i.answer {
                    w.key(&i.key)?;
                    w.raw(r.as_raw())?;
                }
            }
            w.end_object()?;
            w.end_object()?;
            w.end_object()
        });
        let decoded = bytes
            .as_deref()
            .map(|b| Message::decode_with(b, self.config.limits));
        match decoded {
            Some(Ok(Message::Request(m))) => self.on_request(m, p.ctx, None),
            _ => {
                // The answers together exceed the message limits.
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Input responses too large");
                self.send_error(
                    p.ctx.stream,
                    p.ctx.transport,
                    Some(p.id.as_ref()),
                    &err,
                    200,
                );
            }
        }
    }

    /// The earliest deadline of a request waiting for the client.
    pub(crate) fn legacy_next_deadline(&self) -> Option<u64> {
        self.legacy.bridge.parked.values().map(|p| p.deadline).min()
    }

    /// Fails every request that waited for the client until `now`: -32603 to the client,
    /// after `notifications/cancelled` for each of its inputs still open.
    pub(crate) fn legacy_timeout(&mut self, now: u64) {
        if self.legacy.bridge.parked.is_empty() {
            return;
        }
        let expired: Vec<u64> = self
            .legacy
            .bridge
            .parked
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(k, _)| *k)
            .collect();
        for key in expired {
            if let Some(p) = self.unpark(key) {
                self.cancel_inputs(&p, "Request timed out");
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Request timed out");
                self.send_error(
                    p.ctx.stream,
                    p.ctx.transport,
                    Some(p.id.as_ref()),
                    &err,
                    200,
                );
            }
        }
    }

    /// The client cancelled request `id` (`notifications/cancelled` on `ctx`): a request
    /// waiting for its answers is dropped, its open inputs cancelled, nothing more sent for
    /// it. In an HTTP session the notification comes in a POST of its own, so a request
    /// waiting for the host is found on the session's other POST streams (and cancelled as
    /// on its own stream). `true` when one was found.
    pub(crate) fn legacy_cancelled(&mut self, ctx: Ctx, id: &RequestId<'_>) -> bool {
        if let (Some(Era::Post), Some(session)) =
            (self.legacy.streams.get(&ctx.stream), &self.legacy.current)
        {
            for s in self.legacy.peers.posts_of(session) {
                if s != ctx.stream && self.pending.find(s, id).is_some() {
                    self.cancel(s, id);
                    return true;
                }
            }
        }
        if self.legacy.bridge.parked.is_empty() {
            return false;
        }
        let peer = match self.legacy.streams.get(&ctx.stream) {
            Some(Era::Stdio { .. }) => Peer::Stdio(ctx.stream),
            Some(Era::Post) => match &self.legacy.current {
                Some(s) => Peer::Session(s.clone()),
                None => return false,
            },
            None => return false,
        };
        let owned = id.to_owned_id();
        let key = self
            .legacy
            .bridge
            .parked
            .iter()
            .find(|(_, p)| p.peer == peer && p.id == owned)
            .map(|(k, _)| *k);
        let Some(p) = key.and_then(|k| self.unpark(k)) else {
            return false;
        };
        self.cancel_inputs(&p, "The request was cancelled");
        self.out.forget_stream(p.ctx.stream);
        true
    }

    /// `stream` closed: the requests waiting on it are dropped silently (the peer may have
    /// other streams; a stdio connection's own requests all go with it).
    pub(crate) fn legacy_bridge_closed(&mut self, stream: StreamId) {
        if self.legacy.bridge.parked.is_empty() {
            return;
        }
        let keys: Vec<u64> = self
            .legacy
            .bridge
            .parked
            .iter()
            .filter(|(_, p)| p.ctx.stream == stream)
            .map(|(k, _)| *k)
            .collect();
        for k in keys {
            let _ = self.unpark(k);
        }
    }

    /// Removes a waiting request and its open ids, releasing its peer's count.
    fn unpark(&mut self, key: u64) -> Option<Parked> {
        let p = self.legacy.bridge.parked.remove(&key)?;
        let mut open = 0;
        for i in p.inputs.iter().filter(|i| i.answer.is_none()) {
            self.legacy.bridge.ids.remove(&i.id);
            open += 1;
        }
        if let Some(s) = self.legacy.peers.get_mut(&p.peer) {
            s.outstanding = s.outstanding.saturating_sub(open);
        }
        Some(p)
    }

    /// `notifications/cancelled` for each input of `p` still unanswered, on its stream
    /// (spec 2025-11-25, basic/utilities/cancellation: either side may cancel its request).
    fn cancel_inputs(&mut self, p: &Parked, reason: &str) {
        for i in p.inputs.iter().filter(|i| i.answer.is_none()) {
            let bytes = encode_with(|w| {
                w.begin_object()?;
                w.key("jsonrpc")?;
                w.str("2.0")?;
                w.key("method")?;
                w.str("notifications/cancelled")?;
                w.key("params")?;
                w.begin_object()?;
                w.key("requestId")?;
                w.u64(i.id)?;
                w.key("reason")?;
                w.str(reason)?;
                w.end_object()?;
                w.end_object()
            });
            if let Some(b) = bytes {
                self.request_scoped(p.ctx.stream, p.ctx.transport, b);
            }
        }
    }

    /// The peer whose request is answered on `stream`.
    fn legacy_peer_of_stream(&self, stream: StreamId) -> Option<Peer> {
        match self.legacy.streams.get(&stream)? {
            Era::Stdio { .. } => Some(Peer::Stdio(stream)),
            Era::Post => self
                .legacy
                .peers
                .post(stream)
                .map(|(id, _)| Peer::Session(id.clone())),
        }
    }
}

/// The method and the params (as an object text, `_meta` included, without the previous
/// round's `requestState`/`inputResponses`) the retry of `p` re-sends. A registered method
/// kept its params as received (the legacy request rebuilt with modern `_meta`); a read or
/// a prompt gets its `_meta` again from `version`, the peer's `caps`, and the request's log
/// level and progress token.
fn retry_base(p: &Pending, version: &str, caps: &str) -> Option<(String, String)> {
    let mut text: Vec<u8> = Vec::new();
    let meta = |w: &mut crate::json::Writer<'_, Vec<u8>>| -> Result<(), crate::json::EncodeError> {
        w.key("_meta")?;
        w.begin_object()?;
        w.key("io.modelcontextprotocol/protocolVersion")?;
        w.str(version)?;
        w.key("io.modelcontextprotocol/clientCapabilities")?;
        let caps = RawJson::parse(caps.as_bytes()).map_err(|_| {
            crate::json::EncodeError::InvalidValue {
                what: &"clientCapabilities",
            }
        })?;
        w.raw(caps)?;
        if let Some(l) = p.log_level {
            w.key("io.modelcontextprotocol/logLevel")?;
            w.str(l.as_str())?;
        }
        if let Some(t) = &p.progress {
            w.key("progressToken")?;
            t.encode(w)?;
        }
        w.end_object()
    };
    let method = match (&p.owed, p.binding.as_ref()?) {
        (Owed::Method | Owed::Tool, Bound::Method { method, params }) => {
            let mut w = crate::json::Writer::new(&mut text);
            w.begin_object().ok()?;
            for (k, v) in params.as_raw().object()? {
                if k.eq_str("requestState") || k.eq_str("inputResponses") {
                    continue;
                }
                w.json_key(k).ok()?;
                w.raw(v).ok()?;
            }
            w.end_object().ok()?;
            method.clone()
        }
        (Owed::Read { uri, .. }, Bound::Read) => {
            let mut w = crate::json::Writer::new(&mut text);
            w.begin_object().ok()?;
            meta(&mut w).ok()?;
            w.key("uri").ok()?;
            w.str(uri).ok()?;
            w.end_object().ok()?;
            String::from("resources/read")
        }
        (Owed::Prompt, Bound::Prompt { name, arguments }) => {
            let mut w = crate::json::Writer::new(&mut text);
            w.begin_object().ok()?;
            meta(&mut w).ok()?;
            w.key("name").ok()?;
            w.str(name).ok()?;
            w.key("arguments").ok()?;
            w.begin_object().ok()?;
            for (k, v) in arguments {
                w.key(k).ok()?;
                w.str(v).ok()?;
            }
            w.end_object().ok()?;
            w.end_object().ok()?;
            String::from("prompts/get")
        }
        _ => return None,
    };
    String::from_utf8(text).ok().map(|t| (method, t))
}

/// The server-to-client request `id` for one input request.
fn client_request(id: u64, r: &OwnedInputRequest) -> Option<Vec<u8>> {
    encode_with(|w| {
        w.begin_object()?;
        w.key("jsonrpc")?;
        w.str("2.0")?;
        w.key("id")?;
        w.u64(id)?;
        w.key("method")?;
        w.json_str(r.method.json_name())?;
        if let Some(params) = &r.params {
            w.key("params")?;
            w.raw(params.as_raw())?;
        }
        w.end_object()
    })
}
