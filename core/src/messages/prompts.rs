//! Prompts (docs/rules.md §8, §9): `Prompt`, `prompts/get` params and result.

use super::common::{Enc, ResultType, Role, boolean, obj, object, required, string};
use super::content::ContentBlock;
use super::input_required::{InputResponses, complete_only};
use super::map::Map;
use super::meta::{Icon, RequestMeta, ResultMeta};
use super::seq::{Seq, SeqIn, one_sequence_result};
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams};

/// `PromptArgument`
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PromptArgument<'a> {
    /// `name`
    pub name: JsonStr<'a>,
    /// `title`
    pub title: Option<JsonStr<'a>>,
    /// `description`
    pub description: Option<JsonStr<'a>>,
    /// `required`
    pub required: Option<bool>,
}

impl<'a> FromJson<'a> for PromptArgument<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(
            c,
            keys!["name", "title", "description", "required"],
            "arguments",
        )?;
        let mut a = Self {
            name: JsonStr::new(""),
            title: None,
            description: None,
            required: None,
        };
        let mut name = None;
        while let Some(i) = f.next(c)? {
            match i {
                0 => name = Some(string(c, "name")?),
                1 => a.title = Some(string(c, "title")?),
                2 => a.description = Some(string(c, "description")?),
                _ => a.required = Some(boolean(c, "required")?),
            }
        }
        a.name = required(name, "name")?;
        Ok(a)
    }
}

impl Encode for PromptArgument<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("name"), &self.name)?;
        w.opt_member(key!("title"), &self.title)?;
        w.opt_member(key!("description"), &self.description)?;
        w.opt_member(key!("required"), &self.required)?;
        w.end_object()
    }
}

/// A prompt template (`Prompt`, docs/rules.md §8).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prompt<'a> {
    /// `name`: unique id.
    pub name: JsonStr<'a>,
    /// `title`
    pub title: Option<JsonStr<'a>>,
    /// `description`
    pub description: Option<JsonStr<'a>>,
    /// `arguments`
    pub arguments: Option<Seq<'a, PromptArgument<'a>>>,
    /// `icons`
    pub icons: Option<Seq<'a, Icon<'a>>>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

impl<'a> Prompt<'a> {
    /// `{name}`.
    #[must_use]
    pub const fn new(name: &'a str) -> Self {
        Self {
            name: JsonStr::new(name),
            title: None,
            description: None,
            arguments: None,
            icons: None,
            meta: None,
        }
    }
}

impl<'a> FromJson<'a> for Prompt<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys![
            "name",
            "title",
            "description",
            "arguments",
            "icons",
            "_meta",
        ];
        let mut f = obj(c, NAMES, "prompts")?;
        let mut p = Self::new("");
        let mut name = None;
        while let Some(i) = f.next(c)? {
            match i {
                0 => name = Some(string(c, "name")?),
                1 => p.title = Some(string(c, "title")?),
                2 => p.description = Some(string(c, "description")?),
                3 => p.arguments = Some(Seq::decode(c, "arguments")?),
                4 => p.icons = Some(Seq::decode(c, "icons")?),
                _ => p.meta = Some(object(c, "_meta")?),
            }
        }
        p.name = required(name, "name")?;
        Ok(p)
    }
}

impl Encode for Prompt<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("name"), &self.name)?;
        w.opt_member(key!("title"), &self.title)?;
        w.opt_member(key!("description"), &self.description)?;
        w.opt_member(key!("arguments"), &self.arguments)?;
        w.opt_member(key!("icons"), &self.icons)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

/// `PromptMessage`: one role and exactly one content block (docs/rules.md §9).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PromptMessage<'a> {
    /// `role`
    pub role: Role,
    /// `content`
    pub content: ContentBlock<'a>,
}

impl<'a> FromJson<'a> for PromptMessage<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["role", "content"], "messages")?;
        let (mut role, mut content) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                role = Some(Role::decode(c)?);
            } else {
                content = Some(ContentBlock::decode(c)?);
            }
        }
        Ok(Self {
            role: required(role, "role")?,
            content: required(content, "content")?,
        })
    }
}

impl Encode for PromptMessage<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("role"), &self.role)?;
        w.member(key!("content"), &self.content)?;
        w.end_object()
    }
}

/// A string argument value: prompt arguments are strings only (docs/rules.md §9, §16.6 rule 38).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgValue<'a>(pub JsonStr<'a>);

