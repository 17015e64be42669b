//! Static segments (docs/matching.md §7.1): keys compared after normalisation, found through
//! an open-addressing table keyed by the parent node and the hash of the key's canonical
//! units (so `~` and `%7E` land together). Short keys are copied into their edge.

use super::firsts::NO_FIRST;
use super::{EMPTY, Edge, Index, Kind, NO_INLINE, NONE, src_of};
use crate::template::error::InsertError;
use crate::template::norm;
use crate::template::parse::Span;
use crate::template::store::{Buf, Storage};

/// The table hash of a static key under `parent`.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn table_hash(hash: u32, parent: u32) -> u32 {
    let h = (hash ^ parent.wrapping_mul(0x9E37_79B9)).wrapping_mul(0x85EB_CA6B);
    h ^ (h >> 15)
}

/// The first slot to probe for a table hash.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn home(th: u32, len: usize) -> usize {
    ((u64::from(th) * len as u64) >> 32) as usize
}

impl<S: Storage> Index<S> {
    /// The key text of a static edge.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(super) fn key<'s, A: AsRef<str>>(
        &'s self,
        sources: &'s [A],
        new: (u32, &'s str),
        e: &'s Edge,
    ) -> &'s [u8] {
        if e.ilen != NO_INLINE {
            return e.ikey.get(..usize::from(e.ilen)).unwrap_or_default();
        }
        let src = src_of(sources, new, e.route).as_bytes();
        src.get(e.key.start as usize..e.key.end as usize)
            .unwrap_or_default()
    }

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(super) fn key_eq<A: AsRef<str>>(
        &self,
        sources: &[A],
        new: (u32, &str),
        e: &Edge,
        seg: &[u8],
    ) -> bool {
        let key = self.key(sources, new, e);
        norm::eq_same_len(key, seg)
            || (!e.plain || !norm::is_plain(seg)) && norm::units_eq(key, seg)
    }

    /// The child of `node` for the static segment `seg`.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(super) fn find_static<A: AsRef<str>>(
        &self,
        sources: &[A],
        new: (u32, &str),
        node: u32,
        seg: &[u8],
    ) -> Option<u32> {
        let n = self.node(node);
        match n.statics {
            0 => None,
            1 => {
                let e = self.edge_ref(n.one)?;
                self.key_eq(sources, new, e, seg).then_some(e.child)
            }
            _ => self.find_hashed(sources, new, node, seg, norm::hash(seg)),
        }
    }

    #[inline]
    pub(super) fn find_hashed<A: AsRef<str>>(
        &self,
        sources: &[A],
        new: (u32, &str),
        node: u32,
        seg: &[u8],
        hash: u32,
    ) -> Option<u32> {
        let table = self.table.items();
        let th = table_hash(hash, node);
        let mut i = home(th, table.len());
        for _ in 0..table.len() {
            let slot = *table.get(i)?;
            if slot == EMPTY {
                return None;
            }
            if (slot >> 32) as u32 == th
                && let Some(e) = self.edge_ref(slot as u32)
                && e.parent == node
                && self.key_eq(sources, new, e, seg)
            {
                return Some(e.child);
            }
            i = if i + 1 == table.len() { 0 } else { i + 1 };
        }
        None
    }

    pub(super) fn add_static(
        &mut self,
        parent: u32,
        route: u32,
        key: Span,
        text: &[u8],
        at: (usize, u32),
    ) -> Result<u32, InsertError> {
        let plain = norm::is_plain(text);
        let first = norm::unit_at(text, 0).map_or(NO_FIRST, |(u, _)| u16::from(u.byte));
        let hash = norm::hash(text);
        let child = self.add_node(parent, 0)?;
        let mut ikey = [0u8; 16];
        let ilen = match ikey.get_mut(..text.len()) {
            Some(dst) => {
                dst.copy_from_slice(text);
                text.len() as u8
            }
            None => NO_INLINE,
        };
        let edge = Edge {
            kind: Kind::Static,
            plain,
            parent,
            child,
            next: NONE,
            route,
            key,
            ikey,
            ilen,
            hash,
            first,
            seg_step: at.0 as u32,
            seg_off: at.1,
            ..Edge::default()
        };
        let id = self.push_edge(edge)?;
        self.node_mut(child)
            .ok_or(InsertError::CapacityExceeded)?
            .via = id;
        self.table_insert(id)?;
        self.first_insert(parent, first, id)?;
        let n = self.node_mut(parent).ok_or(InsertError::CapacityExceeded)?;
        n.statics += 1;
        if n.statics == 1 {
            n.one = id;
        }
        Ok(child)
    }

    pub(super) fn table_insert(&mut self, id: u32) -> Result<(), InsertError> {
        let len = self.table.len();
        // A growable table stays at most half full (short probe runs); a fixed one may fill
        // to three quarters.
        let full = match self.table.capacity_limit() {
            Some(_) => (self.statics + 1) * 4 > len * 3,
            None => (self.statics + 1) * 2 > len,
        };
        if full {
            if self.table.capacity_limit().is_some() {
                return Err(InsertError::CapacityExceeded);
            }
            let new_len = (len * 2).max(16);
            self.table.reset(new_len, EMPTY);
            self.statics = 0;
            for k in 0..self.edges.len() as u32 {
                if k != id && self.edge(k).kind == Kind::Static {
                    self.table_place(k);
                }
            }
        }
        self.table_place(id);
        Ok(())
    }

    pub(super) fn table_place(&mut self, id: u32) {
        let e = self.edge(id);
        let th = table_hash(e.hash, e.parent);
        let table = self.table.items_mut();
        let len = table.len();
        let mut i = home(th, len);
        for _ in 0..len {
            if let Some(slot) = table.get_mut(i)
                && *slot == EMPTY
            {
                *slot = (u64::from(th) << 32) | u64::from(id);
                self.statics += 1;
                return;
            }
            i = if i + 1 == len { 0 } else { i + 1 };
        }
    }
}
