//! A `WWW-Authenticate` parser (RFC 9110 §11.6.1 challenges, RFC 6750 §3 `Bearer`
//! parameters, RFC 9728 §5.1 `resource_metadata`).
//!
//! The header is a comma-separated list of challenges, each `scheme [token68 / #auth-param]`,
//! with `auth-param = token BWS "=" BWS ( token / quoted-string )`. [`Challenges::parse`]
//! splits it, and [`Challenges::bearer`] returns the `Bearer` challenge's parameters (scheme
//! and parameter names compare case-insensitively; values are unquoted and unescaped). Text
//! that breaks the grammar is an error, never a panic; a header longer than
//! [`MAX_HEADER_LEN`] is refused.

use alloc::string::String;
use alloc::vec::Vec;

/// The longest header accepted, in bytes.
pub const MAX_HEADER_LEN: usize = 8 * 1024;

/// Why a `WWW-Authenticate` value does not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeError {
    /// Longer than [`MAX_HEADER_LEN`].
    TooLong,
    /// The grammar broke at this byte offset.
    Syntax(usize),
}

impl core::fmt::Display for ChallengeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::TooLong => f.write_str("WWW-Authenticate header too long"),
            Self::Syntax(at) => write!(f, "WWW-Authenticate syntax error at byte {at}"),
        }
    }
}

impl core::error::Error for ChallengeError {}

/// One challenge: its scheme, its token68 if it has one, and its parameters in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenge {
    /// The auth-scheme as sent.
    pub scheme: String,
    /// The token68 form (`Basic abc=`), when used instead of parameters.
    pub token68: Option<String>,
    /// `(name, value)` pairs; names as sent, values unquoted.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// The value of parameter `name` (case-insensitive), the first if repeated.
    #[must_use]
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Every challenge of one header value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenges(pub Vec<Challenge>);

