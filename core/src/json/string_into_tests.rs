//! The scan of a cursor with a text buffer ([`scan_until_escape`], then [`unescape_rest`])
//! answers as [`scan_string`] then [`JsonStr::unescape_into`] do: the same end, escapes,
//! errors (kind and offset) and text, and no copy only when the text does not fit with 8
//! bytes to spare. Without the stop, [`scan_until_escape`] is [`scan_string`].

use alloc::format;
use alloc::string::String;
use alloc::vec;

use proptest::prelude::*;

use super::JsonError;
use super::JsonStr;
use super::scan::{Scanned, scan_string, scan_until_escape};
use super::string_into::unescape_rest;

/// The scan a cursor with a text buffer makes: up to the first backslash, then the rest
/// unescaped; the end, whether there are escapes, and the unescaped length when it fits.
fn scan_string_into(
    text: &str,
    start: usize,
    out: &mut [u8],
) -> Result<(usize, bool, Option<usize>), JsonError> {
    match scan_until_escape(text.as_bytes(), start, true)? {
        Scanned::End(end, escaped) => Ok((end, escaped, None)),
        Scanned::Escape(p) => unescape_rest(text, start, p, out).map(|(end, n)| (end, true, n)),
    }
}

/// Every answer of the fused scan for the body at `start`, against the two passes, with an
/// output buffer of every size from none to room to spare.
fn agrees(text: &str, start: usize) -> Result<(), TestCaseError> {
    let b = text.as_bytes();
    let want = scan_string(b, start);
    let plain = scan_until_escape(b, start, false).map(|s| match s {
        Scanned::End(end, escaped) => (end, escaped),
        Scanned::Escape(p) => (p, true),
    });
    prop_assert_eq!(
        plain.map_err(|e| (e.kind, e.at)),
        want.map_err(|e| (e.kind, e.at))
    );
    let unescaped = want.ok().and_then(|(end, escaped)| {
        let body = text.get(start..end - 1)?;
        let mut scratch = vec![0u8; body.len()];
        let s = JsonStr::from_source(body, escaped)
            .unescape_into(&mut scratch)
            .ok()?;
        Some(String::from(s))
    });
    for size in 0..=b.len() + 9 {
        let mut out = vec![0u8; size];
        let got = scan_string_into(text, start, &mut out);
        match (want, got) {
            (Err(w), Err(g)) => prop_assert_eq!((w.kind, w.at), (g.kind, g.at), "{:?}", text),
            (Ok((end, escaped)), Ok((gend, gescaped, copied))) => {
                prop_assert_eq!((gend, gescaped), (end, escaped), "{:?}", text);
                let u = unescaped.as_deref().unwrap_or("");
                let fits = escaped && u.len() + 8 <= size;
                match copied {
                    Some(len) => {
                        prop_assert!(escaped && len <= size, "{:?} into {}", text, size);
                        prop_assert_eq!(out.get(..len), Some(u.as_bytes()), "{:?}", text);
                    }
                    // A copy may stop short of the bound only for lack of room.
                    None => prop_assert!(!fits, "{:?} into {} not copied", text, size),
                }
            }
            (w, g) => prop_assert!(false, "{:?}: {:?} against {:?}", text, g, w),
        }
    }
    Ok(())
}

proptest! {
    /// Bodies dense with escapes (one letter, `\u` with and without surrogates, invalid),
    /// quotes, control bytes and the bytes a word mask flags by mistake, at every offset in a
    /// word, closed or cut short.
    #[test]
    fn fused_scan_agrees_with_scan_then_unescape(
        parts in prop::collection::vec(prop_oneof![
            Just("\\\\]"), Just("\\\""), Just("\\\"#"), Just("]"), Just("#"), Just(" "),
            Just("\\n"), Just("\\t\\r\\b\\f\\/"), Just("\\u00e9"), Just("\\ud83d\\ude00"),
            Just("\\ud83d"), Just("\\ude00"), Just("\\u12"), Just("\\q"), Just("\u{1}"),
            Just("\u{1f} "), Just("a"), Just("abcdefghijklmnop"), Just("é"), Just("😀"),
            Just("\u{7f}"),
        ], 0..24),
        pad in 0usize..8,
        close in any::<bool>(),
    ) {
        let body: String = parts.concat();
        let text = format!("{}\"{body}{}", " ".repeat(pad), if close { "\"" } else { "" });
        agrees(&text, pad + 1)?;
    }

    /// Any string as JSON encodes it, followed by more text.
    #[test]
    fn fused_scan_agrees_on_encoded_strings(s in any::<String>(), rest in "[\",:} a-z]{0,9}") {
        let text = format!("{}{rest}", serde_json::to_string(&s).unwrap());
        agrees(&text, 1)?;
    }
}
