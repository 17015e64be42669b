//! Base64 (RFC 4648 §4) and base64url (RFC 4648 §5), encode and decode into caller buffers.
//!
//! Its users in this crate: sealed `requestState` tokens and list cursors use base64url
//! **without padding**
//! (docs/rules.md §13: the state is an opaque string echoed byte-exact, so it must survive JSON and
//! URLs unchanged), and the Streamable HTTP `=?base64?…?=` header sentinel uses the standard
//! alphabet (docs/rules.md §15.1), as do `blob`/`data` fields the owned builders encode (docs/rules.md §8).
//!
//! Decoding is strict: every byte must belong to the alphabet, the unused low bits of the last
//! symbol must be zero (so every byte string has exactly one encoding), and padding, where the
//! alphabet allows it, must be complete and final. Nothing here allocates or panics.

use core::fmt;

/// Which RFC 4648 alphabet, and whether `=` padding is written and accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alphabet {
    /// `A–Z a–z 0–9 + /`, padded with `=` when encoding. Decoding accepts the padded form and
    /// the unpadded form (RFC 4648 §3.2 lets a specification omit padding; docs/rules.md §15.1 does
    /// not say which one clients send).
    Standard,
    /// `A–Z a–z 0–9 - _`, never padded; `=` is rejected when decoding.
    UrlSafeNoPad,
}

/// Why a base64 string could not be decoded, or an output buffer was too small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Base64Error {
    /// A byte outside the alphabet, at this index of the input.
    InvalidByte {
        /// Index in the input.
        index: usize,
    },
    /// The length cannot be a base64 encoding (one symbol left over, or padding in the wrong
    /// place or amount).
    InvalidLength,
    /// The last symbol has non-zero unused bits: not the canonical encoding of any bytes.
    NonCanonical,
    /// The output buffer is too small; `needed` bytes are required.
    BufferTooSmall {
        /// The size the output buffer must have.
        needed: usize,
    },
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidByte { index } => write!(f, "invalid base64 byte at index {index}"),
            Self::InvalidLength => f.write_str("invalid base64 length or padding"),
            Self::NonCanonical => f.write_str("non-canonical base64 (unused bits set)"),
            Self::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: {needed} bytes needed")
            }
        }
    }
}

impl core::error::Error for Base64Error {}

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl Alphabet {
    fn symbols(self) -> &'static [u8; 64] {
        match self {
            Self::Standard => STANDARD,
            Self::UrlSafeNoPad => URL_SAFE,
        }
    }

    fn pads(self) -> bool {
        matches!(self, Self::Standard)
    }

    /// The 6-bit value of one symbol of this alphabet.
    #[inline]
    fn value(self, b: u8) -> Option<u8> {
        match b {
            b'A'..=b'Z' => Some(b - b'A'),
            b'a'..=b'z' => Some(b - b'a' + 26),
            b'0'..=b'9' => Some(b - b'0' + 52),
            b'+' if self == Self::Standard => Some(62),
            b'/' if self == Self::Standard => Some(63),
            b'-' if self == Self::UrlSafeNoPad => Some(62),
            b'_' if self == Self::UrlSafeNoPad => Some(63),
            _ => None,
        }
    }
}

/// The length of the encoding of `n` bytes (`None` on overflow).
#[must_use]
pub const fn encoded_len(alphabet: Alphabet, n: usize) -> Option<usize> {
    let full = match (n / 3).checked_mul(4) {
        Some(v) => v,
        None => return None,
    };
    let rest = match (n % 3, alphabet) {
        (0, _) => 0,
        (_, Alphabet::Standard) => 4,
        (r, Alphabet::UrlSafeNoPad) => r + 1,
    };
    full.checked_add(rest)
}

/// An upper bound on the decoded length of `n` base64 symbols (exact without padding).
#[must_use]
pub const fn decoded_len_max(n: usize) -> usize {
    n / 4 * 3 + (n % 4 * 3) / 4
}

/// Encodes `input` into `out`, returning the number of bytes written.
///
/// # Errors
/// [`Base64Error::BufferTooSmall`] if `out` is shorter than [`encoded_len`].
pub fn encode(alphabet: Alphabet, input: &[u8], out: &mut [u8]) -> Result<usize, Base64Error> {
    encode_parts(alphabet, &[input], out)
}

