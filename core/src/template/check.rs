//! The ambiguity checks run when a template is compiled for matching (docs/matching.md §5).
//!
//! The engine decides everything greedily and never backtracks: a variable takes the longest
//! run of the bytes its class allows, then gives back the part of the next literal that lies
//! in that class; an optional expression is present exactly when the next byte is its lead
//! character. These checks accept a sequence only when those greedy decisions are the only
//! possible ones, which makes matching linear and exact:
//!
//! * **R1** (extent): after peeling the in-class prefix of the next literal, no byte that can
//!   follow a variable belongs to the variable's class.
//! * **R2** (presence): the lead or separator of an optional value cannot start what follows
//!   the expression.

use super::compile::{ExprStep, Step, VarStep};
use super::error::{CompileError, CompileErrorKind};
use super::norm;

/// A set of bytes.
#[derive(Clone, Copy, Default)]
struct Set([u64; 4]);

impl Set {
    fn add(&mut self, b: u8) {
        if let Some(w) = self.0.get_mut(usize::from(b >> 6)) {
            *w |= 1u64 << (b & 63);
        }
    }
    fn has(&self, b: u8) -> bool {
        self.0
            .get(usize::from(b >> 6))
            .is_some_and(|w| w & (1u64 << (b & 63)) != 0)
    }
    /// Adds every byte of `class`.
    fn add_class(&mut self, class: u8) {
        for b in 0..=255u8 {
            if norm::in_class(b, class) {
                self.add(b);
            }
        }
    }
    /// Whether some byte of the set belongs to `class`.
    fn meets(&self, class: u8) -> bool {
        if !crate::WIDE {
            return self.meets_by_words(class);
        }
        (0..=255u8).any(|b| self.has(b) && norm::in_class(b, class))
    }
    /// [`Set::meets`] as compact targets run it: the words of `class`'s set (built as
    /// `first` builds it, so that code is shared) against this one's. Same answer (`tests`).
    fn meets_by_words(&self, class: u8) -> bool {
        let mut c = Set::default();
        c.add_class(class);
        self.0.iter().zip(c.0).any(|(a, b)| a & b != 0)
    }
}

enum Elem<'s> {
    Lit(&'s [u8]),
    Expr(ExprStep, &'s [Step]),
}

/// The element at step `i` and the index after it. (Inlined into its three walks on compact
/// targets, [`crate::WIDE`]: less flash than passing the element back through memory.)
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
fn elem_at<'s>(source: &'s str, steps: &'s [Step], i: usize) -> Option<(Elem<'s>, usize)> {
    match *steps.get(i)? {
        Step::Lit(span) => Some((Elem::Lit(span.of(source).as_bytes()), i + 1)),
        Step::Expr(e) => {
            let end = i + 1 + usize::from(e.count);
            Some((Elem::Expr(e, steps.get(i + 1..end)?), end))
        }
        Step::Var(_) | Step::Param(_) | Step::Seg(_) => None,
    }
}

/// Adds to `set` the bytes a URI may start with where the template has `lit` from byte
/// `from` on; returns whether that rest of `lit` is empty (nothing is added then).
// Inlined on compact targets ([`crate::WIDE`]): less flash than the call.
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
fn lit_first(lit: &[u8], from: usize, set: &mut Set) -> bool {
    let Some((u, _)) = norm::unit_at(lit, from) else {
        return true;
    };
    if u.raw {
        set.add(u.byte);
    }
    if !u.raw || crate::pct::is_unreserved(u.byte) {
        set.add(b'%');
    }
    false
}

/// Adds FIRST of an element to `set`; returns whether the element can be empty.
fn first(elem: &Elem<'_>, set: &mut Set) -> bool {
    match elem {
        Elem::Lit(lit) => lit_first(lit, 0, set),
        Elem::Expr(e, vars) => {
            if e.named || e.lead != 0 {
                set.add(if e.named { b';' } else { e.lead });
                true
            } else {
                let class = match vars.first() {
                    Some(Step::Var(v)) => v.class,
                    _ => 0,
                };
                set.add_class(class);
                !e.min1
            }
        }
    }
}

/// The bytes that can start what follows step `from`, through optional expressions.
// Inlined on compact targets ([`crate::WIDE`]): less flash than the call.
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
fn first_rest(source: &str, steps: &[Step], from: usize) -> Set {
    follow(source, steps, from, None)
}

/// The bytes that can follow a value of `class` once the engine has given back the in-class
/// prefix of the next literal. Only one literal is given back: the first one reached, possibly
/// across optional expressions that are absent.
// Inlined on compact targets ([`crate::WIDE`]): less flash than the call.
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
fn follow_peeled(source: &str, steps: &[Step], from: usize, class: u8) -> Set {
    follow(source, steps, from, Some(class))
}

/// The walk of [`follow_peeled`] (`peel` is the value's class) and of [`first_rest`] (`peel`
/// is `None`: nothing is given back): FIRST of each element from step `from` on, until one
/// that cannot be empty.
fn follow(source: &str, steps: &[Step], mut from: usize, mut peel: Option<u8>) -> Set {
    let mut set = Set::default();
    while let Some((elem, next)) = elem_at(source, steps, from) {
        let nullable = match (&elem, peel) {
            (Elem::Lit(lit), Some(class)) => {
                peel = None;
                lit_first(lit, norm::in_class_prefix(lit, class), &mut set)
            }
            _ => first(&elem, &mut set),
        };
        if !nullable {
            break;
        }
        from = next;
    }
    set
}

