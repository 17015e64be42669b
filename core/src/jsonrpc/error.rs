//! Decode errors by layer, each mapping to exactly one JSON-RPC code (docs/rules.md §1.4):
//! [`JsonError`] → `-32700`, [`EnvelopeError`] → `-32600`, [`ParamsError`] → `-32602`.

use core::fmt;

use crate::error_code::ErrorCode;
use crate::json::JsonError;

/// Why a JSON value is not a valid JSON-RPC 2.0 message as MCP restricts it (docs/rules.md §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EnvelopeError {
    /// The message is not a JSON object.
    NotAnObject,
    /// A JSON array: batches are not part of MCP.
    Batch,
    /// `jsonrpc` is missing.
    MissingVersion,
    /// `jsonrpc` is not the string `"2.0"`.
    WrongVersion,
    /// `id` is `null` ("Unlike base JSON-RPC, the ID MUST NOT be null", docs/rules.md §1.1).
    NullId,
    /// `id` is neither a string nor an integer.
    InvalidId,
    /// A result without an `id`.
    MissingId,
    /// `method` is not a string.
    InvalidMethod,
    /// `params` is neither an object nor an array.
    InvalidParams,
    /// `error` is not an object with an integer `code` (fitting `i32`) and a string `message`.
    InvalidErrorObject,
    /// Both `method` and `result`/`error`, or both `result` and `error`.
    Ambiguous,
    /// None of `method`, `result`, `error`.
    UnknownShape,
    /// A member of the envelope appears twice.
    DuplicateMember(&'static str),
    /// The message is valid but not the kind the caller asked for (e.g. a notification where
    /// a request was expected).
    UnexpectedKind,
    /// The request or notification is valid but names a different method than the caller
    /// asked for.
    UnexpectedMethod,
}

impl EnvelopeError {
    /// Always [`ErrorCode::INVALID_REQUEST`].
    #[must_use]
    pub const fn error_code(self) -> ErrorCode {
        ErrorCode::INVALID_REQUEST
    }
}

impl fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Self::NotAnObject => "message is not a JSON object",
            Self::Batch => "JSON-RPC batches are not supported",
            Self::MissingVersion => "missing \"jsonrpc\"",
            Self::WrongVersion => "\"jsonrpc\" must be \"2.0\"",
            Self::NullId => "\"id\" must not be null",
            Self::InvalidId => "\"id\" must be a string or an integer",
            Self::MissingId => "result without \"id\"",
            Self::InvalidMethod => "\"method\" must be a string",
            Self::InvalidParams => "\"params\" must be an object or an array",
            Self::InvalidErrorObject => "malformed \"error\" object",
            Self::Ambiguous => "message mixes request and response members",
            Self::UnknownShape => "neither a request, a notification nor a response",
            Self::DuplicateMember(m) => return write!(f, "invalid request: duplicate \"{m}\""),
            Self::UnexpectedKind => "unexpected kind of message",
            Self::UnexpectedMethod => "unexpected method",
        };
        write!(f, "invalid request: {s}")
    }
}

impl core::error::Error for EnvelopeError {}

/// What is wrong with a field of `params` (or of a result, when a client decodes one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParamsErrorKind {
    /// A required field is absent.
    Missing,
    /// The field has the wrong JSON type.
    WrongType,
    /// A known field appears twice in one object.
    Duplicate,
    /// A number outside its allowed range (`priority` ∉ [0, 1], a negative `size`, …).
    OutOfRange,
    /// A string outside its enumeration (`audience`, `role`, `cacheScope`, content `type`, …).
    UnknownValue,
    /// A `resultType` the client does not recognise ("MUST be considered invalid", docs/rules.md §1.2).
    UnknownResultType,
    /// `resultType: "input_required"` on a method that may not return it (docs/rules.md §13).
    InputRequiredNotAllowed,
    /// More items than allowed (`completion.values` > 100, docs/rules.md §10).
    TooManyItems,
    /// Two fields that exclude each other (`text` and `blob` in one contents item).
    Conflicting,
    /// An `InputRequiredResult` with neither `inputRequests` nor `requestState` (docs/rules.md §13).
    EmptyInputRequired,
}

impl ParamsErrorKind {
    const fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "is required",
            Self::WrongType => "has the wrong type",
            Self::Duplicate => "appears twice",
            Self::OutOfRange => "is out of range",
            Self::UnknownValue => "has an unknown value",
            Self::UnknownResultType => "is not a recognised result type",
            Self::InputRequiredNotAllowed => "may not be \"input_required\" for this method",
            Self::TooManyItems => "has too many items",
            Self::Conflicting => "conflicts with another field",
            Self::EmptyInputRequired => "needs inputRequests or requestState",
        }
    }
}

/// A field of `params` or of a result that violates the schema or a spec rule. Maps to
/// JSON-RPC `-32602` (Invalid params).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParamsError {
    /// What is wrong.
    pub kind: ParamsErrorKind,
    /// The field's JSON name (e.g. `"io.modelcontextprotocol/clientCapabilities"`).
    pub field: &'static str,
}

impl ParamsError {
    /// A new error.
    #[must_use]
    pub const fn new(kind: ParamsErrorKind, field: &'static str) -> Self {
        Self { kind, field }
    }
    pub(crate) const fn missing(field: &'static str) -> Self {
        Self::new(ParamsErrorKind::Missing, field)
    }
    pub(crate) const fn wrong_type(field: &'static str) -> Self {
        Self::new(ParamsErrorKind::WrongType, field)
    }
    pub(crate) const fn duplicate(field: &'static str) -> Self {
        Self::new(ParamsErrorKind::Duplicate, field)
    }

    /// The field name scalar element decoders use; a collection replaces it with its own.
    pub(crate) const ITEM: &'static str = "item";

    /// Names the collection `field` when the error came from a bare element.
    pub(crate) fn in_field(self, field: &'static str) -> Self {
        if self.field == Self::ITEM {
            Self { field, ..self }
        } else {
            self
        }
    }

    /// Always [`ErrorCode::INVALID_PARAMS`].
    #[must_use]
    pub const fn error_code(self) -> ErrorCode {
        ErrorCode::INVALID_PARAMS
    }
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid params: {} {}", self.field, self.kind.as_str())
    }
}

impl core::error::Error for ParamsError {}

/// Any failure to decode a message, by layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeError {
    /// Not JSON, or beyond the declared limits: `-32700`.
    Json(JsonError),
    /// Not a valid JSON-RPC message: `-32600`.
    Envelope(EnvelopeError),
    /// Invalid params (or result fields): `-32602`.
    Params(ParamsError),
}

impl DecodeError {
    /// The JSON-RPC error code a server answers with.
    #[must_use]
    pub const fn error_code(self) -> ErrorCode {
        match self {
            Self::Json(e) => e.error_code(),
            Self::Envelope(e) => e.error_code(),
            Self::Params(e) => e.error_code(),
        }
    }
}

impl From<JsonError> for DecodeError {
    fn from(e: JsonError) -> Self {
        Self::Json(e)
    }
}

impl From<EnvelopeError> for DecodeError {
    fn from(e: EnvelopeError) -> Self {
        Self::Envelope(e)
    }
}

impl From<ParamsError> for DecodeError {
    fn from(e: ParamsError) -> Self {
        Self::Params(e)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(e) => e.fmt(f),
            Self::Envelope(e) => e.fmt(f),
            Self::Params(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Json(e) => Some(e),
            Self::Envelope(e) => Some(e),
            Self::Params(e) => Some(e),
        }
    }
}
