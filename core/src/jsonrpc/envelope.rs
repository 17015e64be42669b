//! The JSON-RPC 2.0 envelope with MCP's restrictions (DIGEST §1.1, §1.3): classify a message
//! as request, notification, result or error, strictly.

use super::error::{DecodeError, EnvelopeError};
use super::error_object::ErrorObject;
use super::id::RequestId;
use super::method::Method;
use crate::json::fields::Fields;
use crate::json::{Encode, EncodeError, JsonKind, JsonSink, Limits, RawJson, Writer, validate};

/// A request: has an `id` and a `method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request<'a> {
    /// The id, echoed by the response.
    pub id: RequestId<'a>,
    /// The method.
    pub method: Method<'a>,
    /// `params`, unparsed (an object or an array).
    pub params: Option<RawJson<'a>>,
}

/// A notification: a `method` and no `id`; never answered (DIGEST §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notification<'a> {
    /// The method.
    pub method: Method<'a>,
    /// `params`, unparsed (an object or an array).
    pub params: Option<RawJson<'a>>,
}

/// A successful response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Response<'a> {
    /// The id of the request answered.
    pub id: RequestId<'a>,
    /// `result`, unparsed.
    pub result: RawJson<'a>,
}

/// An error response.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorResponse<'a> {
    /// The id of the request answered; absent when it could not be read (DIGEST §1.4).
    pub id: Option<RequestId<'a>>,
    /// The error.
    pub error: ErrorObject<'a>,
}

/// Any JSON-RPC message.
///
/// ```
/// use mcp_context::jsonrpc::{Message, Method, RequestId};
/// let m = Message::decode(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
/// let Message::Request(r) = m else { panic!() };
/// assert_eq!((r.id, r.method), (RequestId::Int(7), Method::Ping));
/// let e = Message::decode(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#).unwrap_err();
/// assert_eq!(e.error_code().code(), -32600);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Message<'a> {
    /// A request.
    Request(Request<'a>),
    /// A notification.
    Notification(Notification<'a>),
    /// A successful response.
    Response(Response<'a>),
    /// An error response.
    Error(ErrorResponse<'a>),
}

const MEMBERS: &[&str] = &["jsonrpc", "id", "method", "params", "result", "error"];

impl<'a> Message<'a> {
    /// Validates `bytes` as JSON under [`Limits::DEFAULT`] and classifies the message.
    ///
    /// # Errors
    /// [`DecodeError::Json`] (`-32700`) or [`DecodeError::Envelope`] (`-32600`).
    pub fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        Self::decode_with(bytes, Limits::DEFAULT)
    }

    /// As [`Message::decode`], with explicit limits.
    ///
    /// # Errors
    /// [`DecodeError::Json`] (`-32700`) or [`DecodeError::Envelope`] (`-32600`).
    pub fn decode_with(bytes: &'a [u8], limits: Limits) -> Result<Self, DecodeError> {
        Ok(Self::from_json(validate(bytes, limits)?)?)
    }

    /// Classifies an already validated value.
    ///
    /// # Errors
    /// [`EnvelopeError`] when the value is not a valid MCP JSON-RPC message.
    pub fn from_json(v: RawJson<'a>) -> Result<Self, EnvelopeError> {
        let mut fields = match Fields::new(v, MEMBERS) {
            Some(f) => f,
            None if v.kind() == JsonKind::Array => return Err(EnvelopeError::Batch),
            None => return Err(EnvelopeError::NotAnObject),
        };
        let mut m: [Option<RawJson<'a>>; 6] = [None; 6];
        while let Some((i, value)) = fields
            .next_known()
            .map_err(EnvelopeError::DuplicateMember)?
        {
            if let Some(slot) = m.get_mut(i) {
                *slot = Some(value);
            }
        }
        let [jsonrpc, id, method, params, result, error] = m;
        match jsonrpc.map(|j| j.as_str().is_some_and(|s| s == "2.0")) {
            None => return Err(EnvelopeError::MissingVersion),
            Some(false) => return Err(EnvelopeError::WrongVersion),
            Some(true) => {}
        }
        if let Some(method) = method {
            if result.is_some() || error.is_some() {
                return Err(EnvelopeError::Ambiguous);
            }
            let name = method.as_str().ok_or(EnvelopeError::InvalidMethod)?;
            let method = Method::from_json(name);
            if let Some(p) = params
                && !matches!(p.kind(), JsonKind::Object | JsonKind::Array)
            {
                return Err(EnvelopeError::InvalidParams);
            }
            return Ok(match id {
                Some(id) => Self::Request(Request {
                    id: RequestId::from_json(id)?,
                    method,
                    params,
                }),
                None => Self::Notification(Notification { method, params }),
            });
        }
        match (result, error) {
            (Some(_), Some(_)) => Err(EnvelopeError::Ambiguous),
            (Some(result), None) => Ok(Self::Response(Response {
                id: RequestId::from_json(id.ok_or(EnvelopeError::MissingId)?)?,
                result,
            })),
            (None, Some(error)) => Ok(Self::Error(ErrorResponse {
                // Base JSON-RPC answers unreadable ids with `null`; accept it as "absent".
                id: match id {
                    Some(id) if id.is_null() => None,
                    Some(id) => Some(RequestId::from_json(id)?),
                    None => None,
                },
                error: ErrorObject::from_json(error)?,
            })),
            (None, None) => Err(EnvelopeError::UnknownShape),
        }
    }
}

/// Best-effort read of the `id` of a message that failed to decode, so the error response
/// can echo it (DIGEST §1.4). `None` when the bytes are not a JSON object with a valid id.
#[must_use]
pub fn recover_id(bytes: &[u8]) -> Option<RequestId<'_>> {
    let v = validate(bytes, Limits::DEFAULT).ok()?;
    RequestId::from_json(v.get("id")?).ok()
}

type R = Result<(), EncodeError>;

/// Writes `"jsonrpc":"2.0"` after the opening brace.
pub(crate) fn begin<S: JsonSink + ?Sized>(w: &mut Writer<'_, S>) -> R {
    w.begin_object()?;
    w.key("jsonrpc")?;
    w.str("2.0")
}

impl Encode for Request<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        w.key("id")?;
        self.id.encode(w)?;
        w.key("method")?;
        w.str(self.method.as_str())?;
        if let Some(p) = self.params {
            w.key("params")?;
            w.raw(p)?;
        }
        w.end_object()
    }
}

impl Encode for Notification<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        w.key("method")?;
        w.str(self.method.as_str())?;
        if let Some(p) = self.params {
            w.key("params")?;
            w.raw(p)?;
        }
        w.end_object()
    }
}

impl Encode for Response<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        w.key("id")?;
        self.id.encode(w)?;
        w.key("result")?;
        w.raw(self.result)?;
        w.end_object()
    }
}

impl Encode for ErrorResponse<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        if let Some(id) = &self.id {
            w.key("id")?;
            id.encode(w)?;
        }
        w.key("error")?;
        self.error.encode(w)?;
        w.end_object()
    }
}

impl Encode for Message<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        match self {
            Self::Request(m) => m.encode(w),
            Self::Notification(m) => m.encode(w),
            Self::Response(m) => m.encode(w),
            Self::Error(m) => m.encode(w),
        }
    }
}
