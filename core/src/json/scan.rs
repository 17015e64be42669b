//! The validating scanner: one iterative pass over untrusted bytes (RFC 8259), bounded in
//! length and nesting depth, so a hostile message is a typed error and never a stack overflow.
//!
//! After [`validate`] accepts a text, the navigation helpers at the bottom of this file walk
//! it without re-checking the grammar.

use super::error::{JsonError, JsonErrorKind as K};
use super::value::RawJson;

/// Declared limits for one untrusted JSON message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The largest accepted message, in bytes.
    pub max_len: usize,
    /// The deepest accepted nesting of objects and arrays (at most [`Limits::MAX_DEPTH`]).
    pub max_depth: u16,
}

impl Limits {
    /// The hard ceiling on [`Limits::max_depth`]; larger values are clamped to it.
    pub const MAX_DEPTH: u16 = 256;
    /// 16 MiB and 64 levels: room for large `resources/read` blobs and deep JSON Schemas in
    /// `inputRequests`, while a nesting bomb fails fast.
    pub const DEFAULT: Self = Self {
        max_len: 16 * 1024 * 1024,
        max_depth: 64,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The word of [`Stack`]: the target's register width ([`crate::WIDE`] targets: 64 bits;
/// elsewhere 32, where a 64-bit shift takes several instructions).
#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
type StackWord = u64;
#[cfg(not(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
)))]
type StackWord = u32;

/// Bits in a [`StackWord`].
const WORD_BITS: u16 = StackWord::BITS as u16;

/// A fixed bit stack: one bit per open container (1 = object, 0 = array), room for
/// [`Limits::MAX_DEPTH`].
struct Stack {
    bits: [StackWord; Limits::MAX_DEPTH as usize / WORD_BITS as usize],
    depth: u16,
}

impl Stack {
    fn push(&mut self, object: bool, max: u16) -> bool {
        if self.depth >= max {
            return false;
        }
        let (word, bit) = (usize::from(self.depth / WORD_BITS), self.depth % WORD_BITS);
        if let Some(w) = self.bits.get_mut(word) {
            if object {
                *w |= 1 << bit;
            } else {
                *w &= !(1 << bit);
            }
        }
        self.depth += 1;
        true
    }

    fn top_is_object(&self) -> bool {
        let d = self.depth.saturating_sub(1);
        self.bits
            .get(usize::from(d / WORD_BITS))
            .is_some_and(|w| w & (1 << (d % WORD_BITS)) != 0)
    }
}

/// Checks that `input` is exactly one JSON value (with optional surrounding whitespace),
/// valid UTF-8, within `limits`, and returns it.
///
/// # Errors
/// A [`JsonError`] naming the first problem and its byte offset.
pub fn validate(input: &[u8], limits: Limits) -> Result<RawJson<'_>, JsonError> {
    if input.len() > limits.max_len {
        return Err(JsonError::new(K::TooLarge, limits.max_len));
    }
    let text =
        core::str::from_utf8(input).map_err(|e| JsonError::new(K::InvalidUtf8, e.valid_up_to()))?;
    let start = skip_ws(input, 0);
    let end = validate_value(input, start, limits.max_depth.min(Limits::MAX_DEPTH))?;
    let rest = skip_ws(input, end);
    if rest != input.len() {
        return Err(JsonError::new(K::TrailingCharacters, rest));
    }
    text.get(start..end)
        .map(RawJson::from_validated)
        .ok_or(JsonError::new(K::UnexpectedEnd, end))
}

/// Validates the one value starting at `start` (no leading whitespace) with at most
/// `max_depth` nested containers; returns the index just after it. Iterative.
pub(crate) fn validate_value(b: &[u8], start: usize, max_depth: u16) -> Result<usize, JsonError> {
    let mut stack = Stack {
        bits: [0; Limits::MAX_DEPTH as usize / WORD_BITS as usize],
        depth: 0,
    };
    let mut i = start;
    'value: loop {
        let c = *b.get(i).ok_or(JsonError::new(K::UnexpectedEnd, i))?;
        match c {
            b'{' => {
                if !stack.push(true, max_depth) {
                    return Err(JsonError::new(K::TooDeep, i));
                }
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b'}') {
                    stack.depth -= 1;
                    i += 1;
                } else {
                    i = object_key(b, i)?;
                    continue 'value;
                }
            }
            b'[' => {
                if !stack.push(false, max_depth) {
                    return Err(JsonError::new(K::TooDeep, i));
                }
                i = skip_ws(b, i + 1);
                if b.get(i) == Some(&b']') {
                    stack.depth -= 1;
                    i += 1;
                } else {
                    continue 'value;
                }
            }
            b'"' => i = scan_string(b, i + 1)?.0,
            b'-' | b'0'..=b'9' => i = scan_number(b, i)?,
            b't' => i = literal(b, i, b"true")?,
            b'f' => i = literal(b, i, b"false")?,
            b'n' => i = literal(b, i, b"null")?,
            _ => return Err(JsonError::new(K::UnexpectedByte, i)),
        }
        // After a complete value: separators and closing brackets.
        while stack.depth > 0 {
            i = skip_ws(b, i);
            let c = *b.get(i).ok_or(JsonError::new(K::UnexpectedEnd, i))?;
            match (stack.top_is_object(), c) {
                (true, b',') => {
                    i = object_key(b, skip_ws(b, i + 1))?;
                    continue 'value;
                }
                (false, b',') => {
                    i = skip_ws(b, i + 1);
                    continue 'value;
                }
                (true, b'}') | (false, b']') => {
                    stack.depth -= 1;
                    i += 1;
                }
                _ => return Err(JsonError::new(K::UnexpectedByte, i)),
            }
        }
        break;
    }
    Ok(i)
}

