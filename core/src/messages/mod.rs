//! Typed, zero-copy views of every MCP 2026-07-28 message of the context primitives
//! (docs/rules.md §2–§14), plus the legacy shapes a dual-era peer accepts (docs/rules.md §17).
//!
//! Every view borrows the input: strings are [`JsonStr`](crate::json::JsonStr), repeated
//! elements are lazy [`Seq`]/[`Map`]s, pass-through objects are
//! [`RawJson`](crate::json::RawJson). Decoding validates every element once and allocates
//! nothing; unknown fields are ignored. The same views encode (canonical compact JSON)
//! from decoded data or from caller slices, so a server can answer without allocating.
//!
//! A lazy `Seq` decodes each item again when it is iterated, and an escaped string is
//! unescaped when it is read. A reader that walks everything decodes a result in one pass
//! with [`TypedResponse::decode_into`](crate::jsonrpc::TypedResponse::decode_into)
//! instead: the items of the result's sequence land in caller slots as they are checked, and
//! strings with escapes are unescaped into a caller buffer as they are scanned (the same
//! checks, errors and view; still no allocation).
//!
//! Spec rules checked at decode, each a [`ParamsError`](crate::jsonrpc::ParamsError)
//! (`-32602`): required fields and types, `priority` ∈ [0, 1], `audience`/`role`/
//! `cacheScope`/content `type` values, `ttlMs` an integer (negative reads as 0), a missing
//! `resultType` is complete and an unrecognised one invalid, `input_required` only where
//! allowed, prompt argument values strings only, at most 100 completion values, contents
//! with exactly one of `text`/`blob`.
//!
//! ```
//! use mcp_context::messages::{ReadResourceRequest, ReadResourceResultResponse, Outcome};
//! let req = ReadResourceRequest::decode(br#"{"jsonrpc":"2.0","id":2,"method":"resources/read",
//!   "params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!   "io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///a.txt"}}"#).unwrap();
//! assert_eq!(req.params.uri, "file:///a.txt");
//!
//! let res = ReadResourceResultResponse::decode(br#"{"jsonrpc":"2.0","id":2,"result":{
//!   "resultType":"complete","contents":[{"uri":"file:///a.txt","text":"hi"}],
//!   "ttlMs":-5,"cacheScope":"private"}}"#).unwrap();
//! let Outcome::Complete(r) = res.result else { panic!() };
//! assert_eq!((r.contents.len(), r.ttl()), (1, 0));
//! ```

mod annotations;
mod capabilities;
mod common;
#[cfg(test)]
mod compact_tests;
mod completion;
mod content;
mod discover;
mod dispatch;
mod fanout;
mod input_required;
mod legacy;
mod lists;
mod map;
mod meta;
mod notifications;
#[cfg(feature = "alloc")]
pub mod owned;
mod prompts;
mod read;
mod resource;
mod seq;
mod subscriptions;

pub use annotations::Annotations;
pub use capabilities::{
    ClientCapabilities, ListChangedCapability, ResourcesCapability, ServerCapabilities,
};
pub use common::{CacheScope, LoggingLevel, Priority, ResultType, Role, Theme};
pub use completion::{CompleteParams, CompleteResult, MAX_COMPLETION_VALUES, Reference};
pub use content::{
    BlobResourceContents, ContentBlock, EmbeddedResource, MediaContent, ResourceContents,
    TextContent, TextResourceContents,
};
pub use discover::{DiscoverParams, DiscoverResult};
pub use dispatch::{ClientRequest, ServerNotification};
pub use fanout::ResourceUpdatedFanOut;
pub use input_required::{
    InputRequest, InputRequests, InputRequiredResult, InputResponse, InputResponses, Outcome,
};
pub use legacy::{SubscribeParams, UnsubscribeParams, UriParams};
pub use lists::{
    ListItem, ListPromptsParams, ListPromptsResult, ListResourceTemplatesParams,
    ListResourceTemplatesResult, ListResourcesParams, ListResourcesResult, ListResult,
    ListToolsParams, ListToolsResult, PaginatedParams, Tool,
};
pub use map::{Map, MapIter, MapSource};
pub use meta::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, Icon, Implementation, LOG_LEVEL_KEY,
    NotificationMeta, PROTOCOL_VERSION_KEY, RequestMeta, ResultMeta, SERVER_INFO_KEY,
    SUBSCRIPTION_ID_KEY,
};
pub use notifications::{
    CancelledParams, ListChangedParams, PromptListChangedParams, ResourceListChangedParams,
    ResourceUpdatedParams, ToolListChangedParams,
};
pub use prompts::{
    ArgValue, Arguments, GetPromptParams, GetPromptResult, Prompt, PromptArgument, PromptMessage,
};
pub use read::{ReadResourceParams, ReadResourceResult};
pub use resource::{Resource, ResourceTemplate};
pub use seq::{Seq, SeqIter, SeqSource};
pub use subscriptions::{AcknowledgedParams, ListenParams, ListenResult, SubscriptionFilter};

