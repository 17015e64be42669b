//! `Cache`: the scope-aware result cache (docs/rules.md §4, checklist §16.4) for hosts that keep
//! results outside a `ClientMachine` (which has its own). Values are opaque bytes.

use std::sync::{Mutex, MutexGuard};

use mcp_context::cache::{
    Attempt, AuthContext, Cache as CoreCache, CacheHints, CacheKey as CoreKey, CacheLimits,
    Invalidation as CoreInvalidation, KeyError, ListKind as CoreList, Lookup, Refused,
};

use crate::records::CacheScope;

/// A paginated, cacheable list (docs/rules.md §3, §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ListKind {
    /// `resources/list`
    Resources,
    /// `resources/templates/list`
    ResourceTemplates,
    /// `prompts/list`
    Prompts,
    /// `tools/list`
    Tools,
}

impl From<ListKind> for CoreList {
    fn from(k: ListKind) -> Self {
        match k {
            ListKind::Resources => Self::Resources,
            ListKind::ResourceTemplates => Self::ResourceTemplates,
            ListKind::Prompts => Self::Prompts,
            ListKind::Tools => Self::Tools,
        }
    }
}

impl From<CoreList> for ListKind {
    fn from(k: CoreList) -> Self {
        match k {
            CoreList::Resources => Self::Resources,
            CoreList::ResourceTemplates => Self::ResourceTemplates,
            CoreList::Prompts => Self::Prompts,
            CoreList::Tools => Self::Tools,
        }
    }
}

/// What a cached result is keyed by: the method and the params that affect it (docs/rules.md §4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CacheKey {
    /// `server/discover`
    Discover,
    /// One page of a list; `cursor` `nil` is the first page (`""` is a cursor).
    List {
        /// Which list.
        list: ListKind,
        /// `params.cursor`
        cursor: Option<String>,
    },
    /// `resources/read` of `uri` (exact string).
    Read {
        /// `params.uri`
        uri: String,
    },
}

impl CacheKey {
    fn core(&self) -> CoreKey<'_> {
        match self {
            Self::Discover => CoreKey::Discover,
            Self::List { list, cursor } => CoreKey::List {
                list: (*list).into(),
                cursor: cursor.as_deref(),
            },
            Self::Read { uri } => CoreKey::Read { uri },
        }
    }
}

/// A request with no cache key, or a result the cache did not store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum CacheError {
    /// The method's result is not cacheable (only discover, the lists and reads are).
    NotCacheable,
    /// `resources/read` without a `uri`.
    MissingUri,
    /// The result answers an MRTR retry: never cached (docs/rules.md §4, §13).
    Retry,
    /// `ttlMs` is 0, absent or negative: stale on arrival (any older entry was dropped).
    ImmediatelyStale,
    /// Larger than the cache limits.
    TooLarge,
    /// An error kind added to the core after this binding version.
    Other,
}

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotCacheable => KeyError::NotCacheable.fmt(f),
            Self::MissingUri => KeyError::MissingUri.fmt(f),
            Self::Retry => Refused::Retry.fmt(f),
            Self::ImmediatelyStale => Refused::ImmediatelyStale.fmt(f),
            Self::TooLarge => Refused::TooLarge.fmt(f),
            Self::Other => f.write_str("cache error"),
        }
    }
}

impl std::error::Error for CacheError {}

impl From<Refused> for CacheError {
    fn from(r: Refused) -> Self {
        match r {
            Refused::Retry => Self::Retry,
            Refused::ImmediatelyStale => Self::ImmediatelyStale,
            Refused::TooLarge => Self::TooLarge,
            _ => Self::Other,
        }
    }
}

/// The key of `method` with its one key parameter (a list's `cursor`, a read's `uri`).
/// Throws `CacheError.notCacheable` / `.missingUri`.
#[uniffi::export]
pub fn cache_key(method: String, key_param: Option<String>) -> Result<CacheKey, CacheError> {
    let key = CoreKey::new(&method, key_param.as_deref()).map_err(|e| match e {
        KeyError::NotCacheable => CacheError::NotCacheable,
        KeyError::MissingUri => CacheError::MissingUri,
        _ => CacheError::Other,
    })?;
    Ok(match key {
        CoreKey::Discover => CacheKey::Discover,
        CoreKey::List { list, cursor } => CacheKey::List {
            list: list.into(),
            cursor: cursor.map(String::from),
        },
        CoreKey::Read { uri } => CacheKey::Read { uri: uri.into() },
    })
}

/// What makes cached results stale (docs/rules.md §3, §4, §12).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Invalidation {
    /// `notifications/resources/updated`: reads of `uri` and related URIs.
    ResourceUpdated {
        /// `params.uri`
        uri: String,
    },
    /// `notifications/resources/list_changed`: resource and template list pages.
    ResourcesListChanged,
    /// `notifications/prompts/list_changed`: prompt list pages.
    PromptsListChanged,
    /// `notifications/tools/list_changed`: tool list pages.
    ToolsListChanged,
    /// The server rejected a cursor of `list`: every page of it.
    CursorRejected {
        /// The list.
        list: ListKind,
    },
}

