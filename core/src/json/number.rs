//! [`Number`]: a JSON number kept as its literal text, with checked accessors.

use core::fmt;

/// A JSON number, kept exactly as written so integers of any size survive a round trip.
///
/// ```
/// use mcp_context::json::Number;
/// let n = Number::parse("9007199254740993").unwrap(); // 2^53 + 1
/// assert_eq!(n.as_u64(), Some(9_007_199_254_740_993));
/// assert_eq!(Number::parse("6e4").unwrap().as_u64(), Some(60_000));
/// assert_eq!(Number::parse("0.5").unwrap().as_u64(), None);
/// assert!(Number::parse("01").is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number<'a>(&'a str);

impl<'a> Number<'a> {
    pub(crate) const fn from_validated(text: &'a str) -> Self {
        Self(text)
    }

    /// Checks `text` against the JSON number grammar (RFC 8259 §6).
    #[must_use]
    pub fn parse(text: &'a str) -> Option<Self> {
        let b = text.as_bytes();
        let end = super::scan::scan_number(b, 0).ok()?;
        (end == b.len()).then_some(Self(text))
    }

    /// The literal text.
    #[must_use]
    pub const fn as_str(&self) -> &'a str {
        self.0
    }

    /// Whether the literal has no fraction and no exponent.
    #[must_use]
    pub fn is_integer_literal(&self) -> bool {
        !self.0.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'))
    }

    /// The value as an `i64`: exact for integer literals in range, and for fraction or
    /// exponent forms whose value is integral and within ±2^53 (`1.0`, `6e4`).
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        if self.is_integer_literal() {
            return self.0.parse().ok();
        }
        super::float::exact_i64(self.as_f64()?)
    }

    /// The value as a `u64`, under the same rules as [`Number::as_i64`].
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        if self.is_integer_literal() {
            // `-0` is zero (JSON allows the sign on a zero; `u64`'s parser refuses it).
            let digits = match self.0.strip_prefix('-') {
                Some(d) if !self.is_negative() => d,
                _ => self.0,
            };
            return digits.parse().ok();
        }
        u64::try_from(self.as_i64()?).ok()
    }

    /// The value as a finite `f64` (nearest representable value).
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        super::float::parse(self.0).filter(|f| f.is_finite())
    }

    /// Whether the value is an integer (an integer literal, or an integral fraction or
    /// exponent form); JSON Schema's `integer`.
    #[must_use]
    pub fn is_integer(&self) -> bool {
        self.is_integer_literal() || self.as_i64().is_some()
    }

    /// Whether the value is below zero (`-0` is not).
    #[must_use]
    pub fn is_negative(&self) -> bool {
        self.0.starts_with('-') && self.mantissa_nonzero()
    }

    fn mantissa_nonzero(&self) -> bool {
        self.0
            .bytes()
            .take_while(|c| !matches!(c, b'e' | b'E'))
            .any(|c| matches!(c, b'1'..=b'9'))
    }
}

impl fmt::Debug for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}
