//! Matching and routing never allocate (lib.rs contract; STYLE "match without allocating").
//! A counting global allocator wraps the system one; building patterns and routers may
//! allocate, the counted sections must not.

use mcp_context::template::{Captures, FixedRouter, OwnedPattern, Pattern, Router};
use mcp_context::uri::validate_uri;
use std::hint::black_box;

/// Allocations made while running `f` on this thread (the `allocation-counter` crate installs
/// a counting global allocator for this test binary only).
fn count(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

const URIS: &[&str] = &[
    "repo://acme/web%20app/issues/812?fields=title&x=1",
    "repo://acme/web/issues/812",
    "repo://acme/web/blob/src/main.rs#L10",
    "files/caf%C3%A9.json",
    "files/a/b/c/edit",
    "s://x?b=2&a=1&c=3",
    "m;a=1;b=2/x",
    "nothing://matches/this",
];

const TEMPLATES: &[&str] = &[
    "repo://{owner}/{repo}/issues/{number}{?fields}",
    "repo://{owner}/{repo}/blob/{+path}{#line}",
    "repo://{owner}/{repo}",
    "files/{name}.json",
    "files/{+path}/edit",
    "s://x{?a,b}",
    "m{;a,b}/x",
];

#[test]
fn match_and_route_do_not_allocate() {
    // Building may allocate.
    let patterns: Vec<Pattern<'_>> = TEMPLATES
        .iter()
        .map(|t| Pattern::parse(t).unwrap())
        .collect();
    let owned: Vec<OwnedPattern> = TEMPLATES
        .iter()
        .map(|t| OwnedPattern::parse(t).unwrap())
        .collect();
    let mut router = Router::new();
    for (i, t) in TEMPLATES.iter().enumerate() {
        router.insert(t, i).unwrap();
    }
    let mut big = Router::new();
    for i in 0..10_000 {
        big.insert(&format!("repo://svc{i}/{{owner}}/{{repo}}"), i)
            .unwrap();
    }
    let mut fixed: FixedRouter<'_, usize, 8, 128> = FixedRouter::new();
    for (i, t) in TEMPLATES.iter().enumerate() {
        fixed.insert(t, i).unwrap();
    }

    // The counter works: building a router allocates.
    assert!(
        count(|| {
            black_box(Router::<()>::new().insert("a/{b}", ()).is_ok());
        }) > 0
    );
    let mut hits = 0usize;
    let n = count(|| {
        for uri in URIS {
            for p in &patterns {
                let mut caps = Captures::<8>::new();
                if p.matches(uri, &mut caps).is_ok() {
                    hits += 1;
                    for c in caps.iter() {
                        let mut buf = [0u8; 64];
                        black_box(c.decode_into(&mut buf).ok());
                        black_box(c.values().count() + c.pairs().count());
                    }
                }
                black_box(p.is_match(uri));
            }
            for p in &owned {
                let mut caps = Captures::<8>::new();
                hits += usize::from(p.matches(uri, &mut caps).is_ok());
            }
            let mut caps = Captures::<8>::new();
            hits += usize::from(router.route(uri, &mut caps).is_ok());
            let mut caps = Captures::<8>::new();
            hits += usize::from(fixed.route(uri, &mut caps).is_ok());
            let mut caps = Captures::<8>::new();
            hits += usize::from(big.route(uri, &mut caps).is_ok());
            black_box(validate_uri(uri).is_ok());
        }
        let mut caps = Captures::<2>::new();
        hits += usize::from(big.route("repo://svc9999/a/b", &mut caps).is_ok());
    });
    assert_eq!(n, 0, "matching and routing allocated {n} times");
    assert!(hits > 10, "the URIs should match something ({hits})");
}
