//! Template matching and routing, ours against matchit, regex and a byte-scan floor, in the
//! same run on the same URI.
//!
//! * `match/1`: one template. Ours (`Pattern`, and `Router` with one route), matchit with one
//!   route, a regex derived from the template, and a loop that splits on `/` (the floor).
//! * `route/1000`, `route/10000`: equivalent route sets, the target registered last:
//!   `/svc{i}/{owner}/{repo}/issues/{number}` for the others, then
//!   `/repos/{owner}/{repo}/issues/{number}`. Ours also in the MCP shape (`repo://…`).
//!
//! Run: `cargo bench -p mcp-context-benches --bench match_route -- --warm-up-time 1 --measurement-time 2`

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_context::template::{Captures, Pattern, Router};
use std::hint::black_box;

const TEMPLATE: &str = "/repos/{owner}/{repo}/issues/{number}";
const URI: &str = "/repos/acme/web-app/issues/812";
const MCP_TEMPLATE: &str = "repo://repos/{owner}/{repo}/issues/{number}";
const MCP_URI: &str = "repo://repos/acme/web-app/issues/812";

fn others(n: usize, prefix: &str) -> impl Iterator<Item = String> + '_ {
    (0..n.saturating_sub(1))
        .map(move |i| format!("{prefix}svc{i}/{{owner}}/{{repo}}/issues/{{number}}"))
}

fn ours(n: usize, prefix: &str, target: &str) -> Router<usize> {
    let mut r = Router::new();
    for (i, t) in others(n, prefix).enumerate() {
        r.insert(&t, i + 1).expect("insert");
    }
    r.insert(target, 0).expect("insert target");
    r
}

fn theirs(n: usize) -> matchit::Router<usize> {
    let mut r = matchit::Router::new();
    for (i, t) in others(n, "/").enumerate() {
        r.insert(t, i + 1).expect("insert");
    }
    r.insert(TEMPLATE, 0).expect("insert target");
    r
}

fn check_ours(r: &Router<usize>, uri: &str) {
    let mut caps = Captures::<4>::new();
    let hit = r.route(uri, &mut caps).expect("routes");
    assert_eq!(*hit.value, 0);
    assert_eq!(caps.get("number").and_then(|c| c.as_str()), Some("812"));
}

fn match_one(c: &mut Criterion) {
    let mut g = c.benchmark_group("match/1");
    let pattern: Pattern<'_> = Pattern::parse(TEMPLATE).expect("compiles");
    g.bench_function("ours-pattern", |b| {
        b.iter(|| {
            let mut caps = Captures::<4>::new();
            pattern.matches(black_box(URI), &mut caps).expect("matches");
            black_box(caps.get("number").map(|c| c.raw()));
        });
    });
    let router = ours(1, "/", TEMPLATE);
    check_ours(&router, URI);
    g.bench_function("ours-router", |b| {
        b.iter(|| {
            let mut caps = Captures::<4>::new();
            let hit = router.route(black_box(URI), &mut caps).expect("routes");
            black_box((hit.value, caps.get("number").map(|c| c.raw())));
        });
    });
    let m = theirs(1);
    g.bench_function("matchit", |b| {
        b.iter(|| {
            let hit = m.at(black_box(URI)).expect("routes");
            black_box((hit.value, hit.params.get("number")));
        });
    });
    let re = regex::Regex::new(
        "^/repos/([A-Za-z0-9._~%-]+)/([A-Za-z0-9._~%-]+)/issues/([A-Za-z0-9._~%-]+)$",
    )
    .expect("regex");
    g.bench_function("regex-captures", |b| {
        b.iter(|| {
            let caps = re.captures(black_box(URI)).expect("matches");
            black_box(caps.get(3).map(|m| m.as_str()));
        });
    });
    g.bench_function("floor-split", |b| {
        b.iter(|| {
            // The least any matcher must do: one pass over the bytes, noting each `/`.
            let bytes = black_box(URI).as_bytes();
            let mut cuts = [0usize; 8];
            let mut n = 0;
            for (i, &c) in bytes.iter().enumerate() {
                if c == b'/' {
                    if let Some(slot) = cuts.get_mut(n) {
                        *slot = i;
                    }
                    n += 1;
                }
            }
            black_box((n, cuts));
        });
    });
    g.finish();
}

fn route_many(c: &mut Criterion) {
    for n in [1_000usize, 10_000] {
        let mut g = c.benchmark_group(format!("route/{n}"));
        let router = ours(n, "/", TEMPLATE);
        check_ours(&router, URI);
        g.bench_function("ours-router", |b| {
            b.iter(|| {
                let mut caps = Captures::<4>::new();
                let hit = router.route(black_box(URI), &mut caps).expect("routes");
                black_box((hit.value, caps.get("number").map(|c| c.raw())));
            });
        });
        let mcp = ours(n, "repo://", MCP_TEMPLATE);
        check_ours(&mcp, MCP_URI);
        g.bench_function("ours-router-mcp-shape", |b| {
            b.iter(|| {
                let mut caps = Captures::<4>::new();
                let hit = mcp.route(black_box(MCP_URI), &mut caps).expect("routes");
                black_box((hit.value, caps.get("number").map(|c| c.raw())));
            });
        });
        let m = theirs(n);
        g.bench_function("matchit", |b| {
            b.iter(|| {
                let hit = m.at(black_box(URI)).expect("routes");
                black_box((hit.value, hit.params.get("number")));
            });
        });
        g.finish();
    }
}

criterion_group!(benches, match_one, route_many);
criterion_main!(benches);
