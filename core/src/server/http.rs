//! The Streamable HTTP entry point, machine half (docs/server-machine.md §"The HTTP entry
//! point"): [`Server::http_head`] before the body, [`Server::handle_http`] with it, and the
//! headers of a streamed answer ([`Transmit::http_headers`]). The pure checks live in
//! [`crate::http`].

use alloc::format;

use super::io::{BodyKind, Ctx, Received, Transmit, Transport};
use super::machine::Server;
use crate::error_code::ErrorCode;
use crate::http::{
    BodyFields, HeadCheck, HttpResponse, HttpStart, NameSource, Refusal, RequestHead,
    RequestHeaders, check_head, check_headers, name_source, status_for,
};
use crate::jsonrpc::{ErrorObject, Request};
use crate::messages::RequestMeta;

/// `Allow` on a 405.
const ALLOW_POST: &str = "POST";

impl Server {
    /// The head-only checks (path, `Host`/`Origin`, method, `Content-Type`, `Accept`,
    /// `Content-Length`; table in [`crate::http::check_head`]): call it once the request line
    /// and headers are parsed, before reading the body. [`HeadCheck::Respond`] is the whole
    /// answer (the body need not be read); [`HeadCheck::ReadBody`] says how much to read.
    #[must_use]
    pub fn http_head(&self, head: &RequestHead<'_>) -> HeadCheck {
        match check_head(head, &self.config.http, &[]) {
            Ok(limit) => HeadCheck::ReadBody { limit },
            Err(r) => HeadCheck::Respond(r.response(ALLOW_POST)),
        }
    }

    /// One HTTP request with its body, received at `now_ms`: the head checks again (a host
    /// may skip [`Server::http_head`]), the body limit (a body longer than
    /// [`HttpConfig::max_body`](crate::http::HttpConfig::max_body) is 413, for chunked
    /// uploads), then the machine with the headers checked against the body after `_meta`
    /// (-32020, HTTP 400), in the order of docs/server-machine.md §"Per-request validation".
    ///
    /// `ctx.stream` must be a stream id not in use (one per request); `ctx.auth` is the
    /// caller's authorization context; `ctx.transport` is taken as HTTP. Notifications and
    /// client responses are answered `202` with no body. A complete answer the machine
    /// produced at once comes back as [`HttpStart::Respond`] (it is not also polled);
    /// otherwise [`HttpStart::Stream`]: drain [`Server::poll_output`] as usual and write the
    /// transmits on that stream.
    pub fn handle_http(
        &mut self,
        head: &RequestHead<'_>,
        body: &[u8],
        now_ms: u64,
        ctx: Ctx,
    ) -> HttpStart {
        let limit = match self.http_head(head) {
            HeadCheck::ReadBody { limit } => limit,
            HeadCheck::Respond(r) => return HttpStart::Respond(r),
        };
        if head.method != "POST" {
            return HttpStart::Respond(Refusal::MethodNotAllowed.response(ALLOW_POST));
        }
        if body.len() > limit {
            return HttpStart::Respond(Refusal::PayloadTooLarge.response(ALLOW_POST));
        }
        let ctx = Ctx {
            transport: Transport::Http,
            ..ctx
        };
        let headers = RequestHeaders {
            protocol_version: head.protocol_version,
            method: head.mcp_method,
            name: head.mcp_name,
        };
        match self.receive(body, now_ms, ctx, Some(&headers)) {
            Received::Notification | Received::Response => {
                HttpStart::Respond(HttpResponse::accepted())
            }
            Received::Request | Received::Invalid => match self.out.take_answer(ctx.stream) {
                Some(t) => HttpStart::Respond(HttpResponse::json(t.http_status, t.bytes)),
                None => HttpStart::Stream(ctx.stream),
            },
        }
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
            BodyKind::Sse => &[
                ("Content-Type", crate::http::SSE),
                ("Cache-Control", "no-cache"),
            ],
        }
    }
}
