//! Errors of the client machine, split by who is at fault (STYLE convention 9):
//!
//! * [`ServerError`]: the server answered a call with a JSON-RPC error (typed by code).
//! * [`CallError`]: why a call ended without a result (the server's error, a timeout, …).
//! * [`ConnectError`]: why the era/version negotiation failed.
//! * [`ClientError`]: the host misused the API; nothing changed.
//! * [`PeerError`]: the server broke the protocol; reported, and the machine keeps working.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error_code::ErrorCode;
use crate::jsonrpc::{DecodeError, ErrorData, ErrorObject, ParamsError};
use crate::messages::owned::OwnedJson;

/// A JSON-RPC error the server answered a call with, typed by what the spec fixes
/// (docs/rules.md §1.4).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ServerError {
    /// Resource not found: `-32602` with `data.uri`, or the legacy `-32002` a client SHOULD
    /// still accept (docs/rules.md §7, §16.1 rule 10, §17.2).
    ResourceNotFound {
        /// `data.uri`, when the server sent it.
        uri: Option<String>,
        /// `message`
        message: String,
    },
    /// `-32022`: the requested version is not served (docs/rules.md §2).
    UnsupportedProtocolVersion {
        /// `data.supported`
        supported: Vec<String>,
        /// `data.requested`
        requested: String,
    },
    /// `-32021`: the request needs client capabilities that were not declared (docs/rules.md §1.1).
    MissingRequiredClientCapability {
        /// `data.requiredCapabilities` (a `ClientCapabilities` object).
        required: OwnedJson,
    },
    /// `-32601`: unknown method, or its server capability is not declared.
    MethodNotFound {
        /// `message`
        message: String,
    },
    /// `-32602` without a not-found `uri`: invalid params, unknown prompt, invalid cursor.
    InvalidParams {
        /// `message`
        message: String,
    },
    /// `-32603`.
    Internal {
        /// `message`
        message: String,
    },
    /// Any other code; also -32022/-32021 whose `data` is malformed.
    Other {
        /// `code`
        code: ErrorCode,
        /// `message`
        message: String,
        /// `data`, as sent.
        data: Option<OwnedJson>,
    },
}

fn text(e: &ErrorObject<'_>) -> String {
    e.message.to_cow().into_owned()
}

impl ServerError {
    /// Types a received error object.
    #[must_use]
    pub fn from_object(e: &ErrorObject<'_>) -> Self {
        let raw = || match e.data {
            ErrorData::Raw(v) => OwnedJson::parse(v.as_text()).ok(),
            _ => None,
        };
        let other = || Self::Other {
            code: e.code,
            message: text(e),
            data: raw(),
        };
        let details = e.details();
        match (e.code, details) {
            (ErrorCode::LEGACY_RESOURCE_NOT_FOUND, Ok(d)) | (ErrorCode::INVALID_PARAMS, Ok(d))
                if e.is_resource_not_found() =>
            {
                let uri = match d {
                    ErrorData::ResourceNotFound { uri } => Some(uri.to_cow().into_owned()),
                    _ => None,
                };
                Self::ResourceNotFound {
                    uri,
                    message: text(e),
                }
            }
            (
                _,
                Ok(ErrorData::UnsupportedProtocolVersion {
                    supported,
                    requested,
                }),
            ) => Self::UnsupportedProtocolVersion {
                supported: supported.iter().map(|s| s.to_cow().into_owned()).collect(),
                requested: requested.to_cow().into_owned(),
            },
            (_, Ok(ErrorData::MissingRequiredClientCapability { .. })) => match e.data {
                ErrorData::Raw(v) => match v.get("requiredCapabilities") {
                    Some(c) => OwnedJson::parse(c.as_text())
                        .map(|required| Self::MissingRequiredClientCapability { required })
                        .unwrap_or_else(|_| other()),
                    None => other(),
                },
                _ => other(),
            },
            (ErrorCode::METHOD_NOT_FOUND, _) => Self::MethodNotFound { message: text(e) },
            (ErrorCode::INVALID_PARAMS, _) => Self::InvalidParams { message: text(e) },
            (ErrorCode::INTERNAL_ERROR, _) => Self::Internal { message: text(e) },
            _ => other(),
        }
    }

