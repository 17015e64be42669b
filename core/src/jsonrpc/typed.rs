//! Typed messages: a request, notification or response whose `params`/`result` is a typed
//! view, decoded in one pass and encoded back canonically.

use super::envelope::{
    Message, PARAMS, RESULT, Walked, begin, classify, decode_top, decode_top_in, walk,
};
use super::error::{DecodeError, EnvelopeError, ParamsError};
use super::id::RequestId;
use super::method::Method;
use crate::json::key;
use crate::json::{Cursor, Encode, EncodeError, JsonSink, Limits, RawJson, Writer};

/// A view decoded from JSON.
pub trait FromJson<'a>: Sized {
    /// Decodes the next value of `c`, validating it as it goes (one pass).
    ///
    /// # Errors
    /// [`DecodeError::Json`] for malformed JSON, [`DecodeError::Params`] naming the first
    /// field that breaks the schema or a spec rule.
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError>;

    /// Decodes an already validated value.
    ///
    /// # Errors
    /// [`ParamsError`] naming the first field that breaks the schema or a spec rule.
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        Self::decode(&mut Cursor::over(v)).map_err(|e| match e {
            DecodeError::Params(p) => p,
            // `v` is validated: no JSON error can occur.
            _ => ParamsError::wrong_type(ParamsError::ITEM),
        })
    }
}

/// A result whose main sequence (a list's items, a read's `contents`, a prompt's
/// `messages`) can be kept in caller slots while it is decoded: the one pass that validates
/// the items also yields them, where the lazy [`Seq`](crate::messages::Seq) that
/// [`FromJson::decode`] leaves decodes each item again when iterated. No allocation: the
/// slots are the caller's, e.g. `[None; 64]` on the stack.
pub trait DecodeInto<'a>: FromJson<'a> {
    /// The items of the sequence.
    type Item: Copy;

    /// As [`FromJson::decode`] (the same checks, errors and view), the sequence's items also
    /// kept in `slots` ([`Seq::decode_into`](crate::messages::Seq::decode_into): when they
    /// do not fit, the sequence is the lazy one).
    ///
    /// # Errors
    /// As [`FromJson::decode`].
    fn decode_into(
        c: &mut Cursor<'a>,
        slots: &'a mut [Option<Self::Item>],
    ) -> Result<Self, DecodeError>;
}

impl<'a> FromJson<'a> for RawJson<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Ok(c.value()?)
    }
}

/// The `params` of one method.
pub trait MethodParams<'a>: FromJson<'a> + Encode {
    /// The method these params belong to.
    const METHOD: Method<'static>;

    /// Decodes `params`, which may be absent.
    ///
    /// # Errors
    /// [`ParamsError`]; by default a missing `params` is an error (every modern request
    /// requires `params._meta`, docs/rules.md §1.1).
    fn from_params(params: Option<RawJson<'a>>) -> Result<Self, ParamsError> {
        Self::from_json(params.ok_or(ParamsError::missing("params"))?)
    }

    /// Whether `params` is left out when encoding (only for notifications whose params are
    /// all absent).
    fn omit(&self) -> bool {
        false
    }

    /// A value to decode into ([`MethodParams::decode_in`]) for params large enough that
    /// moving the decoded view costs (wide targets); `None` (decode by value) by default.
    fn blank() -> Option<Self> {
        None
    }

    /// Decodes the params at `c` into `self`, a [`MethodParams::blank`] value (unspecified
    /// after an error): as [`FromJson::decode`].
    ///
    /// # Errors
    /// As [`FromJson::decode`].
    fn decode_in(&mut self, c: &mut Cursor<'a>) -> Result<(), DecodeError> {
        *self = Self::decode(c)?;
        Ok(())
    }
}

/// Decodes the body in place during the envelope walk; a body that breaks the schema is
/// skipped (validated) so envelope errors, which rank first, can still be found.
fn body_in_place<'a, T>(
    c: &mut Cursor<'a>,
    slot: &mut Option<Result<T, ParamsError>>,
    decode: impl FnOnce(&mut Cursor<'a>) -> Result<T, DecodeError>,
) -> Result<bool, DecodeError> {
    let (pos, depth) = (c.position(), c.depth());
    match decode(c) {
        Ok(t) => *slot = Some(Ok(t)),
        Err(DecodeError::Params(e)) => {
            c.rewind(pos, depth);
            c.value()?;
            *slot = Some(Err(e));
        }
        Err(e) => return Err(e),
    }
    Ok(true)
}

/// Leaves `slot` holding the body (decoded from `raw` when the walk did not decode it in
/// place) or returns its error, so the error surfaces inside `decode_top` (which ranks it).
fn settle<T>(
    slot: &mut Option<Result<T, ParamsError>>,
    raw: impl FnOnce() -> Result<T, ParamsError>,
) -> Result<(), DecodeError> {
    match slot {
        Some(Ok(_)) => Ok(()),
        Some(Err(e)) => Err((*e).into()),
        None => {
            *slot = Some(Ok(raw()?));
            Ok(())
        }
    }
}

