//! `ErrorCode`: the JSON-RPC error codes of MCP 2026-07-28 (docs/rules.md §1.4) as a TypeScript
//! numeric enum. The discriminants are the core's constants; a compile-time check below keeps
//! the two in step.

use mcp_context::error_code::ErrorCode as Core;
use napi_derive::napi;

/// JSON-RPC error codes used by MCP 2026-07-28. The vocabulary is open: a peer may send any
/// integer, so an error's numeric `code` is a plain `number` that compares equal to these.
#[napi]
pub enum ErrorCode {
    /// -32700: the bytes are not JSON.
    ParseError = -32700,
    /// -32600: JSON, but not a valid JSON-RPC request.
    InvalidRequest = -32600,
    /// -32601: unknown method, removed method, or undeclared server capability (HTTP 404).
    MethodNotFound = -32601,
    /// -32602: invalid params: missing `_meta` keys, resource not found (with `data.uri`),
    /// unknown prompt, invalid cursor.
    InvalidParams = -32602,
    /// -32603: internal error.
    InternalError = -32603,
    /// -32020: Streamable HTTP headers missing, malformed or not matching the body (HTTP 400).
    HeaderMismatch = -32020,
    /// -32021: the request needs a client capability the client did not declare (HTTP 400).
    MissingRequiredClientCapability = -32021,
    /// -32022: the requested protocol version is not supported (HTTP 400).
    UnsupportedProtocolVersion = -32022,
    /// -32002: legacy (2025-11-25) "resource not found": accept it, never send it.
    LegacyResourceNotFound = -32002,
}

// napi-rs needs literal discriminants; this fails to compile if one drifts from the core.
const _: () = {
    let pairs = [
        (ErrorCode::ParseError as i32, Core::PARSE_ERROR),
        (ErrorCode::InvalidRequest as i32, Core::INVALID_REQUEST),
        (ErrorCode::MethodNotFound as i32, Core::METHOD_NOT_FOUND),
        (ErrorCode::InvalidParams as i32, Core::INVALID_PARAMS),
        (ErrorCode::InternalError as i32, Core::INTERNAL_ERROR),
        (ErrorCode::HeaderMismatch as i32, Core::HEADER_MISMATCH),
        (
            ErrorCode::MissingRequiredClientCapability as i32,
            Core::MISSING_REQUIRED_CLIENT_CAPABILITY,
        ),
        (
            ErrorCode::UnsupportedProtocolVersion as i32,
            Core::UNSUPPORTED_PROTOCOL_VERSION,
        ),
        (
            ErrorCode::LegacyResourceNotFound as i32,
            Core::LEGACY_RESOURCE_NOT_FOUND,
        ),
    ];
    let mut i = 0;
    while i < pairs.len() {
        assert!(pairs[i].0 == pairs[i].1.code());
        i += 1;
    }
};
