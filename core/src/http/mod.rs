//! Streamable HTTP request checks as pure functions (DIGEST §15.1, §16.10, §19.8).
//!
//! The host's HTTP server parses the request line and headers; these functions decide. They
//! take plain `&str`s, allocate nothing and never panic.
//!
//! A sensible order for a POST (DIGEST §19.8; the spec states none, conformance pins two
//! steps):
//!
//! 1. [`check_origin`]: `Host` / `Origin`, 403 (400 for a missing or malformed `Host`);
//! 2. JSON parse;
//! 3. required `_meta` keys: -32602 with HTTP **400** ([`MALFORMED_META_STATUS`]); this
//!    comes before step 4 (conformance sends a valid header with a body lacking the key and
//!    expects -32602);
//! 4. [`check_headers`]: header presence and equality with the body, -32020, HTTP 400;
//! 5. protocol version support, -32022, HTTP 400 (after step 4: conformance expects -32020
//!    for header `2026-07-28` with body `v999.0.0`);
//! 6. method known, -32601, HTTP 404; 7. client capabilities, -32021, HTTP 400; 8. params.
//!
//! [`status_for`] gives the HTTP status for a JSON-RPC error code.

mod headers;
mod origin;

pub use headers::{
    BodyFields, Header, HeaderError, HeaderProblem, NameSource, RequestHeaders, check_headers,
    name_source,
};
pub use origin::{LOCALHOST, OriginError, check_origin};

use crate::error_code::ErrorCode;

/// The HTTP status for a request rejected because a required `_meta` key is missing or
/// invalid: 400 (DIGEST §1.1, §15.1 status table). The JSON-RPC code is the general -32602,
/// which [`status_for`] alone cannot tell apart from "resource not found".
pub const MALFORMED_META_STATUS: u16 = 400;

/// The HTTP status to send with a JSON-RPC error response carrying `code`
/// (DIGEST §1.4, §15.1, §19.9): the status the spec mandates where it fixes one
/// ([`ErrorCode::http_status`]: 404 for -32601, 400 for -32020/-32021/-32022), otherwise
/// 200 with the error in the body, the usual choice where the spec is silent (§19.9).
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
