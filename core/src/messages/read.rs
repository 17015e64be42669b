//! `resources/read` (docs/rules.md §7).

use super::capabilities::ClientCapabilities;
use super::common::{CacheScope, Enc, ResultType, members, obj, required, string, ttl};
use super::content::ResourceContents;
use super::input_required::{InputResponses, complete_only};
use super::map::Map;
use super::meta::{RequestMeta, ResultMeta};
use super::seq::{Seq, SeqIn, one_sequence_result};
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams, ParamsError};

/// `resources/read` params (`ReadResourceRequestParams`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadResourceParams<'a> {
    /// `_meta` (required).
    pub meta: RequestMeta<'a>,
    /// `uri`: any scheme; the server interprets it.
    pub uri: JsonStr<'a>,
    /// `inputResponses` (MRTR retry only).
    pub input_responses: Option<InputResponses<'a>>,
    /// `requestState` (MRTR retry only; echoed exactly).
    pub request_state: Option<JsonStr<'a>>,
}

impl<'a> ReadResourceParams<'a> {
    /// `{_meta, uri}`.
    #[must_use]
    pub const fn new(meta: RequestMeta<'a>, uri: &'a str) -> Self {
        Self {
            meta,
            uri: JsonStr::new(uri),
            input_responses: None,
            request_state: None,
        }
    }

    /// Whether this is an MRTR retry, whose result MUST NOT be cached (docs/rules.md §4).
    #[must_use]
    pub const fn is_retry(&self) -> bool {
        self.input_responses.is_some() || self.request_state.is_some()
    }
}

const PARAMS_KEYS: &Keys = keys!["_meta", "uri", "inputResponses", "requestState"];

impl<'a> FromJson<'a> for ReadResourceParams<'a> {
    #[cfg_attr(
        all(
            any(target_pointer_width = "64", target_family = "wasm"),
            not(mcp_compact)
        ),
        inline(always)
    )]
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(c);
        }
        let mut p = Self::unset();
        p.decode_wide(c)?;
        Ok(p)
    }
}

impl<'a> ReadResourceParams<'a> {
    /// What [`ReadResourceParams::decode_wide`] decodes into (built, not copied from a
    /// constant: its few tags and pointers are fewer stores than its bytes).
    #[inline(always)]
    fn unset() -> Self {
        Self::new(RequestMeta::new("", ClientCapabilities::EMPTY), "")
    }

    /// [`FromJson::decode`] as wide targets run it, into `self` (which must be
    /// [`ReadResourceParams::unset`]; unspecified after an error): `_meta` is large, so it is
    /// built where it stays, not moved through `Result`s.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn decode_wide(&mut self, c: &mut Cursor<'a>) -> Result<(), DecodeError> {
        let mut f = obj(c, PARAMS_KEYS, "params")?;
        let (mut meta, mut uri) = (None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => meta = Some(RequestMeta::decode_in(c, &mut self.meta)?),
                1 => uri = Some(string(c, "uri")?),
                2 => self.input_responses = Some(Map::decode(c, "inputResponses")?),
                _ => self.request_state = Some(string(c, "requestState")?),
            }
        }
        required(meta, "_meta")?;
        self.uri = required(uri, "uri")?;
        Ok(())
    }
}

impl<'a> ReadResourceParams<'a> {
    /// [`FromJson::decode`] as compact targets run it (`crate::WIDE`): the shared walk
    /// ([`members`]). Same answers (`messages::compact_tests`).
    pub(crate) fn decode_compact(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut p = Self::unset();
        let mut s: [Option<JsonStr<'a>>; 4] = [None; 4];
        let mut meta = false;
        members(
            c,
            PARAMS_KEYS,
            "params",
            0b1010,
            &mut s,
            // `_meta` built where it stays (`RequestMeta::decode_compact_in`).
            &mut |i, c| match i {
                0 => RequestMeta::decode_compact_in(c, &mut p.meta).map(|()| meta = true),
                _ => Map::decode(c, "inputResponses").map(|v| p.input_responses = Some(v)),
            },
        )?;
        let [_, uri, _, request_state] = s;
        // One error for both required members, naming the first one missing.
        let (true, Some(uri)) = (meta, uri) else {
            let missing = if meta { "uri" } else { "_meta" };
            return Err(ParamsError::missing(missing).into());
        };
        (p.uri, p.request_state) = (uri, request_state);
        Ok(p)
    }
}

impl Encode for ReadResourceParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("_meta"), &self.meta)?;
        w.member(key!("uri"), &self.uri)?;
        w.opt_member(key!("inputResponses"), &self.input_responses)?;
        w.opt_member(key!("requestState"), &self.request_state)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for ReadResourceParams<'a> {
    const METHOD: Method<'static> = Method::ResourcesRead;

    fn blank() -> Option<Self> {
        Some(Self::unset())
    }

    fn decode_in(&mut self, c: &mut Cursor<'a>) -> Result<(), DecodeError> {
        if !crate::WIDE {
            *self = Self::decode_compact(c)?;
            return Ok(());
        }
        self.decode_wide(c)
    }
}

