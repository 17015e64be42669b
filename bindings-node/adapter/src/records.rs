//! The fast paths' buffer formats, shared by both engines (the napi addon's `fast.rs` and the
//! wasm crate's `template.rs`): positional values in, match
//! records out. Only the buffers differ: napi writes into the caller's shared `Buffer`, wasm
//! into a `Vec<u32>` in its linear memory (`impl Words` for each).

use mcp_context::template::{Captures, Encoded, OwnedTemplate, Value, Variables};

/// The variable names of a template, each once, in template order.
pub fn names_of(t: &OwnedTemplate) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for spec in t.variables() {
        if !names.iter().any(|n| n == spec.name) {
            names.push(spec.name.to_string());
        }
    }
    names
}

/// String values by position, read where they lie in `buf`: `n` u32 lengths (native byte
/// order; `u32::MAX`: undefined), then the UTF-8 values back to back; value `i` is the value
/// of `names[i]`.
pub struct Positional<'a> {
    /// The template's variable names (`names_of`).
    pub names: &'a [String],
    /// The lengths, then the values.
    pub buf: &'a [u8],
    /// How many lengths `buf` starts with.
    pub n: usize,
}

impl Variables for Positional<'_> {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        let i = self.names.iter().take(self.n).position(|n| n == name)?;
        let mut at = 4 * self.n;
        for j in 0..i {
            let len = word(self.buf, 4 * j)?;
            if len != u32::MAX {
                at += len as usize;
            }
        }
        let len = word(self.buf, 4 * i)?;
        if len == u32::MAX {
            return None;
        }
        let bytes = self.buf.get(at..at + len as usize)?;
        // The glue writes UTF-8; anything else would be undefined, never a panic.
        core::str::from_utf8(bytes).ok().map(Value::Str)
    }
}

/// The u32 at byte `at` of `buf`, in native byte order (little-endian on wasm).
pub fn word(buf: &[u8], at: usize) -> Option<u32> {
    let b = buf.get(at..at + 4)?;
    Some(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
}

/// Where match records go. `Err(Full)` from `put`: no room left (the napi buffer).
pub trait Words {
    /// Appends `w`.
    fn put(&mut self, w: u32) -> Result<(), Full>;
    /// The position of the next word, for [`Words::patch`].
    fn mark(&self) -> usize;
    /// Overwrites the word written at `mark`.
    fn patch(&mut self, mark: usize, w: u32);
}

/// The record buffer is too small.
pub struct Full;

impl Words for Vec<u32> {
    fn put(&mut self, w: u32) -> Result<(), Full> {
        self.push(w);
        Ok(())
    }
    fn mark(&self) -> usize {
        self.len()
    }
    fn patch(&mut self, mark: usize, w: u32) {
        if let Some(slot) = self.get_mut(mark) {
            *slot = w;
        }
    }
}

/// Writes the records of a match into `out` (after what is there):
///
/// `k` (captures), then per capture: the index of its name in `names` (bit 31 set for an
/// exploded variable), for an exploded variable the number of values, then each value as
/// `start, end` in UTF-16 units: into the URI, or with bit 31 of `start` set into the decoded
/// text `decoded` (values that percent-decoding changed). A value whose decoding is not UTF-8
/// is given raw.
pub fn write_records<const N: usize>(
    out: &mut impl Words,
    uri: &str,
    names: &[String],
    caps: &Captures<'_, '_, N>,
    decoded: &mut Vec<u8>,
) -> Result<(), Full> {
    let mut spans = Spans {
        uri,
        ascii: uri.is_ascii(),
        decoded,
        decoded_utf16: 0,
    };
    out.put(u32::try_from(caps.iter().count()).unwrap_or(u32::MAX))?;
    for c in caps.iter() {
        let idx = names.iter().position(|n| n == c.name()).unwrap_or(0);
        let idx = u32::try_from(idx).unwrap_or(0);
        if c.is_exploded() {
            out.put(idx | 1 << 31)?;
            let count_at = out.mark();
            out.put(0)?;
            let mut count = 0u32;
            for v in c.values() {
                spans.value(out, v)?;
                count += 1;
            }
            out.patch(count_at, count);
        } else {
            out.put(idx)?;
            spans.value(out, c.value())?;
        }
    }
    Ok(())
}

/// Where each value of a match is, in UTF-16 units.
struct Spans<'a> {
    uri: &'a str,
    ascii: bool,
    decoded: &'a mut Vec<u8>,
    decoded_utf16: u32,
}

impl Spans<'_> {
    fn utf16(&self, byte: usize) -> u32 {
        let n = if self.ascii {
            byte
        } else {
            self.uri
                .get(..byte)
                .map_or(byte, |p| p.encode_utf16().count())
        };
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// A value's `start, end`: into the URI when it is a slice of it that needs no decoding,
    /// else (bit 31 of `start` set) into the decoded text, where it is appended.
    fn value(&mut self, out: &mut impl Words, v: Encoded<'_>) -> Result<(), Full> {
        let raw = v.raw();
        let start = (raw.as_ptr() as usize).wrapping_sub(self.uri.as_ptr() as usize);
        let in_uri = start <= self.uri.len() && self.uri.len() - start >= raw.len();
        if in_uri && !v.needs_decoding() {
            out.put(self.utf16(start))?;
            return out.put(self.utf16(start + raw.len()));
        }
        let decoded = &mut *self.decoded;
        let from = decoded.len();
        decoded.resize(from + raw.len(), 0);
        let piece_len = match v.decode_into(decoded.get_mut(from..).unwrap_or_default()) {
            Ok(s) => s.len(),
            Err(_) => {
                decoded.truncate(from);
                decoded.extend_from_slice(raw.as_bytes());
                raw.len()
            }
        };
        decoded.truncate(from + piece_len);
        let piece = core::str::from_utf8(decoded.get(from..).unwrap_or_default()).unwrap_or("");
        let units = u32::try_from(piece.encode_utf16().count()).unwrap_or(u32::MAX);
        out.put(self.decoded_utf16 | 1 << 31)?;
        self.decoded_utf16 = self.decoded_utf16.saturating_add(units);
        out.put(self.decoded_utf16)
    }
}
