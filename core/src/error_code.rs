//! JSON-RPC error codes used by MCP 2026-07-28 (docs/rules.md §1.4).

use core::fmt;

/// A JSON-RPC error code. Open: any `i32` is representable, and the named constants cover
/// every code MCP 2026-07-28 defines for the context primitives (docs/rules.md §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ErrorCode(pub i32);

impl ErrorCode {
    /// -32700: the bytes are not JSON.
    pub const PARSE_ERROR: Self = Self(-32700);
    /// -32600: JSON, but not a valid JSON-RPC request.
    pub const INVALID_REQUEST: Self = Self(-32600);
    /// -32601: unknown method, a method removed in 2026-07-28, or a method gated behind a
    /// server capability the server did not declare. HTTP 404.
    pub const METHOD_NOT_FOUND: Self = Self(-32601);
    /// -32602: invalid params, including missing required `_meta` keys (HTTP 400), resource
    /// not found (with `data.uri`), unknown prompt, invalid cursor.
    pub const INVALID_PARAMS: Self = Self(-32602);
    /// -32603: internal error.
    pub const INTERNAL_ERROR: Self = Self(-32603);
    /// -32020: Streamable HTTP headers missing, malformed, or not matching the body. HTTP 400.
    pub const HEADER_MISMATCH: Self = Self(-32020);
    /// -32021: the request needs a client capability the client did not declare; `data`
    /// carries `requiredCapabilities`. HTTP 400.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: Self = Self(-32021);
    /// -32022: the requested protocol version is not supported; `data` carries `supported`
    /// and `requested`. HTTP 400.
    pub const UNSUPPORTED_PROTOCOL_VERSION: Self = Self(-32022);
    /// -32002: legacy (≤ 2025-11-25) "resource not found". A 2026-07-28 implementation
    /// MUST NOT emit it; clients SHOULD accept it as not found (docs/rules.md §7, §17).
    pub const LEGACY_RESOURCE_NOT_FOUND: Self = Self(-32002);

    /// The numeric code.
    #[must_use]
    pub const fn code(self) -> i32 {
        self.0
    }

    /// The spec's name for a known code.
    #[must_use]
    pub const fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            -32700 => "Parse error",
            -32600 => "Invalid request",
            -32601 => "Method not found",
            -32602 => "Invalid params",
            -32603 => "Internal error",
            -32020 => "Header mismatch",
            -32021 => "Missing required client capability",
            -32022 => "Unsupported protocol version",
            -32002 => "Resource not found",
            _ => return None,
        })
    }

    /// Whether a client should read this code as "resource not found" (-32602 with a
    /// `data.uri`, or the legacy -32002).
    #[must_use]
    pub const fn may_mean_not_found(self) -> bool {
        matches!(self.0, -32602 | -32002)
    }

    /// The HTTP status the Streamable HTTP transport requires for this code, where the spec
    /// fixes one (docs/rules.md §1.4, §15, §19.9): 404 for -32601, 400 for -32020/-32021/-32022.
    /// Other codes have no mandated status; `None` lets the host choose (e.g. 200 with the
    /// error body).
    #[must_use]
    pub const fn http_status(self) -> Option<u16> {
        match self.0 {
            -32601 => Some(404),
            -32022..=-32020 => Some(400),
            _ => None,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{} ({name})", self.0),
            None => write!(f, "{}", self.0),
        }
    }
}

/// Protocol version strings.
pub mod version {
    /// The revision this crate implements.
    pub const CURRENT: &str = "2026-07-28";
    /// The previous revision, accepted by dual-era clients (docs/rules.md §17).
    pub const LEGACY_2025_11_25: &str = "2025-11-25";
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;
    use std::string::ToString;

    #[test]
    fn statuses() {
        assert_eq!(ErrorCode::METHOD_NOT_FOUND.http_status(), Some(404));
        assert_eq!(ErrorCode::HEADER_MISMATCH.http_status(), Some(400));
        assert_eq!(
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.http_status(),
            Some(400)
        );
        assert_eq!(ErrorCode::INTERNAL_ERROR.http_status(), None);
        assert!(ErrorCode::LEGACY_RESOURCE_NOT_FOUND.may_mean_not_found());
        assert_eq!(ErrorCode(-32602).to_string(), "-32602 (Invalid params)");
    }
}
