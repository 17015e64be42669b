//! [`Error`]: what a handler returns when it cannot answer, and the JSON-RPC error it becomes.
//!
//! The mapping is the core's ([`Failure`], `docs/server-machine.md` §Inputs): not found is
//! -32602 (with `data.uri` on reads), bad arguments -32602 with a message, anything else
//! -32603 unless the handler chose an application code outside the reserved range.

use std::borrow::Cow;
use std::fmt;

use mcp_context::server::Failure;

/// A handler's failure. `?` on any [`std::error::Error`] gives [`Error::tool`] with the
/// error's text: a tool result with `isError: true` on `tools/call`, -32603 elsewhere (the
/// detail stays in the server: it is never sent to the client).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Failure);

impl Error {
    /// The resource or prompt does not exist: -32602 "Resource not found" (with `data.uri`
    /// on a read), never an empty result.
    #[must_use]
    pub const fn not_found() -> Self {
        Self(Failure::NotFound)
    }

    /// Bad arguments: -32602 with `message` (one concise sentence).
    #[must_use]
    pub fn invalid_params(message: impl Into<Cow<'static, str>>) -> Self {
        Self(Failure::InvalidParams(message.into()))
    }

    /// -32603 "Internal error".
    #[must_use]
    pub const fn internal() -> Self {
        Self(Failure::Internal)
    }

    /// An application error with its own `code` (codes in -32768..=-32000 are reserved to
    /// JSON-RPC and MCP and go out as -32603).
    #[must_use]
    pub fn application(code: i32, message: impl Into<Cow<'static, str>>) -> Self {
        Self(Failure::Application {
            code,
            message: message.into(),
        })
    }

    /// The handler failed in its own way (docs/rules.md §20.4): on `tools/call` a result
    /// with `isError: true` and `message` as its text, so the model sees it; on any other
    /// request -32603 without the message.
    #[must_use]
    pub fn tool(message: impl Into<Cow<'static, str>>) -> Self {
        Self(Failure::Handler(message.into()))
    }

    /// The core's failure this error answers with.
    #[must_use]
    pub fn failure(&self) -> &Failure {
        &self.0
    }

    pub(crate) fn into_failure(self) -> Failure {
        self.0
    }
}

impl Error {
    /// An error that answers with the core's `failure`.
    #[must_use]
    pub fn from_failure(failure: Failure) -> Self {
        Self(failure)
    }
}

impl<E: std::error::Error> From<E> for Error {
    fn from(e: E) -> Self {
        Self::tool(e.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Failure::NotFound => f.write_str("not found"),
            Failure::InvalidParams(m) => write!(f, "invalid params: {m}"),
            Failure::Application { code, message } => write!(f, "error {code}: {message}"),
            Failure::Handler(m) => write!(f, "handler failed: {m}"),
            _ => f.write_str("internal error"),
        }
    }
}
