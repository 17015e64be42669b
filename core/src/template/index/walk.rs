//! Routing a URI through the index (docs/matching.md §7.1): a depth-first walk over URI
//! segments that follows a lone way forward in a loop, recurses only where a node offers an
//! alternative to come back to, and hands a subtree holding one template to the engine.

use super::firsts::First;
use super::{Index, NONE, Node, src_of};
use crate::template::captures::{self, Shape, Slot};
use crate::template::compile::Step;
use crate::template::engine;
use crate::template::norm;
use crate::template::store::{Buf, Storage};

/// Scans the URI segment at `pos`: its end, and whether it can be a `{var}` value (one or
/// more unreserved or pct-encoded bytes). One pass: the `{var}` class run usually ends the
/// segment.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn scan(b: &[u8], pos: usize) -> (usize, bool) {
    if let Some(end) = norm::run(b, pos, norm::C_U) {
        match b.get(end) {
            None => return (end, end > pos),
            Some(&c) if norm::bits(c) & norm::STOP != 0 => return (end, end > pos),
            _ => {}
        }
    }
    let rest = b.get(pos..).unwrap_or_default();
    let k = rest
        .iter()
        .position(|&c| norm::bits(c) & norm::STOP != 0)
        .unwrap_or(rest.len());
    (pos + k, false)
}

/// The matching state threaded through a walk.
struct Walk<'a, 'u, A> {
    sources: &'a [A],
    uri: &'u str,
    slots: &'a mut [Slot],
}

impl<S: Storage> Index<S> {
    /// Routes `uri`; returns the matching route with its captures in `slots`.
    #[inline]
    pub(crate) fn route<A: AsRef<str>>(
        &self,
        sources: &[A],
        uri: &str,
        slots: &mut [Slot],
    ) -> Option<u32> {
        let mut w = Walk {
            sources,
            uri,
            slots,
        };
        self.walk(&mut w, 0, 0)
    }

