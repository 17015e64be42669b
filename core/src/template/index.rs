//! The router index (docs/matching.md §7): a trie over URI path segments.
//!
//! Each node is reached by exactly one URI segment position, so a route visits every node at
//! most once: matching costs one hash probe (or one comparison) per segment, whatever the
//! number of templates. At each node the walk tries, in precedence order: the static child
//! for the segment's text, pattern children (most literal text first), the `{var}` wildcard
//! child, then tails (templates whose rest spans segments). Terminal entries at a node hold
//! the templates whose path ends there; their query and fragment sections decide.

use super::TemplateRef;
use super::captures::{self, Shape, Slot};
use super::compile::{self, Layout, MatchOptions, ProgramSink, Step};
use super::engine;
use super::error::{InsertError, RouteId};
use super::norm;
use super::parse::Span;
use super::segment::{self, Relation, SEG_STEPS, Seg, Segmenter};
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

#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Edge {
    kind: Kind,
    plain: bool,
    parent: u32,
    child: u32,
    next: u32,
    route: u32,
    key: Span,
    /// A static key of at most 16 bytes, copied here so that comparing it touches nothing
    /// else; `ilen` is `NO_INLINE` for longer keys.
    ikey: [u8; 16],
    ilen: u8,
    hash: u32,
    from: u32,
    to: u32,
    rank: u32,
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
    routes: S::Buf<RouteInfo>,
    statics: usize,
    opts: MatchOptions,
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

/// The table hash of a static key under `parent`.
#[inline(always)]
fn table_hash(hash: u32, parent: u32) -> u32 {
    let h = (hash ^ parent.wrapping_mul(0x9E37_79B9)).wrapping_mul(0x85EB_CA6B);
    h ^ (h >> 15)
}

/// The first slot to probe for a table hash.
#[inline(always)]
fn home(th: u32, len: usize) -> usize {
    ((u64::from(th) * len as u64) >> 32) as usize
}