fn err(kind: CompileErrorKind, at: u32) -> CompileError {
    CompileError {
        kind,
        at: at as usize,
    }
}

/// Checks a path or fragment sequence (R1, R2).
pub(crate) fn check_sequence(source: &str, steps: &[Step]) -> Result<(), CompileError> {
    let mut i = 0;
    while let Some((elem, next)) = elem_at(source, steps, i) {
        if let Elem::Expr(e, vars) = elem {
            check_expr(source, steps, e, vars, next)?;
        }
        i = next;
    }
    Ok(())
}

fn check_expr(
    source: &str,
    steps: &[Step],
    e: ExprStep,
    vars: &[Step],
    next: usize,
) -> Result<(), CompileError> {
    let sep = if e.named { b';' } else { e.sep };
    let lead = if e.named { b';' } else { e.lead };
    let first_at = match vars.first() {
        Some(Step::Var(v)) => v.name.start,
        _ => 0,
    };
    // R2 where no value precedes (after a literal, or at the start).
    if lead != 0 && first_rest(source, steps, next).has(lead) {
        return Err(err(CompileErrorKind::AmbiguousOptional, first_at));
    }
    let count = vars.len();
    for (j, step) in vars.iter().enumerate() {
        let Step::Var(v) = *step else { continue };
        let last = j + 1 == count;
        let mut follow = follow_peeled(source, steps, next, v.class);
        // R2: the next value of this expression starts where this one's run ends.
        if !last && follow.has(sep) && !norm::in_class(sep, v.class) {
            return Err(err(CompileErrorKind::AmbiguousOptional, v.name.start));
        }
        // R1: the extent of this value.
        if !last {
            follow.add(sep);
        }
        if follow.meets(v.class) {
            let kind = if !last && v.explode {
                CompileErrorKind::ExplodeNotLast
            } else if !last && norm::in_class(sep, v.class) {
                CompileErrorKind::AmbiguousList
            } else {
                CompileErrorKind::AdjacentVariables
            };
            return Err(err(kind, v.name.start));
        }
        // R2: optional expressions that may start where this value's run ends.
        optional_after(source, steps, next, v)?;
        if e.named && !v.explode {
            check_named(v, &first_rest(source, steps, next), last)?;
        }
    }
    Ok(())
}

/// Walks the optional expressions that can directly follow a value of `v` (possibly after a
/// given-back literal): each one's lead must not also start what follows it.
fn optional_after(
    source: &str,
    steps: &[Step],
    mut from: usize,
    v: VarStep,
) -> Result<(), CompileError> {
    let mut peel = true;
    while let Some((elem, next)) = elem_at(source, steps, from) {
        match elem {
            Elem::Lit(lit) => {
                if !peel || norm::in_class_prefix(lit, v.class) < lit.len() {
                    return Ok(());
                }
                peel = false;
            }
            Elem::Expr(x, _) => {
                let lead = if x.named { b';' } else { x.lead };
                if lead == 0 {
                    return Ok(());
                }
                let after = if peel {
                    follow_peeled(source, steps, next, v.class)
                } else {
                    first_rest(source, steps, next)
                };
                if after.has(lead) {
                    return Err(err(CompileErrorKind::AmbiguousOptional, v.name.start));
                }
            }
        }
        from = next;
    }
    Ok(())
}

/// After `;name`, the byte that follows an empty value must end the name.
fn check_named(v: VarStep, rest: &Set, last: bool) -> Result<(), CompileError> {
    let mut after = *rest;
    if !last {
        after.add(b';');
    }
    if after.meets(norm::C_U) || after.has(b'=') {
        return Err(err(CompileErrorKind::AdjacentVariables, v.name.start));
    }
    Ok(())
}

/// Checks the query parameters: no name is bound twice.
pub(crate) fn check_query(source: &str, params: &[Step]) -> Result<(), CompileError> {
    let name = |s: &Step| match s {
        Step::Param(p) => Some(p.name),
        _ => None,
    };
    for (k, a) in params.iter().enumerate() {
        let Some(na) = name(a) else { continue };
        for b in params.iter().skip(k + 1) {
            let Some(nb) = name(b) else { continue };
            if norm::units_eq(na.of(source).as_bytes(), nb.of(source).as_bytes()) {
                return Err(err(CompileErrorKind::DuplicateQueryParam, nb.start));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Set, norm};

    /// Both forms of `Set::meets` agree: every class byte against every single-byte set, the
    /// empty set, and sets of several bytes.
    #[test]
    fn meets_both_forms_agree() {
        let wide = |s: &Set, class: u8| (0..=255u8).any(|b| s.has(b) && norm::in_class(b, class));
        let mut sets = [Set::default(); 262];
        for (b, s) in (0..=255u8).zip(sets.iter_mut().skip(1)) {
            s.add(b);
        }
        for (step, s) in [3u8, 7, 31, 64, 101]
            .into_iter()
            .zip(sets.iter_mut().skip(257))
        {
            for b in (0..=255u8).step_by(usize::from(step)) {
                s.add(b);
            }
        }
        let mut any_true = false;
        for class in 0..=255u8 {
            for s in &sets {
                let want = wide(s, class);
                any_true |= want;
                assert_eq!(s.meets_by_words(class), want, "class {class}");
                assert_eq!(s.meets(class), want, "class {class}");
            }
        }
        assert!(any_true);
    }
}
