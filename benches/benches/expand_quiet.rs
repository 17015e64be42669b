//! The same expansion comparison as `expand`, measured to resist a busy machine: every
//! library runs in short bursts (100 expansions), interleaved with the others, thousands of
//! times; the fastest burst of each is its time. A burst that a preemption or another build
//! slowed down simply does not count, so the ratios stay put when criterion's medians do not.
//!
//! Run: `cargo bench -p mcp-context-benches --bench expand_quiet` (a few seconds). Prints
//! Markdown rows for benches/README.md.

#[path = "common/expand_cases.rs"]
mod cases;

use std::hint::black_box;
use std::time::Instant;

use cases::{CASES, Prepared};

const BURST: u32 = 100;
const ROUNDS: u32 = 3000;

fn main() {
    // `cargo bench` passes `--bench`; a filter argument, if any, is ignored.
    println!("| group | function | fastest burst, per expansion | ours / peer |");
    println!("| --- | --- | --- | --- |");
    for case in CASES {
        let p = Prepared::new(case);
        let mut out = String::with_capacity(256);
        let mut buf = [0u8; 256];
        let names = [
            "mcp-context",
            "mcp-context slice",
            "mcp-context parse+expand",
            "iri-string",
            "std-uritemplate",
        ];
        let mut best = [f64::MAX; 5];
        for _ in 0..ROUNDS {
            for (k, slot) in best.iter_mut().enumerate() {
                let start = Instant::now();
                for _ in 0..BURST {
                    out.clear();
                    match k {
                        0 => p.ours(&mut out),
                        1 => {
                            black_box(p.ours_slice(&mut buf));
                        }
                        2 => p.ours_parse_expand(&mut out),
                        3 => p.iri(&mut out),
                        _ => {
                            black_box(p.std());
                        }
                    }
                    black_box(out.len());
                }
                let per = start.elapsed().as_secs_f64() * 1e9 / f64::from(BURST);
                *slot = slot.min(per);
            }
        }
        let (iri, std) = (best[3], best[4]);
        for (name, t) in names.iter().zip(best) {
            let ratio = if name.starts_with("mcp-context") {
                format!(
                    "{:.2}× iri-string, {:.2}× std-uritemplate",
                    t / iri,
                    t / std
                )
            } else {
                String::new()
            };
            println!("| {} | {name} | {t:.0} ns | {ratio} |", case.group);
        }
    }
}
