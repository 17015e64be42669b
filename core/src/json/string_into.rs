//! A string literal validated and unescaped in one pass, for decoders given a text buffer
//! ([`Cursor::with_text`](super::Cursor::with_text)): the body is scanned as
//! [`scan_string`] scans it up to its first backslash (nothing copied: a string without
//! escapes costs what it costs without a buffer), then from there each 8-byte word is
//! copied out while its special bytes are found ([`unescape_rest`]), so a text with escapes
//! is read once instead of validated, then unescaped again.

use super::error::{JsonError, JsonErrorKind as K};
use super::scan::{Specials, scan_escape, scan_string};
use super::string::{Chars, one_letter};

/// The rest of the literal whose body starts at `start` of `text` and whose first
/// backslash is at `p` ([`scan_until_escape`](super::scan::scan_until_escape) validated
/// the bytes before it), validated with the checks, errors and positions of
/// [`scan_string`] and unescaped into `out`: returns the index after the closing quote and,
/// when the unescaped bytes fit in `out` (with 8 bytes to spare, where whole words are
/// stored), their length (`None`, and `out` unspecified, when they do not).
pub(crate) fn unescape_rest(
    text: &str,
    start: usize,
    p: usize,
    out: &mut [u8],
) -> Result<(usize, Option<usize>), JsonError> {
    let b = text.as_bytes();
    // The clean bytes before the backslash go out first.
    let copied = match (out.get_mut(..p - start), b.get(start..p)) {
        (Some(dst), Some(src)) => {
            dst.copy_from_slice(src);
            copy_rest(text, p, p - start, out)?
        }
        _ => None,
    };
    match copied {
        Some((end, len)) => Ok((end, Some(len))),
        // Out of room: the plain scan of the rest gives the answer (nothing more copied).
        None => scan_string(b, p).map(|(end, _)| (end, None)),
    }
}

/// Where a copy step ended (an index into the text and the output length so far), `None`
/// when the output has no room left, or the error that stopped it.
type Step = Result<Option<(usize, usize)>, JsonError>;

/// [`one_letter`] as a table (0: not a one-letter escape; no escape stands for 0).
#[allow(
    clippy::indexing_slicing,
    reason = "const evaluation: checked at compile time"
)]
const ONE_LETTER: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut letter = 0;
    while letter < 256 {
        if let Some(byte) = one_letter(letter as u8) {
            table[letter] = byte;
        }
        letter += 1;
    }
    table
};

/// From the backslash at `i`, with `len` bytes already out: word by word, each word stored
/// whole at `out[len..]` (only the bytes before its first special byte count) and the
/// special byte handled there; a one-letter escape's character goes over the backslash the
/// word put out. Returns the index after the closing quote and the output length, or
/// `None` when `out` has no room left.
#[inline(never)]
fn copy_rest(text: &str, i: usize, len: usize, out: &mut [u8]) -> Step {
    let b = text.as_bytes();
    // The input and the output left, advanced together (the indices are their lengths
    // taken from the whole, so the loop keeps two slices and no index).
    let (Some(mut src), Some(mut dst)) = (b.get(i..), out.get_mut(len..)) else {
        return Ok(None);
    };
    let room = dst.len() + len;
    let specials = Specials::opaque();
    loop {
        let Some(chunk) = src.first_chunk::<8>() else {
            return tail(text, b.len() - src.len(), room - dst.len(), out);
        };
        let whole = core::mem::take(&mut dst);
        let Some(word) = whole.first_chunk_mut::<8>() else {
            return Ok(None);
        };
        *word = *chunk;
        let m = specials.mask(u64::from_le_bytes(*chunk));
        if m == 0 {
            (src, dst) = (
                src.get(8..).unwrap_or_default(),
                whole.get_mut(8..).unwrap_or_default(),
            );
            continue;
        }
        // The index of `src` in the text, for the rarer answers only.
        let at = |src: &[u8]| b.len() - src.len();
        let (read, written) = {
            let k = (m.trailing_zeros() / 8) as usize;
            match chunk.get(k) {
                Some(b'\\') => {
                    let letter = src.get(k + 1).copied().unwrap_or(0);
                    match (ONE_LETTER.get(usize::from(letter)), word.get_mut(k)) {
                        (Some(&byte), Some(d)) if byte != 0 => {
                            *d = byte;
                            (k + 2, k + 1)
                        }
                        _ => match escape_u(text, at(src) + k, whole, k)? {
                            Some((next, n)) => (next - at(src), k + n),
                            None => return Ok(None),
                        },
                    }
                }
                Some(b'"') => return Ok(Some((at(src) + k + 1, room - whole.len() + k))),
                Some(&c) if c < 0x20 => {
                    return Err(JsonError::new(K::ControlCharacter, at(src) + k));
                }
                // Flagged by a borrow, not special: it went out with its word.
                _ => (k + 1, k + 1),
            }
        };
        // Both in bounds (the escape's bytes were read and its character written there);
        // were they not, the answer would be the uncopied one, never a wrong text.
        match (src.get(read..), whole.get_mut(written..)) {
            (Some(s), Some(d)) => (src, dst) = (s, d),
            _ => return Ok(None),
        }
    }
}

/// The escape at `i` (a backslash), validated as [`scan_escape`] does, its character
/// written at `out[len..]`: the index after it and the number of bytes written, or `None`
/// when they do not fit.
#[inline(always)]
fn escape(text: &str, i: usize, out: &mut [u8], len: usize) -> Step {
    match text
        .as_bytes()
        .get(i + 1)
        .and_then(|&letter| ONE_LETTER.get(usize::from(letter)).copied())
        .unwrap_or(0)
    {
        0 => escape_u(text, i, out, len),
        byte => Ok(out.get_mut(len).map(|dst| {
            *dst = byte;
            (i + 2, 1)
        })),
    }
}

/// An [`escape`] that is not one letter (`\u`, or invalid).
#[inline(never)]
fn escape_u(text: &str, i: usize, out: &mut [u8], len: usize) -> Step {
    let next = scan_escape(text.as_bytes(), i)?;
    let c = Chars::escaped(text.get(i..next).unwrap_or(""))
        .next()
        .unwrap_or('\u{FFFD}');
    let mut buf = [0u8; 4];
    let enc = c.encode_utf8(&mut buf).as_bytes();
    let Some(dst) = out.get_mut(len..len + enc.len()) else {
        return Ok(None);
    };
    dst.copy_from_slice(enc);
    Ok(Some((next, enc.len())))
}

/// The last bytes of the body from `i` (fewer than 8), one at a time as [`scan_string`]
/// reads them, copied out; answers as [`copy_rest`].
#[inline(never)]
fn tail(text: &str, mut i: usize, mut len: usize, out: &mut [u8]) -> Step {
    let b = text.as_bytes();
    loop {
        let byte = match b.get(i) {
            Some(b'"') => return Ok(Some((i + 1, len))),
            Some(b'\\') => {
                let Some((next, n)) = escape(text, i, out, len)? else {
                    return Ok(None);
                };
                (i, len) = (next, len + n);
                continue;
            }
            Some(&c) if c < 0x20 => return Err(JsonError::new(K::ControlCharacter, i)),
            Some(&c) => c,
            None => return Err(JsonError::new(K::UnexpectedEnd, i)),
        };
        let Some(dst) = out.get_mut(len) else {
            return Ok(None);
        };
        *dst = byte;
        (i, len) = (i + 1, len + 1);
    }
}
