//! Parsing RFC 6570 templates (levels 1–4) into a list of parts that borrow the source.
//!
//! A parsed template is the source string plus a list of [`Part`]s holding byte spans into it.
//! Because parts hold spans rather than references, the same parse result serves a borrowed
//! template with fixed capacity ([`Template`], no allocation) and an owned one
//! ([`OwnedTemplate`], with `alloc`). Both hand out a [`TemplateRef`], which is what the
//! expander and the matcher read.

use super::error::{ParseError, ParseErrorKind};
use crate::pct;

/// A byte range of the template source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn of(self, source: &str) -> &str {
        source
            .get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

/// An expression operator (RFC 6570 §2.2, §3.2.1 table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `{var}`: simple string expansion.
    Simple,
    /// `{+var}`: reserved expansion.
    Reserved,
    /// `{#var}`: fragment expansion.
    Fragment,
    /// `{.var}`: label expansion with dot prefix.
    Label,
    /// `{/var}`: path segment expansion.
    Path,
    /// `{;var}`: path-style parameter expansion.
    PathParam,
    /// `{?var}`: form-style query expansion.
    Query,
    /// `{&var}`: form-style query continuation.
    QueryContinuation,
}

impl Operator {
    /// The operator character, or `None` for simple expansion.
    #[must_use]
    pub fn as_char(self) -> Option<char> {
        match self {
            Self::Simple => None,
            Self::Reserved => Some('+'),
            Self::Fragment => Some('#'),
            Self::Label => Some('.'),
            Self::Path => Some('/'),
            Self::PathParam => Some(';'),
            Self::Query => Some('?'),
            Self::QueryContinuation => Some('&'),
        }
    }

    /// The string written before the first defined value (RFC 6570 Appendix A, `first`).
    #[must_use]
    pub fn first(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved => "",
            Self::Fragment => "#",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query => "?",
            Self::QueryContinuation => "&",
        }
    }

    /// The separator between values (Appendix A, `sep`).
    #[must_use]
    pub fn separator(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved | Self::Fragment => ",",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query | Self::QueryContinuation => "&",
        }
    }

    /// Whether values are written as `name=value` (Appendix A, `named`).
    #[must_use]
    pub fn is_named(self) -> bool {
        matches!(
            self,
            Self::PathParam | Self::Query | Self::QueryContinuation
        )
    }

    /// What follows the name of an empty value (Appendix A, `ifemp`): `=` for query forms.
    #[must_use]
    pub fn if_empty(self) -> &'static str {
        match self {
            Self::Query | Self::QueryContinuation => "=",
            _ => "",
        }
    }

    /// Whether reserved characters and pct-encoded triplets pass through unencoded
    /// (Appendix A, `allow` = U+R).
    #[must_use]
    pub fn allows_reserved(self) -> bool {
        matches!(self, Self::Reserved | Self::Fragment)
    }

    fn from_byte(b: u8) -> Option<Self> {
        Some(match b {
            b'+' => Self::Reserved,
            b'#' => Self::Fragment,
            b'.' => Self::Label,
            b'/' => Self::Path,
            b';' => Self::PathParam,
            b'?' => Self::Query,
            b'&' => Self::QueryContinuation,
            _ => return None,
        })
    }
}

/// A value modifier (RFC 6570 §2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// No modifier.
    None,
    /// `:n`, keep the first `n` characters (1..=9999).
    Prefix(u16),
    /// `*`, explode a list or associative value.
    Explode,
}

/// One `varspec` of an expression: a name and its modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarSpec<'a> {
    /// The variable name exactly as written (pct-encoded triplets kept).
    pub name: &'a str,
    /// The modifier.
    pub modifier: Modifier,
    /// Byte offset of the name in the template source.
    pub at: usize,
}

/// An expression: an operator and its variable list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expression {
    /// The operator.
    pub op: Operator,
    /// The variable list text (after the operator, before `}`).
    pub vars: Span,
    /// How many varspecs the list holds (≥ 1).
    pub var_count: u16,
}

/// One part of a parsed template: a literal run or an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Literal text, as written (pct-encoded triplets kept, non-ASCII unencoded).
    Literal(Span),
    /// An expression `{…}`.
    Expression(Expression),
}

/// Iterator over the varspecs of an already validated variable list.
#[derive(Debug, Clone)]
pub struct VarSpecs<'a> {
    rest: &'a str,
    offset: usize,
}

impl<'a> VarSpecs<'a> {
    pub(crate) fn new(source: &'a str, vars: Span) -> Self {
        Self {
            rest: vars.of(source),
            offset: vars.start as usize,
        }
    }
}

impl<'a> Iterator for VarSpecs<'a> {
    type Item = VarSpec<'a>;

