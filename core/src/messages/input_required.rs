//! `resultType: "input_required"` and the multi-round-trip retry (docs/rules.md §13).

use super::common::{Enc, ResultType, obj, object, required, string};
use super::map::Map;
use super::meta::ResultMeta;
use super::meta::start;
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, DecodeInto, FromJson, Method, ParamsError, ParamsErrorKind};

/// One entry of `inputRequests`: a request without `jsonrpc`/`id` that the client fulfils
/// before retrying. Only `elicitation/create`, `sampling/createMessage` and `roots/list` are
/// allowed (docs/rules.md §13); their params pass through unparsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputRequest<'a> {
    /// The method.
    pub method: Method<'a>,
    /// `params` (required for elicitation and sampling).
    pub params: Option<RawJson<'a>>,
}

impl<'a> FromJson<'a> for InputRequest<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["method", "params"], "inputRequests")?;
        let (mut method, mut params) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                method = Some(Method::from_json(string(c, "method")?));
            } else {
                params = Some(object(c, "params")?);
            }
        }
        let method = required(method, "method")?;
        match method {
            Method::ElicitationCreate | Method::SamplingCreateMessage if params.is_none() => {
                Err(ParamsError::missing("params").into())
            }
            Method::ElicitationCreate | Method::SamplingCreateMessage | Method::RootsList => {
                Ok(Self { method, params })
            }
            _ => Err(ParamsError::new(ParamsErrorKind::UnknownValue, "method").into()),
        }
    }
}

impl Encode for InputRequest<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("method"), self.method.as_str())?;
        w.opt_member(key!("params"), &self.params)?;
        w.end_object()
    }
}

/// One entry of `inputResponses`: the client's plain result (`ElicitResult`,
/// `CreateMessageResult`, `ListRootsResult`), passed through unparsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputResponse<'a>(pub RawJson<'a>);

impl<'a> FromJson<'a> for InputResponse<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        object(c, "inputResponses").map(Self)
    }
}

impl Encode for InputResponse<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.raw(self.0)
    }
}

/// `inputRequests`: server-chosen key → request.
pub type InputRequests<'a> = Map<'a, InputRequest<'a>>;
/// `inputResponses`: the same keys → the client's results.
pub type InputResponses<'a> = Map<'a, InputResponse<'a>>;

/// `InputRequiredResult`: the server needs input (or wants a retry) before it can answer.
/// At least one of `inputRequests` / `requestState` is present (docs/rules.md §13).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputRequiredResult<'a> {
    /// `inputRequests`
    pub input_requests: Option<InputRequests<'a>>,
    /// `requestState`: opaque, echoed byte-exact by the client.
    pub request_state: Option<JsonStr<'a>>,
    /// `_meta`
    pub meta: Option<ResultMeta<'a>>,
}

impl<'a> FromJson<'a> for InputRequiredResult<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys!["resultType", "inputRequests", "requestState", "_meta"];
        let mut f = obj(c, NAMES, "result")?;
        let mut r = Self {
            input_requests: None,
            request_state: None,
            meta: None,
        };
        let mut result_type = None;
        while let Some(i) = f.next(c)? {
            match i {
                0 => result_type = Some(ResultType::decode(c)?),
                1 => r.input_requests = Some(Map::decode(c, "inputRequests")?),
                2 => r.request_state = Some(string(c, "requestState")?),
                _ => r.meta = Some(ResultMeta::decode(c)?),
            }
        }
        match result_type {
            Some(ResultType::InputRequired) => {}
            Some(ResultType::Complete) => {
                return Err(ParamsError::new(ParamsErrorKind::UnknownValue, "resultType").into());
            }
            None => return Err(ParamsError::missing("resultType").into()),
        }
        if r.input_requests.is_none() && r.request_state.is_none() {
            return Err(ParamsError::new(ParamsErrorKind::EmptyInputRequired, "result").into());
        }
        Ok(r)
    }
}

