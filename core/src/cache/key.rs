//! What a cached result is keyed by, and which notifications invalidate it (docs/rules.md §4, §12).

use core::fmt;

/// A paginated, cacheable list method (docs/rules.md §3, §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `resources/list`.
    Resources,
    /// `resources/templates/list`.
    ResourceTemplates,
    /// `prompts/list`.
    Prompts,
    /// `tools/list`.
    Tools,
}

impl ListKind {
    /// The JSON-RPC method.
    #[must_use]
    pub const fn method(self) -> &'static str {
        match self {
            Self::Resources => "resources/list",
            Self::ResourceTemplates => "resources/templates/list",
            Self::Prompts => "prompts/list",
            Self::Tools => "tools/list",
        }
    }
}

/// The identity of a cacheable request: "the request method together with the request
/// parameters that affect the result" (docs/rules.md §4). Exactly these params are in the key:
///
/// | method | params in the key |
/// | --- | --- |
/// | `server/discover` | none |
/// | `resources/list`, `resources/templates/list`, `prompts/list`, `tools/list` | `cursor`; absent and `""` differ (`""` is a valid cursor, docs/rules.md §3) |
/// | `resources/read` | `uri`, compared as an exact string |
///
/// Never in the key: `_meta` (protocol version, client info, capabilities, trace context;
/// a client speaking two protocol versions to one server keeps one cache per version),
/// and `inputResponses` / `requestState` (results of such retries are never stored). The
/// authorization context is not part of this identity: it is matched against the stored
/// result's `cacheScope` (see [`Cache`](super::Cache)).
///
/// Only the six methods whose results extend `CacheableResult` are keyable (docs/rules.md §4);
/// `prompts/get`, `completion/complete`, `tools/call` carry no caching hints and are refused
/// by [`CacheKey::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CacheKey<'a> {
    /// `server/discover`.
    Discover,
    /// One page of a list.
    List {
        /// Which list.
        list: ListKind,
        /// `params.cursor`; `None` for the first page.
        cursor: Option<&'a str>,
    },
    /// `resources/read` of `uri`.
    Read {
        /// `params.uri`.
        uri: &'a str,
    },
}

/// Why a request has no cache key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// The method's result is not a `CacheableResult` (docs/rules.md §4).
    NotCacheable,
    /// `resources/read` without a `uri`.
    MissingUri,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NotCacheable => "method result is not cacheable",
            Self::MissingUri => "resources/read without a uri",
        })
    }
}

impl core::error::Error for KeyError {}

impl<'a> CacheKey<'a> {
    /// The key for `method` with its one key parameter: the `cursor` of a list request, the
    /// `uri` of `resources/read`, ignored for `server/discover`.
    ///
    /// # Errors
    /// [`KeyError::NotCacheable`] for any other method; [`KeyError::MissingUri`].
    pub fn new(method: &str, key_param: Option<&'a str>) -> Result<Self, KeyError> {
        let list = |list| {
            Ok(Self::List {
                list,
                cursor: key_param,
            })
        };
        match method {
            "server/discover" => Ok(Self::Discover),
            "resources/list" => list(ListKind::Resources),
            "resources/templates/list" => list(ListKind::ResourceTemplates),
            "prompts/list" => list(ListKind::Prompts),
            "tools/list" => list(ListKind::Tools),
            "resources/read" => key_param
                .map(|uri| Self::Read { uri })
                .ok_or(KeyError::MissingUri),
            _ => Err(KeyError::NotCacheable),
        }
    }

    /// The JSON-RPC method.
    #[must_use]
    pub const fn method(&self) -> &'static str {
        match self {
            Self::Discover => "server/discover",
            Self::List { list, .. } => list.method(),
            Self::Read { .. } => "resources/read",
        }
    }
}

/// An event that makes cached results stale (docs/rules.md §4: a relevant change notification
/// "**invalidates** the cached response"; §3: after a rejected cursor "drop every cached page
/// and restart").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalidation<'a> {
    /// `notifications/resources/updated` for `uri`: drops `resources/read` entries whose URI
    /// is [related](uri_related) to it.
    ResourceUpdated {
        /// `params.uri` of the notification.
        uri: &'a str,
    },
    /// `notifications/resources/list_changed`: drops every `resources/list` and
    /// `resources/templates/list` page.
    ResourcesListChanged,
    /// `notifications/prompts/list_changed`: drops every `prompts/list` page.
    PromptsListChanged,
    /// `notifications/tools/list_changed`: drops every `tools/list` page.
    ToolsListChanged,
    /// The server rejected a cursor of `list` (-32602): drops every page of that list.
    CursorRejected {
        /// The list whose cursor was rejected.
        list: ListKind,
    },
}

impl<'a> Invalidation<'a> {
    /// The invalidation a notification causes: `method` and, for `resources/updated`, its
    /// `params.uri`. `None` for notifications that invalidate nothing (or lack the `uri`).
    #[must_use]
    pub fn from_notification(method: &str, uri: Option<&'a str>) -> Option<Self> {
        match method {
            "notifications/resources/updated" => uri.map(|uri| Self::ResourceUpdated { uri }),
            "notifications/resources/list_changed" => Some(Self::ResourcesListChanged),
            "notifications/prompts/list_changed" => Some(Self::PromptsListChanged),
            "notifications/tools/list_changed" => Some(Self::ToolsListChanged),
            _ => None,
        }
    }

    /// Whether this event makes the result cached under `key` stale.
    #[must_use]
    pub fn matches(&self, key: &CacheKey<'_>) -> bool {
        match (*self, *key) {
            (Self::ResourceUpdated { uri }, CacheKey::Read { uri: cached }) => {
                uri_related(cached, uri)
            }
            (Self::ResourcesListChanged, CacheKey::List { list, .. }) => {
                matches!(list, ListKind::Resources | ListKind::ResourceTemplates)
            }
            (Self::PromptsListChanged, CacheKey::List { list, .. }) => list == ListKind::Prompts,
            (Self::ToolsListChanged, CacheKey::List { list, .. }) => list == ListKind::Tools,
            (Self::CursorRejected { list }, CacheKey::List { list: cached, .. }) => list == cached,
            _ => false,
        }
    }
}

/// Whether a `resources/updated` for `updated` invalidates a cached read of `cached`:
/// they are equal, or one is a sub-resource of the other.
///
/// `child` is a **sub-resource** of `parent` when `child` starts with `parent` and either
/// `parent` ends with `/` or the next character of `child` is `/`, `?` or `#` (a path
/// boundary, or a query/fragment view of the same resource). Both directions count: the
/// notification "might be a sub-resource of the one that the client actually subscribed to"
/// (docs/rules.md §12), and a read of a directory returns its files' contents (docs/rules.md §7), so an
/// update to `file:///p/a.rs` makes a cached read of `file:///p` stale; an update to
/// `file:///p` makes cached reads below it stale. URIs are compared as exact strings, with no
/// normalisation (`file:///p` and `file:///p/./` are different): the cache stores the URI the
/// client sent, which is the one the server listed.
#[must_use]
pub fn uri_related(cached: &str, updated: &str) -> bool {
    is_sub_resource(cached, updated) || is_sub_resource(updated, cached)
}

/// `child == parent`, or `child` below `parent` at a boundary (see [`uri_related`]).
pub(crate) fn is_sub_resource(child: &str, parent: &str) -> bool {
    match child.strip_prefix(parent) {
        None => false,
        Some("") => true,
        Some(rest) => {
            parent.ends_with('/') || matches!(rest.as_bytes().first(), Some(b'/' | b'?' | b'#'))
        }
    }
}
