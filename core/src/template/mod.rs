//! RFC 6570 URI templates: parse, expand, match, route.
//!
//! * [`Template`] parses a template into a fixed-capacity list of parts that borrow the source:
//!   no allocation, usable without `alloc`. [`OwnedTemplate`] (feature `alloc`) owns its source.
//! * Expansion (levels 1–4, all operators, string, list and associative values) writes into a
//!   `core::fmt::Write` or a `&mut [u8]`; it never allocates.
//! * [`Pattern`] compiles a template for matching URIs back into variables ([`Captures`],
//!   percent-decoded lazily); ambiguous templates are refused with a [`CompileError`].
//!   Semantics: `docs/matching.md`.
//! * [`Router`] (with `alloc`) and [`FixedRouter`] index many templates in a trie over URI
//!   segments and route a URI to the most specific one, without allocating.
//!
//! Resource templates are how MCP servers expose parameterised resources
//! (docs/rules.md §6, `ResourceTemplate.uriTemplate`, `format: uri-template`).

mod captures;
mod check;
mod compile;
mod engine;
mod error;
mod expand;
mod index;
mod matcher;
mod norm;
#[cfg(test)]
mod norm_tests;
#[cfg(feature = "alloc")]
mod owned_vars;
mod parse;
mod program;
mod router;
mod segment;
mod store;
mod value;

pub use captures::{Capture, Captures, Encoded, Pairs, QueryParams, Values};
pub use compile::{MatchOptions, UnknownParams};
pub use error::{
    CompileError, CompileErrorKind, ExpandError, InsertError, MatchError, ParseError,
    ParseErrorKind, PatternError, RouteId,
};
#[cfg(feature = "alloc")]
pub use matcher::OwnedPattern;
pub use matcher::{DEFAULT_STEPS, Pattern};
#[cfg(feature = "alloc")]
pub use owned_vars::{OwnedValue, OwnedVariables};
pub use parse::{Expression, Modifier, Operator, Part, Span, VarSpec, VarSpecs};
#[cfg(feature = "alloc")]
pub use router::Router;
pub use router::{FixedRouter, Routed};
pub use value::{Value, Variables};

use expand::{FmtSink, LenSink, SliceSink};
use parse::PartSink;

/// The default part capacity of a [`Template`]: literals plus expressions.
pub const DEFAULT_PARTS: usize = 16;

/// A parsed template that borrows its source and stores at most `N` parts inline.
///
/// Parsing never allocates; a template with more than `N` parts is a
/// [`ParseErrorKind::CapacityExceeded`] error.
///
/// ```
/// use mcp_context::template::Template;
/// let t: Template<'_, 8> = Template::parse("notes://{project}/{id}").unwrap();
/// assert_eq!(t.variables().map(|v| v.name).collect::<Vec<_>>(), ["project", "id"]);
/// assert!(Template::<2>::parse("a{b}c{d}").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Template<'a, const N: usize = DEFAULT_PARTS> {
    source: &'a str,
    parts: [Part; N],
    len: usize,
}

struct FixedParts<'p, const N: usize> {
    parts: &'p mut [Part; N],
    len: &'p mut usize,
}

impl<const N: usize> PartSink for FixedParts<'_, N> {
    fn push(&mut self, part: Part) -> bool {
        match self.parts.get_mut(*self.len) {
            Some(slot) => {
                *slot = part;
                *self.len += 1;
                true
            }
            None => false,
        }
    }
}

impl<'a, const N: usize> Template<'a, N> {
    /// Parses `source` (RFC 6570 levels 1–4).
    ///
    /// # Errors
    /// A [`ParseError`] saying what is wrong and at which byte.
    pub fn parse(source: &'a str) -> Result<Self, ParseError> {
        let mut parts = [Part::Literal(Span::default()); N];
        let mut len = 0;
        parse::parse_into(
            source,
            &mut FixedParts {
                parts: &mut parts,
                len: &mut len,
            },
        )?;
        Ok(Self { source, parts, len })
    }

    /// A cheap view used by the expander and matcher.
    #[must_use]
    pub fn as_ref(&self) -> TemplateRef<'_> {
        TemplateRef {
            source: self.source,
            parts: self.parts.get(..self.len).unwrap_or_default(),
        }
    }

    /// The template source.
    #[must_use]
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// The parsed parts.
    #[must_use]
    pub fn parts(&self) -> &[Part] {
        self.as_ref().parts
    }

    /// Every varspec, in template order (a name used twice appears twice).
    pub fn variables(&self) -> impl Iterator<Item = VarSpec<'_>> + '_ {
        self.as_ref().variables()
    }

    /// Expands into a `core::fmt::Write` (RFC 6570 §3).
    ///
    /// # Errors
    /// [`ExpandError::PrefixOnComposite`] or [`ExpandError::Write`].
    pub fn expand<V: Variables + ?Sized, W: core::fmt::Write + ?Sized>(
        &self,
        vars: &V,
        out: &mut W,
    ) -> Result<(), ExpandError> {
        self.as_ref().expand(vars, out)
    }

    /// Expands into `buf` and returns the length written.
    ///
    /// # Errors
    /// [`ExpandError::BufferTooSmall`] with the size the whole expansion needs, or
    /// [`ExpandError::PrefixOnComposite`].
    pub fn expand_to_slice<V: Variables + ?Sized>(
        &self,
        vars: &V,
        buf: &mut [u8],
    ) -> Result<usize, ExpandError> {
        self.as_ref().expand_to_slice(vars, buf)
    }
}