    /// The JSON-RPC code.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::ResourceNotFound { .. } | Self::InvalidParams { .. } => ErrorCode::INVALID_PARAMS,
            Self::UnsupportedProtocolVersion { .. } => ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            Self::MissingRequiredClientCapability { .. } => {
                ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
            }
            Self::MethodNotFound { .. } => ErrorCode::METHOD_NOT_FOUND,
            Self::Internal { .. } => ErrorCode::INTERNAL_ERROR,
            Self::Other { code, .. } => *code,
        }
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ResourceNotFound { uri: Some(uri), .. } => write!(f, "resource not found: {uri}"),
            Self::ResourceNotFound { uri: None, message } => {
                write!(f, "resource not found: {message}")
            }
            Self::UnsupportedProtocolVersion {
                supported,
                requested,
            } => write!(
                f,
                "protocol version {requested} unsupported; server supports {supported:?}"
            ),
            Self::MissingRequiredClientCapability { required } => {
                write!(f, "missing required client capabilities {required:?}")
            }
            Self::MethodNotFound { message }
            | Self::InvalidParams { message }
            | Self::Internal { message } => write!(f, "{}: {message}", self.code()),
            Self::Other { code, message, .. } => write!(f, "{code}: {message}"),
        }
    }
}

impl core::error::Error for ServerError {}

/// Why the era/version negotiation failed (docs/rules.md §2, §17.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConnectError {
    /// No configured version is among the server's (`supportedVersions`, `-32022`
    /// `data.supported`, or the legacy `initialize` answer).
    NoCommonVersion,
    /// The server is not modern and the legacy fallback is disabled.
    LegacyDisabled,
    /// The legacy `initialize` failed with this code.
    Rejected(ErrorCode),
    /// The legacy `initialize` went unanswered.
    Timeout,
    /// The handshake result broke the schema.
    InvalidResult(ParamsError),
    /// The transport closed during the handshake.
    Closed,
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoCommonVersion => f.write_str("no protocol version in common with the server"),
            Self::LegacyDisabled => f.write_str("server is legacy and the fallback is disabled"),
            Self::Rejected(code) => write!(f, "initialize rejected: {code}"),
            Self::Timeout => f.write_str("initialize timed out"),
            Self::InvalidResult(e) => write!(f, "invalid handshake result: {e}"),
            Self::Closed => f.write_str("transport closed during the handshake"),
        }
    }
}

impl core::error::Error for ConnectError {}

/// Why a call ended without a result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CallError {
    /// The server answered with an error.
    Server(ServerError),
    /// No answer before the deadline (the request was cancelled on stdio).
    Timeout,
    /// The transport closed (see [`Client::handle_close`](super::Client::handle_close)).
    Closed,
    /// The result broke the schema or a spec rule, e.g. an unrecognised `resultType`
    /// (docs/rules.md §1.2, §16.1 rule 8).
    InvalidResult(ParamsError),
    /// More `input_required` rounds than `max_input_rounds` (docs/rules.md §13).
    TooManyInputRounds,
    /// The negotiation failed, so the call was never sent.
    NotConnected(ConnectError),
    /// The method does not exist in the negotiated era (`server/discover` on a legacy
    /// server).
    UnsupportedInEra,
    /// A legacy server cancelled the request (`notifications/cancelled`).
    CancelledByServer,
    /// The request could not be encoded (a value JSON cannot carry).
    Unencodable,
    /// The transport could not deliver the request or got no JSON-RPC answer
    /// ([`Client::handle_request_failed`](super::Client::handle_request_failed)).
    Undeliverable,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Server(e) => e.fmt(f),
            Self::Timeout => f.write_str("request timed out"),
            Self::Closed => f.write_str("transport closed"),
            Self::InvalidResult(e) => write!(f, "invalid result: {e}"),
            Self::TooManyInputRounds => f.write_str("too many input_required rounds"),
            Self::NotConnected(e) => write!(f, "not connected: {e}"),
            Self::UnsupportedInEra => f.write_str("method not available in the negotiated era"),
            Self::CancelledByServer => f.write_str("cancelled by the server"),
            Self::Unencodable => f.write_str("request could not be encoded"),
            Self::Undeliverable => f.write_str("request could not be delivered"),
        }
    }
}

impl core::error::Error for CallError {}

