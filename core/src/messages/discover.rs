//! `server/discover` (docs/rules.md §2).

use super::capabilities::ServerCapabilities;
use super::common::{CacheScope, Enc, ResultType, obj, required, string, ttl};
use super::input_required::complete_only;
use super::meta::{RequestMeta, ResultMeta};
use super::seq::Seq;
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, Writer};
use crate::jsonrpc::{DecodeError, FromJson, Method, MethodParams};

/// `server/discover` params: the standard `_meta` only (both required keys apply).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiscoverParams<'a> {
    /// `_meta` (required).
    pub meta: RequestMeta<'a>,
}

impl<'a> FromJson<'a> for DiscoverParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta"], "params")?;
        let mut meta = None;
        while f.next(c)?.is_some() {
            meta = Some(RequestMeta::decode(c)?);
        }
        Ok(Self {
            meta: required(meta, "_meta")?,
        })
    }
}

impl Encode for DiscoverParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

impl<'a> MethodParams<'a> for DiscoverParams<'a> {
    const METHOD: Method<'static> = Method::ServerDiscover;
}

/// `DiscoverResult`: versions, capabilities, instructions, caching hints; `serverInfo`
/// lives in `_meta` (docs/rules.md §2, §19 item 18).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiscoverResult<'a> {
    /// `resultType` (absent from legacy servers).
    pub result_type: Option<ResultType>,
    /// `supportedVersions`
    pub supported_versions: Seq<'a, JsonStr<'a>>,
    /// `capabilities`
    pub capabilities: ServerCapabilities<'a>,
    /// `instructions`
    pub instructions: Option<JsonStr<'a>>,
    /// `ttlMs` (required by the schema; negative values read as 0).
    pub ttl_ms: Option<u64>,
    /// `cacheScope` (required by the schema).
    pub cache_scope: Option<CacheScope>,
    /// `_meta`
    pub meta: Option<ResultMeta<'a>>,
}

impl<'a> DiscoverResult<'a> {
    /// A complete result with caching hints (docs/rules.md §19 item 3: per the schema).
    #[must_use]
    pub const fn new(
        supported_versions: Seq<'a, JsonStr<'a>>,
        capabilities: ServerCapabilities<'a>,
        ttl_ms: u64,
        cache_scope: CacheScope,
    ) -> Self {
        Self {
            result_type: Some(ResultType::Complete),
            supported_versions,
            capabilities,
            instructions: None,
            ttl_ms: Some(ttl_ms),
            cache_scope: Some(cache_scope),
            meta: None,
        }
    }
}

impl<'a> FromJson<'a> for DiscoverResult<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys![
            "resultType",
            "supportedVersions",
            "capabilities",
            "instructions",
            "ttlMs",
            "cacheScope",
            "_meta",
        ];
        let mut f = obj(c, NAMES, "result")?;
        let (mut result_type, mut versions, mut capabilities, mut instructions) =
            (None, None, None, None);
        let (mut ttl_ms, mut cache_scope, mut meta) = (None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => result_type = Some(complete_only(c)?),
                1 => versions = Some(Seq::decode(c, "supportedVersions")?),
                2 => capabilities = Some(ServerCapabilities::decode(c)?),
                3 => instructions = Some(string(c, "instructions")?),
                4 => ttl_ms = Some(ttl(c)?),
                5 => cache_scope = Some(CacheScope::decode(c)?),
                _ => meta = Some(ResultMeta::decode(c)?),
            }
        }
        Ok(Self {
            result_type,
            supported_versions: required(versions, "supportedVersions")?,
            capabilities: required(capabilities, "capabilities")?,
            instructions,
            ttl_ms,
            cache_scope,
            meta,
        })
    }
}

impl Encode for DiscoverResult<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("resultType"), &self.result_type)?;
        w.member(key!("supportedVersions"), &self.supported_versions)?;
        w.member(key!("capabilities"), &self.capabilities)?;
        w.opt_member(key!("instructions"), &self.instructions)?;
        w.opt_member(key!("ttlMs"), &self.ttl_ms)?;
        w.opt_member(key!("cacheScope"), &self.cache_scope)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}
