//! [`Cursor`]: a validating pull parser. Typed views decode in one pass with it: every byte
//! is checked once while the view is built, and pass-through values are validated as they
//! are skipped ([`Cursor::value`], iterative and depth-bounded).

use super::error::{JsonError, JsonErrorKind as K};
use super::fields::Keys;
use super::number::Number;
use super::scan::{
    Limits, Scanned, WIDE, scan_number, scan_string, scan_until_escape, skip_string, skip_value,
    skip_ws, validate_value,
};
use super::string::JsonStr;
use super::string_into::unescape_rest;
use super::value::{JsonKind, RawJson};

mod shortcut;
mod span;
mod text;

use shortcut::in_place;
pub(crate) use span::Span;
use text::Text;

/// A position in JSON text, read token by token with full validation.
///
/// Containers opened with [`Cursor::begin_object`] / [`Cursor::begin_array`] count toward
/// the nesting limit; [`Cursor::value`] validates a whole value within what remains.
#[derive(Debug)]
pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    depth: u16,
    max_depth: u16,
    /// Over text already validated: values are skipped, not re-validated.
    trusted: bool,
    /// Validating: the longest string read so far (a [`Seq`](crate::messages::Seq) keeps
    /// the one inside it). Trusted: a string whose end is known, so reading it again is
    /// one step (the span a `Seq` kept, given back when it is iterated).
    long: Span,
    /// Validating: where strings with escapes are unescaped as they are scanned
    /// ([`Cursor::with_text`]).
    out: Text<'a>,
}

/// A clone reads the same text from the same place, without the text buffer (which only
/// one cursor can fill).
impl Clone for Cursor<'_> {
    fn clone(&self) -> Self {
        Self {
            text: self.text,
            pos: self.pos,
            depth: self.depth,
            max_depth: self.max_depth,
            trusted: self.trusted,
            long: self.long,
            out: Text::default(),
        }
    }
}

type R<T> = Result<T, JsonError>;

impl<'a> Cursor<'a> {
    /// A cursor over untrusted bytes: checks the size limit and UTF-8 up front.
    ///
    /// # Errors
    /// [`K::TooLarge`] or [`K::InvalidUtf8`].
    pub fn new(input: &'a [u8], limits: Limits) -> R<Self> {
        if input.len() > limits.max_len {
            return Err(JsonError::new(K::TooLarge, limits.max_len));
        }
        let text = core::str::from_utf8(input)
            .map_err(|e| JsonError::new(K::InvalidUtf8, e.valid_up_to()))?;
        Ok(Self {
            text,
            pos: 0,
            depth: 0,
            max_depth: limits.max_depth.min(Limits::MAX_DEPTH),
            trusted: false,
            long: Span::default(),
            out: Text::default(),
        })
    }

    /// The cursor with a buffer for unescaped text: each string with escapes that it
    /// validates ([`Cursor::string`]) is unescaped into `text` in the same pass while it has
    /// room (with 8 bytes to spare), and the [`JsonStr`] returned borrows it, with no escapes
    /// left. Strings without escapes still borrow the input, and one that does not fit is
    /// returned as without the buffer. Speed only, on 64-bit and wasm targets; elsewhere
    /// `text` is not used.
    #[must_use]
    pub fn with_text(mut self, text: &'a mut [u8]) -> Self {
        self.out = Text::new(text);
        self
    }

    /// A cursor over one validated value.
    #[must_use]
    pub fn over(value: RawJson<'a>) -> Self {
        Self::over_with(value, Span::default())
    }

    /// A cursor over one validated value in which the string at `long` (a span validation
    /// found in exactly this text) is read in one step.
    pub(crate) fn over_with(value: RawJson<'a>, long: Span) -> Self {
        Self {
            text: value.as_text(),
            pos: 0,
            depth: 0,
            max_depth: Limits::MAX_DEPTH,
            trusted: true,
            long,
            out: Text::default(),
        }
    }

    /// Validating: the longest string read since the last call, which forgets it (a `Seq`
    /// takes it before and after its items, then gives the longer back with
    /// [`Cursor::keep_long`]). Trusted: the known span, left in place.
    pub(crate) fn take_long(&mut self) -> Span {
        if self.trusted {
            return Span::default();
        }
        core::mem::take(&mut self.long)
    }

    /// Keeps the longer of `a` and `b` as the longest string read (validating only).
    pub(crate) fn keep_long(&mut self, a: Span, b: Span) {
        if !self.trusted {
            self.long = if b.len() > a.len() { b } else { a };
        }
    }

    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn err(&self, kind: K) -> JsonError {
        JsonError::new(kind, self.pos)
    }

