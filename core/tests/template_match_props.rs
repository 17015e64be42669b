//! Property tests of matching (docs/matching.md §6):
//!
//! * round trip: for every generated template the matcher accepts, and values it can
//!   represent, `match(expand(t, v)) == v` after decoding, variable by variable;
//! * robustness: matching arbitrary strings against arbitrary templates never panics.

use mcp_context::template::{Captures, Pattern, Template, Value, Variables};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// One expression of a generated template: operator (`' '` for simple) and modifiers.
#[derive(Debug, Clone)]
struct Expr {
    op: char,
    mods: Vec<Mod>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Mod {
    None,
    Explode,
    Prefix(u16),
}

#[derive(Debug, Clone)]
enum Comp {
    Lit(&'static str),
    Expr(Expr),
}

#[derive(Debug, Clone)]
enum Query {
    None,
    /// `{?…}` then `{&…}`s.
    Exprs(Vec<Expr>),
    /// `?k=v` then `{&…}`s.
    Fixed(&'static str, Vec<Expr>),
    /// `?k0={a}&k1={b}`.
    Bound(Vec<char>),
}

#[derive(Debug, Clone)]
struct Spec {
    path: Vec<Comp>,
    query: Query,
    frag: bool,
}

/// The raw material of one variable's value, fixed up to what its context can represent.
#[derive(Debug, Clone)]
struct Raw {
    defined: bool,
    s: String,
    items: Vec<String>,
}

const PATH_LITS: &[&str] = &[
    "/", "/x/", "s://", ":", "@", "!", "a", "-", ".", ".json", "~", "é", "%7E", "%2F", ";", ",",
    "=", "x/y",
];

fn m0() -> impl Strategy<Value = Mod> {
    prop_oneof![
        4 => Just(Mod::None),
        2 => Just(Mod::Explode),
        1 => (1u16..5).prop_map(Mod::Prefix),
    ]
}

fn expr(ops: &'static [char]) -> impl Strategy<Value = Expr> {
    (prop::sample::select(ops), prop::collection::vec(m0(), 1..4))
        .prop_map(|(op, mods)| Expr { op, mods })
}

fn spec() -> impl Strategy<Value = Spec> {
    let comp = prop_oneof![
        prop::sample::select(PATH_LITS).prop_map(Comp::Lit),
        expr(&[' ', '+', '.', '/', ';']).prop_map(Comp::Expr),
    ];
    let query = prop_oneof![
        2 => Just(Query::None),
        2 => prop::collection::vec(expr(&['&']), 1..3).prop_map(Query::Exprs),
        1 => (prop::sample::select(&["m=full", "flag", "k=%7E"][..]),
              prop::collection::vec(expr(&['&']), 0..2))
            .prop_map(|(l, e)| Query::Fixed(l, e)),
        1 => prop::collection::vec(prop::sample::select(&[' ', '+'][..]), 1..3)
            .prop_map(Query::Bound),
    ];
    (prop::collection::vec(comp, 1..6), query, any::<bool>()).prop_map(|(path, query, frag)| Spec {
        path,
        query,
        frag,
    })
}

fn raw() -> impl Strategy<Value = Raw> {
    let s = "[ab~._ /?#&=,;:%+@!é€'-]{0,6}";
    (any::<bool>(), s, prop::collection::vec(s, 0..4)).prop_map(|(defined, s, items)| Raw {
        defined,
        s,
        items,
    })
}

/// A var in context: how the engine will see it.
struct Ctx {
    op: char,
    m: Mod,
    first: bool,
    bound: bool,
}

#[derive(Debug, Clone, PartialEq)]
enum Val {
    Str(String),
    List(Vec<String>),
}

fn clean(s: &str, reserved: bool, extra: &str) -> String {
    s.chars()
        .filter(|c| !(extra.contains(*c) || (reserved && "?#%&,".contains(*c))))
        .collect()
}

/// Fixes raw material into a value the context can represent (docs/matching.md §6).
fn fix(r: &Raw, c: &Ctx) -> Option<Val> {
    let reserved = c.op == '+' || c.op == '#';
    let must = c.bound || (c.first && matches!(c.op, ' ' | '+' | '?'));
    if !r.defined && !must {
        return None;
    }
    if c.m == Mod::Explode {
        let sep = match c.op {
            '.' => ".",
            _ => "",
        };
        let mut items: Vec<String> = r.items.iter().map(|s| clean(s, reserved, sep)).collect();
        if items.is_empty() {
            items.push("x".into());
        }
        if matches!(c.op, ' ' | '+') && items == [""] {
            items[0] = "x".into();
        }
        return Some(Val::List(items));
    }
    let mut s = clean(&r.s, reserved, "");
    if let Mod::Prefix(n) = c.m {
        s = s.chars().take(usize::from(n)).collect();
    }
    if s.is_empty() && c.first && matches!(c.op, ' ' | '+') {
        s.push('x');
    }
    Some(Val::Str(s))
}

fn render(e: &Expr, names: &mut Vec<(String, Ctx)>, out: &mut String) {
    out.push('{');
    if e.op != ' ' {
        out.push(e.op);
    }
    for (k, m) in e.mods.iter().enumerate() {
        let name = format!("v{}", names.len());
        if k > 0 {
            out.push(',');
        }
        out.push_str(&name);
        match m {
            Mod::None => {}
            Mod::Explode => out.push('*'),
            Mod::Prefix(n) => out.push_str(&format!(":{n}")),
        }
        let first = k == 0;
        names.push((
            name,
            Ctx {
                op: e.op,
                m: *m,
                first,
                bound: false,
            },
        ));
    }
    out.push('}');
}

/// The template text and its variables in order.
fn build(spec: &Spec) -> (String, Vec<(String, Ctx)>) {
    let mut t = String::new();
    let mut names = Vec::new();
    for c in &spec.path {
        match c {
            Comp::Lit(l) => t.push_str(l),
            Comp::Expr(e) => render(e, &mut names, &mut t),
        }
    }
    match &spec.query {
        Query::None => {}
        Query::Exprs(es) => {
            for (k, e) in es.iter().enumerate() {
                let e = Expr {
                    op: if k == 0 { '?' } else { '&' },
                    mods: e.mods.clone(),
                };
                render(&e, &mut names, &mut t);
            }
        }
        Query::Fixed(l, es) => {
            t.push('?');
            t.push_str(l);
            for e in es {
                render(e, &mut names, &mut t);
            }
        }
        Query::Bound(ops) => {
            for (k, op) in ops.iter().enumerate() {
                t.push_str(if k == 0 { "?" } else { "&" });
                let name = format!("v{}", names.len());
                t.push_str(&format!(
                    "k{k}={{{}{name}}}",
                    if *op == '+' { "+" } else { "" }
                ));
                names.push((
                    name,
                    Ctx {
                        op: *op,
                        m: Mod::None,
                        first: true,
                        bound: true,
                    },
                ));
            }
        }
    }
    if spec.frag {
        let e = Expr {
            op: '#',
            mods: vec![Mod::None],
        };
        render(&e, &mut names, &mut t);
    }
    (t, names)
}

struct View<'a> {
    vars: &'a BTreeMap<String, Val>,
    lists: BTreeMap<&'a str, Vec<&'a str>>,
}

impl Variables for View<'_> {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        match self.vars.get(name)? {
            Val::Str(s) => Some(Value::Str(s)),
            Val::List(_) => self.lists.get(name).map(|l| Value::List(l)),
        }
    }
}

