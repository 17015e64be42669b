//! String escaping for the writer: minimal JSON escapes, found eight bytes at a time, with
//! the clean runs between them copied whole; and the copy of a decoded string's body when it
//! is already in that canonical form.

use super::super::error::EncodeError;
use super::super::string::JsonStr;
use super::JsonSink;

type R = Result<(), EncodeError>;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// For the eight bytes of `w` (little-endian), a mask whose lowest set bit is the high bit of
/// the first byte that must be escaped (`"`, `\` or a control character), or 0 when none is.
/// Bits above the lowest may be false positives (a borrow carries past a match), so only the
/// lowest is used.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
const fn special_mask(w: u64) -> u64 {
    let quote = w ^ (LO * b'"' as u64);
    let slash = w ^ (LO * b'\\' as u64);
    let zero_q = quote.wrapping_sub(LO) & !quote;
    let zero_s = slash.wrapping_sub(LO) & !slash;
    let ctrl = w.wrapping_sub(LO * 0x20) & !w;
    (zero_q | zero_s | ctrl) & HI
}

/// The index of the first byte at or after `i` that must be escaped, or `b.len()`.
#[inline]
pub(crate) fn next_special(b: &[u8], mut i: usize) -> usize {
    if !crate::WIDE {
        // Compact targets: one byte at a time (the same answer, see `crate::WIDE`).
        let rest = b.get(i..).unwrap_or(&[]);
        let p = rest
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        return p.map_or(b.len(), |p| i + p);
    }
    while let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let m = special_mask(u64::from_le_bytes(*chunk));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    // Fewer than eight bytes left: look at the last eight bytes of the string (when it has
    // that many) with the ones already seen masked off.
    let rest = b.len().saturating_sub(i);
    if rest == 0 {
        return b.len();
    }
    if let Some(chunk) = b
        .len()
        .checked_sub(8)
        .and_then(|s| b.get(s..)?.first_chunk::<8>())
    {
        // The bytes before `i` read as `a`, so a match among them cannot carry into the
        // bytes after.
        let seen = (1u64 << ((8 - rest) * 8)) - 1;
        let w = (u64::from_le_bytes(*chunk) & !seen) | ((LO * u64::from(b'a')) & seen);
        let m = special_mask(w);
        return if m == 0 {
            b.len()
        } else {
            b.len() - 8 + (m.trailing_zeros() / 8) as usize
        };
    }
    while let Some(&c) = b.get(i) {
        if c < 0x20 || c == b'"' || c == b'\\' {
            return i;
        }
        i += 1;
    }
    b.len()
}

/// The escape of a byte that [`next_special`] stops at; `None` for a control character
/// without a short form (written `\u00XX`).
#[inline]
const fn short_escape(c: u8) -> Option<&'static str> {
    Some(match c {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        b'\n' => "\\n",
        b'\r' => "\\r",
        b'\t' => "\\t",
        0x08 => "\\b",
        0x0c => "\\f",
        _ => return None,
    })
}

/// For each byte, the letter of its short escape (`\n` → `n`), or 0.
// Indexing in a const initialiser: an out-of-bounds index fails the build.
#[allow(clippy::indexing_slicing)]
static SHORT: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t
};

/// `\u00XX` for a control character, lowercase hex.
fn put_control<S: JsonSink + ?Sized>(sink: &mut S, c: u8) -> R {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hi = HEX.get(usize::from(c >> 4)).copied().unwrap_or(b'0');
    let lo = HEX.get(usize::from(c & 0xf)).copied().unwrap_or(b'0');
    let seq = [b'\\', b'u', b'0', b'0', hi, lo];
    sink.put(core::str::from_utf8(&seq).unwrap_or("\\u0000"))
}

/// Writes the escape of `c`, a byte [`next_special`] stopped at.
#[inline]
fn put_escape<S: JsonSink + ?Sized>(sink: &mut S, c: u8) -> R {
    match short_escape(c) {
        Some(esc) => sink.put(esc),
        None => put_control(sink, c),
    }
}

/// Writes `s` as a JSON string literal with minimal escaping: `"` `\` and control
/// characters only (short forms where JSON has them). Clean runs are copied whole.
#[inline]
pub(crate) fn write_escaped<S: JsonSink + ?Sized>(sink: &mut S, s: &str) -> R {
    let b = s.as_bytes();
    let i = next_special(b, 0);
    if i >= b.len() {
        return sink.put_quoted(s);
    }
    escape_rest(sink, s, i)
}

