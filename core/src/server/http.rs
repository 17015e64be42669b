//! The Streamable HTTP entry point, machine half (docs/server-machine.md §"The HTTP entry
//! point"): [`Server::http_head`] before the body, [`Server::handle_http`] with it, and the
//! headers of a streamed answer ([`Transmit::http_headers`]). The pure checks live in
//! [`crate::http`].

use alloc::format;
use alloc::string::String;

use super::io::{BodyKind, Ctx, Received, Transmit, Transport};
use super::machine::Server;
use crate::error_code::ErrorCode;
use crate::http::{
    BodyFields, HeadCheck, HttpResponse, HttpStart, NameSource, Refusal, RequestHead,
    RequestHeaders, SSE, accepts, check_head, check_headers, name_source, status_for,
};
use crate::jsonrpc::{ErrorObject, Request};
use crate::messages::RequestMeta;

/// The session header of 2025-11-25 Streamable HTTP.
const SESSION_HEADER: &str = "Mcp-Session-Id";

/// The headers of an SSE response.
const SSE_HEADERS: &[(&str, &str)] = &[("Content-Type", SSE), ("Cache-Control", "no-cache")];

impl Server {
    /// The head-only checks (path, `Host`/`Origin`, method, `Content-Type`, `Accept`,
    /// `Content-Length`; table in [`crate::http::check_head`]): call it once the request line
    /// and headers are parsed, before reading the body. [`HeadCheck::Respond`] is the whole
    /// answer (the body need not be read); [`HeadCheck::ReadBody`] says how much to read.
    /// With legacy sessions on, a request naming an `Mcp-Session-Id` may also be `GET` (the
    /// session's event stream) or `DELETE` (end it); an unknown session is 404, an
    /// `MCP-Protocol-Version` other than a [`LEGACY_VERSIONS`](super::LEGACY_VERSIONS)
    /// revision is 400 (absent: the negotiated one).
    #[must_use]
    pub fn http_head(&self, head: &RequestHead<'_>) -> HeadCheck {
        let session = self.session_of(head);
        let methods: &[&str] = if session.is_some() {
            &["GET", "DELETE"]
        } else {
            &[]
        };
        let limit = match check_head(head, &self.config.http, methods) {
            Ok(limit) => limit,
            Err(r) => return HeadCheck::Respond(self.refuse(r)),
        };
        if let Some(id) = session {
            if !self.legacy.sessions.contains(id) {
                return HeadCheck::Respond(self.refuse(Refusal::SessionNotFound));
            }
            // Spec 2025-11-25, basic/transports "Protocol Version Header": an invalid or
            // unsupported version is 400; an absent header means the negotiated one.
            if head
                .protocol_version
                .is_some_and(|v| !super::legacy::session_speaks(v))
            {
                return HeadCheck::Respond(self.refuse(Refusal::UnsupportedProtocolVersion));
            }
            if head.method == "GET" && head.accept.is_some_and(|a| !accepts(a, SSE)) {
                return HeadCheck::Respond(self.refuse(Refusal::NotAcceptable));
            }
        }
        HeadCheck::ReadBody { limit }
    }

