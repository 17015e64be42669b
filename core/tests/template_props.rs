//! Property tests of the template engine (RFC 6570).
//!
//! * Parsing any string never panics, and the fixed-capacity `Template` agrees with
//!   `OwnedTemplate` (same parts or same error; the fixed one may also run out of capacity).
//! * A parsed template re-serialises from its parts to its exact source.
//! * Expanding any values never panics; `expand` (fmt::Write), `OwnedTemplate::expand`
//!   (String), `expand_to_slice` and `expanded_len` agree; the output only holds characters a
//!   URI allows (RFC 3986 unreserved, reserved, or a `%XX` triplet).

use std::fmt::Write as _;

use mcp_context::template::{
    ExpandError, Modifier, OwnedTemplate, ParseErrorKind, Part, Template, TemplateRef, Value,
};
use proptest::prelude::*;

const CAPACITY: usize = 16;

/// Literal text as written, then `{` operator varspecs `}` for each expression.
fn reserialise(t: TemplateRef<'_>) -> String {
    let mut out = String::new();
    for part in t.parts {
        match part {
            Part::Literal(span) => out.push_str(t.text(*span)),
            Part::Expression(expr) => {
                out.push('{');
                if let Some(c) = expr.op.as_char() {
                    out.push(c);
                }
                for (k, spec) in t.varspecs(expr).enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    out.push_str(spec.name);
                    match spec.modifier {
                        Modifier::None => {}
                        Modifier::Prefix(n) => write!(out, ":{n}").unwrap(),
                        Modifier::Explode => out.push('*'),
                    }
                }
                out.push('}');
            }
        }
    }
    out
}

/// Parses with both parsers and checks that they agree; returns the owned result.
fn parse_both(source: &str) -> Option<OwnedTemplate> {
    let fixed = Template::<CAPACITY>::parse(source);
    let owned = OwnedTemplate::parse(source);
    match (&fixed, &owned) {
        (Ok(f), Ok(o)) => assert_eq!(f.parts(), o.as_ref().parts, "{source:?}"),
        (Err(f), Err(o)) if f.kind == ParseErrorKind::CapacityExceeded => {
            assert!(o.at > f.at, "{f:?} then {o:?} for {source:?}");
        }
        (Err(f), Err(o)) => assert_eq!(f, o, "{source:?}"),
        (Err(f), Ok(o)) => {
            assert_eq!(f.kind, ParseErrorKind::CapacityExceeded, "{source:?}");
            assert!(o.as_ref().parts.len() > CAPACITY, "{source:?}");
        }
        (Ok(_), Err(o)) => panic!("only the owned parser rejects {source:?}: {o:?}"),
    }
    owned.ok()
}

/// Whether `s` holds only RFC 3986 unreserved and reserved characters and `%XX` triplets.
/// Written independently of `mcp_context::pct` on purpose.
fn is_uri_text(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let hex = |k: usize| b.get(i + k).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(1) && hex(2)) {
                return false;
            }
            i += 3;
        } else if c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// Strings made mostly of template syntax, so that many of them get deep into the parser.
fn template_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(vec![
                "{", "}", "+", "#", ".", "/", ";", "?", "&", ",", ":", "*", "%", "=", "!",
                "@", "|", "a", "x", "_", "0", "1", "9", "F", "%4", "%41", "%zz", " ", "é",
                "\u{FFFF}", "😀", "\u{E000}", "'", "\"", "<", "\\", "\n",
            ])
            .prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..32,
    )
    .prop_map(|v| v.concat())
}

/// Valid templates with one to three random edits (insert a syntax token, delete a char):
/// inputs that are nearly right, which reach every error path of the parser.
fn near_valid() -> impl Strategy<Value = String> {
    let token = prop::option::weighted(
        0.7,
        prop::sample::select(vec![
            "{", "}", "+", "#", ",", ":", ":0", ":10000", "*", "%", "%4", ".", "=", "!", "|", " ",
            "\u{FFFE}", "{a}",
        ]),
    );
    (
        valid_template(),
        prop::collection::vec((any::<prop::sample::Index>(), token), 1..4),
    )
        .prop_map(|(source, edits)| {
            let mut chars: Vec<String> = source.chars().map(String::from).collect();
            for (at, edit) in edits {
                let i = at.index(chars.len() + 1);
                match edit {
                    Some(tok) => chars.insert(i, tok.to_owned()),
                    None if i < chars.len() => {
                        chars.remove(i);
                    }
                    None => {}
                }
            }
            chars.concat()
        })
}

const OPS: &[&str] = &["", "+", "#", ".", "/", ";", "?", "&"];
const NAMES: &[&str] = &["a", "b", "list", "keys", "x.y", "%41b", "under_score", "v2"];

/// A varspec: a name from `NAMES` and a modifier.
fn varspec() -> impl Strategy<Value = String> {
    (
        prop::sample::select(NAMES),
        prop_oneof![
            2 => Just(String::new()),
            1 => Just("*".to_owned()),
            1 => (1u16..=9999).prop_map(|n| format!(":{n}")),
            1 => (1u16..=4).prop_map(|n| format!(":{n}")),
        ],
    )
        .prop_map(|(name, m)| format!("{name}{m}"))
}

