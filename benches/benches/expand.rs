//! RFC 6570 expansion: mcp-context against iri-string and std-uritemplate, in the same run,
//! on the same inputs.
//!
//! Each library gets its best prepared form, built outside the timed loop:
//!
//! * **mcp-context**: `Template::parse` once; expansion writes into a reused `String` (or a
//!   stack buffer with `expand_to_slice`). Variables are a slice of `(name, Value)` pairs.
//! * **iri-string**: `UriTemplateStr::new` once. It validates but keeps no parsed form, so
//!   every expansion scans the template text again (twice: a type check, then the writer).
//!   Variables are a `Context` doing the same linear lookup over the same pairs; output goes
//!   into a reused `String`.
//! * **std-uritemplate**: cannot prepare anything. `expand(&str, &HashMap)` parses the template
//!   and allocates a new `String` on every call; only the `HashMap` is built outside the loop.
//!   `mcp-context parse+expand` is the like-for-like row for it.
//!
//! Before timing, every library's output is checked against the expected URI.
//! Run: `cargo bench -p mcp-context-benches --bench expand -- --warm-up-time 1 --measurement-time 2`
//! and `python3 benches/ratios.py` for the ratio table (see benches/README.md).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use iri_string::spec::UriSpec;
use iri_string::template::UriTemplateStr;
use iri_string::template::context::{AssocVisitor, Context, ListVisitor, Visitor};
use mcp_context::template::{Template, Value};

/// One benchmark case: a template, its variables and the URI it must expand to.
struct Case {
    group: &'static str,
    template: &'static str,
    vars: &'static [(&'static str, Value<'static>)],
    expected: &'static str,
}

const LEVEL1: Case = Case {
    group: "expand_level1",
    template: "repo://{owner}/{repo}/issues/{number}",
    vars: &[
        ("owner", Value::Str("acme")),
        ("repo", Value::Str("web-app")),
        ("number", Value::Str("812")),
    ],
    expected: "repo://acme/web-app/issues/812",
};

const LEVEL4: Case = Case {
    group: "expand_level4",
    template: "repo://{owner}/{repo}/search{/segments*}{?q,langs,sort:4}{&filters*}",
    vars: &[
        ("owner", Value::Str("acme")),
        ("repo", Value::Str("web-app")),
        ("segments", Value::List(&["src", "lib"])),
        ("q", Value::Str("fn main")),
        ("langs", Value::List(&["rust", "c"])),
        ("sort", Value::Str("recent")),
        (
            "filters",
            Value::Assoc(&[("state", "open"), ("label", "good first")]),
        ),
    ],
    expected: "repo://acme/web-app/search/src/lib?q=fn%20main&langs=rust,c&sort=rece\
               &state=open&label=good%20first",
};

/// iri-string's variable source: the same pairs, the same linear lookup.
struct IriVars(&'static [(&'static str, Value<'static>)]);

impl Context for IriVars {
    fn visit<V: Visitor>(&self, visitor: V) -> V::Result {
        let name = visitor.var_name().as_str();
        match self.0.iter().find(|(n, _)| *n == name) {
            None => visitor.visit_undefined(),
            Some((_, Value::Str(s))) => visitor.visit_string(s),
            Some((_, Value::List(items))) => visitor.visit_list().visit_items_and_finish(*items),
            Some((_, Value::Assoc(pairs))) => visitor
                .visit_assoc()
                .visit_entries_and_finish(pairs.iter().map(|(k, v)| (k, v))),
        }
    }
}

/// std-uritemplate's variable source, built once.
fn std_vars(vars: &[(&str, Value<'_>)]) -> HashMap<String, stduritemplate::Value> {
    use stduritemplate::Value as V;
    vars.iter()
        .map(|(name, value)| {
            let v = match value {
                Value::Str(s) => V::String((*s).to_owned()),
                Value::List(items) => {
                    V::List(items.iter().map(|s| V::String((*s).to_owned())).collect())
                }
                Value::Assoc(pairs) => V::Map(
                    pairs
                        .iter()
                        .map(|(k, v)| ((*k).to_owned(), V::String((*v).to_owned())))
                        .collect(),
                ),
            };
            ((*name).to_owned(), v)
        })
        .collect()
}

fn bench_case(c: &mut Criterion, case: &Case) {
    let ours: Template<'_> = Template::parse(case.template).expect("template parses");
    let iri = UriTemplateStr::new(case.template).expect("iri-string accepts the template");
    let iri_vars = IriVars(case.vars);
    let std_map = std_vars(case.vars);

    // Same output from everyone before anything is timed.
    let mut out = String::new();
    ours.expand(case.vars, &mut out).expect("expands");
    assert_eq!(out, case.expected, "mcp-context");
    let mut buf = [0u8; 256];
    let n = ours.expand_to_slice(case.vars, &mut buf).expect("fits");
    assert_eq!(&buf[..n], case.expected.as_bytes(), "mcp-context slice");
    out.clear();
    let expanded = iri
        .expand::<UriSpec, _>(&iri_vars)
        .expect("iri-string expands");
    write!(out, "{expanded}").expect("writes");
    assert_eq!(out, case.expected, "iri-string");
    let std_out = stduritemplate::expand(case.template, &std_map).expect("std-uritemplate");
    assert_eq!(std_out, case.expected, "std-uritemplate");

    let mut group = c.benchmark_group(case.group);
    group.bench_function("mcp-context", |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            out.clear();
            black_box(&ours)
                .expand(black_box(case.vars), &mut out)
                .expect("expands");
            black_box(out.len())
        });
    });
    group.bench_function("mcp-context slice", |b| {
        let mut buf = [0u8; 256];
        b.iter(|| {
            black_box(&ours)
                .expand_to_slice(black_box(case.vars), &mut buf)
                .expect("fits")
        });
    });
    group.bench_function("mcp-context parse+expand", |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            out.clear();
            let t: Template<'_> = Template::parse(black_box(case.template)).expect("parses");
            t.expand(black_box(case.vars), &mut out).expect("expands");
            black_box(out.len())
        });
    });
    group.bench_function("iri-string", |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            out.clear();
            let expanded = black_box(iri)
                .expand::<UriSpec, _>(black_box(&iri_vars))
                .expect("expands");
            write!(out, "{expanded}").expect("writes");
            black_box(out.len())
        });
    });
    group.bench_function("std-uritemplate", |b| {
        b.iter(|| {
            stduritemplate::expand(black_box(case.template), black_box(&std_map)).expect("expands")
        });
    });
    group.finish();
}

fn expand(c: &mut Criterion) {
    bench_case(c, &LEVEL1);
    bench_case(c, &LEVEL4);
}

criterion_group!(benches, expand);
criterion_main!(benches);
