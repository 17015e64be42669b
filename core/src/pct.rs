//! Character classes of RFC 3986 / RFC 6570 and percent-encoding primitives.
//!
//! Shared by template parsing, expansion, matching and concrete-URI validation, so that every
//! part of the crate agrees on what "unreserved", "reserved" and "pct-encoded" mean.
//! Nothing here allocates.

/// `ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
const UNRESERVED: u8 = 1;
/// `gen-delims / sub-delims` (RFC 3986 §2.2).
const RESERVED: u8 = 2;
/// ASCII characters allowed verbatim in a template literal (RFC 6570 §2.1), `%` excluded.
const LITERAL: u8 = 4;
/// `ALPHA / DIGIT / "_"`: the ASCII `varchar`s of RFC 6570 §2.3 (pct-encoded handled apart).
const VARCHAR: u8 = 8;

/// `ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3), usable in `const` table builders.
pub(crate) const fn unreserved_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// `gen-delims / sub-delims` (RFC 3986 §2.2), usable in `const` table builders.
pub(crate) const fn reserved_byte(b: u8) -> bool {
    matches!(
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
    )
}

#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: checked at compile time"
)]
const fn build_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0usize;
    while i < 256 {
        let b = i as u8;
        let mut c = 0u8;
        if unreserved_byte(b) {
            c |= UNRESERVED;
        }
        if reserved_byte(b) {
            c |= RESERVED;
        }
        // RFC 6570 §2.1: literals = %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D /
        // %x5F / %x61-7A / %x7E / ucschar / iprivate / pct-encoded
        // plus "'" (%x27), a sub-delim the RFC's ABNF leaves out by mistake (erratum 6937);
        // the official test suite expands `'{var}'` to `'value'`.
        if b == 0x21
            || b == 0x23
            || b == 0x24
            || (b >= 0x26 && b <= 0x3B)
            || b == 0x3D
            || (b >= 0x3F && b <= 0x5B)
            || b == 0x5D
            || b == 0x5F
            || (b >= 0x61 && b <= 0x7A)
            || b == 0x7E
        {
            c |= LITERAL;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            c |= VARCHAR;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static CLASS: [u8; 256] = build_table();

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn class(b: u8) -> u8 {
    // A 256-entry table indexed by a `u8` cannot go out of bounds; `get` keeps the lint quiet
    // and compiles to the same load.
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// Whether `b` is an RFC 3986 unreserved character.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn is_unreserved(b: u8) -> bool {
    class(b) & UNRESERVED != 0
}

/// Whether `b` is an RFC 3986 reserved character (gen-delims or sub-delims).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn is_reserved(b: u8) -> bool {
    class(b) & RESERVED != 0
}

/// Whether the ASCII byte `b` may appear verbatim in a template literal (RFC 6570 §2.1).
/// `%` is not included: it is only allowed as the start of a pct-encoded triplet.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn is_literal_ascii(b: u8) -> bool {
    class(b) & LITERAL != 0
}

/// Whether `b` is an ASCII `varchar` (`ALPHA / DIGIT / "_"`) of RFC 6570 §2.3.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn is_varchar(b: u8) -> bool {
    class(b) & VARCHAR != 0
}

/// The value of one hexadecimal digit, either case.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Whether `bytes` starts with a pct-encoded triplet (`%` HEXDIG HEXDIG).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn starts_with_triplet(bytes: &[u8]) -> bool {
    matches!(bytes, [b'%', h, l, ..] if hex_value(*h).is_some() && hex_value(*l).is_some())
}

/// Upper-case hexadecimal digits, as RFC 3986 §2.1 recommends for producers.
pub const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// The three bytes of the pct-encoded triplet for `b`, upper-case.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn triplet(b: u8) -> [u8; 3] {
    let hi = HEX_UPPER.get(usize::from(b >> 4)).copied().unwrap_or(b'0');
    let lo = HEX_UPPER.get(usize::from(b & 0xF)).copied().unwrap_or(b'0');
    [b'%', hi, lo]
}

#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: checked at compile time"
)]
const fn build_triplets() -> [u8; 768] {
    let mut t = [0u8; 768];
    let mut i = 0;
    while i < 256 {
        t[3 * i] = b'%';
        t[3 * i + 1] = HEX_UPPER[i >> 4];
        t[3 * i + 2] = HEX_UPPER[i & 15];
        i += 1;
    }
    t
}

const TRIPLET_BYTES: [u8; 768] = build_triplets();

/// `%00%01…%FF` as one string, to slice triplets from without formatting.
static TRIPLETS: &str = match core::str::from_utf8(&TRIPLET_BYTES) {
    Ok(s) => s,
    Err(_) => "",
};