/// Encodes the concatenation of `parts` into `out` without first copying them together,
/// returning the number of bytes written.
///
/// # Errors
/// [`Base64Error::BufferTooSmall`] if `out` is shorter than [`encoded_len`] of the total.
pub fn encode_parts(
    alphabet: Alphabet,
    parts: &[&[u8]],
    out: &mut [u8],
) -> Result<usize, Base64Error> {
    let total = parts
        .iter()
        .try_fold(0usize, |acc, p| acc.checked_add(p.len()))
        .ok_or(Base64Error::InvalidLength)?;
    let needed = encoded_len(alphabet, total).ok_or(Base64Error::InvalidLength)?;
    let out = out
        .get_mut(..needed)
        .ok_or(Base64Error::BufferTooSmall { needed })?;
    let sym = alphabet.symbols();
    let at = |i: u32| sym.get((i & 63) as usize).copied().unwrap_or(b'=');
    let mut bytes = parts.iter().flat_map(|p| p.iter().copied());
    let mut w = out.iter_mut();
    while let Some(b0) = bytes.next() {
        let b1 = bytes.next();
        let b2 = b1.and_then(|_| bytes.next());
        let v =
            (u32::from(b0) << 16) | (u32::from(b1.unwrap_or(0)) << 8) | u32::from(b2.unwrap_or(0));
        let keep = 2 + usize::from(b1.is_some()) + usize::from(b2.is_some());
        for (i, s) in [at(v >> 18), at(v >> 12), at(v >> 6), at(v)]
            .into_iter()
            .enumerate()
        {
            let byte = if i < keep {
                s
            } else if alphabet.pads() {
                b'='
            } else {
                break;
            };
            if let Some(slot) = w.next() {
                *slot = byte;
            }
        }
    }
    Ok(needed)
}

/// A streaming decoder: feeds symbols, yields bytes. Shared by [`decode`] and by callers that
/// compare decoded bytes against a reference without a buffer (docs/rules.md §15.1 `Mcp-Name`).
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    alphabet: Alphabet,
    input: &'a [u8],
    pos: usize,
    acc: u32,
    bits: u8,
    failed: bool,
    /// Index where the symbols end (padding excluded).
    end: usize,
}

impl<'a> Decoder<'a> {
    /// Prepares to decode `input`. Length and padding are checked here; symbols are checked
    /// as they are read.
    ///
    /// # Errors
    /// [`Base64Error::InvalidLength`] for an impossible length or misplaced padding.
    pub fn new(alphabet: Alphabet, input: &'a [u8]) -> Result<Self, Base64Error> {
        let mut end = input.len();
        if alphabet.pads() && input.len().is_multiple_of(4) {
            let pad = input
                .iter()
                .rev()
                .take(2)
                .take_while(|&&b| b == b'=')
                .count();
            end -= pad;
        }
        // A single symbol in the last group carries only 6 bits: never valid.
        if end % 4 == 1 {
            return Err(Base64Error::InvalidLength);
        }
        if alphabet.pads() && !input.len().is_multiple_of(4) && input.last() == Some(&b'=') {
            return Err(Base64Error::InvalidLength);
        }
        Ok(Self {
            alphabet,
            input,
            pos: 0,
            acc: 0,
            bits: 0,
            failed: false,
            end,
        })
    }

    /// The exact number of bytes this input decodes to.
    #[must_use]
    pub fn decoded_len(&self) -> usize {
        decoded_len_max(self.end)
    }
}

impl Iterator for Decoder<'_> {
    type Item = Result<u8, Base64Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        while self.bits < 8 {
            if self.pos >= self.end {
                // End of symbols: leftover bits must be zero (canonical form).
                let mask = (1u32 << self.bits) - 1;
                if self.bits > 0 && self.acc & mask != 0 {
                    self.failed = true;
                    return Some(Err(Base64Error::NonCanonical));
                }
                return None;
            }
            let b = self.input.get(self.pos).copied().unwrap_or(0);
            let Some(v) = self.alphabet.value(b) else {
                self.failed = true;
                return Some(Err(Base64Error::InvalidByte { index: self.pos }));
            };
            self.pos += 1;
            self.acc = (self.acc << 6) | u32::from(v);
            self.bits += 6;
        }
        self.bits -= 8;
        let byte = (self.acc >> self.bits) as u8;
        self.acc &= (1u32 << self.bits) - 1;
        Some(Ok(byte))
    }
}

