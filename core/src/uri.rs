//! RFC 3986 syntax check of a concrete URI (docs/rules.md §7: "Servers **MUST** validate all
//! resource URIs"; §16.5 item 34: custom schemes follow RFC 3986).
//!
//! [`validate_uri`] accepts exactly the `URI` rule of RFC 3986 §3 (a scheme is required; a
//! relative reference is refused), checks every percent-encoding, and reports the first
//! offending byte. [`Uri::parse`] does the same and returns the five components, borrowed.
//! Nothing is normalised or decoded, and nothing allocates.
//!
//! ```
//! use mcp_context::uri::{validate_uri, Uri, UriErrorKind};
//!
//! assert!(validate_uri("file:///project/src/main.rs").is_ok());
//! let u = Uri::parse("db://admin@tables:5432/users/rows?limit=10#top").unwrap();
//! assert_eq!((u.scheme, u.authority, u.path), ("db", Some("admin@tables:5432"), "/users/rows"));
//! assert_eq!((u.query, u.fragment), (Some("limit=10"), Some("top")));
//! let e = validate_uri("notes://a b").unwrap_err();
//! assert_eq!((e.kind, e.at), (UriErrorKind::InvalidHost, 9));
//! ```

use crate::pct;
use core::fmt;

/// What is wrong with a URI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UriErrorKind {
    /// The empty string.
    Empty,
    /// No `:` ends a scheme before the first `/`, `?` or `#` (a relative reference).
    MissingScheme,
    /// The scheme is not `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    InvalidScheme,
    /// A character not allowed in the userinfo.
    InvalidUserinfo,
    /// A character not allowed in a host name.
    InvalidHost,
    /// A malformed `[…]` IPv6 or IPvFuture literal.
    InvalidIpLiteral,
    /// A port that is not digits.
    InvalidPort,
    /// A character not allowed in the path, or a path starting with `//` without authority.
    InvalidPath,
    /// A character not allowed in the query.
    InvalidQuery,
    /// A character not allowed in the fragment (a second `#` included).
    InvalidFragment,
    /// A `%` not followed by two hexadecimal digits.
    InvalidPercentEncoding,
}

impl UriErrorKind {
    /// A short, stable description.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Empty => "empty URI",
            Self::MissingScheme => "missing scheme",
            Self::InvalidScheme => "invalid scheme",
            Self::InvalidUserinfo => "invalid character in userinfo",
            Self::InvalidHost => "invalid character in host",
            Self::InvalidIpLiteral => "invalid IP literal",
            Self::InvalidPort => "invalid port",
            Self::InvalidPath => "invalid character in path",
            Self::InvalidQuery => "invalid character in query",
            Self::InvalidFragment => "invalid character in fragment",
            Self::InvalidPercentEncoding => "malformed percent-encoding",
        }
    }
}

/// A URI that is not RFC 3986 syntax: what and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UriError {
    /// What is wrong.
    pub kind: UriErrorKind,
    /// Byte offset of the first offending byte.
    pub at: usize,
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid URI: {} at byte {}", self.kind.as_str(), self.at)
    }
}

impl core::error::Error for UriError {}

/// The components of a valid URI (RFC 3986 §3), borrowed and still percent-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uri<'a> {
    /// The scheme, without `:`.
    pub scheme: &'a str,
    /// The authority after `//`, if any (possibly empty, as in `file:///x`).
    pub authority: Option<&'a str>,
    /// The path (possibly empty).
    pub path: &'a str,
    /// The query after `?`, if any.
    pub query: Option<&'a str>,
    /// The fragment after `#`, if any.
    pub fragment: Option<&'a str>,
}

/// Checks that `s` is an RFC 3986 `URI`.
///
/// # Errors
/// A [`UriError`] with the kind and byte offset of the first problem.
pub fn validate_uri(s: &str) -> Result<(), UriError> {
    Uri::parse(s).map(|_| ())
}

fn err(kind: UriErrorKind, at: usize) -> UriError {
    UriError { kind, at }
}

