//! Owned results a server emits, and the response envelope around them.

use alloc::string::String;
use alloc::vec::Vec;

use super::items::{
    OwnedImplementation, OwnedPrompt, OwnedPromptMessage, OwnedResource, OwnedResourceContents,
    OwnedResourceTemplate,
};
use super::{AsView, Items, OwnedJson, opt_raw, opt_str};
use crate::json::{Encode, EncodeError, JsonSink, RawJson, Writer};
use crate::jsonrpc::{Method, OwnedRequestId, TypedResponse};
use crate::messages::{
    CacheScope, CompleteResult, DiscoverResult, GetPromptResult, InputRequest, InputRequiredResult,
    ListChangedCapability, ListResult, ListenResult, MAX_COMPLETION_VALUES, Map,
    ReadResourceResult, ResourcesCapability, ResultMeta, ResultType, Seq, ServerCapabilities,
};

type Enc = Result<(), EncodeError>;

fn result_meta(server_info: &Option<OwnedImplementation>) -> Option<ResultMeta<'_>> {
    server_info
        .as_ref()
        .map(|s| ResultMeta::server_info(s.view()))
}

/// Owned [`ServerCapabilities`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedServerCapabilities {
    /// `resources` (declare it, possibly without flags, when serving resources).
    pub resources: Option<ResourcesCapability>,
    /// `prompts`
    pub prompts: Option<ListChangedCapability>,
    /// `tools`
    pub tools: Option<ListChangedCapability>,
    /// `completions: {}`
    pub completions: bool,
    /// `logging: {}` (deprecated)
    pub logging: bool,
    /// `experimental`
    pub experimental: Option<OwnedJson>,
    /// `extensions`
    pub extensions: Option<OwnedJson>,
}

impl AsView for OwnedServerCapabilities {
    type View<'a> = ServerCapabilities<'a>;
    fn view(&self) -> ServerCapabilities<'_> {
        ServerCapabilities {
            resources: self.resources,
            prompts: self.prompts,
            tools: self.tools,
            completions: self.completions.then_some(RawJson::EMPTY_OBJECT),
            logging: self.logging.then_some(RawJson::EMPTY_OBJECT),
            experimental: opt_raw(&self.experimental),
            extensions: opt_raw(&self.extensions),
        }
    }
}

/// An owned `server/discover` result (docs/rules.md §2).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedDiscoverResult {
    /// `supportedVersions`
    pub supported_versions: Vec<String>,
    /// `capabilities`
    pub capabilities: OwnedServerCapabilities,
    /// `instructions`
    pub instructions: Option<String>,
    /// `ttlMs`
    pub ttl_ms: u64,
    /// `cacheScope`
    pub cache_scope: CacheScope,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl AsView for OwnedDiscoverResult {
    type View<'a> = DiscoverResult<'a>;
    fn view(&self) -> DiscoverResult<'_> {
        DiscoverResult {
            instructions: opt_str(&self.instructions),
            meta: result_meta(&self.server_info),
            ..DiscoverResult::new(
                Seq::from_source(&self.supported_versions),
                self.capabilities.view(),
                self.ttl_ms,
                self.cache_scope,
            )
        }
    }
}

/// One owned page of a list (docs/rules.md §3–§6, §8).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedListResult<O> {
    /// The items of this page.
    pub items: Vec<O>,
    /// `nextCursor` (`None` = last page).
    pub next_cursor: Option<String>,
    /// `ttlMs`
    pub ttl_ms: u64,
    /// `cacheScope` (the same on every page of one list, docs/rules.md §4).
    pub cache_scope: CacheScope,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl<O> OwnedListResult<O> {
    /// An empty last page.
    #[must_use]
    pub const fn new(ttl_ms: u64, cache_scope: CacheScope) -> Self {
        Self {
            items: Vec::new(),
            next_cursor: None,
            ttl_ms,
            cache_scope,
            server_info: None,
        }
    }
}

macro_rules! owned_list {
    ($(#[$doc:meta])* $alias:ident = $owned:ident) => {
        $(#[$doc])*
        pub type $alias = OwnedListResult<$owned>;

        impl AsView for OwnedListResult<$owned> {
            type View<'a> = ListResult<'a, <$owned as AsView>::View<'a>>;
            fn view(&self) -> Self::View<'_> {
                ListResult {
                    next_cursor: opt_str(&self.next_cursor),
                    meta: result_meta(&self.server_info),
                    ..ListResult::new(Seq::from_source(&self.items), self.ttl_ms, self.cache_scope)
                }
            }
        }

        impl Encode for OwnedListResult<$owned> {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                self.view().encode_with(w, &Items(&self.items))
            }
        }
    };
}

owned_list!(
    /// An owned `resources/list` page.
    OwnedListResourcesResult = OwnedResource
);
owned_list!(
    /// An owned `resources/templates/list` page.
    OwnedListResourceTemplatesResult = OwnedResourceTemplate
);
owned_list!(
    /// An owned `prompts/list` page.
    OwnedListPromptsResult = OwnedPrompt
);

/// An owned `resources/read` result (docs/rules.md §7).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedReadResourceResult {
    /// `contents`
    pub contents: Vec<OwnedResourceContents>,
    /// `ttlMs`
    pub ttl_ms: u64,
    /// `cacheScope`
    pub cache_scope: CacheScope,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl OwnedReadResourceResult {
    /// No contents yet.
    #[must_use]
    pub const fn new(ttl_ms: u64, cache_scope: CacheScope) -> Self {
        Self {
            contents: Vec::new(),
            ttl_ms,
            cache_scope,
            server_info: None,
        }
    }
}

