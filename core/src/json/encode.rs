//! [`Encode`]: values that write themselves as JSON, and the entry points that run an
//! encoder into a slice, a `fmt::Write` or (feature `alloc`) a `String`.

use core::fmt;

use super::error::EncodeError;
use super::string::JsonStr;
use super::value::RawJson;
use super::write::{FmtSink, JsonSink, Key, SliceSink, Writer};

/// A value that can write itself as canonical compact JSON.
pub trait Encode {
    /// Writes the value.
    ///
    /// # Errors
    /// When the sink fails or a field holds a value the schema forbids.
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError>;
}

impl<T: Encode + ?Sized> Encode for &T {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        (**self).encode(w)
    }
}

impl Encode for RawJson<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.raw(*self)
    }
}

impl Encode for JsonStr<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.json_str(*self)
    }
}

impl Encode for str {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.str(self)
    }
}

/// Encodes `value` into `buf` and returns the length written.
///
/// # Errors
/// [`EncodeError::BufferTooSmall`] with the exact size needed when `buf` is too small, or the
/// value's own error.
pub fn to_slice<E: Encode + ?Sized>(value: &E, buf: &mut [u8]) -> Result<usize, EncodeError> {
    let mut sink = SliceSink::new(buf);
    value.encode(&mut Writer::new(&mut sink))?;
    sink.finish()
}

/// Encodes `value` into a `core::fmt::Write`.
///
/// # Errors
/// [`EncodeError::Write`] when the writer fails, or the value's own error.
pub fn to_fmt<E: Encode + ?Sized, W: fmt::Write + ?Sized>(
    value: &E,
    out: &mut W,
) -> Result<(), EncodeError> {
    value.encode(&mut Writer::new(&mut FmtSink(out)))
}

/// Encodes `value` into a new `String`.
///
/// # Errors
/// The value's own error.
#[cfg(feature = "alloc")]
pub fn to_string<E: Encode + ?Sized>(value: &E) -> Result<alloc::string::String, EncodeError> {
    let mut out = alloc::string::String::new();
    value.encode(&mut Writer::new(&mut out))?;
    Ok(out)
}

/// The encoded length of `value`, without writing it anywhere.
///
/// # Errors
/// The value's own error.
pub fn encoded_len<E: Encode + ?Sized>(value: &E) -> Result<usize, EncodeError> {
    match to_slice(value, &mut []) {
        Ok(n) | Err(EncodeError::BufferTooSmall { needed: n }) => Ok(n),
        Err(e) => Err(e),
    }
}

impl Encode for bool {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.bool(*self)
    }
}

impl Encode for u64 {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.u64(*self)
    }
}

impl<S: JsonSink + ?Sized> Writer<'_, S> {
    /// `"key":value`.
    ///
    /// # Errors
    /// When the sink or the value's encoder fails.
    pub fn field<E: Encode + ?Sized>(&mut self, key: &str, value: &E) -> Result<(), EncodeError> {
        self.key(key)?;
        value.encode(self)
    }

    /// `"key":value` when `value` is `Some`; nothing otherwise.
    ///
    /// # Errors
    /// When the sink or the value's encoder fails.
    pub fn opt_field<E: Encode>(
        &mut self,
        key: &str,
        value: &Option<E>,
    ) -> Result<(), EncodeError> {
        match value {
            Some(v) => self.field(key, v),
            None => Ok(()),
        }
    }

    /// `"key":value` with a pre-encoded key (`key!`).
    ///
    /// # Errors
    /// When the sink or the value's encoder fails.
    #[inline]
    pub(crate) fn member<E: Encode + ?Sized>(
        &mut self,
        key: Key,
        value: &E,
    ) -> Result<(), EncodeError> {
        self.key_of(key)?;
        value.encode(self)
    }

    /// `"key":value` with a pre-encoded key when `value` is `Some`; nothing otherwise.
    ///
    /// # Errors
    /// When the sink or the value's encoder fails.
    #[inline]
    pub(crate) fn opt_member<E: Encode>(
        &mut self,
        key: Key,
        value: &Option<E>,
    ) -> Result<(), EncodeError> {
        match value {
            Some(v) => self.member(key, v),
            None => Ok(()),
        }
    }
}