/// `ReadResourceResult` (complete). An empty `contents` is allowed for an existing empty
/// resource (docs/rules.md §19 item 1); a missing resource is an error, not an empty list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadResourceResult<'a> {
    /// `resultType` (absent from legacy servers).
    pub result_type: Option<ResultType>,
    /// `contents`: text or blob items, each with its own `uri`.
    pub contents: Seq<'a, ResourceContents<'a>>,
    /// `ttlMs` (negative values already read as 0).
    pub ttl_ms: Option<u64>,
    /// `cacheScope`
    pub cache_scope: Option<CacheScope>,
    /// `_meta`
    pub meta: Option<ResultMeta<'a>>,
}

impl<'a> ReadResourceResult<'a> {
    /// A complete result with the caching hints a server MUST send (docs/rules.md §4).
    #[must_use]
    pub const fn new(
        contents: Seq<'a, ResourceContents<'a>>,
        ttl_ms: u64,
        scope: CacheScope,
    ) -> Self {
        Self {
            result_type: Some(ResultType::Complete),
            contents,
            ttl_ms: Some(ttl_ms),
            cache_scope: Some(scope),
            meta: None,
        }
    }

    /// The freshness lifetime in milliseconds: absent reads as 0 (docs/rules.md §4).
    #[must_use]
    pub fn ttl(&self) -> u64 {
        self.ttl_ms.unwrap_or(0)
    }
}

one_sequence_result!(ReadResourceResult, ResourceContents);

impl<'a> ReadResourceResult<'a> {
    /// The result at `c`, its `contents` decoded by `contents_in`.
    #[cfg_attr(
        all(
            any(target_pointer_width = "64", target_family = "wasm"),
            not(mcp_compact)
        ),
        inline(always)
    )]
    fn decode_with(
        c: &mut Cursor<'a>,
        mut contents_in: impl SeqIn<'a, ResourceContents<'a>>,
    ) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys!["resultType", "contents", "ttlMs", "cacheScope", "_meta"];
        let mut f = obj(c, NAMES, "result")?;
        let (mut result_type, mut contents, mut ttl_ms) = (None, None, None);
        let (mut cache_scope, mut meta) = (None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => result_type = Some(complete_only(c)?),
                1 => contents = Some(contents_in.seq(c, "contents")?),
                2 => ttl_ms = Some(ttl(c)?),
                3 => cache_scope = Some(CacheScope::decode(c)?),
                _ => meta = Some(ResultMeta::decode(c)?),
            }
        }
        Ok(Self {
            result_type,
            contents: required(contents, "contents")?,
            ttl_ms,
            cache_scope,
            meta,
        })
    }
}

impl Encode for ReadResourceResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        self.encode_with(w, &self.contents)
    }
}

impl ReadResourceResult<'_> {
    /// The result with `contents` written by `contents` (an owned builder's items; the
    /// view's own `contents` is ignored), so owned and borrowed results share one encoder.
    pub(crate) fn encode_with<S: JsonSink + ?Sized, C: Encode + ?Sized>(
        &self,
        w: &mut Writer<'_, S>,
        contents: &C,
    ) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("resultType"), &self.result_type)?;
        w.member(key!("contents"), contents)?;
        w.opt_member(key!("ttlMs"), &self.ttl_ms)?;
        w.opt_member(key!("cacheScope"), &self.cache_scope)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}
