//! Paginated, cacheable lists (docs/rules.md §3–§6, §8): `resources/list`,
//! `resources/templates/list`, `prompts/list` (and `tools/list`, recognised).

use super::common::{CacheScope, Enc, ResultType, obj, object, string, ttl};
use super::input_required::complete_only;
use super::meta::{RequestMeta, ResultMeta};
use super::prompts::Prompt;
use super::resource::{Resource, ResourceTemplate};
use super::seq::{Lazy, Seq, SeqIn};
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, DecodeInto, FromJson, Method, MethodParams, ParamsError};

/// `PaginatedRequestParams`: the standard `_meta` and an opaque `cursor`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaginatedParams<'a> {
    /// `_meta` (required).
    pub meta: RequestMeta<'a>,
    /// `cursor`: where to continue; opaque (docs/rules.md §3).
    pub cursor: Option<JsonStr<'a>>,
}

impl<'a> FromJson<'a> for PaginatedParams<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, keys!["_meta", "cursor"], "params")?;
        let (mut meta, mut cursor) = (None, None);
        while let Some(i) = f.next(c)? {
            if i == 0 {
                meta = Some(RequestMeta::decode(c)?);
            } else {
                cursor = Some(string(c, "cursor")?);
            }
        }
        Ok(Self {
            meta: meta.ok_or(ParamsError::missing("_meta"))?,
            cursor,
        })
    }
}

impl Encode for PaginatedParams<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("_meta"), &self.meta)?;
        w.opt_member(key!("cursor"), &self.cursor)?;
        w.end_object()
    }
}

macro_rules! paginated_params {
    ($(#[$doc:meta])* $name:ident = $method:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name<'a>(pub PaginatedParams<'a>);

        impl<'a> FromJson<'a> for $name<'a> {
            fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
                PaginatedParams::decode(c).map(Self)
            }
        }

        impl Encode for $name<'_> {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                self.0.encode(w)
            }
        }

        impl<'a> MethodParams<'a> for $name<'a> {
            const METHOD: Method<'static> = Method::$method;
        }
    };
}

paginated_params!(
    /// `resources/list` params.
    ListResourcesParams = ResourcesList
);
paginated_params!(
    /// `resources/templates/list` params.
    ListResourceTemplatesParams = ResourcesTemplatesList
);
paginated_params!(
    /// `prompts/list` params.
    ListPromptsParams = PromptsList
);
paginated_params!(
    /// `tools/list` params (tools are out of scope; recognised for completeness).
    ListToolsParams = ToolsList
);

/// An item type of a paginated list, and the result member that holds the page.
pub trait ListItem<'a>: FromJson<'a> + Encode + Copy {
    /// The members of the list result; index 1 is the items array (`"resources"`, …).
    const FIELDS: &'static [&'static str];
}

impl<'a> ListItem<'a> for Resource<'a> {
    const FIELDS: &'static [&'static str] = &[
        "resultType",
        "resources",
        "nextCursor",
        "ttlMs",
        "cacheScope",
        "_meta",
    ];
}

impl<'a> ListItem<'a> for ResourceTemplate<'a> {
    const FIELDS: &'static [&'static str] = &[
        "resultType",
        "resourceTemplates",
        "nextCursor",
        "ttlMs",
        "cacheScope",
        "_meta",
    ];
}

impl<'a> ListItem<'a> for Prompt<'a> {
    const FIELDS: &'static [&'static str] = &[
        "resultType",
        "prompts",
        "nextCursor",
        "ttlMs",
        "cacheScope",
        "_meta",
    ];
}

/// A tool definition, passed through unparsed (tools are out of scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool<'a>(pub RawJson<'a>);

impl<'a> FromJson<'a> for Tool<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        object(c, "tools").map(Self)
    }
}

impl Encode for Tool<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.raw(self.0)
    }
}

impl<'a> ListItem<'a> for Tool<'a> {
    const FIELDS: &'static [&'static str] = &[
        "resultType",
        "tools",
        "nextCursor",
        "ttlMs",
        "cacheScope",
        "_meta",
    ];
}

/// The known members of a list result whose names are `fields` (a `ListItem::FIELDS`),
/// with their in-place words for the four lists of the crate.
fn list_keys(fields: &'static [&'static str]) -> Keys {
    let keys = match fields.get(1).copied() {
        Some("resources") => keys![
            "resultType",
            "resources",
            "nextCursor",
            "ttlMs",
            "cacheScope",
            "_meta"
        ],
        Some("resourceTemplates") => keys![
            "resultType",
            "resourceTemplates",
            "nextCursor",
            "ttlMs",
            "cacheScope",
            "_meta"
        ],
        Some("prompts") => keys![
            "resultType",
            "prompts",
            "nextCursor",
            "ttlMs",
            "cacheScope",
            "_meta"
        ],
        Some("tools") => keys![
            "resultType",
            "tools",
            "nextCursor",
            "ttlMs",
            "cacheScope",
            "_meta"
        ],
        _ => return Keys::new(fields, &[]),
    };
    if keys.names == fields {
        *keys
    } else {
        Keys::new(fields, &[])
    }
}