/// [`write_escaped`] once a byte to escape was found at `i`: the run writer.
#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
#[inline(always)]
fn escape_rest<S: JsonSink + ?Sized>(sink: &mut S, s: &str, i: usize) -> R {
    write_escaped_from(sink, s, i)
}

/// [`write_escaped`] once a byte to escape was found, on compact targets ([`crate::WIDE`]):
/// the character loop JSON strings take, which writes the same bytes (`tests`).
#[cfg(not(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
)))]
fn escape_rest<S: JsonSink + ?Sized>(sink: &mut S, s: &str, _: usize) -> R {
    write_escaped_json(sink, JsonStr::new(s))
}

/// The rest of [`write_escaped`] once a byte to escape was found at `i` (wide targets).
#[cfg_attr(
    not(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    )),
    allow(dead_code)
)]
#[inline(never)]
fn write_escaped_from<S: JsonSink + ?Sized>(sink: &mut S, s: &str, mut i: usize) -> R {
    let b = s.as_bytes();
    sink.put("\"")?;
    let mut start = 0;
    while let Some(&c) = b.get(i) {
        // Every byte found is ASCII, so `start` and `i` are on character boundaries.
        sink.put(s.get(start..i).unwrap_or(""))?;
        put_escape(sink, c)?;
        start = i + 1;
        i = next_special(b, start);
    }
    sink.put(s.get(start..).unwrap_or(""))?;
    sink.put("\"")
}

/// For the eight bytes of `w`, the high bit of each byte that must be escaped, exactly (no
/// carry between bytes, so every set bit is a match).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
const fn exact_mask(w: u64) -> u64 {
    const L7: u64 = LO * 0x7f;
    let q = w ^ (LO * b'"' as u64);
    let s = w ^ (LO * b'\\' as u64);
    // Each has a byte's high bit set where that byte is not a match.
    let not_quote = ((q & L7) + L7) | q;
    let not_slash = ((s & L7) + L7) | s;
    let not_ctrl = ((w & L7) + LO * 0x60) | w;
    !(not_quote & not_slash & not_ctrl) & HI
}

/// Writes the first `valid` bytes of `w` at `o`, escaped; returns the new end. Stores eight
/// bytes at a time, so up to eight bytes past the end are overwritten.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn put_word(buf: &mut [u8], mut o: usize, mut w: u64, mut valid: usize) -> Option<usize> {
    let mut m = exact_mask(w);
    loop {
        *buf.get_mut(o..).and_then(<[u8]>::first_chunk_mut::<8>)? = w.to_le_bytes();
        if m == 0 {
            return Some(o + valid);
        }
        let k = (m.trailing_zeros() / 8) as usize;
        o += k;
        let c = (w >> (k * 8)) as u8;
        let short = SHORT.get(usize::from(c)).copied().unwrap_or(0);
        if short != 0 {
            *buf.get_mut(o..).and_then(<[u8]>::first_chunk_mut::<2>)? = [b'\\', short];
            o += 2;
        } else {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hi = HEX.get(usize::from(c >> 4)).copied().unwrap_or(b'0');
            let lo = HEX.get(usize::from(c & 0xf)).copied().unwrap_or(b'0');
            *buf.get_mut(o..).and_then(<[u8]>::first_chunk_mut::<6>)? =
                [b'\\', b'u', b'0', b'0', hi, lo];
            o += 6;
        }
        // Drop the bytes written (two shifts: `k + 1` may be 8).
        w = (w >> (k * 8)) >> 8;
        m = (m >> (k * 8)) >> 8;
        valid -= k + 1;
    }
}

