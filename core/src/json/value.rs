//! [`RawJson`]: a validated JSON value borrowed from the input, with lazy, borrowing
//! navigation into objects and arrays.

use core::fmt;

use super::error::JsonError;
use super::number::Number;
use super::scan::{self, Limits, skip_string, skip_value, skip_ws};
use super::string::JsonStr;

/// The JSON type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The JSON name of the type (`"object"`, `"string"`, …).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "boolean",
            Self::Number => "number",
            Self::String => "string",
            Self::Array => "array",
            Self::Object => "object",
        }
    }
}

/// One complete, validated JSON value, borrowed from the input exactly as written.
///
/// Used for pass-through values the core does not interpret (`_meta`, `inputRequests`,
/// JSON Schemas, `experimental` capabilities) and as the starting point of every typed view.
/// A `RawJson` can only be made by validating text, so navigating it never fails on
/// grammar and never allocates.
///
/// ```
/// use mcp_context::json::{JsonKind, RawJson};
/// let v = RawJson::parse(br#"{"a": [1, "x"], "b": null}"#).unwrap();
/// assert_eq!(v.kind(), JsonKind::Object);
/// let a = v.get("a").unwrap();
/// assert_eq!(a.array().unwrap().count(), 2);
/// assert!(v.get("b").unwrap().is_null());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawJson<'a> {
    text: &'a str,
}

impl<'a> RawJson<'a> {
    /// `{}`.
    pub const EMPTY_OBJECT: RawJson<'static> = RawJson { text: "{}" };

    pub(crate) const fn from_validated(text: &'a str) -> Self {
        Self { text }
    }

    /// Validates `input` as one JSON value under [`Limits::DEFAULT`].
    ///
    /// # Errors
    /// [`JsonError`] when the bytes are not one valid JSON value within the limits.
    pub fn parse(input: &'a [u8]) -> Result<Self, JsonError> {
        scan::validate(input, Limits::DEFAULT)
    }

    /// Validates `input` as one JSON value under the given limits.
    ///
    /// # Errors
    /// [`JsonError`] when the bytes are not one valid JSON value within the limits.
    pub fn parse_with(input: &'a [u8], limits: Limits) -> Result<Self, JsonError> {
        scan::validate(input, limits)
    }

    /// The value's source text, exactly as written (no surrounding whitespace).
    #[must_use]
    pub const fn as_text(&self) -> &'a str {
        self.text
    }

    /// The JSON type of the value.
    #[must_use]
    pub fn kind(&self) -> JsonKind {
        match self.text.as_bytes().first() {
            Some(b'{') => JsonKind::Object,
            Some(b'[') => JsonKind::Array,
            Some(b'"') => JsonKind::String,
            Some(b't' | b'f') => JsonKind::Bool,
            Some(b'n') => JsonKind::Null,
            _ => JsonKind::Number,
        }
    }

    /// Whether the value is `null`.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.text == "null"
    }

    /// The value as a boolean.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self.text {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }

    /// The value as a string (still escaped; see [`JsonStr`]).
    #[must_use]
    pub fn as_str(&self) -> Option<JsonStr<'a>> {
        let inner = self.text.strip_prefix('"')?.strip_suffix('"')?;
        Some(JsonStr::from_source(
            inner,
            crate::has_byte(inner.as_bytes(), b'\\'),
        ))
    }

    /// The value as a number (its literal text).
    #[must_use]
    // Inlined on compact targets ([`crate::WIDE`]): less flash than the call.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn as_number(&self) -> Option<Number<'a>> {
        match self.kind() {
            JsonKind::Number => Some(Number::from_validated(self.text)),
            _ => None,
        }
    }

    /// The members of an object, in document order.
    #[must_use]
    // Inlined on compact targets ([`crate::WIDE`]): less flash than the call.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn object(&self) -> Option<ObjectIter<'a>> {
        self.text.starts_with('{').then_some(ObjectIter {
            text: self.text,
            pos: 1,
        })
    }

    /// The elements of an array, in document order.
    #[must_use]
    pub fn array(&self) -> Option<ArrayIter<'a>> {
        self.text.starts_with('[').then_some(ArrayIter {
            text: self.text,
            pos: 1,
        })
    }

    /// The first member of an object named `key` (compared after unescaping).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<RawJson<'a>> {
        self.object()?.find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl fmt::Display for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// The members of a JSON object: `(key, value)` pairs that borrow the input.
#[derive(Debug, Clone)]
pub struct ObjectIter<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for ObjectIter<'a> {
    type Item = (JsonStr<'a>, RawJson<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.text.as_bytes();
        let mut i = skip_ws(b, self.pos);
        if b.get(i) == Some(&b',') {
            i = skip_ws(b, i + 1);
        }
        if b.get(i) != Some(&b'"') {
            self.pos = b.len();
            return None;
        }
        let (key_end, escaped) = skip_string(b, i + 1);
        let key = self.text.get(i + 1..key_end.saturating_sub(1))?;
        let colon = skip_ws(b, key_end);
        let start = skip_ws(b, colon + 1);
        let end = skip_value(b, start);
        let value = self.text.get(start..end)?;
        self.pos = end;
        Some((
            JsonStr::from_source(key, escaped),
            RawJson::from_validated(value),
        ))
    }
}

/// The elements of a JSON array, borrowing the input.
#[derive(Debug, Clone)]
pub struct ArrayIter<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for ArrayIter<'a> {
    type Item = RawJson<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.text.as_bytes();
        let mut i = skip_ws(b, self.pos);
        if b.get(i) == Some(&b',') {
            i = skip_ws(b, i + 1);
        }
        match b.get(i) {
            None | Some(b']') => {
                self.pos = b.len();
                return None;
            }
            Some(_) => {}
        }
        let end = skip_value(b, i);
        let value = self.text.get(i..end)?;
        self.pos = end;
        Some(RawJson::from_validated(value))
    }
}
