//! Arbitrary bytes, read as UTF-8, through both template parsers.
//!
//! Checks that parsing never panics, that the fixed-capacity `Template::<64>` and the owned
//! `OwnedTemplate` agree (same parts, or the same error; the fixed one may only differ by
//! running out of capacity), and that a parsed template re-serialises from its parts to its
//! source, byte for byte.
#![no_main]

use std::fmt::Write as _;

use libfuzzer_sys::fuzz_target;
use mcp_context::template::{Modifier, OwnedTemplate, ParseErrorKind, Part, Template, TemplateRef};

const CAPACITY: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let fixed = Template::<CAPACITY>::parse(source);
    let owned = OwnedTemplate::parse(source);
    match (&fixed, &owned) {
        (Ok(f), Ok(o)) => {
            assert_eq!(f.parts(), o.as_ref().parts, "parts differ for {source:?}");
            assert_eq!(reserialise(f.as_ref()), source);
            let counted: usize = f
                .parts()
                .iter()
                .map(|p| match p {
                    Part::Expression(e) => usize::from(e.var_count),
                    Part::Literal(_) => 0,
                })
                .sum();
            assert_eq!(f.variables().count(), counted);
        }
        (Err(f), Err(o)) if f.kind == ParseErrorKind::CapacityExceeded => {
            // The fixed parser stopped at the part that did not fit; the owned one went on
            // and failed further along.
            assert!(o.at > f.at, "{f:?} vs {o:?} for {source:?}");
        }
        (Err(f), Err(o)) => assert_eq!(f, o, "errors differ for {source:?}"),
        (Err(f), Ok(o)) => {
            assert_eq!(f.kind, ParseErrorKind::CapacityExceeded, "for {source:?}");
            assert!(o.as_ref().parts.len() > CAPACITY);
        }
        (Ok(_), Err(o)) => panic!("only the owned parser rejects {source:?}: {o:?}"),
    }
});

/// Literal text as written, and `{` operator varspecs `}` for each expression.
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
                        Modifier::Prefix(n) => {
                            let _ = write!(out, ":{n}");
                        }
                        Modifier::Explode => out.push('*'),
                    }
                }
                out.push('}');
            }
        }
    }
    out
}