impl Invalidation {
    fn core(&self) -> CoreInvalidation<'_> {
        match self {
            Self::ResourceUpdated { uri } => CoreInvalidation::ResourceUpdated { uri },
            Self::ResourcesListChanged => CoreInvalidation::ResourcesListChanged,
            Self::PromptsListChanged => CoreInvalidation::PromptsListChanged,
            Self::ToolsListChanged => CoreInvalidation::ToolsListChanged,
            Self::CursorRejected { list } => CoreInvalidation::CursorRejected {
                list: (*list).into(),
            },
        }
    }
}

/// The invalidation a notification causes (`nil`: none, or `resources/updated` without uri).
#[uniffi::export]
pub fn invalidation_for_notification(method: String, uri: Option<String>) -> Option<Invalidation> {
    Some(
        match CoreInvalidation::from_notification(&method, uri.as_deref())? {
            CoreInvalidation::ResourceUpdated { uri } => {
                Invalidation::ResourceUpdated { uri: uri.into() }
            }
            CoreInvalidation::ResourcesListChanged => Invalidation::ResourcesListChanged,
            CoreInvalidation::PromptsListChanged => Invalidation::PromptsListChanged,
            CoreInvalidation::ToolsListChanged => Invalidation::ToolsListChanged,
            CoreInvalidation::CursorRejected { list } => {
                Invalidation::CursorRejected { list: list.into() }
            }
        },
    )
}

/// What `lookup` found.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CacheLookup {
    /// A fresh result this context may see: serve it.
    Fresh {
        /// The stored bytes.
        value: Vec<u8>,
    },
    /// Only a stale one: re-fetch (it MAY be served if that fails, docs/rules.md §4).
    Stale {
        /// The stored bytes.
        value: Vec<u8>,
    },
    /// Nothing usable.
    Miss,
}

/// A bounded, scope-aware cache of serialized results. `auth` is the authorization context
/// (`nil` = anonymous, its own context); private results are served only to their context.
#[derive(Debug, uniffi::Object)]
pub struct Cache {
    inner: Mutex<CoreCache>,
}

fn auth(a: Option<u64>) -> Option<AuthContext> {
    a.map(AuthContext)
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

impl Cache {
    fn lock(&self) -> MutexGuard<'_, CoreCache> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[uniffi::export]
impl Cache {
    /// An empty cache holding at most `max_entries` entries and `max_bytes` key + value bytes.
    #[uniffi::constructor]
    pub fn new(max_entries: u64, max_bytes: u64) -> Self {
        Self {
            inner: Mutex::new(CoreCache::new(CacheLimits {
                max_entries: usize::try_from(max_entries).unwrap_or(usize::MAX),
                max_bytes: usize::try_from(max_bytes).unwrap_or(usize::MAX),
            })),
        }
    }

    /// Stores `value`, received at `now_ms` with the result's `ttlMs` / `cacheScope` (`nil`
    /// when absent). `retry`: the result answers an MRTR retry. Throws `CacheError` saying
    /// why nothing was stored.
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &self,
        key: CacheKey,
        auth_context: Option<u64>,
        ttl_ms: Option<i64>,
        scope: Option<CacheScope>,
        retry: bool,
        value: Vec<u8>,
        now_ms: u64,
    ) -> Result<(), CacheError> {
        let hints = CacheHints {
            ttl_ms,
            scope: scope.map(Into::into),
        };
        let attempt = if retry {
            Attempt::Retry
        } else {
            Attempt::Original
        };
        Ok(self.lock().insert(
            &key.core(),
            auth(auth_context),
            hints,
            attempt,
            &value,
            now_ms,
        )?)
    }

    /// The fresh result for `key` that `auth_context` may see.
    pub fn get(&self, key: CacheKey, auth_context: Option<u64>, now_ms: u64) -> Option<Vec<u8>> {
        self.lock()
            .get(&key.core(), auth(auth_context), now_ms)
            .map(<[u8]>::to_vec)
    }

    /// The best result for `key` that `auth_context` may see: fresh, stale, or a miss.
    pub fn lookup(&self, key: CacheKey, auth_context: Option<u64>, now_ms: u64) -> CacheLookup {
        match self.lock().lookup(&key.core(), auth(auth_context), now_ms) {
            Lookup::Fresh(v) => CacheLookup::Fresh { value: v.to_vec() },
            Lookup::Stale(v) => CacheLookup::Stale { value: v.to_vec() },
            Lookup::Miss => CacheLookup::Miss,
        }
    }

    /// Drops every entry `event` makes stale; returns how many.
    pub fn invalidate(&self, event: Invalidation) -> u64 {
        count(self.lock().invalidate(event.core()))
    }

    /// Drops every private entry of `auth_context` (sign-out); returns how many.
    pub fn forget_context(&self, auth_context: Option<u64>) -> u64 {
        count(self.lock().forget_context(auth(auth_context)))
    }

    /// Drops every entry not fresh at `now_ms`; returns how many.
    pub fn purge_stale(&self, now_ms: u64) -> u64 {
        count(self.lock().purge_stale(now_ms))
    }

    /// Drops everything.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Entries held (fresh or stale).
    pub fn count(&self) -> u64 {
        count(self.lock().len())
    }

    /// Key + value bytes held.
    pub fn bytes(&self) -> u64 {
        count(self.lock().bytes())
    }
}
