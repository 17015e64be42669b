//! Matching one template: [`Pattern`] (fixed capacity, borrows its source) and
//! [`OwnedPattern`] (feature `alloc`). Semantics: docs/matching.md.

use super::captures::{Captures, Slot};
use super::compile::{self, Layout, MatchOptions, ProgramSink, Step};
use super::engine;
use super::error::{CompileError, MatchError, PatternError};
use super::parse::Span;
use super::{Template, TemplateRef};

/// The default step capacity of a [`Pattern`]: one per literal, one per expression, one per
/// variable.
pub const DEFAULT_STEPS: usize = 32;

/// A template compiled for matching URIs back into variables; borrows the template source
/// and holds at most `N` steps and `N` variables inline. Compiling may fail with a
/// [`CompileError`] for templates whose matches would be ambiguous (docs/matching.md §5);
/// matching never allocates and runs in time linear in the URI.
///
/// ```
/// use mcp_context::template::{Captures, Pattern};
///
/// let p: Pattern<'_> = Pattern::parse("repo://{owner}/{repo}/issues/{number}{?fields}").unwrap();
/// let mut caps = Captures::<4>::new();
/// p.matches("repo://acme/web%20app/issues/812?x=1&fields=title", &mut caps).unwrap();
/// assert_eq!(caps.get("owner").unwrap().as_str(), Some("acme"));
/// let mut buf = [0u8; 32];
/// assert_eq!(caps.get("repo").unwrap().decode_into(&mut buf), Ok("web app"));
/// assert_eq!(caps.get("fields").unwrap().as_str(), Some("title"));
/// assert!(!p.is_match("repo://acme/web/issues/812/comments"));
/// ```
#[derive(Debug, Clone)]
pub struct Pattern<'t, const N: usize = DEFAULT_STEPS> {
    source: &'t str,
    steps: [Step; N],
    names: [Span; N],
    counts: (usize, usize),
    layout: Layout,
}

struct FixedProgram<'a, const N: usize> {
    steps: &'a mut [Step; N],
    names: &'a mut [Span; N],
    counts: &'a mut (usize, usize),
}

impl<const N: usize> ProgramSink for FixedProgram<'_, N> {
    fn push_step(&mut self, step: Step) -> bool {
        match self.steps.get_mut(self.counts.0) {
            Some(slot) => {
                *slot = step;
                self.counts.0 += 1;
                true
            }
            None => false,
        }
    }
    fn push_name(&mut self, name: Span) -> bool {
        match self.names.get_mut(self.counts.1) {
            Some(slot) => {
                *slot = name;
                self.counts.1 += 1;
                true
            }
            None => false,
        }
    }
    fn steps_since(&self, from: usize) -> &[Step] {
        self.steps.get(from..self.counts.0).unwrap_or_default()
    }
    fn step_count(&self) -> usize {
        self.counts.0
    }
}

impl<'t, const N: usize> Pattern<'t, N> {
    /// Parses and compiles `source` with the default [`MatchOptions`].
    ///
    /// # Errors
    /// [`PatternError::Parse`] for an invalid template, [`PatternError::Compile`] for one that
    /// cannot be matched.
    pub fn parse(source: &'t str) -> Result<Self, PatternError> {
        Self::parse_with(source, MatchOptions::new())
    }

    /// Parses and compiles `source` with `opts`.
    ///
    /// # Errors
    /// See [`Pattern::parse`].
    pub fn parse_with(source: &'t str, opts: MatchOptions) -> Result<Self, PatternError> {
        let t = Template::<'t, N>::parse(source)?;
        Ok(Self::compile_ref(source, t.as_ref(), opts)?)
    }

    /// Compiles an already parsed template.
    ///
    /// # Errors
    /// A [`CompileError`] naming the ambiguity and where it is.
    pub fn compile<const P: usize>(
        template: &Template<'t, P>,
        opts: MatchOptions,
    ) -> Result<Self, CompileError> {
        Self::compile_ref(template.source(), template.as_ref(), opts)
    }

    fn compile_ref(
        source: &'t str,
        t: TemplateRef<'_>,
        opts: MatchOptions,
    ) -> Result<Self, CompileError> {
        let mut steps = [Step::default(); N];
        let mut names = [Span::default(); N];
        let mut counts = (0, 0);
        let layout = compile::compile(
            t,
            opts,
            &mut FixedProgram {
                steps: &mut steps,
                names: &mut names,
                counts: &mut counts,
            },
        )?;
        Ok(Self {
            source,
            steps,
            names,
            counts,
            layout,
        })
    }

