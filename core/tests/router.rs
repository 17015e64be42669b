//! The router (docs/matching.md §7): precedence, backtracking across segments, conflict
//! errors, 10,000 templates, the fixed-capacity variant, and agreement with single-template
//! matching (property test).

use mcp_context::template::{
    Captures, FixedRouter, InsertError, MatchError, MatchOptions, Pattern, Router, UnknownParams,
};
use proptest::prelude::*;

fn build(templates: &[&str]) -> Router<usize> {
    let mut r = Router::new();
    for (i, t) in templates.iter().enumerate() {
        if let Err(e) = r.insert(t, i) {
            panic!("{t}: {e}");
        }
    }
    r
}

/// The template that wins for `uri`, and its captures as `name=raw`.
fn winner(r: &Router<usize>, uri: &str) -> Option<(String, Vec<String>)> {
    let mut caps = Captures::<16>::new();
    let hit = r.route(uri, &mut caps).ok()?;
    let vars = caps
        .iter()
        .map(|c| format!("{}={}", c.name(), c.raw()))
        .collect();
    Some((hit.template.to_string(), vars))
}

#[rustfmt::skip]
const PRECEDENCE: &[(&[&str], &str, Option<&str>)] = &[
    // Literal text beats a variable, whatever the registration order.
    (&["repo://{owner}/{repo}", "repo://acme/{repo}"], "repo://acme/web", Some("repo://acme/{repo}")),
    (&["repo://{owner}/{repo}", "repo://acme/{repo}"], "repo://other/web", Some("repo://{owner}/{repo}")),
    // A segment mixing text and variables beats a bare `{var}`.
    (&["files/{name}", "files/{name}.json"], "files/a.json", Some("files/{name}.json")),
    (&["files/{name}", "files/{name}.json"], "files/a.txt", Some("files/{name}")),
    // `{var}` beats `{+var}`.
    (&["files/{+path}", "files/{name}"], "files/a", Some("files/{name}")),
    (&["files/{+path}", "files/{name}"], "files/a/b", Some("files/{+path}")),
    // More literal text in a tail first.
    (&["files/{+path}", "files/{+path}/edit"], "files/a/b/edit", Some("files/{+path}/edit")),
    (&["files/{+path}", "files/{+path}/edit"], "files/a/b", Some("files/{+path}")),
    // Backtracking across segments: the literal branch fails later, the variable one wins.
    (&["users/new", "users/{id}/edit"], "users/new/edit", Some("users/{id}/edit")),
    (&["users/new", "users/{id}/edit"], "users/new", Some("users/new")),
    (&["a/{x}/c", "a/b/{y}"], "a/b/c", Some("a/b/{y}")),
    (&["a/{x}/c", "a/b/{y}"], "a/z/c", Some("a/{x}/c")),
    // Normalised literals route the same.
    (&["s://caf%C3%A9/{a}", "s://{x}/{a}"], "s://café/1", Some("s://caf%C3%A9/{a}")),
    (&["s://~me/{a}", "s://{x}/{a}"], "s://%7Eme/1", Some("s://~me/{a}")),
    // Query sections: templates with the same path are tried most required parameters first.
    (&["s://x{?a}", "s://x?mode=1{&a}"], "s://x?a=2&mode=1", Some("s://x?mode=1{&a}")),
    (&["s://x{?a}", "s://x?mode=1{&a}"], "s://x?a=2", Some("s://x{?a}")),
    (&["s://x?mode=1{&a}"], "s://x?a=2", None),
    // Fragment.
    (&["doc://{id}", "doc://{id}{#section}"], "doc://7#intro", Some("doc://{id}{#section}")),
    (&["doc://{id}", "doc://{id}{#section}"], "doc://7", Some("doc://{id}")),
    // Operators other than the wildcard.
    (&["x{/list*}", "x/{a}"], "x/1/2", Some("x{/list*}")),
    (&["x{/list*}", "x/{a}"], "x/1", Some("x/{a}")),
    (&["v{n}/x", "{a}/x"], "v2/x", Some("v{n}/x")),
    (&["m{;a,b}", "m{.f}"], "m;b=1", Some("m{;a,b}")),
    (&["m{;a,b}", "m{.f}"], "m.md", Some("m{.f}")),
    (&["file:///{+path}"], "file:///a/b?x=1", Some("file:///{+path}")),
    (&["file:///{+path}"], "file:///", None),
    (&["", "x"], "", Some("")),
    (&["s://{a:2}", "s://{+b}"], "s://abc", Some("s://{+b}")),
];