/// Always-valid templates: literals (ASCII, triplets, non-ASCII) and expressions.
fn valid_template() -> impl Strategy<Value = String> {
    let literal = prop::collection::vec(
        prop::sample::select(vec![
            "repo://", "/", "a", "-", "?q=", "&", "%7E", "%e9", "café", "😀", "'", "=", "!", "[",
            "]", "~",
        ]),
        1..4,
    )
    .prop_map(|v| v.concat());
    let expression = (
        prop::sample::select(OPS),
        prop::collection::vec(varspec(), 1..4),
    )
        .prop_map(|(op, specs)| format!("{{{op}{}}}", specs.join(",")));
    prop::collection::vec(prop_oneof![literal, expression], 0..8).prop_map(|v| v.concat())
}

/// A generated variable value, owned; borrowed into a `Value` for expansion.
#[derive(Debug, Clone)]
enum Gen {
    Undefined,
    Str(String),
    List(Vec<String>),
    Assoc(Vec<(String, String)>),
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(
            prop::sample::select(vec![
                "a", "Z", "0", "-", ".", "_", "~", " ", "%", "%41", "%zz", ":", "/", "?", "#", "[",
                "]", "@", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", "é", "€", "😀",
                "\"", "<", "\0",
            ]),
            0..10,
        )
        .prop_map(|v| v.concat()),
    ]
}

fn value() -> impl Strategy<Value = Gen> {
    prop_oneof![
        1 => Just(Gen::Undefined),
        3 => text().prop_map(Gen::Str),
        2 => prop::collection::vec(text(), 0..4).prop_map(Gen::List),
        2 => prop::collection::vec((text(), text()), 0..4).prop_map(Gen::Assoc),
    ]
}

/// Expands `t` through every sink and checks that they agree.
fn check_expansion(t: &OwnedTemplate, gens: &[Gen]) {
    let lists: Vec<Vec<&str>> = gens
        .iter()
        .map(|g| match g {
            Gen::List(l) => l.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        })
        .collect();
    let assocs: Vec<Vec<(&str, &str)>> = gens
        .iter()
        .map(|g| match g {
            Gen::Assoc(a) => a.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
            _ => Vec::new(),
        })
        .collect();
    let mut vars: Vec<(&str, Value<'_>)> = Vec::new();
    for (k, g) in gens.iter().enumerate() {
        let value = match g {
            Gen::Undefined => continue,
            Gen::Str(s) => Value::Str(s),
            Gen::List(_) => Value::List(&lists[k]),
            Gen::Assoc(_) => Value::Assoc(&assocs[k]),
        };
        vars.push((NAMES[k % NAMES.len()], value));
    }
    let vars = vars.as_slice();
    let r = t.as_ref();

    let owned = t.expand(vars);
    let mut written = String::new();
    let by_fmt = r.expand(vars, &mut written);
    let len = r.expanded_len(vars);
    let mut buf = vec![0u8; 1024];
    let by_slice = r.expand_to_slice(vars, &mut buf);
    match owned {
        Err(e) => {
            assert!(matches!(e, ExpandError::PrefixOnComposite { .. }), "{e:?}");
            assert_eq!(by_fmt, Err(e));
            assert_eq!(len, Err(e));
            assert_eq!(by_slice, Err(e));
        }
        Ok(out) => {
            assert_eq!(by_fmt, Ok(()));
            assert_eq!(written, out);
            assert_eq!(len, Ok(out.len()));
            if out.len() <= buf.len() {
                assert_eq!(by_slice, Ok(out.len()));
                assert_eq!(&buf[..out.len()], out.as_bytes());
            } else {
                assert_eq!(
                    by_slice,
                    Err(ExpandError::BufferTooSmall { needed: out.len() })
                );
            }
            if !out.is_empty() {
                let mut short = vec![0u8; out.len() - 1];
                assert_eq!(
                    r.expand_to_slice(vars, &mut short),
                    Err(ExpandError::BufferTooSmall { needed: out.len() })
                );
            }
            assert!(is_uri_text(&out), "{:?} expanded to {out:?}", t.source());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_string_parses_without_panic_and_parsers_agree(source in any::<String>()) {
        if let Some(t) = parse_both(&source) {
            prop_assert_eq!(reserialise(t.as_ref()), source);
        }
    }

    #[test]
    fn template_like_strings_round_trip(source in prop_oneof![template_like(), near_valid()]) {
        if let Some(t) = parse_both(&source) {
            prop_assert_eq!(reserialise(t.as_ref()), source);
        }
    }

    #[test]
    fn valid_templates_parse_and_round_trip(source in valid_template()) {
        let t = parse_both(&source);
        prop_assert!(t.is_some(), "{:?} did not parse", source);
        let t = t.unwrap();
        prop_assert_eq!(reserialise(t.as_ref()), source.as_str());
    }

    #[test]
    fn expansion_sinks_agree_and_output_is_uri_text(
        source in valid_template(),
        gens in prop::collection::vec(value(), NAMES.len()),
    ) {
        let t = OwnedTemplate::parse(&source).unwrap();
        check_expansion(&t, &gens);
    }

    #[test]
    fn expansion_of_parsed_near_valid_templates(
        source in near_valid(),
        gens in prop::collection::vec(value(), NAMES.len()),
    ) {
        if let Ok(t) = OwnedTemplate::parse(&source) {
            check_expansion(&t, &gens);
        }
    }
}

#[test]
fn is_uri_text_rejects_what_a_uri_cannot_hold() {
    assert!(is_uri_text("repo://acme/web%20app?x=1&y=%E2%82%AC#f"));
    for bad in [
        "a b", "%", "%4", "%zz", "é", "\"", "<", "{", "|", "\\", "^", "`",
    ] {
        assert!(!is_uri_text(bad), "{bad:?}");
    }
}