    fn next(&mut self) -> Option<VarSpec<'a>> {
        if !crate::WIDE {
            return self.next_by_bytes();
        }
        if self.rest.is_empty() {
            return None;
        }
        let (spec, rest, step) = match self.rest.find(',') {
            Some(i) => (self.rest.get(..i)?, self.rest.get(i + 1..)?, i + 1),
            None => (self.rest, "", self.rest.len()),
        };
        let at = self.offset;
        self.rest = rest;
        self.offset += step;
        let (name, modifier) = if let Some(name) = spec.strip_suffix('*') {
            (name, Modifier::Explode)
        } else if let Some((name, n)) = spec.split_once(':') {
            (name, Modifier::Prefix(n.parse().unwrap_or(1)))
        } else {
            (spec, Modifier::None)
        };
        Some(VarSpec { name, modifier, at })
    }
}

impl<'a> VarSpecs<'a> {
    /// [`VarSpecs::next`] as compact targets run it (`crate::WIDE`): byte scans for the `,`
    /// and for the modifier after the name (a name holds neither `:` nor `*`), and the
    /// prefix's digits read forward, without `str::find`'s searcher and `str::parse`. The
    /// list is validated, so the answers are the same (`parse::tests`).
    fn next_by_bytes(&mut self) -> Option<VarSpec<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let b = self.rest.as_bytes();
        let len = b.iter().position(|&c| c == b',').unwrap_or(b.len());
        let spec = b.get(..len).unwrap_or_default();
        let name_len = spec
            .iter()
            .position(|&c| c == b':' || c == b'*')
            .unwrap_or(len);
        let modifier = match spec.get(name_len) {
            None => Modifier::None,
            Some(b'*') => Modifier::Explode,
            Some(_) => Modifier::Prefix(
                spec.get(name_len + 1..)
                    .unwrap_or_default()
                    .iter()
                    .fold(0u16, |n, &d| {
                        n.wrapping_mul(10).wrapping_add(u16::from(d & 0xf))
                    }),
            ),
        };
        let at = self.offset;
        let name = self.rest.get(..name_len).unwrap_or_default();
        self.rest = self.rest.get(len + 1..).unwrap_or_default();
        self.offset += len + 1;
        Some(VarSpec { name, modifier, at })
    }
}

/// Receives the parts of a template as the parser finds them.
pub(crate) trait PartSink {
    /// Stores a part; `false` when full.
    fn push(&mut self, part: Part) -> bool;
}

/// Parses `source`, checking every RFC 6570 rule, and feeds the parts to `sink`.
pub(crate) fn parse_into(source: &str, sink: &mut impl PartSink) -> Result<(), ParseError> {
    if u32::try_from(source.len()).is_err() {
        return Err(ParseError {
            kind: ParseErrorKind::TooLong,
            at: 0,
        });
    }
    let bytes = source.as_bytes();
    let mut i = 0usize;
    let mut push = |part: Part, at: usize| {
        if sink.push(part) {
            Ok(())
        } else {
            Err(ParseError {
                kind: ParseErrorKind::CapacityExceeded,
                at,
            })
        }
    };
    while i < bytes.len() {
        if bytes.get(i) == Some(&b'{') {
            let (expr, next) = parse_expression(source, i)?;
            push(Part::Expression(expr), i)?;
            i = next;
        } else {
            let end = scan_literal(source, i)?;
            push(Part::Literal(span(i, end)), i)?;
            i = end;
        }
    }
    Ok(())
}

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn span(start: usize, end: usize) -> Span {
    // `parse_into` checked that the source fits in u32.
    Span {
        start: start as u32,
        end: end as u32,
    }
}

fn err(kind: ParseErrorKind, at: usize) -> ParseError {
    ParseError { kind, at }
}

/// Scans a literal run starting at `start`; returns where it ends (at a `{` or the end).
fn scan_literal(source: &str, start: usize) -> Result<usize, ParseError> {
    let bytes = source.as_bytes();
    let mut i = start;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' => break,
            b'}' => return Err(err(ParseErrorKind::UnexpectedBrace, i)),
            b'%' => {
                if !pct::starts_with_triplet(bytes.get(i..).unwrap_or_default()) {
                    return Err(err(ParseErrorKind::InvalidPercentEncoding, i));
                }
                i += 3;
            }
            0x80.. => {
                let c = source.get(i..).and_then(|s| s.chars().next());
                match c {
                    Some(c) if is_ucschar_or_iprivate(c) => i += c.len_utf8(),
                    _ => return Err(err(ParseErrorKind::InvalidLiteral, i)),
                }
            }
            _ if pct::is_literal_ascii(b) => i += 1,
            _ => return Err(err(ParseErrorKind::InvalidLiteral, i)),
        }
    }
    Ok(i)
}

/// `ucschar / iprivate` of RFC 3987 §2.2, which RFC 6570 §2.1 allows in literals.
#[must_use]
pub(crate) fn is_ucschar_or_iprivate(c: char) -> bool {
    let c = u32::from(c);
    match c {
        0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0xE0000..=0xE0FFF => false,
        0x10000.. => c & 0xFFFF <= 0xFFFD,
        _ => false,
    }
}

