//! The compiled form of a template (docs/matching.md §2): the steps the engine runs and
//! where the path, query and fragment sections lie. Built by `compile.rs`.

use super::parse::Span;

/// What the matcher does with query parameters the template does not name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownParams {
    /// Skip them (the default): clients and proxies add parameters (cache busters,
    /// tracking), and RFC 6570 expansion cannot produce a URI a template must refuse
    /// because of them.
    #[default]
    Ignore,
    /// Refuse the URI when it carries a parameter the template does not name.
    Reject,
}

/// Options for compiling a template for matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct MatchOptions {
    /// The unknown-query-parameter rule.
    pub unknown_params: UnknownParams,
}

impl MatchOptions {
    /// The defaults: unknown query parameters are ignored.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            unknown_params: UnknownParams::Ignore,
        }
    }

    /// Sets the unknown-query-parameter rule.
    #[must_use]
    pub const fn unknown_params(mut self, rule: UnknownParams) -> Self {
        self.unknown_params = rule;
        self
    }
}

/// One step of a compiled program. Spans index the template source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Literal text, matched after normalisation.
    Lit(Span),
    /// An expression; its `count` variables follow as [`Step::Var`].
    Expr(ExprStep),
    /// A variable of the preceding expression.
    Var(VarStep),
    /// A query parameter.
    Param(ParamStep),
    /// Compact form of a simple path (`Layout::simple_path`): a literal, then a lone
    /// `{var}` unless `slot` is [`NO_SLOT`].
    Seg(SegStep),
}

/// `SegStep::slot` when no variable follows the literal.
pub(crate) const NO_SLOT: u16 = u16::MAX;

/// One op of a compact simple path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SegStep {
    /// Plain literal text.
    pub(crate) lit: Span,
    /// The `{var}` after it, or [`NO_SLOT`].
    pub(crate) slot: u16,
    /// The literal's first eight bytes, zero-padded, for the word compare of
    /// `engine::run_simple` (wide targets only, [`crate::WIDE`]).
    #[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
    pub(crate) head: [u8; 8],
}

impl SegStep {
    /// The op for literal `lit` then the variable in `slot`.
    pub(crate) const fn new(lit: Span, slot: u16) -> Self {
        Self {
            lit,
            slot,
            #[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
            head: [0; 8],
        }
    }

    /// This op with [`head`](Self::head) filled in from `source`.
    #[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
    #[inline]
    pub(crate) fn with_head(mut self, source: &str) -> Self {
        let lit = self.lit.of(source).as_bytes();
        let n = lit.len().min(8);
        if let (Some(to), Some(from)) = (self.head.get_mut(..n), lit.get(..n)) {
            to.copy_from_slice(from);
        }
        self
    }

    /// This op (compact targets keep no head).
    #[cfg(not(any(target_pointer_width = "64", target_family = "wasm")))]
    #[inline]
    pub(crate) fn with_head(self, _source: &str) -> Self {
        self
    }
}

impl Default for Step {
    fn default() -> Self {
        Self::Lit(Span::default())
    }
}

/// An expression of a sequence section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExprStep {
    /// The character before the first value (`/`, `.`, `;`), or 0: then the expression is
    /// required.
    pub(crate) lead: u8,
    /// The character before each later value.
    pub(crate) sep: u8,
    /// `;name=value` values.
    pub(crate) named: bool,
    /// A lead-less expression must not be empty (docs §2.2).
    pub(crate) min1: bool,
    /// How many `Var` steps follow.
    pub(crate) count: u16,
}

/// A variable of a sequence section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VarStep {
    /// Index of its capture.
    pub(crate) slot: u16,
    /// The class bit (`norm::C_*`) of the bytes its value may hold.
    pub(crate) class: u8,
    /// `*`: a list whose items are separated by the expression's separator.
    pub(crate) explode: bool,
    /// `:n`, or 0.
    pub(crate) prefix: u16,
    /// The variable name, for `;name=` and for error positions.
    pub(crate) name: Span,
}

/// A query parameter of the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ParamStep {
    /// The parameter name as written.
    pub(crate) name: Span,
    /// What it binds.
    pub(crate) kind: ParamKind,
    /// Whether a URI without it does not match.
    pub(crate) required: bool,
}

/// What a query parameter binds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    /// A variable: `{?name}`, `{&name*}`, `name={var}`.
    Var {
        /// Index of its capture.
        slot: u16,
        /// `*`: every occurrence is an item of a list.
        explode: bool,
        /// `:n`, or 0.
        prefix: u16,
    },
    /// A literal `name=value` (`Some`) or bare `name` (`None`).
    Fixed(Option<Span>),
}

/// How the fragment section of a template matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum FragMode {
    /// No fragment section: a URI with a fragment does not match.
    #[default]
    None,
    /// `{#var}` ends the template: the fragment may be absent.
    Optional,
    /// A literal `#`: the URI must have a fragment.
    Required,
}

/// Where the sections of a program are, relative to its first step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Layout {
    /// Path steps are `[0, path_end)`.
    pub(crate) path_end: u16,
    /// Query parameters are `[path_end, query_end)`.
    pub(crate) query_end: u16,
    /// Fragment steps are `[query_end, steps)`.
    pub(crate) steps: u16,
    /// Number of variables (captures).
    pub(crate) vars: u16,
    /// The fragment rule.
    pub(crate) frag: FragMode,
    /// Bit `i` set: query parameter `i` is required.
    pub(crate) required: u64,
    /// Whether any variable has a prefix modifier (checked after a match).
    pub(crate) prefixed: bool,
    /// The unknown-parameter rule.
    pub(crate) unknown: UnknownParams,
    /// The path is plain literals and lone `{var}`s that never give a literal back: the
    /// engine runs its compact form `[steps, simple_end)` with `engine::run_simple`. Always
    /// off on compact targets ([`crate::WIDE`]), which run the general engine on every path.
    pub(crate) simple_path: bool,
    /// End of the compact simple path (equal to `steps` when there is none). Compact targets
    /// fill `[steps, simple_end)` with as many placeholder steps as the form would take.
    pub(crate) simple_end: u16,
    /// No query or fragment section and no prefix modifier: a URI whose path ends the string
    /// is accepted as it is.
    pub(crate) bare: bool,
}

/// Receives a program as it is compiled.
pub(crate) trait ProgramSink {
    /// Appends a step; `false` when full.
    fn push_step(&mut self, step: Step) -> bool;
    /// Appends the name span of the next variable; `false` when full.
    fn push_name(&mut self, name: Span) -> bool;
    /// The steps pushed from index `from` of this sink on.
    fn steps_since(&self, from: usize) -> &[Step];
    /// How many steps the sink holds.
    fn step_count(&self) -> usize;
}
