//! Expansion (RFC 6570 §3 and Appendix A) into a caller-owned sink. Never allocates.

use super::TemplateRef;
use super::error::ExpandError;
use super::parse::{Modifier, Operator, Part, VarSpecs};
use super::value::{Value, Variables};
use crate::pct;

/// Where expansion output goes: a `fmt::Write`, a byte slice, or a length counter.
pub(crate) trait Sink {
    /// Appends ASCII or UTF-8 text.
    fn put(&mut self, s: &str);
    /// Whether output failed (the writer errored); expansion stops early.
    fn failed(&self) -> bool;
}

/// Writes into any `core::fmt::Write`.
pub(crate) struct FmtSink<'w, W: core::fmt::Write + ?Sized> {
    pub(crate) w: &'w mut W,
    pub(crate) failed: bool,
}

impl<W: core::fmt::Write + ?Sized> Sink for FmtSink<'_, W> {
    #[inline]
    fn put(&mut self, s: &str) {
        if !self.failed && self.w.write_str(s).is_err() {
            self.failed = true;
        }
    }
    fn failed(&self) -> bool {
        self.failed
    }
}

/// Writes into a byte slice, counting what does not fit so the error can say how much is needed.
pub(crate) struct SliceSink<'b> {
    pub(crate) buf: &'b mut [u8],
    pub(crate) len: usize,
}

impl Sink for SliceSink<'_> {
    #[inline]
    fn put(&mut self, s: &str) {
        let end = self.len + s.len();
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(s.as_bytes());
        }
        self.len = end;
    }
    fn failed(&self) -> bool {
        false
    }
}

/// Counts the bytes of the expansion.
pub(crate) struct LenSink(pub(crate) usize);

impl Sink for LenSink {
    #[inline]
    fn put(&mut self, s: &str) {
        self.0 += s.len();
    }
    fn failed(&self) -> bool {
        false
    }
}

#[inline(always)]
fn put_triplet(out: &mut impl Sink, b: u8) {
    out.put(pct::triplet_str(b));
}

/// Writes `s` percent-encoding every byte outside the allowed set: unreserved (U), or
/// unreserved + reserved + existing pct-encoded triplets (U+R), per RFC 6570 §3.2.1.
#[inline]
pub(crate) fn encode(out: &mut impl Sink, s: &str, allow_reserved: bool) {
    let bytes = s.as_bytes();
    let mut run = 0; // start of the current run of bytes copied as they are
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let keep = pct::is_unreserved(b)
            || (allow_reserved
                && (pct::is_reserved(b)
                    || (b == b'%'
                        && pct::starts_with_triplet(bytes.get(i..).unwrap_or_default()))));
        if keep {
            i += 1;
            continue;
        }
        if run < i {
            out.put(s.get(run..i).unwrap_or_default());
        }
        put_triplet(out, b);
        i += 1;
        run = i;
    }
    if run < bytes.len() {
        out.put(s.get(run..).unwrap_or_default());
    }
}

/// Writes a template literal: ASCII and triplets as they are, other characters pct-encoded
/// as UTF-8 (RFC 6570 §3.1).
#[inline]
pub(crate) fn encode_literal(out: &mut impl Sink, s: &str) {
    if s.is_ascii() {
        out.put(s);
        return;
    }
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b.is_ascii() {
            continue;
        }
        if run < i {
            out.put(s.get(run..i).unwrap_or_default());
        }
        put_triplet(out, b);
        run = i + 1;
    }
    if run < bytes.len() {
        out.put(s.get(run..).unwrap_or_default());
    }
}

/// The first `n` characters of `s` (RFC 6570 §2.4.1 counts characters, not bytes).
#[inline]
fn prefix(s: &str, n: u16) -> &str {
    match s.char_indices().nth(usize::from(n)) {
        Some((end, _)) => s.get(..end).unwrap_or(s),
        None => s,
    }
}

/// Expands `t` with `vars` into `out` (RFC 6570 Appendix A).
pub(crate) fn expand<V: Variables + ?Sized>(
    t: TemplateRef<'_>,
    vars: &V,
    out: &mut impl Sink,
) -> Result<(), ExpandError> {
    for part in t.parts {
        match *part {
            Part::Literal(span) => encode_literal(out, span.of(t.source)),
            Part::Expression(expr) => {
                expand_expression(expr.op, VarSpecs::new(t.source, expr.vars), vars, out)?;
            }
        }
        if out.failed() {
            return Err(ExpandError::Write);
        }
    }
    Ok(())
}

fn expand_expression<V: Variables + ?Sized>(
    op: Operator,
    specs: VarSpecs<'_>,
    vars: &V,
    out: &mut impl Sink,
) -> Result<(), ExpandError> {
    let allow = op.allows_reserved();
    let named = op.is_named();
    let sep = op.separator();
    let mut first = true;
    for spec in specs {
        let Some(value) = vars.get(spec.name) else {
            continue;
        };
        if value.is_undefined() {
            continue;
        }
        out.put(if first { op.first() } else { sep });
        first = false;
        match value {
            Value::Str(s) => {
                if named {
                    out.put(spec.name);
                    if s.is_empty() {
                        out.put(op.if_empty());
                        continue;
                    }
                    out.put("=");
                }
                let s = match spec.modifier {
                    Modifier::Prefix(n) => prefix(s, n),
                    _ => s,
                };
                encode(out, s, allow);
            }
            Value::List(items) => match spec.modifier {
                Modifier::Prefix(_) => return Err(ExpandError::PrefixOnComposite { at: spec.at }),
                Modifier::None => {
                    if named {
                        out.put(spec.name);
                        out.put("=");
                    }
                    for (k, item) in items.iter().enumerate() {
                        if k > 0 {
                            out.put(",");
                        }
                        encode(out, item, allow);
                    }
                }
                Modifier::Explode => {
                    for (k, item) in items.iter().enumerate() {
                        if k > 0 {
                            out.put(sep);
                        }
                        if named {
                            out.put(spec.name);
                            if item.is_empty() {
                                out.put(op.if_empty());
                                continue;
                            }
                            out.put("=");
                        }
                        encode(out, item, allow);
                    }
                }
            },
            Value::Assoc(pairs) => match spec.modifier {
                Modifier::Prefix(_) => return Err(ExpandError::PrefixOnComposite { at: spec.at }),
                Modifier::None => {
                    if named {
                        out.put(spec.name);
                        out.put("=");
                    }
                    for (k, (key, val)) in pairs.iter().enumerate() {
                        if k > 0 {
                            out.put(",");
                        }
                        encode(out, key, allow);
                        out.put(",");
                        encode(out, val, allow);
                    }
                }
                Modifier::Explode => {
                    for (k, (key, val)) in pairs.iter().enumerate() {
                        if k > 0 {
                            out.put(sep);
                        }
                        encode(out, key, allow);
                        if named && val.is_empty() {
                            out.put(op.if_empty());
                            continue;
                        }
                        out.put("=");
                        encode(out, val, allow);
                    }
                }
            },
        }
    }
    Ok(())
}
