//! The bounded, owned-bytes result store (needs `alloc`).

use alloc::vec::Vec;

use super::key::{CacheKey, Invalidation, ListKind};
use super::{Attempt, AuthContext, CacheHints, CacheScope, Refused, is_fresh};

/// Limits of a [`Cache`]. Bytes count the key bytes (cursor or URI) plus the value bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLimits {
    /// At most this many entries.
    pub max_entries: usize,
    /// At most this many key + value bytes in total.
    pub max_bytes: usize,
}

impl Default for CacheLimits {
    /// 256 entries, 4 MiB: the client machine's default cache
    /// ([`ClientConfig::new`](crate::client::ClientConfig::new)), and what bindings offer
    /// when a host gives no limits.
    fn default() -> Self {
        Self {
            max_entries: 256,
            max_bytes: 4 << 20,
        }
    }
}

/// What [`Cache::lookup`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup<'c> {
    /// A fresh result for this key and context: serve it.
    Fresh(&'c [u8]),
    /// Only a stale one: re-fetch; a client MAY serve it if re-fetching fails (docs/rules.md §4).
    Stale(&'c [u8]),
    /// Nothing usable for this key and context.
    Miss,
}

/// Who may be served an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Public,
    Private(Option<AuthContext>),
}

impl Owner {
    fn serves(self, auth: Option<AuthContext>) -> bool {
        match self {
            Self::Public => true,
            Self::Private(owner) => owner == auth,
        }
    }
}

/// The key without its borrowed bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Discover,
    List(ListKind, bool),
    Read,
}

#[derive(Debug)]
struct Entry {
    tag: Tag,
    owner: Owner,
    stored_at: u64,
    ttl: i64,
    /// Insertion sequence number: newer wins ties.
    seq: u64,
    /// Use sequence number for least-recently-used eviction.
    used: u64,
    key_len: usize,
    /// Key bytes (cursor or URI) followed by the value.
    data: Vec<u8>,
}

impl Entry {
    fn key(&self) -> CacheKey<'_> {
        let bytes = self.data.get(..self.key_len).unwrap_or(&[]);
        // Stored from a `&str`, so always UTF-8.
        let text = core::str::from_utf8(bytes).unwrap_or("");
        match self.tag {
            Tag::Discover => CacheKey::Discover,
            Tag::List(list, has) => CacheKey::List {
                list,
                cursor: has.then_some(text),
            },
            Tag::Read => CacheKey::Read { uri: text },
        }
    }

    fn value(&self) -> &[u8] {
        self.data.get(self.key_len..).unwrap_or(&[])
    }

    fn fresh(&self, now_ms: u64) -> bool {
        is_fresh(Some(self.ttl), self.stored_at, now_ms)
    }
}

fn split<'k>(key: &CacheKey<'k>) -> (Tag, &'k [u8]) {
    match *key {
        CacheKey::Discover => (Tag::Discover, &[]),
        CacheKey::List { list, cursor } => (
            Tag::List(list, cursor.is_some()),
            cursor.unwrap_or("").as_bytes(),
        ),
        CacheKey::Read { uri } => (Tag::Read, uri.as_bytes()),
    }
}

/// A bounded cache of serialized results, keyed by [`CacheKey`] and scoped by
/// authorization context (docs/rules.md §4).
///
/// * **Storing**: [`Cache::insert`] with the result's [`CacheHints`]. A `public` result is
///   stored once for everyone; a `private` one per authorization context. A new result
///   replaces what its context held for the key: its private entry, and the public entry
///   too if the new result is public.
/// * **Serving**: [`Cache::get`] / [`Cache::lookup`] consider the entries for the key that
///   this context may see (its own private entry and the public one) and return the
///   fresher, then the newer. A `private` entry is never returned to another context.
/// * **Eviction**, when an insert would exceed [`CacheLimits`]: first entries that are no
///   longer fresh, then the least recently used (stored or served); among equals, the
///   oldest insert. Stale entries stay until evicted or invalidated so that
///   [`Lookup::Stale`] can offer them.
///
/// Lookups are linear scans over at most `max_entries` entries: meant for the hundreds of
/// entries a client holds, not for a shared proxy.
#[derive(Debug)]
pub struct Cache {
    entries: Vec<Entry>,
    limits: CacheLimits,
    bytes: usize,
    clock: u64,
}

impl Cache {
    /// An empty cache with these limits.
    #[must_use]
    pub fn new(limits: CacheLimits) -> Self {
        Self {
            entries: Vec::new(),
            limits,
            bytes: 0,
            clock: 0,
        }
    }