    /// One HTTP request with its body, received at `now_ms`: the head checks again (a host
    /// may skip [`Server::http_head`]), the body limit (a body longer than
    /// [`HttpConfig::max_body`](crate::http::HttpConfig::max_body) is 413, for chunked
    /// uploads), then the machine with the headers checked against the body after `_meta`
    /// (-32020, HTTP 400), in the order of docs/server-machine.md §"Per-request validation".
    ///
    /// `ctx.stream` must be a stream id not in use (one per request); `ctx.auth` is the
    /// caller's authorization context, `ctx.scopes` its admitted scopes (with
    /// [`ServerConfig::protection`](super::ServerConfig::protection) and a token required,
    /// a context without them is answered 401 before anything else, docs/rules.md §22.2); `ctx.transport` is taken as HTTP. Notifications and
    /// client responses are answered `202` with no body. A complete answer the machine
    /// produced at once comes back as [`HttpStart::Respond`] (it is not also polled);
    /// otherwise [`HttpStart::Stream`]: drain [`Server::poll_output`] as usual and write the
    /// transmits on that stream. A 2025-11-25 session's `GET` is
    /// [`HttpStart::EventStream`]; its `initialize` answer carries `Mcp-Session-Id`
    /// (docs/server-machine.md §"Legacy sessions").
    pub fn handle_http(
        &mut self,
        head: &RequestHead<'_>,
        body: &[u8],
        now_ms: u64,
        ctx: Ctx,
    ) -> HttpStart {
        if let Some(r) = self.unadmitted(&ctx) {
            return HttpStart::Respond(r);
        }
        let limit = match self.http_head(head) {
            HeadCheck::ReadBody { limit } => limit,
            HeadCheck::Respond(r) => return HttpStart::Respond(r),
        };
        let ctx = Ctx {
            transport: Transport::Http,
            ..ctx
        };
        self.now = self.now.max(now_ms);
        if self.sessions_on() {
            let bounds = self.session_bounds();
            self.legacy.sessions.prune(self.now, &bounds);
        }
        if let Some(id) = self.session_of(head) {
            return self.session_request(head, id, body, limit, ctx);
        }
        if head.method != "POST" {
            return HttpStart::Respond(self.refuse(Refusal::MethodNotAllowed));
        }
        if body.len() > limit {
            self.observe_refusal(crate::observe::Limit::Body, &ctx);
            return HttpStart::Respond(self.refuse(Refusal::PayloadTooLarge));
        }
        let headers = RequestHeaders {
            protocol_version: head.protocol_version,
            method: head.mcp_method,
            name: head.mcp_name,
        };
        self.legacy.modern_header = head.protocol_version.is_some_and(|v| {
            self.config
                .supported_versions
                .iter()
                .any(|s| s.as_str() == v)
        });
        let received = self.receive(body, self.now, ctx, Some(&headers));
        self.legacy.modern_header = false;
        let created = self.legacy.created.take();
        if let (Some(o), Some(id)) = (self.observer.as_deref_mut(), &created) {
            o.session(ctx.stream, id);
        }
        let retry_after = self.legacy.retry_after_s.take();
        let mut start = self.http_answer(received, ctx);
        if let HttpStart::Respond(r) = &mut start {
            if let Some(id) = created {
                r.headers.push((SESSION_HEADER, id));
            }
            if let Some(s) = retry_after {
                r.headers.push(("Retry-After", format!("{s}")));
            }
        }
        start
    }

    /// A request naming a legacy session: `GET` opens its event stream, `DELETE` ends it,
    /// `POST` is one of its messages.
    fn session_request(
        &mut self,
        head: &RequestHead<'_>,
        id: &str,
        body: &[u8],
        limit: usize,
        ctx: Ctx,
    ) -> HttpStart {
        let now = self.now;
        // Shared with a fleet: its state (use, subscriptions, level) goes back to the store
        // (an id that names no session here is skipped when the changes are taken).
        if head.method != "DELETE" {
            self.legacy.sessions.changed(id, true);
        }
        let Some(session) = self.legacy.sessions.get_mut(id, ctx.auth) else {
            return HttpStart::Respond(self.refuse(Refusal::SessionNotFound));
        };
        session.last_used = now;
        // Any request after the `initialize` completes the handshake: the session is no
        // longer half-open (never evicted to make room, no handshake bound).
        session.established = true;
        match head.method {
            "GET" => {
                if session.get_stream.is_some() {
                    return HttpStart::Respond(self.refuse(Refusal::StreamConflict));
                }
                session.get_stream = Some(ctx.stream);
                let mut response = HttpResponse {
                    status: 200,
                    headers: alloc::vec::Vec::new(),
                    body: alloc::vec::Vec::new(),
                };
                for (k, v) in SSE_HEADERS {
                    response.headers.push((k, String::from(*v)));
                }
                response.headers.push((SESSION_HEADER, String::from(id)));
                HttpStart::EventStream {
                    stream: ctx.stream,
                    response,
                }
            }
            "DELETE" => {
                if let Some(s) = self.legacy.sessions.remove(id)
                    && let Some(g) = s.get_stream
                {
                    self.out.purge_stream(g);
                }
                HttpStart::Respond(HttpResponse {
                    status: 200,
                    headers: alloc::vec::Vec::new(),
                    body: alloc::vec::Vec::new(),
                })
            }
            _ => {
                if body.len() > limit {
                    self.observe_refusal(crate::observe::Limit::Body, &ctx);
                    return HttpStart::Respond(self.refuse(Refusal::PayloadTooLarge));
                }
                self.legacy.mark_post(ctx.stream);
                self.legacy.current = Some(String::from(id));
                let received = self.receive(body, self.now, ctx, None);
                self.legacy.current = None;
                self.legacy.created = None;
                let mut start = self.http_answer(received, ctx);
                if let HttpStart::Respond(r) = &mut start
                    && r.status != 202
                {
                    r.headers.push((SESSION_HEADER, String::from(id)));
                }
                start
            }
        }
    }

