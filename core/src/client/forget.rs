//! [`Client::forget_read`]: the host's own no-store decision for the result cache.
//!
//! The server's hints (`ttlMs`, `cacheScope`, docs/rules.md §4) decide what the cache may keep; a
//! host may keep less. A host that knows a URI is sensitive (a no-store policy) reads it with
//! [`CachePolicy::Refresh`](super::CachePolicy::Refresh) and then drops whatever the result
//! left in the cache, whatever the hints said.

use super::machine::Client;
use crate::cache::Invalidation;

impl Client {
    /// Drops every cached `resources/read` result of `uri`, and of URIs it is a
    /// sub-resource of or that are sub-resources of it (the invalidation rule of
    /// `notifications/resources/updated`, docs/rules.md §4, §12), in every authorization context.
    /// Returns how many entries were dropped (0 without a cache).
    pub fn forget_read(&mut self, uri: &str) -> usize {
        self.cache
            .as_mut()
            .map_or(0, |c| c.invalidate(Invalidation::ResourceUpdated { uri }))
    }
}
