//! The JSON-RPC 2.0 envelope with MCP's restrictions (docs/rules.md §1.1, §1.3): classify a message
//! as request, notification, result or error, strictly.

use super::error::{DecodeError, EnvelopeError};
use super::error_object::ErrorObject;
use super::id::RequestId;
use super::method::Method;
use crate::json::fields::Fields;
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{
    Cursor, Encode, EncodeError, JsonKind, JsonSink, Limits, RawJson, Writer, validate,
};

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

/// A notification: a `method` and no `id`; never answered (docs/rules.md §1.3).
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
    /// The id of the request answered; absent when it could not be read (docs/rules.md §1.4).
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

const MEMBERS: &Keys = keys!["jsonrpc", "id", "method", "params", "result", "error"];
/// `"2.0"` as written almost always.
const VERSION: &str = "\"2.0\"";

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
        decode_top(bytes, limits, |c| {
            let members = walk(c, |_, _, _| Ok(false))?;
            Ok(classify(members)?)
        })
    }

    /// [`Message::decode_with`], with a request's `params` decoded in the same pass when
    /// `method` precedes them (as clients write it) and `decode(method)` is `Some`: the second
    /// value is then that decoder's outcome (a `-32602` kept, not raised, so the caller ranks
    /// it), `None` otherwise. The message is the same as `decode_with`'s.
    ///
    /// # Errors
    /// As [`Message::decode_with`].
    #[cfg(feature = "alloc")] // the server machine's
    pub(crate) fn decode_with_params<T>(
        bytes: &'a [u8],
        limits: Limits,
        mut decode: impl FnMut(Method<'a>, &mut Cursor<'a>) -> Option<Result<T, DecodeError>>,
    ) -> Result<(Self, Option<Result<T, super::error::ParamsError>>), DecodeError> {
        let mut slot = None;
        let message = decode_top(bytes, limits, |c| {
            let members = walk(c, |i, method, c| match method {
                Some(m) if i == PARAMS => {
                    let (pos, depth) = (c.position(), c.depth());
                    match decode(m, c) {
                        None => Ok(false),
                        Some(Ok(t)) => {
                            slot = Some(Ok(t));
                            Ok(true)
                        }
                        // Skipped (validated) so envelope errors, which rank first, are found.
                        Some(Err(DecodeError::Params(e))) => {
                            c.rewind(pos, depth);
                            c.value()?;
                            slot = Some(Err(e));
                            Ok(true)
                        }
                        Some(Err(e)) => Err(e),
                    }
                }
                _ => Ok(false),
            })?;
            Ok(classify(members)?)
        })?;
        Ok((message, slot))
    }

    /// Classifies an already validated value.
    ///
    /// # Errors
    /// [`EnvelopeError`] when the value is not a valid MCP JSON-RPC message.
    pub fn from_json(v: RawJson<'a>) -> Result<Self, EnvelopeError> {
        let mut fields = match Fields::new(v, MEMBERS.names) {
            Some(f) => f,
            None if v.kind() == JsonKind::Array => return Err(EnvelopeError::Batch),
            None => return Err(EnvelopeError::NotAnObject),
        };
        let mut m: Members<'a> = [None; 6];
        while let Some((i, value)) = fields
            .next_known()
            .map_err(EnvelopeError::DuplicateMember)?
        {
            if let Some(slot) = m.get_mut(i) {
                *slot = Some(value);
            }
        }
        classify(Walked::new(m))
    }
}

/// The six envelope members: jsonrpc, id, method, params, result, error.
pub(crate) type Members<'a> = [Option<RawJson<'a>>; 6];

/// Index of `jsonrpc` in [`Members`].
const JSONRPC: usize = 0;
/// Index of `params` in [`Members`].
pub(crate) const PARAMS: usize = 3;
/// Index of `result` in [`Members`].
pub(crate) const RESULT: usize = 4;

/// Runs a one-pass decode over untrusted bytes. A `-32600`/`-32602` failure is re-checked
/// against full validation, so malformed JSON anywhere is reported as `-32700` first.
pub(crate) fn decode_top<'a, T>(
    bytes: &'a [u8],
    limits: Limits,
    f: impl FnOnce(&mut Cursor<'a>) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    decode_top_in(bytes, limits, &mut [], f)
}

/// [`decode_top`] with `text` for the unescaped strings ([`Cursor::with_text`]).
#[inline(always)]
pub(crate) fn decode_top_in<'a, T>(
    bytes: &'a [u8],
    limits: Limits,
    text: &'a mut [u8],
    f: impl FnOnce(&mut Cursor<'a>) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    let mut c = Cursor::new(bytes, limits)?.with_text(text);
    let result = f(&mut c).and_then(|t| {
        c.finish()?;
        Ok(t)
    });
    match result {
        Err(DecodeError::Envelope(_) | DecodeError::Params(_)) => {
            validate(bytes, limits)?;
            result
        }
        other => other,
    }
}

