//! [`VecMap`]: the server's one map type, a `Vec` of entries sorted by key with binary
//! search. It replaces `BTreeMap`/`BTreeSet` in the server tables: the same ordered API
//! the tables use (lookup, insert, remove, in-order iteration, iteration from a key), in a
//! fraction of the code per key/value type (a `BTreeMap` instance costs 2–3 KiB of flash on
//! a microcontroller; the server had nine).
//!
//! Lookups are O(log n). Inserting or removing moves the entries after the position
//! (O(n) `memmove`): appending a key greater than all others (the server's serial handles,
//! resources registered in order) moves nothing. Large values are boxed by their tables so
//! the moved entries stay small.

use alloc::vec::Vec;
use core::borrow::Borrow;

/// A map ordered by key, stored as a sorted `Vec<(K, V)>`.
pub(crate) struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

/// A set ordered by key.
pub(crate) type VecSet<K> = VecMap<K, ()>;

impl<K: core::fmt::Debug, V: core::fmt::Debug> core::fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// `Ok(position)` of `key`, or `Err(position)` where it would go.
    fn search<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.search(key).is_ok()
    }

    pub(crate) fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let i = self.search(key).ok()?;
        self.entries.get(i).map(|(_, v)| v)
    }

    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let i = self.search(key).ok()?;
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    /// Inserts `value` under `key`; returns the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.search(&key) {
            Ok(i) => self
                .entries
                .get_mut(i)
                .map(|(_, v)| core::mem::replace(v, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// The value under `key`, inserted with `make` first when absent (always `Some`).
    pub(crate) fn get_or_insert_with(
        &mut self,
        key: K,
        make: impl FnOnce() -> V,
    ) -> Option<&mut V> {
        let i = match self.search(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let i = self.search(key).ok()?;
        Some(self.entries.remove(i).1)
    }

    /// The entry with the least key.
    pub(crate) fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// Entries in key order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + '_ {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Entries in key order, values mutable.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> + '_ {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// Entries whose key is at least `from` (`after`: greater than `from`), in key order.
    pub(crate) fn range_from<Q: Ord + ?Sized>(
        &self,
        from: &Q,
        after: bool,
    ) -> impl Iterator<Item = (&K, &V)> + '_
    where
        K: Borrow<Q>,
    {
        let start = match self.search(from) {
            Ok(i) if after => i + 1,
            Ok(i) | Err(i) => i,
        };
        self.entries
            .get(start..)
            .unwrap_or_default()
            .iter()
            .map(|(k, v)| (k, v))
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Keeps the entries for which `keep` is true.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord> VecMap<K, ()> {
    /// Adds `key`; true when it was not there.
    pub(crate) fn add(&mut self, key: K) -> bool {
        self.insert(key, ()).is_none()
    }

    /// Removes `key`; true when it was there.
    pub(crate) fn take<Q: Ord + ?Sized>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.remove(key).is_some()
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter =
        core::iter::Map<core::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    #[test]
    fn keeps_keys_sorted_and_unique() {
        let mut m: VecMap<String, u32> = VecMap::new();
        for (i, k) in ["m", "c", "x", "a", "m"].into_iter().enumerate() {
            m.insert(String::from(k), i as u32);
        }
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "c", "m", "x"]);
        assert_eq!(m.get("m"), Some(&4));
        assert_eq!(m.remove("c"), Some(1));
        assert_eq!(m.remove("c"), None);
        assert!(!m.contains_key("c"));
        *m.get_or_insert_with(String::from("b"), || 0).unwrap() += 7;
        *m.get_or_insert_with(String::from("b"), || 0).unwrap() += 1;
        assert_eq!(m.get("b"), Some(&8));
        let from: Vec<&str> = m.range_from("b", true).map(|(k, _)| k.as_str()).collect();
        assert_eq!(from, ["m", "x"]);
        let from: Vec<&str> = m.range_from("c", false).map(|(k, _)| k.as_str()).collect();
        assert_eq!(from, ["m", "x"]);
        m.retain(|k, _| k != "m");
        assert_eq!(m.first_key_value().map(|(k, _)| k.as_str()), Some("a"));
        assert_eq!(m.len(), 3);
    }

    #[test]
    fn sets_add_and_take() {
        let mut s: VecSet<u64> = VecSet::new();
        assert!(s.add(3));
        assert!(!s.add(3));
        assert!(s.contains_key(&3));
        assert!(s.take(&3));
        assert!(!s.take(&3));
        assert!(s.is_empty());
    }
}