fn is_sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Checks `s[from..to]`: every byte is allowed by `ok` or starts a pct-encoded triplet.
fn chars(
    s: &[u8],
    from: usize,
    to: usize,
    ok: impl Fn(u8) -> bool,
    kind: UriErrorKind,
) -> Result<(), UriError> {
    let mut i = from;
    while i < to {
        let c = s.get(i).copied().unwrap_or(0);
        if c == b'%' {
            if !pct::starts_with_triplet(s.get(i..to).unwrap_or_default()) {
                return Err(err(UriErrorKind::InvalidPercentEncoding, i));
            }
            i += 3;
        } else if ok(c) {
            i += 1;
        } else {
            return Err(err(kind, i));
        }
    }
    Ok(())
}

fn pchar(c: u8) -> bool {
    pct::is_unreserved(c) || is_sub_delim(c) || c == b':' || c == b'@'
}

fn find(s: &[u8], from: usize, to: usize, pred: impl Fn(u8) -> bool) -> usize {
    s.get(from..to)
        .and_then(|t| t.iter().position(|&c| pred(c)))
        .map_or(to, |k| from + k)
}

impl<'a> Uri<'a> {
    /// Parses and checks `s` (RFC 3986 §3).
    ///
    /// # Errors
    /// A [`UriError`] with the kind and byte offset of the first problem.
    pub fn parse(s: &'a str) -> Result<Self, UriError> {
        let b = s.as_bytes();
        let len = b.len();
        if len == 0 {
            return Err(err(UriErrorKind::Empty, 0));
        }
        // scheme ":"
        let colon = find(b, 0, len, |c| matches!(c, b':' | b'/' | b'?' | b'#'));
        if b.get(colon) != Some(&b':') {
            return Err(err(UriErrorKind::MissingScheme, colon.min(len)));
        }
        if colon == 0 {
            return Err(err(UriErrorKind::InvalidScheme, 0));
        }
        for (i, &c) in b.get(..colon).unwrap_or_default().iter().enumerate() {
            let ok = if i == 0 {
                c.is_ascii_alphabetic()
            } else {
                c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
            };
            if !ok {
                return Err(err(UriErrorKind::InvalidScheme, i));
            }
        }
        // [ "#" fragment ], [ "?" query ]: the first `#` ends everything before it.
        let hash = find(b, colon + 1, len, |c| c == b'#');
        let qmark = find(b, colon + 1, hash, |c| c == b'?');
        // hier-part
        let mut path_start = colon + 1;
        let mut authority = None;
        if b.get(path_start..path_start + 2) == Some(b"//") {
            let a0 = path_start + 2;
            let a1 = find(b, a0, qmark, |c| c == b'/');
            check_authority(b, a0, a1)?;
            authority = s.get(a0..a1);
            path_start = a1;
        }
        // Without an authority the path cannot start with `//`: that would have been one.
        chars(
            b,
            path_start,
            qmark,
            |c| pchar(c) || c == b'/',
            UriErrorKind::InvalidPath,
        )?;
        let qf = |c: u8| pchar(c) || c == b'/' || c == b'?';
        if qmark < hash {
            chars(b, qmark + 1, hash, qf, UriErrorKind::InvalidQuery)?;
        }
        if hash < len {
            chars(b, hash + 1, len, qf, UriErrorKind::InvalidFragment)?;
        }
        let part = |from: usize, to: usize| s.get(from..to).unwrap_or_default();
        Ok(Uri {
            scheme: part(0, colon),
            authority,
            path: part(path_start, qmark),
            query: (qmark < hash).then(|| part(qmark + 1, hash)),
            fragment: (hash < len).then(|| part(hash + 1, len)),
        })
    }
}