#[inline]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// `"key"` `:` at `i`; returns the index of the member value.
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
fn object_key(b: &[u8], i: usize) -> Result<usize, JsonError> {
    match b.get(i) {
        Some(b'"') => {}
        Some(_) => return Err(JsonError::new(K::UnexpectedByte, i)),
        None => return Err(JsonError::new(K::UnexpectedEnd, i)),
    }
    let i = skip_ws(b, scan_string(b, i + 1)?.0);
    match b.get(i) {
        Some(b':') => Ok(skip_ws(b, i + 1)),
        Some(_) => Err(JsonError::new(K::UnexpectedByte, i)),
        None => Err(JsonError::new(K::UnexpectedEnd, i)),
    }
}

#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
fn literal(b: &[u8], i: usize, word: &[u8]) -> Result<usize, JsonError> {
    let end = i + word.len();
    match b.get(i..end) {
        Some(s) if s == word => Ok(end),
        _ => Err(JsonError::new(K::UnexpectedByte, i)),
    }
}

/// The word loops below run only where they pay ([`crate::WIDE`]); elsewhere the byte
/// loops they fall back to for their last bytes do all the work (tested on every target:
/// strings shorter than eight bytes and every tail).
pub(crate) use crate::WIDE;

const HI: u64 = 0x8080_8080_8080_8080;
const LO: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `x` that is zero. Bytes above the lowest zero byte may be
/// flagged falsely (a borrow), so only the lowest set bit is exact: callers use
/// `trailing_zeros` and never the other bits.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(LO) & !x & HI
}

/// The index of the first `byte` at or after `i`, or `b.len()` (eight bytes per step).
#[inline]
pub(crate) fn next_byte(b: &[u8], i: usize, byte: u8) -> usize {
    let rest = b.get(i..).unwrap_or(&[]);
    if !WIDE {
        return rest
            .iter()
            .position(|&c| c == byte)
            .map_or(b.len(), |p| i + p);
    }
    let (words, tail) = rest.as_chunks::<8>();
    for (k, w) in words.iter().enumerate() {
        let m = byte_mask(u64::from_le_bytes(*w), byte);
        if m != 0 {
            return i + k * 8 + (m.trailing_zeros() / 8) as usize;
        }
    }
    let base = i + words.len() * 8;
    tail.iter()
        .position(|&c| c == byte)
        .map_or(b.len(), |p| base + p)
}

/// The mask of `byte` in `w` (exact in its lowest set bit only, see [`zero_bytes`]).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) const fn byte_mask(w: u64, byte: u8) -> u64 {
    zero_bytes(w ^ (LO * byte as u64))
}

/// The high bit of the first byte of `w` that is `"`, `\\` or (when `ctrl`) a control byte
/// (< 0x20), and possibly of later bytes: two [`zero_bytes`]-style tests ORed, so only the
/// lowest set bit is exact (each test's lowest bit is, and the borrows only run upwards).
/// A later bit may be a byte that is none of these: [`walk_string`] checks each byte.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) const fn specials(w: u64, ctrl: bool) -> u64 {
    if ctrl {
        Specials::CONST.mask(w)
    } else {
        let s = (w ^ (LO * b'\\' as u64)).wrapping_sub(LO);
        ((w ^ (LO * b'"' as u64)).wrapping_sub(LO) | s) & !w & HI
    }
}

/// The constants [`specials`] tests a word with when control bytes count, as values.
///
/// Each test flags a byte below a bound (`x - n` borrows into the high bit), and every byte
/// it looks at has the high bit of the word's byte, so `!w` clears the bytes from 0x80 for
/// both: `\\` is the byte that `^ backslash` makes 0, and `^ flip` maps `"` (0x22) to 0x20
/// and the control bytes onto themselves, with no other byte below 0x21.
#[derive(Clone, Copy)]
pub(crate) struct Specials {
    backslash: u64,
    minus_one: u64,
    flip: u64,
    minus_bound: u64,
    high: u64,
}