/// The envelope's members ([`walk`]), `P`'s params decoded into `params` as they are met
/// when `method` (naming `P::METHOD`) came first ([`body_in_place`]).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn members_with<'a, P: MethodParams<'a>>(
    c: &mut Cursor<'a>,
    params: &mut Option<Result<P, ParamsError>>,
) -> Result<Walked<'a>, DecodeError> {
    walk(c, |i, method, c| {
        if i == PARAMS && method == Some(P::METHOD) {
            body_in_place(c, params, P::decode)
        } else {
            Ok(false)
        }
    })
}

/// The body [`settle`] left; `decode_top` returned `Ok`, so it is always `Some(Ok)` (the
/// other arms only keep this total).
fn taken<T>(slot: Option<Result<T, ParamsError>>) -> Result<T, DecodeError> {
    match slot {
        Some(Ok(t)) => Ok(t),
        Some(Err(e)) => Err(e.into()),
        None => Err(ParamsError::missing("params").into()),
    }
}

/// A request with typed params, e.g. [`ReadResourceRequest`](crate::messages::ReadResourceRequest).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypedRequest<'a, P> {
    /// The request id.
    pub id: RequestId<'a>,
    /// The params.
    pub params: P,
}

impl<'a, P: MethodParams<'a>> TypedRequest<'a, P> {
    /// Decodes a complete message that must be a request for `P::METHOD`, in one pass when
    /// `method` precedes `params`.
    ///
    /// # Errors
    /// `-32700`, `-32600` (including a different kind or method) or `-32602`.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(bytes);
        }
        if let Some(blank) = P::blank() {
            return Self::decode_in_place(bytes, blank);
        }
        let mut params = None;
        let id = decode_top(bytes, Limits::DEFAULT, |c| {
            let members = members_with(c, &mut params)?;
            match classify(members)? {
                Message::Request(r) if r.method == P::METHOD => {
                    settle(&mut params, || P::from_params(r.params))?;
                    Ok(r.id)
                }
                Message::Request(_) => Err(EnvelopeError::UnexpectedMethod.into()),
                _ => Err(EnvelopeError::UnexpectedKind.into()),
            }
        })?;
        taken(params).map(|params| Self { id, params })
    }

    /// [`TypedRequest::decode`] for params decoded into a [`MethodParams::blank`] value held
    /// by the answer: no move of the view between the walk and the caller.
    #[inline(always)]
    fn decode_in_place(bytes: &'a [u8], blank: P) -> Result<Self, DecodeError> {
        // Built where it is returned: a view moved out of a local would be copied once more.
        let mut answer = Ok(Self {
            id: RequestId::Int(0),
            params: blank,
        });
        let Ok(out) = &mut answer else {
            return answer;
        };
        let mut state = None;
        let id = decode_top(bytes, Limits::DEFAULT, |c| {
            let members = walk(c, |i, method, c| {
                if i == PARAMS && method == Some(P::METHOD) {
                    body_in_place(c, &mut state, |c| out.params.decode_in(c))
                } else {
                    Ok(false)
                }
            })?;
            match classify(members)? {
                Message::Request(r) if r.method == P::METHOD => {
                    settle(&mut state, || {
                        out.params = P::from_params(r.params)?;
                        Ok(())
                    })?;
                    Ok(r.id)
                }
                Message::Request(_) => Err(EnvelopeError::UnexpectedMethod.into()),
                _ => Err(EnvelopeError::UnexpectedKind.into()),
            }
        });
        match id.and_then(|id| taken(state).map(|()| id)) {
            Ok(id) => out.id = id,
            Err(e) => answer = Err(e),
        }
        answer
    }

    /// [`TypedRequest::decode`] as compact targets run it (`crate::WIDE`): the body moves
    /// through `decode_top`'s result. Same answers (`jsonrpc::typed::tests`).
    pub(crate) fn decode_compact(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        decode_top(bytes, Limits::DEFAULT, |c| {
            let mut params = None;
            let members = members_with(c, &mut params)?;
            match classify(members)? {
                Message::Request(r) if r.method == P::METHOD => Ok(Self {
                    id: r.id,
                    params: match params {
                        Some(p) => p?,
                        None => P::from_params(r.params)?,
                    },
                }),
                Message::Request(_) => Err(EnvelopeError::UnexpectedMethod.into()),
                _ => Err(EnvelopeError::UnexpectedKind.into()),
            }
        })
    }

    /// Decodes the params of an already classified request (its method is not re-checked).
    ///
    /// # Errors
    /// [`ParamsError`] (`-32602`).
    pub fn from_request(r: super::envelope::Request<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            id: r.id,
            params: P::from_params(r.params)?,
        })
    }
}

impl<'a, P: MethodParams<'a>> Encode for TypedRequest<'a, P> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        begin(w)?;
        w.key_of(key!("id"))?;
        self.id.encode(w)?;
        w.key_of(key!("method"))?;
        w.str(P::METHOD.as_str())?;
        w.key_of(key!("params"))?;
        self.params.encode(w)?;
        w.end_object()
    }
}

/// A notification with typed params.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypedNotification<P> {
    /// The params.
    pub params: P,
}

