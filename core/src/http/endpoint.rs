//! The Streamable HTTP entry point, pure half (docs/server-machine.md §"The HTTP entry point"):
//! the request facts a host hands over ([`RequestHead`]), the endpoint's configuration
//! ([`HttpConfig`]), the head-only checks ([`check_head`], [`Refusal`]) and what comes back
//! ([`HeadCheck`], [`HttpStart`], [`HttpResponse`]). The machine half is
//! [`Server::http_head`](crate::server::Server::http_head) and
//! [`Server::handle_http`](crate::server::Server::handle_http).
//!
//! Head checks, in order (each answered before the body is read):
//!
//! | # | check | status |
//! | --- | --- | --- |
//! | 1 | path is [`HttpConfig::path`] (query ignored) | 404 |
//! | 2 | `Host` / `Origin` ([`check_host_and_origin`](super::check_host_and_origin)) | 400 / 403 |
//! | 3 | method is `POST` (`GET`/`DELETE` only where a legacy session allows them) | 405 + `Allow` |
//! | 4 | `Content-Type` media type is `application/json` (parameters allowed) | 415 |
//! | 5 | `Accept`, when present, admits `application/json` or `text/event-stream` | 406 |
//! | 6 | `Content-Length`, when present, is at most [`HttpConfig::max_body`] | 413 |
//!
//! Step 2 is the spec's "servers MUST validate `Origin` and reply 403" (Streamable HTTP,
//! "Security Warning"); step 3 its "GET and DELETE SHOULD get 405" for a server without
//! sessions. Steps 4–6 follow the official SDKs: 415 for a non-JSON `Content-Type` (parsed
//! media type, never a substring), 413 over a 4 MiB default body limit. The spec says clients
//! MUST send an `Accept` listing both media types; like the official TypeScript server's
//! modern leg, this endpoint does not refuse a client that omits it, and refuses only an
//! `Accept` that admits neither (wildcards count, `q=0` excludes).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::origin::{LOCALHOST, OriginError};
use crate::error_code::ErrorCode;
use crate::jsonrpc::{ErrorObject, ErrorResponse};

/// The facts of one HTTP request, as the host's HTTP layer parsed them. Header names are
/// case-insensitive (the host looks them up so); values are passed with surrounding
/// whitespace stripped; `None` = the header is absent. A host that sees a header repeated
/// where one value is expected joins the values with `,` (as HTTP does), which these checks
/// then refuse as malformed.
///
/// ```
/// use mcp_context::http::RequestHead;
/// let head = RequestHead {
///     method: "POST",
///     path: "/mcp",
///     host: Some("localhost:3000"),
///     content_type: Some("application/json"),
///     content_length: Some(120),
///     ..RequestHead::default()
/// };
/// # let _ = head;
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RequestHead<'a> {
    /// The request method (`POST`, `GET`, …), case-sensitive as HTTP defines it.
    pub method: &'a str,
    /// The request target's path (a query string, if left on, is ignored).
    pub path: &'a str,
    /// `Host` (or HTTP/2 `:authority`).
    pub host: Option<&'a str>,
    /// `Origin`.
    pub origin: Option<&'a str>,
    /// `Content-Type`.
    pub content_type: Option<&'a str>,
    /// `Content-Length`, when the request declares one (`None` for a chunked upload).
    pub content_length: Option<u64>,
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<&'a str>,
    /// `Mcp-Method`.
    pub mcp_method: Option<&'a str>,
    /// `Mcp-Name`.
    pub mcp_name: Option<&'a str>,
    /// `Accept`.
    pub accept: Option<&'a str>,
    /// `Mcp-Session-Id` (2025-11-25 sessions only; modern requests carry none).
    pub session_id: Option<&'a str>,
}

/// The HTTP endpoint's configuration, on
/// [`ServerConfig::http`](crate::server::ServerConfig::http).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// The endpoint's path; another path gets 404. `None` accepts any path (the host's
    /// router already chose this endpoint). Default: `Some("/mcp")`.
    pub path: Option<String>,
    /// The largest body accepted, in bytes; a larger `Content-Length`, or a longer body,
    /// gets 413. Default: 4 MiB, as the official SDKs.
    pub max_body: usize,
    /// The names the server is reachable by, checked against `Host`: `host` (any port) or
    /// `host:port` (rules in [`check_origin`](super::check_origin)). Default: [`LOCALHOST`].
    pub allowed_hosts: Vec<String>,
    /// The origins whose pages may call the server, checked against a present `Origin`,
    /// same entry syntax. Default: [`LOCALHOST`].
    pub allowed_origins: Vec<String>,
}

