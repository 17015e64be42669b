//! Percent-encoding normalisation and character classes for matching (docs/matching.md §3).
//!
//! A URI and a template literal are compared *unit by unit*, where a unit is one byte written
//! raw or one pct-encoded triplet. Two units are equal when they decode to the same byte and
//! have the same canonical form (RFC 3986 §6.2.2.1, §6.2.2.2):
//!
//! * hex digits compare case-insensitively (`%c3` = `%C3`);
//! * a triplet of an unreserved character equals the character (`%7E` = `~`, `%41` = `A`);
//! * a raw non-ASCII byte equals its triplet (an IRI character, RFC 3987 §3.1), so the
//!   template literal `café` matches `caf%C3%A9`;
//! * a reserved character and its triplet differ (`/` ≠ `%2F`): they mean different things.
//!
//! Nothing else is normalised (no case folding of scheme or host, no dot segments, no
//! Unicode normalisation).

use crate::pct;

mod hash;
pub(crate) use hash::{hash, scan_hash};

/// Class bit: unreserved, `%` (triplets) and non-ASCII. What `{var}` may contain.
pub(crate) const C_U: u8 = 1;
/// Class bit: `C_U` plus reserved characters except `?` and `#`: `{+var}` in the path.
pub(crate) const C_RES_PATH: u8 = 2;
/// Class bit: `C_U` plus reserved characters except `#`: `{+var}` in the fragment.
pub(crate) const C_RES_FRAG: u8 = 4;
/// Class bit: `C_U` plus `,` and `=`: an exploded `{var*}`.
pub(crate) const C_EX_COMMA: u8 = 8;
/// Class bit: `C_U` plus `/` and `=`: an exploded `{/var*}`.
pub(crate) const C_EX_SLASH: u8 = 16;
/// Class bit: `C_U` plus `=`: an exploded `{.var*}` (`.` is unreserved).
pub(crate) const C_EX_DOT: u8 = 32;
/// Class bit: `C_U` plus `;` and `=`: an exploded `{;var*}`.
pub(crate) const C_EX_SEMI: u8 = 64;
/// Not a class: the bytes that end a path segment (`/ ? #`).
pub(crate) const STOP: u8 = 128;

const ALL_U: u8 = C_U | C_RES_PATH | C_RES_FRAG | C_EX_COMMA | C_EX_SLASH | C_EX_DOT | C_EX_SEMI;

#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: checked at compile time"
)]
const fn build() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0usize;
    while i < 256 {
        let b = i as u8;
        let unreserved = crate::pct::unreserved_byte(b);
        let mut c = 0u8;
        if unreserved || b == b'%' || b >= 0x80 {
            c |= ALL_U;
        }
        let reserved = crate::pct::reserved_byte(b);
        if reserved && b != b'?' && b != b'#' {
            c |= C_RES_PATH;
        }
        if reserved && b != b'#' {
            c |= C_RES_FRAG;
        }
        if b == b',' || b == b'=' {
            c |= C_EX_COMMA;
        }
        if b == b'/' || b == b'=' {
            c |= C_EX_SLASH;
        }
        if b == b'=' {
            c |= C_EX_DOT;
        }
        if b == b';' || b == b'=' {
            c |= C_EX_SEMI;
        }
        if b == b'/' || b == b'?' || b == b'#' {
            c |= STOP;
        }
        t[i] = c;
        i += 1;
    }
    t
}

const TABLE: [u8; 256] = build();

/// The class bits of byte `b`.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn bits(b: u8) -> u8 {
    TABLE.get(usize::from(b)).copied().unwrap_or(0)
}

/// Whether `b` belongs to class `class`.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(never)
)]
pub(crate) fn in_class(b: u8, class: u8) -> bool {
    bits(b) & class != 0
}

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn hex2(s: &[u8], i: usize) -> Option<u8> {
    let h = pct::hex_value(*s.get(i)?)?;
    let l = pct::hex_value(*s.get(i + 1)?)?;
    Some((h << 4) | l)
}

