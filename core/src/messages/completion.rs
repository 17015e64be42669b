//! `completion/complete` (docs/rules.md §10).

use super::common::{Enc, ResultType, boolean, count, obj, required, string};
use super::input_required::complete_only;
use super::map::Map;
use super::meta::{RequestMeta, ResultMeta};
use super::prompts::Arguments;
use super::seq::Seq;
use crate::json::fields::keys;
use crate::json::key;
use crate::json::{Cursor, Encode, EncodeError, JsonSink, JsonStr, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams, ParamsError, ParamsErrorKind};

/// The most values one completion result may carry (docs/rules.md §10, §16.6 rule 39).
pub const MAX_COMPLETION_VALUES: usize = 100;

/// `ref`: what is being completed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference<'a> {
    /// `{"type": "ref/prompt", name, title?}`
    Prompt {
        /// `name`
        name: JsonStr<'a>,
        /// `title`
        title: Option<JsonStr<'a>>,
    },
    /// `{"type": "ref/resource", uri}`: a URI or URI template.
    Resource {
        /// `uri`
        uri: JsonStr<'a>,
    },
}

impl<'a> FromJson<'a> for Reference<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["type", "name", "title", "uri"], "ref")?;
        let mut s: [Option<JsonStr<'a>>; 4] = [None; 4];
        while let Some(i) = f.next(c)? {
            if let Some(slot) = s.get_mut(i) {
                *slot = Some(string(c, "ref")?);
            }
        }
        let [ty, name, title, uri] = s;
        let ty = required(ty, "type")?;
        if ty == "ref/prompt" {
            Ok(Self::Prompt {
                name: required(name, "name")?,
                title,
            })
        } else if ty == "ref/resource" {
            Ok(Self::Resource {
                uri: required(uri, "uri")?,
            })
        } else {
            Err(ParamsError::new(ParamsErrorKind::UnknownValue, "type").into())
        }
    }
}

impl Encode for Reference<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        match self {
            Self::Prompt { name, title } => {
                w.member(key!("type"), "ref/prompt")?;
                w.member(key!("name"), name)?;
                w.opt_member(key!("title"), title)?;
            }
            Self::Resource { uri } => {
                w.member(key!("type"), "ref/resource")?;
                w.member(key!("uri"), uri)?;
            }
        }
        w.end_object()
    }
}

/// `completion/complete` params (`CompleteRequestParams`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompleteParams<'a> {
    /// `_meta` (required).
    pub meta: RequestMeta<'a>,
    /// `ref`
    pub reference: Reference<'a>,
    /// `argument.name`
    pub argument_name: JsonStr<'a>,
    /// `argument.value`: the partial value to complete.
    pub argument_value: JsonStr<'a>,
    /// `context`: `Some(None)` for `"context": {}`, `Some(Some(args))` with
    /// already-resolved `arguments`.
    pub context: Option<Option<Arguments<'a>>>,
}

impl<'a> FromJson<'a> for CompleteParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta", "ref", "argument", "context"], "params")?;
        let (mut meta, mut reference, mut argument, mut context) = (None, None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => meta = Some(RequestMeta::decode(c)?),
                1 => reference = Some(Reference::decode(c)?),
                2 => {
                    let mut g = obj(c, keys!["name", "value"], "argument")?;
                    let (mut name, mut value) = (None, None);
                    while let Some(j) = g.next(c)? {
                        let s = Some(string(c, "argument")?);
                        if j == 0 { name = s } else { value = s }
                    }
                    argument = Some((required(name, "name")?, required(value, "value")?));
                }
                _ => {
                    let mut g = obj(c, keys!["arguments"], "context")?;
                    let mut args = None;
                    while g.next(c)?.is_some() {
                        args = Some(Map::decode(c, "arguments")?);
                    }
                    context = Some(args);
                }
            }
        }
        let (argument_name, argument_value) = required(argument, "argument")?;
        Ok(Self {
            meta: required(meta, "_meta")?,
            reference: required(reference, "ref")?,
            argument_name,
            argument_value,
            context,
        })
    }
}

impl Encode for CompleteParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("_meta"), &self.meta)?;
        w.member(key!("ref"), &self.reference)?;
        w.key_of(key!("argument"))?;
        w.begin_object()?;
        w.member(key!("name"), &self.argument_name)?;
        w.member(key!("value"), &self.argument_value)?;
        w.end_object()?;
        if let Some(args) = &self.context {
            w.key_of(key!("context"))?;
            w.begin_object()?;
            w.opt_member(key!("arguments"), args)?;
            w.end_object()?;
        }
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for CompleteParams<'a> {
    const METHOD: Method<'static> = Method::CompletionComplete;
}

/// `CompleteResult`: at most 100 `values`; `total` may exceed them; `hasMore` says more
/// exist. Not cacheable, not paginated, never `input_required` (docs/rules.md §10).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompleteResult<'a> {
    /// `resultType` (absent from legacy servers).
    pub result_type: Option<ResultType>,
    /// `completion.values`
    pub values: Seq<'a, JsonStr<'a>>,
    /// `completion.total`
    pub total: Option<u64>,
    /// `completion.hasMore`
    pub has_more: Option<bool>,
    /// `_meta`
    pub meta: Option<ResultMeta<'a>>,
}

impl<'a> FromJson<'a> for CompleteResult<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["resultType", "completion", "_meta"], "result")?;
        let (mut result_type, mut completion, mut meta) = (None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => result_type = Some(complete_only(c)?),
                1 => {
                    let mut g = obj(c, keys!["values", "total", "hasMore"], "completion")?;
                    let (mut values, mut total, mut has_more) = (None, None, None);
                    while let Some(j) = g.next(c)? {
                        match j {
                            0 => values = Some(Seq::decode(c, "values")?),
                            1 => total = Some(count(c, "total")?),
                            _ => has_more = Some(boolean(c, "hasMore")?),
                        }
                    }
                    completion = Some((required(values, "values")?, total, has_more));
                }
                _ => meta = Some(ResultMeta::decode(c)?),
            }
        }
        let (values, total, has_more): (Seq<'a, JsonStr<'a>>, _, _) =
            required(completion, "completion")?;
        if values.len() > MAX_COMPLETION_VALUES {
            return Err(ParamsError::new(ParamsErrorKind::TooManyItems, "values").into());
        }
        Ok(Self {
            result_type,
            values,
            total,
            has_more,
            meta,
        })
    }
}

impl Encode for CompleteResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        if self.values.len() > MAX_COMPLETION_VALUES {
            return Err(EncodeError::InvalidValue { what: &"values" });
        }
        w.begin_object()?;
        w.opt_member(key!("resultType"), &self.result_type)?;
        w.key_of(key!("completion"))?;
        w.begin_object()?;
        w.member(key!("values"), &self.values)?;
        w.opt_member(key!("total"), &self.total)?;
        w.opt_member(key!("hasMore"), &self.has_more)?;
        w.end_object()?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}