/// Writes `s`, whose first byte to escape is at `first`, as a quoted, escaped JSON string
/// into `buf` at `at`. From `first` on, `s` is read eight bytes at a time at fixed strides
/// (the next load never waits for where the last escape was), and each word is stored
/// whole, the end advancing past its bytes and escapes. Returns the new end, or `None` when
/// `buf` runs short (the caller then writes the string the careful way, from `at`). Up to
/// eight bytes of `buf` past the returned end may have been overwritten.
#[inline(never)]
pub(crate) fn escape_into(buf: &mut [u8], at: usize, s: &[u8], first: usize) -> Option<usize> {
    *buf.get_mut(at)? = b'"';
    let (head, rest) = s.split_at_checked(first)?;
    let mut o = at + 1;
    buf.get_mut(o..o + head.len())?.copy_from_slice(head);
    o += head.len();
    // Sixteen bytes at a time: both words stored with one move when neither holds a byte
    // to escape (most do not), else each through `put_word`.
    let mut pairs = rest.chunks_exact(16);
    for pair in &mut pairs {
        let (Some(a), Some(b)) = (pair.first_chunk::<8>(), pair.last_chunk::<8>()) else {
            return None;
        };
        let (a, b) = (u64::from_le_bytes(*a), u64::from_le_bytes(*b));
        if exact_mask(a) | exact_mask(b) == 0 {
            *buf.get_mut(o..).and_then(<[u8]>::first_chunk_mut::<16>)? =
                (u128::from(a) | (u128::from(b) << 64)).to_le_bytes();
            o += 16;
        } else {
            o = put_word(buf, o, a, 8)?;
            o = put_word(buf, o, b, 8)?;
        }
    }
    let mut words = pairs.remainder().chunks_exact(8);
    for word in &mut words {
        let w = u64::from_le_bytes(*word.first_chunk::<8>()?);
        o = put_word(buf, o, w, 8)?;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        // The missing bytes read as `a`, which needs no escape.
        let mut word = [b'a'; 8];
        for (d, c) in word.iter_mut().zip(tail) {
            *d = *c;
        }
        o = put_word(buf, o, u64::from_le_bytes(word), tail.len())?;
    }
    *buf.get_mut(o)? = b'"';
    Some(o + 1)
}

/// Whether the body of a validated JSON string literal is already in the writer's canonical
/// form: every escape is one the writer itself would produce (`\"`, `\\`, the short forms, and
/// `\u00xx` in lowercase hex for the other control characters).
fn is_canonical_body(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(p) = b.get(i..).and_then(|r| r.iter().position(|&c| c == b'\\')) {
        let at = i + p;
        match b.get(at + 1) {
            Some(b'"' | b'\\' | b'n' | b'r' | b't' | b'b' | b'f') => i = at + 2,
            Some(b'u') => {
                let Some(&[b'0', b'0', hi, lo]) = b.get(at + 2..at + 6) else {
                    return false;
                };
                let c = match (hi, lo) {
                    (b'0' | b'1', b'0'..=b'9' | b'a'..=b'f') => {
                        (hi - b'0') * 16 + crate::pct::hex_value(lo).unwrap_or(0)
                    }
                    _ => return false,
                };
                if short_escape(c).is_some() {
                    return false; // a control character with a short form, written long
                }
                i = at + 6;
            }
            _ => return false, // `\/`, or any non-minimal escape
        }
    }
    true
}

/// Writes a [`JsonStr`]: a decoded body already in canonical form is copied between quotes;
/// anything else is escaped (after unescaping, when it holds escapes).
#[inline]
pub(crate) fn write_json_str<S: JsonSink + ?Sized>(sink: &mut S, value: JsonStr<'_>) -> R {
    if !value.has_escapes() {
        // A decoded body without escapes holds nothing to escape: copy it.
        return if value.is_sourced() {
            sink.put_quoted(value.source())
        } else {
            sink.put_escaped(value.source())
        };
    }
    write_escaped_json(sink, value)
}

#[inline(never)]
fn write_escaped_json<S: JsonSink + ?Sized>(sink: &mut S, value: JsonStr<'_>) -> R {
    // Speed only: compact targets ([`crate::WIDE`]) write a canonical body through the
    // character loop, which gives the same bytes (`tests`).
    if crate::WIDE && value.is_sourced() && is_canonical_body(value.source().as_bytes()) {
        return sink.put_quoted(value.source());
    }
    sink.put("\"")?;
    let mut buf = [0u8; 4];
    for c in value.chars() {
        match u8::try_from(c) {
            Ok(b) if b < 0x20 || b == b'"' || b == b'\\' => put_escape(sink, b)?,
            _ => sink.put(c.encode_utf8(&mut buf))?,
        }
    }
    sink.put("\"")
}

#[cfg(test)]
mod tests {
    use super::{next_special, special_mask};
    use std::format;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    fn slow(b: &[u8], i: usize) -> usize {
        b.iter()
            .skip(i)
            .position(|&c| c < 0x20 || c == b'"' || c == b'\\')
            .map_or(b.len(), |p| i + p)
    }

