//! Compiling a parsed template into a matching program (docs/matching.md §2, §5).
//!
//! A template is cut into three sections, in this order: the *path* (everything before the
//! query or fragment), the *query* (after a literal `?` or a `{?…}`), and the *fragment*
//! (after a literal `#` or a `{#…}`). The path and fragment become sequences of [`Step`]s run
//! left to right by the engine; the query becomes a set of named parameters matched in any
//! order. Ambiguity checks (`check.rs`) run on the sequences once they are built.

use super::TemplateRef;
use super::check;
use super::error::{CompileError, CompileErrorKind};
use super::norm;
use super::parse::{Expression, Modifier, Operator, Part, Span, VarSpecs};
pub(crate) use super::program::{
    ExprStep, FragMode, Layout, NO_SLOT, ParamKind, ParamStep, ProgramSink, SegStep, Step, VarStep,
};
pub use super::program::{MatchOptions, UnknownParams};

mod simple;
pub(crate) use simple::compact_position;
use simple::{compact, is_simple, simple_ops};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Path,
    Query,
    Fragment,
}

struct Compiler<'s, 'k, K: ProgramSink> {
    source: &'s str,
    sink: &'k mut K,
    base: usize,
    section: Section,
    slot: u16,
    /// A literal query chunk waiting for its end (`name` or `name=value`, or `name=` before
    /// a `{var}`).
    chunk: Option<Span>,
    /// A `name={var}` just closed: the next literal must start with `&` or `#`.
    after_param: bool,
    layout: Layout,
    params: u16,
    /// The fragment was opened by `{#…}`: nothing may follow.
    frag_by_expr: bool,
}

fn err(kind: CompileErrorKind, at: usize) -> CompileError {
    CompileError { kind, at }
}

/// Compiles `t` into `sink`, returning the layout of the program it appended.
pub(crate) fn compile(
    t: TemplateRef<'_>,
    opts: MatchOptions,
    sink: &mut impl ProgramSink,
) -> Result<Layout, CompileError> {
    let base = sink.step_count();
    let mut c = Compiler {
        source: t.source,
        sink,
        base,
        section: Section::Path,
        slot: 0,
        chunk: None,
        after_param: false,
        layout: Layout {
            unknown: opts.unknown_params,
            ..Layout::default()
        },
        params: 0,
        frag_by_expr: false,
    };
    for part in t.parts {
        if c.frag_by_expr {
            let at = match part {
                Part::Literal(s) => s.start as usize,
                Part::Expression(e) => e.vars.start as usize,
            };
            return Err(err(CompileErrorKind::FragmentNotLast, at));
        }
        match *part {
            Part::Literal(span) => c.literal(span)?,
            Part::Expression(expr) => c.expression(expr)?,
        }
    }
    c.close_chunk()?;
    match c.section {
        Section::Path => c.end_path()?,
        Section::Query => c.end_query()?,
        Section::Fragment => {}
    }
    let steps = c.rel()?;
    c.layout.steps = steps;
    c.layout.vars = c.slot;
    let frag_start = usize::from(c.layout.query_end) + base;
    check::check_sequence(c.source, c.sink.steps_since(frag_start))?;
    let path_end = usize::from(c.layout.path_end);
    if !crate::WIDE {
        return c.finish_compact(path_end);
    }
    let mut ops = [SegStep::new(Span::default(), NO_SLOT); 32];
    let (simple, n) = {
        let path = c.sink.steps_since(base).get(..path_end).unwrap_or_default();
        let simple = is_simple(c.source, path);
        (simple, if simple { compact(path, &mut ops) } else { 0 })
    };
    c.layout.simple_path = simple && n <= ops.len();
    if c.layout.simple_path {
        for op in ops.get(..n).unwrap_or_default() {
            c.push(Step::Seg(op.with_head(c.source)), 0)?;
        }
    }
    c.layout.simple_end = c.rel()?;
    let l = &c.layout;
    c.layout.bare = l.path_end == l.steps && l.frag == FragMode::None && !l.prefixed;
    Ok(c.layout)
}

impl<K: ProgramSink> Compiler<'_, '_, K> {
    /// How compact targets ([`crate::WIDE`]) end [`compile`]: they run the general engine on
    /// every path (`engine::run_program`), so they write no compact form of a simple path
    /// and leave `simple_path` off, but they take as many steps as its ops would, so that a
    /// program fits, or fails with [`CompileErrorKind::CapacityExceeded`] at 0, as on wide
    /// targets. (Its own function, so that the wide end of `compile` is untouched.)
    fn finish_compact(&mut self, path_end: usize) -> Result<Layout, CompileError> {
        let path = self.sink.steps_since(self.base).get(..path_end);
        for _ in 0..simple_ops(self.source, path.unwrap_or_default()) {
            self.push(Step::default(), 0)?;
        }
        self.layout.simple_end = self.rel()?;
        let l = &self.layout;
        self.layout.bare = l.path_end == l.steps && l.frag == FragMode::None && !l.prefixed;
        Ok(self.layout)
    }