/// A borrowed view of a parsed template: its source and its parts.
#[derive(Debug, Clone, Copy)]
pub struct TemplateRef<'t> {
    /// The template source.
    pub source: &'t str,
    /// The parts, whose spans index `source`.
    pub parts: &'t [Part],
}

impl<'t> TemplateRef<'t> {
    /// Every varspec, in template order.
    pub fn variables(self) -> impl Iterator<Item = VarSpec<'t>> + 't {
        let source = self.source;
        self.parts.iter().flat_map(move |p| {
            let vars = match p {
                Part::Expression(e) => e.vars,
                Part::Literal(_) => Span::default(),
            };
            VarSpecs::new(source, vars)
        })
    }

    /// The text of a literal part.
    #[must_use]
    pub fn text(self, span: Span) -> &'t str {
        span.of(self.source)
    }

    /// The varspecs of an expression part.
    #[must_use]
    pub fn varspecs(self, expr: &Expression) -> VarSpecs<'t> {
        VarSpecs::new(self.source, expr.vars)
    }

    /// Expands into a `core::fmt::Write`.
    ///
    /// # Errors
    /// See [`Template::expand`].
    pub fn expand<V: Variables + ?Sized, W: core::fmt::Write + ?Sized>(
        self,
        vars: &V,
        out: &mut W,
    ) -> Result<(), ExpandError> {
        expand::expand(
            self,
            vars,
            &mut FmtSink {
                w: out,
                failed: false,
            },
        )
    }

    /// Expands into `buf`; see [`Template::expand_to_slice`].
    ///
    /// # Errors
    /// See [`Template::expand_to_slice`].
    pub fn expand_to_slice<V: Variables + ?Sized>(
        self,
        vars: &V,
        buf: &mut [u8],
    ) -> Result<usize, ExpandError> {
        let mut sink = SliceSink { buf, len: 0 };
        expand::expand(self, vars, &mut sink)?;
        if sink.len > sink.buf.len() {
            return Err(ExpandError::BufferTooSmall { needed: sink.len });
        }
        Ok(sink.len)
    }

    /// The byte length of the expansion.
    ///
    /// # Errors
    /// [`ExpandError::PrefixOnComposite`].
    pub fn expanded_len<V: Variables + ?Sized>(self, vars: &V) -> Result<usize, ExpandError> {
        let mut sink = LenSink(0);
        expand::expand(self, vars, &mut sink)?;
        Ok(sink.0)
    }
}

#[cfg(feature = "alloc")]
mod owned {
    use super::{ExpandError, ParseError, Part, TemplateRef, VarSpec, Variables, parse};
    use alloc::string::String;
    use alloc::vec::Vec;

    impl parse::PartSink for Vec<Part> {
        fn push(&mut self, part: Part) -> bool {
            Vec::push(self, part);
            true
        }
    }

    /// A parsed template that owns its source, with any number of parts (feature `alloc`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct OwnedTemplate {
        source: String,
        parts: Vec<Part>,
    }

    impl OwnedTemplate {
        /// Parses `source` (RFC 6570 levels 1–4), copying it.
        ///
        /// # Errors
        /// A [`ParseError`] saying what is wrong and at which byte.
        pub fn parse(source: &str) -> Result<Self, ParseError> {
            let mut parts = Vec::new();
            parse::parse_into(source, &mut parts)?;
            Ok(Self {
                source: String::from(source),
                parts,
            })
        }

        /// A cheap view used by the expander and matcher.
        #[must_use]
        pub fn as_ref(&self) -> TemplateRef<'_> {
            TemplateRef {
                source: &self.source,
                parts: &self.parts,
            }
        }

        /// The template source.
        #[must_use]
        pub fn source(&self) -> &str {
            &self.source
        }

        /// Every varspec, in template order.
        pub fn variables(&self) -> impl Iterator<Item = VarSpec<'_>> + '_ {
            self.as_ref().variables()
        }

        /// Expands into a new `String`.
        ///
        /// # Errors
        /// [`ExpandError::PrefixOnComposite`].
        pub fn expand<V: Variables + ?Sized>(&self, vars: &V) -> Result<String, ExpandError> {
            let mut out = String::new();
            self.as_ref().expand(vars, &mut out)?;
            Ok(out)
        }
    }
}

#[cfg(feature = "alloc")]
pub use owned::OwnedTemplate;
