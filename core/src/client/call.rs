//! What the host asks for: call handles, list and cache options, and the owned request
//! description the machine re-encodes for every attempt (new id, new version, MRTR retry,
//! next page).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::cache::ListKind;
use crate::messages::owned::{OwnedJson, OwnedSubscriptionFilter};

/// The host's handle of one call. It stays the same across every JSON-RPC request the call
/// makes (pages, version retry, `input_required` retries), unlike the JSON-RPC id, which is
/// new for each (docs/rules.md §13 "The JSON-RPC `id` **MUST** be different").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId(pub u64);

impl fmt::Display for CallId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "call#{}", self.0)
    }
}

/// How a list call pages (docs/rules.md §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListMode {
    /// One page, starting at this cursor (`None`: the first page). The event's
    /// [`Listing::next_cursor`](super::Listing::next_cursor) says where to go on.
    Page(Option<String>),
    /// Every page: follow `nextCursor` until it is absent (`""` is a cursor, not the end),
    /// at most [`ClientConfig::max_pages`](super::ClientConfig::max_pages) pages.
    All,
}

/// Whether a cacheable call may be answered from the cache (docs/rules.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Serve a fresh cached result (same method and result-affecting params, visible to the
    /// current authorization context) without asking the server.
    PreferCache,
    /// Always ask the server (the result still refreshes the cache).
    Refresh,
}

/// `ref` of a `completion/complete` call (docs/rules.md §10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionRef {
    /// `ref/prompt`: a prompt argument.
    Prompt(String),
    /// `ref/resource`: a variable of a resource template (its `uriTemplate`).
    Resource(String),
}

/// An owned request, re-encoded for each attempt.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Spec {
    Discover,
    List {
        kind: ListKind,
        /// The cursor of the page being fetched.
        cursor: Option<String>,
        follow: bool,
        /// Pages received so far (result JSON, whether from cache).
        pages: Vec<(String, bool)>,
    },
    Read {
        uri: String,
    },
    GetPrompt {
        name: String,
        arguments: Vec<(String, String)>,
    },
    Complete {
        reference: CompletionRef,
        argument: (String, String),
        context: Option<Vec<(String, String)>>,
    },
    Listen {
        filter: OwnedSubscriptionFilter,
    },
    /// A method the core does not own (`tools/list`, `tools/call`, vendor methods): the
    /// host's params object, sent with the machine's `_meta`.
    Custom {
        method: String,
        params: OwnedJson,
        /// `Mcp-Param-{Name}` headers of a `tools/call` (header name, encoded value).
        param_headers: Vec<(String, String)>,
    },
}

impl Spec {
    /// The JSON-RPC method.
    pub(crate) fn method(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Self::Discover => "server/discover",
            Self::List { kind, .. } => kind.method(),
            Self::Read { .. } => "resources/read",
            Self::GetPrompt { .. } => "prompts/get",
            Self::Complete { .. } => "completion/complete",
            Self::Listen { .. } => "subscriptions/listen",
            Self::Custom { method, .. } => return Cow::Owned(method.clone()),
        })
    }

    /// The JSON-RPC method, borrowed.
    pub(crate) fn method_str(&self) -> &str {
        match self {
            Self::Custom { method, .. } => method,
            Self::Discover => "server/discover",
            Self::List { kind, .. } => kind.method(),
            Self::Read { .. } => "resources/read",
            Self::GetPrompt { .. } => "prompts/get",
            Self::Complete { .. } => "completion/complete",
            Self::Listen { .. } => "subscriptions/listen",
        }
    }

    /// The `Mcp-Name` value (docs/rules.md §16.10 rule 60; spec: Transports › Streamable
    /// HTTP › Standard MCP request headers): the `uri` of `resources/read`, the `name` of
    /// `prompts/get` and `tools/call`.
    pub(crate) fn name(&self) -> Option<String> {
        match self {
            Self::Read { uri } => Some(uri.clone()),
            Self::GetPrompt { name, .. } => Some(name.clone()),
            Self::Custom { method, params, .. } if method == "tools/call" => params
                .as_raw()
                .get("name")
                .and_then(|n| n.as_str())
                .map(|n| n.to_cow().into_owned()),
            _ => None,
        }
    }
}

/// The MRTR retry data of a call (docs/rules.md §13): the host's `inputResponses` and the server's
/// `requestState`, kept as its exact JSON token so it is echoed byte for byte.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Retry {
    pub(crate) responses: Vec<(String, OwnedJson)>,
    pub(crate) state_token: Option<String>,
}
