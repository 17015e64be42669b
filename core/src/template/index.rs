//! The router index (docs/matching.md §7): a trie over URI path segments.
//!
//! Each node is reached by exactly one URI segment position, so a route visits every node at
//! most once: matching costs one hash probe (or one comparison) per segment, whatever the
//! number of templates. At each node the walk tries, in precedence order: the static child
//! for the segment's text, pattern children (most literal text first), the `{var}` wildcard
//! child, then tails (templates whose rest spans segments). Terminal entries at a node hold
//! the templates whose path ends there; their query and fragment sections decide.

use super::TemplateRef;

mod ends;
mod firsts;
mod lead;
mod statics;
mod walk;
use super::compile::{self, Layout, MatchOptions, ProgramSink, Step};
use super::error::InsertError;
use super::parse::Span;
use super::segment::{self, SEG_STEPS, Seg, Segmenter};
use super::store::{Buf, Storage};

pub(crate) const NONE: u32 = u32::MAX;
const EMPTY: u64 = u64::MAX;
const NO_INLINE: u8 = u8::MAX;

#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// How many templates pass through (or end at) this node.
    count: u32,
    /// With `count == 1`: that template, and where its path continues from this node's
    /// segment (step index into the arena, byte offset into that step's literal). The walk
    /// then runs the rest of the template directly instead of node by node.
    single: u32,
    single_step: u32,
    single_off: u32,
    slot_base: u16,
    /// The static edge leading here, or `NONE`: it keeps `Edge::lone` up to date.
    via: u32,
    statics: u32,
    one: u32,
    wild: u32,
    patterns: u32,
    tails: u32,
    terms: u32,
}

impl Default for Node {
    fn default() -> Self {
        Self {
            count: 0,
            single: NONE,
            single_step: 0,
            single_off: 0,
            slot_base: 0,
            via: NONE,
            statics: 0,
            one: NONE,
            wild: NONE,
            patterns: NONE,
            tails: NONE,
            terms: NONE,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Kind {
    #[default]
    Static,
    Pattern,
    Tail,
    Term,
}

/// The fields a fan-out reads come first (`repr(C)`: in one cache line for most edges); the
/// order keeps the size Rust's own layout gives (72 bytes on 64-bit targets).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct Edge {
    route: u32,
    /// Where the creating template's program stands at the start of this static segment
    /// (as `Node::single_step` / `single_off`): the walk runs it from there when the edge
    /// leads to that template alone.
    seg_step: u32,
    seg_off: u32,
    /// A static key's first canonical byte, or `firsts::NO_FIRST` for an empty key.
    first: u16,
    /// A static edge whose child holds exactly one template (`Node::count == 1`).
    lone: bool,
    kind: Kind,
    parent: u32,
    child: u32,
    next: u32,
    hash: u32,
    from: u32,
    to: u32,
    rank: u32,
    key: Span,
    /// A static key of at most 16 bytes, copied here so that comparing it touches nothing
    /// else; `ilen` is `NO_INLINE` for longer keys.
    ikey: [u8; 16],
    ilen: u8,
    plain: bool,
}

#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RouteInfo {
    pub(crate) prog: u32,
    pub(crate) names: u32,
    pub(crate) layout: Layout,
}

#[derive(Clone, Copy)]
enum List {
    Patterns,
    Tails,
    Terms,
}

/// The index, generic over its storage.
pub(crate) struct Index<S: Storage> {
    steps: S::Buf<Step>,
    names: S::Buf<Span>,
    nodes: S::Buf<Node>,
    edges: S::Buf<Edge>,
    /// Open addressing: `(hash of parent and key) << 32 | edge`, `EMPTY` when free.
    table: S::Buf<u64>,
    /// The first-byte index (`firsts.rs`): `(node << 8 | byte) << 32 | edge`.
    firsts: S::Buf<u64>,
    firsts_used: usize,
    firsts_ok: bool,
    routes: S::Buf<RouteInfo>,
    statics: usize,
    opts: MatchOptions,
    /// The static segments every route starts with (`walk.rs`, wide targets only).
    lead: lead::Lead,
}

struct Arena<'a, S: Storage> {
    steps: &'a mut S::Buf<Step>,
    names: &'a mut S::Buf<Span>,
}