/// The default [`HttpConfig::max_body`]: 4 MiB.
pub const DEFAULT_MAX_BODY: usize = 4 * 1024 * 1024;

impl Default for HttpConfig {
    fn default() -> Self {
        let local = || LOCALHOST.iter().map(|s| String::from(*s)).collect();
        Self {
            path: Some(String::from("/mcp")),
            max_body: DEFAULT_MAX_BODY,
            allowed_hosts: local(),
            allowed_origins: local(),
        }
    }
}

/// Why the endpoint refused a request at the HTTP layer, before (or instead of) JSON-RPC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// Not the endpoint's path: 404.
    NotFound,
    /// `Host` / `Origin` failed: 400 (missing or malformed `Host`) or 403.
    Origin(OriginError),
    /// A method the endpoint does not serve: 405 with `Allow`.
    MethodNotAllowed,
    /// `Content-Type` is not `application/json`: 415.
    UnsupportedMediaType,
    /// `Accept` admits neither `application/json` nor `text/event-stream`: 406.
    NotAcceptable,
    /// The body is larger than [`HttpConfig::max_body`]: 413.
    PayloadTooLarge,
    /// An `Mcp-Session-Id` the server does not know (never issued, ended, expired, or
    /// another caller's): 404; a 2025-11-25 client then starts a new session.
    SessionNotFound,
    /// A second GET stream for one session: 409.
    StreamConflict,
    /// A request naming a session with an `MCP-Protocol-Version` the session does not
    /// speak (invalid, unsupported, or a modern revision): 400 (spec 2025-11-25,
    /// basic/transports "Protocol Version Header").
    UnsupportedProtocolVersion,
}

impl Refusal {
    /// The HTTP status.
    #[must_use]
    pub const fn status(self) -> u16 {
        match self {
            Self::NotFound => 404,
            Self::Origin(e) => e.http_status(),
            Self::MethodNotAllowed => 405,
            Self::UnsupportedMediaType => 415,
            Self::NotAcceptable => 406,
            Self::PayloadTooLarge => 413,
            Self::SessionNotFound => 404,
            Self::StreamConflict => 409,
            Self::UnsupportedProtocolVersion => 400,
        }
    }

    /// The response: a JSON-RPC error without `id` (the spec's "optional body without `id`"
    /// for 403; the same shape for every refusal, so a client can show the reason), code
    /// -32600, with `Allow: allow` on a 405.
    #[must_use]
    pub fn response(self, allow: &'static str) -> HttpResponse {
        let mut msg = String::new();
        let _ = fmt::write(&mut msg, format_args!("{self}"));
        let mut r = HttpResponse::error(
            self.status(),
            &ErrorObject::new(ErrorCode::INVALID_REQUEST, &msg),
        );
        if self == Self::MethodNotAllowed {
            r.headers.push(("Allow", String::from(allow)));
        }
        r
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound => f.write_str("Not Found: no MCP endpoint at this path"),
            Self::Origin(e) => write!(f, "Forbidden: {e}"),
            Self::MethodNotAllowed => f.write_str("Method Not Allowed"),
            Self::UnsupportedMediaType => {
                f.write_str("Unsupported Media Type: Content-Type must be application/json")
            }
            Self::NotAcceptable => f.write_str(
                "Not Acceptable: Accept must admit application/json or text/event-stream",
            ),
            Self::PayloadTooLarge => f.write_str("Payload Too Large: request body over the limit"),
            Self::SessionNotFound => f.write_str("Not Found: no such session"),
            Self::StreamConflict => {
                f.write_str("Conflict: this session already has its GET stream open")
            }
            Self::UnsupportedProtocolVersion => f.write_str(
                "Bad Request: unsupported MCP-Protocol-Version for this session \
                 (supported: 2025-11-25, 2025-06-18, 2025-03-26)",
            ),
        }
    }
}

impl core::error::Error for Refusal {}