/// The class table without `%`, for the run loop: triplets are handled out of line.
const RUN: [u8; 256] = build_run();

#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: checked at compile time"
)]
const fn build_run() -> [u8; 256] {
    let mut t = build();
    t[b'%' as usize] = 0;
    t
}

/// Runs over the bytes of `class` from `pos`; returns the end. `None` when a `%` does not
/// start a triplet (the URI is malformed there).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn run(s: &[u8], mut pos: usize, class: u8) -> Option<usize> {
    const T: &[u8; 256] = &RUN;
    let table = T;
    loop {
        let rest = s.get(pos..)?;
        let k = rest
            .iter()
            .position(|&c| table.get(usize::from(c)).copied().unwrap_or(0) & class == 0)
            .unwrap_or(rest.len());
        pos += k;
        if s.get(pos) != Some(&b'%') {
            return Some(pos);
        }
        hex2(s, pos + 1)?;
        pos += 3;
    }
}

/// Whether `a == b` for slices of equal length, with overlapping word loads for short ones
/// (a libc call costs more than the comparison).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn eq_same_len(a: &[u8], b: &[u8]) -> bool {
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn w8(s: &[u8], at: usize) -> u64 {
        s.get(at..at + 8)
            .and_then(|w| w.try_into().ok())
            .map_or(0, u64::from_le_bytes)
    }
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn w4(s: &[u8], at: usize) -> u32 {
        s.get(at..at + 4)
            .and_then(|w| w.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    }
    if !crate::WIDE {
        return a == b; // compact targets ([`crate::WIDE`]): the same answer (`norm_tests`)
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last(),
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

/// Whether `rest` starts with `lit`.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn starts_with(rest: &[u8], lit: &[u8]) -> bool {
    rest.get(..lit.len())
        .is_some_and(|head| eq_same_len(head, lit))
}

/// One canonical unit: the decoded byte, and whether its canonical form is the raw byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Unit {
    pub(crate) byte: u8,
    pub(crate) raw: bool,
}

impl Unit {
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn encoded(byte: u8) -> Self {
        Self {
            byte,
            raw: pct::is_unreserved(byte),
        }
    }
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn plain(byte: u8) -> Self {
        Self {
            byte,
            raw: byte < 0x80,
        }
    }
    /// Whether this unit, written in a URI, may start with a byte of `class`. Unreserved
    /// characters, `%` and non-ASCII bytes are in every class.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn in_class(self, class: u8) -> bool {
        !self.raw || pct::is_unreserved(self.byte) || in_class(self.byte, class)
    }
}

/// The unit starting at `i` and its width; a malformed `%` is a raw `%` (it then matches
/// nothing a template can hold).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn unit_at(s: &[u8], i: usize) -> Option<(Unit, usize)> {
    let c = *s.get(i)?;
    if c == b'%'
        && let Some(b) = hex2(s, i + 1)
    {
        return Some((Unit::encoded(b), 3));
    }
    Some((Unit::plain(c), 1))
}

/// The unit ending at `i` (exclusive) and its width. Exact for text whose `%`s all start
/// triplets, which both sides are when this is called.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn unit_before(s: &[u8], i: usize) -> Option<(Unit, usize)> {
    if i >= 3
        && s.get(i - 3) == Some(&b'%')
        && let Some(b) = hex2(s, i - 2)
    {
        return Some((Unit::encoded(b), 3));
    }
    let c = *s.get(i.checked_sub(1)?)?;
    Some((Unit::plain(c), 1))
}

/// Matches the literal `lit` at `uri[pos..]`; returns the position after it.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn match_forward(lit: &[u8], uri: &[u8], pos: usize) -> Option<usize> {
    if uri.get(pos..).is_some_and(|rest| starts_with(rest, lit)) {
        return Some(pos + lit.len());
    }
    match_forward_slow(lit, uri, pos)
}