fn decode(e: mcp_context::template::Encoded<'_>) -> String {
    let mut buf = vec![0u8; e.raw().len()];
    e.decode_into(&mut buf).expect("decodes").to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn match_inverts_expand(spec in spec(), raws in prop::collection::vec(raw(), 16)) {
        let (t, names) = build(&spec);
        let Ok(p) = Pattern::<'_, 64>::parse(&t) else {
            return Ok(()); // a shape the matcher refuses (checked in template_match.rs)
        };
        let mut vars = BTreeMap::new();
        // `{&…}` after an all-undefined `{?…}` would start the query with `&`: keep the
        // first `{?…}` variable defined (docs §6).
        for (i, (name, ctx)) in names.iter().enumerate() {
            if let Some(v) = fix(&raws[i % raws.len()], ctx) {
                vars.insert(name.clone(), v);
            }
        }
        // Left-to-right fill: in a list expression without names, later values need earlier.
        let mut prev_defined = true;
        for (name, ctx) in &names {
            if ctx.first { prev_defined = true; }
            let filled = matches!(ctx.op, ' ' | '+' | '.' | '/' | '#');
            if filled && !prev_defined { vars.remove(name); }
            prev_defined = vars.contains_key(name);
        }
        let lists = vars.iter().filter_map(|(k, v)| match v {
            Val::List(l) => Some((k.as_str(), l.iter().map(String::as_str).collect())),
            Val::Str(_) => None,
        }).collect();
        let view = View { vars: &vars, lists };
        let tpl = Template::<'_, 64>::parse(&t).unwrap();
        let mut uri = String::new();
        tpl.expand(&view, &mut uri).unwrap();
        let mut caps = Captures::<64>::new();
        prop_assert!(p.matches(&uri, &mut caps).is_ok(), "{t} did not match {uri} ({vars:?})");
        for (name, _) in &names {
            let got = caps.get(name).map(|c| {
                if c.is_exploded() {
                    Val::List(c.values().map(decode).collect())
                } else {
                    Val::Str(decode(c.value()))
                }
            });
            prop_assert_eq!(got.as_ref(), vars.get(name), "{} in {} <- {}", name, t, uri);
        }
    }

    #[test]
    fn never_panics(t in "[a-z{}/?&#=.;+*:,%0-9A-F~é]{0,24}", uri in "[a-z/?&#=.;:,%0-9A-F~é+]{0,40}") {
        if let Ok(p) = Pattern::<'_, 32>::parse(&t) {
            let mut caps = Captures::<32>::new();
            let _ = p.matches(&uri, &mut caps);
            for c in caps.iter() {
                let _ = c.values().count() + c.pairs().count();
                let _ = c.decode();
            }
        }
    }

    #[test]
    fn generated_templates_never_panic(spec in spec(), uri in "[a-z/?&#=.;:,%0-9A-F~é+]{0,40}") {
        let (t, _) = build(&spec);
        if let Ok(p) = Pattern::<'_, 64>::parse(&t) {
            let mut caps = Captures::<64>::new();
            let _ = p.matches(&uri, &mut caps);
        }
    }
}