/// A host mistake; the call changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientError {
    /// No such call (finished, cancelled, or never started).
    UnknownCall,
    /// The call is not waiting for input responses.
    NotAwaitingInput,
    /// An input request key has no response: the client "**MUST** construct the requested
    /// inputs before retrying" (docs/rules.md §13).
    MissingInputResponse,
    /// A response key the server did not request.
    UnexpectedInputResponse,
    /// An input response is not a JSON object (`ElicitResult`, `CreateMessageResult`,
    /// `ListRootsResult` are objects).
    InputResponseNotObject,
    /// The request could not be encoded (an invalid value, e.g. a big-integer id).
    Encode,
    /// [`Client::request`](super::Client::request) of a method the machine owns (it has
    /// its own call), a notification, a method the server sends, or an `rpc.` name.
    OwnedMethod,
    /// The method name of [`Client::request`](super::Client::request) is not printable
    /// ASCII without spaces (`0x21..=0x7E`): it could not travel as the `Mcp-Method` header.
    InvalidMethodName,
    /// The params of [`Client::request`](super::Client::request) are not a JSON object.
    ParamsNotObject,
    /// A `tools/call` of a tool whose `x-mcp-header` annotations are invalid: the client
    /// MUST reject such a tool (spec: Server features › Tools › `x-mcp-header`).
    RejectedTool,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::UnknownCall => "no such call",
            Self::NotAwaitingInput => "call is not waiting for input",
            Self::MissingInputResponse => "an input request has no response",
            Self::UnexpectedInputResponse => "response for an input the server did not request",
            Self::InputResponseNotObject => "input response is not a JSON object",
            Self::Encode => "request could not be encoded",
            Self::OwnedMethod => "method is owned by the client machine or is not a request",
            Self::InvalidMethodName => "method name is not printable ASCII without spaces",
            Self::ParamsNotObject => "params are not a JSON object",
            Self::RejectedTool => "tool was rejected for invalid x-mcp-header annotations",
        })
    }
}

impl core::error::Error for ClientError {}

/// The server broke the protocol. Reported as an event; the machine keeps working.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PeerError {
    /// The bytes are not a JSON-RPC message (or exceed the limits).
    Malformed(DecodeError),
    /// A notification's params break the schema.
    InvalidNotification(ParamsError),
    /// A modern server sent a request: "Servers **MUST NOT** initiate JSON-RPC requests"
    /// (docs/rules.md §1.3); not answered.
    UnexpectedRequest,
    /// A notification names a subscription id that is not an open `subscriptions/listen`.
    UnknownSubscription,
    /// A notification of a subscription arrived before its acknowledgment (docs/rules.md §11.2).
    NotificationBeforeAck,
    /// A notification type (or URI) the subscription did not opt in to (docs/rules.md §11.1).
    UnrequestedNotification,
    /// The acknowledgment or the listen result names another subscription id than the
    /// listen request's id (docs/rules.md §11.4, §16.9 rule 52).
    SubscriptionIdMismatch,
    /// The acknowledgment grants a type the client did not request (docs/rules.md §11.2).
    AckExceedsRequest,
    /// A modern server cancelled a request that is not a `subscriptions/listen`
    /// (docs/rules.md §12 "Server-sent cancellation notifications **MUST** reference a
    /// `subscriptions/listen` request"); ignored.
    InvalidCancellation,
    /// An error response without an id (the server could not read ours).
    ErrorWithoutId(ErrorCode),
}

impl fmt::Display for PeerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(e) => write!(f, "malformed message: {e}"),
            Self::InvalidNotification(e) => write!(f, "invalid notification: {e}"),
            Self::UnexpectedRequest => f.write_str("server sent a request"),
            Self::UnknownSubscription => f.write_str("notification for an unknown subscription"),
            Self::NotificationBeforeAck => f.write_str("notification before acknowledgment"),
            Self::UnrequestedNotification => f.write_str("notification the client did not request"),
            Self::SubscriptionIdMismatch => f.write_str("subscription id does not match"),
            Self::AckExceedsRequest => f.write_str("acknowledgment grants more than requested"),
            Self::InvalidCancellation => f.write_str("server cancelled a non-listen request"),
            Self::ErrorWithoutId(code) => write!(f, "error response without id: {code}"),
        }
    }
}

impl core::error::Error for PeerError {}
