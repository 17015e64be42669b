//! The first-byte index of static segments (docs/matching.md §7.1): for a node and the first
//! canonical byte of a URI segment, the one static edge whose key starts with that byte, or
//! word that several do. A wide fan-out of static keys with distinct first bytes (`/repos`,
//! `/users`, `/orgs`, …) is then entered without hashing the segment: one probe on its first
//! byte, and when the edge leads to a single template, that template runs from the segment's
//! start (its literal checks the key).
//!
//! The index is a superset filter: a key is indexed under the byte its first unit decodes to,
//! so a URI segment that starts with a raw byte `c` (not `%`) can only equal keys indexed
//! under `c`. Segments that start with a triplet, and nodes whose byte is shared by several
//! keys, take the hashed path. When the index cannot hold an entry (a full fixed-capacity
//! router, or more than 2^24 nodes) it is switched off as a whole and every lookup is hashed.

use super::{EMPTY, Index, NONE};
use crate::template::error::InsertError;
use crate::template::store::{Buf, Storage};

/// The entry value when several static keys of a node share a first byte.
pub(super) const MANY: u32 = NONE - 1;
/// `Edge::first` for an empty key (not indexed: it only matches an empty segment).
pub(super) const NO_FIRST: u16 = 0x100;

/// The key of `(node, byte)`, or `None` past 2^24 nodes.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn first_key(node: u32, byte: u8) -> Option<u64> {
    (node < 1 << 24).then(|| (u64::from(node) << 8) | u64::from(byte))
}

/// The first slot to probe for `key` in a table of `len` slots.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn first_home(key: u64, len: usize) -> usize {
    // Every table has a power-of-two length (`table_len`).
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & len.wrapping_sub(1)
}

/// The length of a fixed table that may hold `n` slots: a power of two (or zero).
pub(super) const fn table_len(n: usize) -> usize {
    match n.checked_ilog2() {
        Some(k) => 1 << k,
        None => 0,
    }
}

/// What the first-byte index says about a segment starting with a byte.
pub(super) enum First {
    /// No static key of the node starts with it.
    Absent,
    /// Exactly this edge's key does.
    One(u32),
    /// Ask the hashed table.
    Hashed,
}

impl<S: Storage> Index<S> {
    /// The static edge of `node` whose key starts with the canonical byte `byte`.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(super) fn first(&self, node: u32, byte: u8) -> First {
        let table = self.firsts.items();
        // Compact targets build no index: every lookup is hashed, as when it is switched off.
        let (true, Some(key)) = (crate::WIDE && self.firsts_ok, first_key(node, byte)) else {
            return First::Hashed;
        };
        let len = table.len();
        let mut i = first_home(key, len);
        for _ in 0..len {
            let Some(&slot) = table.get(i) else {
                break;
            };
            if slot == EMPTY {
                return First::Absent;
            }
            if slot >> 32 == key {
                return match slot as u32 {
                    MANY => First::Hashed,
                    e => First::One(e),
                };
            }
            i = if i + 1 == len { 0 } else { i + 1 };
        }
        First::Hashed
    }

    /// Records the static edge `id` of `node` whose key starts with `first`.
    pub(super) fn first_insert(
        &mut self,
        node: u32,
        first: u16,
        id: u32,
    ) -> Result<(), InsertError> {
        let Ok(byte) = u8::try_from(first) else {
            return Ok(()); // an empty key: never looked up
        };
        if !crate::WIDE || !self.firsts_ok {
            return Ok(());
        }
        let Some(key) = first_key(node, byte) else {
            self.firsts_ok = false;
            return Ok(());
        };
        if self.first_place(key, id) {
            return Ok(());
        }
        // A new entry that does not fit: grow a growable table, give up on a fixed one.
        if self.firsts.capacity_limit().is_some() {
            self.firsts_ok = false;
            return Ok(());
        }
        let new_len = (self.firsts.len() * 2).max(16);
        self.firsts.reset(new_len, EMPTY);
        self.firsts_used = 0;
        for k in 0..self.edges.len() as u32 {
            let e = self.edge(k);
            if k != id
                && e.kind == super::Kind::Static
                && let Ok(b) = u8::try_from(e.first)
                && let Some(key) = first_key(e.parent, b)
            {
                self.first_place(key, k);
            }
        }
        if !self.first_place(key, id) {
            self.firsts_ok = false;
        }
        Ok(())
    }

    /// Adds `id` under `key` (or marks the entry shared); `false` when a new entry would
    /// overfill the table (at most half full when growable, three quarters when fixed).
    fn first_place(&mut self, key: u64, id: u32) -> bool {
        let max = match self.firsts.capacity_limit() {
            Some(_) => self.firsts.len() * 3 / 4,
            None => self.firsts.len() / 2,
        };
        let table = self.firsts.items_mut();
        let len = table.len();
        if len == 0 {
            return false;
        }
        let mut i = first_home(key, len);
        for _ in 0..len {
            let Some(slot) = table.get_mut(i) else {
                return false;
            };
            if *slot == EMPTY {
                if self.firsts_used + 1 > max {
                    return false;
                }
                *slot = (key << 32) | u64::from(id);
                self.firsts_used += 1;
                return true;
            }
            if *slot >> 32 == key {
                *slot = (key << 32) | u64::from(MANY);
                return true;
            }
            i = if i + 1 == len { 0 } else { i + 1 };
        }
        false
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::super::Index;
    use crate::template::OwnedTemplate;
    use crate::template::captures::Slot;
    use crate::template::compile::MatchOptions;
    use crate::template::store::VecStorage;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The index only shortcuts: with it switched off (every static segment hashed), every
    /// URI routes to the same template with the same captures.
    #[test]
    fn switched_off_routes_the_same() {
        let mut templates: Vec<String> = (0..40).map(|i| format!("/s{i}/{{a}}")).collect();
        templates.extend(
            [
                "/repos/{o}/{r}",
                "/users/{u}",
                "/users/{u}/keys",
                "/u{x}/y",
                "/~me/{a}",
                "/caf%C3%A9/{a}",
                "/a:b/{a}",
                "/r/x",
                "/re/{x}",
            ]
            .map(String::from),
        );
        let mut index = Index::<VecStorage>::new(MatchOptions::new());
        let mut sources: Vec<String> = Vec::new();
        for t in &templates {
            let parsed = OwnedTemplate::parse(t).unwrap();
            if index.insert(&sources, parsed.as_ref()).is_ok() {
                sources.push(t.clone());
            }
        }
        let uris = [
            "/repos/acme/web",
            "/%72epos/acme/web",
            "/users/ana",
            "/users/ana/keys",
            "/uz/y",
            "/%7Eme/1",
            "/~me/1",
            "/café/1",
            "/caf%c3%a9/1",
            "/a%3Ab/1",
            "/a:b/1",
            "/r/x",
            "/re/1",
            "/s7/1",
            "/s39/x",
            "/s40/x",
            "/q/1",
            "/",
            "",
            "/repos",
            "/repos/",
        ];
        for uri in uris {
            let mut on = [Slot::default(); 8];
            let mut off = [Slot::default(); 8];
            let a = index.route(&sources, uri, &mut on);
            index.firsts_ok = false;
            let b = index.route(&sources, uri, &mut off);
            index.firsts_ok = true;
            assert_eq!(a, b, "{uri}");
            if a.is_some() {
                assert_eq!(on, off, "{uri}");
            }
        }
    }
}
