//! Streamable HTTP (spec: basic/transports, "Streamable HTTP"): the server's one entry point
//! and the pure checks it is made of.
//!
//! The host's HTTP server parses the request line and headers into a [`RequestHead`] and calls
//! [`Server::http_head`](crate::server::Server::http_head) (before reading the body) and
//! [`Server::handle_http`](crate::server::Server::handle_http) (with it); the core decides
//! every status, header and body (docs/server-machine.md §"The HTTP entry point"). The checks
//! below are also usable alone; they take plain `&str`s, allocate nothing and never panic.
//!
//! The order for a POST (the spec states none; conformance pins two steps):
//!
//! 0. the head checks of [`check_head`] (path 404, `Host`/`Origin`, method 405,
//!    `Content-Type` 415, `Accept` 406, `Content-Length` 413), before the body is read;
//! 1. [`check_origin`]: `Host` / `Origin`, 403 (400 for a missing or malformed `Host`);
//! 2. JSON parse (-32700, HTTP 400); unknown method, -32601, HTTP 404, before `_meta` (so a
//!    legacy probe gets the modern answer);
//! 3. required `_meta` keys: -32602 with HTTP **400** ([`MALFORMED_META_STATUS`]); this
//!    comes before step 4 (conformance sends a valid header with a body lacking the key and
//!    expects -32602);
//! 4. [`check_headers`]: header presence and equality with the body, -32020, HTTP 400;
//! 5. protocol version support, -32022, HTTP 400 (after step 4: conformance expects -32020
//!    for header `2026-07-28` with body `v999.0.0`);
//! 6. the method's server capability, -32601, HTTP 404; 7. params, -32602 (HTTP 200);
//!    8. client capabilities for input requests, -32021, HTTP 400.
//!
//! [`status_for`] gives the HTTP status for a JSON-RPC error code.

#[cfg(feature = "alloc")]
mod endpoint;
#[cfg(feature = "alloc")]
mod fields;
mod headers;
mod origin;
#[cfg(feature = "alloc")]
pub mod sse;

#[cfg(feature = "alloc")]
pub use endpoint::{
    DEFAULT_MAX_BODY, HeadCheck, HttpConfig, HttpResponse, HttpStart, JSON, Refusal, RequestHead,
    SSE, accepts, check_head, is_json_content_type,
};
#[cfg(feature = "alloc")]
pub use fields::HeadFields;
pub use headers::{
    BodyFields, Header, HeaderError, HeaderProblem, NameSource, RequestHeaders, check_headers,
    name_source,
};
pub use origin::{LOCALHOST, OriginError, check_host_and_origin, check_origin};

use crate::error_code::ErrorCode;

/// The HTTP status for a request rejected because a required `_meta` key is missing or
/// invalid: 400 (spec: Streamable HTTP, "Server Validation" status table). The JSON-RPC code is the general -32602,
/// which [`status_for`] alone cannot tell apart from "resource not found".
pub const MALFORMED_META_STATUS: u16 = 400;

/// The HTTP status to send with a JSON-RPC error response carrying `code`
/// (spec: basic "Error codes", Streamable HTTP status table): the status the spec mandates
/// where it fixes one ([`ErrorCode::http_status`]: 404 for -32601, 400 for
/// -32020/-32021/-32022), otherwise 200 with the error in the body, the usual choice where
/// the spec is silent.
/// For -32602 caused by missing `_meta`, use [`MALFORMED_META_STATUS`] instead.
#[must_use]
pub const fn status_for(code: ErrorCode) -> u16 {
    match code.http_status() {
        Some(status) => status,
        None => 200,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses() {
        let table: &[(ErrorCode, u16)] = &[
            (ErrorCode::METHOD_NOT_FOUND, 404),
            (ErrorCode::HEADER_MISMATCH, 400),
            (ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, 400),
            (ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, 400),
            (ErrorCode::INVALID_PARAMS, 200),
            (ErrorCode::INTERNAL_ERROR, 200),
            (ErrorCode::PARSE_ERROR, 200),
            (ErrorCode::INVALID_REQUEST, 200),
            (ErrorCode(-32099), 200),
            (ErrorCode(1), 200),
        ];
        for (code, status) in table {
            assert_eq!(status_for(*code), *status, "{code}");
        }
        let e = HeaderError {
            header: Header::Name,
            problem: HeaderProblem::Missing,
        };
        assert_eq!(e.http_status(), 400);
        assert_eq!(status_for(e.code()), e.http_status());
    }
}
