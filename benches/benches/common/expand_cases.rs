//! The expansion cases and each library's prepared form, shared by the `expand` (criterion)
//! and `expand_quiet` (fastest short runs) benches.
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
//! [`Prepared::new`] checks every library's output against the expected URI before anything
//! is timed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hint::black_box;

use iri_string::spec::UriSpec;
use iri_string::template::UriTemplateStr;
use iri_string::template::context::{AssocVisitor, Context, ListVisitor, Visitor};
use mcp_context::template::{Template, Value};

/// One benchmark case: a template, its variables and the URI it must expand to.
pub(crate) struct Case {
    /// The criterion group name.
    pub(crate) group: &'static str,
    pub(crate) template: &'static str,
    pub(crate) vars: &'static [(&'static str, Value<'static>)],
    pub(crate) expected: &'static str,
}

/// Level 1: the typical MCP resource template.
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

/// Level 4: path explode, query with a list and a prefix, exploded query continuation.
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

pub(crate) const CASES: [&Case; 2] = [&LEVEL1, &LEVEL4];

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

/// std-uritemplate's variable source.
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

/// A case with every library's prepared form. The methods are what the benches time.
pub(crate) struct Prepared {
    pub(crate) case: &'static Case,
    ours: Template<'static>,
    iri: &'static UriTemplateStr,
    iri_vars: IriVars,
    std_map: HashMap<String, stduritemplate::Value>,
}

impl Prepared {
    /// Prepares `case` for every library and checks that each expands it to the expected URI.
    pub(crate) fn new(case: &'static Case) -> Self {
        let p = Self {
            case,
            ours: Template::parse(case.template).expect("mcp-context parses the template"),
            iri: UriTemplateStr::new(case.template).expect("iri-string accepts the template"),
            iri_vars: IriVars(case.vars),
            std_map: std_vars(case.vars),
        };
        let mut out = String::new();
        p.ours(&mut out);
        assert_eq!(out, case.expected, "mcp-context");
        let mut buf = [0u8; 256];
        let n = p.ours_slice(&mut buf);
        assert_eq!(&buf[..n], case.expected.as_bytes(), "mcp-context slice");
        out.clear();
        p.ours_parse_expand(&mut out);
        assert_eq!(out, case.expected, "mcp-context parse+expand");
        out.clear();
        p.iri(&mut out);
        assert_eq!(out, case.expected, "iri-string");
        assert_eq!(p.std(), case.expected, "std-uritemplate");
        p
    }

    /// mcp-context, parsed once, into a `String` (appends).
    #[inline]
    pub(crate) fn ours(&self, out: &mut String) {
        black_box(&self.ours)
            .expand(black_box(self.case.vars), out)
            .expect("expands");
    }

    /// mcp-context, parsed once, into a stack buffer.
    #[inline]
    pub(crate) fn ours_slice(&self, buf: &mut [u8; 256]) -> usize {
        black_box(&self.ours)
            .expand_to_slice(black_box(self.case.vars), buf)
            .expect("fits")
    }

    /// mcp-context, parsing on every call like std-uritemplate (appends).
    #[inline]
    pub(crate) fn ours_parse_expand(&self, out: &mut String) {
        let t: Template<'_> = Template::parse(black_box(self.case.template)).expect("parses");
        t.expand(black_box(self.case.vars), out).expect("expands");
    }

    /// iri-string, validated once, into a `String` (appends).
    #[inline]
    pub(crate) fn iri(&self, out: &mut String) {
        let expanded = black_box(self.iri)
            .expand::<UriSpec, _>(black_box(&self.iri_vars))
            .expect("expands");
        write!(out, "{expanded}").expect("writes");
    }

    /// std-uritemplate: parses and allocates on every call.
    #[inline]
    pub(crate) fn std(&self) -> String {
        stduritemplate::expand(black_box(self.case.template), black_box(&self.std_map))
            .expect("expands")
    }
}