    #[test]
    fn finds_the_first_byte_to_escape() {
        // Fillers next to a match that a borrow could turn into a false one: `#` and `]`
        // (one above `"` and `\`), space and `!` (just above the control range).
        let alphabet: &[u8] = b"aaaa\"\\\x00\x1f #]!\x80\xff\x7f";
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        for _ in 0..20_000 {
            let len = next() % 40;
            let v: Vec<u8> = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            for start in 0..=len {
                assert_eq!(next_special(&v, start), slow(&v, start), "{v:?} {start}");
            }
        }
        assert_eq!(special_mask(u64::from_le_bytes(*b"abcdefgh")), 0);
    }

    #[test]
    fn the_exact_mask_flags_every_byte_to_escape_and_no_other() {
        for c in 0..=255u8 {
            for pos in 0..8 {
                for filler in [b'a', b'#', b']', b' ', 0x21, 0x80, 0xff, 0x00, b'"'] {
                    let mut w = [filler; 8];
                    w[pos] = c;
                    let expect = w.iter().enumerate().fold(0u64, |m, (k, &b)| {
                        if b < 0x20 || b == b'"' || b == b'\\' {
                            m | 0x80 << (k * 8)
                        } else {
                            m
                        }
                    });
                    assert_eq!(super::exact_mask(u64::from_le_bytes(w)), expect, "{w:?}");
                }
            }
        }
    }

    /// The escaping a writer must produce, one character at a time.
    fn reference(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn escapes_as_the_reference_does() {
        let alphabet = [
            'a', '"', '\\', '\n', '\u{1}', '\u{1f}', ' ', '#', 'é', '😀', '\u{7f}', '\t',
        ];
        let mut seed: u64 = 7;
        for _ in 0..5_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = (seed >> 59) as usize * 2;
            let s: String = (0..len)
                .map(|k| alphabet[((seed >> (k % 40 + 3)) as usize ^ k) % alphabet.len()])
                .collect();
            let mut out = String::new();
            super::write_escaped(&mut crate::json::FmtSink(&mut out), &s).unwrap();
            assert_eq!(out, reference(&s));
            // The character loop (what compact targets escape plain strings with) writes the
            // same bytes; so does the JSON string path for the canonical body just written,
            // decoded (wide targets copy that body, compact ones run the loop).
            let mut chars = String::new();
            let sink = &mut crate::json::FmtSink(&mut chars);
            super::write_escaped_json(sink, crate::json::JsonStr::new(&s)).unwrap();
            assert_eq!(chars, out);
            let decoded = crate::json::RawJson::parse(out.as_bytes()).unwrap();
            let body = decoded.as_str().unwrap();
            assert!(!body.has_escapes() || super::is_canonical_body(body.source().as_bytes()));
            chars.clear();
            super::write_escaped_json(&mut crate::json::FmtSink(&mut chars), body).unwrap();
            assert_eq!(chars, out);
            // Into a slice, through the word-at-a-time path and (near the end of the
            // slice) the careful one, with a prefix before it.
            let n = out.len() + 2;
            for room in [n, n + 1, n + 7, n + 8, n + 64, n - 1, 0] {
                let mut buf = vec![b'.'; room];
                let mut sink = crate::json::SliceSink::new(&mut buf);
                crate::json::JsonSink::put(&mut sink, "[,").unwrap();
                crate::json::JsonSink::put_escaped(&mut sink, &s).unwrap();
                match sink.finish() {
                    Ok(len) => assert_eq!(&buf[2..len], out.as_bytes()),
                    Err(e) => {
                        assert!(room < n);
                        assert_eq!(e, crate::json::EncodeError::BufferTooSmall { needed: n });
                    }
                }
            }
            // Into a growing buffer (the word writer in the room it makes, or the careful
            // path when the escapes outgrow it), after a prefix.
            #[cfg(feature = "alloc")]
            {
                let mut v = b"[,".to_vec();
                crate::json::JsonSink::put_escaped(&mut v, &s).unwrap();
                assert_eq!(&v[2..], out.as_bytes());
            }
        }
        // Escapes that outgrow the room the growing buffer makes: the careful path.
        #[cfg(feature = "alloc")]
        for s in [
            "\u{1}".repeat(40),
            "\n".repeat(40),
            format!("a{}", "\u{1f}".repeat(9)),
        ] {
            let mut v = Vec::new();
            crate::json::JsonSink::put_escaped(&mut v, &s).unwrap();
            assert_eq!(v, reference(&s).into_bytes());
        }
    }
}
