//! Matching URIs back into template variables (docs/matching.md): a table of template, URI
//! and expected variables covering every operator, decoding, normalisation, query rules and
//! ambiguity rejection, plus 64 KiB adversarial inputs.

use mcp_context::template::{
    Captures, CompileErrorKind, MatchError, MatchOptions, Pattern, PatternError, UnknownParams,
};

/// Matches and returns `name=value` per item, decoded (an exploded variable gives one entry
/// per item), or `None` when the URI does not match.
fn run(template: &str, uri: &str, opts: MatchOptions) -> Option<Vec<String>> {
    let p: Pattern<'_, 64> = match Pattern::parse_with(template, opts) {
        Ok(p) => p,
        Err(e) => panic!("{template}: {e}"),
    };
    let mut caps = Captures::<16>::new();
    match p.matches(uri, &mut caps) {
        Ok(()) => {}
        Err(MatchError::NoMatch) => return None,
        Err(e) => panic!("{e}"),
    }
    let mut out = Vec::new();
    for c in caps.iter() {
        for v in c.values() {
            let mut buf = vec![0u8; v.raw().len()];
            let d = v.decode_into(&mut buf).unwrap_or("<not utf-8>");
            out.push(format!("{}={}", c.name(), d));
        }
    }
    Some(out)
}

fn m(template: &str, uri: &str) -> Option<Vec<String>> {
    run(template, uri, MatchOptions::new())
}

const NO: Option<&[&str]> = None;

