//! W3C Trace Context `traceparent`: the one parser every runner uses, for the value in a
//! request's `params._meta` and for the HTTP header (docs/rules.md §26.3).

/// A valid `traceparent` value, borrowed: `version-traceid-parentid-flags`, lowercase hex,
/// the ids not all zero, version `ff` refused (W3C Trace Context §3.2).
///
/// ```
/// use mcp_context::observe::TraceParent;
/// let t = TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
/// assert_eq!(t.trace_id_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
/// assert!(t.sampled());
/// assert!(TraceParent::parse("00-00000000000000000000000000000000-00f067aa0ba902b7-01").is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceParent<'a> {
    text: &'a str,
    flags: u8,
}

/// Length of a version-00 `traceparent`.
const LEN: usize = 55;

impl<'a> TraceParent<'a> {
    /// Parses `text` (surrounding spaces and tabs allowed, as in an HTTP header); `None`
    /// when it is not a valid `traceparent`. A version above `00` may carry more fields
    /// after the flags, separated by `-`; they are ignored.
    #[must_use]
    pub fn parse(text: &'a str) -> Option<Self> {
        let text = text.trim_matches([' ', '\t']);
        let b = text.as_bytes();
        let head: &[u8; LEN] = b.get(..LEN)?.try_into().ok()?;
        if head[2] != b'-' || head[35] != b'-' || head[52] != b'-' {
            return None;
        }
        let version = hex_byte(head[0], head[1])?;
        let more = b.get(LEN).copied();
        if version == 0xff || (version == 0 && more.is_some()) || more.is_some_and(|c| c != b'-') {
            return None;
        }
        let (trace, span) = (&head[3..35], &head[36..52]);
        if !all_hex(trace) || !all_hex(span) || all_zero(trace) || all_zero(span) {
            return None;
        }
        let flags = hex_byte(head[53], head[54])?;
        Some(Self {
            text: text.get(..LEN)?,
            flags,
        })
    }

    /// The whole value (version 00 form, 55 characters).
    #[must_use]
    pub const fn as_str(&self) -> &'a str {
        self.text
    }

    /// The trace id, 32 lowercase hex digits.
    #[must_use]
    pub fn trace_id_hex(&self) -> &'a str {
        self.text.get(3..35).unwrap_or_default()
    }

    /// The parent span id, 16 lowercase hex digits.
    #[must_use]
    pub fn span_id_hex(&self) -> &'a str {
        self.text.get(36..52).unwrap_or_default()
    }

    /// The trace flags.
    #[must_use]
    pub const fn flags(&self) -> u8 {
        self.flags
    }

    /// The `sampled` flag.
    #[must_use]
    pub const fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }

    /// The trace id as 16 bytes.
    #[must_use]
    pub fn trace_id(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        fill(&mut out, self.trace_id_hex().as_bytes());
        out
    }

    /// The parent span id as 8 bytes.
    #[must_use]
    pub fn span_id(&self) -> [u8; 8] {
        let mut out = [0u8; 8];
        fill(&mut out, self.span_id_hex().as_bytes());
        out
    }

    /// The parent of a request's span (docs/rules.md §26.3): the request's own
    /// `params._meta.traceparent` when valid (it names the client's span for this very
    /// message), else the HTTP `traceparent` header of the POST that carried it, else none.
    #[must_use]
    pub fn choose(meta: Option<&'a str>, header: Option<&'a str>) -> Option<Self> {
        meta.and_then(Self::parse)
            .or_else(|| header.and_then(Self::parse))
    }
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

fn hex_byte(hi: u8, lo: u8) -> Option<u8> {
    Some((nibble(hi)? << 4) | nibble(lo)?)
}

fn all_hex(b: &[u8]) -> bool {
    b.iter().all(|&c| nibble(c).is_some())
}

fn all_zero(b: &[u8]) -> bool {
    b.iter().all(|&c| c == b'0')
}

fn fill(out: &mut [u8], hex: &[u8]) {
    for (o, pair) in out.iter_mut().zip(hex.chunks_exact(2)) {
        if let [hi, lo] = *pair {
            *o = hex_byte(hi, lo).unwrap_or(0);
        }
    }
}
