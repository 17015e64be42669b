//! One expression's expansion as compact targets run it ([`crate::WIDE`]): every defined
//! value is a run of items, each an optional key and a string (a string is one item, a list
//! its items without keys, an associative array its pairs), written by one loop instead of
//! one per value shape. The same output and errors as the wide form (`tests`).

use super::super::error::ExpandError;
use super::super::parse::{Modifier, Operator};
use super::super::value::{Value, Variables};
use super::{Sink, Specs, encode, prefix};

/// Item `k` of a defined value: its key (associative arrays only) and its string.
fn item<'v>(value: Value<'v>, k: usize) -> Option<(Option<&'v str>, &'v str)> {
    match value {
        Value::Str(s) => (k == 0).then_some((None, s)),
        Value::List(l) => l.get(k).map(|&v| (None, v)),
        Value::Assoc(a) => a.get(k).map(|&(key, v)| (Some(key), v)),
    }
}

/// Expands one expression (RFC 6570 Appendix A), as `expand::expand_expression` does.
pub(super) fn expand_expression<V: Variables + ?Sized>(
    op: Operator,
    specs: Specs<'_>,
    vars: &V,
    out: &mut impl Sink,
) -> Result<(), ExpandError> {
    let allow = op.allows_reserved();
    let named = op.is_named();
    let sep = op.separator();
    let mut first = true;
    for spec in specs {
        let Some(value) = vars.get(spec.name) else {
            continue;
        };
        if value.is_undefined() {
            continue;
        }
        let lead = if first { op.first() } else { sep };
        if !lead.is_empty() {
            out.put(lead);
        }
        first = false;
        // A string is written as an exploded item is; a composite takes no prefix.
        let explode = match (value, spec.modifier) {
            (Value::Str(_), _) => true,
            (_, Modifier::Prefix(_)) => return Err(ExpandError::PrefixOnComposite { at: spec.at }),
            (_, m) => m == Modifier::Explode,
        };
        if named && !explode {
            out.put(spec.name);
            out.put("=");
        }
        let mut k = 0;
        while let Some((key, val)) = item(value, k) {
            if k > 0 {
                out.put(if explode { sep } else { "," });
            }
            k += 1;
            let val = match (value, spec.modifier) {
                (Value::Str(s), Modifier::Prefix(n)) => prefix(s, n),
                _ => val,
            };
            if explode {
                match key {
                    Some(key) => encode(out, key, allow),
                    None if named => out.put(spec.name),
                    None => {}
                }
                if key.is_some() || named {
                    if named && val.is_empty() {
                        out.put(op.if_empty());
                        continue;
                    }
                    out.put("=");
                }
            } else if let Some(key) = key {
                encode(out, key, allow);
                out.put(",");
            }
            encode(out, val, allow);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{SliceSink, Specs};
    use crate::template::{Part, Template, Value};

    /// Both forms write the same bytes and give the same errors, for every operator, value
    /// shape and modifier.
    #[test]
    fn both_forms_agree() {
        let vars: [(&str, Value<'_>); 7] = [
            ("s", Value::Str("h\u{e9}llo w/x")),
            ("e", Value::Str("")),
            ("l", Value::List(&["a", "", "b,c"])),
            ("one", Value::List(&["x y"])),
            ("m", Value::Assoc(&[("k", "v"), ("e", ""), ("s p", "%41/")])),
            ("none", Value::List(&[])),
            ("p", Value::Str("%2Fx")),
        ];
        let mut compared = 0;
        for op in ["", "+", "#", ".", "/", ";", "?", "&"] {
            for specs in [
                "s,e",
                "s:3,p:1",
                "l,m",
                "l*,m*",
                "one*,e,none",
                "e*,none*",
                "l:2",
                "m:1",
            ] {
                let source = std::format!("{{{op}{specs}}}");
                let t: Template<'_, 4> = Template::parse(&source).unwrap();
                for part in t.parts() {
                    let Part::Expression(e) = *part else { continue };
                    let run = |compact: bool| {
                        let (mut buf, specs) =
                            ([0u8; 256], Specs::new(&source, e.vars, e.var_count));
                        let mut out = SliceSink {
                            buf: &mut buf,
                            len: 0,
                        };
                        let r = if compact {
                            super::expand_expression(e.op, specs, &vars, &mut out)
                        } else {
                            super::super::expand_expression(e.op, specs, &vars, &mut out)
                        };
                        let len = out.len;
                        (r, buf[..len].to_vec())
                    };
                    assert_eq!(run(true), run(false), "{source}");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 64);
    }
}
