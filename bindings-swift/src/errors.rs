//! The stable error table: each core error maps to exactly one Swift `Error` case.
//!
//! Cases carry the core's kind and byte offset, never a formatted string; `description`
//! (Rust `Display`) renders them with the core's own wording.

use core::fmt;

use mcp_context::template::{ExpandError, ParseError, ParseErrorKind};

/// Why a template failed to parse (RFC 6570 §2, §3); mirrors the core's `ParseErrorKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum TemplateParseErrorKind {
    /// A `{` with no matching `}`.
    UnclosedExpression,
    /// A `}` outside an expression, or a `{` inside one.
    UnexpectedBrace,
    /// `{}`: an expression without a variable.
    EmptyExpression,
    /// An operator RFC 6570 reserves for future extensions (`= , ! @ |`).
    ReservedOperator,
    /// A character that cannot appear in a variable name.
    InvalidVarName,
    /// An empty variable name.
    EmptyVarName,
    /// A prefix modifier that is not `:` followed by 1 to 9999 without a leading zero.
    InvalidPrefix,
    /// Something after a variable name that is neither `,`, `:n`, `*` nor `}`.
    InvalidModifier,
    /// A character that is not allowed in a literal.
    InvalidLiteral,
    /// A `%` that does not start a pct-encoded triplet.
    InvalidPercentEncoding,
    /// The template has more parts than a fixed capacity allows.
    CapacityExceeded,
    /// The template is longer than 4 GiB.
    TooLong,
    /// A kind added to the core after this binding version.
    Other,
}

impl TemplateParseErrorKind {
    /// The core kind this mirrors (`None` for [`Self::Other`]).
    pub(crate) fn to_core(self) -> Option<ParseErrorKind> {
        Some(match self {
            Self::UnclosedExpression => ParseErrorKind::UnclosedExpression,
            Self::UnexpectedBrace => ParseErrorKind::UnexpectedBrace,
            Self::EmptyExpression => ParseErrorKind::EmptyExpression,
            Self::ReservedOperator => ParseErrorKind::ReservedOperator,
            Self::InvalidVarName => ParseErrorKind::InvalidVarName,
            Self::EmptyVarName => ParseErrorKind::EmptyVarName,
            Self::InvalidPrefix => ParseErrorKind::InvalidPrefix,
            Self::InvalidModifier => ParseErrorKind::InvalidModifier,
            Self::InvalidLiteral => ParseErrorKind::InvalidLiteral,
            Self::InvalidPercentEncoding => ParseErrorKind::InvalidPercentEncoding,
            Self::CapacityExceeded => ParseErrorKind::CapacityExceeded,
            Self::TooLong => ParseErrorKind::TooLong,
            Self::Other => return None,
        })
    }
}

impl From<ParseErrorKind> for TemplateParseErrorKind {
    fn from(kind: ParseErrorKind) -> Self {
        match kind {
            ParseErrorKind::UnclosedExpression => Self::UnclosedExpression,
            ParseErrorKind::UnexpectedBrace => Self::UnexpectedBrace,
            ParseErrorKind::EmptyExpression => Self::EmptyExpression,
            ParseErrorKind::ReservedOperator => Self::ReservedOperator,
            ParseErrorKind::InvalidVarName => Self::InvalidVarName,
            ParseErrorKind::EmptyVarName => Self::EmptyVarName,
            ParseErrorKind::InvalidPrefix => Self::InvalidPrefix,
            ParseErrorKind::InvalidModifier => Self::InvalidModifier,
            ParseErrorKind::InvalidLiteral => Self::InvalidLiteral,
            ParseErrorKind::InvalidPercentEncoding => Self::InvalidPercentEncoding,
            ParseErrorKind::CapacityExceeded => Self::CapacityExceeded,
            ParseErrorKind::TooLong => Self::TooLong,
            _ => Self::Other,
        }
    }
}

/// A template error: parse errors from `UriTemplate(source:)`, expansion errors from
/// `expand(vars:)`. Offsets are in bytes of the template's UTF-8 source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum TemplateError {
    /// The source is not an RFC 6570 template.
    Parse {
        /// What is wrong.
        kind: TemplateParseErrorKind,
        /// Where, in bytes from the start of the source.
        byte_offset: u64,
    },
    /// A prefix modifier (`{var:3}`) applied to a list or dictionary (RFC 6570 §2.4.1).
    PrefixOnComposite {
        /// The variable's position, in bytes from the start of the source.
        byte_offset: u64,
    },
    /// An error kind added to the core after this binding version.
    Other,
}

fn offset(at: usize) -> u64 {
    u64::try_from(at).unwrap_or(u64::MAX)
}

impl From<ParseError> for TemplateError {
    fn from(e: ParseError) -> Self {
        Self::Parse {
            kind: e.kind.into(),
            byte_offset: offset(e.at),
        }
    }
}

impl From<ExpandError> for TemplateError {
    fn from(e: ExpandError) -> Self {
        match e {
            ExpandError::PrefixOnComposite { at } => Self::PrefixOnComposite {
                byte_offset: offset(at),
            },
            // Expansion into a `String` cannot run out of room or fail to write.
            _ => Self::Other,
        }
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |o: u64| usize::try_from(o).unwrap_or(usize::MAX);
        match *self {
            Self::Parse { kind, byte_offset } => match kind.to_core() {
                Some(kind) => ParseError {
                    kind,
                    at: at(byte_offset),
                }
                .fmt(f),
                None => write!(f, "invalid URI template at byte {byte_offset}"),
            },
            Self::PrefixOnComposite { byte_offset } => ExpandError::PrefixOnComposite {
                at: at(byte_offset),
            }
            .fmt(f),
            Self::Other => f.write_str("URI template error"),
        }
    }
}

impl std::error::Error for TemplateError {}

#[cfg(test)]
mod tests {
    use super::{TemplateError, TemplateParseErrorKind};
    use mcp_context::template::OwnedTemplate;

    #[test]
    fn parse_errors_keep_kind_offset_and_core_wording() {
        let cases = [
            ("a{b", TemplateParseErrorKind::UnclosedExpression),
            ("a}b", TemplateParseErrorKind::UnexpectedBrace),
            ("{}", TemplateParseErrorKind::EmptyExpression),
            ("{=a}", TemplateParseErrorKind::ReservedOperator),
            ("{var:0}", TemplateParseErrorKind::InvalidPrefix),
            ("a b", TemplateParseErrorKind::InvalidLiteral),
            ("%zz", TemplateParseErrorKind::InvalidPercentEncoding),
        ];
        for (source, kind) in cases {
            let core = OwnedTemplate::parse(source).expect_err(source);
            let ours = TemplateError::from(core);
            assert_eq!(
                ours,
                TemplateError::Parse {
                    kind,
                    byte_offset: core.at as u64
                },
                "{source}"
            );
            assert_eq!(ours.to_string(), core.to_string(), "{source}");
        }
    }
}
