//! Errors of the template engine: parsing, expansion.
//!
//! Small `Copy` values with a byte offset into the template source, so an error can be shown
//! under the template (`{var:0}` → "prefix length must be 1..=9999 at byte 5").

use core::fmt;

/// Why a template failed to parse (RFC 6570 §2, §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A `{` with no matching `}`.
    UnclosedExpression,
    /// A `}` outside an expression, or a `{` inside one.
    UnexpectedBrace,
    /// `{}`: an expression without a variable.
    EmptyExpression,
    /// One of the operators RFC 6570 reserves for future extensions (`= , ! @ |`).
    ReservedOperator,
    /// A character that cannot appear in a variable name.
    InvalidVarName,
    /// An empty variable name (`{a,}` or `{x..y}`-style dot misuse).
    EmptyVarName,
    /// A prefix modifier that is not `:` followed by 1 to 9999 without a leading zero.
    InvalidPrefix,
    /// Something after a variable name that is neither `,`, `:n`, `*` nor `}`.
    InvalidModifier,
    /// A character that is not allowed in a literal (space, `"`, `<`, `>`, `\`, `^`,
    /// `` ` ``, `|`, control characters, non-characters).
    InvalidLiteral,
    /// A `%` that does not start a pct-encoded triplet.
    InvalidPercentEncoding,
    /// The template has more parts than the fixed capacity the caller chose.
    CapacityExceeded,
    /// The template is longer than 4 GiB, the most a span can address.
    TooLong,
}

impl ParseErrorKind {
    /// A short, stable description.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::UnclosedExpression => "unclosed expression",
            Self::UnexpectedBrace => "unexpected brace",
            Self::EmptyExpression => "empty expression",
            Self::ReservedOperator => "reserved operator",
            Self::InvalidVarName => "invalid character in variable name",
            Self::EmptyVarName => "empty variable name",
            Self::InvalidPrefix => "prefix length must be 1..=9999 without a leading zero",
            Self::InvalidModifier => "invalid modifier",
            Self::InvalidLiteral => "character not allowed in a literal",
            Self::InvalidPercentEncoding => "malformed percent-encoding",
            Self::CapacityExceeded => "more parts than the template's capacity",
            Self::TooLong => "template too long",
        }
    }
}

/// A template that failed to parse: what went wrong and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// Byte offset into the template source where it went wrong.
    pub at: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid URI template: {} at byte {}",
            self.kind.as_str(),
            self.at
        )
    }
}

impl core::error::Error for ParseError {}

/// Why an expansion failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpandError {
    /// A prefix modifier (`{var:3}`) applied to a list or associative value, which RFC 6570
    /// §2.4.1 does not allow. `at` is the byte offset of the variable in the template.
    PrefixOnComposite {
        /// Byte offset of the variable name in the template source.
        at: usize,
    },
    /// The output buffer is too small; the whole expansion needs this many bytes.
    BufferTooSmall {
        /// Bytes the full expansion needs.
        needed: usize,
    },
    /// The `core::fmt::Write` sink returned an error.
    Write,
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PrefixOnComposite { at } => write!(
                f,
                "prefix modifier applied to a list or associative value at byte {at}"
            ),
            Self::BufferTooSmall { needed } => {
                write!(f, "buffer too small: {needed} bytes needed")
            }
            Self::Write => f.write_str("the output writer failed"),
        }
    }
}

impl core::error::Error for ExpandError {}

/// Stable identifiers for the bindings (Python `TemplateError.kind`, Node `err.code`) and for
/// logs: `snake_case`, one per variant, never changed once released. A new variant must get a
/// new identifier here (the match is exhaustive inside this crate).
impl ParseErrorKind {
    /// The stable `snake_case` identifier of this kind, e.g. `"unclosed_expression"`.
    ///
    /// ```
    /// use mcp_context::template::{ParseErrorKind, Template};
    /// let err = Template::<4>::parse("{var").unwrap_err();
    /// assert_eq!(err.kind, ParseErrorKind::UnclosedExpression);
    /// assert_eq!(err.kind.ident(), "unclosed_expression");
    /// ```
    #[must_use]
    pub const fn ident(self) -> &'static str {
        match self {
            Self::UnclosedExpression => "unclosed_expression",
            Self::UnexpectedBrace => "unexpected_brace",
            Self::EmptyExpression => "empty_expression",
            Self::ReservedOperator => "reserved_operator",
            Self::InvalidVarName => "invalid_var_name",
            Self::EmptyVarName => "empty_var_name",
            Self::InvalidPrefix => "invalid_prefix",
            Self::InvalidModifier => "invalid_modifier",
            Self::InvalidLiteral => "invalid_literal",
            Self::InvalidPercentEncoding => "invalid_percent_encoding",
            Self::CapacityExceeded => "capacity_exceeded",
            Self::TooLong => "too_long",
        }
    }
}

