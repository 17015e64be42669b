//! The JSON writer: canonical compact output (no whitespace, minimal string escaping) into a
//! caller-owned `&mut [u8]`, any `core::fmt::Write`, or (feature `alloc`) a `String`/`Vec`.

use core::fmt;

use super::error::EncodeError;
use super::number::Number;
use super::string::JsonStr;
use super::value::RawJson;

mod escape;
mod int;
mod key;

use escape::{write_escaped, write_json_str};
use int::format_u64;
#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
use int::{decimal_len, div10};
pub(crate) use key::{Key, key};

/// Where encoded bytes go.
pub trait JsonSink {
    /// Appends UTF-8 text.
    ///
    /// # Errors
    /// [`EncodeError::Write`] when the destination fails.
    fn put(&mut self, s: &str) -> Result<(), EncodeError>;

    /// Appends `s` between double quotes (`s` needs no escaping: the writer checked).
    ///
    /// # Errors
    /// [`EncodeError::Write`] when the destination fails.
    #[inline]
    fn put_quoted(&mut self, s: &str) -> Result<(), EncodeError> {
        self.put("\"")?;
        self.put(s)?;
        self.put("\"")
    }

    /// Appends `s` as a JSON string literal, escaped minimally: `"` `\` and control
    /// characters only, with JSON's short forms where it has them.
    ///
    /// # Errors
    /// [`EncodeError::Write`] when the destination fails.
    #[inline]
    fn put_escaped(&mut self, s: &str) -> Result<(), EncodeError> {
        write_escaped(self, s)
    }

    /// Appends `v` in decimal.
    ///
    /// # Errors
    /// [`EncodeError::Write`] when the destination fails.
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(never)
    )]
    fn put_u64(&mut self, v: u64) -> Result<(), EncodeError> {
        let mut buf = [0u8; 20];
        self.put(format_u64(v, &mut buf))
    }
}

/// Writes into a byte slice. When the slice is too small it keeps counting, so
/// [`SliceSink::finish`] can report the exact size needed. Bytes past the length written
/// may be overwritten (strings are stored eight bytes at a time).
#[derive(Debug)]
pub struct SliceSink<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl<'b> SliceSink<'b> {
    /// A sink over `buf`.
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self { buf, len: 0 }
    }

    /// The number of bytes written.
    ///
    /// # Errors
    /// [`EncodeError::BufferTooSmall`] with the full length when the output did not fit.
    pub fn finish(self) -> Result<usize, EncodeError> {
        if self.len > self.buf.len() {
            Err(EncodeError::BufferTooSmall { needed: self.len })
        } else {
            Ok(self.len)
        }
    }
}

impl SliceSink<'_> {
    /// Appends `s` (counted past the end of the buffer, see [`SliceSink::finish`]).
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(never)
    )]
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    fn append(&mut self, s: &str) {
        let end = self.len.saturating_add(s.len());
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(s.as_bytes());
        }
        self.len = end;
    }
}

impl JsonSink for SliceSink<'_> {
    // Always inlined where the copy is out of line (compact targets, [`crate::WIDE`]): the
    // writer's callers then see that a slice never fails, and drop their error paths.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    fn put(&mut self, s: &str) -> Result<(), EncodeError> {
        self.append(s);
        Ok(())
    }

    #[inline]
    fn put_quoted(&mut self, s: &str) -> Result<(), EncodeError> {
        let end = self.len.saturating_add(s.len()).saturating_add(2);
        if let Some((open, rest)) = self
            .buf
            .get_mut(self.len..end)
            .and_then(<[u8]>::split_first_mut)
        {
            *open = b'"';
            if let Some((close, body)) = rest.split_last_mut() {
                *close = b'"';
                copy(body, s.as_bytes());
            }
        }
        self.len = end;
        Ok(())
    }

    #[inline]
    fn put_escaped(&mut self, s: &str) -> Result<(), EncodeError> {
        if !cfg!(any(target_pointer_width = "64", target_family = "wasm")) {
            // Microcontrollers keep the smaller careful path: the word-at-a-time writer is
            // about 2 KiB of code there, and each `u64` step takes two 32-bit registers.
            return write_escaped(self, s);
        }
        let first = escape::next_special(s.as_bytes(), 0);
        if first >= s.len() {
            return self.put_quoted(s);
        }
        match escape::escape_into(self.buf, self.len, s.as_bytes(), first) {
            Some(end) => {
                self.len = end;
                Ok(())
            }
            None => write_escaped(self, s),
        }
    }

    // Wide targets only: compact ones ([`crate::WIDE`]) take the sinks' shared form (the same
    // digits, `int::tests`).
    #[cfg(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    ))]
    #[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), inline)]
    fn put_u64(&mut self, mut v: u64) -> Result<(), EncodeError> {
        // The digits go straight into the buffer, last first.
        let n = decimal_len(v);
        let end = self.len.saturating_add(n);
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            for slot in dst.iter_mut().rev() {
                let (q, digit) = div10(v);
                *slot = b'0' + digit;
                v = q;
            }
        }
        self.len = end;
        Ok(())
    }
}

