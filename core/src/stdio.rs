//! The stdio transport's framing, once for every runner (docs/rules.md §15.2): a sans-IO
//! [`LineSplitter`] the runner feeds with the bytes it reads, complete lines out, each line
//! bounded; an over-long line is reported once ([`Line::TooLong`]) with its first bytes and the
//! rest of it is skipped, never buffered. The server machine answers it
//! ([`Server::handle_line_too_long`](crate::server::Server::handle_line_too_long)); the bound
//! is [`ServerConfig::max_line`](crate::server::ServerConfig::max_line).
//!
//! ```
//! use mcp_context::stdio::{Line, LineSplitter};
//! let mut lines = LineSplitter::new(8);
//! let mut got = Vec::new();
//! lines.feed(b"{}\r\n\n[1,", |l| got.push(format!("{l:?}")));
//! lines.feed(b"2]\n0123456789\n", |l| got.push(format!("{l:?}")));
//! assert_eq!(got.len(), 3); // "{}", "[1,2]", then the 10-byte line as too long
//! ```

use alloc::vec::Vec;

use crate::json::scan::{scan_string, skip_ws, validate_value};
use crate::json::{Limits, validate};
use crate::jsonrpc::RequestId;

/// How many of an over-long line's first bytes [`Line::TooLong`] carries: enough for the
/// `jsonrpc`, `id` and `method` members a request usually starts with.
pub const HEAD_LEN: usize = 1024;

/// One line out of a [`LineSplitter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line without its `\n` (nor a `\r` before it), not blank: one message to handle.
    Message(&'a [u8]),
    /// A line longer than the bound: its first bytes (at most [`HEAD_LEN`]); the rest, up to
    /// its `\n`, is skipped. Answer it with
    /// [`Server::handle_line_too_long`](crate::server::Server::handle_line_too_long).
    TooLong {
        /// The line's first bytes.
        head: &'a [u8],
    },
}

/// Splits a byte stream at `\n` into bounded lines. Blank lines (ASCII whitespace only) are
/// skipped. A line counts its bytes before the `\n` (a `\r` included); longer than the
/// bound, it is reported once as soon as the bound is crossed and its remaining bytes are
/// dropped as they arrive. A line that fits in one fed chunk is given without a copy.
#[derive(Debug, Clone)]
pub struct LineSplitter {
    max_line: usize,
    partial: Vec<u8>,
    discarding: bool,
}

impl LineSplitter {
    /// A splitter refusing lines over `max_line` bytes.
    #[must_use]
    pub fn new(max_line: usize) -> Self {
        Self {
            max_line,
            partial: Vec::new(),
            discarding: false,
        }
    }

    /// Feeds bytes read from the transport; calls `on_line` for each line they complete.
    pub fn feed(&mut self, bytes: &[u8], mut on_line: impl FnMut(Line<'_>)) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let newline = rest.iter().position(|b| *b == b'\n');
            if self.discarding {
                let Some(nl) = newline else { return };
                self.discarding = false;
                rest = rest.get(nl + 1..).unwrap_or_default();
                continue;
            }
            let Some(nl) = newline else {
                if self.partial.len() + rest.len() > self.max_line {
                    self.too_long(rest, &mut on_line);
                    return;
                }
                self.partial.extend_from_slice(rest);
                return;
            };
            let (text, tail) = rest.split_at(nl);
            rest = tail.get(1..).unwrap_or_default();
            if self.partial.len() + text.len() > self.max_line {
                self.too_long(text, &mut on_line);
                self.discarding = false;
                continue;
            }
            if self.partial.is_empty() {
                emit(text, &mut on_line);
            } else {
                let mut line = core::mem::take(&mut self.partial);
                line.extend_from_slice(text);
                emit(&line, &mut on_line);
                line.clear();
                self.partial = line;
            }
        }
    }

