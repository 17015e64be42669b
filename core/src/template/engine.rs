//! The match loop (docs/matching.md §2–§4): runs a compiled program over a URI, writing
//! captures into caller storage. Greedy, without backtracking, so linear in the URI length;
//! never allocates. `check.rs` guarantees that the greedy decisions are the right ones.

use super::captures::{self, Shape, Slot};
use super::compile::{ExprStep, FragMode, Layout, ParamKind, Step, UnknownParams, VarStep};
use super::error::MatchError;
use super::norm;
use super::parse::Span;

/// A value whose end may still move left when the next literal is given back.
#[derive(Clone, Copy)]
struct Pending {
    slot: u16,
    start: usize,
    /// The earliest end (after `start + 1` for a value that must not be empty).
    floor: usize,
    class: u8,
}

/// Runs a path or fragment sequence from `pos`; returns where it stopped.
#[inline]
pub(crate) fn run_seq(
    source: &str,
    steps: &[Step],
    uri: &str,
    mut pos: usize,
    caps: &mut [Slot],
) -> Option<usize> {
    let b = uri.as_bytes();
    let src = source.as_bytes();
    let mut pending: Option<Pending> = None;
    let mut i = 0;
    while let Some(step) = steps.get(i) {
        match *step {
            Step::Lit(span) => {
                let lit = src.get(span.start as usize..span.end as usize)?;
                let mut rest = lit;
                if let Some(p) = pending.take() {
                    let l1 = norm::in_class_prefix(lit, p.class);
                    if l1 > 0 {
                        let (given, tail) = lit.split_at_checked(l1)?;
                        let g = norm::match_backward(given, b, p.floor, pos)?;
                        captures::shrink(caps, p.slot, g);
                        rest = tail;
                    }
                }
                pos = norm::match_forward(rest, b, pos)?;
                i += 1;
            }
            Step::Expr(e) => {
                let end = i + 1 + usize::from(e.count);
                let vars = steps.get(i + 1..end)?;
                let (p, pend) = run_expr(e, vars, source, b, pos, caps)?;
                // An absent optional expression consumes nothing: the value before it may
                // still give back the next literal.
                if p != pos {
                    pending = pend;
                }
                pos = p;
                i = end;
            }
            Step::Var(_) | Step::Param(_) | Step::Seg(_) => return None,
        }
    }
    Some(pos)
}

mod simple;
pub(crate) use simple::run_simple;

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn var(step: &Step) -> Option<VarStep> {
    match *step {
        Step::Var(v) => Some(v),
        _ => None,
    }
}

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn shape(v: VarStep, e: ExprStep) -> Shape {
    if v.explode {
        Shape::Split {
            sep: e.sep,
            named: e.named,
        }
    } else {
        Shape::One
    }
}

/// Captures the value of `v` starting at `start`; returns its end. Inlined on every target:
/// on compact ones ([`crate::WIDE`]) it has two call sites left, and inlined it takes less
/// flash than the call.
#[inline(always)]
fn value(v: VarStep, e: ExprStep, b: &[u8], start: usize, caps: &mut [Slot]) -> Option<usize> {
    let end = norm::run(b, start, v.class)?;
    captures::set(caps, v.slot, start, end, shape(v, e));
    Some(end)
}

fn mark_absent(vars: &[Step], caps: &mut [Slot]) {
    for v in vars.iter().filter_map(var) {
        captures::absent(caps, v.slot);
    }
}

/// Runs one expression; returns the position after it and the value that may give back.
#[inline]
fn run_expr(
    e: ExprStep,
    vars: &[Step],
    source: &str,
    b: &[u8],
    mut pos: usize,
    caps: &mut [Slot],
) -> Option<(usize, Option<Pending>)> {
    let mut pending = None;
    if e.named {
        if !crate::WIDE {
            return run_named(e, vars, source, b, pos, caps);
        }
        for v in vars.iter().filter_map(var) {
            captures::absent(caps, v.slot);
            if b.get(pos) != Some(&b';') {
                continue;
            }
            if v.explode {
                let end = value(v, e, b, pos + 1, caps)?;
                pending = Some(Pending {
                    slot: v.slot,
                    start: pos + 1,
                    floor: pos + 1,
                    class: v.class,
                });
                pos = end;
                continue;
            }
            let Some(q) = norm::match_forward(v.name.of(source).as_bytes(), b, pos + 1) else {
                continue;
            };
            match b.get(q) {
                Some(b'=') => {
                    let end = value(v, e, b, q + 1, caps)?;
                    pending = Some(Pending {
                        slot: v.slot,
                        start: q + 1,
                        floor: q + 1,
                        class: v.class,
                    });
                    pos = end;
                }
                Some(&c) if norm::in_class(c, norm::C_U) => {} // a longer name: not this one
                _ => {
                    captures::set(caps, v.slot, q, q, Shape::One);
                    pending = None;
                    pos = q;
                }
            }
        }
        return Some((pos, pending));
    }
    let start = pos;
    for (k, step) in vars.iter().enumerate() {
        let Some(v) = var(step) else { continue };
        let lead = if k == 0 { e.lead } else { e.sep };
        if lead != 0 {
            if b.get(pos) != Some(&lead) {
                mark_absent(vars.get(k..).unwrap_or_default(), caps);
                break;
            }
            pos += 1;
        }
        let end = value(v, e, b, pos, caps)?;
        pending = Some(Pending {
            slot: v.slot,
            start: pos,
            floor: pos,
            class: v.class,
        });
        pos = end;
    }
    if e.min1 {
        // A lead-less expression is never empty: its only value must keep a byte.
        if pos == start {
            return None;
        }
        if let Some(p) = pending.as_mut()
            && p.start == start
        {
            p.floor = start + 1;
        }
    }
    Some((pos, pending))
}

