//! The JSON writer: canonical compact output (no whitespace, minimal string escaping) into a
//! caller-owned `&mut [u8]`, any `core::fmt::Write`, or (feature `alloc`) a `String`/`Vec`.

use core::fmt;

use super::error::EncodeError;
use super::number::Number;
use super::string::JsonStr;
use super::value::RawJson;

/// Where encoded bytes go.
pub trait JsonSink {
    /// Appends UTF-8 text.
    ///
    /// # Errors
    /// [`EncodeError::Write`] when the destination fails.
    fn put(&mut self, s: &str) -> Result<(), EncodeError>;
}

/// Writes into a byte slice. When the slice is too small it keeps counting, so
/// [`SliceSink::finish`] can report the exact size needed.
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

impl JsonSink for SliceSink<'_> {
    #[inline]
    fn put(&mut self, s: &str) -> Result<(), EncodeError> {
        let end = self.len.saturating_add(s.len());
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(s.as_bytes());
        }
        self.len = end;
        Ok(())
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
}

#[cfg(feature = "alloc")]
impl JsonSink for alloc::vec::Vec<u8> {
    #[inline]
    fn put(&mut self, s: &str) -> Result<(), EncodeError> {
        self.extend_from_slice(s.as_bytes());
        Ok(())
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

    /// `}`
    ///
    /// # Errors
    /// When the sink fails.
    pub fn end_object(&mut self) -> R {
        self.first = false;
        self.sink.put("}")
    }

    /// `[`
    ///
    /// # Errors
    /// When the sink fails.
    pub fn begin_array(&mut self) -> R {
        self.sep()?;
        self.first = true;
        self.sink.put("[")
    }

    /// `]`
    ///
    /// # Errors
    /// When the sink fails.
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
        write_escaped(self.sink, key)?;
        self.sink.put(":")?;
        self.after_key = true;
        Ok(())
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
        write_escaped(self.sink, value)
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
        let mut buf = [0u8; 20];
        self.sink.put(format_u64(value, &mut buf))
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
        let mut buf = [0u8; 20];
        self.sink.put(format_u64(value.unsigned_abs(), &mut buf))
    }