/// The pct-encoded triplet for `b` as a `&'static str` (`"%2F"` for `/`).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[must_use]
pub fn triplet_str(b: u8) -> &'static str {
    let i = 3 * usize::from(b);
    TRIPLETS.get(i..i + 3).unwrap_or("%00")
}

/// Whether `s` contains any pct-encoded triplet, i.e. whether decoding could change it.
#[inline]
#[must_use]
pub fn needs_decoding(s: &str) -> bool {
    crate::has_byte(s.as_bytes(), b'%')
}

/// Error from [`decode_into`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A `%` not followed by two hexadecimal digits, at this byte offset of the input.
    BadTriplet {
        /// Byte offset of the `%`.
        at: usize,
    },
    /// The decoded bytes are not UTF-8.
    NotUtf8,
    /// The output buffer is too small; this many bytes are needed.
    BufferTooSmall {
        /// Bytes the decoded text needs.
        needed: usize,
    },
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::BadTriplet { at } => write!(f, "malformed percent-encoding at byte {at}"),
            Self::NotUtf8 => f.write_str("percent-decoded value is not UTF-8"),
            Self::BufferTooSmall { needed } => {
                write!(f, "buffer too small: {needed} bytes needed")
            }
        }
    }
}

impl core::error::Error for DecodeError {}

/// Percent-decodes `s` into `out` and returns the decoded text, which borrows `out`.
///
/// The decoded form is never longer than the input, so a buffer of `s.len()` bytes always
/// suffices.
///
/// # Errors
/// [`DecodeError::BadTriplet`] for a malformed triplet, [`DecodeError::NotUtf8`] when the
/// decoded bytes are not UTF-8, [`DecodeError::BufferTooSmall`] when `out` is too short.
pub fn decode_into<'o>(s: &str, out: &'o mut [u8]) -> Result<&'o str, DecodeError> {
    let needed = decoded_len(s)?;
    let dst = out
        .get_mut(..needed)
        .ok_or(DecodeError::BufferTooSmall { needed })?;
    let src = s.as_bytes();
    let mut i = 0;
    let mut o = 0;
    while let Some(&b) = src.get(i) {
        let (byte, step) = if b == b'%' {
            match (
                src.get(i + 1).copied().and_then(hex_value),
                src.get(i + 2).copied().and_then(hex_value),
            ) {
                (Some(h), Some(l)) => ((h << 4) | l, 3),
                _ => return Err(DecodeError::BadTriplet { at: i }),
            }
        } else {
            (b, 1)
        };
        if let Some(slot) = dst.get_mut(o) {
            *slot = byte;
        }
        o += 1;
        i += step;
    }
    core::str::from_utf8(dst).map_err(|_| DecodeError::NotUtf8)
}

/// The length of the percent-decoded form of `s`, checking every triplet.
///
/// # Errors
/// [`DecodeError::BadTriplet`] for a malformed triplet.
pub fn decoded_len(s: &str) -> Result<usize, DecodeError> {
    let src = s.as_bytes();
    let mut i = 0;
    let mut n = 0;
    while let Some(&b) = src.get(i) {
        if b == b'%' {
            if !starts_with_triplet(src.get(i..).unwrap_or_default()) {
                return Err(DecodeError::BadTriplet { at: i });
            }
            i += 3;
        } else {
            i += 1;
        }
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(is_unreserved(b'~') && !is_unreserved(b'/'));
        assert!(is_reserved(b'/') && is_reserved(b'=') && !is_reserved(b'%'));
        assert!(is_literal_ascii(b'/') && !is_literal_ascii(b'{') && !is_literal_ascii(b'%'));
        assert!(!is_literal_ascii(b' ') && is_literal_ascii(b'\'') && !is_literal_ascii(b'|'));
        assert!(is_varchar(b'_') && !is_varchar(b'.') && !is_varchar(b'~'));
    }

    #[test]
    fn decode() {
        let mut buf = [0u8; 16];
        assert_eq!(decode_into("caf%C3%A9", &mut buf), Ok("café"));
        assert_eq!(
            decode_into("a%2", &mut buf),
            Err(DecodeError::BadTriplet { at: 1 })
        );
        assert_eq!(decode_into("%FF", &mut buf), Err(DecodeError::NotUtf8));
        let mut small = [0u8; 2];
        assert_eq!(
            decode_into("abc", &mut small),
            Err(DecodeError::BufferTooSmall { needed: 3 })
        );
        assert_eq!(triplet(b' '), *b"%20");
        assert_eq!(triplet_str(0x2F), "%2F");
        assert_eq!(triplet_str(0xFF), "%FF");
    }
}