/// The `;name=value` expression `e` ([`run_expr`]) as compact targets run it
/// ([`crate::WIDE`]): each value taken by one tail (where it starts: after `;` when exploded,
/// after `;name=` otherwise) instead of one copy per case. The same captures and positions.
fn run_named(
    e: ExprStep,
    vars: &[Step],
    source: &str,
    b: &[u8],
    mut pos: usize,
    caps: &mut [Slot],
) -> Option<(usize, Option<Pending>)> {
    let mut pending = None;
    for v in vars.iter().filter_map(var) {
        captures::absent(caps, v.slot);
        if b.get(pos) != Some(&b';') {
            continue;
        }
        // Where the value starts: after `;` for an exploded one, else after `;name=`.
        let at = if v.explode {
            pos + 1
        } else {
            let Some(q) = norm::match_forward(v.name.of(source).as_bytes(), b, pos + 1) else {
                continue;
            };
            match b.get(q) {
                Some(b'=') => q + 1,
                Some(&c) if norm::in_class(c, norm::C_U) => continue, // a longer name
                _ => {
                    captures::set(caps, v.slot, q, q, Shape::One);
                    pending = None;
                    pos = q;
                    continue;
                }
            }
        };
        let end = value(v, e, b, at, caps)?;
        pending = Some(Pending {
            slot: v.slot,
            start: at,
            floor: at,
            class: v.class,
        });
        pos = end;
    }
    Some((pos, pending))
}

/// Whether every `%` of `s` starts a triplet.
#[inline]
fn well_formed(s: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) = s.get(i..).and_then(|t| t.iter().position(|&c| c == b'%')) {
        let at = i + k;
        if !crate::pct::starts_with_triplet(s.get(at..).unwrap_or_default()) {
            return false;
        }
        i = at + 3;
    }
    true
}

/// Matches the query parameters (`params` are the program's `Param` steps). The query is
/// `uri[q0..q1]`, or absent.
pub(crate) fn match_query(
    source: &str,
    params: &[Step],
    layout: &Layout,
    uri: &str,
    query: Option<(usize, usize)>,
    caps: &mut [Slot],
) -> Option<()> {
    for p in params {
        if let Step::Param(p) = p
            && let ParamKind::Var { slot, .. } = p.kind
        {
            captures::absent(caps, slot);
        }
    }
    let b = uri.as_bytes();
    let mut seen = 0u64;
    if let Some((q0, q1)) = query {
        let mut at = q0;
        while at <= q1 {
            let item_end = b
                .get(at..q1)?
                .iter()
                .position(|&c| c == b'&')
                .map_or(q1, |k| at + k);
            let item = b.get(at..item_end)?;
            let start = at;
            at = item_end + 1;
            if item.is_empty() {
                continue;
            }
            let eq = item.iter().position(|&c| c == b'=');
            let name = item.get(..eq.unwrap_or(item.len()))?;
            let (v0, v1) = match eq {
                Some(k) => (start + k + 1, item_end),
                None => (item_end, item_end),
            };
            let found = params.iter().enumerate().find_map(|(k, s)| match s {
                Step::Param(p) if norm::units_eq(p.name.of(source).as_bytes(), name) => {
                    Some((k, *p))
                }
                _ => None,
            });
            let Some((k, p)) = found else {
                if layout.unknown == UnknownParams::Reject {
                    return None;
                }
                continue;
            };
            let bit = 1u64 << (k & 63);
            let v = b.get(v0..v1)?;
            match p.kind {
                ParamKind::Var { slot, explode, .. } => {
                    if !well_formed(v) {
                        return None;
                    }
                    if !explode {
                        if seen & bit != 0 {
                            return None; // a scalar given twice is ambiguous
                        }
                        captures::set(caps, slot, v0, v1, Shape::One);
                    } else if seen & bit == 0 {
                        captures::set(caps, slot, q0, q1, Shape::Query);
                    }
                }
                ParamKind::Fixed(want) => {
                    let want = want.map_or("", |w| w.of(source));
                    if !norm::units_eq(want.as_bytes(), v) {
                        return None;
                    }
                }
            }
            seen |= bit;
        }
    }
    (seen & layout.required == layout.required).then_some(())
}

