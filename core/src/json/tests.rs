//! Unit and property tests of the JSON layer.

use super::*;
use proptest::prelude::*;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

fn kind_of(input: &[u8]) -> Option<JsonErrorKind> {
    validate(input, Limits::DEFAULT).err().map(|e| e.kind)
}

#[test]
fn accepts_valid_texts() {
    for ok in [
        "0",
        "-0",
        "1.5e-3",
        "-12E+4",
        "\"\"",
        "true",
        "false",
        "null",
        "[]",
        "{}",
        " [1, [2, {\"a\": []}], \"x\"] ",
        "{\"a\":{\"b\":{\"c\":null}}}",
        "\"\\ud83d\\ude00\"",
        "\"\\u00e9\\/\\b\\f\\n\\r\\t\\\\\\\"\"",
        "\"é😀\"",
    ] {
        assert!(validate(ok.as_bytes(), Limits::DEFAULT).is_ok(), "{ok}");
    }
}

#[test]
fn rejects_with_typed_errors() {
    use JsonErrorKind as K;
    let cases: &[(&[u8], K)] = &[
        (b"", K::UnexpectedEnd),
        (b"[1,]", K::UnexpectedByte),
        (b"{\"a\" 1}", K::UnexpectedByte),
        (b"{\"a\":1,}", K::UnexpectedByte),
        (b"01", K::TrailingCharacters),
        (b"1.", K::InvalidNumber),
        (b"-", K::InvalidNumber),
        (b"1e", K::InvalidNumber),
        (b"+1", K::UnexpectedByte),
        (b".5", K::UnexpectedByte),
        (b"\"\\x\"", K::InvalidEscape),
        (b"\"\\u12\"", K::InvalidEscape),
        (b"\"\\ud83d\"", K::LoneSurrogate),
        (b"\"\\ude00\"", K::LoneSurrogate),
        (b"\"\\ud83d\\u0041\"", K::LoneSurrogate),
        (b"\"a\nb\"", K::ControlCharacter),
        (b"\"\xff\"", K::InvalidUtf8),
        (b"[1] x", K::TrailingCharacters),
        (b"tru", K::UnexpectedByte),
        (b"{", K::UnexpectedEnd),
        (b"\"abc", K::UnexpectedEnd),
    ];
    for (input, kind) in cases {
        assert_eq!(
            kind_of(input),
            Some(*kind),
            "{}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn depth_and_size_limits() {
    let limits = Limits {
        max_len: 1 << 20,
        max_depth: 8,
    };
    let ok = "[".repeat(8) + &"]".repeat(8);
    assert!(validate(ok.as_bytes(), limits).is_ok());
    let deep = "[".repeat(9) + &"]".repeat(9);
    assert_eq!(
        validate(deep.as_bytes(), limits).unwrap_err().kind,
        JsonErrorKind::TooDeep
    );
    // A nesting bomb far past any stack: an error, not a crash.
    let bomb = "[{\"a\":".repeat(200_000);
    assert_eq!(kind_of(bomb.as_bytes()), Some(JsonErrorKind::TooDeep));
    let small = Limits {
        max_len: 3,
        max_depth: 8,
    };
    assert_eq!(
        validate(b"[1,2]", small).unwrap_err().kind,
        JsonErrorKind::TooLarge
    );
    // Depth above the hard ceiling is clamped.
    let huge = Limits {
        max_len: 1 << 20,
        max_depth: u16::MAX,
    };
    let d300 = "[".repeat(300) + &"]".repeat(300);
    assert_eq!(
        validate(d300.as_bytes(), huge).unwrap_err().kind,
        JsonErrorKind::TooDeep
    );
}

#[test]
fn navigation_borrows() {
    let v =
        RawJson::parse(br#" {"a" : [ 1 , "x\"y" , {"k":true} ] , "b\u0021":null, "n": -2.5e3}"#)
            .unwrap();
    let members: Vec<_> = v.object().unwrap().collect();
    assert_eq!(members.len(), 3);
    assert!(members[1].0 == "b!");
    let arr: Vec<_> = v.get("a").unwrap().array().unwrap().collect();
    assert_eq!(arr.len(), 3);
    assert_eq!(arr[0].as_number().unwrap().as_u64(), Some(1));
    assert_eq!(arr[1].as_str().unwrap().to_string(), "x\"y");
    assert_eq!(arr[2].get("k").unwrap().as_bool(), Some(true));
    assert_eq!(
        v.get("n").unwrap().as_number().unwrap().as_f64(),
        Some(-2500.0)
    );
    assert_eq!(
        v.get("n").unwrap().as_number().unwrap().as_i64(),
        Some(-2500)
    );
    assert!(v.get("missing").is_none());
}

#[test]
fn numbers() {
    let n = |s| Number::parse(s).unwrap();
    assert_eq!(n("18446744073709551615").as_u64(), Some(u64::MAX));
    assert_eq!(n("18446744073709551616").as_u64(), None);
    assert_eq!(n("-9223372036854775808").as_i64(), Some(i64::MIN));
    assert_eq!(n("1.0").as_i64(), Some(1));
    assert_eq!(n("1.5").as_i64(), None);
    assert_eq!(n("1e400").as_f64(), None);
    assert!(n("-0").as_i64() == Some(0) && !n("-0").is_negative());
    assert_eq!(n("-0").as_u64(), Some(0));
    assert_eq!(n("-1").as_u64(), None);
    assert_eq!(n("-0.0").as_u64(), Some(0));
    assert!(n("-0.5").is_negative() && n("-1e-9").is_negative());
    assert!(!n("-0.0e5").is_negative());
}

#[test]
fn unescape_into_reports_needed_size() {
    let v = RawJson::parse(br#""\u00e9\u00e9""#).unwrap();
    let s = v.as_str().unwrap();
    let mut small = [0u8; 3];
    assert_eq!(
        s.unescape_into(&mut small),
        Err(EncodeError::BufferTooSmall { needed: 4 })
    );
    assert_eq!(s.len(), 4);
    assert_eq!(s.to_cow(), "éé");
}

#[test]
fn writer_escapes_and_compacts() {
    let mut out = String::new();
    let mut w = Writer::new(&mut out);
    w.begin_array().unwrap();
    w.str("\u{1}\u{1f}\t\"\\/é").unwrap();
    w.raw(RawJson::parse(b"{ \"a b\" : [ 1 , 2 ] }").unwrap())
        .unwrap();
    w.i64(-42).unwrap();
    w.u64(0).unwrap();
    w.f64(0.8).unwrap();
    w.null().unwrap();
    w.begin_object().unwrap();
    w.end_object().unwrap();
    w.end_array().unwrap();
    assert_eq!(
        out,
        r#"["\u0001\u001f\t\"\\/é",{"a b":[1,2]},-42,0,0.8,null,{}]"#
    );
    assert!(Writer::new(&mut String::new()).f64(f64::NAN).is_err());
}

#[test]
fn slice_sink_reports_needed() {
    let v = RawJson::parse(br#"{"abc": "defgh"}"#).unwrap();
    let mut buf = [0u8; 5];
    assert_eq!(
        to_slice(&v, &mut buf),
        Err(EncodeError::BufferTooSmall { needed: 15 })
    );
    let mut buf = [0u8; 15];
    assert_eq!(to_slice(&v, &mut buf), Ok(15));
    assert_eq!(&buf, br#"{"abc":"defgh"}"#);
    assert_eq!(encoded_len(&v), Ok(15));
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        (-1_000_000i64..1_000_000).prop_map(|n| serde_json::Value::from(n as f64 / 64.0)),
        any::<String>().prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::vec((any::<String>(), inner), 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn strings_round_trip(s in any::<String>()) {
        let mut out = String::new();
        Writer::new(&mut out).str(&s).unwrap();
        prop_assert_eq!(serde_json::from_str::<String>(&out).unwrap(), s.clone());
        let v = RawJson::parse(out.as_bytes()).unwrap();
        prop_assert_eq!(v.as_str().unwrap().to_cow(), s.as_str());
        // serde_json's escaping (with \uXXXX for everything non-ASCII) decodes the same.
        let ascii = serde_json::to_string(&s).unwrap().chars().flat_map(|c| {
            if c.is_ascii() { vec![c] } else {
                let mut units = [0u16; 2];
                c.encode_utf16(&mut units).iter().flat_map(|u| format!("\\u{u:04x}").chars().collect::<Vec<_>>()).collect()
            }
        }).collect::<String>();
        let v = RawJson::parse(ascii.as_bytes()).unwrap();
        prop_assert!(v.as_str().unwrap().eq_str(&s));
    }

    #[test]
    fn values_agree_with_serde_json(v in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.unwrap();
        let raw = RawJson::parse(text.as_bytes()).unwrap();
        let compact = to_string(&raw).unwrap();
        prop_assert_eq!(serde_json::from_str::<serde_json::Value>(&compact).unwrap(), v.clone());
        prop_assert_eq!(compact, serde_json::to_string(&v).unwrap());
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_agree(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let ours = validate(&bytes, Limits::DEFAULT).is_ok();
        let theirs = serde_json::from_slice::<serde_json::Value>(&bytes).is_ok();
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn json_like_text_agrees(s in "[\\[\\]{}\",:0-9eE.+\\- a-z\\\\u]{0,40}") {
        let ours = validate(s.as_bytes(), Limits::DEFAULT).is_ok();
        let theirs = serde_json::from_str::<serde_json::Value>(&s).is_ok();
        prop_assert_eq!(ours, theirs, "{}", s);
    }
}

/// Re-encoding a decoded string: a body already in canonical form is copied; any other is
/// re-escaped, so the output is the same either way.
#[test]
fn decoded_strings_reencode_canonically() {
    for (input, expected) in [
        (r#""plain""#, r#""plain""#),
        (r#""a\"b\\c\n\r\t\b\f""#, r#""a\"b\\c\n\r\t\b\f""#),
        (r#""\u0001\u001f""#, r#""\u0001\u001f""#),
        (r#""\u001F""#, r#""\u001f""#),
        (r#""\u000a""#, r#""\n""#),
        (r#""\/x""#, r#""/x""#),
        (r#""\u0041\u00e9""#, "\"Aé\""),
        (r#""\u0022\u005c""#, r#""\"\\""#),
        ("\"\\ud83d\\ude00\"", "\"😀\""),
    ] {
        let s = RawJson::parse(input.as_bytes()).unwrap().as_str().unwrap();
        let mut c = Cursor::new(input.as_bytes(), Limits::DEFAULT).unwrap();
        let from_cursor = c.string().unwrap();
        for v in [s, from_cursor] {
            let mut out = String::new();
            Writer::new(&mut out).json_str(v).unwrap();
            assert_eq!(out, expected, "{input}");
        }
    }
    // A built string is escaped whatever it holds.
    let mut out = String::new();
    Writer::new(&mut out)
        .json_str(JsonStr::new("a\"b\\"))
        .unwrap();
    assert_eq!(out, r#""a\"b\\""#);
}

proptest! {
    /// Any decoded string re-encodes to the same text as its decoded value does.
    #[test]
    fn reencoding_a_decoded_string_equals_encoding_its_value(v in any::<String>()) {
        let mut text = String::new();
        Writer::new(&mut text).str(&v).unwrap();
        // A non-canonical spelling of the same value: every character as `\uXXXX`.
        let mut long = String::from("\"");
        for u in v.encode_utf16() {
            long.push_str(&format!("\\u{u:04X}"));
        }
        long.push('"');
        for input in [text.clone(), long] {
            let s = RawJson::parse(input.as_bytes()).unwrap().as_str().unwrap();
            let mut out = String::new();
            Writer::new(&mut out).json_str(s).unwrap();
            prop_assert_eq!(&out, &text);
        }
    }
}

proptest! {
    /// Strings dense with escapes, at every offset within the scanners' 8-byte words: the
    /// validating scan, the trusted skip (iterating a validated value) and `unescape_into`
    /// agree with serde_json, for values and keys; a raw control byte anywhere is refused.
    #[test]
    fn dense_escapes_agree_with_serde_json(
        parts in prop::collection::vec(prop_oneof![
            Just(String::from("\\\"")),
            Just(String::from("\\\\")),
            Just(String::from("\\n")),
            Just(String::from("\\/")),
            Just(String::from("\\u00e9")),
            Just(String::from("\\ud83d\\ude00")),
            Just(String::from("é")),
            "[a-z ]{0,9}",
        ], 0..24),
        ctrl_at in prop::option::of(0usize..200),
    ) {
        let mut body: String = parts.concat();
        if let Some(at) = ctrl_at.filter(|&a| a <= body.len() && body.is_char_boundary(a)) {
            body.insert(at, '\u{1}');
        }
        let text = format!("[\"{body}\",{{\"k\":\"{body}\",\"{body}\":1}},\"end\"]");
        let theirs = serde_json::from_str::<serde_json::Value>(&text);
        let ours = RawJson::parse(text.as_bytes());
        prop_assert_eq!(ours.is_ok(), theirs.is_ok());
        let (Ok(raw), Ok(value)) = (ours, theirs) else { return Ok(()) };
        let expected = value[0].as_str().unwrap();
        let mut scratch = vec![0u8; expected.len()];
        let items: Vec<RawJson<'_>> = raw.array().unwrap().collect();
        prop_assert_eq!(items.len(), 3);
        prop_assert_eq!(items[2].as_str().unwrap().source(), "end");
        let first = items[0].as_str().unwrap();
        prop_assert_eq!(first.unescape_into(&mut scratch).unwrap(), expected);
        prop_assert_eq!(first.len(), expected.len());
        let members: Vec<_> = items[1].object().unwrap().collect();
        prop_assert_eq!(members.len(), 2);
        prop_assert!(members[0].1.as_str().unwrap().eq_str(expected));
        prop_assert!(members[1].0.eq_str(expected));
        // The validating cursor and the trusted one (over the validated value) read the same.
        let mut checked = Cursor::new(text.as_bytes(), Limits::DEFAULT).unwrap();
        let mut trusted = Cursor::over(raw);
        for c in [&mut checked, &mut trusted] {
            c.begin_array().unwrap();
            let mut first_item = true;
            prop_assert!(c.next_item(&mut first_item).unwrap());
            let s = c.string().unwrap();
            prop_assert_eq!(s.unescape_into(&mut scratch).unwrap(), expected);
            prop_assert!(c.next_item(&mut first_item).unwrap());
            c.value().unwrap();
            prop_assert!(c.next_item(&mut first_item).unwrap());
            prop_assert_eq!(c.string().unwrap().source(), "end");
        }
    }
}

/// Known keys are matched in place when written plainly, and after decoding when escaped;
/// a known key repeated under another spelling is still a duplicate.
#[test]
fn escaped_known_keys_match_and_duplicates_are_caught() {
    use crate::jsonrpc::FromJson;
    use crate::messages::Resource;
    fn decode(text: &str) -> Result<Resource<'_>, crate::jsonrpc::ParamsError> {
        Resource::from_json(RawJson::parse(text.as_bytes()).unwrap())
    }
    let r = decode(r#"{"ur\u0069":"a","name":"n","uriX":1,"u":2}"#).unwrap();
    assert_eq!((r.uri, r.name), (JsonStr::new("a"), JsonStr::new("n")));
    let e = decode(r#"{"uri":"a","ur\u0069":"b","name":"n"}"#).unwrap_err();
    assert_eq!(e.field, "uri");
    assert!(decode(r#"{"uri\"":"a","name":"n"}"#).is_err());
}

/// A byte-at-a-time reference for one string body starting at `i` (after the quote): the
/// index after the closing quote, or the error kind and offset the scanner must report.
fn reference_string(b: &[u8], mut i: usize) -> Result<usize, (JsonErrorKind, usize)> {
    use JsonErrorKind as K;
    loop {
        match b.get(i) {
            None => return Err((K::UnexpectedEnd, i)),
            Some(b'"') => return Ok(i + 1),
            Some(&c) if c < 0x20 => return Err((K::ControlCharacter, i)),
            Some(b'\\') => match b.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u') => i += 6,
                None => return Err((K::UnexpectedEnd, i + 1)),
                Some(_) => return Err((K::InvalidEscape, i)),
            },
            Some(_) => i += 1,
        }
    }
}

proptest! {
    /// The word scans flag a special byte by a borrow test whose higher bits may be false
    /// (a `]` after a backslash, a `#` after a quote, a space after a control byte): strings
    /// dense with those neighbours, at every offset in a word, read and fail as a byte
    /// loop does (same end, same error kind and offset), validating and trusted.
    #[test]
    fn borrow_neighbours_scan_as_a_byte_loop(
        parts in prop::collection::vec(prop_oneof![
            Just("\\\\]"), Just("\\\\\\\\]]"), Just("\\\"#"), Just("]"), Just("#"),
            Just(" "), Just("\\\\ "), Just("\u{1}"), Just("\u{1f} "), Just("\\n"),
            Just("\\q"), Just("a"), Just("\u{7f}"), Just("é"), Just("!"), Just("]]]]]]]]"),
        ], 0..20),
        pad in 0usize..8,
    ) {
        let body: String = parts.concat();
        let text = format!("{}\"{body}\"", " ".repeat(pad));
        let b = text.as_bytes();
        let want = reference_string(b, pad + 1);
        let got = scan::scan_string(b, pad + 1).map(|(end, _)| end).map_err(|e| (e.kind, e.at));
        prop_assert_eq!(got, want, "{:?}", text);
        if let Ok(end) = want {
            let skipped = scan::skip_string(b, pad + 1);
            prop_assert_eq!(skipped, (end, body.contains('\\')));
            // What a trusted cursor reads a string with, on either form (`Cursor::string`).
            prop_assert_eq!(scan::scan_string(b, pad + 1).ok(), Some(skipped));
        }
    }
}

proptest! {
    /// Compact targets skip a validated value with the validator (`scan::skip_value`): it
    /// ends where the fast walk ends, at every value start of any validated text.
    #[test]
    fn skip_value_forms_agree(v in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.unwrap();
        let b = text.as_bytes();
        // A value starts after `[`, `,` or `:` outside strings, or at the text's start.
        let (mut in_string, mut escaped, mut last) = (false, false, None);
        let mut starts = 0;
        for (i, &c) in b.iter().enumerate() {
            if in_string {
                (in_string, escaped) = (escaped || c != b'"', !escaped && c == b'\\');
                continue;
            }
            if c.is_ascii_whitespace() {
                continue;
            }
            if matches!(last, None | Some(b'[' | b',' | b':')) && c != b']' && c != b'}' {
                prop_assert_eq!(scan::skip_value_checked(b, i), scan::skip_value_fast(b, i), "{} at {}", text, i);
                starts += 1;
            }
            in_string = c == b'"';
            last = Some(c);
        }
        prop_assert!(starts > 0);
    }
}

proptest! {
    /// Compact targets unescape one character at a time (`JsonStr::unescape_into`): the same
    /// text, and the same `needed` when the scratch is too small, at every scratch size.
    #[test]
    fn unescape_forms_agree(s in any::<String>(), ascii in any::<bool>(), more in any::<bool>()) {
        let mut text = serde_json::to_string(&s).unwrap();
        if ascii {
            text = text.chars().map(|c| if c.is_ascii() { c.to_string() } else {
                let mut units = [0u16; 2];
                c.encode_utf16(&mut units).iter().map(|u| format!("\\u{u:04x}")).collect()
            }).collect();
        }
        if more {
            text.insert_str(text.len() - 1, r#"\ud83d\ude00x\n\/\b\t\"\u00e9"#);
        }
        let v = RawJson::parse(text.as_bytes()).unwrap();
        let js = v.as_str().unwrap();
        if !js.has_escapes() {
            // Returned as it is, without a copy, on every target.
            prop_assert_eq!(js.unescape_into(&mut []), Ok(js.source()));
            return Ok(());
        }
        let n = js.len() + 2;
        for size in 0..=n {
            let (mut a, mut b) = (vec![0u8; size], vec![0u8; size]);
            let (x, y) = (js.unescape_by_chars(&mut a), js.unescape_into(&mut b));
            prop_assert_eq!(x, y, "{} into {}", text, size);
        }
    }
}

proptest! {
    /// The word masks' lowest set bit is the first special byte (`"`, `\`, and a control
    /// byte when they count), or none is set; the constants given as values
    /// (`scan::Specials::opaque`) answer as the immediates.
    #[test]
    fn specials_mask_finds_the_first_special_byte(
        bytes in prop::array::uniform8(prop_oneof![
            Just(b'"'), Just(b'\\'), Just(0u8), Just(0x1f), Just(0x20), Just(0x21), Just(0x23),
            Just(0x5b), Just(0x5d), Just(0x7f), Just(0x80), Just(0xa2), Just(0xdc), any::<u8>(),
        ]),
    ) {
        let w = u64::from_le_bytes(bytes);
        let first = |ctrl: bool| bytes.iter().position(|&c| c == b'"' || c == b'\\' || (ctrl && c < 0x20));
        let lowest = |m: u64| (m != 0).then(|| (m.trailing_zeros() / 8) as usize);
        prop_assert_eq!(lowest(scan::specials(w, true)), first(true));
        prop_assert_eq!(lowest(scan::specials(w, false)), first(false));
        prop_assert_eq!(scan::Specials::opaque().mask(w), scan::specials(w, true));
    }
}