    /// The input ended: a last line without `\n` is a message (if it fits and is not
    /// blank).
    pub fn finish(&mut self, mut on_line: impl FnMut(Line<'_>)) {
        let line = core::mem::take(&mut self.partial);
        if !core::mem::take(&mut self.discarding) {
            emit(&line, &mut on_line);
        }
    }

    /// The line in progress (`partial` + `more`) crossed the bound: reported with its head;
    /// skipped up to its `\n`.
    fn too_long(&mut self, more: &[u8], on_line: &mut impl FnMut(Line<'_>)) {
        let have = self.partial.len();
        if have < HEAD_LEN {
            let take = (HEAD_LEN - have).min(more.len());
            self.partial
                .extend_from_slice(more.get(..take).unwrap_or_default());
        }
        let head = self.partial.get(..HEAD_LEN).unwrap_or(&self.partial);
        on_line(Line::TooLong { head });
        // Give the memory back: a long line is rare, the buffer could be the bound's size.
        self.partial = Vec::new();
        self.discarding = true;
    }
}

fn emit(text: &[u8], on_line: &mut impl FnMut(Line<'_>)) {
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    if !text.iter().all(u8::is_ascii_whitespace) {
        on_line(Line::Message(text));
    }
}

/// The `id` of the request whose text starts with `head` (the rest cut off), when it can be
/// read there: `head` starts an object whose members before `id` are complete and whose
/// `id` value is complete and followed by another byte. `None` otherwise (answer with
/// `id: null`, JSON-RPC 2.0 §5).
pub(crate) fn leading_id(head: &[u8]) -> Option<RequestId<'_>> {
    let mut i = skip_ws(head, 0);
    if head.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(head, i + 1);
    loop {
        if head.get(i) != Some(&b'"') {
            return None;
        }
        let (end, _) = scan_string(head, i + 1).ok()?;
        let key = head.get(i..end)?;
        i = skip_ws(head, end);
        if head.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(head, i + 1);
        let end = validate_value(head, start, Limits::MAX_DEPTH).ok()?;
        // A number at the very end may go on past the cut.
        if end >= head.len() {
            return None;
        }
        if key == b"\"id\"" {
            let value = validate(head.get(start..end)?, Limits::DEFAULT).ok()?;
            return RequestId::from_json(value).ok();
        }
        i = skip_ws(head, end);
        if head.get(i) != Some(&b',') {
            return None;
        }
        i = skip_ws(head, i + 1);
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec;

    use super::*;

    #[derive(Debug, PartialEq)]
    enum L {
        M(String),
        Long(usize),
    }

    fn split(max: usize, chunks: &[&[u8]], finish: bool) -> Vec<L> {
        let mut s = LineSplitter::new(max);
        let mut out = Vec::new();
        let mut push = |l: Line<'_>| {
            out.push(match l {
                Line::Message(m) => L::M(String::from_utf8_lossy(m).into_owned()),
                Line::TooLong { head } => L::Long(head.len()),
            });
        };
        for c in chunks {
            s.feed(c, &mut push);
        }
        if finish {
            s.finish(&mut push);
        }
        out
    }

    fn m(s: &str) -> L {
        L::M(String::from(s))
    }

    #[test]
    fn lines_blank_lines_and_line_endings() {
        assert_eq!(
            split(16, &[b"a\r\n\n  \r\nb", b"c\nd"], false),
            [m("a"), m("bc")]
        );
        assert_eq!(split(16, &[b"a\nd"], true), [m("a"), m("d")]);
        assert_eq!(split(16, &[b"a\n \t"], true), [m("a")]);
    }

    #[test]
    fn an_over_long_line_is_reported_once_and_skipped_to_its_newline() {
        // Exactly the bound fits; one more byte does not.
        assert_eq!(
            split(4, &[b"abcd\nabcde\nok\n"], false),
            [m("abcd"), L::Long(5), m("ok")]
        );
        // Crossed before its newline arrives: reported at once, the rest dropped as it comes.
        assert_eq!(split(4, &[b"ab", b"cde"], false), [L::Long(5)]);
        assert_eq!(
            split(4, &[b"ab", b"cde", b"fgh", b"ij\nok\n"], true),
            [L::Long(5), m("ok")]
        );
        // Cut off by the end of input: nothing more.
        assert_eq!(split(4, &[b"abcdefgh"], true), [L::Long(8)]);
        // The head is the line's first HEAD_LEN bytes.
        let big = vec![b'x'; 3 * HEAD_LEN];
        let mut s = LineSplitter::new(HEAD_LEN * 2);
        let mut heads = Vec::new();
        s.feed(&big[..10], |_| unreachable!());
        s.feed(&big[10..], |l| {
            heads.push(
                l == Line::TooLong {
                    head: &big[..HEAD_LEN],
                },
            )
        });
        s.feed(b"\n{}\n", |l| heads.push(l == Line::Message(b"{}")));
        assert_eq!(heads, [true, true]);
        assert!(s.partial.capacity() <= 2 * HEAD_LEN);
    }

    #[test]
    fn ids_are_read_from_a_line_start() {
        let id = |s: &str| leading_id(s.as_bytes()).map(|i| i.to_owned_id());
        use crate::jsonrpc::OwnedRequestId as O;
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"#),
            Some(O::Int(7))
        );
        assert_eq!(
            id(r#" { "id" : "a\"b" ,"#),
            Some(O::Str(String::from("a\"b")))
        );
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","method":"x","params":{"n":[1,2]},"id":8,"#),
            Some(O::Int(8))
        );
        // Cut inside or right after the id, or before it: unknown.
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":7"#), None);
        assert_eq!(id(r#"{"jsonrpc":"2.0","id":"ab"#), None);
        assert_eq!(
            id(r#"{"jsonrpc":"2.0","method":"x","params":{"a":"long"#),
            None
        );
        // Not an object, a bad id, no id.
        assert_eq!(id(r#"[{"id":1},"#), None);
        assert_eq!(id(r#"{"id":1.5,"#), None);
        assert_eq!(id(r#"{"id":null,"#), None);
        assert_eq!(id(r#"{"a":1}  "#), None);
        assert_eq!(id(""), None);
    }
}