#[rustfmt::skip]
const CASES: &[(&str, &str, Option<&[&str]>)] = &[
    // Simple `{var}`: one or more unreserved or pct-encoded bytes; never `/ ? #` or any
    // reserved character (expansion would have encoded it).
    ("repo://{owner}/{repo}", "repo://acme/web", Some(&["owner=acme", "repo=web"])),
    ("repo://{owner}/{repo}", "repo://acme/web/x", NO),
    ("repo://{owner}/{repo}", "repo://acme/", NO),
    ("repo://{owner}/{repo}", "repo:///web", NO),
    ("repo://{owner}/{repo}", "repo://a:b/web", NO),
    ("repo://{owner}/{repo}", "repo://a%3Ab/web", Some(&["owner=a:b", "repo=web"])),
    ("repo://{owner}/{repo}", "repo://acme/web?x=1", Some(&["owner=acme", "repo=web"])),
    ("repo://{owner}/{repo}", "repo://acme/web#top", NO),
    ("repo://{owner}/{repo}", "repo://acme/we%2", NO),
    ("s://{a}", "s://caf%C3%A9", Some(&["a=café"])),
    ("s://{a}", "s://café", Some(&["a=café"])),
    ("s://{a}", "s://a+b", NO),
    ("s://{a}", "s://a%2Bb", Some(&["a=a+b"])),
    ("s://{a,b}", "s://1,2", Some(&["a=1", "b=2"])),
    ("s://{a,b}", "s://1", Some(&["a=1"])),
    ("s://{a,b}", "s://,2", Some(&["a=", "b=2"])),
    ("s://{a,b}", "s://1,2,3", NO),
    ("s://{list*}", "s://a,b,c", Some(&["list=a", "list=b", "list=c"])),
    ("s://{a:3}", "s://abc", Some(&["a=abc"])),
    ("s://{a:3}", "s://abcd", NO),
    ("s://{a:3}", "s://%C3%A9t%C3%A9", Some(&["a=été"])),
    ("geo:{lat},{lon}", "geo:48.85,-2.35", Some(&["lat=48.85", "lon=-2.35"])),
    ("users/{id}.json", "users/a.b.json", Some(&["id=a.b"])),
    ("users/{id}.json", "users/x%2Ejson", Some(&["id=x"])),
    ("users/{id}.json", "users/.json", NO),
    ("users/{id}.json", "users/x.jso", NO),
    ("v{major}.{minor}/x", "v1.2/x", NO), // `{major}.` is rejected below; see AMBIGUOUS
    // Reserved `{+var}`: may span reserved characters, never the query or fragment.
    ("file:///{+path}", "file:///a/b/c.txt", Some(&["path=a/b/c.txt"])),
    ("file:///{+path}", "file:///a/b?rev=2", Some(&["path=a/b"])),
    ("file:///{+path}", "file:///", NO),
    ("file:///{+path}/edit", "file:///a/b/edit", Some(&["path=a/b"])),
    ("file:///{+path}/edit", "file:///a/b/edit/edit", Some(&["path=a/b/edit"])),
    ("file:///{+path}/edit", "file:///edit", NO),
    ("file:///{+path}{?rev}", "file:///a/b?rev=3", Some(&["path=a/b", "rev=3"])),
    ("s://{+a}", "s://a/b:c@d!$", Some(&["a=a/b:c@d!$"])),
    ("s://{+a}", "s://%2F", Some(&["a=/"])),
    ("s://{+list*}", "s://a/b,c", Some(&["list=a/b", "list=c"])),
    // Path segments `{/var}`, `{/var*}`.
    ("x{/a,b}", "x/1/2", Some(&["a=1", "b=2"])),
    ("x{/a,b}", "x/1", Some(&["a=1"])),
    ("x{/a,b}", "x", Some(&[])),
    ("x{/a,b}", "x/", Some(&["a="])),
    ("x{/a,b}", "x/1/2/3", NO),
    ("x{/list*}", "x/a/b/c", Some(&["list=a", "list=b", "list=c"])),
    ("x{/list*}", "x", Some(&[])),
    ("x{/list*}{?q}", "x/a/b?q=1", Some(&["list=a", "list=b", "q=1"])),
    ("x{/list*}.json", "x/a/b.json", Some(&["list=a", "list=b"])),
    ("s://{a}{/b}.json", "s://x.json", Some(&["a=x"])),
    ("s://{a}{/b}.json", "s://x/y.json", Some(&["a=x", "b=y"])),
    ("s://{a}{/b}.json", "s://x/.json", Some(&["a=x", "b="])),
    // Labels `{.var}`.
    ("x{.ext}", "x.json", Some(&["ext=json"])),
    ("x{.ext}", "x.tar.gz", Some(&["ext=tar.gz"])),
    ("x{.ext}", "x", Some(&[])),
    ("x{.ext}/y", "x.md/y", Some(&["ext=md"])),
    ("x{.list*}", "x.a.b", Some(&["list=a", "list=b"])),
    // Path parameters `{;var}`: named, in template order, each optional.
    ("x{;a,b}", "x;a=1;b=2", Some(&["a=1", "b=2"])),
    ("x{;a,b}", "x;b=2", Some(&["b=2"])),
    ("x{;a,b}", "x;a;b=", Some(&["a=", "b="])),
    ("x{;a,b}", "x;ab=1", NO),
    ("x{;a,b}", "x;b=2;a=1", NO),
    ("x{;list*}", "x;list=a;list=b", Some(&["list=a", "list=b"])),
    ("x{;a}/y", "x;a=1/y", Some(&["a=1"])),
    // Query `{?a,b}`, `{&c}`: any order, each optional, unknown ignored by default.
    ("s://x{?a,b}", "s://x?b=2&a=1", Some(&["a=1", "b=2"])),
    ("s://x{?a,b}", "s://x", Some(&[])),
    ("s://x{?a,b}", "s://x?", Some(&[])),
    ("s://x{?a,b}", "s://x?a=1", Some(&["a=1"])),
    ("s://x{?a,b}", "s://x?c=3&a=1&&", Some(&["a=1"])),
    ("s://x{?a,b}", "s://x?a", Some(&["a="])),
    ("s://x{?a,b}", "s://x?a=1&a=2", NO),
    ("s://x{?a,b}", "s://x?a=%ZZ", NO),
    ("s://x{?a,b}", "s://x?a=x/y:z?w", Some(&["a=x/y:z?w"])),
    ("s://x{?a,b}", "s://x?a=1#f", NO),
    ("s://x{?a}{&b}", "s://x?b=2&a=1", Some(&["a=1", "b=2"])),
    ("s://x{?list*}", "s://x?list=a&z=9&list=b", Some(&["list=a", "list=b"])),
    ("s://x{?list*}", "s://x?z=9", Some(&[])),
    ("s://x{?a%20b}", "s://x?a%20b=1", Some(&["a%20b=1"])),
    ("s://x?mode=full{&page}", "s://x?page=2&mode=full", Some(&["page=2"])),
    ("s://x?mode=full{&page}", "s://x?page=2", NO),
    ("s://x?mode=full{&page}", "s://x?mode=lite", NO),
    ("s://x?mode=f%75ll{&page}", "s://x?mode=full", Some(&[])),
    ("s://x?q={q}&lang={lang}", "s://x?lang=en&q=rust", Some(&["q=rust", "lang=en"])),
    ("s://x?q={q}&lang={lang}", "s://x?q=rust", NO),
    ("s://x?q={q}&lang={lang}", "s://x?q=&lang=", Some(&["q=", "lang="])),
    ("s://x?flag{&a}", "s://x?flag&a=1", Some(&["a=1"])),
    ("db://tables/{table}/rows{?limit,offset}", "db://tables/users/rows?offset=20&limit=10",
        Some(&["table=users", "limit=10", "offset=20"])),
    // Fragment `{#var}` and literal `#`.
    ("x{#frag}", "x#a/b?c", Some(&["frag=a/b?c"])),
    ("x{#frag}", "x", Some(&[])),
    ("x{#frag}", "x#", Some(&["frag="])),
    ("x{?q}{#frag}", "x?q=1#s", Some(&["q=1", "frag=s"])),
    ("x#sec{n}", "x#sec2", Some(&["n=2"])),
    ("x#sec{n}", "x", NO),
    // Literal normalisation: percent-encoding only (RFC 3986 §6.2.2.1-2).
    ("s://café/{a}", "s://caf%C3%A9/x", Some(&["a=x"])),
    ("s://café/{a}", "s://caf%c3%a9/x", Some(&["a=x"])),
    ("s://café/{a}", "s://café/x", Some(&["a=x"])),
    ("s://caf%C3%A9/{a}", "s://café/x", Some(&["a=x"])),
    ("s://~me/{a}", "s://%7Eme/x", Some(&["a=x"])),
    ("s://%7eme/{a}", "s://~me/x", Some(&["a=x"])),
    ("s://a%2Fb/{x}", "s://a/b/y", NO),
    ("s://a%2Fb/{x}", "s://a%2fb/y", Some(&["x=y"])),
    ("S://x/{a}", "s://x/y", NO),
    // Dot segments are not removed: `..` is a value like any other (sanitise it).
    ("file:///{+path}", "file:///../etc/passwd", Some(&["path=../etc/passwd"])),
    ("notes://{id}", "notes://..", Some(&["id=.."])),
];

