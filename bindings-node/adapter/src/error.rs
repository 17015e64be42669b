//! The errors both engines throw (or carry in outputs), as data: each engine builds its own
//! JS object from an [`Error`] (the addon's classes from `errors.js`, the wasm glue's from
//! the JSON spec [`Error::spec`]).

use std::borrow::Cow;

use crate::spell::err_code;
use crate::value::{Js, Obj};

/// An error for JS.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A built-in `TypeError` (`code` `ERR_INVALID_ARG_TYPE` on the addon): a wrong JS type.
    Type(String),
    /// An `McpContextError` with a stable `ERR_…` code.
    Context {
        /// `ERR_…`.
        code: String,
        /// The message.
        message: String,
    },
    /// An `McpError`: a JSON-RPC code, optional `data`, the HTTP status it maps to.
    Mcp {
        /// The JSON-RPC code.
        code: i32,
        /// The message.
        message: String,
        /// The error's data.
        data: Option<Js>,
        /// The HTTP status.
        status: u16,
    },
    /// An `McpContextError` for an answer the server machine refused (`RespondError`), with
    /// `late`: the core's `RespondError::is_late` (nothing left to answer; otherwise the
    /// machine already failed the request with -32603 and the error is the handler's bug).
    Refused {
        /// `ERR_…`.
        code: String,
        /// The message.
        message: String,
        /// `RespondError::is_late`.
        late: bool,
    },
    /// An `OriginError` (Host/Origin check) with its code and HTTP status.
    Origin {
        /// `ERR_…`.
        code: String,
        /// The message.
        message: String,
        /// The HTTP status.
        status: u16,
    },
}

/// A result with an [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

impl Error {
    /// An `McpContextError` with `code`.
    #[must_use]
    pub fn context(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Context {
            code: code.into(),
            message: message.into(),
        }
    }

    /// An `McpContextError` whose code spells a core identifier (`ERR_` + upper case).
    #[must_use]
    pub fn ident(ident: &str, message: impl Into<String>) -> Self {
        Self::context(err_code(ident), message)
    }

    /// The error as `{name, code, message, httpStatus?, data?}` (what the wasm glue turns
    /// into an `Error`; `code` is `null` for a `TypeError`).
    #[must_use]
    pub fn spec(&self) -> Js {
        let late = match self {
            Error::Refused { late, .. } => Some(*late),
            _ => None,
        };
        let (name, code, message, status, data) = match self {
            Error::Type(m) => ("TypeError", Js::Null, m, None, None),
            Error::Context { code, message } | Error::Refused { code, message, .. } => (
                "McpContextError",
                Js::from(code.clone()),
                message,
                None,
                None,
            ),
            Error::Mcp {
                code,
                message,
                data,
                status,
            } => (
                "McpError",
                Js::Num(f64::from(*code)),
                message,
                Some(*status),
                data.as_ref(),
            ),
            Error::Origin {
                code,
                message,
                status,
            } => (
                "OriginError",
                Js::from(code.clone()),
                message,
                Some(*status),
                None,
            ),
        };
        let mut o = Obj::default();
        o.set("name", name)
            .set("code", code)
            .set("message", Js::Str(Cow::Owned(message.clone())));
        if let Some(s) = status {
            o.set("httpStatus", s);
        }
        if let Some(d) = data {
            o.set("data", d.clone());
        }
        if let Some(l) = late {
            o.set("late", l);
        }
        Js::Obj(o)
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Type(m)
            | Error::Context { message: m, .. }
            | Error::Refused { message: m, .. }
            | Error::Mcp { message: m, .. }
            | Error::Origin { message: m, .. } => f.write_str(m),
        }
    }
}

/// Decodes wire-shaped JSON text through the core (`FromJsonText`); a bad value is an
/// `McpError` with the core's code (-32602 or -32700), status 400.
pub fn decode<T: mcp_context::messages::owned::FromJsonText>(text: &str, what: &str) -> Result<T> {
    T::from_json_text(text).map_err(|e| decode_error(&e, what))
}

/// The `McpError` for a value the core's decoder refused (see [`decode`]).
pub fn decode_error(e: &mcp_context::jsonrpc::DecodeError, what: &str) -> Error {
    Error::Mcp {
        code: e.error_code().0,
        message: format!("{what}: {e}"),
        data: None,
        status: 400,
    }
}
