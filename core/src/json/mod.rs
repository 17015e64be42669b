//! A small `no_std`, allocation-free JSON layer for MCP messages (RFC 8259).
//!
//! * [`validate`] / [`RawJson::parse`]: one iterative pass checks UTF-8, grammar, string
//!   escapes (surrogate pairs joined, lone surrogates rejected) and declared [`Limits`] on
//!   size and nesting depth. A nesting bomb is [`JsonErrorKind::TooDeep`], never a stack
//!   overflow.
//! * [`RawJson`]: a validated value borrowed from the input; [`ObjectIter`] and [`ArrayIter`]
//!   walk it lazily. [`JsonStr`] keeps strings escaped until asked; [`Number`] keeps numbers
//!   as literal text with checked `i64`/`u64`/`f64` accessors.
//! * [`Writer`] and [`Encode`]: canonical compact output (no whitespace, minimal escaping)
//!   into `&mut [u8]` ([`to_slice`], whose error carries the size needed), a
//!   `core::fmt::Write` ([`to_fmt`]), or a `String` ([`to_string`], feature `alloc`).
//!
//! Why not serde-json-core: it cannot unescape into `&str`, rejects surrogate pairs, has no
//! depth limit and panics on some inputs (see the project's binding notes).

pub(crate) mod cursor;
mod encode;
mod error;
pub(crate) mod fields;
pub(crate) mod float;
mod number;
pub(crate) mod scan;
mod string;
mod string_into;
mod value;
mod write;

pub use cursor::Cursor;
#[cfg(feature = "alloc")]
pub use encode::to_string;
pub use encode::{Encode, encoded_len, to_fmt, to_slice};
pub use error::{EncodeError, JsonError, JsonErrorKind};
pub use number::Number;
pub use scan::{Limits, validate};
pub use string::{Chars, JsonStr};
pub use value::{ArrayIter, JsonKind, ObjectIter, RawJson};
pub use write::{FmtSink, JsonSink, SliceSink, Writer};
pub(crate) use write::{Key, key};

#[cfg(all(test, feature = "alloc"))]
mod string_into_tests;
#[cfg(all(test, feature = "alloc"))]
mod tests;