impl ExpandError {
    /// The stable `snake_case` identifier of this error, e.g. `"prefix_on_composite"`;
    /// disjoint from every [`ParseErrorKind::ident`].
    #[must_use]
    pub const fn ident(self) -> &'static str {
        match self {
            Self::PrefixOnComposite { .. } => "prefix_on_composite",
            Self::BufferTooSmall { .. } => "buffer_too_small",
            Self::Write => "write_failed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ExpandError, ParseErrorKind};

    const KINDS: [ParseErrorKind; 12] = [
        ParseErrorKind::UnclosedExpression,
        ParseErrorKind::UnexpectedBrace,
        ParseErrorKind::EmptyExpression,
        ParseErrorKind::ReservedOperator,
        ParseErrorKind::InvalidVarName,
        ParseErrorKind::EmptyVarName,
        ParseErrorKind::InvalidPrefix,
        ParseErrorKind::InvalidModifier,
        ParseErrorKind::InvalidLiteral,
        ParseErrorKind::InvalidPercentEncoding,
        ParseErrorKind::CapacityExceeded,
        ParseErrorKind::TooLong,
    ];

    #[test]
    fn idents_are_snake_case_and_unique() {
        let mut all: std::vec::Vec<&str> = KINDS.iter().map(|k| k.ident()).collect();
        all.extend(
            [
                ExpandError::PrefixOnComposite { at: 0 },
                ExpandError::BufferTooSmall { needed: 0 },
                ExpandError::Write,
            ]
            .map(ExpandError::ident),
        );
        for id in &all {
            assert!(!id.is_empty());
            assert!(
                id.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{id}"
            );
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "identifiers must be unique");
    }

    #[test]
    fn idents_are_stable() {
        // Bindings expose these strings; changing one is a breaking change.
        assert_eq!(
            KINDS.map(ParseErrorKind::ident),
            [
                "unclosed_expression",
                "unexpected_brace",
                "empty_expression",
                "reserved_operator",
                "invalid_var_name",
                "empty_var_name",
                "invalid_prefix",
                "invalid_modifier",
                "invalid_literal",
                "invalid_percent_encoding",
                "capacity_exceeded",
                "too_long",
            ]
        );
    }
}

/// Why a template cannot be compiled for matching (docs/matching.md §5). The same template
/// may still be expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileErrorKind {
    /// What follows a variable can also be part of its value, so its end is not determined:
    /// `{a}{b}`, `{a}-{b}`, `{a}.{b}`, `{+a}{b}`.
    AdjacentVariables,
    /// An exploded variable is followed by another variable of the same expression
    /// (`{/a*,b}`).
    ExplodeNotLast,
    /// A multi-variable expression whose values may contain its separator (`{+a,b}`,
    /// `{.a,b}`, `{#a,b}`).
    AmbiguousList,
    /// An optional expression (or the next value of a list) starts with a character that can
    /// also start what follows it (`{/a}/x`, `{/a}{/b}`, `{a,b},x`).
    AmbiguousOptional,
    /// `{&…}` before the query has started: its expansion would be part of the path.
    ContinuationOutsideQuery,
    /// `{?…}` after the query has started (a literal `?` or an earlier `{?…}`).
    QueryOperatorInQuery,
    /// A query section that is not a list of `name`, `name=value`, `name={var}`, `{?…}` and
    /// `{&…}` parameters (`?q{a}`, `?q={a}x`, `?{a}`, `?x={/a}`).
    UnsupportedQueryShape,
    /// The same query parameter name bound twice (`{?a}{&a}`, `?a=1{&a}`).
    DuplicateQueryParam,
    /// More than 64 query parameters.
    TooManyQueryParams,
    /// A query expression inside the fragment (`#x{?a}`).
    QueryInFragment,
    /// A second fragment: `{#…}` or `#` after the fragment has started.
    NestedFragment,
    /// Something after an optional `{#…}` that would land in the path when it is undefined.
    FragmentNotLast,
    /// The compiled form needs more steps than the fixed capacity the caller chose.
    CapacityExceeded,
}