/// The parameters of a `Bearer` challenge that the authorization flow acts on.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BearerChallenge {
    /// `resource_metadata`: where the protected resource metadata is (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs (RFC 6750 §3).
    pub scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`, … (RFC 6750 §3.1).
    pub error: Option<String>,
    /// `error_description`.
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// The challenge as a `WWW-Authenticate` value, the inverse of [`Challenges::bearer`]:
    /// `Bearer` and the present parameters in the order `error`, `error_description`,
    /// `scope`, `resource_metadata`, each a quoted-string (`"` and `\` escaped; control
    /// characters other than tab are dropped, which the grammar does not allow).
    #[must_use]
    pub fn header_value(&self) -> String {
        let mut out = String::from("Bearer");
        let params = [
            ("error", &self.error),
            ("error_description", &self.error_description),
            ("scope", &self.scope),
            ("resource_metadata", &self.resource_metadata),
        ];
        let mut first = true;
        for (name, value) in params {
            let Some(v) = value else { continue };
            out.push_str(if first { " " } else { ", " });
            first = false;
            out.push_str(name);
            out.push_str("=\"");
            for c in v.chars() {
                match c {
                    '"' | '\\' => {
                        out.push('\\');
                        out.push(c);
                    }
                    '\t' => out.push(c),
                    c if c.is_control() => {}
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        out
    }
}

fn is_tchar(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
}

/// A `token68` character (RFC 9110 §11.2), the `b64token` of RFC 6750 §2.1 without its
/// trailing `=` padding.
pub(crate) fn is_token68(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._~+/".contains(&c)
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn ows(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }
    fn token(&mut self) -> Option<String> {
        let start = self.i;
        while self.peek().is_some_and(is_tchar) {
            self.i += 1;
        }
        let t = self.b.get(start..self.i)?;
        (!t.is_empty()).then(|| String::from_utf8_lossy(t).into_owned())
    }
    fn quoted(&mut self) -> Result<String, ChallengeError> {
        // Opening quote already checked.
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(ChallengeError::Syntax(self.i)),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).map_err(|_| ChallengeError::Syntax(self.i));
                }
                Some(b'\\') => {
                    let c = self
                        .b
                        .get(self.i + 1)
                        .copied()
                        .ok_or(ChallengeError::Syntax(self.i))?;
                    out.push(c);
                    self.i += 2;
                }
                Some(c) if c == b'\t' || c >= 0x20 && c != 0x7f => {
                    out.push(c);
                    self.i += 1;
                }
                Some(_) => return Err(ChallengeError::Syntax(self.i)),
            }
        }
    }
    /// Whether what follows is `token BWS "=" BWS value`, not a token68 and its padding.
    fn at_param(&self) -> bool {
        let mut j = self.i;
        while self.b.get(j).copied().is_some_and(is_tchar) {
            j += 1;
        }
        if j == self.i {
            return false;
        }
        while matches!(self.b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if self.b.get(j) != Some(&b'=') {
            return false;
        }
        j += 1;
        while matches!(self.b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        // A value follows (a token68 ends in `=` padding, then `,` or the end).
        self.b.get(j).is_some_and(|&c| c == b'"' || is_tchar(c))
    }
}

impl Challenges {
    /// Parses one `WWW-Authenticate` field value.
    ///
    /// # Errors
    /// [`ChallengeError`] when the value is too long or breaks the grammar.
    pub fn parse(header: &str) -> Result<Self, ChallengeError> {
        if header.len() > MAX_HEADER_LEN {
            return Err(ChallengeError::TooLong);
        }
        let mut c = Cursor {
            b: header.as_bytes(),
            i: 0,
        };
        let mut out: Vec<Challenge> = Vec::new();
        loop {
            // Empty list elements are allowed (RFC 9110 §5.6.1).
            c.ows();
            while c.peek() == Some(b',') {
                c.i += 1;
                c.ows();
            }
            if c.peek().is_none() {
                return Ok(Self(out));
            }
            let scheme = c.token().ok_or(ChallengeError::Syntax(c.i))?;
            let mut ch = Challenge {
                scheme,
                ..Challenge::default()
            };
            let had_space = matches!(c.peek(), Some(b' ' | b'\t'));
            c.ows();
            if had_space && c.peek().is_some_and(|b| b != b',') {
                if c.at_param() {
                    Self::params(&mut c, &mut ch)?;
                } else {
                    let start = c.i;
                    while c.peek().is_some_and(is_token68) {
                        c.i += 1;
                    }
                    while c.peek() == Some(b'=') {
                        c.i += 1;
                    }
                    if c.i == start {
                        return Err(ChallengeError::Syntax(c.i));
                    }
                    let t = header.get(start..c.i).unwrap_or_default();
                    ch.token68 = Some(String::from(t));
                    c.ows();
                }
            }
            out.push(ch);
            match c.peek() {
                None => return Ok(Self(out)),
                Some(b',') => {}
                Some(_) => return Err(ChallengeError::Syntax(c.i)),
            }
        }
    }

    /// Reads `#auth-param` up to the next challenge (a `,` followed by a non-parameter).
    fn params(c: &mut Cursor<'_>, ch: &mut Challenge) -> Result<(), ChallengeError> {
        loop {
            let name = c.token().ok_or(ChallengeError::Syntax(c.i))?;
            c.ows();
            if c.peek() != Some(b'=') {
                return Err(ChallengeError::Syntax(c.i));
            }
            c.i += 1;
            c.ows();
            let value = match c.peek() {
                Some(b'"') => c.quoted()?,
                _ => c.token().ok_or(ChallengeError::Syntax(c.i))?,
            };
            ch.params.push((name, value));
            c.ows();
            // `,` then either another parameter of this challenge or the next challenge.
            let save = c.i;
            while c.peek() == Some(b',') {
                c.i += 1;
                c.ows();
            }
            if c.i == save || !c.at_param() {
                c.i = save;
                return Ok(());
            }
        }
    }

    /// The first challenge whose scheme is `scheme` (case-insensitive).
    #[must_use]
    pub fn find(&self, scheme: &str) -> Option<&Challenge> {
        self.0
            .iter()
            .find(|c| c.scheme.eq_ignore_ascii_case(scheme))
    }

    /// The `Bearer` challenge's parameters, if there is one.
    #[must_use]
    pub fn bearer(&self) -> Option<BearerChallenge> {
        let c = self.find("Bearer")?;
        let get = |n: &str| c.param(n).map(String::from);
        Some(BearerChallenge {
            resource_metadata: get("resource_metadata"),
            scope: get("scope"),
            error: get("error"),
            error_description: get("error_description"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_parameters_from_the_spec_examples() {
        let h = r#"Bearer error="insufficient_scope", scope="files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="File write permission required""#;
        let b = Challenges::parse(h).unwrap().bearer().unwrap();
        assert_eq!(b.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(b.scope.as_deref(), Some("files:write"));
        assert_eq!(
            b.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        // Case-insensitive scheme and names, token values, folded spacing.
        let b = Challenges::parse("bearer   SCOPE=a ,resource_metadata = \"x\\\"y\"")
            .unwrap()
            .bearer()
            .unwrap();
        assert_eq!(
            (b.scope.as_deref(), b.resource_metadata.as_deref()),
            (Some("a"), Some("x\"y"))
        );
    }

    #[test]
    fn several_challenges_and_token68() {
        let c = Challenges::parse(
            r#"Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Newauth realm="apps", type=1, title="Login", Bearer scope="s1 s2""#,
        )
        .unwrap();
        assert_eq!(c.0.len(), 3);
        assert_eq!(
            c.0[0].token68.as_deref(),
            Some("YWxhZGRpbjpvcGVuc2VzYW1l==")
        );
        assert_eq!(c.0[1].param("title"), Some("Login"));
        assert_eq!(c.bearer().unwrap().scope.as_deref(), Some("s1 s2"));
        let c = Challenges::parse("Bearer, Basic").unwrap();
        assert_eq!(c.0.len(), 2);
        assert_eq!(c.bearer(), Some(BearerChallenge::default()));
        assert_eq!(Challenges::parse("Basic realm=x").unwrap().bearer(), None);
    }

    #[test]
    fn malformed_headers_are_errors() {
        for bad in [
            "Bearer scope=\"open",
            "Bearer a=b c",
            "=x",
            "Bearer scope=\"\x01\"",
        ] {
            assert!(Challenges::parse(bad).is_err(), "{bad:?}");
        }
        let long = String::from("Bearer scope=\"") + &"a".repeat(MAX_HEADER_LEN) + "\"";
        assert_eq!(Challenges::parse(&long), Err(ChallengeError::TooLong));
        assert_eq!(Challenges::parse("").unwrap().0.len(), 0);
    }
}
