//! [`JsonStr`]: a JSON string that borrows the input and unescapes only when asked.

use core::fmt;
use core::hash::{Hash, Hasher};

use super::error::EncodeError;
use super::scan::{WIDE, byte_mask, hex4, next_byte};

/// A JSON string value.
///
/// A string without escapes is borrowed as `&str` at no cost ([`JsonStr::as_str`]). A string
/// with escapes stays escaped until the caller asks: [`JsonStr::chars`] decodes lazily,
/// [`JsonStr::unescape_into`] writes into caller scratch, and [`JsonStr::to_cow`] (feature
/// `alloc`) allocates only when there are escapes. Surrogate pairs (`\ud83d\ude00`) decode to
/// one character; lone surrogates were already rejected by validation.
///
/// Equality, hashing and [`Display`](fmt::Display) are on the decoded value, so
/// `"\u0061"` equals `"a"`.
///
/// ```
/// use mcp_context::json::{JsonStr, RawJson};
/// let v = RawJson::parse(br#""caf\u00e9 \ud83d\ude00""#).unwrap();
/// let s = v.as_str().unwrap();
/// assert!(s.as_str().is_none()); // escaped: not borrowable as-is
/// let mut scratch = [0u8; 16];
/// assert_eq!(s.unescape_into(&mut scratch).unwrap(), "café 😀");
/// assert_eq!(JsonStr::new("plain").as_str(), Some("plain"));
/// ```
#[derive(Clone, Copy)]
pub struct JsonStr<'a> {
    text: &'a str,
    form: Form,
}

/// What a [`JsonStr`]'s text is. One word, so a view holding strings has no padding bytes
/// inside them: the copies a decoder makes move whole words (copying a struct whose flags
/// share a word with padding made the compiler read words that several smaller writes had
/// just filled, which the processor cannot forward: a stall on each).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
enum Form {
    /// The value itself, given by the caller ([`JsonStr::new`]).
    Value,
    /// The body of a string literal in validated JSON without escapes (it holds no `"`, no
    /// backslash and no control character), so an encoder may copy it.
    Plain,
    /// The body of a string literal in validated JSON with escapes, kept as written.
    Escaped,
}

impl<'a> JsonStr<'a> {
    /// A string whose value is `value` (nothing is unescaped; used to build messages).
    #[must_use]
    pub const fn new(value: &'a str) -> Self {
        Self {
            text: value,
            form: Form::Value,
        }
    }

    /// A string read from validated JSON source: `src` is the text between the quotes.
    pub(crate) const fn from_source(src: &'a str, escaped: bool) -> Self {
        Self {
            text: src,
            form: if escaped { Form::Escaped } else { Form::Plain },
        }
    }

    /// Whether the text is the body of a validated JSON string literal (see
    /// [`JsonStr::source`]); the writer copies such a body instead of re-escaping it when it
    /// is already in canonical form.
    pub(crate) const fn is_sourced(&self) -> bool {
        !matches!(self.form, Form::Value)
    }

