//! `ErrorCode`: JSON-RPC error codes of MCP 2026-07-28 (docs/rules.md §1.4), open to any `Int32`.
//!
//! uniffi has no associated constants, so the named constants (`ErrorCode.methodNotFound`, …)
//! live in the hand-written `MCPContext+Extras.swift`; [`known_error_codes`] is the list they
//! are tested against, so the two cannot drift apart.

use mcp_context::error_code::{self, ErrorCode as CoreCode};

/// A JSON-RPC error code. Any `Int32` is representable; `name()` says whether MCP names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Record)]
#[uniffi::export(Display)]
pub struct ErrorCode {
    /// The numeric code.
    pub code: i32,
}

impl ErrorCode {
    fn core(self) -> CoreCode {
        CoreCode(self.code)
    }
}

impl From<CoreCode> for ErrorCode {
    fn from(c: CoreCode) -> Self {
        Self { code: c.code() }
    }
}

#[uniffi::export]
impl ErrorCode {
    /// The spec's name for a known code (`"Method not found"`), else `nil`.
    pub fn name(&self) -> Option<String> {
        self.core().name().map(Into::into)
    }

    /// The HTTP status Streamable HTTP requires for this code, where the spec fixes one
    /// (404 for -32601; 400 for -32020, -32021, -32022), else `nil`.
    pub fn http_status(&self) -> Option<u16> {
        self.core().http_status()
    }

    /// Whether a client should read this code as "resource not found" (-32602 or the
    /// legacy -32002; docs/rules.md §7, §17).
    pub fn may_mean_not_found(&self) -> bool {
        self.core().may_mean_not_found()
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.core().fmt(f)
    }
}

/// Every code the core names, in the core's declaration order.
#[uniffi::export]
pub fn known_error_codes() -> Vec<ErrorCode> {
    [
        CoreCode::PARSE_ERROR,
        CoreCode::INVALID_REQUEST,
        CoreCode::METHOD_NOT_FOUND,
        CoreCode::INVALID_PARAMS,
        CoreCode::INTERNAL_ERROR,
        CoreCode::HEADER_MISMATCH,
        CoreCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        CoreCode::UNSUPPORTED_PROTOCOL_VERSION,
        CoreCode::LEGACY_RESOURCE_NOT_FOUND,
    ]
    .into_iter()
    .map(ErrorCode::from)
    .collect()
}

/// The protocol revision the core implements (`"2026-07-28"`).
#[uniffi::export]
pub fn protocol_version() -> String {
    error_code::version::CURRENT.into()
}

#[cfg(test)]
mod tests {
    use super::{ErrorCode, known_error_codes};

    #[test]
    fn every_known_code_is_named_and_unique() {
        let codes = known_error_codes();
        for c in &codes {
            assert!(c.name().is_some(), "{c}");
        }
        let mut sorted: Vec<i32> = codes.iter().map(|c| c.code).collect();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len());
        assert_eq!(ErrorCode { code: -32099 }.name(), None);
        assert_eq!(ErrorCode { code: -32601 }.http_status(), Some(404));
    }
}