impl CompileErrorKind {
    /// A short, stable description.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AdjacentVariables => "what follows this variable can be part of its value",
            Self::ExplodeNotLast => "an exploded variable must be last in its expression",
            Self::AmbiguousList => "list values may contain the list separator",
            Self::AmbiguousOptional => {
                "optional expression starts with a character that can also start what follows"
            }
            Self::ContinuationOutsideQuery => "{&...} before the query has started",
            Self::QueryOperatorInQuery => "{?...} after the query has started; use {&...}",
            Self::UnsupportedQueryShape => {
                "query parts must be name, name=value, name={var}, {?...} or {&...}"
            }
            Self::DuplicateQueryParam => "query parameter bound twice",
            Self::TooManyQueryParams => "more than 64 query parameters",
            Self::QueryInFragment => "query expression inside the fragment",
            Self::NestedFragment => "second fragment",
            Self::FragmentNotLast => "an optional {#...} must end the template",
            Self::CapacityExceeded => "more steps than the pattern's capacity",
        }
    }
}

/// A template that cannot be compiled for matching: why and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompileError {
    /// Why.
    pub kind: CompileErrorKind,
    /// Byte offset into the template source.
    pub at: usize,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "URI template cannot be matched: {} at byte {}",
            self.kind.as_str(),
            self.at
        )
    }
}

impl core::error::Error for CompileError {}

/// A template source that failed to parse or to compile for matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternError {
    /// Not a valid RFC 6570 template.
    Parse(ParseError),
    /// Valid, but not matchable (ambiguous or unsupported shape).
    Compile(CompileError),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(e) => e.fmt(f),
            Self::Compile(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for PatternError {}

impl From<ParseError> for PatternError {
    fn from(e: ParseError) -> Self {
        Self::Parse(e)
    }
}

impl From<CompileError> for PatternError {
    fn from(e: CompileError) -> Self {
        Self::Compile(e)
    }
}

/// Why a URI produced no captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatchError {
    /// The URI does not match (the template, or any template of the router).
    NoMatch,
    /// The URI matches, but the template has more variables than the [`Captures`] holds.
    ///
    /// [`Captures`]: super::Captures
    TooManyVariables {
        /// The capacity the captures need.
        needed: usize,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMatch => f.write_str("the URI matches no template"),
            Self::TooManyVariables { needed } => {
                write!(f, "captures too small: {needed} variables needed")
            }
        }
    }
}

impl core::error::Error for MatchError {}

/// The identifier a router gives a template: its registration index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RouteId(pub(crate) u32);

impl RouteId {
    /// The registration index (0 for the first template).
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for RouteId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "template #{}", self.0)
    }
}

/// Why a router refused a template (docs/matching.md §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InsertError {
    /// Not a valid RFC 6570 template.
    Parse(ParseError),
    /// Valid, but not matchable.
    Compile(CompileError),
    /// Same shape as a registered template (same literals after normalisation, same
    /// operators and modifiers, same query parameters, names aside): no URI could reach it.
    Indistinguishable {
        /// The registered template.
        existing: RouteId,
        /// The id the refused template would have had.
        new: RouteId,
    },
    /// Every URI the template matches is matched first by a registered one (for example it
    /// adds only optional query parameters, which unknown-parameter tolerance already
    /// accepts; or a `{+rest}` catch-all precedes it).
    Shadowed {
        /// The registered template that wins.
        existing: RouteId,
        /// The id the refused template would have had.
        new: RouteId,
    },
    /// A fixed-capacity router is full (templates, steps, nodes or edges).
    CapacityExceeded,
}

impl fmt::Display for InsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(e) => e.fmt(f),
            Self::Compile(e) => e.fmt(f),
            Self::Indistinguishable { existing, new } => {
                write!(f, "{new} is indistinguishable from {existing}")
            }
            Self::Shadowed { existing, new } => {
                write!(f, "{new} is shadowed by {existing}: no URI can reach it")
            }
            Self::CapacityExceeded => f.write_str("router capacity exceeded"),
        }
    }
}

impl core::error::Error for InsertError {}

impl From<ParseError> for InsertError {
    fn from(e: ParseError) -> Self {
        Self::Parse(e)
    }
}
