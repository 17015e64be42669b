//! Errors of the JSON layer: malformed text (decode) and output that does not fit (encode).

use core::fmt;

/// Why bytes are not an acceptable JSON text (RFC 8259), or exceed a declared limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd,
    /// A byte that cannot start or continue a value here.
    UnexpectedByte,
    /// The input is not UTF-8.
    InvalidUtf8,
    /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    InvalidEscape,
    /// A `\uD800`–`\uDFFF` escape that is not half of a high/low surrogate pair.
    LoneSurrogate,
    /// A raw control character (U+0000–U+001F) inside a string.
    ControlCharacter,
    /// A number that does not follow the JSON grammar (`01`, `1.`, `+1`, `.5`, `1e`).
    InvalidNumber,
    /// Non-whitespace after the top-level value.
    TrailingCharacters,
    /// Objects and arrays nested deeper than the declared limit.
    TooDeep,
    /// The message is longer than the declared limit.
    TooLarge,
}

impl JsonErrorKind {
    /// A short, stable description.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UnexpectedEnd => "unexpected end of input",
            Self::UnexpectedByte => "unexpected character",
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::InvalidEscape => "invalid escape sequence",
            Self::LoneSurrogate => "lone UTF-16 surrogate in \\u escape",
            Self::ControlCharacter => "control character in string",
            Self::InvalidNumber => "invalid number",
            Self::TrailingCharacters => "trailing characters after the value",
            Self::TooDeep => "nesting deeper than the limit",
            Self::TooLarge => "message larger than the limit",
        }
    }
}

/// Bytes that are not acceptable JSON: what went wrong and at which byte offset.
///
/// Maps to JSON-RPC `-32700` (Parse error, docs/rules.md §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JsonError {
    /// What went wrong.
    pub kind: JsonErrorKind,
    /// Byte offset into the input.
    pub at: usize,
}

impl JsonError {
    pub(crate) const fn new(kind: JsonErrorKind, at: usize) -> Self {
        Self { kind, at }
    }

    /// The JSON-RPC error code for this failure: always [`ErrorCode::PARSE_ERROR`].
    ///
    /// [`ErrorCode::PARSE_ERROR`]: crate::error_code::ErrorCode::PARSE_ERROR
    #[must_use]
    pub const fn error_code(self) -> crate::error_code::ErrorCode {
        crate::error_code::ErrorCode::PARSE_ERROR
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid JSON: {} at byte {}",
            self.kind.as_str(),
            self.at
        )
    }
}

impl core::error::Error for JsonError {}

/// Why encoding failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// The output buffer is too small; `needed` is the full encoded length in bytes.
    BufferTooSmall {
        /// Bytes the whole encoding needs.
        needed: usize,
    },
    /// The `core::fmt::Write` destination returned an error.
    Write,
    /// A value cannot be written as the schema requires (a non-finite number, a priority
    /// outside `[0, 1]`, more than 100 completion values, …). `what` names the field.
    InvalidValue {
        /// The offending field's name, by reference: the error stays two words, so an
        /// encoder's `Result<(), EncodeError>` is returned in registers, not through memory.
        what: &'static &'static str,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: {needed} bytes needed")
            }
            Self::Write => f.write_str("the output writer failed"),
            Self::InvalidValue { what } => write!(f, "cannot encode invalid value for `{what}`"),
        }
    }
}

impl core::error::Error for EncodeError {}
