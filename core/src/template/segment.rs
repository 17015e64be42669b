//! How the router sees a compiled template: its path cut into `/`-separated segments, and
//! the comparisons that decide precedence and conflicts (docs/matching.md §7).
//!
//! A segment that cannot produce a `/` is *clean*: all literal (a static key), a bare `{var}`
//! (the wildcard), or a mix (a pattern matched within one URI segment). From the first segment
//! that can span a `/` (`{+var}`, `{/var}`, `{/list*}`), the rest of the path is a *tail*
//! matched by the engine against the rest of the URI.

use super::compile::{ExprStep, FragMode, Layout, ParamKind, ParamStep, Step, UnknownParams};
use super::norm;
use super::parse::Span;

/// Steps a clean segment may hold; a longer one is matched as a tail.
pub(crate) const SEG_STEPS: usize = 24;

/// One segment of a template path.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seg {
    /// Literal text (possibly empty).
    Static(Span),
    /// A bare `{var}`.
    Wild,
    /// A clean segment of this many steps (in the caller's buffer).
    Pattern(usize),
    /// The path from this step (and byte offset into its literal) on spans segments.
    Tail {
        /// First step.
        step: usize,
        /// Offset into that step's literal span.
        off: u32,
    },
}

/// Cuts the path steps `[start, end)` of the arena into segments.
pub(crate) struct Segmenter {
    i: usize,
    off: u32,
    end: usize,
    done: bool,
}

impl Segmenter {
    pub(crate) fn new(start: usize, end: usize) -> Self {
        Self {
            i: start,
            off: 0,
            end,
            done: false,
        }
    }

    /// Where the next segment starts: a step index and a byte offset into its literal.
    pub(crate) fn position(&self) -> (usize, u32) {
        (self.i, self.off)
    }

    /// The next segment and whether the path ends with it. Segment steps go to `buf`.
    pub(crate) fn next(
        &mut self,
        steps: &[Step],
        src: &str,
        buf: &mut [Step; SEG_STEPS],
    ) -> Option<(Seg, bool)> {
        if self.done {
            return None;
        }
        let (i0, off0) = (self.i, self.off);
        let mut n = 0;
        loop {
            let step = match steps.get(self.i) {
                Some(s) if self.i < self.end => *s,
                _ => {
                    self.done = true;
                    return Some((classify(buf.get(..n)?), true));
                }
            };
            match step {
                Step::Lit(span) => {
                    let start = span.start + self.off;
                    let piece = Span {
                        start,
                        end: span.end,
                    };
                    let text = piece.of(src).as_bytes();
                    let slash = text.iter().position(|&c| c == b'/');
                    let stop = slash.map_or(span.end, |k| start + k as u32);
                    if stop > start {
                        *buf.get_mut(n)? = Step::Lit(Span { start, end: stop });
                        n += 1;
                    }
                    match slash {
                        Some(_) if stop + 1 < span.end => self.off = stop + 1 - span.start,
                        _ => {
                            self.i += 1;
                            self.off = 0;
                        }
                    }
                    if slash.is_some() {
                        return Some((classify(buf.get(..n)?), false));
                    }
                }
                Step::Expr(e) => {
                    let count = usize::from(e.count);
                    let vars = steps.get(self.i + 1..self.i + 1 + count)?;
                    if !is_clean(e, vars) || n + 1 + count > SEG_STEPS {
                        self.done = true;
                        return Some((
                            Seg::Tail {
                                step: i0,
                                off: off0,
                            },
                            true,
                        ));
                    }
                    *buf.get_mut(n)? = step;
                    for (k, v) in vars.iter().enumerate() {
                        *buf.get_mut(n + 1 + k)? = *v;
                    }
                    n += 1 + count;
                    self.i += 1 + count;
                }
                Step::Var(_) | Step::Param(_) | Step::Seg(_) => return None,
            }
        }
    }
}

/// Whether an expression can never produce a `/`.
fn is_clean(e: ExprStep, vars: &[Step]) -> bool {
    let wide = norm::C_RES_PATH | norm::C_RES_FRAG | norm::C_EX_SLASH;
    e.lead != b'/'
        && vars
            .iter()
            .all(|v| matches!(v, Step::Var(v) if v.class & wide == 0))
}

fn classify(steps: &[Step]) -> Seg {
    match steps {
        [] => Seg::Static(Span::default()),
        [Step::Lit(s)] => Seg::Static(*s),
        [Step::Expr(e), Step::Var(v)]
            if e.lead == 0
                && e.min1
                && !e.named
                && e.count == 1
                && v.class == norm::C_U
                && !v.explode
                && v.prefix == 0 =>
        {
            Seg::Wild
        }
        _ => Seg::Pattern(steps.len()),
    }
}

/// The number of variables among `steps`.
pub(crate) fn var_count(steps: &[Step]) -> u16 {
    steps.iter().filter(|s| matches!(s, Step::Var(_))).count() as u16
}

/// Literal units among `steps`: the specificity of a pattern or tail.
pub(crate) fn lit_units(src: &str, steps: impl Iterator<Item = Step>) -> u32 {
    steps
        .map(|s| match s {
            Step::Lit(span) => norm::unit_len(span.of(src).as_bytes()) as u32,
            _ => 0,
        })
        .sum()
}