/// [`match_forward`] when the bytes differ: equal only through normalisation.
#[cold]
#[inline(never)]
fn match_forward_slow(lit: &[u8], uri: &[u8], pos: usize) -> Option<usize> {
    match_units(lit, uri, pos, crate::WIDE)
}

/// [`match_forward_slow`]; `quick` first rejects bytes that differ away from any `%` or
/// non-ASCII byte (speed only: compact targets, [`crate::WIDE`], skip it; `norm_tests`).
pub(crate) fn match_units(lit: &[u8], uri: &[u8], pos: usize, quick: bool) -> Option<usize> {
    let rest = uri.get(pos..)?;
    // Identical bytes are identical units; only a `%` or a non-ASCII byte on either side
    // can make different bytes equal.
    let cmp = lit.len().min(rest.len());
    let mut d = 0;
    while d < cmp && lit.get(d) == rest.get(d) {
        d += 1;
    }
    let near = |s: &[u8]| {
        let lo = d.saturating_sub(2);
        s.get(lo..(d + 1).min(s.len()))
            .is_some_and(|w| w.iter().any(|&c| c == b'%' || c >= 0x80))
    };
    if quick && !near(lit) && !near(rest) {
        return None;
    }
    let (mut li, mut ui) = (0, pos);
    while li < lit.len() {
        let (lu, lw) = unit_at(lit, li)?;
        let (uu, uw) = unit_at(uri, ui)?;
        if lu != uu {
            return None;
        }
        li += lw;
        ui += uw;
    }
    Some(ui)
}

/// Matches the literal `lit` so that it ends at `uri[end]`, starting no earlier than `floor`;
/// returns where it starts in the URI.
pub(crate) fn match_backward(lit: &[u8], uri: &[u8], floor: usize, end: usize) -> Option<usize> {
    let (mut li, mut ui) = (lit.len(), end);
    while li > 0 {
        let (lu, lw) = unit_before(lit, li)?;
        let (uu, uw) = unit_before(uri, ui)?;
        if lu != uu || ui - uw < floor {
            return None;
        }
        li -= lw;
        ui -= uw;
    }
    Some(ui)
}

/// The byte length of the longest prefix of `lit` whose units are all in `class`.
#[inline]
pub(crate) fn in_class_prefix(lit: &[u8], class: u8) -> usize {
    let mut i = 0;
    while let Some((u, w)) = unit_at(lit, i) {
        if !u.in_class(class) {
            break;
        }
        i += w;
    }
    i
}

/// Whether two texts are equal unit by unit.
pub(crate) fn units_eq(a: &[u8], b: &[u8]) -> bool {
    if !crate::WIDE {
        return units_eq_by_match(a, b);
    }
    if a == b {
        return true;
    }
    let (mut i, mut j) = (0, 0);
    loop {
        match (unit_at(a, i), unit_at(b, j)) {
            (None, None) => return true,
            (Some((x, w)), Some((y, v))) if x == y => {
                i += w;
                j += v;
            }
            _ => return false,
        }
    }
}

/// [`units_eq`] as compact targets run it ([`crate::WIDE`]): `a` matched as a literal at the
/// start of `b`, ending at `b`'s end, so that no second unit walk is compiled. The same
/// answer (`norm_tests`).
pub(crate) fn units_eq_by_match(a: &[u8], b: &[u8]) -> bool {
    match_units(a, b, 0, false) == Some(b.len())
}

/// The number of units in `s` (canonical length, used for specificity).
pub(crate) fn unit_len(s: &[u8]) -> usize {
    let (mut i, mut n) = (0, 0);
    while let Some((_, w)) = unit_at(s, i) {
        i += w;
        n += 1;
    }
    n
}