impl Specials {
    const CONST: Self = Self {
        backslash: LO * b'\\' as u64,
        minus_one: LO.wrapping_neg(),
        flip: LO * 2,
        minus_bound: (LO * 0x21).wrapping_neg(),
        high: HI,
    };

    /// The constants through [`core::hint::black_box`], values the optimizer cannot see: a
    /// word loop given them keeps them in registers, where it would rebuild each immediate
    /// for every word (a 10-byte move each on x86-64). Speed only: [`Specials::mask`] is
    /// [`specials`] with control bytes whichever way the constants come.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn opaque() -> Self {
        core::hint::black_box(Self::CONST)
    }

    /// [`specials`]`(w, true)`.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) const fn mask(self, w: u64) -> u64 {
        let s = (w ^ self.backslash).wrapping_add(self.minus_one);
        ((w ^ self.flip).wrapping_add(self.minus_bound) | s) & !w & self.high
    }
}

/// Walks a string body from `i` (just after the opening quote) to its closing quote,
/// handling the special bytes of each 8-byte word from one mask ([`specials`]; a flagged
/// byte that is not special is stepped over). `escape` gets the index of each backslash
/// and returns the index after its escape; a control byte is an error when `ctrl`. Returns the index after the closing quote (or `b.len()` with
/// [`K::UnexpectedEnd`] when there is none) and whether there were escapes.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn walk_string(
    b: &[u8],
    mut i: usize,
    ctrl: bool,
    escape: impl Fn(&[u8], usize) -> Result<usize, JsonError>,
) -> Result<(usize, bool), JsonError> {
    let mut escaped = false;
    loop {
        let words = if WIDE { b.get(i..i + 8) } else { None };
        let Some(chunk) = words.and_then(<[u8]>::first_chunk::<8>) else {
            // Fewer than 8 bytes left (or a compact target): one at a time.
            match b.get(i) {
                Some(b'"') => return Ok((i + 1, escaped)),
                Some(b'\\') => {
                    escaped = true;
                    i = escape(b, i)?;
                }
                Some(&c) if ctrl && c < 0x20 => {
                    return Err(JsonError::new(K::ControlCharacter, i));
                }
                Some(_) => i += 1,
                None => return Err(JsonError::new(K::UnexpectedEnd, i)),
            }
            continue;
        };
        let mut m = specials(u64::from_le_bytes(*chunk), ctrl);
        let base = i;
        i += 8;
        while m != 0 {
            let p = base + (m.trailing_zeros() / 8) as usize;
            let next = match b.get(p) {
                Some(b'"') => return Ok((p + 1, escaped)),
                Some(b'\\') => {
                    escaped = true;
                    escape(b, p)?
                }
                Some(&c) if ctrl && c < 0x20 => {
                    return Err(JsonError::new(K::ControlCharacter, p));
                }
                // Flagged by a borrow, not special.
                _ => p + 1,
            };
            let consumed = next - base;
            if consumed >= 8 {
                i = next;
                break;
            }
            m &= !0u64 << (consumed * 8);
        }
    }
}

/// Scans a string body starting just after the opening quote. Returns the index after the
/// closing quote and whether the body contains escapes.
#[inline]
pub(crate) fn scan_string(b: &[u8], i: usize) -> Result<(usize, bool), JsonError> {
    walk_string(b, i, true, escape_step)
}

/// The validating scans' step over the escape at `p` (a backslash): a one-letter escape
/// directly, any other through [`scan_escape`]; returns the index after it.
#[inline(always)]
fn escape_step(b: &[u8], p: usize) -> Result<usize, JsonError> {
    match b.get(p + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(p + 2),
        _ => scan_escape(b, p),
    }
}

/// What [`scan_until_escape`] found.
pub(crate) enum Scanned {
    /// The whole body: the index after the closing quote, and whether it has escapes.
    End(usize, bool),
    /// The first backslash, where the caller takes over (the bytes before it are valid).
    Escape(usize),
}

/// [`scan_string`], stopping at the first backslash when `stop` is set (for a caller that
/// unescapes from there, [`super::string_into`]).
#[inline(always)]
pub(crate) fn scan_until_escape(b: &[u8], i: usize, stop: bool) -> Result<Scanned, JsonError> {
    let first = core::cell::Cell::new(None);
    let walked = walk_string(b, i, true, |b, p| {
        if stop {
            first.set(Some(p));
            return Err(JsonError::new(K::InvalidEscape, p));
        }
        escape_step(b, p)
    });
    match (walked, first.get()) {
        (_, Some(p)) => Ok(Scanned::Escape(p)),
        (Ok((end, escaped)), None) => Ok(Scanned::End(end, escaped)),
        (Err(e), None) => Err(e),
    }
}

