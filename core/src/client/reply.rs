//! Results as the host receives them: the result JSON the server sent (validated once, on
//! arrival), typed by the method it answers, viewed zero-copy on demand.
//!
//! A [`Reply`] owns the text of one `result` object; [`Reply::view`] borrows it as the
//! message layer's view ([`crate::messages`]). The same bytes are what the cache stores, so
//! a reply served from the cache is indistinguishable from one fresh off the wire except for
//! [`Reply::from_cache`]. Bindings can hand [`Reply::json`] across as it is.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::json::RawJson;
use crate::jsonrpc::{FromJson, ParamsError};
use crate::messages::{
    CompleteResult, DiscoverResult, GetPromptResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, ReadResourceResult,
};

/// The result type of one method: what [`Reply::view`] decodes into.
pub trait ReplyKind {
    /// The zero-copy view of the result.
    type View<'a>: FromJson<'a>;
}

macro_rules! kinds {
    ($($(#[$doc:meta])* $name:ident => $view:ident,)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {}
        impl ReplyKind for $name {
            type View<'a> = $view<'a>;
        }
    )*};
}

kinds! {
    /// `server/discover` → [`DiscoverResult`].
    Discover => DiscoverResult,
    /// One `resources/list` page → [`ListResourcesResult`].
    ResourceList => ListResourcesResult,
    /// One `resources/templates/list` page → [`ListResourceTemplatesResult`].
    TemplateList => ListResourceTemplatesResult,
    /// One `prompts/list` page → [`ListPromptsResult`].
    PromptList => ListPromptsResult,
    /// One `tools/list` page → [`ListToolsResult`].
    ToolList => ListToolsResult,
    /// `resources/read` (complete) → [`ReadResourceResult`].
    Read => ReadResourceResult,
    /// `prompts/get` (complete) → [`GetPromptResult`].
    Prompt => GetPromptResult,
    /// `completion/complete` → [`CompleteResult`].
    Completion => CompleteResult,
    /// A result the message layer has no view for (the legacy `InitializeResult`) →
    /// [`RawJson`].
    Raw => RawJson,
}

/// The `result` of one response, typed by method.
pub struct Reply<K> {
    json: String,
    from_cache: bool,
    kind: PhantomData<fn() -> K>,
}

impl<K: ReplyKind> Reply<K> {
    /// Keeps `result` if it decodes as `K`'s view.
    pub(crate) fn decode(result: RawJson<'_>, from_cache: bool) -> Result<Self, ParamsError> {
        K::View::from_json(result)?;
        Ok(Self {
            json: String::from(result.as_text()),
            from_cache,
            kind: PhantomData,
        })
    }

    /// Re-reads cached bytes (stored from a reply, so they decode).
    pub(crate) fn from_cached(bytes: &[u8]) -> Option<Self> {
        let text = core::str::from_utf8(bytes).ok()?;
        Self::decode(RawJson::parse(text.as_bytes()).ok()?, true).ok()
    }

    /// The view of the result. It decoded when the reply was made, so this succeeds; the
    /// `Result` is there because decoding is re-run (it allocates nothing).
    ///
    /// # Errors
    /// Never for a reply this crate produced.
    pub fn view(&self) -> Result<K::View<'_>, ParamsError> {
        K::View::from_json(RawJson::from_validated(&self.json))
    }
}

impl<K> Reply<K> {
    /// The `result` object's JSON text, as the server sent it.
    #[must_use]
    pub fn json(&self) -> &str {
        &self.json
    }

    /// Whether the reply was served from the client's cache instead of the server.
    #[must_use]
    pub const fn from_cache(&self) -> bool {
        self.from_cache
    }
}

impl<K> Clone for Reply<K> {
    fn clone(&self) -> Self {
        Self {
            json: self.json.clone(),
            from_cache: self.from_cache,
            kind: PhantomData,
        }
    }
}

impl<K> PartialEq for Reply<K> {
    fn eq(&self, other: &Self) -> bool {
        self.json == other.json && self.from_cache == other.from_cache
    }
}

impl<K> fmt::Debug for Reply<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reply")
            .field("json", &self.json)
            .field("from_cache", &self.from_cache)
            .finish()
    }
}

/// The pages of one list call (docs/rules.md §3). In page mode: one page, and `next_cursor` is that
/// page's `nextCursor`. In aggregated mode: every page in order; `next_cursor` is `Some` only
/// when the page limit stopped the walk early (`truncated`), so the host can go on.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing<K> {
    /// The pages, in order.
    pub pages: Vec<Reply<K>>,
    /// Where to continue: present (even `""`) means more pages (docs/rules.md §3).
    pub next_cursor: Option<String>,
    /// Whether an aggregated walk stopped at the page limit before the end.
    pub truncated: bool,
}