impl<'a> FromJson<'a> for ArgValue<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        string(c, "arguments").map(Self)
    }
}

impl Encode for ArgValue<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.json_str(self.0)
    }
}

/// Argument name → string value (`arguments`, `context.arguments`).
pub type Arguments<'a> = Map<'a, ArgValue<'a>>;

/// `prompts/get` params (`GetPromptRequestParams`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GetPromptParams<'a> {
    /// `_meta` (required).
    pub meta: RequestMeta<'a>,
    /// `name`
    pub name: JsonStr<'a>,
    /// `arguments`: string values only.
    pub arguments: Option<Arguments<'a>>,
    /// `inputResponses` (MRTR retry only).
    pub input_responses: Option<InputResponses<'a>>,
    /// `requestState` (MRTR retry only; echoed exactly).
    pub request_state: Option<JsonStr<'a>>,
}

impl<'a> FromJson<'a> for GetPromptParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys![
            "_meta",
            "name",
            "arguments",
            "inputResponses",
            "requestState",
        ];
        let mut f = obj(c, NAMES, "params")?;
        let (mut meta, mut name, mut arguments) = (None, None, None);
        let (mut input_responses, mut request_state) = (None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => meta = Some(RequestMeta::decode(c)?),
                1 => name = Some(string(c, "name")?),
                2 => arguments = Some(Map::decode(c, "arguments")?),
                3 => input_responses = Some(Map::decode(c, "inputResponses")?),
                _ => request_state = Some(string(c, "requestState")?),
            }
        }
        Ok(Self {
            meta: required(meta, "_meta")?,
            name: required(name, "name")?,
            arguments,
            input_responses,
            request_state,
        })
    }
}

impl Encode for GetPromptParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("_meta"), &self.meta)?;
        w.member(key!("name"), &self.name)?;
        w.opt_member(key!("arguments"), &self.arguments)?;
        w.opt_member(key!("inputResponses"), &self.input_responses)?;
        w.opt_member(key!("requestState"), &self.request_state)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for GetPromptParams<'a> {
    const METHOD: Method<'static> = Method::PromptsGet;
}

/// `GetPromptResult` (complete). Not cacheable: no `ttlMs`/`cacheScope` (docs/rules.md §9).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GetPromptResult<'a> {
    /// `resultType` (absent from legacy servers).
    pub result_type: Option<ResultType>,
    /// `description`
    pub description: Option<JsonStr<'a>>,
    /// `messages`
    pub messages: Seq<'a, PromptMessage<'a>>,
    /// `_meta`
    pub meta: Option<ResultMeta<'a>>,
}

one_sequence_result!(GetPromptResult, PromptMessage);

impl<'a> GetPromptResult<'a> {
    /// The result at `c`, its `messages` decoded by `messages_in`.
    #[cfg_attr(
        all(
            any(target_pointer_width = "64", target_family = "wasm"),
            not(mcp_compact)
        ),
        inline(always)
    )]
    fn decode_with(
        c: &mut Cursor<'a>,
        mut messages_in: impl SeqIn<'a, PromptMessage<'a>>,
    ) -> Result<Self, DecodeError> {
        let mut f = obj(
            c,
            keys!["resultType", "description", "messages", "_meta"],
            "result",
        )?;
        let (mut result_type, mut description, mut messages, mut meta) = (None, None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => result_type = Some(complete_only(c)?),
                1 => description = Some(string(c, "description")?),
                2 => messages = Some(messages_in.seq(c, "messages")?),
                _ => meta = Some(ResultMeta::decode(c)?),
            }
        }
        Ok(Self {
            result_type,
            description,
            messages: required(messages, "messages")?,
            meta,
        })
    }
}

impl GetPromptResult<'_> {
    /// The result with `messages` written by `messages` (an owned builder's items; the
    /// view's own `messages` is ignored), so owned and borrowed results share one encoder.
    pub(crate) fn encode_with<S: JsonSink + ?Sized, M: Encode + ?Sized>(
        &self,
        w: &mut Writer<'_, S>,
        messages: &M,
    ) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("resultType"), &self.result_type)?;
        w.opt_member(key!("description"), &self.description)?;
        w.member(key!("messages"), messages)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

impl Encode for GetPromptResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        self.encode_with(w, &self.messages)
    }
}