    /// A finite floating-point number: integral values within ±2^53 as integers (`1`, not
    /// `1.0`), others in the shortest form that reads back to the same `f64`.
    ///
    /// # Errors
    /// [`EncodeError::InvalidValue`] for NaN or an infinity; otherwise when the sink fails.
    pub fn f64(&mut self, value: f64) -> R {
        if !value.is_finite() {
            return Err(EncodeError::InvalidValue { what: "number" });
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

fn format_u64(mut v: u64, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        let (q, digit) = div10(v);
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + digit;
        }
        v = q;
        if v == 0 || i == 0 {
            break;
        }
    }
    buf.get(i..)
        .and_then(|s| core::str::from_utf8(s).ok())
        .unwrap_or("0")
}

/// `(v / 10, v % 10)`. On 64-bit targets the compiler turns the `u64` division into a
/// multiplication, and wasm has a native 64-bit division; other 32-bit targets would link
/// the soft 64-bit divider (about 1 KiB of flash on a Cortex-M), so those take
/// [`div10_narrow`].
#[inline]
const fn div10(v: u64) -> (u64, u8) {
    if cfg!(any(target_pointer_width = "64", target_family = "wasm")) {
        (v / 10, (v % 10) as u8)
    } else {
        div10_narrow(v)
    }
}

/// `(v / 10, v % 10)` with 32-bit divisions only: long division by 10 in 16-bit steps keeps
/// every intermediate below `10 * 2^16`.
#[inline]
const fn div10_narrow(v: u64) -> (u64, u8) {
    let hi = (v >> 32) as u32;
    let lo = v as u32;
    if hi == 0 {
        return ((lo / 10) as u64, (lo % 10) as u8);
    }
    let (qh, r) = (hi / 10, hi % 10);
    let mid = (r << 16) | (lo >> 16);
    let (qm, r) = (mid / 10, mid % 10);
    let low = (r << 16) | (lo & 0xFFFF);
    let (ql, r) = (low / 10, low % 10);
    (
        ((qh as u64) << 32) | ((qm as u64) << 16) | ql as u64,
        r as u8,
    )
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// For each byte: 0 if it is written as is, else the letter of its escape (`u` = `\u00XX`).
// Indexing in a const initialiser: an out-of-bounds index fails the build, never at run time.
#[allow(clippy::indexing_slicing)]
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = b'u';
        c += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

#[inline]
fn escape_of(c: u8) -> Option<&'static str> {
    Some(match ESCAPE.get(usize::from(c)).copied().unwrap_or(0) {
        0 => return None,
        b'"' => "\\\"",
        b'\\' => "\\\\",
        b'n' => "\\n",
        b'r' => "\\r",
        b't' => "\\t",
        b'b' => "\\b",
        b'f' => "\\f",
        _ => "",
    })
}

fn put_control<S: JsonSink + ?Sized>(sink: &mut S, c: u8) -> R {
    let hi = HEX.get(usize::from(c >> 4)).copied().unwrap_or(b'0');
    let lo = HEX.get(usize::from(c & 0xf)).copied().unwrap_or(b'0');
    let seq = [b'\\', b'u', b'0', b'0', hi, lo];
    sink.put(core::str::from_utf8(&seq).unwrap_or("\\u0000"))
}

/// Writes `s` as a JSON string literal with minimal escaping: `"` `\` and control
/// characters only (short forms where JSON has them).
pub(crate) fn write_escaped<S: JsonSink + ?Sized>(sink: &mut S, s: &str) -> R {
    sink.put("\"")?;
    let b = s.as_bytes();
    let (mut start, mut i) = (0, 0);
    loop {
        // Skip 8 bytes at a time while none needs escaping.
        while let Some(chunk) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            if super::scan::word_has_special(u64::from_le_bytes(*chunk)) {
                break;
            }
            i += 8;
        }
        let Some(&c) = b.get(i) else { break };
        if let Some(esc) = escape_of(c) {
            sink.put(s.get(start..i).unwrap_or(""))?;
            if esc.is_empty() {
                put_control(sink, c)?;
            } else {
                sink.put(esc)?;
            }
            start = i + 1;
        }
        i += 1;
    }
    sink.put(s.get(start..).unwrap_or(""))?;
    sink.put("\"")
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
                if !matches!(escape_of(c), Some("")) {
                    return false; // a control character with a short form, written long
                }
                i = at + 6;
            }
            _ => return false, // `\/`, or any non-minimal escape
        }
    }
    true
}

fn write_json_str<S: JsonSink + ?Sized>(sink: &mut S, value: JsonStr<'_>) -> R {
    if value.is_sourced() && (!value.has_escapes() || is_canonical_body(value.source().as_bytes()))
    {
        // Read from JSON and already canonical: the bytes between the quotes are copied.
        sink.put("\"")?;
        sink.put(value.source())?;
        return sink.put("\"");
    }
    if !value.has_escapes() {
        return write_escaped(sink, value.source());
    }
    sink.put("\"")?;
    let mut buf = [0u8; 4];
    for c in value.chars() {
        let s: &str = c.encode_utf8(&mut buf);
        match u8::try_from(c).ok().and_then(escape_of) {
            Some("") => put_control(sink, s.as_bytes().first().copied().unwrap_or(0))?,
            Some(esc) => sink.put(esc)?,
            None => sink.put(s)?,
        }
    }
    sink.put("\"")
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

#[cfg(test)]
mod div_tests {
    fn check(p: u64) {
        assert_eq!(super::div10_narrow(p), (p / 10, (p % 10) as u8), "{p}");
    }

    #[test]
    fn narrow_division_by_ten_is_exact() {
        let edges = [
            0,
            9,
            10,
            u64::from(u32::MAX),
            u64::from(u32::MAX) + 1,
            u64::MAX - 9,
        ];
        edges.into_iter().chain([u64::MAX]).for_each(check);
        let mut v: u64 = 1;
        for _ in 0..20_000 {
            v = v
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            check(v);
            check(v >> 23);
        }
    }
}
