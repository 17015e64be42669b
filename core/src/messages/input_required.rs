//! `resultType: "input_required"` and the multi-round-trip retry (DIGEST §13).

use super::common::{Enc, ResultType, fields, next, object, string};
use super::meta::ResultMeta;
use super::seq::Map;
use crate::json::{Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{FromJson, Method, ParamsError, ParamsErrorKind};

/// One entry of `inputRequests`: a request without `jsonrpc`/`id` that the client fulfils
/// before retrying. Only `elicitation/create`, `sampling/createMessage` and `roots/list` are
/// allowed (DIGEST §13); their params pass through unparsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputRequest<'a> {
    /// The method.
    pub method: Method<'a>,
    /// `params` (required for elicitation and sampling).
    pub params: Option<RawJson<'a>>,
}

impl<'a> FromJson<'a> for InputRequest<'a> {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        let mut f = fields(v, &["method", "params"], "inputRequests")?;
        let (mut method, mut params) = (None, None);
        while let Some((i, v)) = next(&mut f)? {
            if i == 0 {
                method = Some(Method::from_json(string(v, "method")?));
            } else {
                params = Some(object(v, "params")?);
            }
        }
        let method = method.ok_or(ParamsError::missing("method"))?;
        match method {
            Method::ElicitationCreate | Method::SamplingCreateMessage if params.is_none() => {
                Err(ParamsError::missing("params"))
            }
            Method::ElicitationCreate | Method::SamplingCreateMessage | Method::RootsList => {
                Ok(Self { method, params })
            }
            _ => Err(ParamsError::new(ParamsErrorKind::UnknownValue, "method")),
        }
    }
}

impl Encode for InputRequest<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.field("method", self.method.as_str())?;
        w.opt_field("params", &self.params)?;
        w.end_object()
    }
}

/// One entry of `inputResponses`: the client's plain result (`ElicitResult`,
/// `CreateMessageResult`, `ListRootsResult`), passed through unparsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputResponse<'a>(pub RawJson<'a>);

impl<'a> FromJson<'a> for InputResponse<'a> {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        object(v, "inputResponses").map(Self)
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
/// At least one of `inputRequests` / `requestState` is present (DIGEST §13).
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
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        const NAMES: &[&str] = &["resultType", "inputRequests", "requestState", "_meta"];
        let mut f = fields(v, NAMES, "result")?;
        let mut r = Self {
            input_requests: None,
            request_state: None,
            meta: None,
        };
        let mut result_type = None;
        while let Some((i, v)) = next(&mut f)? {
            match i {
                0 => result_type = Some(ResultType::from_json(v)?),
                1 => r.input_requests = Some(Map::decode(v, "inputRequests")?),
                2 => r.request_state = Some(string(v, "requestState")?),
                _ => r.meta = Some(ResultMeta::from_json(v)?),
            }
        }
        match result_type {
            Some(ResultType::InputRequired) => {}
            Some(ResultType::Complete) => {
                return Err(ParamsError::new(
                    ParamsErrorKind::UnknownValue,
                    "resultType",
                ));
            }
            None => return Err(ParamsError::missing("resultType")),
        }
        if r.input_requests.is_none() && r.request_state.is_none() {
            return Err(ParamsError::new(
                ParamsErrorKind::EmptyInputRequired,
                "result",
            ));
        }
        Ok(r)
    }
}

impl Encode for InputRequiredResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        if self.input_requests.is_none() && self.request_state.is_none() {
            return Err(crate::json::EncodeError::InvalidValue {
                what: "inputRequests",
            });
        }
        w.begin_object()?;
        w.field("resultType", &ResultType::InputRequired)?;
        w.opt_field("inputRequests", &self.input_requests)?;
        w.opt_field("requestState", &self.request_state)?;
        w.opt_field("_meta", &self.meta)?;
        w.end_object()
    }
}

/// The result of a method that may ask for input first (`resources/read`, `prompts/get`):
/// dispatched on `resultType` (absent = complete; unrecognised = invalid, DIGEST §1.2).
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(clippy::large_enum_variant)] // generic: `T` is as large in practice; views are `Copy`
pub enum Outcome<'a, T> {
    /// `resultType: "complete"` (or absent, from a legacy server).
    Complete(T),
    /// `resultType: "input_required"`.
    InputRequired(InputRequiredResult<'a>),
}

impl<'a, T: FromJson<'a>> FromJson<'a> for Outcome<'a, T> {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        let kind = match v.get("resultType") {
            Some(t) => ResultType::from_json(t).map_err(|e| match e.kind {
                ParamsErrorKind::UnknownValue => {
                    ParamsError::new(ParamsErrorKind::UnknownResultType, "resultType")
                }
                _ => e,
            })?,
            None => ResultType::Complete,
        };
        match kind {
            ResultType::Complete => T::from_json(v).map(Self::Complete),
            ResultType::InputRequired => InputRequiredResult::from_json(v).map(Self::InputRequired),
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
/// on this method (DIGEST §13) and any other value is unrecognised (DIGEST §1.2).
pub(crate) fn complete_only(v: RawJson<'_>) -> Result<ResultType, ParamsError> {
    match ResultType::from_json(v) {
        Ok(ResultType::Complete) => Ok(ResultType::Complete),
        Ok(ResultType::InputRequired) => Err(ParamsError::new(
            ParamsErrorKind::InputRequiredNotAllowed,
            "resultType",
        )),
        Err(e) if e.kind == ParamsErrorKind::UnknownValue => Err(ParamsError::new(
            ParamsErrorKind::UnknownResultType,
            "resultType",
        )),
        Err(e) => Err(e),
    }
}