#[test]
fn table() {
    let mut failures = Vec::new();
    for &(t, uri, want) in CASES {
        if t.starts_with("v{major}") {
            continue;
        }
        let got = m(t, uri);
        let want: Option<Vec<String>> = want.map(|w| w.iter().map(|s| s.to_string()).collect());
        if got != want {
            failures.push(format!("{t} <- {uri}: got {got:?}, want {want:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("{} cases", CASES.len());
}

#[test]
fn unknown_params_rule() {
    let reject = MatchOptions::new().unknown_params(UnknownParams::Reject);
    assert_eq!(
        run("s://x{?a}", "s://x?a=1", reject),
        Some(vec!["a=1".into()])
    );
    assert_eq!(run("s://x{?a}", "s://x?a=1&b=2", reject), None);
    assert_eq!(run("s://x", "s://x?b", reject), None);
    assert_eq!(run("s://x", "s://x?&", reject), Some(vec![]));
    assert_eq!(run("s://x", "s://x?b=2", MatchOptions::new()), Some(vec![]));
}

#[rustfmt::skip]
const AMBIGUOUS: &[(&str, CompileErrorKind)] = &[
    ("{a}{b}", CompileErrorKind::AdjacentVariables),
    ("{+a}{+b}", CompileErrorKind::AdjacentVariables),
    ("{+a}{b}", CompileErrorKind::AdjacentVariables),
    ("{a}-{b}", CompileErrorKind::AdjacentVariables),
    ("v{major}.{minor}/x", CompileErrorKind::AdjacentVariables),
    ("{a}.x{/b}.y", CompileErrorKind::AdjacentVariables),
    ("{a}{.b}", CompileErrorKind::AdjacentVariables),
    ("x{;a}.json", CompileErrorKind::AdjacentVariables),
    ("{a*}{b*}", CompileErrorKind::AdjacentVariables),
    ("x{/a*}{/b*}", CompileErrorKind::AmbiguousOptional),
    ("x{/a}{/b}", CompileErrorKind::AmbiguousOptional),
    ("x{/a}/y", CompileErrorKind::AmbiguousOptional),
    ("x{.a}.y", CompileErrorKind::AmbiguousOptional),
    ("{a,b},x", CompileErrorKind::AmbiguousOptional),
    ("x{;a};b", CompileErrorKind::AmbiguousOptional),
    ("{+a,b}", CompileErrorKind::AmbiguousList),
    ("x{.a,b}", CompileErrorKind::AmbiguousList),
    ("x{#a,b}", CompileErrorKind::AmbiguousList),
    ("x{/a*,b}", CompileErrorKind::ExplodeNotLast),
    ("{a*,b}", CompileErrorKind::ExplodeNotLast),
    ("x{&a}", CompileErrorKind::ContinuationOutsideQuery),
    ("x?a=1{?b}", CompileErrorKind::QueryOperatorInQuery),
    ("x{?a}{?b}", CompileErrorKind::QueryOperatorInQuery),
    ("x?q{a}", CompileErrorKind::UnsupportedQueryShape),
    ("x?q={a}z", CompileErrorKind::UnsupportedQueryShape),
    ("x?{a}", CompileErrorKind::UnsupportedQueryShape),
    ("x?q={/a}", CompileErrorKind::UnsupportedQueryShape),
    ("x{?a}b", CompileErrorKind::UnsupportedQueryShape),
    ("x{?a}{&a}", CompileErrorKind::DuplicateQueryParam),
    ("x?a=1{&a}", CompileErrorKind::DuplicateQueryParam),
    ("x{#a}/y", CompileErrorKind::FragmentNotLast),
    ("x#a{#b}", CompileErrorKind::NestedFragment),
    ("x#a#b", CompileErrorKind::NestedFragment),
    ("x#{?a}", CompileErrorKind::QueryInFragment),
];

#[test]
fn ambiguous_shapes_are_rejected_with_a_reason() {
    for &(t, kind) in AMBIGUOUS {
        match Pattern::<'_, 32>::parse(t) {
            Err(PatternError::Compile(e)) => assert_eq!(e.kind, kind, "{t}: {e}"),
            Err(e) => panic!("{t}: parse error {e}"),
            Ok(_) => panic!("{t}: accepted"),
        }
    }
    // The same templates still expand.
    let t = mcp_context::template::Template::<'_, 8>::parse("{a}{b}").unwrap();
    let mut s = String::new();
    t.expand(&[("a", "1"), ("b", "2")], &mut s).unwrap();
    assert_eq!(s, "12");
}

#[test]
fn captures_overflow_is_typed() {
    let p: Pattern<'_> = Pattern::parse("s://{a}/{b}/{c}").unwrap();
    let mut caps = Captures::<2>::new();
    assert_eq!(
        p.matches("s://1/2/3", &mut caps),
        Err(MatchError::TooManyVariables { needed: 3 })
    );
    assert!(Pattern::<'_, 3>::parse("s://{a}/{b}/{c}").is_err());
}

#[test]
fn lazy_decoding() {
    let p: Pattern<'_> = Pattern::parse("s://{a}/{b}").unwrap();
    let mut caps = Captures::<4>::new();
    p.matches("s://plain/caf%C3%A9", &mut caps).unwrap();
    let a = caps.get("a").unwrap();
    let b = caps.get("b").unwrap();
    assert_eq!(a.as_str(), Some("plain"));
    assert_eq!(b.as_str(), None);
    assert_eq!(b.raw(), "caf%C3%A9");
    assert!(b.value().decodes_to("café") && !b.value().decodes_to("cafe"));
    let mut small = [0u8; 3];
    assert!(b.decode_into(&mut small).is_err());
    assert_eq!(b.decode().unwrap(), "café");
    p.matches("s://x/%FF", &mut caps).unwrap();
    assert!(caps.get("b").unwrap().decode().is_err());
}

#[test]
fn assoc_explode_reads_back_as_pairs() {
    let p: Pattern<'_> = Pattern::parse("s://x{/keys*}{?q}").unwrap();
    let mut caps = Captures::<4>::new();
    p.matches("s://x/a=1/b=2?q=z", &mut caps).unwrap();
    let pairs: Vec<_> = caps
        .get("keys")
        .unwrap()
        .pairs()
        .map(|(k, v)| (k.raw(), v.raw()))
        .collect();
    assert_eq!(pairs, [("a", "1"), ("b", "2")]);
    // `{?keys*}` with an associative value writes arbitrary names: read them as parameters.
    let p: Pattern<'_> = Pattern::parse("s://x{?keys*}").unwrap();
    p.matches("s://x?a=1&b=2", &mut caps).unwrap();
    assert!(caps.get("keys").is_none());
    let q = mcp_context::template::QueryParams::new("a=1&b=2&&c");
    let got: Vec<_> = q.map(|(k, v)| (k.raw(), v.raw())).collect();
    assert_eq!(got, [("a", "1"), ("b", "2"), ("c", "")]);
}

/// Worst cases for a backtracking matcher, 64 KiB each. They finish (linear time) with the
/// right answer; CI runs them in debug builds.
#[test]
fn adversarial_64k() {
    let n = 64 * 1024;
    let a = "a".repeat(n);
    let long_path = format!("file:///{}", "a/".repeat(n / 2));
    let cases: Vec<(&str, String, bool)> = vec![
        ("s://{+a}.json", format!("s://{a}"), false),
        ("s://{+a}.json", format!("s://{a}.json"), true),
        ("s://{a}.json", format!("s://{}", "a.".repeat(n / 2)), false),
        ("file:///{+path}/edit", long_path.clone(), false),
        ("file:///{+path}/edit", format!("{long_path}edit"), true),
        ("x{/list*}", format!("x{}", "/a".repeat(n / 2)), true),
        ("x{/list*}.json", format!("x{}", "/a".repeat(n / 2)), false),
        ("s://x{?a,b}", format!("s://x?{}", "&".repeat(n)), true),
        (
            "s://x{?a,b}",
            format!("s://x?{}", "c=1&".repeat(n / 4)),
            true,
        ),
        (
            "s://x{?a,b}",
            format!("s://x?{}", "a=1&".repeat(n / 4)),
            false,
        ),
        (
            "s://x{?list*}",
            format!("s://x?{}", "list=1&".repeat(n / 7)),
            true,
        ),
        ("x{;a,b}", format!("x;a={a}"), true),
        ("s://{a,b}", format!("s://{}", ",".repeat(n)), false),
        ("s://{a}", format!("s://{}", "%41".repeat(n / 3)), true),
        ("s://{a:3}", format!("s://{a}"), false),
    ];
    for (t, uri, want) in cases {
        let p: Pattern<'_> = Pattern::parse(t).unwrap();
        assert_eq!(p.is_match(&uri), want, "{t} on {} bytes", uri.len());
    }
    let p: Pattern<'_> = Pattern::parse("x{/list*}").unwrap();
    let mut caps = Captures::<1>::new();
    let uri = format!("x{}", "/a".repeat(n / 2));
    p.matches(&uri, &mut caps).unwrap();
    assert_eq!(caps.get("list").unwrap().values().count(), n / 2);
}