/// A complete HTTP response for the host to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Headers to set (`Content-Type` whenever there is a body, `Allow` on 405,
    /// `Mcp-Session-Id` where a session starts).
    pub headers: Vec<(&'static str, String)>,
    /// The body (empty for 202).
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// `202 Accepted`, no body: a notification or a client response was accepted.
    #[must_use]
    pub fn accepted() -> Self {
        Self {
            status: 202,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// `status` with one JSON-RPC message as an `application/json` body.
    #[must_use]
    pub fn json(status: u16, body: Vec<u8>) -> Self {
        Self {
            status,
            headers: alloc::vec![("Content-Type", String::from(JSON))],
            body,
        }
    }

    /// `status` with a JSON-RPC error response without `id`.
    #[must_use]
    pub fn error(status: u16, error: &ErrorObject<'_>) -> Self {
        let mut body = Vec::new();
        let mut w = crate::json::Writer::new(&mut body);
        let _ = crate::json::Encode::encode(
            &ErrorResponse {
                id: None,
                error: *error,
            },
            &mut w,
        );
        Self::json(status, body)
    }

    /// The value of header `name` (ASCII case-insensitive), if set.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What to do after the head: read the body (at most `limit` bytes), or answer now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadCheck {
    /// Read the body and call [`Server::handle_http`](crate::server::Server::handle_http).
    /// A host that reads a chunked body may stop after `limit + 1` bytes and pass what it
    /// has: a body longer than `limit` is answered 413.
    ReadBody {
        /// [`HttpConfig::max_body`].
        limit: usize,
    },
    /// Write this response without reading the body (the host may close the connection
    /// instead of draining it).
    Respond(HttpResponse),
}

/// What [`Server::handle_http`](crate::server::Server::handle_http) decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HttpStart {
    /// The complete answer, available now: a refusal, an error, `202` for a notification,
    /// or a result the machine produced at once.
    Respond(HttpResponse),
    /// The answer comes later through [`Server::poll_output`](crate::server::Server::poll_output)
    /// as transmits on this stream: the first gives the status and, with
    /// [`Transmit::http_headers`](crate::server::Transmit::http_headers), the headers; a
    /// transmit with `end_of_stream` ends the response. If the client goes away first, call
    /// [`Server::stream_closed`](crate::server::Server::stream_closed).
    Stream(crate::server::StreamId),
    /// A 2025-11-25 session's GET stream: write `response`'s status and headers now (no
    /// body), keep the connection open, and write the transmits for `stream` as SSE events
    /// as they come (server notifications for the session). Call
    /// [`Server::stream_closed`](crate::server::Server::stream_closed) when it closes.
    EventStream {
        /// The stream id the host gave in `ctx`.
        stream: crate::server::StreamId,
        /// `200`, `Content-Type: text/event-stream`, `Cache-Control: no-cache`,
        /// `Mcp-Session-Id`.
        response: HttpResponse,
    },
}

/// `application/json`.
pub const JSON: &str = "application/json";
/// `text/event-stream`.
pub const SSE: &str = "text/event-stream";

/// Runs the head checks of the module docs in order: `Ok(limit)` to read the body, or the
/// first refusal. `methods` are the request methods served besides `POST` (the legacy
/// session operations `GET` and `DELETE`, when enabled).
///
/// # Errors
/// The first failing check.
pub fn check_head(
    head: &RequestHead<'_>,
    config: &HttpConfig,
    methods: &[&str],
) -> Result<usize, Refusal> {
    if let Some(path) = &config.path {
        let got = head.path.split_once('?').map_or(head.path, |(p, _)| p);
        if got != path.as_str() {
            return Err(Refusal::NotFound);
        }
    }
    super::origin::check_host_and_origin(
        head.host,
        head.origin,
        &config.allowed_hosts,
        &config.allowed_origins,
    )
    .map_err(Refusal::Origin)?;
    if head.method != "POST" {
        return if methods.contains(&head.method) {
            Ok(0)
        } else {
            Err(Refusal::MethodNotAllowed)
        };
    }
    if !is_json_content_type(head.content_type) {
        return Err(Refusal::UnsupportedMediaType);
    }
    if let Some(accept) = head.accept
        && !accepts(accept, JSON)
        && !accepts(accept, SSE)
    {
        return Err(Refusal::NotAcceptable);
    }
    if head
        .content_length
        .is_some_and(|n| n > config.max_body as u64)
    {
        return Err(Refusal::PayloadTooLarge);
    }
    Ok(config.max_body)
}

/// Whether a `Content-Type` value's media type is `application/json` (RFC 9110 §8.3.1:
/// `type/subtype` case-insensitive, parameters after `;` ignored). A value with a `,`
/// (duplicate headers joined) or nothing before `;` is not.
#[must_use]
pub fn is_json_content_type(value: Option<&str>) -> bool {
    let Some(v) = value else { return false };
    let essence = v.split(';').next().unwrap_or("").trim();
    !v.contains(',') && essence.eq_ignore_ascii_case(JSON)
}

/// Whether an `Accept` value admits `media` (`type/subtype`, lowercase): a media range equal
/// to it, `type/*` or `*/*`, ASCII case-insensitive, with a non-zero `q` (RFC 9110 §12.5.1).
/// An empty value admits everything (as an absent header does).
#[must_use]
pub fn accepts(accept: &str, media: &str) -> bool {
    if accept.trim().is_empty() {
        return true;
    }
    let (ty, _) = media.split_once('/').unwrap_or((media, ""));
    accept.split(',').any(|range| {
        let mut parts = range.split(';');
        let r = parts.next().unwrap_or("").trim();
        let matches = r.eq_ignore_ascii_case(media)
            || r == "*/*"
            || r.strip_suffix("/*")
                .is_some_and(|t| t.eq_ignore_ascii_case(ty));
        matches && !parts.any(is_q_zero)
    })
}

/// `q=0`, `q=0.`, `q=0.0`, … (weight zero: "not acceptable").
fn is_q_zero(param: &str) -> bool {
    let Some((k, v)) = param.split_once('=') else {
        return false;
    };
    if !k.trim().eq_ignore_ascii_case("q") {
        return false;
    }
    let v = v.trim();
    let frac = v
        .strip_prefix("0")
        .map(|r| r.strip_prefix('.').unwrap_or(r));
    frac.is_some_and(|f| f.bytes().all(|b| b == b'0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(method: &'static str) -> RequestHead<'static> {
        RequestHead {
            method,
            path: "/mcp",
            host: Some("localhost:3000"),
            content_type: Some("application/json"),
            content_length: Some(10),
            ..RequestHead::default()
        }
    }

    #[test]
    fn head_checks_table() {
        let config = HttpConfig::default();
        let ok = Ok(DEFAULT_MAX_BODY);
        type Row = (&'static str, RequestHead<'static>, Result<usize, Refusal>);
        #[rustfmt::skip]
        let rows: &[Row] = &[
            ("plain POST", head("POST"), ok),
            ("query ignored", RequestHead { path: "/mcp?x=1", ..head("POST") }, ok),
            ("wrong path", RequestHead { path: "/", ..head("POST") }, Err(Refusal::NotFound)),
            ("path prefix is not the path", RequestHead { path: "/mcp/x", ..head("POST") }, Err(Refusal::NotFound)),
            ("no Host", RequestHead { host: None, ..head("POST") }, Err(Refusal::Origin(OriginError::MissingHost))),
            ("rebinding Host", RequestHead { host: Some("evil.example"), ..head("POST") }, Err(Refusal::Origin(OriginError::HostNotAllowed))),
            ("foreign Origin", RequestHead { origin: Some("https://evil.example"), ..head("POST") }, Err(Refusal::Origin(OriginError::OriginNotAllowed))),
            ("loopback Origin", RequestHead { origin: Some("http://localhost:5173"), ..head("POST") }, ok),
            ("GET", head("GET"), Err(Refusal::MethodNotAllowed)),
            ("DELETE", head("DELETE"), Err(Refusal::MethodNotAllowed)),
            ("PUT", head("PUT"), Err(Refusal::MethodNotAllowed)),
            ("lowercase post is another method", head("post"), Err(Refusal::MethodNotAllowed)),
            ("text/plain", RequestHead { content_type: Some("text/plain"), ..head("POST") }, Err(Refusal::UnsupportedMediaType)),
            ("no Content-Type", RequestHead { content_type: None, ..head("POST") }, Err(Refusal::UnsupportedMediaType)),
            ("json in a parameter", RequestHead { content_type: Some("text/plain; a=application/json"), ..head("POST") }, Err(Refusal::UnsupportedMediaType)),
            ("joined duplicates", RequestHead { content_type: Some("application/json, text/plain"), ..head("POST") }, Err(Refusal::UnsupportedMediaType)),
            ("charset parameter", RequestHead { content_type: Some("application/json; charset=utf-8"), ..head("POST") }, ok),
            ("case", RequestHead { content_type: Some("Application/JSON"), ..head("POST") }, ok),
            ("Accept both", RequestHead { accept: Some("application/json, text/event-stream"), ..head("POST") }, ok),
            ("Accept json only", RequestHead { accept: Some("application/json"), ..head("POST") }, ok),
            ("Accept sse only", RequestHead { accept: Some("text/event-stream"), ..head("POST") }, ok),
            ("Accept wildcard", RequestHead { accept: Some("*/*"), ..head("POST") }, ok),
            ("Accept type wildcard", RequestHead { accept: Some("text/*;q=0.5"), ..head("POST") }, ok),
            ("Accept html", RequestHead { accept: Some("text/html"), ..head("POST") }, Err(Refusal::NotAcceptable)),
            ("Accept q=0", RequestHead { accept: Some("application/json;q=0, text/event-stream; q=0.000"), ..head("POST") }, Err(Refusal::NotAcceptable)),
            ("Content-Length at the limit", RequestHead { content_length: Some(DEFAULT_MAX_BODY as u64), ..head("POST") }, ok),
            ("64 MiB", RequestHead { content_length: Some(64 << 20), ..head("POST") }, Err(Refusal::PayloadTooLarge)),
            ("chunked", RequestHead { content_length: None, ..head("POST") }, ok),
            // Order: the first failing check answers.
            ("path before origin", RequestHead { path: "/x", host: None, ..head("GET") }, Err(Refusal::NotFound)),
            ("origin before method", RequestHead { host: None, ..head("GET") }, Err(Refusal::Origin(OriginError::MissingHost))),
            ("media type before accept", RequestHead { content_type: None, accept: Some("text/html"), ..head("POST") }, Err(Refusal::UnsupportedMediaType)),
            ("accept before length", RequestHead { accept: Some("text/html"), content_length: Some(u64::MAX), ..head("POST") }, Err(Refusal::NotAcceptable)),
        ];
        for (why, h, want) in rows {
            assert_eq!(check_head(h, &config, &[]), *want, "{why}");
        }
        assert_eq!(check_head(&head("GET"), &config, &["GET", "DELETE"]), Ok(0));
        let any_path = HttpConfig {
            path: None,
            ..HttpConfig::default()
        };
        let h = RequestHead {
            path: "/api/v1/mcp",
            ..head("POST")
        };
        assert_eq!(check_head(&h, &any_path, &[]), ok);
    }

    #[test]
    fn refusal_responses() {
        for (r, status) in [
            (Refusal::NotFound, 404),
            (Refusal::Origin(OriginError::NullOrigin), 403),
            (Refusal::Origin(OriginError::MalformedHost), 400),
            (Refusal::MethodNotAllowed, 405),
            (Refusal::UnsupportedMediaType, 415),
            (Refusal::NotAcceptable, 406),
            (Refusal::PayloadTooLarge, 413),
        ] {
            let resp = r.response("POST");
            assert_eq!(resp.status, status, "{r}");
            assert_eq!(resp.header("content-type"), Some(JSON));
            assert_eq!(
                resp.header("Allow"),
                (status == 405).then_some("POST"),
                "{r}"
            );
            let body = core::str::from_utf8(&resp.body).unwrap();
            assert!(
                body.starts_with(r#"{"jsonrpc":"2.0","error":{"code":-32600,"#),
                "{body}"
            );
            assert!(!body.contains("\"id\""), "{body}");
        }
        assert!(HttpResponse::accepted().body.is_empty());
    }

    #[test]
    fn accept_and_q() {
        assert!(accepts("", JSON));
        assert!(accepts("application/*", JSON));
        assert!(!accepts("application/*", SSE));
        assert!(accepts("TEXT/EVENT-STREAM", SSE));
        assert!(accepts("application/json;q=0.1", JSON));
        assert!(!accepts("application/json;q=0.", JSON));
        assert!(!accepts("*/*;q=0", JSON));
        assert!(accepts("application/json;q=0.01", JSON));
        assert!(!accepts("application/jsonx", JSON));
    }
}