    /// Number of entries (fresh or stale).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Key + value bytes held.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Stores `value`, the result of the request `key` made with `auth`, received at
    /// `now_ms` with `hints`.
    ///
    /// # Errors
    /// [`Refused`] says why nothing was stored: an MRTR retry, a TTL of 0, or too large.
    pub fn insert(
        &mut self,
        key: &CacheKey<'_>,
        auth: Option<AuthContext>,
        hints: CacheHints,
        attempt: Attempt,
        value: &[u8],
        now_ms: u64,
    ) -> Result<(), Refused> {
        if attempt == Attempt::Retry {
            return Err(Refused::Retry);
        }
        let owner = match hints.effective_scope() {
            CacheScope::Public => Owner::Public,
            CacheScope::Private => Owner::Private(auth),
        };
        let (tag, key_bytes) = split(key);
        // The new answer supersedes what this context held for the key (its private entry,
        // and the public one if the new answer is public), whether or not it is stored.
        let mine = Owner::Private(auth);
        self.remove_where(|e| {
            (e.owner == owner || e.owner == mine) && e.tag == tag && e.key() == *key
        });
        let ttl = hints.effective_ttl_ms();
        if ttl == 0 {
            return Err(Refused::ImmediatelyStale);
        }
        let size = key_bytes.len().saturating_add(value.len());
        if size > self.limits.max_bytes || self.limits.max_entries == 0 {
            return Err(Refused::TooLarge);
        }
        while self.entries.len() >= self.limits.max_entries
            || self.bytes.saturating_add(size) > self.limits.max_bytes
        {
            if !self.evict_one(now_ms) {
                return Err(Refused::TooLarge);
            }
        }
        let mut data = Vec::with_capacity(size);
        data.extend_from_slice(key_bytes);
        data.extend_from_slice(value);
        self.clock += 1;
        self.entries.push(Entry {
            tag,
            owner,
            stored_at: now_ms,
            ttl: i64::try_from(ttl).unwrap_or(i64::MAX),
            seq: self.clock,
            used: self.clock,
            key_len: key_bytes.len(),
            data,
        });
        self.bytes += size;
        Ok(())
    }

    /// The fresh result for `key` that `auth` may see, if any.
    pub fn get(
        &mut self,
        key: &CacheKey<'_>,
        auth: Option<AuthContext>,
        now_ms: u64,
    ) -> Option<&[u8]> {
        match self.lookup(key, auth, now_ms) {
            Lookup::Fresh(v) => Some(v),
            Lookup::Stale(_) | Lookup::Miss => None,
        }
    }

    /// The best result for `key` that `auth` may see: fresh, stale, or none.
    pub fn lookup(
        &mut self,
        key: &CacheKey<'_>,
        auth: Option<AuthContext>,
        now_ms: u64,
    ) -> Lookup<'_> {
        let (tag, _) = split(key);
        let best = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.tag == tag && e.owner.serves(auth) && e.key() == *key)
            .max_by_key(|(_, e)| (e.fresh(now_ms), e.stored_at, e.seq))
            .map(|(i, _)| i);
        let Some(i) = best else { return Lookup::Miss };
        self.clock += 1;
        let clock = self.clock;
        match self.entries.get_mut(i) {
            Some(e) => {
                e.used = clock;
                if e.fresh(now_ms) {
                    Lookup::Fresh(e.value())
                } else {
                    Lookup::Stale(e.value())
                }
            }
            None => Lookup::Miss,
        }
    }

    /// Drops every entry `event` makes stale; returns how many.
    pub fn invalidate(&mut self, event: Invalidation<'_>) -> usize {
        self.remove_where(|e| event.matches(&e.key()))
    }

    /// Drops every private entry of `auth` (e.g. on sign-out or token change); returns how
    /// many.
    pub fn forget_context(&mut self, auth: Option<AuthContext>) -> usize {
        self.remove_where(|e| e.owner == Owner::Private(auth))
    }

    /// Drops every entry that is not fresh at `now_ms`; returns how many.
    pub fn purge_stale(&mut self, now_ms: u64) -> usize {
        self.remove_where(|e| !e.fresh(now_ms))
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    fn remove_where(&mut self, mut pred: impl FnMut(&Entry) -> bool) -> usize {
        let before = self.entries.len();
        let mut freed = 0usize;
        self.entries.retain(|e| {
            let drop = pred(e);
            if drop {
                freed += e.data.len();
            }
            !drop
        });
        self.bytes -= freed;
        before - self.entries.len()
    }

    /// Evicts one entry by the documented rule; `false` if the cache is empty.
    fn evict_one(&mut self, now_ms: u64) -> bool {
        let victim = self
            .entries
            .iter()
            .enumerate()
            .min_by_key(|(_, e)| (e.fresh(now_ms), e.used, e.seq))
            .map(|(i, _)| i);
        match victim {
            Some(i) => {
                let e = self.entries.swap_remove(i);
                self.bytes -= e.data.len();
                true
            }
            None => false,
        }
    }
}
