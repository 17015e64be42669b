//! Template matching and routing, ours against matchit, regex and a byte-scan floor, in the
//! same run on the same URI.
//!
//! * `match/1`: one template. Ours (`Pattern`, and `Router` with one route), matchit with one
//!   route, a regex derived from the template, and a loop that splits on `/` (the floor).
//! * `route/1000`, `route/10000`: equivalent route sets, the target registered last:
//!   `/svc{i}/{owner}/{repo}/issues/{number}` for the others, then
//!   `/repos/{owner}/{repo}/issues/{number}`. Ours also in the MCP shape (`repo://…`).
//!
//! * `user/…`: your own route table. Set `MCP_ROUTES` to a file of templates and URIs (format
//!   in [`user_table`] and benches/README.md): every URI is routed by ours, matchit (templates
//!   it can express) and a regex scan (one regex per template, tried in order), same run.
//!
//! Run: `cargo bench -p mcp-context-benches --bench match_route -- --warm-up-time 1 --measurement-time 2`
//! With your table: `MCP_ROUTES=routes.txt cargo bench -p mcp-context-benches --bench match_route -- user`

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

/// A user's table, from the file named by `MCP_ROUTES`. One entry per line; blank lines and
/// lines starting with `#` are ignored:
///
/// ```text
/// t repo://{owner}/{repo}/issues/{number}     a template (registered in file order)
/// u repo://acme/web/issues/7                  a URI to route (each run in turn per iteration)
/// ```
struct UserTable {
    templates: Vec<String>,
    uris: Vec<String>,
}

fn user_table() -> Option<UserTable> {
    let path = std::path::PathBuf::from(std::env::var_os("MCP_ROUTES")?);
    // `cargo bench` runs in `benches/`: a relative path is also tried from the workspace
    // root, where the README's command is typed.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = if path.is_relative() && !path.exists() {
        root.join(&path)
    } else {
        path
    };
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("MCP_ROUTES={}: {e}", path.display()));
    let (mut templates, mut uris) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(char::is_whitespace) {
            Some(("t", t)) => templates.push(t.trim().to_string()),
            Some(("u", u)) => uris.push(u.trim().to_string()),
            _ => panic!(
                "MCP_ROUTES line {}: expected `t <template>` or `u <uri>`",
                n + 1
            ),
        }
    }
    assert!(
        !templates.is_empty() && !uris.is_empty(),
        "MCP_ROUTES: no templates or no URIs"
    );
    Some(UserTable { templates, uris })
}

/// matchit's form of a template, when it has one: `{var}` stays, a trailing `{+var}` or
/// `{/var*}` becomes a catch-all `{*var}`; anything else (query expressions, operators,
/// several variables in one segment) has no matchit equivalent.
fn matchit_form(t: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        out.push_str(rest.get(..open)?);
        let close = open + rest.get(open..)?.find('}')?;
        let expr = rest.get(open + 1..close)?;
        let after = rest.get(close + 1..)?;
        let name_ok =
            |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if name_ok(expr) {
            out.push('{');
            out.push_str(expr);
            out.push('}');
        } else if after.is_empty() && (expr.starts_with('+') || expr.starts_with('/')) {
            let name = expr.trim_start_matches(['+', '/']).trim_end_matches('*');
            if !name_ok(name) {
                return None;
            }
            if expr.starts_with('/') {
                out.push('/');
            }
            out.push_str("{*");
            out.push_str(name);
            out.push('}');
        } else {
            return None;
        }
        rest = after;
    }
    out.push_str(rest);
    Some(out)
}

/// A regex for a template's level-1 and reserved (`{+var}`) expressions; `None` otherwise.
fn regex_form(t: &str) -> Option<regex::Regex> {
    let mut re = String::from("^");
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        re.push_str(&regex::escape(rest.get(..open)?));
        let close = open + rest.get(open..)?.find('}')?;
        let expr = rest.get(open + 1..close)?;
        if expr.starts_with('+') {
            re.push_str("([^?#]*)");
        } else if expr.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            re.push_str("([A-Za-z0-9._~%-]+)");
        } else {
            return None;
        }
        rest = rest.get(close + 1..)?;
    }
    re.push_str(&regex::escape(rest));
    re.push('$');
    regex::Regex::new(&re).ok()
}

fn user_routes(c: &mut Criterion) {
    let Some(table) = user_table() else {
        return;
    };
    let mut ours = Router::new();
    let mut refused = 0;
    for (i, t) in table.templates.iter().enumerate() {
        if ours.insert(t, i).is_err() {
            refused += 1;
        }
    }
    let mut m = matchit::Router::new();
    let mut m_skipped = 0;
    for (i, t) in table.templates.iter().enumerate() {
        if matchit_form(t).is_none_or(|form| m.insert(form, i).is_err()) {
            m_skipped += 1;
        }
    }
    let regexes: Vec<regex::Regex> = table
        .templates
        .iter()
        .filter_map(|t| regex_form(t))
        .collect();
    let routed = table
        .uris
        .iter()
        .filter(|u| ours.route(u, &mut Captures::<16>::new()).is_ok())
        .count();
    eprintln!(
        "MCP_ROUTES: {} templates ({refused} refused by ours, {m_skipped} not expressible in or \
         refused by matchit, {} as regexes), {} URIs ({routed} routed by ours)",
        table.templates.len(),
        regexes.len(),
        table.uris.len()
    );
    let mut g = c.benchmark_group(format!("user/{}", table.templates.len()));
    g.throughput(criterion::Throughput::Elements(table.uris.len() as u64));
    g.bench_function("ours-router", |b| {
        b.iter(|| {
            for u in &table.uris {
                let mut caps = Captures::<16>::new();
                black_box(ours.route(black_box(u), &mut caps).map(|h| *h.value).ok());
            }
        });
    });
    g.bench_function("matchit", |b| {
        b.iter(|| {
            for u in &table.uris {
                black_box(m.at(black_box(u)).map(|h| *h.value).ok());
            }
        });
    });
    g.bench_function("regex-scan", |b| {
        b.iter(|| {
            for u in &table.uris {
                let hit = regexes.iter().find_map(|re| re.captures(black_box(u)));
                black_box(hit.map(|c| c.len()));
            }
        });
    });
    g.finish();
}

criterion_group!(benches, match_one, route_many, user_routes);
criterion_main!(benches);
