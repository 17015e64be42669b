//! [`VecMap`]: the server's one map type, keys in a sorted `Vec` with binary search and
//! values in a parallel `Vec` (the search is compiled once per key type, not per key/value
//! pair). It replaces `BTreeMap`/`BTreeSet` in the server tables: the same ordered API
//! the tables use (lookup, insert, remove, in-order iteration, iteration from a key), in a
//! fraction of the code per key/value type (a `BTreeMap` instance costs 2–3 KiB of flash on
//! a microcontroller; the server had nine).
//!
//! Lookups are O(log n). Inserting or removing moves the keys and values after the position
//! (O(n) `memmove`): appending a key greater than all others (the server's serial handles,
//! resources registered in order) moves nothing. Large values are boxed by their tables so
//! the moved entries stay small.

use alloc::vec::Vec;
use core::borrow::Borrow;

/// A map ordered by key: `keys` sorted and unique, `vals[i]` the value of `keys[i]`.
pub(crate) struct VecMap<K, V> {
    keys: Vec<K>,
    vals: Vec<V>,
}

/// A set ordered by key.
pub(crate) type VecSet<K> = VecMap<K, ()>;

impl<K: core::fmt::Debug, V: core::fmt::Debug> core::fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.keys.iter().zip(self.vals.iter()))
            .finish()
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self {
            keys: Vec::new(),
            vals: Vec::new(),
        }
    }
}

/// `Ok(position)` of `key` in the sorted `keys`, or `Err(position)` where it would go.
fn search<K: Borrow<Q>, Q: Ord + ?Sized>(keys: &[K], key: &Q) -> Result<usize, usize> {
    keys.binary_search_by(|k| k.borrow().cmp(key))
}

impl<K: Ord, V> VecMap<K, V> {
    /// An empty map.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn new() -> Self {
        Self::default()
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub(crate) fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        search(&self.keys, key).is_ok()
    }

    pub(crate) fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.vals.get(search(&self.keys, key).ok()?)
    }

    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.vals.get_mut(search(&self.keys, key).ok()?)
    }

    /// Inserts `value` under `key`; returns the value it replaced.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match search(&self.keys, &key) {
            Ok(i) => self.vals.get_mut(i).map(|v| core::mem::replace(v, value)),
            Err(i) => {
                self.keys.insert(i, key);
                self.vals.insert(i, value);
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
        let i = match search(&self.keys, &key) {
            Ok(i) => i,
            Err(i) => {
                self.keys.insert(i, key);
                self.vals.insert(i, make());
                i
            }
        };
        self.vals.get_mut(i)
    }

    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let i = search(&self.keys, key).ok()?;
        self.keys.remove(i);
        Some(self.vals.remove(i))
    }

    /// The entry with the least key.
    pub(crate) fn first_key_value(&self) -> Option<(&K, &V)> {
        self.keys.first().zip(self.vals.first())
    }

    /// Entries in key order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + '_ {
        self.keys.iter().zip(self.vals.iter())
    }

    /// Entries in key order, values mutable.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> + '_ {
        self.keys.iter().zip(self.vals.iter_mut())
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
        let start = match search(&self.keys, from) {
            Ok(i) if after => i + 1,
            Ok(i) | Err(i) => i,
        };
        self.iter().skip(start)
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.keys.iter()
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.vals.iter()
    }

    /// Keeps the entries for which `keep` is true.
    #[cfg_attr(not(feature = "legacy"), allow(dead_code))]
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        let mut kept = 0;
        for i in 0..self.keys.len() {
            if let (Some(k), Some(v)) = (self.keys.get(i), self.vals.get_mut(i))
                && keep(k, v)
            {
                self.keys.swap(kept, i);
                self.vals.swap(kept, i);
                kept += 1;
            }
        }
        self.keys.truncate(kept);
        self.vals.truncate(kept);
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
    type IntoIter = core::iter::Zip<core::slice::Iter<'a, K>, core::slice::Iter<'a, V>>;

    fn into_iter(self) -> Self::IntoIter {
        self.keys.iter().zip(self.vals.iter())
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