    /// What the machine did with a POST body, as the HTTP answer.
    pub(crate) fn http_answer(&mut self, received: Received, ctx: Ctx) -> HttpStart {
        let step_up = self.step_up_challenge.take();
        match received {
            Received::Notification | Received::Response => {
                self.legacy.forget_post(ctx.stream);
                HttpStart::Respond(HttpResponse::accepted())
            }
            Received::Request | Received::Invalid => match self.out.take_answer(ctx.stream) {
                Some(mut t) => {
                    if self.observer.is_some() || self.response_cap.is_some() {
                        self.leaving(&mut t);
                    }
                    let t = self.legacy_shape_transmit(t);
                    let mut r = HttpResponse::json(t.http_status, t.bytes);
                    // The step-up answer is 403 in either era (a 2025-11-25 client's errors
                    // are otherwise 200): its client re-authorizes from the challenge.
                    if let Some(c) = step_up {
                        r.status = 403;
                        r.headers.push(("WWW-Authenticate", c));
                    }
                    HttpStart::Respond(r)
                }
                None => HttpStart::Stream(ctx.stream),
            },
        }
    }

    /// Whether 2025-11-25 HTTP sessions are served (feature `legacy` and the config).
    fn sessions_on(&self) -> bool {
        cfg!(feature = "legacy") && self.config.legacy_sessions
    }

    /// The `Mcp-Session-Id` of `head`, when legacy sessions are on.
    pub(crate) fn session_of<'h>(&self, head: &RequestHead<'h>) -> Option<&'h str> {
        head.session_id.filter(|_| self.sessions_on())
    }

    fn refuse(&self, r: Refusal) -> HttpResponse {
        let allow = if self.sessions_on() {
            "GET, POST, DELETE"
        } else {
            "POST"
        };
        r.response(allow)
    }

    /// Step 4 of the validation order on an HTTP POST: the standard headers against the
    /// body (spec: Streamable HTTP, "Server Validation"). `true` = refused, -32020 queued.
    pub(crate) fn header_mismatch(
        &mut self,
        headers: &RequestHeaders<'_>,
        r: &Request<'_>,
        meta: &RequestMeta<'_>,
        ctx: Ctx,
    ) -> bool {
        let version = meta.protocol_version.to_cow();
        let name = name_source(r.method.as_str()).and_then(|src| {
            let key = match src {
                NameSource::Name => "name",
                NameSource::Uri => "uri",
            };
            r.params?.get(key)?.as_str().map(|s| s.to_cow())
        });
        let body = BodyFields {
            protocol_version: &version,
            method: r.method.as_str(),
            name: name.as_deref(),
        };
        match check_headers(headers, &body) {
            Ok(()) => false,
            Err(e) => {
                let msg = format!("{e}");
                let err = ErrorObject::new(ErrorCode::HEADER_MISMATCH, &msg);
                self.reply_error(ctx, r.id, &err, status_for(e.code()));
                true
            }
        }
    }
}

impl Transmit {
    /// The HTTP response headers for a stream whose first transmit is `self`:
    /// `Content-Type: application/json` for a JSON body; for an SSE stream
    /// `Content-Type: text/event-stream` and `Cache-Control: no-cache` (proxies must not
    /// buffer or cache an event stream). Write each SSE transmit as `data: <bytes>\n\n`.
    #[must_use]
    pub const fn http_headers(&self) -> &'static [(&'static str, &'static str)] {
        match self.kind {
            BodyKind::Json => &[("Content-Type", crate::http::JSON)],
            BodyKind::Sse => SSE_HEADERS,
        }
    }
}
