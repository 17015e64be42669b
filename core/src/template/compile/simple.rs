//! The compact form of a simple path (plain literals and lone `{var}`s): the `Seg` ops the
//! engine's fast path runs on wide targets, and where a path position falls in them.

use super::super::norm;
use super::super::parse::Span;
use super::{NO_SLOT, SegStep, Step};

/// Whether a path is plain literals and lone simple `{var}`s, each literal after a variable
/// starting with a byte the variable cannot hold (so nothing is ever given back).
pub(super) fn is_simple(source: &str, path: &[Step]) -> bool {
    simple_count(source, path).is_some()
}

/// How many ops the compact form of `path` takes on wide targets: none when the path is not
/// simple or its form does not fit in 32 ops (it is then not used).
pub(super) fn simple_ops(source: &str, path: &[Step]) -> usize {
    simple_count(source, path).filter(|&n| n <= 32).unwrap_or(0)
}

/// For a simple path ([`is_simple`]), how many ops its compact form needs (what [`compact`]
/// returns: one per variable, one more for a literal after the last); `None` otherwise.
fn simple_count(source: &str, path: &[Step]) -> Option<usize> {
    let (mut after_var, mut vars, mut tail) = (false, 0, false);
    for step in path {
        match *step {
            Step::Lit(span) => {
                let text = span.of(source).as_bytes();
                if !norm::is_plain(text) {
                    return None;
                }
                if after_var && text.first().is_some_and(|&c| norm::in_class(c, norm::C_U)) {
                    return None;
                }
                after_var = false;
                tail = true;
            }
            Step::Expr(e) => {
                if e.lead != 0 || !e.min1 || e.named || e.count != 1 {
                    return None;
                }
            }
            Step::Var(v) => {
                if v.class != norm::C_U || v.explode || v.prefix != 0 {
                    return None;
                }
                after_var = true;
                tail = false;
                vars += 1;
            }
            Step::Param(_) | Step::Seg(_) => return None,
        }
    }
    Some(vars + usize::from(tail))
}

/// Writes the compact form of a simple path into `ops`; returns how many ops it needs
/// (more than `ops.len()` when it does not fit: then only the fitting ones are written).
pub(super) fn compact(path: &[Step], ops: &mut [SegStep]) -> usize {
    let mut n = 0;
    let mut lit: Option<Span> = None;
    let mut put = |op: SegStep, n: &mut usize| {
        if let Some(slot) = ops.get_mut(*n) {
            *slot = op;
        }
        *n += 1;
    };
    for step in path {
        match *step {
            Step::Lit(span) => lit = Some(span),
            Step::Var(v) => {
                let l = lit.take().unwrap_or(Span {
                    start: v.name.start,
                    end: v.name.start,
                });
                put(SegStep::new(l, v.slot), &mut n);
            }
            _ => {}
        }
    }
    if let Some(l) = lit {
        put(SegStep::new(l, NO_SLOT), &mut n);
    }
    n
}

/// Where a position of a simple path (step `i`, byte `off` into its literal) falls in its
/// compact form: an op index and a byte offset into that op's literal.
pub(crate) fn compact_position(source: &str, path: &[Step], i: usize, off: u32) -> (usize, u32) {
    let vars = path
        .get(..i)
        .unwrap_or(path)
        .iter()
        .filter(|s| matches!(s, Step::Var(_)))
        .count();
    match path.get(i) {
        Some(Step::Lit(_)) => (vars, off),
        _ => match i.checked_sub(1).and_then(|k| path.get(k)) {
            Some(Step::Lit(s)) => (vars, s.of(source).len() as u32),
            _ => (vars, 0),
        },
    }
}