impl<'a, P: MethodParams<'a>> TypedNotification<P> {
    /// Decodes a complete message that must be a notification for `P::METHOD`.
    ///
    /// # Errors
    /// `-32700`, `-32600` (including a different kind or method) or `-32602`.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(bytes);
        }
        let mut params = None;
        decode_top(bytes, Limits::DEFAULT, |c| {
            let members = members_with(c, &mut params)?;
            match classify(members)? {
                Message::Notification(n) if n.method == P::METHOD => {
                    settle(&mut params, || P::from_params(n.params))
                }
                Message::Notification(_) => Err(EnvelopeError::UnexpectedMethod.into()),
                _ => Err(EnvelopeError::UnexpectedKind.into()),
            }
        })?;
        taken(params).map(|params| Self { params })
    }

    /// [`TypedNotification::decode`] as compact targets run it (`crate::WIDE`).
    pub(crate) fn decode_compact(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        decode_top(bytes, Limits::DEFAULT, |c| {
            let mut params = None;
            let members = members_with(c, &mut params)?;
            match classify(members)? {
                Message::Notification(n) if n.method == P::METHOD => Ok(Self {
                    params: match params {
                        Some(p) => p?,
                        None => P::from_params(n.params)?,
                    },
                }),
                Message::Notification(_) => Err(EnvelopeError::UnexpectedMethod.into()),
                _ => Err(EnvelopeError::UnexpectedKind.into()),
            }
        })
    }
}

impl<'a, P: MethodParams<'a>> Encode for TypedNotification<P> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        begin(w)?;
        w.key_of(key!("method"))?;
        w.str(P::METHOD.as_str())?;
        if !self.params.omit() {
            w.key_of(key!("params"))?;
            self.params.encode(w)?;
        }
        w.end_object()
    }
}

/// A successful response with a typed result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypedResponse<'a, R> {
    /// The id of the request answered.
    pub id: RequestId<'a>,
    /// The result.
    pub result: R,
}

impl<'a, R: FromJson<'a>> TypedResponse<'a, R> {
    /// Decodes a complete message that must be a successful response, in one pass.
    ///
    /// # Errors
    /// `-32700`, `-32600` (including an error response) or `-32602` for a result that
    /// breaks the schema.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, DecodeError> {
        Self::decode_with(bytes, &mut [], R::decode)
    }

    /// [`TypedResponse::decode`] with `text` for unescaped strings and the result decoded by
    /// `body` where it lies.
    #[inline(always)]
    fn decode_with(
        bytes: &'a [u8],
        text: &'a mut [u8],
        body: impl FnOnce(&mut Cursor<'a>) -> Result<R, DecodeError>,
    ) -> Result<Self, DecodeError> {
        decode_top_in(bytes, Limits::DEFAULT, text, |c| {
            let (mut result, mut body) = (None, Some(body));
            let members = walk(c, |i, _, c| {
                // The walk refuses a second `result` before reading it: `body` is there.
                match if i == RESULT { body.take() } else { None } {
                    Some(body) => body_in_place(c, &mut result, body),
                    None => Ok(false),
                }
            })?;
            match classify(members)? {
                Message::Response(r) => Ok(Self {
                    id: r.id,
                    result: match result {
                        Some(res) => res?,
                        None => R::from_json(r.result)?,
                    },
                }),
                _ => Err(EnvelopeError::UnexpectedKind.into()),
            }
        })
    }
}

impl<'a, R: DecodeInto<'a>> TypedResponse<'a, R> {
    /// As [`TypedResponse::decode`] (the same checks, errors and view) in one pass that
    /// also keeps what a caller reads next: the result's items in `slots` as they are
    /// checked ([`DecodeInto`]), so iterating them decodes nothing again, and each string
    /// with escapes unescaped into `text` as it is scanned ([`Cursor::with_text`]), so it
    /// reads as plain text. Both are speed only: items that do not fit stay lazy, strings
    /// that do not fit stay escaped, and `&mut []` turns either off.
    ///
    /// ```
    /// use mcp_context::messages::ListResourcesResultResponse;
    /// let bytes = br#"{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"a://1","name":"\"one\""}]}}"#;
    /// let (mut slots, mut text) = ([None; 16], [0u8; 256]);
    /// let page = ListResourcesResultResponse::decode_into(bytes, &mut slots, &mut text).unwrap();
    /// let names: Vec<_> = page.result.items.iter().map(|r| r.name).collect();
    /// assert_eq!(names, ["\"one\""]);
    /// ```
    ///
    /// # Errors
    /// As [`TypedResponse::decode`].
    pub fn decode_into(
        bytes: &'a [u8],
        slots: &'a mut [Option<R::Item>],
        text: &'a mut [u8],
    ) -> Result<Self, DecodeError> {
        Self::decode_with(bytes, text, |c| R::decode_into(c, slots))
    }
}

impl<'a, R: Encode> Encode for TypedResponse<'a, R> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        begin(w)?;
        w.key_of(key!("id"))?;
        self.id.encode(w)?;
        w.key_of(key!("result"))?;
        self.result.encode(w)?;
        w.end_object()
    }
}