/// `authority = [ userinfo "@" ] host [ ":" port ]` in `b[a0..a1]`.
fn check_authority(b: &[u8], a0: usize, a1: usize) -> Result<(), UriError> {
    let at = find(b, a0, a1, |c| c == b'@');
    let host0 = if at < a1 {
        chars(
            b,
            a0,
            at,
            |c| pct::is_unreserved(c) || is_sub_delim(c) || c == b':',
            UriErrorKind::InvalidUserinfo,
        )?;
        at + 1
    } else {
        a0
    };
    // host: IP-literal, or a reg-name (which includes IPv4address)
    let host1 = if b.get(host0) == Some(&b'[') {
        let close = find(b, host0, a1, |c| c == b']');
        if close == a1 || !ip_literal(b.get(host0 + 1..close).unwrap_or_default()) {
            return Err(err(UriErrorKind::InvalidIpLiteral, host0));
        }
        close + 1
    } else {
        let end = find(b, host0, a1, |c| c == b':');
        chars(
            b,
            host0,
            end,
            |c| pct::is_unreserved(c) || is_sub_delim(c),
            UriErrorKind::InvalidHost,
        )?;
        end
    };
    match b.get(host1) {
        _ if host1 >= a1 => Ok(()),
        Some(b':') => {
            let bad = find(b, host1 + 1, a1, |c| !c.is_ascii_digit());
            if bad < a1 {
                Err(err(UriErrorKind::InvalidPort, bad))
            } else {
                Ok(())
            }
        }
        _ => Err(err(UriErrorKind::InvalidHost, host1)),
    }
}

/// `IPv6address / IPvFuture` (RFC 3986 §3.2.2), the text between `[` and `]`.
fn ip_literal(s: &[u8]) -> bool {
    match s.first() {
        Some(b'v' | b'V') => ipv_future(s.get(1..).unwrap_or_default()),
        _ => ipv6(s),
    }
}

/// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`, after the `v`.
fn ipv_future(s: &[u8]) -> bool {
    let dot = s.iter().position(|&c| c == b'.');
    match dot {
        Some(d) if d > 0 && d + 1 < s.len() => {
            s.get(..d)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
                && s.get(d + 1..).is_some_and(|t| {
                    t.iter()
                        .all(|&c| pct::is_unreserved(c) || is_sub_delim(c) || c == b':')
                })
        }
        _ => false,
    }
}

/// An IPv6 address: eight 16-bit groups, one `::` standing for one or more zero groups, and
/// optionally an IPv4 address as the last two groups.
fn ipv6(s: &[u8]) -> bool {
    let len = s.len();
    let mut i = 0;
    let mut groups = 0;
    let mut elided = false;
    if s.starts_with(b"::") {
        elided = true;
        i = 2;
        if i == len {
            return true;
        }
    } else if s.first() == Some(&b':') {
        return false;
    }
    loop {
        let start = i;
        while i < len && i - start < 5 && s.get(i).is_some_and(u8::is_ascii_hexdigit) {
            i += 1;
        }
        if s.get(i) == Some(&b'.') {
            // An IPv4 address ends the literal and counts as two groups.
            if !ipv4(s.get(start..).unwrap_or_default()) {
                return false;
            }
            groups += 2;
            break;
        }
        if i == start || i - start > 4 {
            return false;
        }
        groups += 1;
        if i == len {
            break;
        }
        if s.get(i) != Some(&b':') {
            return false;
        }
        i += 1;
        if s.get(i) == Some(&b':') {
            if elided {
                return false;
            }
            elided = true;
            i += 1;
            if i == len {
                break;
            }
        } else if i == len {
            return false;
        }
    }
    if elided { groups <= 7 } else { groups == 8 }
}

/// `dec-octet "." dec-octet "." dec-octet "." dec-octet` (no leading zeros).
fn ipv4(s: &[u8]) -> bool {
    let mut parts = 0;
    for octet in s.split(|&c| c == b'.') {
        parts += 1;
        let ok = match octet {
            [d] => d.is_ascii_digit(),
            [b'1'..=b'9', d] => d.is_ascii_digit(),
            [b'1', d, e] => d.is_ascii_digit() && e.is_ascii_digit(),
            [b'2', b'0'..=b'4', e] => e.is_ascii_digit(),
            [b'2', b'5', b'0'..=b'5'] => true,
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    parts == 4
}
