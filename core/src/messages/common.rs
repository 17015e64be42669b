//! Shared pieces of every view: decode helpers, the small string enums (`resultType`,
//! `cacheScope`, `role`, `logLevel`, icon `theme`) and `priority`.

use core::fmt;

use crate::json::fields::Fields;
use crate::json::{Encode, EncodeError, JsonKind, JsonSink, JsonStr, Number, RawJson, Writer};
use crate::jsonrpc::{FromJson, ParamsError, ParamsErrorKind};

pub(crate) type Enc = Result<(), EncodeError>;

/// The members of `v`, which must be an object (else `WrongType` on `field`).
pub(crate) fn fields<'a>(
    v: RawJson<'a>,
    names: &'static [&'static str],
    field: &'static str,
) -> Result<Fields<'a>, ParamsError> {
    Fields::new(v, names).ok_or(ParamsError::wrong_type(field))
}

/// The next known member; a duplicate known key is a `Duplicate` error.
pub(crate) fn next<'a>(f: &mut Fields<'a>) -> Result<Option<(usize, RawJson<'a>)>, ParamsError> {
    f.next_known().map_err(ParamsError::duplicate)
}

pub(crate) fn string<'a>(v: RawJson<'a>, field: &'static str) -> Result<JsonStr<'a>, ParamsError> {
    v.as_str().ok_or(ParamsError::wrong_type(field))
}

pub(crate) fn boolean(v: RawJson<'_>, field: &'static str) -> Result<bool, ParamsError> {
    v.as_bool().ok_or(ParamsError::wrong_type(field))
}

pub(crate) fn object<'a>(v: RawJson<'a>, field: &'static str) -> Result<RawJson<'a>, ParamsError> {
    if v.kind() == JsonKind::Object {
        Ok(v)
    } else {
        Err(ParamsError::wrong_type(field))
    }
}

/// A non-negative integer (`size`, `total`).
pub(crate) fn count(v: RawJson<'_>, field: &'static str) -> Result<u64, ParamsError> {
    let n = v.as_number().ok_or(ParamsError::wrong_type(field))?;
    if !n.is_integer() {
        return Err(ParamsError::wrong_type(field));
    }
    if n.is_negative() {
        return Err(ParamsError::new(ParamsErrorKind::OutOfRange, field));
    }
    Ok(n.as_u64().unwrap_or(u64::MAX))
}

/// `ttlMs`: an integer; a negative value reads as 0 (DIGEST §4: "SHOULD ignore it and
/// treat it as 0"); a huge one saturates.
pub(crate) fn ttl(v: RawJson<'_>) -> Result<u64, ParamsError> {
    let n = v.as_number().ok_or(ParamsError::wrong_type("ttlMs"))?;
    if n.is_negative() {
        return Ok(0);
    }
    if !n.is_integer() {
        return Err(ParamsError::wrong_type("ttlMs"));
    }
    Ok(n.as_u64().unwrap_or(u64::MAX))
}

pub(crate) fn required<T>(v: Option<T>, field: &'static str) -> Result<T, ParamsError> {
    v.ok_or(ParamsError::missing(field))
}

impl<'a> FromJson<'a> for JsonStr<'a> {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        string(v, ParamsError::ITEM)
    }
}

macro_rules! string_enum {
    ($(#[$doc:meta])* $name:ident, $field:literal { $( $(#[$vdoc:meta])* $variant:ident = $text:literal ),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vdoc])* #[doc = concat!("`\"", $text, "\"`")] $variant, )*
        }

        impl $name {
            /// The wire string.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $( Self::$variant => $text, )* }
            }

            /// The value for a wire string.
            #[must_use]
            pub fn from_name(s: &str) -> Option<Self> {
                match s { $( $text => Some(Self::$variant), )* _ => None }
            }
        }

        impl<'a> FromJson<'a> for $name {
            fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
                let s = string(v, $field)?;
                let mut buf = [0u8; 16];
                let s = s.unescape_into(&mut buf)
                    .map_err(|_| ParamsError::new(ParamsErrorKind::UnknownValue, $field))?;
                Self::from_name(s).ok_or(ParamsError::new(ParamsErrorKind::UnknownValue, $field))
            }
        }

        impl Encode for $name {
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
                w.str(self.as_str())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// How to read a result (DIGEST §1.2). Absent means `Complete` (legacy servers); any
    /// other value is invalid.
    ResultType, "resultType" {
        /// Final content.
        Complete = "complete",
        /// An `InputRequiredResult` (DIGEST §13).
        InputRequired = "input_required",
    }
}

string_enum! {
    /// Who may reuse a cached result (DIGEST §4).
    CacheScope, "cacheScope" {
        /// Shareable with any user.
        Public = "public",
        /// Reusable only within the same authorization context.
        Private = "private",
    }
}

string_enum! {
    /// A message sender or an annotation audience (DIGEST §9, §14.3).
    Role, "role" {
        /// The end user.
        User = "user",
        /// The model.
        Assistant = "assistant",
    }
}

string_enum! {
    /// A requested log level (`io.modelcontextprotocol/logLevel`, DIGEST §1.1).
    LoggingLevel, "io.modelcontextprotocol/logLevel" {
        /// Debug.
        Debug = "debug",
        /// Info.
        Info = "info",
        /// Notice.
        Notice = "notice",
        /// Warning.
        Warning = "warning",
        /// Error.
        Error = "error",
        /// Critical.
        Critical = "critical",
        /// Alert.
        Alert = "alert",
        /// Emergency.
        Emergency = "emergency",
    }
}

string_enum! {
    /// The background an icon is drawn for.
    Theme, "theme" {
        /// A light background.
        Light = "light",
        /// A dark background.
        Dark = "dark",
    }
}

/// An annotation priority in `[0, 1]` (DIGEST §14.3): 1 is "most important".
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Priority(f64);

impl Priority {
    /// A priority, when `value` is within `[0, 1]`.
    #[must_use]
    pub fn new(value: f64) -> Option<Self> {
        (0.0..=1.0).contains(&value).then_some(Self(value))
    }

    /// The value.
    #[must_use]
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl<'a> FromJson<'a> for Priority {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        let n: Number<'_> = v.as_number().ok_or(ParamsError::wrong_type("priority"))?;
        n.as_f64()
            .and_then(Self::new)
            .ok_or(ParamsError::new(ParamsErrorKind::OutOfRange, "priority"))
    }
}

impl Encode for Priority {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.f64(self.0)
    }
}