/// One page of a list (`PaginatedResult & CacheableResult`).
///
/// Decoding is lenient where the spec tells clients to be (docs/rules.md §4, §17.2): a missing
/// `resultType` is "complete", a missing or negative `ttlMs` reads as 0 ([`ListResult::ttl`]),
/// a missing `cacheScope` is `None` (treat as private). It is strict elsewhere:
/// `input_required` is refused (docs/rules.md §13) and `cacheScope` must be `public`/`private`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListResult<'a, T: ListItem<'a>> {
    /// `resultType` (absent from legacy servers).
    pub result_type: Option<ResultType>,
    /// The items of this page.
    pub items: Seq<'a, T>,
    /// `nextCursor`: present (even `""`) means more pages; absent means the end (docs/rules.md §3).
    pub next_cursor: Option<JsonStr<'a>>,
    /// `ttlMs` as sent (negative values already read as 0).
    pub ttl_ms: Option<u64>,
    /// `cacheScope`
    pub cache_scope: Option<CacheScope>,
    /// `_meta`
    pub meta: Option<ResultMeta<'a>>,
}

impl<'a, T: ListItem<'a>> ListResult<'a, T> {
    /// A complete page with the caching hints a server MUST send (docs/rules.md §16.4 rule 21).
    #[must_use]
    pub fn new(items: Seq<'a, T>, ttl_ms: u64, cache_scope: CacheScope) -> Self {
        Self {
            result_type: Some(ResultType::Complete),
            items,
            next_cursor: None,
            ttl_ms: Some(ttl_ms),
            cache_scope: Some(cache_scope),
            meta: None,
        }
    }

    /// The freshness lifetime in milliseconds: absent reads as 0 (docs/rules.md §4).
    #[must_use]
    pub fn ttl(&self) -> u64 {
        self.ttl_ms.unwrap_or(0)
    }
}

impl<'a, T: ListItem<'a>> FromJson<'a> for ListResult<'a, T> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Self::decode_with(c, Lazy)
    }
}

impl<'a, T: ListItem<'a>> DecodeInto<'a> for ListResult<'a, T> {
    type Item = T;
    fn decode_into(c: &mut Cursor<'a>, slots: &'a mut [Option<T>]) -> Result<Self, DecodeError> {
        Self::decode_with(c, slots)
    }
}

impl<'a, T: ListItem<'a>> ListResult<'a, T> {
    /// The page at `c`, its items decoded by `items`.
    #[inline(always)]
    fn decode_with(
        c: &mut Cursor<'a>,
        mut items_in: impl SeqIn<'a, T>,
    ) -> Result<Self, DecodeError> {
        let keys = list_keys(T::FIELDS);
        let mut f = obj(c, &keys, "result")?;
        let items_key = T::FIELDS.get(1).copied().unwrap_or("items");
        let (mut result_type, mut items, mut next_cursor) = (None, None, None);
        let (mut ttl_ms, mut cache_scope, mut meta) = (None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => result_type = Some(complete_only(c)?),
                1 => items = Some(items_in.seq(c, items_key)?),
                2 => next_cursor = Some(string(c, "nextCursor")?),
                3 => ttl_ms = Some(ttl(c)?),
                4 => cache_scope = Some(CacheScope::decode(c)?),
                _ => meta = Some(ResultMeta::decode(c)?),
            }
        }
        Ok(Self {
            result_type,
            items: items.ok_or(ParamsError::missing(items_key))?,
            next_cursor,
            ttl_ms,
            cache_scope,
            meta,
        })
    }
}

impl<'a, T: ListItem<'a>> Encode for ListResult<'a, T> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        self.encode_with(w, &self.items)
    }
}

impl<'a, T: ListItem<'a>> ListResult<'a, T> {
    /// The page with its items written by `items` (an owned builder's items; the view's own
    /// `items` is ignored), so owned and borrowed pages share one encoder.
    pub(crate) fn encode_with<S: JsonSink + ?Sized, I: Encode + ?Sized>(
        &self,
        w: &mut Writer<'_, S>,
        items: &I,
    ) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("resultType"), &self.result_type)?;
        match T::FIELDS.get(1).copied() {
            Some("resources") => w.key_of(key!("resources"))?,
            Some("resourceTemplates") => w.key_of(key!("resourceTemplates"))?,
            Some("prompts") => w.key_of(key!("prompts"))?,
            Some("tools") => w.key_of(key!("tools"))?,
            other => w.key(other.unwrap_or("items"))?,
        }
        items.encode(w)?;
        w.opt_member(key!("nextCursor"), &self.next_cursor)?;
        w.opt_member(key!("ttlMs"), &self.ttl_ms)?;
        w.opt_member(key!("cacheScope"), &self.cache_scope)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

/// `ListResourcesResult`
pub type ListResourcesResult<'a> = ListResult<'a, Resource<'a>>;
/// `ListResourceTemplatesResult`
pub type ListResourceTemplatesResult<'a> = ListResult<'a, ResourceTemplate<'a>>;
/// `ListPromptsResult`
pub type ListPromptsResult<'a> = ListResult<'a, Prompt<'a>>;
/// `ListToolsResult` (tools pass through unparsed).
pub type ListToolsResult<'a> = ListResult<'a, Tool<'a>>;
