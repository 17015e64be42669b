//! Instruction counts for `valgrind --tool=callgrind`: routes the URI of `route_scale` `N`
//! times through one case, so a run with `N` minus a run with 0, divided by `N`, is the cost
//! of one route (each a call of its own, `Captures::get("number")` included).
//!
//! `cargo bench -p mcp-context-benches --bench route_count --no-run`, then
//! `valgrind --tool=callgrind <bench binary> <case> <N>`, where case is one of `ours` (10,000
//! templates), `ours1` (one template), `pattern` (`Pattern`) or `matchit` (10,000 routes).

#[path = "common/route_cases.rs"]
mod cases;
#[path = "common/count.rs"]
mod count;

use std::hint::black_box;

use cases::{TEMPLATE, URI, matchit_router, ours};
use count::run;
use mcp_context::template::{Captures, Pattern};

fn main() {
    let (case, n) = count::args("ours");
    match case.as_str() {
        "ours" | "ours1" => {
            let router = ours(if case == "ours" { 10_000 } else { 1 });
            run(n, || {
                let mut caps = Captures::<4>::new();
                let hit = router.route(black_box(URI), &mut caps).expect("routes");
                black_box((hit.value, caps.get("number").map(|c| c.raw())));
                *hit.value
            });
        }
        "pattern" => {
            let pattern: Pattern<'_> = Pattern::parse(TEMPLATE).expect("compiles");
            run(n, || {
                let mut caps = Captures::<4>::new();
                pattern.matches(black_box(URI), &mut caps).expect("matches");
                black_box(caps.get("number").map(|c| c.raw()));
                0
            });
        }
        "matchit" => {
            let m = matchit_router(10_000);
            run(n, || {
                let hit = m.at(black_box(URI)).expect("routes");
                black_box((hit.value, hit.params.get("number")));
                *hit.value
            });
        }
        other => panic!("unknown case {other}"),
    }
}