    fn rel(&self) -> Result<u16, CompileError> {
        u16::try_from(self.sink.step_count() - self.base)
            .map_err(|_| err(CompileErrorKind::CapacityExceeded, 0))
    }

    fn push(&mut self, step: Step, at: usize) -> Result<(), CompileError> {
        if self.sink.push_step(step) {
            Ok(())
        } else {
            Err(err(CompileErrorKind::CapacityExceeded, at))
        }
    }

    fn end_path(&mut self) -> Result<(), CompileError> {
        let end = self.rel()?;
        self.layout.path_end = end;
        self.layout.query_end = end;
        check::check_sequence(self.source, self.sink.steps_since(self.base))
    }

    fn end_query(&mut self) -> Result<(), CompileError> {
        self.close_chunk()?;
        self.layout.query_end = self.rel()?;
        let params = self
            .sink
            .steps_since(self.base + usize::from(self.layout.path_end));
        check::check_query(self.source, params)
    }

    fn enter_query(&mut self) -> Result<(), CompileError> {
        self.end_path()?;
        self.section = Section::Query;
        Ok(())
    }

    fn enter_fragment(&mut self, mode: FragMode) -> Result<(), CompileError> {
        match self.section {
            Section::Path => self.end_path()?,
            Section::Query => self.end_query()?,
            Section::Fragment => {}
        }
        self.section = Section::Fragment;
        self.layout.frag = mode;
        Ok(())
    }

    fn literal(&mut self, span: Span) -> Result<(), CompileError> {
        let text = span.of(self.source).as_bytes();
        let start = span.start as usize;
        let mut i = 0;
        while i < text.len() {
            let at = start + i;
            match self.section {
                Section::Path => {
                    let j = find(text, i, |c| c == b'?' || c == b'#');
                    if j > i {
                        self.push(Step::Lit(sub(span, i, j)), at)?;
                    }
                    match text.get(j) {
                        Some(b'?') => self.enter_query()?,
                        Some(_) => self.enter_fragment(FragMode::Required)?,
                        None => {}
                    }
                    i = j + 1;
                }
                Section::Query => {
                    let c = text.get(i).copied().unwrap_or(0);
                    if self.after_param && c != b'&' && c != b'#' {
                        return Err(err(CompileErrorKind::UnsupportedQueryShape, at));
                    }
                    self.after_param = false;
                    match c {
                        b'&' => {
                            self.close_chunk()?;
                            i += 1;
                        }
                        b'#' => {
                            self.enter_fragment(FragMode::Required)?;
                            i += 1;
                        }
                        _ => {
                            let j = find(text, i, |c| c == b'&' || c == b'#');
                            self.chunk = Some(sub(span, i, j));
                            i = j;
                        }
                    }
                }
                Section::Fragment => {
                    if let Some(k) = text
                        .get(i..)
                        .and_then(|t| t.iter().position(|&c| c == b'#'))
                    {
                        return Err(err(CompileErrorKind::NestedFragment, at + k));
                    }
                    self.push(Step::Lit(sub(span, i, text.len())), at)?;
                    i = text.len();
                }
            }
        }
        Ok(())
    }

    /// Closes a literal query chunk into a fixed parameter.
    fn close_chunk(&mut self) -> Result<(), CompileError> {
        let Some(chunk) = self.chunk.take() else {
            return Ok(());
        };
        let text = chunk.of(self.source).as_bytes();
        if text.is_empty() {
            return Ok(());
        }
        let (name, value) = match text.iter().position(|&c| c == b'=') {
            Some(k) => (sub(chunk, 0, k), Some(sub(chunk, k + 1, text.len()))),
            None => (chunk, None),
        };
        self.param(name, ParamKind::Fixed(value), true, chunk.start as usize)
    }

    fn param(
        &mut self,
        name: Span,
        kind: ParamKind,
        required: bool,
        at: usize,
    ) -> Result<(), CompileError> {
        if self.params >= 64 {
            return Err(err(CompileErrorKind::TooManyQueryParams, at));
        }
        if required {
            self.layout.required |= 1u64 << self.params;
        }
        self.params += 1;
        let step = ParamStep {
            name,
            kind,
            required,
        };
        self.push(Step::Param(step), at)
    }

