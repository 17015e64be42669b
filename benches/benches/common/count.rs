//! The loop of the callgrind harnesses (`decode_count`, `route_count`): the case and `N`
//! from the command line, and `N` calls of one case, each result kept alive.

use std::hint::black_box;

/// The case (first argument, `default` when absent) and `N` (second, 200 when absent).
pub(crate) fn args(default: &str) -> (String, usize) {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map_or(default, String::as_str).to_owned();
    let n = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    (case, n)
}

/// Calls `f` `n` times, out of line, so that a run with `n` minus a run with 0 is `n` calls.
#[inline(never)]
pub(crate) fn run(n: usize, mut f: impl FnMut() -> usize) {
    let mut total = 0usize;
    for _ in 0..n {
        total = total.wrapping_add(black_box(f()));
    }
    black_box(total);
}