    /// The validated text between two offsets of this cursor, as a value.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub(crate) fn slice(&self, start: usize, end: usize) -> Option<RawJson<'a>> {
        self.text.get(start..end).map(RawJson::from_validated)
    }

    /// The byte offset of the next token.
    #[must_use]
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// Moves back to an offset returned by [`Cursor::position`] at the same depth.
    pub(crate) fn rewind(&mut self, pos: usize, depth: u16) {
        self.pos = pos;
        self.depth = depth;
    }

    /// The current container depth.
    #[must_use]
    pub const fn depth(&self) -> u16 {
        self.depth
    }

    /// The next non-whitespace byte, without consuming it.
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    pub fn peek(&mut self) -> Option<u8> {
        self.pos = skip_ws(self.bytes(), self.pos);
        self.bytes().get(self.pos).copied()
    }

    /// The JSON type of the next value, by its first byte.
    pub fn peek_kind(&mut self) -> Option<JsonKind> {
        Some(match self.peek()? {
            b'{' => JsonKind::Object,
            b'[' => JsonKind::Array,
            b'"' => JsonKind::String,
            b't' | b'f' => JsonKind::Bool,
            b'n' => JsonKind::Null,
            _ => JsonKind::Number,
        })
    }

    /// A string.
    ///
    /// # Errors
    /// When the next value is not a valid string.
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    pub fn string(&mut self) -> R<JsonStr<'a>> {
        match self.peek() {
            Some(b'"') => {}
            Some(_) => return Err(self.err(K::UnexpectedByte)),
            None => return Err(self.err(K::UnexpectedEnd)),
        }
        let start = self.pos + 1;
        // Compact targets ([`WIDE`]) read a trusted string with the validating scan too: on
        // validated text it ends at the same byte with the same flag (`json::tests`), and
        // `skip_string` is then not linked for this.
        let (end, escaped) = if WIDE && self.trusted {
            match self.long.read_at(start) {
                Some(known) => known,
                None => skip_string(self.bytes(), start),
            }
        } else {
            // With a text buffer, a string with escapes is unescaped from its first one on
            // (wide targets: the compact ones have no buffer).
            let scanned = if WIDE {
                scan_until_escape(self.bytes(), start, self.out.has_room())?
            } else {
                let (end, escaped) = scan_string(self.bytes(), start)?;
                Scanned::End(end, escaped)
            };
            let (end, escaped) = match scanned {
                Scanned::End(end, escaped) => (end, escaped),
                Scanned::Escape(p) => return self.string_into(start, p),
            };
            if WIDE && end - start > self.long.len() {
                self.long = Span::new(start, end, escaped);
            }
            (end, escaped)
        };
        let s = self
            .text
            .get(start..end - 1)
            .ok_or(self.err(K::UnexpectedEnd))?;
        self.pos = end;
        Ok(JsonStr::from_source(s, escaped))
    }

    /// [`Cursor::string`] validating with a text buffer, from the body's first backslash at
    /// `p` on: the rest validated and unescaped into the buffer in the same pass.
    #[inline(never)]
    fn string_into(&mut self, start: usize, p: usize) -> R<JsonStr<'a>> {
        let out = self.out.take();
        let (end, copied) = unescape_rest(self.text, start, p, out)?;
        if end - start > self.long.len() {
            self.long = Span::new(start, end, true);
        }
        self.pos = end;
        match copied {
            Some(len) if len <= out.len() => {
                let (used, rest) = <[u8]>::split_at_mut(out, len);
                self.out.put(rest);
                let used: &'a [u8] = used;
                if let Ok(s) = core::str::from_utf8(used) {
                    return Ok(JsonStr::new(s));
                }
            }
            _ => self.out.put(out),
        }
        let s = self
            .text
            .get(start..end - 1)
            .ok_or(JsonError::new(K::UnexpectedEnd, end))?;
        Ok(JsonStr::from_source(s, true))
    }

    /// A number.
    ///
    /// # Errors
    /// When the next value is not a valid number.
    pub fn number(&mut self) -> R<Number<'a>> {
        self.peek();
        let start = self.pos;
        let end = scan_number(self.bytes(), start)?;
        let s = self
            .text
            .get(start..end)
            .ok_or(self.err(K::UnexpectedEnd))?;
        self.pos = end;
        Ok(Number::from_validated(s))
    }

    /// The next value when it is a literal of one to 19 digits with no leading zero,
    /// fraction or exponent (so it cannot overflow), read directly; `None` (and nothing
    /// read) for any other value, which [`Cursor::number`] then reads.
    pub(crate) fn plain_u64(&mut self) -> Option<u64> {
        let b = self.bytes();
        let i = skip_ws(b, self.pos);
        let (mut v, mut j) = (0u64, i);
        while let Some(&d) = b.get(j).filter(|d| d.is_ascii_digit()) {
            if j - i == 19 {
                return None;
            }
            v = v * 10 + u64::from(d - b'0');
            j += 1;
        }
        let plain = match (b.get(i), b.get(j)) {
            (Some(b'0'), _) if j - i > 1 => false,
            (_, Some(b'.' | b'e' | b'E')) => false,
            _ => j > i,
        };
        if plain {
            self.pos = j;
        }
        plain.then_some(v)
    }

    /// The next value when it is `0` or `1`, either with a fraction of one to 15 digits and
    /// no exponent, read directly as the `f64` the number path gives it (`m / 10^k`, both
    /// exact, so the one correctly rounded quotient); `None` (nothing read) otherwise.
    /// Speed only (`WIDE`): annotation priorities.
    pub(crate) fn plain_unit(&mut self) -> Option<f64> {
        const P: [f64; 16] = [
            1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        ];
        let b = self.bytes();
        let i = skip_ws(b, self.pos);
        let mut m = match b.get(i) {
            Some(b'0') => 0u64,
            Some(b'1') => 1,
            _ => return None,
        };
        let (mut j, mut k) = (i + 1, 0usize);
        if b.get(j) == Some(&b'.') {
            j += 1;
            while let Some(&d) = b.get(j).filter(|d| d.is_ascii_digit()) {
                if k == 15 {
                    return None;
                }
                m = m * 10 + u64::from(d - b'0');
                (j, k) = (j + 1, k + 1);
            }
            if k == 0 {
                return None;
            }
        }
        if matches!(b.get(j), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = j;
        Some(m as f64 / *P.get(k)?)
    }

    /// Any value, validated, as raw text.
    ///
    /// # Errors
    /// When the value is malformed or nests deeper than the limit allows.
    pub fn value(&mut self) -> R<RawJson<'a>> {
        if self.peek().is_none() {
            return Err(self.err(K::UnexpectedEnd));
        }
        let start = self.pos;
        let b = self.bytes();
        let end = match b.get(start) {
            _ if self.trusted => skip_value(b, start),
            // A string or a number is what the validator's first step reads (speed only).
            Some(b'"') if WIDE => scan_string(b, start + 1)?.0,
            Some(b'-' | b'0'..=b'9') if WIDE => scan_number(b, start)?,
            _ => validate_value(b, start, self.max_depth.saturating_sub(self.depth))?,
        };
        let s = self
            .text
            .get(start..end)
            .ok_or(self.err(K::UnexpectedEnd))?;
        self.pos = end;
        Ok(RawJson::from_validated(s))
    }

    fn open(&mut self, bracket: u8) -> R<()> {
        match self.peek() {
            Some(c) if c == bracket => {}
            Some(_) => return Err(self.err(K::UnexpectedByte)),
            None => return Err(self.err(K::UnexpectedEnd)),
        }
        if self.depth >= self.max_depth {
            return Err(self.err(K::TooDeep));
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    /// `{`
    ///
    /// # Errors
    /// When the next value is not an object, or nesting is too deep.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn begin_object(&mut self) -> R<()> {
        self.open(b'{')
    }

    /// `[`
    ///
    /// # Errors
    /// When the next value is not an array, or nesting is too deep.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn begin_array(&mut self) -> R<()> {
        self.open(b'[')
    }

    /// The next key of the current object and its `:`, or `None` after the closing `}`.
    /// `first` tracks whether a separating comma is due; start it at `true`.
    ///
    /// # Errors
    /// On malformed separators or keys.
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    pub fn next_key(&mut self, first: &mut bool) -> R<Option<JsonStr<'a>>> {
        let c = self.peek().ok_or(self.err(K::UnexpectedEnd))?;
        if c == b'}' {
            self.pos += 1;
            self.depth = self.depth.saturating_sub(1);
            return Ok(None);
        }
        if !*first {
            if c != b',' {
                return Err(self.err(K::UnexpectedByte));
            }
            self.pos += 1;
        }
        *first = false;
        let key = self.string()?;
        match self.peek() {
            Some(b':') => self.pos += 1,
            Some(_) => return Err(self.err(K::UnexpectedByte)),
            None => return Err(self.err(K::UnexpectedEnd)),
        }
        Ok(Some(key))
    }

    /// As [`Cursor::next_key`], matching the key against `keys` first: `Some(Some(i))` for
    /// `keys.names[i]`, `Some(None)` for any other key, `None` after the closing `}`. A key
    /// written without escapes is compared in place, a word at a time (its first eight
    /// bytes, then its last seven and the closing quote), so a known key is never scanned;
    /// any other key is scanned (and validated) as a string, and one with escapes is compared
    /// after decoding.
    ///
    /// # Errors
    /// On malformed separators or keys.
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(never)
    )]
    pub(crate) fn next_key_in(
        &mut self,
        first: &mut bool,
        keys: &Keys,
    ) -> R<Option<Option<usize>>> {
        let b = self.bytes();
        let mut i = skip_ws(b, self.pos);
        match b.get(i) {
            Some(b'}') => {
                self.pos = i + 1;
                self.depth = self.depth.saturating_sub(1);
                return Ok(None);
            }
            Some(b',') if !*first => i = skip_ws(b, i + 1),
            Some(_) if *first => {}
            Some(_) => return Err(JsonError::new(K::UnexpectedByte, i)),
            None => return Err(JsonError::new(K::UnexpectedEnd, i)),
        }
        *first = false;
        self.pos = i;
        // The in-place match is a shortcut (a key without escapes that equals a name is the
        // name `find_index` returns after decoding it): compiled only where it pays, and
        // taken only when eight bytes follow the opening quote.
        let rest = match (b.get(i), b.get(i + 1..)) {
            (Some(b'"'), Some(rest)) if WIDE => rest,
            _ => &[],
        };
        let key = match rest.first_chunk::<8>() {
            Some(head) => match in_place(rest, u64::from_le_bytes(*head), keys) {
                Some((k, len)) => {
                    self.pos = i + len + 2;
                    Some(k)
                }
                None => super::fields::find_index(keys.names, self.string()?, true),
            },
            None => super::fields::find_index(keys.names, self.string()?, false),
        };
        let j = skip_ws(b, self.pos);
        match b.get(j) {
            Some(b':') => self.pos = j + 1,
            Some(_) => return Err(JsonError::new(K::UnexpectedByte, j)),
            None => return Err(JsonError::new(K::UnexpectedEnd, j)),
        }
        Ok(Some(key))
    }

    /// Whether this cursor reads validated text ([`Cursor::over`]).
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    pub(crate) const fn is_trusted(&self) -> bool {
        self.trusted
    }

    /// [`Cursor::next_key_in`] for a trusted cursor (speed only, [`WIDE`]): the same key
    /// and position over validated text, without the checks (an optional comma is skipped,
    /// so `first` is not needed). Over other text it returns some answer and never panics.
    #[inline(always)]
    pub(crate) fn next_key_trusted(&mut self, keys: &Keys) -> Option<Option<usize>> {
        let b = self.bytes();
        let mut i = skip_ws(b, self.pos);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'"') => {}
            _ => {
                self.pos = i + 1;
                self.depth = self.depth.saturating_sub(1);
                return None;
            }
        }
        // As in `next_key_in`: compared in place only where that match is compiled.
        let rest = match b.get(i + 1..) {
            Some(rest) if WIDE => rest,
            _ => &[],
        };
        let key = match rest.first_chunk::<8>() {
            Some(head) => match in_place(rest, u64::from_le_bytes(*head), keys) {
                Some((k, len)) => {
                    self.pos = i + len + 2;
                    Some(k)
                }
                None => self.trusted_key(i, keys, true),
            },
            None => self.trusted_key(i, keys, false),
        };
        self.pos = skip_ws(b, self.pos) + 1;
        Some(key)
    }

    /// The index of the name the next value is, when it is a string literal written
    /// exactly as one of `keys` (speed only, [`WIDE`]), compared in place as keys are and
    /// read; otherwise `None` and nothing read (the string is then read the general way).
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    pub(crate) fn name_in_place(&mut self, keys: &Keys) -> Option<usize> {
        let b = self.bytes();
        let i = skip_ws(b, self.pos);
        let rest = match (b.get(i), b.get(i + 1..)) {
            (Some(b'"'), Some(rest)) if WIDE => rest,
            _ => return None,
        };
        let head = u64::from_le_bytes(*rest.first_chunk::<8>()?);
        let (k, len) = in_place(rest, head, keys)?;
        self.pos = i + len + 2;
        Some(k)
    }

    /// The key at `i` read as a string and looked up (see [`Cursor::next_key_trusted`]).
    #[inline(never)]
    fn trusted_key(&mut self, i: usize, keys: &Keys, compared: bool) -> Option<usize> {
        self.pos = i;
        let key = self.string().ok()?;
        super::fields::find_index(keys.names, key, compared)
    }

    /// Whether another element of the current array follows (consuming its comma), or
    /// `false` after the closing `]`. `first` starts at `true`.
    ///
    /// # Errors
    /// On malformed separators.
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    pub fn next_item(&mut self, first: &mut bool) -> R<bool> {
        let c = self.peek().ok_or(self.err(K::UnexpectedEnd))?;
        if c == b']' {
            self.pos += 1;
            self.depth = self.depth.saturating_sub(1);
            return Ok(false);
        }
        if !*first {
            if c != b',' {
                return Err(self.err(K::UnexpectedByte));
            }
            self.pos += 1;
        }
        *first = false;
        Ok(true)
    }

    /// Checks that only whitespace remains.
    ///
    /// # Errors
    /// [`K::TrailingCharacters`] otherwise.
    pub fn finish(&mut self) -> R<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.err(K::TrailingCharacters)),
        }
    }
}
