//! Tests of `messages::common`: the compact forms against the wide ones, the string enums,
//! the fast `priority` read.

use super::{CacheScope, LoggingLevel, ResultType, Role, Theme};

/// `expect` and its compact form: same answer and cursor position for every kind, on
/// values of every kind and on malformed ones.
#[test]
fn expect_forms_agree() {
    use crate::json::{Cursor, JsonKind, Limits};
    let kinds = [
        JsonKind::Null,
        JsonKind::Bool,
        JsonKind::Number,
        JsonKind::String,
        JsonKind::Array,
        JsonKind::Object,
    ];
    let bodies: [&[u8]; 14] = [
        b"", b"  ", b"null", b"true", b"-1.5", b"\"s\"", b"[1]", b"{}", b"\"open", b"tru", b"-",
        b"[1,", b"{\"a\"", b"\"\\q\"",
    ];
    let mut refused = 0;
    for body in bodies {
        for kind in kinds {
            let (Ok(mut a), Ok(mut b)) = (
                Cursor::new(body, Limits::DEFAULT),
                Cursor::new(body, Limits::DEFAULT),
            ) else {
                continue;
            };
            let want = super::expect(&mut a, kind, "f");
            refused += usize::from(want.is_err());
            assert_eq!(super::expect_compact(&mut b, kind, "f"), want);
            assert_eq!(a.position(), b.position());
        }
    }
    assert!(refused > 12);
}

/// `expect` then a read, against the compact targets' `refuse_other_kind` then the same
/// read (which refuses an absent value itself): the same answer and cursor position.
#[test]
fn refuse_other_kind_then_read_agrees() {
    use crate::json::{Cursor, JsonKind, Limits};
    use crate::jsonrpc::DecodeError;
    type Read = fn(&mut Cursor<'_>) -> Result<(), DecodeError>;
    let reads: [(JsonKind, Read); 3] = [
        (JsonKind::String, |c| {
            c.string().map(drop).map_err(Into::into)
        }),
        (JsonKind::Bool, |c| c.value().map(drop).map_err(Into::into)),
        (JsonKind::Object, |c| {
            c.value().map(drop).map_err(Into::into)
        }),
    ];
    let bodies: [&[u8]; 15] = [
        b"",
        b"  ",
        b"null",
        b"true",
        b"-1.5",
        b"\"s\"",
        b"[1]",
        b"{}",
        b"\"open",
        b"tru",
        b"-",
        b"[1,",
        b"{\"a\"",
        b"\"\\q\"",
        b"  {\"a\":1}",
    ];
    for body in bodies {
        for (kind, read) in reads {
            let (Ok(mut a), Ok(mut b)) = (
                Cursor::new(body, Limits::DEFAULT),
                Cursor::new(body, Limits::DEFAULT),
            ) else {
                continue;
            };
            let want = super::expect(&mut a, kind, "f").and_then(|()| read(&mut a));
            let got = super::refuse_other_kind(&mut b, kind, "f").and_then(|()| read(&mut b));
            assert_eq!(got, want, "{:?} {kind:?}", core::str::from_utf8(body));
            assert_eq!(a.position(), b.position());
        }
    }
}

/// The direct priority read against the number path: same value or error, same position.
#[test]
fn priority_fast_read_agrees() {
    use super::Priority;
    use crate::json::{Cursor, Limits};
    use crate::jsonrpc::FromJson;
    use std::{format, string::String, vec::Vec};
    let mut texts: Vec<String> = [
        "0",
        "1",
        "0.5",
        "1.0",
        "1.5",
        "0.000",
        "1.000000000000000",
        "0.999999999999999",
        "0.1234567890123456",
        "0.12345678901234",
        "2",
        "01",
        "0.",
        "0.5e1",
        "0.5E-1",
        "-0",
        "-0.5",
        "1e0",
        "0.3]",
        "0.3,",
        " 0.7 ",
        "0.1x",
        "00.5",
        "1.00000000000001",
        "true",
        "\"0.5\"",
        "0.5.",
        "10",
        "0.30000000000000004",
    ]
    .iter()
    .map(|t| String::from(*t))
    .collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for digits in 1..=16 {
        for _ in 0..64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let frac = format!("{:016}", x % 10_000_000_000_000_000);
            texts.push(format!("0.{}", frac.get(..digits).unwrap_or("")));
        }
    }
    for t in &texts {
        let (mut a, mut b) = (
            Cursor::new(t.as_bytes(), Limits::DEFAULT).unwrap(),
            Cursor::new(t.as_bytes(), Limits::DEFAULT).unwrap(),
        );
        let (fast, general) = (Priority::decode(&mut a), Priority::decode_general(&mut b));
        assert_eq!(
            fast.map(|p| p.get().to_bits()),
            general.map(|p| p.get().to_bits()),
            "{t}"
        );
        assert_eq!(a.position(), b.position(), "{t}");
    }
}

