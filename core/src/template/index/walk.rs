//! Routing a URI through the index (docs/matching.md §7.1): a depth-first walk over URI
//! segments that follows a lone way forward in a loop, recurses only where a node offers an
//! alternative to come back to, and hands a subtree holding one template to the engine.

use super::firsts::First;
use super::{Index, NONE, Node, RouteInfo, src_of};
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
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    #[cfg_attr(not(any(target_pointer_width = "64", target_family = "wasm")), inline)]
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
        let lead = &self.lead;
        if crate::WIDE && lead.node != NONE {
            let n = usize::from(lead.len);
            if let (Some(text), Some(head)) = (lead.text.get(..n), uri.as_bytes().get(..n))
                && norm::eq_same_len(text, head)
            {
                if lead.fan
                    && let Some(r) = self.fan_out(&mut w, lead.node, n)
                {
                    return r;
                }
                return self.walk(&mut w, lead.node, n);
            }
        }
        self.walk(&mut w, 0, 0)
    }

    /// The first step of [`walk`](Self::walk) at the lead's node, a static fan-out
    /// (`Lead::fan`: static children only, several of them), when the first-byte index names
    /// a static key that leads to one template: that template runs from `pos`, as the walk
    /// would run it (its run inlined here). `None` when the walk has more to consider at
    /// `node`.
    #[inline(never)]
    fn fan_out<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        node: u32,
        pos: usize,
    ) -> Option<Option<u32>> {
        let c = *w.uri.as_bytes().get(pos)?;
        if c == b'%' || norm::bits(c) & norm::STOP != 0 {
            return None;
        }
        match self.first(node, c) {
            First::Absent => Some(None),
            First::One(e) => {
                let e = self.edge_ref(e)?;
                e.lone
                    .then(|| self.run_from(w, e.route, e.seg_step, e.seg_off, pos))
            }
            First::Hashed => None,
        }
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
        self.run_from(w, r, step, off, pos)
    }

    /// [`run_at`](Self::run_at), inlined (into `fan_out` on wide targets).
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn run_from<A: AsRef<str>>(
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
        // Compact targets keep no compact form of a simple path ([`crate::WIDE`]): the
        // test lets them drop its runner.
        let p = if crate::WIDE && info.layout.simple_path {
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
        self.accept_info(src, info, w.uri, p, w.slots).then_some(r)
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
        self.routes
            .items()
            .get(r as usize)
            .is_some_and(|info| self.accept_info(src, info, uri, pos, slots))
    }

    /// [`accept`](Self::accept) for the route of `info`: a bare route whose path ended the
    /// URI at once, anything else out of line.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn accept_info(
        &self,
        src: &str,
        info: &RouteInfo,
        uri: &str,
        pos: usize,
        slots: &mut [Slot],
    ) -> bool {
        (info.layout.bare && pos == uri.len()) || self.accept_rest(src, info, uri, pos, slots)
    }

    /// The query, fragment and prefix checks of [`accept_info`](Self::accept_info).
    #[inline(never)]
    fn accept_rest(
        &self,
        src: &str,
        info: &RouteInfo,
        uri: &str,
        pos: usize,
        slots: &mut [Slot],
    ) -> bool {
        if info.layout.bare && pos == uri.len() {
            return true;
        }
        let prog = self.program(info);
        engine::match_tail_sections(src, prog, &info.layout, uri, pos, slots).is_some()
            && (!info.layout.prefixed || engine::prefixes_hold(prog, uri, slots))
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::super::Index;
    use super::super::lead::Lead;
    use crate::template::OwnedTemplate;
    use crate::template::captures::Slot;
    use crate::template::compile::MatchOptions;
    use crate::template::store::VecStorage;
    use alloc::string::String;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// Template starts that make static chains from the root (or not), then segments.
    const STARTS: &[&str] = &[
        "/",
        "repo://",
        "repo://acme/",
        "/a/b/",
        "/a/",
        "s:",
        "",
        "file:///",
        "/abcdefghijklmnop/",
    ];
    const SEGS: &[&str] = &[
        "{x}", "issues", "{y}.json", "v{n}", "", "acme", "~me", "%7Eme",
    ];
    const URI_STARTS: &[&str] = &[
        "/",
        "repo://",
        "repo://acme/",
        "/a/b/",
        "/a/",
        "s:",
        "",
        "file:///",
        "%2F",
        "repo:%2F/",
        "REPO://",
        "rep%6F://",
        "/a/b",
        "repo:/",
        "/abcdefghijklmnop/",
        "/a%2Fb/",
    ];
    const URI_SEGS: &[&str] = &[
        "x", "issues", "1.json", "v2", "", "acme", "~me", "%7eme", "%",
    ];

    /// Routes `uri` with the lead as built and with none (every URI walked from the root):
    /// the same winner, the same captures.
    fn same_with_and_without_lead(index: &mut Index<VecStorage>, sources: &[String], uri: &str) {
        let mut on = [Slot::default(); 8];
        let mut off = [Slot::default(); 8];
        let a = index.route(sources, uri, &mut on);
        let lead = index.lead;
        index.lead = Lead::NONE;
        let b = index.route(sources, uri, &mut off);
        index.lead = lead;
        assert_eq!(a, b, "{uri}");
        if a.is_some() {
            assert_eq!(on, off, "{uri}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The lead only shortcuts the walk.
        #[test]
        fn lead_routes_the_same(
            table in prop::collection::vec(
                (0..STARTS.len(), prop::collection::vec(0..SEGS.len(), 0..3)), 1..12),
            start in 0..URI_STARTS.len(),
            segs in prop::collection::vec(0..URI_SEGS.len(), 0..3),
            tail in prop::sample::select(alloc::vec!["", "?q=1", "#f", "/"]),
        ) {
            let mut index = Index::<VecStorage>::new(MatchOptions::new());
            let mut sources: Vec<String> = Vec::new();
            for (s, rest) in &table {
                let mut t = String::from(STARTS[*s]);
                for (k, &g) in rest.iter().enumerate() {
                    if k > 0 {
                        t.push('/');
                    }
                    t.push_str(SEGS[g]);
                }
                let Ok(parsed) = OwnedTemplate::parse(&t) else { continue };
                if index.insert(&sources, parsed.as_ref()).is_ok() {
                    sources.push(t);
                }
            }
            let mut uri = String::from(URI_STARTS[start]);
            for (k, &g) in segs.iter().enumerate() {
                if k > 0 {
                    uri.push('/');
                }
                uri.push_str(URI_SEGS[g]);
            }
            uri.push_str(tail);
            same_with_and_without_lead(&mut index, &sources, &uri);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Tables that all start with `/` (so the lead is `/`) and fan out over static keys
        /// sharing first bytes or not, leading to one template or several.
        #[test]
        fn fan_outs_route_the_same(
            table in prop::collection::vec(prop::collection::vec(0..SEGS.len(), 1..4), 2..16),
            segs in prop::collection::vec(0..URI_SEGS.len(), 1..4),
            tail in prop::sample::select(alloc::vec!["", "?q=1", "#f", "/"]),
        ) {
            let mut index = Index::<VecStorage>::new(MatchOptions::new());
            let mut sources: Vec<String> = Vec::new();
            for rest in &table {
                let t: String = rest.iter().map(|&g| alloc::format!("/{}", FAN[g % FAN.len()])).collect();
                let Ok(parsed) = OwnedTemplate::parse(&t) else { continue };
                if index.insert(&sources, parsed.as_ref()).is_ok() {
                    sources.push(t);
                }
            }
            let mut uri: String = segs.iter().map(|&g| alloc::format!("/{}", URI_FAN[g % URI_FAN.len()])).collect();
            uri.push_str(tail);
            same_with_and_without_lead(&mut index, &sources, &uri);
        }
    }

    const FAN: &[&str] = &[
        "issues", "acme", "a", "ab", "{x}", "~me", "issue", "{y}.json", "b",
    ];
    const URI_FAN: &[&str] = &[
        "issues", "acme", "a", "ab", "x", "~me", "%7Eme", "issue", "b", "1.json", "%61",
    ];

    #[test]
    fn leads() {
        let mut index = Index::<VecStorage>::new(MatchOptions::new());
        let mut sources: Vec<String> = Vec::new();
        for t in ["repo://{o}/{r}", "repo://acme/x", "repo://{o}"] {
            let parsed = OwnedTemplate::parse(t).unwrap();
            index.insert(&sources, parsed.as_ref()).unwrap();
            sources.push(String::from(t));
        }
        // Compact targets (and `--cfg mcp_compact`) build no lead: every URI from the root.
        let want: &[u8] = if crate::WIDE { b"repo://" } else { b"" };
        assert_eq!(&index.lead.text[..usize::from(index.lead.len)], want);
        for uri in [
            "repo://acme/x",
            "repo://a/b",
            "repo:%2F/a",
            "rep%6F://a",
            "repo://",
            "x",
        ] {
            same_with_and_without_lead(&mut index, &sources, uri);
        }
    }
}