impl Encode for InputRequiredResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        if self.input_requests.is_none() && self.request_state.is_none() {
            return Err(crate::json::EncodeError::InvalidValue {
                what: &"inputRequests",
            });
        }
        w.begin_object()?;
        w.member(key!("resultType"), &ResultType::InputRequired)?;
        w.opt_member(key!("inputRequests"), &self.input_requests)?;
        w.opt_member(key!("requestState"), &self.request_state)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

/// The result of a method that may ask for input first (`resources/read`, `prompts/get`):
/// dispatched on `resultType` (absent = complete; unrecognised = invalid, docs/rules.md §1.2).
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(clippy::large_enum_variant)] // generic: `T` is as large in practice; views are `Copy`
pub enum Outcome<'a, T> {
    /// `resultType: "complete"` (or absent, from a legacy server).
    Complete(T),
    /// `resultType: "input_required"`.
    InputRequired(InputRequiredResult<'a>),
}

fn unrecognised(e: DecodeError) -> DecodeError {
    match e {
        DecodeError::Params(p) if p.kind == ParamsErrorKind::UnknownValue => {
            ParamsError::new(ParamsErrorKind::UnknownResultType, "resultType").into()
        }
        other => other,
    }
}

impl<'a, T: FromJson<'a>> FromJson<'a> for Outcome<'a, T> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Self::decode_with(c, T::decode)
    }
}

impl<'a, T: DecodeInto<'a>> DecodeInto<'a> for Outcome<'a, T> {
    type Item = T::Item;
    /// A complete result's items kept in `slots` (an `input_required` result has none).
    fn decode_into(
        c: &mut Cursor<'a>,
        slots: &'a mut [Option<T::Item>],
    ) -> Result<Self, DecodeError> {
        Self::decode_with(c, |c| T::decode_into(c, slots))
    }
}

impl<'a, T: FromJson<'a>> Outcome<'a, T> {
    /// The outcome at `c`, a complete result decoded by `complete`.
    fn decode_with(
        c: &mut Cursor<'a>,
        complete: impl FnOnce(&mut Cursor<'a>) -> Result<T, DecodeError>,
    ) -> Result<Self, DecodeError> {
        // Peek at the first member: when it is `resultType` (as every encoder here writes
        // it), dispatch and decode the object in one pass; otherwise find it first.
        let (pos, depth) = (start(c), c.depth());
        let kind = if c.peek() == Some(b'{') {
            c.begin_object()?;
            let mut first = true;
            match c.next_key(&mut first)? {
                Some(k) if k == "resultType" => Some(ResultType::decode(c).map_err(unrecognised)?),
                _ => None,
            }
        } else {
            None
        };
        c.rewind(pos, depth);
        let kind = match kind {
            Some(kind) => kind,
            None => {
                let raw = object(c, "result")?;
                c.rewind(pos, depth);
                match raw.get("resultType") {
                    Some(t) => ResultType::from_json(t).map_err(|e| unrecognised(e.into()))?,
                    None => ResultType::Complete,
                }
            }
        };
        match kind {
            ResultType::Complete => complete(c).map(Self::Complete),
            ResultType::InputRequired => InputRequiredResult::decode(c).map(Self::InputRequired),
        }
    }
}

impl<T: Encode> Encode for Outcome<'_, T> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        match self {
            Self::Complete(t) => t.encode(w),
            Self::InputRequired(r) => r.encode(w),
        }
    }
}

/// Reads `resultType` of a result that must be complete: `input_required` is not allowed
/// on this method (docs/rules.md §13) and any other value is unrecognised (docs/rules.md §1.2).
pub(crate) fn complete_only(c: &mut Cursor<'_>) -> Result<ResultType, DecodeError> {
    match ResultType::decode(c).map_err(unrecognised)? {
        ResultType::Complete => Ok(ResultType::Complete),
        ResultType::InputRequired => {
            Err(ParamsError::new(ParamsErrorKind::InputRequiredNotAllowed, "resultType").into())
        }
    }
}