macro_rules! both_forms_agree {
    ($($t:ident),*) => {$(
        for v in $t::ALL {
            assert_eq!($t::from_name(v.as_str()), Some(*v));
            assert_eq!($t::from_name_in_table(v.as_str()), Some(*v));
        }
        for s in ["", "x", "publi", "publics", "Debug", "info "] {
            assert_eq!($t::from_name_in_table(s), $t::from_name(s), "{s}");
        }
    )*};
}

/// Compact targets' shared decoder answers as the generic one, escapes and errors too.
#[test]
fn string_enums_decode_by_index_agrees() {
    use crate::json::{Cursor, Limits};
    use crate::jsonrpc::FromJson;
    let inputs: &[&[u8]] = &[
        br#""debug""#,
        br#""emergency""#,
        br#""d\u0065bug""#,
        br#""\u0064ebug""#,
        br#""public""#,
        br#""priv\u0061te""#,
        br#""light""#,
        br#""dark""#,
        br#""user""#,
        br#""assistant""#,
        br#""complete""#,
        br#""input_required""#,
        br#""nope""#,
        br#""""#,
        br#""\u0000""#,
        br#""emergencyemergency\u0021""#,
        br#""a\ud800""#,
        b"1",
        b"null",
        b"{}",
        br#"["debug"]"#,
        b"true",
        br#""users""#,
        br#""use""#,
        br#""assistan""#,
        br#""assistantt""#,
        br#""publicx""#,
        br#""input_required_""#,
        br#""us\u0065r""#,
    ];
    // Each also followed by more text, so a value is matched in place (eight bytes
    // after its opening quote) as well as read the general way.
    let padded: [([u8; 40], usize); 32] = core::array::from_fn(|k| {
        let mut out = [b' '; 40];
        let src = inputs.get(k).copied().unwrap_or(b"0");
        if let Some(dst) = out.get_mut(..src.len()) {
            dst.copy_from_slice(src);
        }
        if let Some(dst) = out.get_mut(src.len()..src.len() + 6) {
            dst.copy_from_slice(b",\"k\":1");
        }
        (out, src.len() + 6)
    });
    assert!(inputs.len() <= padded.len());
    let padded = padded.iter().map(|(b, n)| b.get(..*n).unwrap_or(&[]));
    macro_rules! agree {
        ($($t:ident),*) => {$(
            for bytes in inputs.iter().copied().chain(padded.clone()) {
                let (mut a, mut b) = (
                    Cursor::new(bytes, Limits::DEFAULT).unwrap(),
                    Cursor::new(bytes, Limits::DEFAULT).unwrap(),
                );
                let want = <$t as FromJson>::decode(&mut a);
                assert_eq!($t::decode_by_index(&mut b), want, "{bytes:?}");
                assert_eq!(a.position(), b.position());
            }
        )*};
    }
    agree!(ResultType, CacheScope, Role, LoggingLevel, Theme);
}

/// The table search compact targets use gives the match's answer.
#[test]
fn string_enums_both_forms_agree() {
    both_forms_agree!(ResultType, CacheScope, Role, LoggingLevel, Theme);
    assert_eq!(LoggingLevel::ALL.len(), 8);
}