    /// The value as a borrowed `&str`, when it needs no unescaping.
    #[must_use]
    pub const fn as_str(&self) -> Option<&'a str> {
        if self.has_escapes() {
            None
        } else {
            Some(self.text)
        }
    }

    /// The text as held: the JSON source between the quotes (escapes kept) for a decoded
    /// string with escapes, otherwise the value itself.
    #[must_use]
    pub const fn source(&self) -> &'a str {
        self.text
    }

    /// Whether the value must be unescaped before use.
    #[must_use]
    pub const fn has_escapes(&self) -> bool {
        matches!(self.form, Form::Escaped)
    }

    /// The decoded characters, computed lazily.
    #[must_use]
    pub fn chars(&self) -> Chars<'a> {
        Chars {
            rest: self.text,
            escaped: self.has_escapes(),
        }
    }

    /// The length of the decoded value in UTF-8 bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        if self.has_escapes() {
            self.chars().map(char::len_utf8).sum()
        } else {
            self.text.len()
        }
    }

    /// Whether the decoded value is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The decoded value: borrowed when there are no escapes, otherwise unescaped into
    /// `scratch`.
    ///
    /// # Errors
    /// [`EncodeError::BufferTooSmall`] with the decoded length when `scratch` is too small.
    pub fn unescape_into<'b>(&self, scratch: &'b mut [u8]) -> Result<&'b str, EncodeError>
    where
        'a: 'b,
    {
        if !self.has_escapes() {
            return Ok(self.text);
        }
        if !WIDE {
            return self.unescape_by_chars(scratch);
        }
        let src = self.text.as_bytes();
        let (mut i, mut len) = (0usize, 0usize);
        // Copy 8 bytes at a time while looking for a backslash in them (the copy may run
        // past it: those bytes are overwritten next); decode each escape.
        loop {
            if WIDE {
                (i, len) = unescape_words(src, scratch, i, len);
            }
            // Compact targets copy through the byte path below only (same result).
            let wide = if WIDE {
                src.get(i..).unwrap_or(&[])
            } else {
                &[]
            };
            let (words, _) = wide.as_chunks::<8>();
            let (out, _) = scratch
                .get_mut(len..)
                .unwrap_or(&mut [])
                .as_chunks_mut::<8>();
            let mut found = None;
            let mut copied = 0;
            for (w, o) in words.iter().zip(out.iter_mut()) {
                *o = *w;
                let m = byte_mask(u64::from_le_bytes(*w), b'\\');
                if m != 0 {
                    found = Some(copied + (m.trailing_zeros() / 8) as usize);
                    break;
                }
                copied += 8;
            }
            let end = match found {
                Some(k) => {
                    len += k;
                    i + k
                }
                None => {
                    (i, len) = (i + copied, len + copied);
                    let end = next_byte(src, i, b'\\');
                    let piece = src.get(i..end).unwrap_or(&[]);
                    if let Some(dst) = scratch.get_mut(len..len + piece.len()) {
                        dst.copy_from_slice(piece);
                    }
                    len += piece.len();
                    end
                }
            };
            let Some(&letter) = src.get(end + 1) else {
                break;
            };
            let simple = match one_letter(letter) {
                Some(simple) => simple,
                None => {
                    let mut chars = Chars {
                        rest: self.text.get(end..).unwrap_or(""),
                        escaped: true,
                    };
                    let c = chars.next().unwrap_or('\u{FFFD}');
                    let mut buf = [0u8; 4];
                    let enc = c.encode_utf8(&mut buf).as_bytes();
                    if let Some(dst) = scratch.get_mut(len..len + enc.len()) {
                        dst.copy_from_slice(enc);
                    }
                    len += enc.len();
                    i = src.len() - chars.rest.len();
                    continue;
                }
            };
            if let Some(dst) = scratch.get_mut(len) {
                *dst = simple;
            }
            len += 1;
            i = end + 2;
        }
        let out = scratch
            .get(..len)
            .ok_or(EncodeError::BufferTooSmall { needed: len })?;
        core::str::from_utf8(out).map_err(|_| EncodeError::BufferTooSmall { needed: len })
    }

    /// [`JsonStr::unescape_into`] as compact targets run it ([`crate::WIDE`]): one character
    /// at a time. The same answer, errors too (`json::tests`).
    pub(crate) fn unescape_by_chars<'b>(
        &self,
        scratch: &'b mut [u8],
    ) -> Result<&'b str, EncodeError>
    where
        'a: 'b,
    {
        let mut len = 0;
        for c in self.chars() {
            let mut buf = [0u8; 4];
            let enc = c.encode_utf8(&mut buf).as_bytes();
            if let Some(dst) = scratch.get_mut(len..len + enc.len()) {
                dst.copy_from_slice(enc);
            }
            len += enc.len();
        }
        let out = scratch
            .get(..len)
            .ok_or(EncodeError::BufferTooSmall { needed: len })?;
        core::str::from_utf8(out).map_err(|_| EncodeError::BufferTooSmall { needed: len })
    }

    /// The decoded value, borrowed when there are no escapes.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn to_cow(&self) -> alloc::borrow::Cow<'a, str> {
        match self.as_str() {
            Some(s) => alloc::borrow::Cow::Borrowed(s),
            None => alloc::borrow::Cow::Owned(self.chars().collect()),
        }
    }

    /// Whether the decoded value equals `other`.
    #[must_use]
    pub fn eq_str(&self, other: &str) -> bool {
        if self.has_escapes() {
            self.chars().eq(other.chars())
        } else {
            self.text == other
        }
    }
}