impl<S: Storage> ProgramSink for Arena<'_, S> {
    fn push_step(&mut self, step: Step) -> bool {
        self.steps.push(step)
    }
    fn push_name(&mut self, name: Span) -> bool {
        self.names.push(name)
    }
    fn steps_since(&self, from: usize) -> &[Step] {
        self.steps.items().get(from..).unwrap_or_default()
    }
    fn step_count(&self) -> usize {
        self.steps.len()
    }
}

/// The source of route `r`: a registered one, or the one being inserted.
fn src_of<'a, A: AsRef<str>>(sources: &'a [A], new: (u32, &'a str), r: u32) -> &'a str {
    if r == new.0 {
        new.1
    } else {
        sources.get(r as usize).map_or("", AsRef::as_ref)
    }
}

impl<S: Storage> Index<S> {
    pub(crate) fn new(opts: MatchOptions) -> Self {
        let mut index = Self {
            steps: S::buf(),
            names: S::buf(),
            nodes: S::buf(),
            edges: S::buf(),
            table: S::buf(),
            firsts: S::buf(),
            firsts_used: 0,
            firsts_ok: true,
            routes: S::buf(),
            statics: 0,
            opts,
            lead: lead::Lead::NONE,
        };
        let _ = index.nodes.push(Node::default());
        if let Some(n) = index.table.capacity_limit() {
            let _ = index.table.reset(n, EMPTY);
        }
        if let Some(n) = index.firsts.capacity_limit() {
            // Wide targets probe a power-of-two table; compact ones never read it.
            let n = if crate::WIDE { firsts::table_len(n) } else { n };
            let _ = index.firsts.reset(n, EMPTY);
        }
        index
    }

    pub(crate) fn route_info(&self, r: u32) -> Option<RouteInfo> {
        self.routes.items().get(r as usize).copied()
    }

    pub(crate) fn names(&self, info: &RouteInfo) -> &[Span] {
        let start = info.names as usize;
        self.names
            .items()
            .get(start..start + usize::from(info.layout.vars))
            .unwrap_or_default()
    }

    fn node(&self, n: u32) -> Node {
        self.nodes
            .items()
            .get(n as usize)
            .copied()
            .unwrap_or_default()
    }

    fn node_mut(&mut self, n: u32) -> Option<&mut Node> {
        self.nodes.items_mut().get_mut(n as usize)
    }

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn edge_ref(&self, e: u32) -> Option<&Edge> {
        self.edges.items().get(e as usize)
    }

    fn edge(&self, e: u32) -> Edge {
        self.edges
            .items()
            .get(e as usize)
            .copied()
            .unwrap_or_default()
    }

    fn arena(&self, from: u32, to: u32) -> &[Step] {
        self.steps
            .items()
            .get(from as usize..to as usize)
            .unwrap_or_default()
    }

    fn program(&self, info: &RouteInfo) -> &[Step] {
        self.arena(info.prog, info.prog + u32::from(info.layout.steps))
    }

    /// Registers the template `t` as route number `routes.len()`.
    pub(crate) fn insert<A: AsRef<str>>(
        &mut self,
        sources: &[A],
        t: TemplateRef<'_>,
    ) -> Result<u32, InsertError> {
        let route = self.routes.len() as u32;
        let (p0, n0) = (self.steps.len(), self.names.len());
        let mut arena = Arena::<S> {
            steps: &mut self.steps,
            names: &mut self.names,
        };
        let layout = match compile::compile(t, self.opts, &mut arena) {
            Ok(l) => l,
            Err(e) => {
                self.steps.truncate(p0);
                self.names.truncate(n0);
                return Err(match e.kind {
                    super::CompileErrorKind::CapacityExceeded => InsertError::CapacityExceeded,
                    _ => InsertError::Compile(e),
                });
            }
        };
        let info = RouteInfo {
            prog: p0 as u32,
            names: n0 as u32,
            layout,
        };
        let new = (route, t.source);
        // A dry run finds conflicts before anything changes.
        if let Err(e) = self.attach(sources, new, info, false) {
            self.steps.truncate(p0);
            self.names.truncate(n0);
            return Err(e);
        }
        if !self.routes.push(info) {
            self.steps.truncate(p0);
            self.names.truncate(n0);
            return Err(InsertError::CapacityExceeded);
        }
        let attached = self.attach(sources, new, info, true);
        if crate::WIDE {
            self.lead = self.lead_of();
        }
        attached?;
        Ok(route)
    }

    /// Walks (and with `create`, extends) the trie for a template; checks conflicts where
    /// it ends.
    fn attach<A: AsRef<str>>(
        &mut self,
        sources: &[A],
        new: (u32, &str),
        info: RouteInfo,
        create: bool,
    ) -> Result<(), InsertError> {
        let full = InsertError::CapacityExceeded;
        let p0 = info.prog as usize;
        let path_end = p0 + usize::from(info.layout.path_end);
        let mut seg = Segmenter::new(p0, path_end);
        let mut node = 0u32;
        let mut buf = [Step::default(); SEG_STEPS];
        loop {
            let at = self.resume_at(new.1, &info, seg.position());
            if create {
                self.pass(node, new.0, at)?;
            }
            let (s, last) = seg.next(self.steps.items(), new.1, &mut buf).ok_or(full)?;
            let child = match s {
                Seg::Tail { step, off } => {
                    return self.attach_tail(
                        sources,
                        new,
                        info,
                        node,
                        (step, off, path_end),
                        create,
                    );
                }
                Seg::Static(span) => {
                    let key = span.of(new.1).as_bytes();
                    match self.find_static(sources, new, node, key) {
                        Some(c) => Some(c),
                        None if create => Some(self.add_static(node, new.0, span, key, at)?),
                        None => None,
                    }
                }
                Seg::Wild => match self.node(node).wild {
                    NONE if create => {
                        let c = self.add_node(node, 1)?;
                        self.node_mut(node).ok_or(full)?.wild = c;
                        Some(c)
                    }
                    NONE => None,
                    c => Some(c),
                },
                Seg::Pattern(n) => {
                    let steps = buf.get(..n).ok_or(full)?;
                    self.pattern_child(sources, new, node, steps, create)?
                }
            };
            let Some(child) = child else {
                return Ok(()); // a new branch: nothing to conflict with
            };
            node = child;
            if last {
                if create {
                    // The path ends here: walking into this node means the URI has another
                    // segment, which this template does not.
                    self.pass(node, new.0, (NONE as usize, 0))?;
                }
                return self.attach_terminal(sources, new, info, node, create);
            }
        }
    }

    /// Where `run_single` resumes a template whose path is at `(step, off)`: in the compact
    /// ops of a simple path, else in the path steps (always there on compact targets, which
    /// keep no compact form: [`crate::WIDE`] lets them drop this code).
    fn resume_at(&self, src: &str, info: &RouteInfo, (step, off): (usize, u32)) -> (usize, u32) {
        if !(crate::WIDE && info.layout.simple_path) {
            return (step, off);
        }
        let p0 = info.prog as usize;
        let path = self
            .steps
            .items()
            .get(p0..p0 + usize::from(info.layout.path_end))
            .unwrap_or_default();
        let (op, off) = compile::compact_position(src, path, step - p0, off);
        (p0 + usize::from(info.layout.steps) + op, off)
    }

    /// Counts template `route` through `node`, whose segment starts at `at` in its program.
    fn pass(&mut self, node: u32, route: u32, at: (usize, u32)) -> Result<(), InsertError> {
        let n = self.node_mut(node).ok_or(InsertError::CapacityExceeded)?;
        n.count += 1;
        if n.count == 1 {
            n.single = route;
            n.single_step = at.0 as u32;
            n.single_off = at.1;
        }
        let (via, lone) = (n.via, n.count == 1);
        if let Some(e) = self.edges.items_mut().get_mut(via as usize) {
            e.lone = lone;
        }
        Ok(())
    }

    fn add_node(&mut self, parent: u32, vars: u16) -> Result<u32, InsertError> {
        let id = self.nodes.len() as u32;
        let node = Node {
            slot_base: self.node(parent).slot_base.saturating_add(vars),
            ..Node::default()
        };
        if self.nodes.push(node) {
            Ok(id)
        } else {
            Err(InsertError::CapacityExceeded)
        }
    }

    fn push_edge(&mut self, edge: Edge) -> Result<u32, InsertError> {
        let id = self.edges.len() as u32;
        if self.edges.push(edge) {
            Ok(id)
        } else {
            Err(InsertError::CapacityExceeded)
        }
    }

    fn pattern_child<A: AsRef<str>>(
        &mut self,
        sources: &[A],
        new: (u32, &str),
        node: u32,
        steps: &[Step],
        create: bool,
    ) -> Result<Option<u32>, InsertError> {
        let mut e = self.node(node).patterns;
        while e != NONE {
            let edge = self.edge(e);
            let theirs = self.arena(edge.from, edge.to).iter().copied();
            let src = src_of(sources, new, edge.route);
            if segment::shape_eq(src, theirs, new.1, steps.iter().copied()) {
                return Ok(Some(edge.child));
            }
            e = edge.next;
        }
        if !create {
            return Ok(None);
        }
        let from = self.steps.len() as u32;
        for s in steps {
            if !self.steps.push(*s) {
                return Err(InsertError::CapacityExceeded);
            }
        }
        let child = self.add_node(node, segment::var_count(steps))?;
        let edge = Edge {
            kind: Kind::Pattern,
            child,
            next: NONE,
            route: new.0,
            from,
            to: self.steps.len() as u32,
            rank: segment::lit_units(new.1, steps.iter().copied()),
            ..Edge::default()
        };
        let id = self.push_edge(edge)?;
        self.link(node, List::Patterns, id)?;
        Ok(Some(child))
    }

    /// Inserts edge `id` into a list of `node`, after every edge of equal or higher rank.
    fn link(&mut self, node: u32, list: List, id: u32) -> Result<(), InsertError> {
        let rank = self.edge(id).rank;
        let n = self.node(node);
        let head = match list {
            List::Patterns => n.patterns,
            List::Tails => n.tails,
            List::Terms => n.terms,
        };
        let (mut prev, mut cur) = (NONE, head);
        while cur != NONE && self.edge(cur).rank >= rank {
            prev = cur;
            cur = self.edge(cur).next;
        }
        let full = InsertError::CapacityExceeded;
        self.edges
            .items_mut()
            .get_mut(id as usize)
            .ok_or(full)?
            .next = cur;
        if prev == NONE {
            let n = self.node_mut(node).ok_or(full)?;
            match list {
                List::Patterns => n.patterns = id,
                List::Tails => n.tails = id,
                List::Terms => n.terms = id,
            }
        } else {
            self.edges
                .items_mut()
                .get_mut(prev as usize)
                .ok_or(full)?
                .next = id;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// The hot-first order of `Edge` costs no size: 72 bytes, as Rust's own layout gave.
    #[test]
    fn edge_size() {
        assert_eq!(core::mem::size_of::<super::Edge>(), 72);
    }

    /// A capture slot is 12 bytes with either `Shape` layout (the explicit tag of wide
    /// targets or the niche of compact ones).
    #[test]
    fn slot_size() {
        assert_eq!(core::mem::size_of::<super::super::captures::Slot>(), 12);
    }
}