/// Whether two step sequences match the same URIs: same literals after normalisation, same
/// operators and modifiers; names matter only where they are matched (`;name=`).
pub(crate) fn shape_eq(
    sa: &str,
    a: impl Iterator<Item = Step>,
    sb: &str,
    b: impl Iterator<Item = Step>,
) -> bool {
    let mut named = false;
    let mut a = a;
    let mut b = b;
    loop {
        let (x, y) = match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => (x, y),
            _ => return false,
        };
        let same = match (x, y) {
            (Step::Lit(p), Step::Lit(q)) => {
                norm::units_eq(p.of(sa).as_bytes(), q.of(sb).as_bytes())
            }
            (Step::Expr(p), Step::Expr(q)) => {
                named = p.named;
                p == q
            }
            (Step::Var(p), Step::Var(q)) => {
                p.class == q.class
                    && p.explode == q.explode
                    && p.prefix == q.prefix
                    && (!named
                        || norm::units_eq(p.name.of(sa).as_bytes(), q.name.of(sb).as_bytes()))
            }
            (Step::Param(p), Step::Param(q)) => param_eq(sa, p, sb, q),
            _ => false,
        };
        if !same {
            return false;
        }
    }
}

fn param_eq(sa: &str, p: ParamStep, sb: &str, q: ParamStep) -> bool {
    let kind = match (p.kind, q.kind) {
        (
            ParamKind::Var {
                explode: e1,
                prefix: p1,
                ..
            },
            ParamKind::Var {
                explode: e2,
                prefix: p2,
                ..
            },
        ) => e1 == e2 && p1 == p2,
        (ParamKind::Fixed(None), ParamKind::Fixed(None)) => true,
        (ParamKind::Fixed(Some(x)), ParamKind::Fixed(Some(y))) => {
            norm::units_eq(x.of(sa).as_bytes(), y.of(sb).as_bytes())
        }
        _ => false,
    };
    kind && p.required == q.required
        && norm::units_eq(p.name.of(sa).as_bytes(), q.name.of(sb).as_bytes())
}

/// How the query and fragment sections of two templates with the same path compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The same shape.
    Same,
    /// Different shapes that accept the same URIs (they differ only in optional query
    /// parameters, and unknown parameters are ignored).
    Shadowed,
    /// Some URI tells them apart.
    Different,
}

fn params(prog: &[Step], l: &Layout) -> impl Iterator<Item = ParamStep> + Clone {
    prog.get(usize::from(l.path_end)..usize::from(l.query_end))
        .unwrap_or_default()
        .iter()
        .filter_map(|s| match s {
            Step::Param(p) => Some(*p),
            _ => None,
        })
}

/// Whether every parameter of `a` (kept by `keep`) has an equal one in `b` and the counts
/// agree: set equality, in any order.
fn same_set(
    sa: &str,
    a: impl Iterator<Item = ParamStep> + Clone,
    sb: &str,
    b: impl Iterator<Item = ParamStep> + Clone,
    keep: fn(&ParamStep) -> bool,
) -> bool {
    a.clone().filter(keep).count() == b.clone().filter(keep).count()
        && a.filter(keep)
            .all(|p| b.clone().filter(keep).any(|q| param_eq(sa, p, sb, q)))
}

/// Compares the query and fragment sections of two programs.
pub(crate) fn relation(
    sa: &str,
    pa: &[Step],
    la: &Layout,
    sb: &str,
    pb: &[Step],
    lb: &Layout,
) -> Relation {
    let fa = pa
        .get(usize::from(la.query_end)..usize::from(la.steps))
        .unwrap_or_default();
    let fb = pb
        .get(usize::from(lb.query_end)..usize::from(lb.steps))
        .unwrap_or_default();
    if la.frag != lb.frag || !shape_eq(sa, fa.iter().copied(), sb, fb.iter().copied()) {
        return Relation::Different;
    }
    let (qa, qb) = (params(pa, la), params(pb, lb));
    if same_set(sa, qa.clone(), sb, qb.clone(), |_| true) {
        return Relation::Same;
    }
    if la.unknown == UnknownParams::Ignore && same_set(sa, qa, sb, qb, |p| p.required) {
        return Relation::Shadowed;
    }
    Relation::Different
}

/// The precedence rank of a terminal or tail among others at the same node: literal units of
/// the fragment (or tail path), then required query parameters.
pub(crate) fn rank(lits: u32, layout: &Layout) -> u32 {
    (lits.min(0x00FF_FFFF) << 7) | layout.required.count_ones()
}

/// Whether a tail is a catch-all: a lone `{+var}` that ignores the query and has no fragment.
pub(crate) fn is_catch_all(tail: &[Step], layout: &Layout) -> bool {
    matches!(tail, [Step::Expr(e), Step::Var(v)]
        if e.lead == 0 && e.min1 && e.count == 1 && v.class == norm::C_RES_PATH && v.prefix == 0)
        && layout.required == 0
        && layout.frag == FragMode::None
        && layout.unknown == UnknownParams::Ignore
}

/// Whether a tail never matches an empty path remainder.
pub(crate) fn starts_required(first: Option<Step>) -> bool {
    match first {
        Some(Step::Lit(s)) => s.start < s.end,
        Some(Step::Expr(e)) => e.lead == 0 && e.min1,
        _ => false,
    }
}