/// Scans the URI segment at `pos`: its end, and whether it can be a `{var}` value (one or
/// more unreserved or pct-encoded bytes). One pass: the `{var}` class run usually ends the
/// segment.
#[inline(always)]
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
    pub(crate) fn new(opts: MatchOptions) -> Self {
        let mut index = Self {
            steps: S::buf(),
            names: S::buf(),
            nodes: S::buf(),
            edges: S::buf(),
            table: S::buf(),
            routes: S::buf(),
            statics: 0,
            opts,
        };
        let _ = index.nodes.push(Node::default());
        if let Some(n) = index.table.capacity_limit() {
            let _ = index.table.reset(n, EMPTY);
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

    #[inline(always)]
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
        self.attach(sources, new, info, true)?;
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
            if create {
                let at = self.resume_at(new.1, &info, seg.position());
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
                        None if create => Some(self.add_static(node, new.0, span, key)?),
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
    /// ops of a simple path, else in the path steps.
    fn resume_at(&self, src: &str, info: &RouteInfo, (step, off): (usize, u32)) -> (usize, u32) {
        if !info.layout.simple_path {
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

    /// The key text of a static edge.
    #[inline(always)]
    fn key<'s, A: AsRef<str>>(
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

    #[inline(always)]
    fn key_eq<A: AsRef<str>>(&self, sources: &[A], new: (u32, &str), e: &Edge, seg: &[u8]) -> bool {
        let key = self.key(sources, new, e);
        norm::eq_same_len(key, seg)
            || (!e.plain || !norm::is_plain(seg)) && norm::units_eq(key, seg)
    }

    /// The child of `node` for the static segment `seg`.
    #[inline(always)]
    fn find_static<A: AsRef<str>>(
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
    fn find_hashed<A: AsRef<str>>(
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

    fn add_static(
        &mut self,
        parent: u32,
        route: u32,
        key: Span,
        text: &[u8],
    ) -> Result<u32, InsertError> {
        let plain = norm::is_plain(text);
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
            ..Edge::default()
        };
        let id = self.push_edge(edge)?;
        self.table_insert(id)?;
        let n = self.node_mut(parent).ok_or(InsertError::CapacityExceeded)?;
        n.statics += 1;
        if n.statics == 1 {
            n.one = id;
        }
        Ok(child)
    }

    fn table_insert(&mut self, id: u32) -> Result<(), InsertError> {
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

    fn table_place(&mut self, id: u32) {
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

    fn conflict(
        &self,
        sources: &[impl AsRef<str>],
        new: (u32, &str),
        info: &RouteInfo,
        other: u32,
    ) -> Option<InsertError> {
        let theirs = self.route_info(other)?;
        let rel = segment::relation(
            src_of(sources, new, other),
            self.program(&theirs),
            &theirs.layout,
            new.1,
            self.program(info),
            &info.layout,
        );
        let (existing, new) = (RouteId(other), RouteId(new.0));
        match rel {
            Relation::Same => Some(InsertError::Indistinguishable { existing, new }),
            Relation::Shadowed => Some(InsertError::Shadowed { existing, new }),
            Relation::Different => None,
        }
    }

    fn attach_terminal<A: AsRef<str>>(
        &mut self,
        sources: &[A],
        new: (u32, &str),
        info: RouteInfo,
        node: u32,
        create: bool,
    ) -> Result<(), InsertError> {
        let mut e = self.node(node).terms;
        while e != NONE {
            let edge = self.edge(e);
            if let Some(err) = self.conflict(sources, new, &info, edge.route) {
                return Err(err);
            }
            e = edge.next;
        }
        if !create {
            return Ok(());
        }
        let prog = self.program(&info);
        let frag = prog
            .get(usize::from(info.layout.query_end)..)
            .unwrap_or_default()
            .iter()
            .copied();
        let rank = segment::rank(segment::lit_units(new.1, frag), &info.layout);
        let l = &info.layout;
        // `plain` on a terminal: the template has neither query nor fragment section and no
        // prefix modifier, so a URI whose path ends the string is accepted as it is.
        let bare = l.path_end == l.steps && l.frag == compile::FragMode::None && !l.prefixed;
        let id = self.push_edge(Edge {
            kind: Kind::Term,
            plain: bare,
            next: NONE,
            route: new.0,
            rank,
            ..Edge::default()
        })?;
        self.link(node, List::Terms, id)
    }

    /// The tail view of a path from `(step, off)` to `end`: a trimmed first literal, then
    /// the rest of the steps.
    fn tail_view(&self, step: usize, off: u32, end: usize) -> (Option<Step>, usize) {
        match self.steps.items().get(step) {
            Some(Step::Lit(s)) => {
                let trimmed = Span {
                    start: s.start + off,
                    end: s.end,
                };
                (
                    (trimmed.start < trimmed.end).then_some(Step::Lit(trimmed)),
                    step + 1,
                )
            }
            _ => (None, step.min(end)),
        }
    }

    fn attach_tail<A: AsRef<str>>(
        &mut self,
        sources: &[A],
        new: (u32, &str),
        info: RouteInfo,
        node: u32,
        (step, off, end): (usize, u32, usize),
        create: bool,
    ) -> Result<(), InsertError> {
        let (first, rest) = self.tail_view(step, off, end);
        let ours = || {
            first.into_iter().chain(
                self.steps
                    .items()
                    .get(rest..end)
                    .unwrap_or_default()
                    .iter()
                    .copied(),
            )
        };
        let lits = segment::lit_units(new.1, ours());
        let rank = segment::rank(lits, &info.layout);
        let mut e = self.node(node).tails;
        while e != NONE {
            let edge = self.edge(e);
            let theirs = self.arena(edge.from, edge.to);
            let src = src_of(sources, new, edge.route);
            if segment::shape_eq(src, theirs.iter().copied(), new.1, ours())
                && let Some(err) = self.conflict(sources, new, &info, edge.route)
            {
                return Err(err);
            }
            let their_layout = self
                .route_info(edge.route)
                .map(|i| i.layout)
                .unwrap_or_default();
            let no_params = info.layout.query_end == info.layout.path_end;
            if segment::is_catch_all(theirs, &their_layout)
                && edge.rank >= rank
                && info.layout.frag == compile::FragMode::None
                && segment::starts_required(ours().next())
                && (self.opts.unknown_params == compile::UnknownParams::Ignore || no_params)
            {
                return Err(InsertError::Shadowed {
                    existing: RouteId(edge.route),
                    new: RouteId(new.0),
                });
            }
            e = edge.next;
        }
        if !create {
            return Ok(());
        }
        let from = self.steps.len() as u32;
        let full = InsertError::CapacityExceeded;
        if let Some(f) = first
            && !self.steps.push(f)
        {
            return Err(full);
        }
        for k in rest..end {
            let s = self.steps.items().get(k).copied().ok_or(full)?;
            if !self.steps.push(s) {
                return Err(full);
            }
        }
        let id = self.push_edge(Edge {
            kind: Kind::Tail,
            next: NONE,
            route: new.0,
            from,
            to: self.steps.len() as u32,
            rank,
            ..Edge::default()
        })?;
        self.link(node, List::Tails, id)
    }

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
                        let end = norm::match_forward(self.key(w.sources, none, e), b, pos)?;
                        match b.get(end) {
                            Some(&c) if norm::bits(c) & norm::STOP == 0 => return None,
                            _ => (e.child, end),
                        }
                    }
                    _ => {
                        let (end, hash) = norm::scan_hash(b, pos);
                        let seg = b.get(pos..end)?;
                        (self.find_hashed(w.sources, none, node, seg, hash)?, end)
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
    #[inline(never)]
    fn run_single<A: AsRef<str>>(
        &self,
        w: &mut Walk<'_, '_, A>,
        n: &Node,
        pos: usize,
    ) -> Option<u32> {
        let r = n.single;
        if n.single_step == NONE {
            return None;
        }
        let info = self.routes.items().get(r as usize)?;
        let src = src_of(w.sources, (NONE, ""), r);
        let b = w.uri.as_bytes();
        let p0 = info.prog as usize;
        let p = if info.layout.simple_path {
            let end = p0 + usize::from(info.layout.simple_end);
            let ops = self.steps.items().get(n.single_step as usize..end)?;
            engine::run_simple(src, ops, b, pos, n.single_off, w.slots)?
        } else {
            let end = p0 + usize::from(info.layout.path_end);
            let mut rest = self.steps.items().get(n.single_step as usize..end)?;
            let mut p = pos;
            if n.single_off > 0
                && let Some((Step::Lit(span), tail)) = rest.split_first()
            {
                let from = (span.start + n.single_off) as usize;
                p = norm::match_forward(src.as_bytes().get(from..span.end as usize)?, b, p)?;
                rest = tail;
            }
            engine::run_seq(src, rest, w.uri, p, w.slots)?
        };
        self.accept(src, r, w.uri, p, w.slots).then_some(r)
    }

    #[inline(always)]
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
