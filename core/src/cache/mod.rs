//! A scope-aware cache for cacheable results (docs/rules.md §4, checklist §16.4).
//!
//! Pure data structure: no clock (every call takes `now_ms`), no I/O, values are opaque
//! bytes (the serialized result). The pieces:
//!
//! * [`CacheKey`]: method + the params that affect the result (table on the type).
//! * [`is_fresh`]: freshness as a pure function of (`ttlMs`, stored-at, now).
//! * [`Invalidation`]: what each notification (and a rejected cursor) drops.
//! * [`Cache`] (with `alloc`): the bounded store tying them together.
//!
//! Rules, with their source:
//!
//! * Fresh while `now < stored_at + ttlMs`; `ttlMs` 0, negative or absent is immediately
//!   stale (docs/rules.md §4).
//! * `cacheScope: "private"` results are served only to the same authorization context;
//!   `"public"` ones to anyone (docs/rules.md §4 "Caches **MUST NOT** be shared across authorization
//!   contexts"). An absent `cacheScope` (legacy servers; no default, docs/rules.md §19.10) is
//!   treated as `private`, the safe reading.
//! * Results of MRTR retries (requests carrying `inputResponses` or `requestState`) are never
//!   stored (docs/rules.md §4, §13): [`Attempt::Retry`] is refused with [`Refused::Retry`].
//! * Notifications invalidate (docs/rules.md §4, §12): see [`Invalidation`]. A rejected cursor
//!   drops every page of that list (docs/rules.md §3, §4).
//!
//! # A fixed-capacity (no-alloc) variant
//!
//! Everything but [`Cache`] is `no_std` without `alloc`: [`CacheKey`],
//! [`Invalidation::matches`], [`is_fresh`], [`uri_related`] and the eviction rule
//! (documented on [`Cache`]) are the whole policy. A no-alloc cache is `[Slot; N]` where a
//! slot holds the key tag, owner, times and an inline `[u8; B]` holding the key bytes then
//! the value; an insert whose key + value exceed `B` is refused like [`Refused::TooLarge`].
//! It is not implemented yet.

mod key;
#[cfg(feature = "alloc")]
mod store;

#[cfg(feature = "alloc")]
pub(crate) use key::is_sub_resource;
pub use key::{CacheKey, Invalidation, KeyError, ListKind, uri_related};
#[cfg(feature = "alloc")]
pub use store::{Cache, CacheLimits, Lookup};

use core::fmt;

/// `cacheScope` (docs/rules.md §4): the wire enum of the message layer, shared by the cache.
pub use crate::messages::CacheScope;

/// An authorization context: a stable identifier the host derives from the credentials a
/// request carries (e.g. a keyed hash of the access token, or a principal id). Requests with
/// no credentials use `None`, which is its own context. Two different credentials must map
/// to different values: use a keyed hash so collisions cannot be chosen by a peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AuthContext(pub u64);

/// The caching hints of a result as received (docs/rules.md §4: `ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheHints {
    /// `ttlMs`; `None` if absent (legacy server). Negative values read as 0.
    pub ttl_ms: Option<i64>,
    /// `cacheScope`; `None` if absent, read as [`CacheScope::Private`].
    pub scope: Option<CacheScope>,
}

impl CacheHints {
    /// The TTL to apply: absent or negative is 0 (docs/rules.md §4 "SHOULD assume a default of `0`",
    /// "SHOULD ignore it and treat it as `0`").
    #[must_use]
    pub const fn effective_ttl_ms(&self) -> u64 {
        match self.ttl_ms {
            Some(t) if t > 0 => t as u64,
            _ => 0,
        }
    }

    /// The scope to apply: absent is private (docs/rules.md §19.10).
    #[must_use]
    pub const fn effective_scope(&self) -> CacheScope {
        match self.scope {
            Some(s) => s,
            None => CacheScope::Private,
        }
    }
}

/// Whether the result was produced by the original request or by an MRTR retry (one that
/// carried `inputResponses` or `requestState`, docs/rules.md §13). The caller must say which: the
/// cache cannot see the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// The original request.
    Original,
    /// A retry carrying `inputResponses` and/or `requestState`: never cached.
    Retry,
}

/// Why a result was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refused {
    /// The result answers an MRTR retry: "**MUST NOT** be cached" (docs/rules.md §4).
    Retry,
    /// `ttlMs` is 0 (or absent or negative): stale on arrival. Any entry the same context
    /// held for this key is dropped, since a newer answer superseded it.
    ImmediatelyStale,
    /// Key plus value exceed the byte limit (or the entry limit is 0). Any entry the same
    /// context held for this key is dropped.
    TooLarge,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Retry => "results of retried requests are not cached",
            Self::ImmediatelyStale => "result is immediately stale (ttlMs 0)",
            Self::TooLarge => "result exceeds the cache limits",
        })
    }
}

impl core::error::Error for Refused {}

/// Whether a result stored at `stored_at_ms` with hint `ttl_ms` is fresh at `now_ms`
/// (docs/rules.md §4: "fresh while `now < t_received + ttlMs`"). A `ttl_ms` that is absent, zero
/// or negative is never fresh. A `now_ms` before `stored_at_ms` (a clock that went back) is
/// not fresh either: the safe answer.
#[must_use]
pub const fn is_fresh(ttl_ms: Option<i64>, stored_at_ms: u64, now_ms: u64) -> bool {
    let ttl = CacheHints {
        ttl_ms,
        scope: None,
    }
    .effective_ttl_ms();
    ttl > 0 && now_ms >= stored_at_ms && now_ms - stored_at_ms < ttl
}

#[cfg(test)]
mod tests;