/// Decodes `input` into `out`, returning the number of bytes written.
///
/// # Errors
/// Any [`Base64Error`]: malformed input, or `out` shorter than the decoded length.
pub fn decode(alphabet: Alphabet, input: &[u8], out: &mut [u8]) -> Result<usize, Base64Error> {
    let dec = Decoder::new(alphabet, input)?;
    let needed = dec.decoded_len();
    let out = out
        .get_mut(..needed)
        .ok_or(Base64Error::BufferTooSmall { needed })?;
    let mut slots = out.iter_mut();
    let mut n = 0;
    // Drain the decoder fully: it reports a non-canonical tail after its last byte.
    for byte in dec {
        let byte = byte?;
        if let Some(slot) = slots.next() {
            *slot = byte;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(a: Alphabet, s: &[u8]) -> std::string::String {
        let mut buf = [0u8; 64];
        let n = encode(a, s, &mut buf).unwrap();
        std::str::from_utf8(&buf[..n]).unwrap().into()
    }

    fn dec(a: Alphabet, s: &str) -> Result<std::vec::Vec<u8>, Base64Error> {
        let mut buf = [0u8; 64];
        let n = decode(a, s.as_bytes(), &mut buf)?;
        Ok(buf[..n].to_vec())
    }

    /// RFC 4648 §10 test vectors.
    const RFC4648: &[(&str, &str, &str)] = &[
        ("", "", ""),
        ("f", "Zg==", "Zg"),
        ("fo", "Zm8=", "Zm8"),
        ("foo", "Zm9v", "Zm9v"),
        ("foob", "Zm9vYg==", "Zm9vYg"),
        ("fooba", "Zm9vYmE=", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy", "Zm9vYmFy"),
    ];

    #[test]
    fn rfc4648_vectors() {
        for (plain, padded, bare) in RFC4648 {
            assert_eq!(enc(Alphabet::Standard, plain.as_bytes()), *padded);
            assert_eq!(enc(Alphabet::UrlSafeNoPad, plain.as_bytes()), *bare);
            assert_eq!(dec(Alphabet::Standard, padded).unwrap(), plain.as_bytes());
            assert_eq!(dec(Alphabet::Standard, bare).unwrap(), plain.as_bytes());
            assert_eq!(dec(Alphabet::UrlSafeNoPad, bare).unwrap(), plain.as_bytes());
        }
    }

    #[test]
    fn digest_example_header_value() {
        // docs/rules.md §15.1: `résumé_review` → `csOpc3Vtw6lfcmV2aWV3`.
        assert_eq!(
            enc(Alphabet::Standard, "résumé_review".as_bytes()),
            "csOpc3Vtw6lfcmV2aWV3"
        );
    }

    #[test]
    fn alphabets_differ() {
        assert_eq!(enc(Alphabet::Standard, &[0xfb, 0xff]), "+/8=");
        assert_eq!(enc(Alphabet::UrlSafeNoPad, &[0xfb, 0xff]), "-_8");
        assert!(dec(Alphabet::Standard, "-_8").is_err());
        assert!(dec(Alphabet::UrlSafeNoPad, "+/8").is_err());
    }

    #[test]
    fn rejects() {
        use Base64Error::*;
        let cases: &[(Alphabet, &str, Base64Error)] = &[
            (Alphabet::Standard, "Z", InvalidLength),
            (Alphabet::Standard, "Zg=", InvalidLength),
            (Alphabet::Standard, "Z===", InvalidByte { index: 1 }),
            (Alphabet::Standard, "Zg==Zg==", InvalidByte { index: 2 }),
            (Alphabet::Standard, "Zh==", NonCanonical),
            (Alphabet::Standard, "Zm9=", NonCanonical),
            (Alphabet::Standard, "Zm 9", InvalidByte { index: 2 }),
            (Alphabet::UrlSafeNoPad, "Zg==", InvalidByte { index: 2 }),
            (Alphabet::UrlSafeNoPad, "Zh", NonCanonical),
            (Alphabet::UrlSafeNoPad, "ZmZmZ", InvalidLength),
            (Alphabet::UrlSafeNoPad, "Zm\u{e9}", InvalidByte { index: 2 }),
        ];
        for (a, s, e) in cases {
            assert_eq!(dec(*a, s), Err(*e), "{s:?}");
        }
        let mut small = [0u8; 2];
        assert_eq!(
            decode(Alphabet::Standard, b"Zm9v", &mut small),
            Err(BufferTooSmall { needed: 3 })
        );
        assert_eq!(
            encode(Alphabet::Standard, b"foo", &mut small),
            Err(BufferTooSmall { needed: 4 })
        );
    }

    proptest::proptest! {
        #[test]
        fn round_trip(data in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            for a in [Alphabet::Standard, Alphabet::UrlSafeNoPad] {
                let s = enc(a, &data);
                proptest::prop_assert_eq!(s.len(), encoded_len(a, data.len()).unwrap());
                proptest::prop_assert_eq!(dec(a, &s).unwrap(), data.clone());
            }
        }

        #[test]
        fn decode_never_panics(s in "[A-Za-z0-9+/=_-]{0,20}") {
            for a in [Alphabet::Standard, Alphabet::UrlSafeNoPad] {
                if let Ok(bytes) = dec(a, &s) {
                    // Canonical: re-encoding gives the input back (modulo optional padding).
                    let again = enc(a, &bytes);
                    proptest::prop_assert_eq!(again.trim_end_matches('='), s.trim_end_matches('='));
                }
            }
        }
    }
}