/// Walks the envelope object once. For `params` and `result`, `body(index, method, cursor)`
/// may decode the value in place and return `true` (the member is then recorded as the text
/// it read, valid JSON as the body's decoder validates what it reads); otherwise the value is
/// validated and kept raw.
pub(crate) fn walk<'a>(
    c: &mut Cursor<'a>,
    mut body: impl FnMut(usize, Option<Method<'a>>, &mut Cursor<'a>) -> Result<bool, DecodeError>,
) -> Result<Walked<'a>, DecodeError> {
    match c.peek() {
        Some(b'{') => c.begin_object()?,
        Some(b'[') => return Err(EnvelopeError::Batch.into()),
        _ => return Err(EnvelopeError::NotAnObject.into()),
    }
    let mut m: Members<'a> = [None; 6];
    let (mut first, mut seen, mut method) = (true, 0u8, None);
    while let Some(key) = c.next_key_in(&mut first, MEMBERS)? {
        let Some(i) = key else {
            c.value()?;
            continue;
        };
        if seen & (1 << i) != 0 {
            return Err(EnvelopeError::DuplicateMember(
                MEMBERS.names.get(i).copied().unwrap_or(""),
            )
            .into());
        }
        seen |= 1 << i;
        let body_at = if i == PARAMS || i == RESULT {
            let _ = c.peek();
            Some(c.position())
        } else {
            None
        };
        let value = if let Some(start) = body_at
            && body(i, method, c)?
        {
            c.slice(start, c.position())
                .unwrap_or(RawJson::EMPTY_OBJECT)
        } else if crate::WIDE && i == JSONRPC && c.token(VERSION) {
            // As written almost always: read without the scan (wide targets).
            RawJson::from_validated(VERSION)
        } else {
            c.value()?
        };
        if i == 2 {
            method = value.as_str().map(Method::from_json);
        }
        if let Some(slot) = m.get_mut(i) {
            *slot = Some(value);
        }
    }
    Ok(Walked {
        members: m,
        // Compact targets read it again in `classify` (less code than handing it over).
        method: if crate::WIDE { method } else { None },
    })
}

/// The envelope's members, and `method` read when it is a string (wide targets; `None`
/// tells [`classify`] to read it).
pub(crate) struct Walked<'a> {
    members: Members<'a>,
    method: Option<Method<'a>>,
}

impl<'a> Walked<'a> {
    /// Reads `method` from the members.
    fn new(members: Members<'a>) -> Self {
        let method = members
            .get(2)
            .copied()
            .flatten()
            .and_then(|v| v.as_str())
            .map(Method::from_json);
        Self { members, method }
    }
}

/// Classifies the envelope members (docs/rules.md §1.1, §1.3).
pub(crate) fn classify(w: Walked<'_>) -> Result<Message<'_>, EnvelopeError> {
    let [jsonrpc, id, method, params, result, error] = w.members;
    // `"2.0"` as written almost always; any spelling of it is accepted.
    let version = |j: RawJson<'_>| j.as_text() == VERSION || j.as_str().is_some_and(|s| s == "2.0");
    match jsonrpc.map(version) {
        None => return Err(EnvelopeError::MissingVersion),
        Some(false) => return Err(EnvelopeError::WrongVersion),
        Some(true) => {}
    }
    if let Some(raw) = method {
        if result.is_some() || error.is_some() {
            return Err(EnvelopeError::Ambiguous);
        }
        let method = match w.method {
            Some(method) => method,
            None => Method::from_json(raw.as_str().ok_or(EnvelopeError::InvalidMethod)?),
        };
        if let Some(p) = params
            && !matches!(p.kind(), JsonKind::Object | JsonKind::Array)
        {
            return Err(EnvelopeError::InvalidParams);
        }
        return Ok(match id {
            Some(id) => Message::Request(Request {
                id: RequestId::from_json(id)?,
                method,
                params,
            }),
            None => Message::Notification(Notification { method, params }),
        });
    }
    match (result, error) {
        (Some(_), Some(_)) => Err(EnvelopeError::Ambiguous),
        (Some(result), None) => Ok(Message::Response(Response {
            id: RequestId::from_json(id.ok_or(EnvelopeError::MissingId)?)?,
            result,
        })),
        (None, Some(error)) => Ok(Message::Error(ErrorResponse {
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

/// Best-effort read of the `id` of a message that failed to decode, so the error response
/// can echo it (docs/rules.md §1.4). `None` when the bytes are not a JSON object with a valid id.
#[must_use]
pub fn recover_id(bytes: &[u8]) -> Option<RequestId<'_>> {
    let v = validate(bytes, Limits::DEFAULT).ok()?;
    RequestId::from_json(v.get("id")?).ok()
}

type R = Result<(), EncodeError>;

/// Writes `"jsonrpc":"2.0"` after the opening brace.
pub(crate) fn begin<S: JsonSink + ?Sized>(w: &mut Writer<'_, S>) -> R {
    w.begin_object_with("{\"jsonrpc\":\"2.0\"")
}

impl Encode for Request<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        w.key_of(key!("id"))?;
        self.id.encode(w)?;
        w.key_of(key!("method"))?;
        w.json_str(self.method.json_name())?;
        if let Some(p) = self.params {
            w.key_of(key!("params"))?;
            w.raw(p)?;
        }
        w.end_object()
    }
}

impl Encode for Notification<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        w.key_of(key!("method"))?;
        w.json_str(self.method.json_name())?;
        if let Some(p) = self.params {
            w.key_of(key!("params"))?;
            w.raw(p)?;
        }
        w.end_object()
    }
}

impl Encode for Response<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        w.key_of(key!("id"))?;
        self.id.encode(w)?;
        w.key_of(key!("result"))?;
        w.raw(self.result)?;
        w.end_object()
    }
}

impl Encode for ErrorResponse<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        begin(w)?;
        if let Some(id) = &self.id {
            w.key_of(key!("id"))?;
            id.encode(w)?;
        }
        w.key_of(key!("error"))?;
        self.error.encode(w)?;
        w.end_object()
    }
}

impl Encode for Message<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> R {
        match self {
            Message::Request(m) => m.encode(w),
            Message::Notification(m) => m.encode(w),
            Message::Response(m) => m.encode(w),
            Message::Error(m) => m.encode(w),
        }
    }
}