/// Parses the expression whose `{` is at `open`; returns it and the offset after its `}`.
fn parse_expression(source: &str, open: usize) -> Result<(Expression, usize), ParseError> {
    let bytes = source.as_bytes();
    let mut i = open + 1;
    let op = match bytes.get(i) {
        None => return Err(err(ParseErrorKind::UnclosedExpression, open)),
        Some(b'}') => return Err(err(ParseErrorKind::EmptyExpression, i)),
        Some(b'=' | b',' | b'!' | b'@' | b'|') => {
            return Err(err(ParseErrorKind::ReservedOperator, i));
        }
        Some(&b) => match Operator::from_byte(b) {
            Some(op) => {
                i += 1;
                op
            }
            None => Operator::Simple,
        },
    };
    let vars_start = i;
    let mut count: u16 = 0;
    loop {
        // varname = varchar *( ["."] varchar )
        let name_start = i;
        let mut last_was_dot = true; // a name may not start with "."
        loop {
            match bytes.get(i) {
                Some(b'%') => {
                    if !pct::starts_with_triplet(bytes.get(i..).unwrap_or_default()) {
                        return Err(err(ParseErrorKind::InvalidPercentEncoding, i));
                    }
                    i += 3;
                    last_was_dot = false;
                }
                Some(b'.') => {
                    if last_was_dot {
                        return Err(err(ParseErrorKind::InvalidVarName, i));
                    }
                    last_was_dot = true;
                    i += 1;
                }
                Some(&b) if pct::is_varchar(b) => {
                    last_was_dot = false;
                    i += 1;
                }
                _ => break,
            }
        }
        if i == name_start {
            return Err(match bytes.get(i) {
                None => err(ParseErrorKind::UnclosedExpression, open),
                Some(b'}' | b',') => err(ParseErrorKind::EmptyVarName, i),
                Some(b'{') => err(ParseErrorKind::UnexpectedBrace, i),
                Some(_) => err(ParseErrorKind::InvalidVarName, i),
            });
        }
        if last_was_dot {
            // a trailing "." (`{x.}`)
            return Err(err(ParseErrorKind::InvalidVarName, i - 1));
        }
        // modifier-level4 = prefix / explode
        match bytes.get(i) {
            Some(b':') => {
                let digits_start = i + 1;
                let mut j = digits_start;
                let mut value: u32 = 0;
                while let Some(&d) = bytes.get(j) {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    value = value * 10 + u32::from(d - b'0');
                    j += 1;
                    if j - digits_start > 4 {
                        return Err(err(ParseErrorKind::InvalidPrefix, digits_start));
                    }
                }
                if j == digits_start || bytes.get(digits_start) == Some(&b'0') || value == 0 {
                    return Err(err(ParseErrorKind::InvalidPrefix, digits_start));
                }
                i = j;
            }
            Some(b'*') => i += 1,
            _ => {}
        }
        count = count.saturating_add(1);
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b'}') => {
                let expr = Expression {
                    op,
                    vars: span(vars_start, i),
                    var_count: count,
                };
                return Ok((expr, i + 1));
            }
            None => return Err(err(ParseErrorKind::UnclosedExpression, open)),
            Some(b'{') => return Err(err(ParseErrorKind::UnexpectedBrace, i)),
            Some(_) => return Err(err(ParseErrorKind::InvalidModifier, i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::VarSpecs;
    use crate::template::{Part, Template};

    /// Compact targets' byte scan gives the `str` form's varspecs for every expression.
    #[test]
    fn varspecs_both_forms_agree() {
        let sources = [
            "{x}",
            "{x,y}",
            "{+path:6}/here",
            "{#x,hello,y}",
            "{.who,who}",
            "{/list*,path:4}",
            "{;x,y,empty}",
            "{?x,y,undef}",
            "{&var:3}",
            "X{.list*}",
            "{var:30}{var:1000}{v2}{v2:9}{a.b_c%20d}",
            "sensor://{room}/{kind}/latest{?unit}",
            "{keys*}{?keys,list*}{x9,y:12,z*}",
            "{%E2%82%AC:2,%41b*,c}",
        ];
        for source in sources {
            let t: Template<'_, 8> = Template::parse(source).unwrap();
            let r = t.as_ref();
            for part in r.parts {
                let Part::Expression(e) = part else { continue };
                let mut bytes = VarSpecs::new(source, e.vars);
                let strs: std::vec::Vec<_> = VarSpecs::new(source, e.vars).collect();
                for want in &strs {
                    assert_eq!(bytes.next_by_bytes().as_ref(), Some(want), "{source}");
                }
                assert_eq!(bytes.next_by_bytes(), None, "{source}");
                assert_eq!(strs.len(), usize::from(e.var_count));
            }
        }
    }
}
