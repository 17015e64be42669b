//! Expansion (RFC 6570 §3 and Appendix A) into a caller-owned sink. Never allocates.

use super::TemplateRef;
use super::error::ExpandError;
use super::parse::{Modifier, Operator, Part, Span, VarSpecs};
use super::value::{Value, Variables};
use crate::pct;

mod compact;

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

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn put_triplet(out: &mut impl Sink, b: u8) {
    out.put(pct::triplet_str(b));
}

/// Writes `s` percent-encoding every byte outside the allowed set: unreserved (U), or
/// unreserved + reserved + existing pct-encoded triplets (U+R), per RFC 6570 §3.2.1.
///
/// The common case, a value with nothing to encode (an id, a name), is one scan and one
/// `put`, inlined at the call site; anything else goes to [`encode_from`].
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn encode(out: &mut impl Sink, s: &str, allow_reserved: bool) {
    match first_to_encode(s.as_bytes(), allow_reserved) {
        None => out.put(s),
        Some(i) => encode_from(out, s, i, allow_reserved),
    }
}

/// The offset of the first byte of `bytes` that is not in the allowed set (a `%` counts,
/// even one that starts a triplet: [`encode_from`] decides).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn first_to_encode(bytes: &[u8], allow_reserved: bool) -> Option<usize> {
    if allow_reserved {
        bytes
            .iter()
            .position(|&b| !(pct::is_unreserved(b) || pct::is_reserved(b)))
    } else {
        bytes.iter().position(|&b| !pct::is_unreserved(b))
    }
}

/// [`encode`] from byte `i` on, the first byte that may need encoding; `s[..i]` is copied
/// as it is.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(never)
)]
fn encode_from(out: &mut impl Sink, s: &str, mut i: usize, allow_reserved: bool) {
    let bytes = s.as_bytes();
    let mut run = 0; // start of the current run of bytes copied as they are
    loop {
        let b = bytes.get(i).copied().unwrap_or_default();
        if allow_reserved && pct::starts_with_triplet(bytes.get(i..).unwrap_or_default()) {
            // An existing triplet passes through; its two hex digits are unreserved.
            i += 1;
        } else {
            if run < i {
                out.put(s.get(run..i).unwrap_or_default());
            }
            put_triplet(out, b);
            i += 1;
            run = i;
        }
        match first_to_encode(bytes.get(i..).unwrap_or_default(), allow_reserved) {
            Some(k) => i += k,
            None => break,
        }
    }
    if run < bytes.len() {
        out.put(s.get(run..).unwrap_or_default());
    }
}

/// Writes a template literal: ASCII and triplets as they are, other characters pct-encoded
/// as UTF-8 (RFC 6570 §3.1).
#[inline]
pub(crate) fn encode_literal(out: &mut impl Sink, s: &str) {
    // The whole-string check is a word loop that pays on 64-bit and wasm; compact targets go
    // straight to the byte loop, which puts an all-ASCII literal whole at its end.
    if crate::WIDE && s.is_ascii() {
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
    if !crate::WIDE {
        return prefix_by_bytes(s, n);
    }
    match s.char_indices().nth(usize::from(n)) {
        Some((end, _)) => s.get(..end).unwrap_or(s),
        None => s,
    }
}

/// [`prefix`] as compact targets run it (`crate::WIDE`): characters counted by their lead
/// bytes, without core's `CharIndices` decoder; the same cut (`tests`).
fn prefix_by_bytes(s: &str, n: u16) -> &str {
    let mut left = usize::from(n);
    for (i, &b) in s.as_bytes().iter().enumerate() {
        // Every byte but a UTF-8 continuation byte (`10xxxxxx`) starts a character.
        if b & 0xC0 != 0x80 {
            if left == 0 {
                return s.get(..i).unwrap_or(s);
            }
            left -= 1;
        }
    }
    s
}

/// The varspecs of an expression's (already validated) variable list.
///
/// Expansion's own, leaner `VarSpecs`, because this runs for every variable of every
/// expansion: one byte scan for the `,`, then a look at the end of the varspec for the
/// modifier, with no `char` searches and no `str::parse`.
struct Specs<'s> {
    rest: &'s [u8],
    source: &'s str,
    at: usize,
    /// Varspecs left, as the parser counted them: the last one needs no scan for `,`.
    left: u16,
    /// The parser's walk of the same list, which compact targets run instead
    /// ([`crate::WIDE`]; the same specs, `tests`).
    parsed: VarSpecs<'s>,
}

/// One varspec: name, modifier, byte offset of the name in the template source.
struct Spec<'s> {
    name: &'s str,
    modifier: Modifier,
    at: usize,
}

impl<'s> Specs<'s> {
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn new(source: &'s str, vars: Span, var_count: u16) -> Self {
        Self {
            rest: vars.of(source).as_bytes(),
            source,
            at: vars.start as usize,
            left: var_count,
            parsed: VarSpecs::new(source, vars),
        }
    }
}

