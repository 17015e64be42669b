//! Where a template ends in the trie (docs/matching.md §7.2–7.3): terminal entries (the
//! path ends at a node) and tails (the rest spans segments), kept in precedence order, and
//! the conflict checks that refuse indistinguishable or shadowed templates.

use super::{Edge, Index, Kind, List, NONE, RouteInfo, src_of};
use crate::template::compile::{self, Step};
use crate::template::error::{InsertError, RouteId};
use crate::template::parse::Span;
use crate::template::segment::{self, Relation};
use crate::template::store::{Buf, Storage};

impl<S: Storage> Index<S> {
    pub(super) fn conflict(
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

    pub(super) fn attach_terminal<A: AsRef<str>>(
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
    pub(super) fn tail_view(&self, step: usize, off: u32, end: usize) -> (Option<Step>, usize) {
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

    pub(super) fn attach_tail<A: AsRef<str>>(
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
}