    fn new_slot(&mut self, name: &str, at: usize) -> Result<u16, CompileError> {
        let slot = self.slot;
        let span = Span {
            start: at as u32,
            end: (at + name.len()) as u32,
        };
        if !self.sink.push_name(span) {
            return Err(err(CompileErrorKind::CapacityExceeded, at));
        }
        self.slot = self
            .slot
            .checked_add(1)
            .ok_or(err(CompileErrorKind::CapacityExceeded, at))?;
        Ok(slot)
    }

    fn expression(&mut self, expr: Expression) -> Result<(), CompileError> {
        let at = expr.vars.start as usize;
        let source = self.source;
        match (self.section, expr.op) {
            (Section::Fragment, Operator::Query | Operator::QueryContinuation) => {
                Err(err(CompileErrorKind::QueryInFragment, at))
            }
            (Section::Fragment, Operator::Fragment) => {
                Err(err(CompileErrorKind::NestedFragment, at))
            }
            (Section::Path, Operator::QueryContinuation) => {
                Err(err(CompileErrorKind::ContinuationOutsideQuery, at))
            }
            (Section::Query, Operator::Query) => {
                Err(err(CompileErrorKind::QueryOperatorInQuery, at))
            }
            (Section::Path, Operator::Query) | (Section::Query, Operator::QueryContinuation) => {
                if self.section == Section::Path {
                    self.enter_query()?;
                }
                self.close_chunk()?;
                self.after_param = false;
                for spec in VarSpecs::new(source, expr.vars) {
                    let slot = self.new_slot(spec.name, spec.at)?;
                    let (explode, prefix) = modifier(spec.modifier, &mut self.layout);
                    let name = Span {
                        start: spec.at as u32,
                        end: (spec.at + spec.name.len()) as u32,
                    };
                    let kind = ParamKind::Var {
                        slot,
                        explode,
                        prefix,
                    };
                    self.param(name, kind, false, spec.at)?;
                }
                // What follows must start a new parameter (`&`) or the fragment.
                self.after_param = true;
                Ok(())
            }
            (_, Operator::Fragment) => {
                self.close_chunk()?;
                self.enter_fragment(FragMode::Optional)?;
                self.frag_by_expr = true;
                self.sequence_expr(expr)
            }
            (Section::Query, Operator::Simple | Operator::Reserved) => self.bound_param(expr),
            (Section::Query, _) => Err(err(CompileErrorKind::UnsupportedQueryShape, at)),
            _ => self.sequence_expr(expr),
        }
    }

    /// `name={var}` in the query: the pending chunk must be `name=`.
    fn bound_param(&mut self, expr: Expression) -> Result<(), CompileError> {
        let at = expr.vars.start as usize;
        let shape = || err(CompileErrorKind::UnsupportedQueryShape, at);
        let chunk = self.chunk.take().ok_or_else(shape)?;
        let text = chunk.of(self.source).as_bytes();
        let mut specs = VarSpecs::new(self.source, expr.vars);
        let spec = specs.next().ok_or_else(shape)?;
        let eq = text.iter().position(|&c| c == b'=').ok_or_else(shape)?;
        if eq == 0 || eq + 1 != text.len() || specs.next().is_some() {
            return Err(shape());
        }
        if spec.modifier == Modifier::Explode {
            return Err(shape());
        }
        let slot = self.new_slot(spec.name, spec.at)?;
        let (explode, prefix) = modifier(spec.modifier, &mut self.layout);
        let kind = ParamKind::Var {
            slot,
            explode,
            prefix,
        };
        self.param(sub(chunk, 0, eq), kind, true, chunk.start as usize)?;
        self.after_param = true;
        Ok(())
    }

    fn sequence_expr(&mut self, expr: Expression) -> Result<(), CompileError> {
        let at = expr.vars.start as usize;
        let op = expr.op;
        let sep = op.separator().as_bytes().first().copied().unwrap_or(b',');
        let (lead, min1) = match op {
            Operator::Simple | Operator::Reserved => (0, true),
            Operator::Fragment => (0, false),
            _ => (op.first().as_bytes().first().copied().unwrap_or(0), false),
        };
        let step = ExprStep {
            lead,
            sep,
            named: op == Operator::PathParam,
            min1,
            count: expr.var_count,
        };
        self.push(Step::Expr(step), at)?;
        let in_fragment = self.section == Section::Fragment;
        for spec in VarSpecs::new(self.source, expr.vars) {
            let slot = self.new_slot(spec.name, spec.at)?;
            let (explode, prefix) = modifier(spec.modifier, &mut self.layout);
            let class = class_of(op, explode, in_fragment);
            let var = VarStep {
                slot,
                class,
                explode,
                prefix,
                name: Span {
                    start: spec.at as u32,
                    end: (spec.at + spec.name.len()) as u32,
                },
            };
            self.push(Step::Var(var), spec.at)?;
        }
        Ok(())
    }
}