impl AsView for OwnedReadResourceResult {
    type View<'a> = ReadResourceResult<'a>;
    fn view(&self) -> ReadResourceResult<'_> {
        ReadResourceResult {
            meta: result_meta(&self.server_info),
            ..ReadResourceResult::new(
                Seq::from_source(&self.contents),
                self.ttl_ms,
                self.cache_scope,
            )
        }
    }
}

/// An owned `prompts/get` result (docs/rules.md §9).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedGetPromptResult {
    /// `description`
    pub description: Option<String>,
    /// `messages`
    pub messages: Vec<OwnedPromptMessage>,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl AsView for OwnedGetPromptResult {
    type View<'a> = GetPromptResult<'a>;
    fn view(&self) -> GetPromptResult<'_> {
        GetPromptResult {
            result_type: Some(ResultType::Complete),
            description: opt_str(&self.description),
            messages: Seq::from_source(&self.messages),
            meta: result_meta(&self.server_info),
        }
    }
}

/// An owned `completion/complete` result (docs/rules.md §10).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedCompleteResult {
    /// `values` (at most 100; [`OwnedCompleteResult::from_candidates`] truncates).
    pub values: Vec<String>,
    /// `total`
    pub total: Option<u64>,
    /// `hasMore`
    pub has_more: Option<bool>,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl OwnedCompleteResult {
    /// The first 100 candidates, with `total` and `hasMore` set from the full count.
    pub fn from_candidates<I: IntoIterator<Item = String>>(candidates: I) -> Self {
        let mut values = Vec::new();
        let mut total: u64 = 0;
        for c in candidates {
            if values.len() < MAX_COMPLETION_VALUES {
                values.push(c);
            }
            total += 1;
        }
        let has_more = total > values.len() as u64;
        Self {
            values,
            total: Some(total),
            has_more: Some(has_more),
            server_info: None,
        }
    }
}

impl AsView for OwnedCompleteResult {
    type View<'a> = CompleteResult<'a>;
    fn view(&self) -> CompleteResult<'_> {
        CompleteResult {
            result_type: Some(ResultType::Complete),
            values: Seq::from_source(&self.values),
            total: self.total,
            has_more: self.has_more,
            meta: result_meta(&self.server_info),
        }
    }
}

/// An owned input request (`elicitation/create`, `sampling/createMessage`, `roots/list`).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedInputRequest {
    /// The method.
    pub method: Method<'static>,
    /// `params`
    pub params: Option<OwnedJson>,
}

impl AsView for OwnedInputRequest {
    type View<'a> = InputRequest<'a>;
    fn view(&self) -> InputRequest<'_> {
        InputRequest {
            method: self.method,
            params: opt_raw(&self.params),
        }
    }
}

/// An owned `InputRequiredResult` (docs/rules.md §13).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedInputRequiredResult {
    /// `inputRequests`: key → request (empty = absent).
    pub input_requests: Vec<(String, OwnedInputRequest)>,
    /// `requestState`
    pub request_state: Option<String>,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl AsView for OwnedInputRequiredResult {
    type View<'a> = InputRequiredResult<'a>;
    fn view(&self) -> InputRequiredResult<'_> {
        InputRequiredResult {
            input_requests: (!self.input_requests.is_empty())
                .then(|| Map::from_source(&self.input_requests)),
            request_state: opt_str(&self.request_state),
            meta: result_meta(&self.server_info),
        }
    }
}

/// An owned `subscriptions/listen` result: the graceful end of a subscription, with
/// `_meta.subscriptionId` = the listen request's id (docs/rules.md §11.4).
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedListenResult {
    /// The listen request's id.
    pub subscription_id: OwnedRequestId,
    /// `_meta.serverInfo`
    pub server_info: Option<OwnedImplementation>,
}

impl AsView for OwnedListenResult {
    type View<'a> = ListenResult<'a>;
    fn view(&self) -> ListenResult<'_> {
        ListenResult {
            result_type: Some(ResultType::Complete),
            meta: ResultMeta {
                server_info: self.server_info.as_ref().map(AsView::view),
                subscription_id: Some(self.subscription_id.as_ref()),
                extra: None,
            },
        }
    }
}

macro_rules! encode_via_view {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                self.view().encode(w)
            }
        }
    )*};
}

impl Encode for OwnedReadResourceResult {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        self.view().encode_with(w, &Items(&self.contents))
    }
}

impl Encode for OwnedGetPromptResult {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        self.view().encode_with(w, &Items(&self.messages))
    }
}

encode_via_view!(
    OwnedServerCapabilities,
    OwnedDiscoverResult,
    OwnedCompleteResult,
    OwnedInputRequest,
    OwnedInputRequiredResult,
    OwnedListenResult
);

/// A response carrying an owned result: `{"jsonrpc":"2.0","id":…,"result":…}`.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedResponse<R> {
    /// The id of the request answered, in its JSON type.
    pub id: OwnedRequestId,
    /// The result.
    pub result: R,
}

impl<R: Encode> Encode for OwnedResponse<R> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        TypedResponse {
            id: self.id.as_ref(),
            result: &self.result,
        }
        .encode(w)
    }
}
