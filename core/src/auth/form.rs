//! `application/x-www-form-urlencoded` (the WHATWG URL Standard's serializer and parser), as
//! OAuth uses it for token and authorization requests and for the query of the authorization
//! response (RFC 6749 §4.1.2, Appendix B).
//!
//! Encoding keeps `A-Z a-z 0-9 * - . _`, writes a space as `+` and every other byte of the
//! UTF-8 text as `%XX`. Decoding turns `+` into a space and `%XX` into its byte; a `%` not
//! followed by two hex digits stays as it is (as the URL Standard says), and the decoded
//! bytes must be UTF-8.

use alloc::string::String;
use alloc::vec::Vec;

use crate::pct;

/// Appends `s` form-encoded to `out`.
pub fn encode_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(
                    HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0'),
                ));
                out.push(char::from(
                    HEX.get(usize::from(b & 15)).copied().unwrap_or(b'0'),
                ));
            }
        }
    }
}

/// `s` form-encoded.
#[must_use]
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    encode_into(&mut out, s);
    out
}

/// A form body or query built pair by pair: `k1=v1&k2=v2`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form(String);

impl Form {
    /// An empty form.
    #[must_use]
    pub fn new() -> Self {
        Self(String::new())
    }

    /// Appends one `name=value` pair.
    pub fn pair(&mut self, name: &str, value: &str) -> &mut Self {
        if !self.0.is_empty() {
            self.0.push('&');
        }
        encode_into(&mut self.0, name);
        self.0.push('=');
        encode_into(&mut self.0, value);
        self
    }

    /// The encoded text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The encoded text, owned.
    #[must_use]
    pub fn into_string(self) -> String {
        self.0
    }
}

/// Decodes one form-encoded component; `None` when the decoded bytes are not UTF-8.
#[must_use]
pub fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' => match (
                b.get(i + 1).copied().and_then(pct::hex_value),
                b.get(i + 2).copied().and_then(pct::hex_value),
            ) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                }
                _ => {
                    out.push(b'%');
                    i += 1;
                }
            },
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Parses a form (or a URL query without its `?`) into its decoded pairs, in order. Empty
/// pieces (`a=1&&b=2`) are skipped; a piece without `=` has an empty value. `None` when a
/// name or value does not decode to UTF-8.
#[must_use]
pub fn parse(s: &str) -> Option<Vec<(String, String)>> {
    s.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Some((decode(k)?, decode(v)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_like_the_url_standard() {
        assert_eq!(
            encode("a b+c/d?e=f&g*h~é"),
            "a+b%2Bc%2Fd%3Fe%3Df%26g*h%7E%C3%A9"
        );
        let mut f = Form::new();
        f.pair("grant_type", "authorization_code")
            .pair("redirect_uri", "http://localhost:3000/callback");
        assert_eq!(
            f.as_str(),
            "grant_type=authorization_code&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback"
        );
    }

    #[test]
    fn decodes_and_round_trips() {
        assert_eq!(decode("a+b%2Bc%zz%4").as_deref(), Some("a b+c%zz%4"));
        assert_eq!(decode("%C3%A9").as_deref(), Some("é"));
        assert_eq!(decode("%FF"), None, "not UTF-8");
        let text = "https://as.example/x?y=1&z=a b";
        assert_eq!(decode(&encode(text)).as_deref(), Some(text));
        let pairs = parse("code=abc&&state=x%2By&iss=http%3A%2F%2Flocalhost%3A1&flag").unwrap();
        let expect = [
            ("code", "abc"),
            ("state", "x+y"),
            ("iss", "http://localhost:1"),
            ("flag", ""),
        ];
        assert_eq!(pairs.len(), expect.len());
        for ((k, v), (ek, ev)) in pairs.iter().zip(expect) {
            assert_eq!((k.as_str(), v.as_str()), (ek, ev));
        }
    }
}