    /// The template source.
    #[must_use]
    pub fn source(&self) -> &'t str {
        self.source
    }

    /// The variable names, in template order (what [`Captures`] reports).
    pub fn variables(&self) -> impl Iterator<Item = &'t str> + '_ {
        let source = self.source;
        self.names
            .get(..self.counts.1)
            .unwrap_or_default()
            .iter()
            .map(move |n| n.of(source))
    }

    /// Matches `uri`, writing its variables into `caps`.
    ///
    /// # Errors
    /// [`MatchError::NoMatch`], or [`MatchError::TooManyVariables`] when `caps` holds fewer
    /// than the template's variables.
    pub fn matches<'p, 'u, const C: usize>(
        &'p self,
        uri: &'u str,
        caps: &mut Captures<'p, 'u, C>,
    ) -> Result<(), MatchError> {
        let program = self.steps.get(..self.counts.0).unwrap_or_default();
        let names = self.names.get(..self.counts.1).unwrap_or_default();
        engine::match_program(self.source, program, names, &self.layout, uri, caps)
    }

    /// Whether `uri` matches.
    #[must_use]
    pub fn is_match(&self, uri: &str) -> bool {
        let mut slots = [Slot::default(); N];
        let program = self.steps.get(..self.counts.0).unwrap_or_default();
        engine::run_program(self.source, program, &self.layout, uri, &mut slots)
    }
}

#[cfg(all(test, feature = "alloc"))]
pub(super) use owned::VecProgram;

#[cfg(feature = "alloc")]
mod owned {
    use super::{
        Captures, Layout, MatchError, MatchOptions, PatternError, ProgramSink, Span, Step,
    };
    use super::{compile, engine};
    use crate::template::OwnedTemplate;
    use crate::template::captures::Slot;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// A program in two `Vec`s (also the engine tests' sink).
    #[derive(Default)]
    pub(crate) struct VecProgram {
        pub(crate) steps: Vec<Step>,
        pub(crate) names: Vec<Span>,
    }

    impl ProgramSink for VecProgram {
        fn push_step(&mut self, step: Step) -> bool {
            self.steps.push(step);
            true
        }
        fn push_name(&mut self, name: Span) -> bool {
            self.names.push(name);
            true
        }
        fn steps_since(&self, from: usize) -> &[Step] {
            self.steps.get(from..).unwrap_or_default()
        }
        fn step_count(&self) -> usize {
            self.steps.len()
        }
    }

    /// A template compiled for matching that owns its source, of any size (feature `alloc`).
    /// Same semantics as [`Pattern`](super::Pattern).
    #[derive(Debug, Clone)]
    pub struct OwnedPattern {
        source: String,
        steps: Vec<Step>,
        names: Vec<Span>,
        layout: Layout,
    }

    impl OwnedPattern {
        /// Parses and compiles `source` with the default options.
        ///
        /// # Errors
        /// See [`Pattern::parse`](super::Pattern::parse).
        pub fn parse(source: &str) -> Result<Self, PatternError> {
            Self::parse_with(source, MatchOptions::new())
        }

        /// Parses and compiles `source` with `opts`.
        ///
        /// # Errors
        /// See [`Pattern::parse`](super::Pattern::parse).
        pub fn parse_with(source: &str, opts: MatchOptions) -> Result<Self, PatternError> {
            let t = OwnedTemplate::parse(source)?;
            let mut prog = VecProgram::default();
            let layout = compile::compile(t.as_ref(), opts, &mut prog)?;
            Ok(Self {
                source: String::from(source),
                steps: prog.steps,
                names: prog.names,
                layout,
            })
        }

        /// The template source.
        #[must_use]
        pub fn source(&self) -> &str {
            &self.source
        }

        /// The variable names, in template order.
        pub fn variables(&self) -> impl Iterator<Item = &str> + '_ {
            self.names.iter().map(|n| n.of(&self.source))
        }

        /// Matches `uri`, writing its variables into `caps`.
        ///
        /// # Errors
        /// See [`Pattern::matches`](super::Pattern::matches).
        pub fn matches<'p, 'u, const C: usize>(
            &'p self,
            uri: &'u str,
            caps: &mut Captures<'p, 'u, C>,
        ) -> Result<(), MatchError> {
            engine::match_program(
                &self.source,
                &self.steps,
                &self.names,
                &self.layout,
                uri,
                caps,
            )
        }

        /// Whether `uri` matches.
        #[must_use]
        pub fn is_match(&self, uri: &str) -> bool {
            let mut slots = alloc::vec![Slot::default(); self.names.len()];
            engine::run_program(&self.source, &self.steps, &self.layout, uri, &mut slots)
        }
    }
}

#[cfg(feature = "alloc")]
pub use owned::OwnedPattern;