/// The fast part of [`JsonStr::unescape_into`] (speed only, [`WIDE`]): from source offset
/// `i` and output length `len`, copies 8-byte words and decodes the one-letter escapes in
/// between, while a whole word fits in both buffers; stops before a `\u` escape or that
/// end and returns where it stopped, for the general loop to go on from.
#[inline]
fn unescape_words(src: &[u8], scratch: &mut [u8], mut i: usize, mut len: usize) -> (usize, usize) {
    loop {
        let (Some(w), Some(o)) = (
            src.get(i..i + 8).and_then(<[u8]>::first_chunk::<8>),
            scratch
                .get_mut(len..len + 8)
                .and_then(<[u8]>::first_chunk_mut::<8>),
        ) else {
            return (i, len);
        };
        *o = *w;
        let m = byte_mask(u64::from_le_bytes(*w), b'\\');
        if m == 0 {
            (i, len) = (i + 8, len + 8);
            continue;
        }
        let k = (m.trailing_zeros() / 8) as usize;
        let Some(byte) = src.get(i + k + 1).and_then(|&letter| one_letter(letter)) else {
            return (i + k, len + k);
        };
        if let Some(dst) = o.get_mut(k) {
            *dst = byte;
        }
        (i, len) = (i + k + 2, len + k + 1);
    }
}

/// The byte a one-letter escape `\letter` stands for (`\u` and invalid letters: `None`).
#[inline(always)]
pub(crate) const fn one_letter(letter: u8) -> Option<u8> {
    Some(match letter {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'b' => 0x08,
        b'f' => 0x0c,
        _ => return None,
    })
}

impl PartialEq for JsonStr<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self.has_escapes(), other.has_escapes()) {
            (false, false) => self.text == other.text,
            _ => self.chars().eq(other.chars()),
        }
    }
}

impl Eq for JsonStr<'_> {}

impl PartialEq<str> for JsonStr<'_> {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for JsonStr<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

impl Hash for JsonStr<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut buf = [0u8; 4];
        for c in self.chars() {
            state.write(c.encode_utf8(&mut buf).as_bytes());
        }
        state.write_u8(0xff);
    }
}

impl fmt::Display for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.has_escapes() {
            return f.write_str(self.text);
        }
        self.chars().try_for_each(|c| fmt::Write::write_char(f, c))
    }
}

impl fmt::Debug for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, '"')?;
        for c in self.chars() {
            for e in c.escape_debug() {
                fmt::Write::write_char(f, e)?;
            }
        }
        fmt::Write::write_char(f, '"')
    }
}

/// The decoded characters of a [`JsonStr`].
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    rest: &'a str,
    escaped: bool,
}

impl<'a> Chars<'a> {
    /// The characters of a validated body with escapes.
    pub(crate) const fn escaped(rest: &'a str) -> Self {
        Self {
            rest,
            escaped: true,
        }
    }

    fn take_unit(&mut self) -> Option<u16> {
        let unit = hex4(self.rest.as_bytes(), 0)?;
        self.rest = self.rest.get(4..)?;
        Some(unit)
    }
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let mut it = self.rest.chars();
        let c = it.next()?;
        self.rest = it.as_str();
        if c != '\\' || !self.escaped {
            return Some(c);
        }
        let e = it.next()?;
        self.rest = it.as_str();
        Some(match e {
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let hi = u32::from(self.take_unit().unwrap_or(0xFFFD));
                // One conversion for both forms (a pair, or one unit).
                let code = if (0xD800..0xDC00).contains(&hi) && self.rest.starts_with("\\u") {
                    self.rest = self.rest.get(2..).unwrap_or("");
                    let lo = self.take_unit().unwrap_or(0);
                    0x10000 + ((hi - 0xD800) << 10) + u32::from(lo).wrapping_sub(0xDC00)
                } else {
                    hi
                };
                char::from_u32(code).unwrap_or('\u{FFFD}')
            }
            other => other, // `"`, `\`, `/`
        })
    }
}
