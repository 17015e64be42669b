//! Routing time against the size of the route table, 1 to 100,000 templates: ours, matchit
//! and a regex scan (one template-derived regex per route, tried in registration order, the
//! target last, as a hand-rolled router does), plus the one-template matchers and the
//! byte-scan floor. Measured the quiet way (as `expand_quiet`): every router runs in short
//! bursts, interleaved with the others, many times; its fastest burst is its time.
//!
//! Run: `cargo bench -p mcp-context-benches --bench route_scale` (about a minute). Prints a
//! Markdown table and writes `benches/scale.csv`, which `python3 benches/plot.py` turns into
//! `benches/scale.svg`. The regex scan is measured up to 10,000 templates (at 100,000 its
//! compile alone takes minutes); the CSV marks how each point was obtained.
//!
//! `ROUTE_SCALE_QUICK=1` measures only 1 and 10,000 templates, without the regex scan, and
//! writes no CSV: a quick check while working on the router.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use mcp_context::template::{Captures, Pattern};

#[path = "common/route_cases.rs"]
mod cases;

use cases::{TEMPLATE, URI, matchit_router, others, ours};

const SIZES: [usize; 6] = [1, 10, 100, 1_000, 10_000, 100_000];
const REGEX_MAX: usize = 10_000;

/// The regex a hand-rolled router derives from a `{var}`-only template.
fn regex_of(template: &str) -> regex::Regex {
    let mut re = String::from("^");
    for (k, piece) in template.split('{').enumerate() {
        let lit = if k == 0 {
            piece
        } else {
            let (_, lit) = piece.split_once('}').expect("closed");
            re.push_str("([A-Za-z0-9._~%!$&'()*+,;=:@-]+)");
            lit
        };
        re.push_str(&regex::escape(lit));
    }
    re.push('$');
    regex::Regex::new(&re).expect("regex")
}

fn regex_scan(n: usize) -> Vec<regex::Regex> {
    others(n)
        .chain([TEMPLATE.to_string()])
        .map(|t| regex_of(&t))
        .collect()
}

/// Fastest burst of each closure, interleaved: `rounds` rounds of `burst` calls each.
fn quiet(fns: &mut [&mut dyn FnMut()], burst: u32, rounds: u32) -> Vec<f64> {
    let mut best = vec![f64::MAX; fns.len()];
    for _ in 0..rounds {
        for (f, slot) in fns.iter_mut().zip(best.iter_mut()) {
            let start = Instant::now();
            for _ in 0..burst {
                f();
            }
            let per = start.elapsed().as_secs_f64() * 1e9 / f64::from(burst);
            *slot = slot.min(per);
        }
    }
    best
}

fn floor(uri: &str) -> (usize, [usize; 8]) {
    // The least any matcher must do: one pass over the bytes, noting each `/`.
    let mut cuts = [0usize; 8];
    let mut n = 0;
    for (i, &c) in uri.as_bytes().iter().enumerate() {
        if c == b'/' {
            if let Some(slot) = cuts.get_mut(n) {
                *slot = i;
            }
            n += 1;
        }
    }
    (n, cuts)
}

fn main() {
    // One template: `Pattern`, matchit with one route, a regex, the floor.
    let pattern: Pattern<'_> = Pattern::parse(TEMPLATE).expect("compiles");
    let m1 = matchit_router(1);
    let re1 = regex_of(TEMPLATE);
    let mut pattern_fn = || {
        let mut caps = Captures::<4>::new();
        pattern.matches(black_box(URI), &mut caps).expect("matches");
        black_box(caps.get("number").map(|c| c.raw()));
    };
    let mut matchit_fn = || {
        let hit = m1.at(black_box(URI)).expect("routes");
        black_box((hit.value, hit.params.get("number")));
    };
    let mut regex_fn = || {
        let caps = re1.captures(black_box(URI)).expect("matches");
        black_box(caps.get(3).map(|m| m.as_str()));
    };
    let mut floor_fn = || {
        black_box(floor(black_box(URI)));
    };
    let one = quiet(
        &mut [
            &mut pattern_fn,
            &mut matchit_fn,
            &mut regex_fn,
            &mut floor_fn,
        ],
        200,
        3000,
    );
    println!("| one template | time |");
    println!("| --- | ---: |");
    for (name, t) in [
        "ours (`Pattern`)",
        "matchit",
        "regex captures",
        "byte-scan floor",
    ]
    .iter()
    .zip(&one)
    {
        println!("| {name} | {t:.1} ns |");
    }
    println!(
        "\nPattern / matchit = {:.2}, Pattern / floor = {:.2}\n",
        one[0] / one[1],
        one[0] / one[3]
    );

    let quick = std::env::var_os("ROUTE_SCALE_QUICK").is_some();
    let mut csv = String::from("templates,ours,matchit,regex_scan,regex_how\n");
    println!(
        "| templates | ours (router) | matchit | regex scan | ours / matchit | ours / ours at 1 |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut ours_at_1 = 0.0;
    let mut regex_per_template = 0.0;
    for n in SIZES {
        if quick && n != 1 && n != 10_000 {
            continue;
        }
        let router = ours(n);
        let m = matchit_router(n);
        {
            let mut caps = Captures::<4>::new();
            let hit = router.route(URI, &mut caps).expect("routes");
            assert_eq!(*hit.value, 0);
            assert_eq!(caps.get("number").and_then(|c| c.as_str()), Some("812"));
        }
        let mut ours_fn = || {
            let mut caps = Captures::<4>::new();
            let hit = router.route(black_box(URI), &mut caps).expect("routes");
            black_box((hit.value, caps.get("number").map(|c| c.raw())));
        };
        let mut theirs_fn = || {
            let hit = m.at(black_box(URI)).expect("routes");
            black_box((hit.value, hit.params.get("number")));
        };
        let t = quiet(&mut [&mut ours_fn, &mut theirs_fn], 200, 1500);
        drop((router, m));
        let (regex, how) = if quick {
            (f64::NAN, "skipped")
        } else if n <= REGEX_MAX {
            let scan = regex_scan(n);
            let mut scan_fn = || {
                let hit = scan.iter().position(|re| re.is_match(black_box(URI)));
                let caps = hit
                    .and_then(|i| scan.get(i))
                    .and_then(|re| re.captures(URI));
                black_box(caps.and_then(|c| c.get(3)).map(|m| m.as_str()));
            };
            let (burst, rounds) = if n >= 1_000 { (1, 60) } else { (50, 400) };
            let r = quiet(&mut [&mut scan_fn], burst, rounds)[0];
            regex_per_template = r / n as f64;
            (r, "measured")
        } else {
            (regex_per_template * n as f64, "modelled")
        };
        if n == 1 {
            ours_at_1 = t[0];
        }
        println!(
            "| {n} | {:.1} ns | {:.1} ns | {:.0} ns{} | {:.2} | {:.2} |",
            t[0],
            t[1],
            regex,
            if how == "modelled" { " (modelled)" } else { "" },
            t[0] / t[1],
            t[0] / ours_at_1
        );
        let _ = writeln!(csv, "{n},{:.2},{:.2},{regex:.1},{how}", t[0], t[1]);
    }
    if quick {
        return;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scale.csv");
    std::fs::write(path, csv).expect("write scale.csv");
    println!("\nwrote {path}");
}