    /// Depth-first walk from `node` at URI segment `pos`. Recurses only where a node offers
    /// an alternative to come back to; a lone way forward is followed in the loop.
    fn walk<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        mut node: u32,
        mut pos: usize,
    ) -> Option<u32> {
        let none = (NONE, "");
        loop {
            let b = w.uri.as_bytes();
            let n = self.nodes.items().get(node as usize)?;
            if n.count == 1 {
                return self.run_single(w, n, pos);
            }
            if n.wild == NONE && n.patterns == NONE && n.tails == NONE {
                // Static children only: no alternative to come back to.
                let (child, end) = match n.statics {
                    0 => return None,
                    1 => {
                        let e = self.edge_ref(n.one)?;
                        let end = if e.ilen == 0 {
                            pos // an empty key (`scheme://`, a leading `/`)
                        } else {
                            norm::match_forward(self.key(w.sources, none, e), b, pos)?
                        };
                        match b.get(end) {
                            Some(&c) if norm::bits(c) & norm::STOP == 0 => return None,
                            _ => (e.child, end),
                        }
                    }
                    _ => {
                        let first = match b.get(pos) {
                            Some(&c) if c != b'%' && norm::bits(c) & norm::STOP == 0 => {
                                self.first(node, c)
                            }
                            _ => First::Hashed,
                        };
                        match first {
                            First::Absent => return None,
                            First::One(e) => {
                                let e = self.edge_ref(e)?;
                                if e.lone {
                                    // That template alone: its literal checks the key.
                                    return self.run_at(w, e.route, e.seg_step, e.seg_off, pos);
                                }
                                let end =
                                    norm::match_forward(self.key(w.sources, none, e), b, pos)?;
                                match b.get(end) {
                                    Some(&c) if norm::bits(c) & norm::STOP == 0 => return None,
                                    _ => (e.child, end),
                                }
                            }
                            First::Hashed => {
                                let (end, hash) = norm::scan_hash(b, pos);
                                let seg = b.get(pos..end)?;
                                (self.find_hashed(w.sources, none, node, seg, hash)?, end)
                            }
                        }
                    }
                };
                if b.get(end) != Some(&b'/') {
                    return self.terminals(w, child, end);
                }
                node = child;
                pos = end + 1;
                continue;
            }
            let (end, wild) = scan(b, pos);
            let last = b.get(end) != Some(&b'/');
            let seg = b.get(pos..end)?;
            let wild = wild && n.wild != NONE;
            if n.statics > 0
                && let Some(child) = self.find_static(w.sources, none, node, seg)
                && let Some(r) = self.enter(w, child, end, last)
            {
                return Some(r);
            }
            let mut e = n.patterns;
            while let Some(edge) = self.edge_ref(e) {
                let src = src_of(w.sources, none, edge.route);
                let steps = self.arena(edge.from, edge.to);
                if engine::run_seq(src, steps, w.uri, pos, w.slots) == Some(end)
                    && let Some(r) = self.enter(w, edge.child, end, last)
                {
                    return Some(r);
                }
                e = edge.next;
            }
            if wild {
                captures::set(w.slots, n.slot_base, pos, end, Shape::One);
                if !last && n.tails == NONE {
                    node = n.wild;
                    pos = end + 1;
                    continue;
                }
                if let Some(r) = self.enter(w, n.wild, end, last) {
                    return Some(r);
                }
            }
            let mut e = n.tails;
            while let Some(edge) = self.edge_ref(e) {
                let src = src_of(w.sources, none, edge.route);
                let steps = self.arena(edge.from, edge.to);
                if let Some(p) = engine::run_seq(src, steps, w.uri, pos, w.slots)
                    && self.accept(src, edge.route, w.uri, p, w.slots)
                {
                    return Some(edge.route);
                }
                e = edge.next;
            }
            return None;
        }
    }

    /// The only template below `n`: runs the rest of its path from `pos`, then its query
    /// and fragment.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn run_single<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        n: &Node,
        pos: usize,
    ) -> Option<u32> {
        self.run_at(w, n.single, n.single_step, n.single_off, pos)
    }

    /// Runs route `r` from URI position `pos`, its program standing at `(step, off)` (see
    /// `Node::single_step`; `NONE` when its path has ended), then its query and fragment.
    #[inline(never)]
    fn run_at<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        r: u32,
        step: u32,
        off: u32,
        pos: usize,
    ) -> Option<u32> {
        if step == NONE {
            return None;
        }
        let info = self.routes.items().get(r as usize)?;
        let src = src_of(w.sources, (NONE, ""), r);
        let b = w.uri.as_bytes();
        let p0 = info.prog as usize;
        let p = if info.layout.simple_path {
            let end = p0 + usize::from(info.layout.simple_end);
            let ops = self.steps.items().get(step as usize..end)?;
            engine::run_simple(src, ops, b, pos, off, w.slots)?
        } else {
            let end = p0 + usize::from(info.layout.path_end);
            let mut rest = self.steps.items().get(step as usize..end)?;
            let mut p = pos;
            if off > 0
                && let Some((Step::Lit(span), tail)) = rest.split_first()
            {
                let from = (span.start + off) as usize;
                p = norm::match_forward(src.as_bytes().get(from..span.end as usize)?, b, p)?;
                rest = tail;
            }
            engine::run_seq(src, rest, w.uri, p, w.slots)?
        };
        self.accept(src, r, w.uri, p, w.slots).then_some(r)
    }

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn enter<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        child: u32,
        end: usize,
        last: bool,
    ) -> Option<u32> {
        if last {
            self.terminals(w, child, end)
        } else {
            self.walk(w, child, end + 1)
        }
    }

    /// The templates whose path ends at `node`, the URI's path having ended at `end`.
    fn terminals<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        node: u32,
        end: usize,
    ) -> Option<u32> {
        let mut e = self.nodes.items().get(node as usize)?.terms;
        while let Some(edge) = self.edge_ref(e) {
            if edge.plain && end == w.uri.len() {
                return Some(edge.route); // nothing follows the path and nothing is required
            }
            let src = src_of(w.sources, (NONE, ""), edge.route);
            if self.accept(src, edge.route, w.uri, end, w.slots) {
                return Some(edge.route);
            }
            e = edge.next;
        }
        None
    }

    /// Whether route `r`, whose path ended at `pos`, accepts the rest of the URI.
    #[inline]
    fn accept(&self, src: &str, r: u32, uri: &str, pos: usize, slots: &mut [Slot]) -> bool {
        let Some(info) = self.routes.items().get(r as usize) else {
            return false;
        };
        if info.layout.bare && pos == uri.len() {
            return true;
        }
        let prog = self.program(info);
        engine::match_tail_sections(src, prog, &info.layout, uri, pos, slots).is_some()
            && (!info.layout.prefixed || engine::prefixes_hold(prog, uri, slots))
    }
}
