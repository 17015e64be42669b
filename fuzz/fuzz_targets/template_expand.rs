//! A template and variable values, expanded into a fixed slice, exact-size slices and a
//! `String`: every sink must agree.
//!
//! Input format (UTF-8, one item per line, so seeds are readable):
//!
//! * line 1: the template;
//! * line k+1: the value of the k-th distinct variable name of the template, where
//!   `@a|b|c` is a list, `=k1|v1|k2|v2` an associative array, a lone `!` leaves the variable
//!   undefined, and anything else is a string; a missing line also means undefined.
//!
//! Checks: expansion never panics; `expand` into a `String`, `expand_to_slice` and
//! `expanded_len` agree on the bytes, the length and the error; a slice one byte short gives
//! `BufferTooSmall { needed }` with `needed` equal to the real length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_context::template::{ExpandError, OwnedTemplate, Value, Variables};

/// The fixed output buffer every input is also expanded into.
const FIXED: usize = 64;

enum Raw<'a> {
    Str(&'a str),
    List(Vec<&'a str>),
    Assoc(Vec<(&'a str, &'a str)>),
}

struct Vars<'a>(Vec<(&'a str, Raw<'a>)>);

impl Variables for Vars<'_> {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        let (_, raw) = self.0.iter().find(|(n, _)| *n == name)?;
        Some(match raw {
            Raw::Str(s) => Value::Str(s),
            Raw::List(l) => Value::List(l),
            Raw::Assoc(a) => Value::Assoc(a),
        })
    }
}

fn value(line: &str) -> Option<Raw<'_>> {
    if line == "!" {
        return None;
    }
    if let Some(items) = line.strip_prefix('@') {
        return Some(Raw::List(items.split('|').collect()));
    }
    if let Some(items) = line.strip_prefix('=') {
        let flat: Vec<&str> = items.split('|').collect();
        let pairs = flat
            .chunks(2)
            .map(|c| (c[0], c.get(1).copied().unwrap_or("")))
            .collect();
        return Some(Raw::Assoc(pairs));
    }
    Some(Raw::Str(line))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let source = lines.next().unwrap_or("");
    let Ok(template) = OwnedTemplate::parse(source) else {
        return;
    };
    let t = template.as_ref();

    let mut vars = Vars(Vec::new());
    for spec in t.variables() {
        if vars.0.iter().any(|(n, _)| *n == spec.name) {
            continue;
        }
        let Some(line) = lines.next() else { break };
        if let Some(raw) = value(line) {
            vars.0.push((spec.name, raw));
        }
    }

    let mut string = String::new();
    let by_string = t.expand(&vars, &mut string);
    let by_len = t.expanded_len(&vars);
    let mut fixed = [0u8; FIXED];
    let by_fixed = t.expand_to_slice(&vars, &mut fixed);

    match by_string {
        Err(e) => {
            assert!(matches!(e, ExpandError::PrefixOnComposite { .. }), "{e:?}");
            assert_eq!(by_len, Err(e));
            assert_eq!(by_fixed, Err(e));
        }
        Ok(()) => {
            let len = string.len();
            assert_eq!(by_len, Ok(len));
            if len <= FIXED {
                assert_eq!(by_fixed, Ok(len));
                assert_eq!(&fixed[..len], string.as_bytes());
            } else {
                assert_eq!(by_fixed, Err(ExpandError::BufferTooSmall { needed: len }));
            }
            let mut exact = vec![0u8; len];
            assert_eq!(t.expand_to_slice(&vars, &mut exact), Ok(len));
            assert_eq!(exact, string.as_bytes());
            if len > 0 {
                let mut short = vec![0u8; len - 1];
                assert_eq!(
                    t.expand_to_slice(&vars, &mut short),
                    Err(ExpandError::BufferTooSmall { needed: len })
                );
            }
        }
    }
});