/// `dst.copy_from_slice(src)` (equal lengths), with the short copies the messages are made
/// of (keys, names, URIs) done inline as two overlapping moves instead of a call.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn copy(dst: &mut [u8], src: &[u8]) {
    if !crate::WIDE {
        // Compact targets: one `memcpy` call (the inline moves are code on every length).
        dst.copy_from_slice(src);
        return;
    }
    fn two<const N: usize>(dst: &mut [u8], src: &[u8]) {
        if let (Some(d), Some(s)) = (dst.first_chunk_mut::<N>(), src.first_chunk::<N>()) {
            *d = *s;
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
            *d = *s;
        }
    }
    match src.len() {
        0 => {}
        1 => two::<1>(dst, src),
        2..=3 => two::<2>(dst, src),
        4..=7 => two::<4>(dst, src),
        8..=16 => two::<8>(dst, src),
        17..=32 => two::<16>(dst, src),
        _ => dst.copy_from_slice(src),
    }
}

/// Writes into any `core::fmt::Write`.
#[derive(Debug)]
pub struct FmtSink<'w, W: fmt::Write + ?Sized>(pub &'w mut W);

impl<W: fmt::Write + ?Sized> JsonSink for FmtSink<'_, W> {
    #[inline]
    fn put(&mut self, s: &str) -> Result<(), EncodeError> {
        self.0.write_str(s).map_err(|_| EncodeError::Write)
    }
}

#[cfg(feature = "alloc")]
impl JsonSink for alloc::string::String {
    #[inline]
    fn put(&mut self, s: &str) -> Result<(), EncodeError> {
        self.push_str(s);
        Ok(())
    }

    #[inline]
    fn put_quoted(&mut self, s: &str) -> Result<(), EncodeError> {
        self.reserve(s.len() + 2);
        self.push('"');
        self.push_str(s);
        self.push('"');
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl JsonSink for alloc::vec::Vec<u8> {
    #[inline]
    fn put(&mut self, s: &str) -> Result<(), EncodeError> {
        self.extend_from_slice(s.as_bytes());
        Ok(())
    }

    #[inline]
    fn put_quoted(&mut self, s: &str) -> Result<(), EncodeError> {
        self.reserve(s.len() + 2);
        self.push(b'"');
        self.extend_from_slice(s.as_bytes());
        self.push(b'"');
        Ok(())
    }

    /// As [`SliceSink`]'s: the word-at-a-time writer, into room made at the end (the
    /// string, its quotes, a few escapes, and the eight bytes the writer may store past its
    /// end); a string with more escapes than that room takes the careful path.
    #[inline]
    fn put_escaped(&mut self, s: &str) -> Result<(), EncodeError> {
        if !cfg!(any(target_pointer_width = "64", target_family = "wasm")) {
            return write_escaped(self, s);
        }
        let first = escape::next_special(s.as_bytes(), 0);
        if first >= s.len() {
            return self.put_quoted(s);
        }
        let at = self.len();
        self.resize(at + s.len() + s.len() / 4 + 24, 0);
        if let Some(end) = escape::escape_into(self, at, s.as_bytes(), first) {
            self.truncate(end);
            return Ok(());
        }
        self.truncate(at);
        write_escaped(self, s)
    }
}

/// A streaming JSON writer that places commas and colons itself.
///
/// ```
/// use mcp_context::json::Writer;
/// let mut out = String::new();
/// let mut w = Writer::new(&mut out);
/// w.begin_object().unwrap();
/// w.key("a").unwrap();
/// w.str("x\"y").unwrap();
/// w.key("b").unwrap();
/// w.begin_array().unwrap();
/// w.u64(1).unwrap();
/// w.bool(true).unwrap();
/// w.end_array().unwrap();
/// w.end_object().unwrap();
/// assert_eq!(out, r#"{"a":"x\"y","b":[1,true]}"#);
/// ```
pub struct Writer<'s, S: JsonSink + ?Sized> {
    sink: &'s mut S,
    first: bool,
    after_key: bool,
}

impl<S: JsonSink + ?Sized> fmt::Debug for Writer<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Writer").finish_non_exhaustive()
    }
}

type R = Result<(), EncodeError>;

impl<'s, S: JsonSink + ?Sized> Writer<'s, S> {
    /// A writer at the start of one top-level value.
    pub fn new(sink: &'s mut S) -> Self {
        Self {
            sink,
            first: true,
            after_key: false,
        }
    }

    #[inline]
    fn sep(&mut self) -> R {
        if self.after_key {
            self.after_key = false;
        } else if !self.first {
            self.sink.put(",")?;
        }
        self.first = false;
        Ok(())
    }

    /// `{`
    ///
    /// # Errors
    /// When the sink fails.
    pub fn begin_object(&mut self) -> R {
        self.sep()?;
        self.first = true;
        self.sink.put("{")
    }

    /// `{` and the object's first members, pre-encoded (`{"jsonrpc":"2.0"`): the next key
    /// takes a comma.
    ///
    /// # Errors
    /// When the sink fails.
    #[inline]
    pub(crate) fn begin_object_with(&mut self, head: &'static str) -> R {
        self.sep()?;
        self.first = false;
        self.sink.put(head)
    }