/// The number of characters `s` decodes to (for prefix modifiers): decoded bytes that are not
/// UTF-8 continuation bytes.
pub(crate) fn decoded_chars(s: &[u8]) -> usize {
    let (mut i, mut n) = (0, 0);
    while let Some((u, w)) = unit_at(s, i) {
        if u.byte & 0xC0 != 0x80 {
            n += 1;
        }
        i += w;
    }
    n
}

/// Whether `s` has neither `%` nor non-ASCII bytes: its bytes are its canonical units.
#[inline]
pub(crate) fn is_plain(s: &[u8]) -> bool {
    !s.iter().any(|&c| c == b'%' || c >= 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(match_forward(b"caf\xC3\xA9", b"caf%C3%A9/x", 0), Some(9));
        assert_eq!(match_forward("café".as_bytes(), b"caf%c3%a9", 0), Some(9));
        assert_eq!(match_forward(b"~a", b"%7E%61", 0), Some(6));
        assert_eq!(match_forward(b"%7e", b"~", 0), Some(1));
        assert_eq!(match_forward(b"/", b"%2F", 0), None);
        assert_eq!(match_forward(b"%2F", b"%2f", 0), Some(3));
        assert_eq!(match_forward(b"ab", b"ac", 0), None);
        assert_eq!(match_backward(b".json", b"x%2Ejson", 0, 8), Some(1));
        assert_eq!(match_backward(b"41", b"%41", 0, 3), None);
        assert_eq!(match_backward(b"A", b"x%41", 1, 4), Some(1));
        assert_eq!(match_backward(b"A", b"%41", 1, 3), None);
        assert!(units_eq(b"%7Ex", b"~x") && !units_eq(b"/", b"%2F"));
        assert_eq!(hash(b"~x"), hash(b"%7ex"));
        // A raw reserved character and its encoding may share a hash; the key comparison
        // (`units_eq`, asserted above) tells them apart.
        assert_eq!(hash(b"a:b"), hash(b"a%3Ab"));
        assert_eq!(scan_hash(b"/caf%C3%A9/x", 1), (10, hash("café".as_bytes())));
        assert_eq!(scan_hash(b"abcdefghij?", 0), (10, hash(b"abcdefghij")));
        for t in [
            "",
            "a",
            "abcdefg",
            "abcdefgh",
            "abcdefghijklmnopq",
            "ab%41cdefghij%C3%A9",
        ] {
            let mut u = t.as_bytes().to_vec();
            u.push(b'/');
            assert_eq!(scan_hash(&u, 0), (t.len(), hash(t.as_bytes())), "{t}");
        }
        // Segments of every length around the word size, with triplets, malformed `%`s and
        // non-ASCII bytes anywhere: the scan stops at the first raw `/`, `?` or `#` and its
        // hash is the hash of the segment.
        let alphabet: &[&[u8]] = &[
            b"a",
            b"Z",
            b"~",
            b"%7E",
            b"%7e",
            b"%2F",
            b"%",
            b"%4",
            b"\xC3\xA9",
            b":",
            b"@",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..40 {
            for _ in 0..20 {
                let mut seg = b"".to_vec();
                for _ in 0..len {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seg.extend_from_slice(alphabet[(seed % alphabet.len() as u64) as usize]);
                }
                for stop in [&b"/x"[..], b"?q", b"#f", b""] {
                    let mut u = b"pre/".to_vec();
                    u.extend_from_slice(&seg);
                    u.extend_from_slice(stop);
                    let (end, h) = scan_hash(&u, 4);
                    let body = &u[4..end];
                    assert_eq!(h, hash(body), "{u:?}");
                    assert_eq!(body, &seg[..]);
                }
            }
        }
        assert_eq!(in_class_prefix(b".json/x", C_U), 5);
        assert_eq!(decoded_chars(b"caf%C3%A9"), 4);
        assert_eq!(run(b"ab%41/", 0, C_U), Some(5));
        assert_eq!(run(b"ab%4", 0, C_U), None);
    }
}
