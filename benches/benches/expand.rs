//! RFC 6570 expansion: mcp-context against iri-string and std-uritemplate, in the same run,
//! on the same inputs (the cases and the fairness rules are in `common/expand_cases.rs`).
//!
//! Run: `cargo bench -p mcp-context-benches --bench expand -- --warm-up-time 1 --measurement-time 2`
//! then `python3 benches/ratios.py` for the ratio table (see benches/README.md).

#[path = "common/expand_cases.rs"]
mod cases;

use std::hint::black_box;

use cases::{CASES, Prepared};
use criterion::{Criterion, criterion_group, criterion_main};

fn expand(c: &mut Criterion) {
    for case in CASES {
        let p = Prepared::new(case);
        let mut group = c.benchmark_group(case.group);
        let mut out = String::with_capacity(256);
        group.bench_function("mcp-context", |b| {
            b.iter(|| {
                out.clear();
                p.ours(&mut out);
                black_box(out.len())
            });
        });
        let mut buf = [0u8; 256];
        group.bench_function("mcp-context slice", |b| b.iter(|| p.ours_slice(&mut buf)));
        group.bench_function("mcp-context parse+expand", |b| {
            b.iter(|| {
                out.clear();
                p.ours_parse_expand(&mut out);
                black_box(out.len())
            });
        });
        group.bench_function("iri-string", |b| {
            b.iter(|| {
                out.clear();
                p.iri(&mut out);
                black_box(out.len())
            });
        });
        group.bench_function("std-uritemplate", |b| b.iter(|| p.std()));
        group.finish();
    }
}

criterion_group!(benches, expand);
criterion_main!(benches);