    /// `}`
    ///
    /// # Errors
    /// When the sink fails.
    // Always inlined on compact targets ([`crate::WIDE`]): into a [`SliceSink`] the callers'
    // error checks then fold away, in less flash than the call (both footprint images).
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn end_object(&mut self) -> R {
        self.first = false;
        self.sink.put("}")
    }

    /// `[`
    ///
    /// # Errors
    /// When the sink fails.
    // Always inlined on compact targets ([`crate::WIDE`]): into a [`SliceSink`] the callers'
    // error checks then fold away, in less flash than the call (both footprint images).
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn begin_array(&mut self) -> R {
        self.sep()?;
        self.first = true;
        self.sink.put("[")
    }

    /// `]`
    ///
    /// # Errors
    /// When the sink fails.
    // Always inlined on compact targets ([`crate::WIDE`]): into a [`SliceSink`] the callers'
    // error checks then fold away, in less flash than the call (both footprint images).
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn end_array(&mut self) -> R {
        self.first = false;
        self.sink.put("]")
    }

    /// An object key; the next call writes its value.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn key(&mut self, key: &str) -> R {
        self.sep()?;
        self.sink.put_escaped(key)?;
        self.sink.put(":")?;
        self.after_key = true;
        Ok(())
    }

    /// An object key written from its pre-encoded form (one copy, comma included).
    ///
    /// # Errors
    /// When the sink fails.
    #[inline]
    pub(crate) fn key_of(&mut self, key: Key) -> R {
        let text = if self.first || self.after_key {
            key.bare()
        } else {
            key.with_comma()
        };
        self.first = false;
        self.after_key = true;
        self.sink.put(text)
    }

    /// A JSON text known valid at compile time (a quoted string literal without escapes,
    /// such as a string enum's wire name), copied as is.
    ///
    /// # Errors
    /// When the sink fails.
    #[inline]
    pub(crate) fn literal(&mut self, json: &'static str) -> R {
        self.sep()?;
        self.sink.put(json)
    }

    /// An object key held as a [`JsonStr`].
    ///
    /// # Errors
    /// When the sink fails.
    pub fn json_key(&mut self, key: JsonStr<'_>) -> R {
        self.sep()?;
        write_json_str(self.sink, key)?;
        self.sink.put(":")?;
        self.after_key = true;
        Ok(())
    }

    /// A string value, escaped minimally.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn str(&mut self, value: &str) -> R {
        self.sep()?;
        self.sink.put_escaped(value)
    }

    /// A string value held as a [`JsonStr`] (re-escaped canonically).
    ///
    /// # Errors
    /// When the sink fails.
    pub fn json_str(&mut self, value: JsonStr<'_>) -> R {
        self.sep()?;
        write_json_str(self.sink, value)
    }

    /// An unsigned integer.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn u64(&mut self, value: u64) -> R {
        self.sep()?;
        self.sink.put_u64(value)
    }

    /// A signed integer.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn i64(&mut self, value: i64) -> R {
        self.sep()?;
        if value < 0 {
            self.sink.put("-")?;
        }
        self.sink.put_u64(value.unsigned_abs())
    }

    /// A finite floating-point number: integral values within ±2^53 as integers (`1`, not
    /// `1.0`), others in the shortest form that reads back to the same `f64`.
    ///
    /// # Errors
    /// [`EncodeError::InvalidValue`] for NaN or an infinity; otherwise when the sink fails.
    pub fn f64(&mut self, value: f64) -> R {
        if !value.is_finite() {
            return Err(EncodeError::InvalidValue { what: &"number" });
        }
        if let Some(int) = super::float::exact_i64(value) {
            return self.i64(int);
        }
        self.sep()?;
        let mut buf = [0u8; super::float::MAX_LEN];
        let n = super::float::format(value, &mut buf).unwrap_or(0);
        self.sink
            .put(core::str::from_utf8(buf.get(..n).unwrap_or_default()).unwrap_or("0"))
    }

    /// A number kept as its literal text.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn number(&mut self, value: Number<'_>) -> R {
        self.sep()?;
        self.sink.put(value.as_str())
    }

    /// `true` or `false`.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn bool(&mut self, value: bool) -> R {
        self.sep()?;
        self.sink.put(if value { "true" } else { "false" })
    }

    /// `null`.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn null(&mut self) -> R {
        self.sep()?;
        self.sink.put("null")
    }

    /// A pass-through value, copied with the whitespace outside strings removed.
    ///
    /// # Errors
    /// When the sink fails.
    pub fn raw(&mut self, value: RawJson<'_>) -> R {
        self.sep()?;
        write_compact(self.sink, value.as_text())
    }
}

/// Copies validated JSON text, dropping whitespace outside strings.
fn write_compact<S: JsonSink + ?Sized>(sink: &mut S, text: &str) -> R {
    let b = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => i = super::scan::skip_string(b, i + 1).0,
            b' ' | b'\t' | b'\n' | b'\r' => {
                sink.put(text.get(start..i).unwrap_or(""))?;
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    sink.put(text.get(start..).unwrap_or(""))
}