#[test]
fn precedence() {
    let mut failures = Vec::new();
    for &(templates, uri, want) in PRECEDENCE {
        let r = build(templates);
        let got = winner(&r, uri).map(|(t, _)| t);
        if got.as_deref() != want {
            failures.push(format!(
                "{templates:?} <- {uri}: got {got:?}, want {want:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn captures_are_named_per_template() {
    let r = build(&[
        "repo://{owner}/{repo}",
        "repo://{owner}/{repo}/issues/{number}",
    ]);
    let (t, vars) = winner(&r, "repo://acme/web%20app/issues/7").unwrap();
    assert_eq!(t, "repo://{owner}/{repo}/issues/{number}");
    assert_eq!(vars, ["owner=acme", "repo=web%20app", "number=7"]);
    let r = build(&["s://{a}/x", "s://{b}/y"]);
    assert_eq!(winner(&r, "s://1/y").unwrap().1, ["b=1"]);
}

#[test]
fn conflicts_name_both_templates() {
    let mut r = Router::new();
    r.insert("repo://{owner}/{repo}", ()).unwrap();
    let e = r.insert("repo://{a}/{b}", ()).unwrap_err();
    assert!(
        matches!(e, InsertError::Indistinguishable { existing, new }
        if existing.index() == 0 && new.index() == 1),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "template #1 is indistinguishable from template #0"
    );
    // Only optional query parameters more: accepts the very same URIs.
    let e = r.insert("repo://{o}/{r}{?page}", ()).unwrap_err();
    assert!(matches!(e, InsertError::Shadowed { .. }), "{e}");
    // Normalised literals are the same literals.
    r.insert("s://~x/{a}", ()).unwrap();
    assert!(matches!(
        r.insert("s://%7Ex/{b}", ()),
        Err(InsertError::Indistinguishable { .. })
    ));
    // A catch-all `{+rest}` shadows a later tail without more literal text.
    r.insert("f://{+rest}", ()).unwrap();
    let e = r.insert("f://{+a}{?q}", ()).unwrap_err();
    assert!(matches!(e, InsertError::Shadowed { .. }), "{e}");
    r.insert("f://{+a}.json", ()).unwrap(); // more literal text: tried first
    r.insert("f://{/a*}", ()).unwrap(); // can match an empty rest: reachable
    // The router is unchanged after a refusal.
    assert_eq!(r.len(), 5);
    assert!(matches!(
        r.insert("x{a}{b}", ()),
        Err(InsertError::Compile(_))
    ));
    assert!(matches!(r.insert("x{", ()), Err(InsertError::Parse(_))));
    let mut caps = Captures::<4>::new();
    assert_eq!(r.route("f://a.json", &mut caps).unwrap().id.index(), 3);
    assert_eq!(r.route("f://a.txt", &mut caps).unwrap().id.index(), 2);
}

#[test]
fn reject_unknown_params_router() {
    let mut r = Router::with_options(MatchOptions::new().unknown_params(UnknownParams::Reject));
    r.insert("s://x", 0).unwrap();
    r.insert("s://x{?a}", 1).unwrap(); // not shadowed: `?a=1` tells them apart
    let mut caps = Captures::<2>::new();
    assert_eq!(*r.route("s://x", &mut caps).unwrap().value, 0);
    assert_eq!(*r.route("s://x?a=1", &mut caps).unwrap().value, 1);
    assert_eq!(
        r.route("s://x?b=1", &mut caps).unwrap_err(),
        MatchError::NoMatch
    );
}

#[test]
fn ten_thousand_templates() {
    let mut r = Router::new();
    let templates: Vec<String> = (0..10_000)
        .map(|i| format!("repo://svc{i}/{{owner}}/{{repo}}/issues/{{number}}"))
        .collect();
    for (i, t) in templates.iter().enumerate().skip(1) {
        r.insert(t, i).unwrap();
    }
    r.insert("repo://{owner}/{repo}/issues/{number}", 0)
        .unwrap();
    let mut caps = Captures::<4>::new();
    let hit = r.route("repo://acme/web/issues/812", &mut caps).unwrap();
    assert_eq!(*hit.value, 0);
    assert_eq!(caps.get("number").unwrap().as_str(), Some("812"));
    for i in [1, 77, 5000, 9999] {
        let uri = format!("repo://svc{i}/a/b/issues/1");
        let mut caps = Captures::<4>::new();
        assert_eq!(*r.route(&uri, &mut caps).unwrap().value, i);
    }
    assert!(r.route("repo://svc1/a/b/pulls/1", &mut caps).is_err());
    assert_eq!(r.len(), 10_000);
}

#[test]
fn fixed_capacity_router() {
    let mut r: FixedRouter<'_, u32, 4, 32> = FixedRouter::new();
    r.insert("repo://{owner}/{repo}", 1).unwrap();
    r.insert("repo://{owner}/{repo}/issues/{n}", 2).unwrap();
    {
        let mut caps = Captures::<3>::new();
        let hit = r.route("repo://a/b/issues/3", &mut caps).unwrap();
        assert_eq!(
            (*hit.value, hit.template),
            (2, "repo://{owner}/{repo}/issues/{n}")
        );
        assert_eq!(caps.get("n").unwrap().as_str(), Some("3"));
    }
    assert!(matches!(
        r.insert("repo://{x}/{y}", 9),
        Err(InsertError::Indistinguishable { .. })
    ));
    // Steps, nodes or edges run out before the four template slots do.
    let mut full = false;
    for t in ["a://{a}/{b}/{c}/{d}/{e}/f", "b://x/y/z/w/v/u/{t}", "c://q"] {
        if r.insert(t, 0) == Err(InsertError::CapacityExceeded) {
            full = true;
        }
    }
    assert!(full);
    let mut caps = Captures::<3>::new();
    assert!(r.route("repo://a/b", &mut caps).is_ok());
    let mut small = Captures::<1>::new();
    assert_eq!(
        r.route("repo://a/b", &mut small).unwrap_err(),
        MatchError::TooManyVariables { needed: 2 }
    );
    let mut tiny: FixedRouter<'_, (), 1> = FixedRouter::new();
    tiny.insert("a", ()).unwrap();
    assert_eq!(tiny.insert("b", ()), Err(InsertError::CapacityExceeded));
}

const POOL: &[&str] = &[
    "repo://{owner}/{repo}",
    "repo://acme/{repo}",
    "repo://{owner}/{repo}/issues/{n}",
    "repo://{owner}/{repo}/issues/{n}{?fields}",
    "repo://{owner}/{repo}/blob/{+path}",
    "repo://{owner}{/path*}",
    "files/{name}.json",
    "files/{name}",
    "files/{+path}",
    "files/{+path}/edit",
    "s://x?mode=1{&a}",
    "s://x{?a,b}",
    "doc://{id}{#s}",
    "m{;a,b}/x",
    "v{major}/x{.ext}",
    "{+uri}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The router's winner matches on its own, with the same captures; when the router
    /// finds nothing, no registered template matches.
    #[test]
    fn router_agrees_with_patterns(
        pick in prop::collection::vec(0..POOL.len(), 1..POOL.len()),
        uri in "(repo://|files/|s://x|doc://|m|v1/x|)[a-z~./;=?&#%0-9]{0,16}",
    ) {
        let mut r = Router::new();
        let mut kept = Vec::new();
        for &i in &pick {
            if r.insert(POOL[i], i).is_ok() {
                kept.push(POOL[i]);
            }
        }
        let mut caps = Captures::<8>::new();
        match r.route(&uri, &mut caps) {
            Ok(hit) => {
                let p: Pattern<'_> = Pattern::parse(hit.template).unwrap();
                let mut own = Captures::<8>::new();
                prop_assert!(p.matches(&uri, &mut own).is_ok(), "{} <- {}", hit.template, uri);
                let a: Vec<_> = caps.iter().map(|c| (c.name(), c.raw())).collect();
                let b: Vec<_> = own.iter().map(|c| (c.name(), c.raw())).collect();
                prop_assert_eq!(a, b);
            }
            Err(_) => {
                for t in &kept {
                    let p: Pattern<'_> = Pattern::parse(t).unwrap();
                    prop_assert!(!p.is_match(&uri), "{} matches {} but the router missed it", t, uri);
                }
            }
        }
    }
}

/// Static keys sharing first bytes or not, normalised spellings, an empty key, and
/// segments with variables: wide static fan-outs reach the first-byte index.
const KEYS: &[&str] = &[
    "repos",
    "users",
    "orgs",
    "r",
    "re",
    "rest",
    "u",
    "~me",
    "caf%C3%A9",
    "a:b",
    "",
    "{x}",
    "{y}.json",
    "v{n}",
];
/// URI segments: the keys, other spellings of them, and values for the variables.
const SEGS: &[&str] = &[
    "repos",
    "users",
    "orgs",
    "r",
    "re",
    "rest",
    "u",
    "~me",
    "%7Eme",
    "%7eme",
    "caf%C3%A9",
    "café",
    "a:b",
    "a%3Ab",
    "%72epos",
    "x",
    "1.json",
    "v2",
    "",
    "reposx",
    "%",
    "%zz",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Differential test over random tables of mostly static templates: the router's winner
    /// matches on its own with the same captures, and when it finds nothing no registered
    /// template matches.
    #[test]
    fn router_agrees_on_static_fan_outs(
        table in prop::collection::vec(prop::collection::vec(0..KEYS.len(), 1..4), 1..24),
        path in prop::collection::vec(0..SEGS.len(), 1..4),
        tail in prop::sample::select(vec!["", "?q=1", "#f", "/"]),
    ) {
        let mut r = Router::new();
        let mut kept = Vec::new();
        for (i, segs) in table.iter().enumerate() {
            let t: String = segs.iter().map(|&k| format!("/{}", KEYS[k])).collect();
            if r.insert(&t, i).is_ok() {
                kept.push(t);
            }
        }
        let mut uri: String = path.iter().map(|&s| format!("/{}", SEGS[s])).collect();
        uri.push_str(tail);
        let mut caps = Captures::<8>::new();
        match r.route(&uri, &mut caps) {
            Ok(hit) => {
                let p: Pattern<'_> = Pattern::parse(hit.template).unwrap();
                let mut own = Captures::<8>::new();
                prop_assert!(p.matches(&uri, &mut own).is_ok(), "{} <- {}", hit.template, uri);
                let a: Vec<_> = caps.iter().map(|c| (c.name(), c.raw())).collect();
                let b: Vec<_> = own.iter().map(|c| (c.name(), c.raw())).collect();
                prop_assert_eq!(a, b);
            }
            Err(_) => {
                for t in &kept {
                    let p: Pattern<'_> = Pattern::parse(t).unwrap();
                    prop_assert!(!p.is_match(&uri), "{} matches {} but the router missed it", t, uri);
                }
            }
        }
    }
}