use crate::jsonrpc::{TypedNotification, TypedRequest, TypedResponse};

/// `server/discover` request.
pub type DiscoverRequest<'a> = TypedRequest<'a, DiscoverParams<'a>>;
/// `resources/list` request.
pub type ListResourcesRequest<'a> = TypedRequest<'a, ListResourcesParams<'a>>;
/// `resources/templates/list` request.
pub type ListResourceTemplatesRequest<'a> = TypedRequest<'a, ListResourceTemplatesParams<'a>>;
/// `resources/read` request.
pub type ReadResourceRequest<'a> = TypedRequest<'a, ReadResourceParams<'a>>;
/// `prompts/list` request.
pub type ListPromptsRequest<'a> = TypedRequest<'a, ListPromptsParams<'a>>;
/// `prompts/get` request.
pub type GetPromptRequest<'a> = TypedRequest<'a, GetPromptParams<'a>>;
/// `completion/complete` request.
pub type CompleteRequest<'a> = TypedRequest<'a, CompleteParams<'a>>;
/// `subscriptions/listen` request.
pub type SubscriptionsListenRequest<'a> = TypedRequest<'a, ListenParams<'a>>;
/// `tools/list` request (recognised; tools are out of scope).
pub type ListToolsRequest<'a> = TypedRequest<'a, ListToolsParams<'a>>;
/// Legacy `resources/subscribe` request.
pub type SubscribeRequest<'a> = TypedRequest<'a, SubscribeParams<'a>>;
/// Legacy `resources/unsubscribe` request.
pub type UnsubscribeRequest<'a> = TypedRequest<'a, UnsubscribeParams<'a>>;

/// `server/discover` response.
pub type DiscoverResultResponse<'a> = TypedResponse<'a, DiscoverResult<'a>>;
/// `resources/list` response.
pub type ListResourcesResultResponse<'a> = TypedResponse<'a, ListResourcesResult<'a>>;
/// `resources/templates/list` response.
pub type ListResourceTemplatesResultResponse<'a> =
    TypedResponse<'a, ListResourceTemplatesResult<'a>>;
/// `resources/read` response: complete or `input_required`.
pub type ReadResourceResultResponse<'a> = TypedResponse<'a, Outcome<'a, ReadResourceResult<'a>>>;
/// `prompts/list` response.
pub type ListPromptsResultResponse<'a> = TypedResponse<'a, ListPromptsResult<'a>>;
/// `prompts/get` response: complete or `input_required`.
pub type GetPromptResultResponse<'a> = TypedResponse<'a, Outcome<'a, GetPromptResult<'a>>>;
/// `completion/complete` response.
pub type CompleteResultResponse<'a> = TypedResponse<'a, CompleteResult<'a>>;
/// `subscriptions/listen` response (graceful end of the subscription).
pub type SubscriptionsListenResultResponse<'a> = TypedResponse<'a, ListenResult<'a>>;
/// `tools/list` response (tools pass through unparsed).
pub type ListToolsResultResponse<'a> = TypedResponse<'a, ListToolsResult<'a>>;

/// `notifications/resources/list_changed`
pub type ResourceListChangedNotification<'a> = TypedNotification<ResourceListChangedParams<'a>>;
/// `notifications/resources/updated`
pub type ResourceUpdatedNotification<'a> = TypedNotification<ResourceUpdatedParams<'a>>;
/// `notifications/prompts/list_changed`
pub type PromptListChangedNotification<'a> = TypedNotification<PromptListChangedParams<'a>>;
/// `notifications/tools/list_changed`
pub type ToolListChangedNotification<'a> = TypedNotification<ToolListChangedParams<'a>>;
/// `notifications/subscriptions/acknowledged`
pub type SubscriptionsAcknowledgedNotification<'a> = TypedNotification<AcknowledgedParams<'a>>;
/// `notifications/cancelled`
pub type CancelledNotification<'a> = TypedNotification<CancelledParams<'a>>;
