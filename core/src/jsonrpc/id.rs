//! [`RequestId`]: a JSON-RPC id that keeps its JSON type (docs/rules.md §1.1, §11.3).

use core::fmt;

use super::error::EnvelopeError;
use crate::json::{Encode, EncodeError, JsonKind, JsonSink, JsonStr, RawJson, Writer};

/// A request id: a string or an integer, never `null` (docs/rules.md §1.1).
///
/// The JSON type is kept, so an id echoed into an error response or into
/// `_meta["io.modelcontextprotocol/subscriptionId"]` stays a string or a number as the peer
/// sent it (docs/rules.md §11.3). Integers beyond `i64` (and so beyond 2^53) are kept exactly as
/// their digits.
///
/// ```
/// use mcp_context::json::RawJson;
/// use mcp_context::jsonrpc::RequestId;
/// let big = RawJson::parse(b"123456789012345678901234567890").unwrap();
/// let id = RequestId::from_json(big).unwrap();
/// assert_eq!(id, RequestId::BigInt("123456789012345678901234567890"));
/// assert_eq!(RequestId::from_json(RawJson::parse(b"42").unwrap()), Ok(RequestId::Int(42)));
/// assert!(RequestId::from_json(RawJson::parse(b"1.5").unwrap()).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestId<'a> {
    /// A string id.
    Str(JsonStr<'a>),
    /// An integer id that fits `i64`.
    Int(i64),
    /// An integer id beyond `i64`, as its decimal digits (with an optional leading `-`).
    BigInt(&'a str),
}

impl<'a> RequestId<'a> {
    /// A string id.
    #[must_use]
    pub const fn str(s: &'a str) -> Self {
        Self::Str(JsonStr::new(s))
    }

    /// Reads an id.
    ///
    /// # Errors
    /// [`EnvelopeError::NullId`] for `null`; [`EnvelopeError::InvalidId`] for anything but a
    /// string or an integer literal (`1.0` and `1e2` are refused: ids are compared exactly).
    pub fn from_json(v: RawJson<'a>) -> Result<Self, EnvelopeError> {
        match v.kind() {
            JsonKind::String => v.as_str().map(Self::Str).ok_or(EnvelopeError::InvalidId),
            JsonKind::Number => {
                let n = v.as_number().ok_or(EnvelopeError::InvalidId)?;
                if !n.is_integer_literal() {
                    return Err(EnvelopeError::InvalidId);
                }
                if !crate::WIDE {
                    return Ok(match digits_i64(n.as_str()) {
                        Some(i) => Self::Int(i),
                        None => Self::BigInt(n.as_str()),
                    });
                }
                Ok(match n.as_str().parse::<i64>() {
                    Ok(i) => Self::Int(i),
                    Err(_) => Self::BigInt(n.as_str()),
                })
            }
            JsonKind::Null => Err(EnvelopeError::NullId),
            _ => Err(EnvelopeError::InvalidId),
        }
    }

    /// Whether the id is a JSON string.
    #[must_use]
    pub const fn is_string(&self) -> bool {
        matches!(self, Self::Str(_))
    }

    /// The id as an owned value.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn to_owned_id(&self) -> OwnedRequestId {
        match self {
            Self::Str(s) => OwnedRequestId::Str(s.to_cow().into_owned()),
            Self::Int(i) => OwnedRequestId::Int(*i),
            Self::BigInt(d) => OwnedRequestId::BigInt(alloc::string::String::from(*d)),
        }
    }
}

impl Encode for RequestId<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        match self {
            Self::Str(s) => w.json_str(*s),
            Self::Int(i) => w.i64(*i),
            Self::BigInt(d) => match crate::json::Number::parse(d) {
                Some(n) if n.is_integer_literal() => w.number(n),
                _ => Err(EncodeError::InvalidValue { what: &"id" }),
            },
        }
    }
}

/// `s.parse::<i64>().ok()` as one small loop (an optional sign, then at least one ASCII
/// digit; `None` on anything else or out of range): how compact targets (`crate::WIDE`) read
/// integer ids and error codes, in a fraction of core's generic parser. Same answers
/// (`tests::digit_loop_matches_core_parse`).
pub(crate) fn digits_i64(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        all => (false, all),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        // From 2^60 on, one more digit is past 2^63 (out of range for both signs) and
        // below it `v * 10 + 9` fits `u64`.
        if v >= 1 << 60 {
            return None;
        }
        v = v * 10 + u64::from(d);
    }
    if neg {
        (v <= 1 << 63).then(|| 0i64.wrapping_sub_unsigned(v))
    } else {
        i64::try_from(v).ok()
    }
}

impl fmt::Display for RequestId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Str(s) => write!(f, "{s:?}"),
            Self::Int(i) => write!(f, "{i}"),
            Self::BigInt(d) => f.write_str(d),
        }
    }
}

/// An owned [`RequestId`] (feature `alloc`), for state machines that outlive the input.
#[cfg(feature = "alloc")]
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OwnedRequestId {
    /// A string id.
    Str(alloc::string::String),
    /// An integer id that fits `i64`.
    Int(i64),
    /// An integer id beyond `i64`, as decimal digits.
    BigInt(alloc::string::String),
}

#[cfg(feature = "alloc")]
impl OwnedRequestId {
    /// Borrows as a [`RequestId`].
    #[must_use]
    pub fn as_ref(&self) -> RequestId<'_> {
        match self {
            Self::Str(s) => RequestId::Str(JsonStr::new(s)),
            Self::Int(i) => RequestId::Int(*i),
            Self::BigInt(d) => RequestId::BigInt(d),
        }
    }
}

#[cfg(feature = "alloc")]
impl From<i64> for OwnedRequestId {
    fn from(i: i64) -> Self {
        Self::Int(i)
    }
}

#[cfg(feature = "alloc")]
impl From<&str> for OwnedRequestId {
    fn from(s: &str) -> Self {
        Self::Str(s.into())
    }
}

#[cfg(feature = "alloc")]
impl Encode for OwnedRequestId {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        self.as_ref().encode(w)
    }
}

#[cfg(test)]
mod tests {
    use super::digits_i64;
    use std::format;
    use std::string::ToString;

    /// The compact targets' digit loop answers as `str::parse::<i64>`.
    #[test]
    fn digit_loop_matches_core_parse() {
        let cases = [
            "",
            "-",
            "+",
            "0",
            "-0",
            "+0",
            "7",
            "-7",
            "+7",
            "007",
            "12a",
            "a12",
            " 1",
            "1 ",
            "--1",
            "+-1",
            "1.5",
            "1e3",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999",
            "-99999999999999999999",
            "123456789012345678901234567890",
            "\u{0}1",
            "\u{663}",
        ];
        for s in cases {
            assert_eq!(digits_i64(s), s.parse::<i64>().ok(), "{s:?}");
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = x as i64 >> (x % 64);
            for s in [
                v.to_string(),
                format!("+{v}"),
                format!("{v}9"),
                format!("-{v}"),
            ] {
                assert_eq!(digits_i64(&s), s.parse::<i64>().ok(), "{s:?}");
            }
        }
    }
}