/// One escape at `i` (the backslash); returns the index after it.
pub(crate) fn scan_escape(b: &[u8], i: usize) -> Result<usize, JsonError> {
    match b.get(i + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
        Some(b'u') => {
            let unit = hex4(b, i + 2).ok_or(JsonError::new(K::InvalidEscape, i))?;
            match unit {
                0xD800..=0xDBFF => {
                    let low = match (b.get(i + 6), b.get(i + 7)) {
                        (Some(b'\\'), Some(b'u')) => hex4(b, i + 8),
                        _ => None,
                    };
                    match low {
                        Some(0xDC00..=0xDFFF) => Ok(i + 12),
                        _ => Err(JsonError::new(K::LoneSurrogate, i)),
                    }
                }
                0xDC00..=0xDFFF => Err(JsonError::new(K::LoneSurrogate, i)),
                _ => Ok(i + 6),
            }
        }
        Some(_) => Err(JsonError::new(K::InvalidEscape, i)),
        None => Err(JsonError::new(K::UnexpectedEnd, i + 1)),
    }
}

/// Four hex digits at `i` as a UTF-16 code unit.
pub(crate) fn hex4(b: &[u8], i: usize) -> Option<u16> {
    let digits = b.get(i..i + 4)?;
    let mut v: u16 = 0;
    for &d in digits {
        v = (v << 4) | u16::from(crate::pct::hex_value(d)?);
    }
    Some(v)
}

/// Scans a number at `i` (RFC 8259 §6); returns the index after it.
pub(crate) fn scan_number(b: &[u8], mut i: usize) -> Result<usize, JsonError> {
    let start = i;
    let bad = JsonError::new(K::InvalidNumber, start);
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(b, i + 1),
        _ => return Err(bad),
    }
    if b.get(i) == Some(&b'.') {
        let after = digits(b, i + 1);
        if after == i + 1 {
            return Err(bad);
        }
        i = after;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let after = digits(b, i);
        if after == i {
            return Err(bad);
        }
        i = after;
    }
    // A digit right after `0` (as in `01`) is caught by the caller as an unexpected byte.
    Ok(i)
}

fn digits(b: &[u8], mut i: usize) -> usize {
    while let Some(b'0'..=b'9') = b.get(i) {
        i += 1;
    }
    i
}

// ---- Navigation over text that `validate` accepted (no grammar checks) ----

/// The end of the string whose body starts at `i`, and whether it has escapes (text
/// already validated: each backslash just skips the byte after it).
#[inline]
pub(crate) fn skip_string(b: &[u8], i: usize) -> (usize, bool) {
    walk_string(b, i, false, |_, p| Ok(p + 2)).unwrap_or((b.len(), true))
}

/// Whether any byte of an 8-byte word is `"`, `{`, `}`, `[` or `]`.
#[inline]
fn word_has_structural(w: u64) -> bool {
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    // `[`/`]` differ from `{`/`}` only in bit 5; setting it folds them together (and no
    // other byte maps onto `{` or `}`).
    let folded = w | (LO * 0x20);
    (zero(w ^ (LO * u64::from(b'"')))
        | zero(folded ^ (LO * u64::from(b'{')))
        | zero(folded ^ (LO * u64::from(b'}'))))
        != 0
}

/// The end of the value that starts at `i` (text already validated). Compact targets
/// ([`crate::WIDE`]) run the validator instead of a second walker: on validated text both
/// end at the same byte (`json::tests`).
pub(crate) fn skip_value(b: &[u8], i: usize) -> usize {
    if !WIDE {
        return skip_value_checked(b, i);
    }
    skip_value_fast(b, i)
}

/// [`skip_value`] through [`validate_value`]: the compact targets' form.
pub(crate) fn skip_value_checked(b: &[u8], i: usize) -> usize {
    validate_value(b, i, Limits::MAX_DEPTH).unwrap_or(b.len())
}

/// [`skip_value`]'s own walk: brackets and strings only, eight bytes at a time.
pub(crate) fn skip_value_fast(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => skip_string(b, i + 1).0,
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                while let Some(chunk) = b.get(j..).and_then(<[u8]>::first_chunk::<8>) {
                    if word_has_structural(u64::from_le_bytes(*chunk)) {
                        break;
                    }
                    j += 8;
                }
                match b.get(j) {
                    Some(b'{' | b'[') => depth += 1,
                    Some(b'}' | b']') => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    Some(b'"') => {
                        j = skip_string(b, j + 1).0;
                        continue;
                    }
                    Some(_) => {}
                    None => return b.len(),
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while let Some(c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                j += 1;
            }
            j
        }
    }
}