/// The query span (`start..end` of the text after `?`) and where the fragment starts.
type Rest = (Option<(usize, usize)>, Option<usize>);

/// Splits what follows the path at `pos` into query and fragment.
#[inline]
pub(crate) fn split_rest(b: &[u8], pos: usize) -> Option<Rest> {
    match b.get(pos) {
        None => Some((None, None)),
        Some(b'#') => Some((None, Some(pos + 1))),
        Some(b'?') => {
            let q0 = pos + 1;
            match b.get(q0..)?.iter().position(|&c| c == b'#') {
                Some(k) => Some((Some((q0, q0 + k)), Some(q0 + k + 1))),
                None => Some((Some((q0, b.len())), None)),
            }
        }
        Some(_) => None,
    }
}

/// Matches the query and fragment sections of a program once its path ended at `pos`.
pub(crate) fn match_tail_sections(
    source: &str,
    program: &[Step],
    layout: &Layout,
    uri: &str,
    pos: usize,
    caps: &mut [Slot],
) -> Option<()> {
    if pos == uri.len() && layout.path_end == layout.steps && layout.required == 0 {
        return (layout.frag != FragMode::Required).then_some(());
    }
    let (query, frag) = split_rest(uri.as_bytes(), pos)?;
    let params = program.get(usize::from(layout.path_end)..usize::from(layout.query_end))?;
    if !params.is_empty() || (query.is_some() && layout.unknown == UnknownParams::Reject) {
        match_query(source, params, layout, uri, query, caps)?;
    }
    let frag_steps = program.get(usize::from(layout.query_end)..usize::from(layout.steps))?;
    match (layout.frag, frag) {
        (FragMode::None, None) => Some(()),
        (FragMode::None, Some(_)) | (FragMode::Required, None) => None,
        (FragMode::Optional, None) => {
            mark_absent(frag_steps, caps);
            Some(())
        }
        (_, Some(at)) => {
            let end = run_seq(source, frag_steps, uri, at, caps)?;
            (end == uri.len()).then_some(())
        }
    }
}

/// Checks the prefix modifiers (`{var:3}`) of a successful match.
pub(crate) fn prefixes_hold(program: &[Step], uri: &str, caps: &[Slot]) -> bool {
    program.iter().all(|s| {
        let (slot, n) = match *s {
            Step::Var(v) => (v.slot, v.prefix),
            Step::Param(p) => match p.kind {
                ParamKind::Var { slot, prefix, .. } => (slot, prefix),
                ParamKind::Fixed(_) => return true,
            },
            _ => return true,
        };
        n == 0
            || caps.get(usize::from(slot)).is_none_or(|c| {
                let raw = uri.as_bytes().get(c.start as usize..c.end as usize);
                !c.present || norm::decoded_chars(raw.unwrap_or_default()) <= usize::from(n)
            })
    })
}

/// Runs a whole program into raw slots; whether it matched (prefixes included).
pub(crate) fn run_program(
    source: &str,
    program: &[Step],
    layout: &Layout,
    uri: &str,
    slots: &mut [Slot],
) -> bool {
    let Some(path) = program.get(..usize::from(layout.path_end)) else {
        return false;
    };
    // The simple path's own runner is speed only: compact targets ([`crate::WIDE`]) run the
    // general engine on it, which gives the same answer (`simple::tests`).
    let run = if crate::WIDE && layout.simple_path {
        let ops = program.get(usize::from(layout.steps)..usize::from(layout.simple_end));
        run_simple(source, ops.unwrap_or_default(), uri.as_bytes(), 0, 0, slots)
    } else {
        run_seq(source, path, uri, 0, slots)
    };
    let Some(pos) = run else {
        return false;
    };
    if layout.bare && pos == uri.len() {
        return true;
    }
    match_tail_sections(source, program, layout, uri, pos, slots).is_some()
        && (!layout.prefixed || prefixes_hold(program, uri, slots))
}

/// Matches a whole program (the single-template matcher).
pub(crate) fn match_program<'k, 'v, const N: usize>(
    source: &'k str,
    program: &[Step],
    names: &'k [Span],
    layout: &Layout,
    uri: &'v str,
    caps: &mut super::Captures<'k, 'v, N>,
) -> Result<(), MatchError> {
    caps.clear();
    let vars = usize::from(layout.vars);
    if vars > N {
        return Err(MatchError::TooManyVariables { needed: vars });
    }
    if !run_program(source, program, layout, uri, caps.slots_mut()) {
        return Err(MatchError::NoMatch);
    }
    caps.finish(uri, source, names);
    Ok(())
}