fn modifier(m: Modifier, layout: &mut Layout) -> (bool, u16) {
    match m {
        Modifier::None => (false, 0),
        Modifier::Explode => (true, 0),
        Modifier::Prefix(n) => {
            layout.prefixed = true;
            (false, n)
        }
    }
}

/// The class of the bytes a variable's value may hold (docs §2.1).
fn class_of(op: Operator, explode: bool, in_fragment: bool) -> u8 {
    match (op, explode) {
        (Operator::Reserved, _) if !in_fragment => norm::C_RES_PATH,
        (Operator::Reserved | Operator::Fragment, _) => norm::C_RES_FRAG,
        (_, false) => norm::C_U,
        (Operator::Path, true) => norm::C_EX_SLASH,
        (Operator::Label, true) => norm::C_EX_DOT,
        (Operator::PathParam, true) => norm::C_EX_SEMI,
        (_, true) => norm::C_EX_COMMA,
    }
}

fn find(text: &[u8], from: usize, pred: impl Fn(u8) -> bool) -> usize {
    text.get(from..)
        .and_then(|t| t.iter().position(|&c| pred(c)))
        .map_or(text.len(), |k| from + k)
}

fn sub(span: Span, from: usize, to: usize) -> Span {
    Span {
        start: span.start + from as u32,
        end: span.start + to as u32,
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::super::matcher::VecProgram;
    use super::super::{Pattern, Template};
    use super::{CompileError, CompileErrorKind, MatchOptions, Step, compile, simple_ops};
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Simple paths, paths that are not, and a simple path of 33 values (its form does not
    /// fit in 32 ops).
    fn templates() -> Vec<String> {
        let mut t: Vec<String> = [
            "",
            "x",
            "?a=1",
            "sensor://{room}/{kind}/latest{?unit}",
            "repo://{owner}/{repo}/issues/{number}{?fields}",
            "a/{x}",
            "{x}",
            "{x}/{y}",
            "{x}{y}",
            "{x}a",
            "{x}/",
            "caf\u{e9}/{x}",
            "%41/{x}",
            "{+x}/y",
            "{/x}",
            "{x:3}/y",
            "{x*}/y",
            "{x,y}/z",
            "a/{x}#f",
            "a/{x}{#f}",
            "{;x}",
        ]
        .map(String::from)
        .to_vec();
        t.push((0..33).map(|i| format!("{{v{i}}}/")).collect());
        t
    }

    /// Compact targets take the steps of a simple path's compact form without writing it:
    /// as many as wide targets write, so the same programs fit.
    #[test]
    fn compact_form_takes_the_steps_of_the_wide_one() {
        for src in templates() {
            let t = Template::<'_, 128>::parse(&src).unwrap();
            let mut p = VecProgram::default();
            let Ok(layout) = compile(t.as_ref(), MatchOptions::new(), &mut p) else {
                continue;
            };
            let path = &p.steps[..usize::from(layout.path_end)];
            let taken = &p.steps[usize::from(layout.steps)..];
            assert_eq!(taken.len(), simple_ops(&src, path), "{src}");
            assert_eq!(usize::from(layout.simple_end), p.steps.len(), "{src}");
            if crate::WIDE {
                assert!(taken.iter().all(|s| matches!(s, Step::Seg(_))), "{src}");
            } else {
                assert!(!layout.simple_path, "{src}");
            }
        }
    }

    /// The step capacities that fit, the same on both forms (the `mcp_compact` run checks
    /// the compact one against these numbers).
    #[test]
    fn capacity_is_the_same_on_both_forms() {
        let full = Err(CompileError {
            kind: CompileErrorKind::CapacityExceeded,
            at: 0,
        });
        let opts = MatchOptions::new();
        let t = Template::<'_, 8>::parse("sensor://{room}/{kind}/latest{?unit}").unwrap();
        assert!(Pattern::<'_, 11>::compile(&t, opts).is_ok());
        assert_eq!(Pattern::<'_, 10>::compile(&t, opts).map(|_| ()), full);
        let t = Template::<'_, 8>::parse("a/{x}").unwrap();
        assert!(Pattern::<'_, 4>::compile(&t, opts).is_ok());
        assert_eq!(Pattern::<'_, 3>::compile(&t, opts).map(|_| ()), full);
        // 33 values: no compact form on either.
        let src = templates().pop().unwrap();
        let t = Template::<'_, 128>::parse(&src).unwrap();
        assert!(Pattern::<'_, 99>::compile(&t, opts).is_ok());
        assert!(Pattern::<'_, 98>::compile(&t, opts).is_err());
    }
}
