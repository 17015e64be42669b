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
        let unreserved =
            b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_' || b == b'~';
        let mut c = 0u8;
        if unreserved || b == b'%' || b >= 0x80 {
            c |= ALL_U;
        }
        let reserved = matches!(
            b,
            b':' | b'/'
                | b'?'
                | b'#'
                | b'['
                | b']'
                | b'@'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
        );
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

static TABLE: [u8; 256] = build();

/// The class bits of byte `b`.
#[inline(always)]
pub(crate) fn bits(b: u8) -> u8 {
    TABLE.get(usize::from(b)).copied().unwrap_or(0)
}

/// Whether `b` belongs to class `class`.
#[inline(always)]
pub(crate) fn in_class(b: u8, class: u8) -> bool {
    bits(b) & class != 0
}

#[inline(always)]
fn hex2(s: &[u8], i: usize) -> Option<u8> {
    let h = pct::hex_value(*s.get(i)?)?;
    let l = pct::hex_value(*s.get(i + 1)?)?;
    Some((h << 4) | l)
}

/// Runs over the bytes of `class` from `pos`; returns the end and whether a `%` was seen.
/// `None` when a `%` does not start a triplet (the URI is malformed there).
#[inline(always)]
pub(crate) fn run(s: &[u8], mut pos: usize, class: u8) -> Option<(usize, bool)> {
    let mut pct = false;
    while let Some(&c) = s.get(pos) {
        if bits(c) & class == 0 {
            break;
        }
        if c == b'%' {
            hex2(s, pos + 1)?;
            pct = true;
            pos += 3;
        } else {
            pos += 1;
        }
    }
    Some((pos, pct))
}

/// One canonical unit: the decoded byte, and whether its canonical form is the raw byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Unit {
    pub(crate) byte: u8,
    pub(crate) raw: bool,
}

impl Unit {
    #[inline(always)]
    fn encoded(byte: u8) -> Self {
        Self {
            byte,
            raw: pct::is_unreserved(byte),
        }
    }
    #[inline(always)]
    fn plain(byte: u8) -> Self {
        Self {
            byte,
            raw: byte < 0x80,
        }
    }
    /// A value for hashing: the byte, plus 256 when its canonical form is encoded.
    #[inline(always)]
    pub(crate) fn code(self) -> u32 {
        u32::from(self.byte) | if self.raw { 0 } else { 0x100 }
    }
    /// Whether this unit, written in a URI, may start with a byte of `class`. Unreserved
    /// characters, `%` and non-ASCII bytes are in every class.
    #[inline(always)]
    pub(crate) fn in_class(self, class: u8) -> bool {
        !self.raw || pct::is_unreserved(self.byte) || in_class(self.byte, class)
    }
}

/// The unit starting at `i` and its width; a malformed `%` is a raw `%` (it then matches
/// nothing a template can hold).
#[inline(always)]
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
#[inline(always)]
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
#[inline]
pub(crate) fn match_forward(lit: &[u8], uri: &[u8], pos: usize) -> Option<usize> {
    let rest = uri.get(pos..)?;
    if rest.starts_with(lit) {
        return Some(pos + lit.len());
    }
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
    if !near(lit) && !near(rest) {
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

const SEED: u32 = 0x811C_9DC5;

#[inline(always)]
fn mix(h: u32, x: u32) -> u32 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9)
}

/// A hash of the canonical units of `s`, equal for texts that compare equal.
#[inline]
pub(crate) fn hash(s: &[u8], plain: bool) -> u32 {
    let mut h = SEED;
    if plain {
        for &c in s {
            h = mix(h, u32::from(c));
        }
    } else {
        let mut i = 0;
        while let Some((u, w)) = unit_at(s, i) {
            h = mix(h, u.code());
            i += w;
        }
    }
    h
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
        assert_eq!(hash(b"~x", true), hash(b"%7ex", false));
        assert_eq!(in_class_prefix(b".json/x", C_U), 5);
        assert_eq!(decoded_chars(b"caf%C3%A9"), 4);
        assert_eq!(run(b"ab%41/", 0, C_U), Some((5, true)));
        assert_eq!(run(b"ab%4", 0, C_U), None);
    }
}