impl<'s> Iterator for Specs<'s> {
    type Item = Spec<'s>;

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn next(&mut self) -> Option<Spec<'s>> {
        if !crate::WIDE {
            return self.next_parsed();
        }
        self.next_scan()
    }
}

impl<'s> Specs<'s> {
    /// [`Iterator::next`] as compact targets run it ([`crate::WIDE`]): the parser's walk.
    fn next_parsed(&mut self) -> Option<Spec<'s>> {
        let v = self.parsed.next()?;
        let (name, modifier, at) = (v.name, v.modifier, v.at);
        Some(Spec { name, modifier, at })
    }

    /// [`Iterator::next`] as wide targets run it: one scan for the `,` (none for the last).
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn next_scan(&mut self) -> Option<Spec<'s>> {
        if self.rest.is_empty() {
            return None;
        }
        let at = self.at;
        self.left = self.left.saturating_sub(1);
        let len = if self.left == 0 {
            self.rest.len()
        } else {
            self.rest
                .iter()
                .position(|&b| b == b',')
                .unwrap_or(self.rest.len())
        };
        let spec = self.rest.get(..len).unwrap_or_default();
        self.rest = self.rest.get(len + 1..).unwrap_or_default();
        self.at = at + len + 1;
        let (name_len, modifier) = modifier_of(spec);
        let name = self.source.get(at..at + name_len).unwrap_or_default();
        Some(Spec { name, modifier, at })
    }
}

/// The length of a validated varspec's name and its modifier, read from the end: `*`, or `:`
/// and 1 to 4 digits (the parser checked which).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn modifier_of(spec: &[u8]) -> (usize, Modifier) {
    match spec.split_last() {
        Some((b'*', _)) => (spec.len() - 1, Modifier::Explode),
        Some((d, head)) if d.is_ascii_digit() => prefix_modifier(head, *d),
        _ => (spec.len(), Modifier::None),
    }
}

/// Reads a `:n` suffix whose last digit is `last` and which `head` precedes; a name that
/// merely ends in digits (`v2`) has no modifier.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn prefix_modifier(head: &[u8], last: u8) -> (usize, Modifier) {
    let mut value = u16::from(last - b'0');
    let mut scale: u16 = 10;
    let mut i = head.len();
    while let Some(&b) = i.checked_sub(1).and_then(|j| head.get(j)) {
        i -= 1;
        match b {
            b'0'..=b'9' if scale <= 1000 => {
                value += u16::from(b - b'0') * scale;
                scale *= 10;
            }
            b':' => return (i, Modifier::Prefix(value)),
            _ => break,
        }
    }
    (head.len() + 1, Modifier::None)
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
                expand_expression(
                    expr.op,
                    Specs::new(t.source, expr.vars, expr.var_count),
                    vars,
                    out,
                )?;
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
    specs: Specs<'_>,
    vars: &V,
    out: &mut impl Sink,
) -> Result<(), ExpandError> {
    if !crate::WIDE {
        return compact::expand_expression(op, specs, vars, out);
    }
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
        let lead = if first { op.first() } else { sep };
        if !lead.is_empty() {
            out.put(lead);
        }
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

#[cfg(test)]
mod tests {
    use super::{Specs, prefix, prefix_by_bytes};
    use crate::template::{Part, Template};

    /// Compact targets' varspec walk (the parser's) gives expansion's specs.
    #[test]
    fn specs_both_forms_agree() {
        for source in [
            "{a}",
            "x{a,b2,c*}y{+path:12}{?q,r:3,s*}",
            "{#f%41,v2:1,long_name:9999}",
            "{.x,y}{/p*}{;k,l:5}{&m}",
        ] {
            let t: Template<'_, 8> = Template::parse(source).unwrap();
            let mut checked = 0;
            for part in t.parts() {
                let Part::Expression(e) = part else { continue };
                let mut a = Specs::new(source, e.vars, e.var_count);
                let mut b = Specs::new(source, e.vars, e.var_count);
                loop {
                    let (x, y) = (a.next_scan(), b.next_parsed());
                    let x = x.map(|s| (s.name, s.modifier, s.at));
                    let y = y.map(|s| (s.name, s.modifier, s.at));
                    assert_eq!(x, y, "{source}");
                    if x.is_none() {
                        break;
                    }
                    checked += 1;
                }
            }
            assert!(checked > 0);
        }
    }

    /// Compact targets' prefix cut agrees with the `char_indices` one.
    #[test]
    fn prefix_both_forms_agree() {
        for s in [
            "",
            "a",
            "abc",
            "h\u{e9}llo",
            "\u{20ac}\u{20ac}x",
            "\u{1f600}a\u{1f600}",
            "\u{7ff}\u{800}\u{ffff}\u{10000}",
        ] {
            for n in 0..=12 {
                assert_eq!(prefix_by_bytes(s, n), prefix(s, n), "{s:?} {n}");
            }
        }
    }
}
