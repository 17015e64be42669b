//! `Host` / `Origin` validation against DNS rebinding (docs/rules.md §15.1 "servers **MUST** validate
//! `Origin` and reply `403` if it is present and invalid"; checklist §16.10 rule 66).
//!
//! A DNS-rebinding page at `http://evil.example:8080` that resolves to 127.0.0.1 makes the
//! browser send `Host: evil.example:8080` and `Origin: http://evil.example:8080`: the two
//! agree with each other, so comparing them proves nothing. What stops the attack is checking
//! both against names the server knows it is reachable by. Rules of [`check_origin`]:
//!
//! 1. `Host` (or HTTP/2 `:authority`) must be present and well-formed (`host[:port]`, host a
//!    DNS name, an IPv4 address or a bracketed IPv6 address, port 0–65535); otherwise 400
//!    (RFC 9112 §3.2). A host seeing several `Host` lines rejects them itself.
//! 2. The `Host` must match an allow-list entry, else 403.
//! 3. An absent `Origin` is allowed: non-browser clients do not send it, and the spec requires
//!    a 403 only when it "is present and invalid".
//! 4. `Origin: null` (opaque origins: sandboxed frames, `file:` pages) is rejected, 403.
//! 5. A present `Origin` must be a serialized `http` or `https` origin
//!    (`scheme://host[:port]`, nothing after) whose host and effective port (explicit, else 80
//!    or 443) match an allow-list entry, else 403.
//!
//! Allow-list entries are `host` (any port) or `host:port` (that port only). Hosts compare
//! ASCII case-insensitively; nothing else is normalised (`localhost.` does not match
//! `localhost`). An entry that does not parse matches nothing. [`LOCALHOST`] is the list for a
//! server bound to loopback.

use core::fmt;

/// The allow-list for a server reachable only on loopback: `localhost`, `127.0.0.1` and
/// `[::1]`, any port.
pub const LOCALHOST: &[&str] = &["localhost", "127.0.0.1", "[::1]"];

/// Why a request failed the `Host` / `Origin` check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OriginError {
    /// No `Host` header (HTTP 400).
    MissingHost,
    /// A `Host` header that is not `host[:port]` (HTTP 400).
    MalformedHost,
    /// A `Host` not on the allow-list: the DNS-rebinding signature (HTTP 403).
    HostNotAllowed,
    /// `Origin: null` (HTTP 403).
    NullOrigin,
    /// An `Origin` that is not a serialized `http`/`https` origin (HTTP 403).
    MalformedOrigin,
    /// An `Origin` not on the allow-list (HTTP 403).
    OriginNotAllowed,
}

impl OriginError {
    /// The HTTP status to reply with: 400 for a missing or malformed `Host`, 403 otherwise
    /// (docs/rules.md §15.1 status table: "Invalid `Origin`: 403", with an optional body without
    /// `id`).
    #[must_use]
    pub const fn http_status(self) -> u16 {
        match self {
            Self::MissingHost | Self::MalformedHost => 400,
            _ => 403,
        }
    }
}

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::MissingHost => "missing Host header",
            Self::MalformedHost => "malformed Host header",
            Self::HostNotAllowed => "Host not allowed",
            Self::NullOrigin => "opaque Origin not allowed",
            Self::MalformedOrigin => "malformed Origin header",
            Self::OriginNotAllowed => "Origin not allowed",
        })
    }
}

impl core::error::Error for OriginError {}

/// Validates `Host` and `Origin` against `allow_list` (rules in the module docs).
///
/// # Errors
/// The first rule that fails, as an [`OriginError`].
pub fn check_origin<S: AsRef<str>>(
    host_header: Option<&str>,
    origin_header: Option<&str>,
    allow_list: &[S],
) -> Result<(), OriginError> {
    check_host_and_origin(host_header, origin_header, allow_list, allow_list)
}

/// [`check_origin`] with two lists: `Host` against `hosts` (the names the server is reachable
/// by), a present `Origin` against `origins` (the pages allowed to call it).
///
/// # Errors
/// The first rule that fails, as an [`OriginError`].
pub fn check_host_and_origin<H: AsRef<str>, O: AsRef<str>>(
    host_header: Option<&str>,
    origin_header: Option<&str>,
    hosts: &[H],
    origins: &[O],
) -> Result<(), OriginError> {
    let host = host_header.ok_or(OriginError::MissingHost)?;
    let host = Authority::parse(host).ok_or(OriginError::MalformedHost)?;
    if !allowed(host, hosts) {
        return Err(OriginError::HostNotAllowed);
    }
    let Some(origin) = origin_header else {
        return Ok(());
    };
    if origin == "null" {
        return Err(OriginError::NullOrigin);
    }
    let (scheme, rest) = origin
        .split_once("://")
        .ok_or(OriginError::MalformedOrigin)?;
    let default_port = if scheme.eq_ignore_ascii_case("http") {
        80
    } else if scheme.eq_ignore_ascii_case("https") {
        443
    } else {
        return Err(OriginError::MalformedOrigin);
    };
    let mut authority = Authority::parse(rest).ok_or(OriginError::MalformedOrigin)?;
    authority.port = Some(authority.port.unwrap_or(default_port));
    if allowed(authority, origins) {
        Ok(())
    } else {
        Err(OriginError::OriginNotAllowed)
    }
}

#[derive(Debug, Clone, Copy)]
struct Authority<'a> {
    /// Brackets included for IPv6.
    host: &'a str,
    port: Option<u16>,
}

impl<'a> Authority<'a> {
    fn parse(s: &'a str) -> Option<Self> {
        let (host, port) = if s.starts_with('[') {
            let close = s.find(']')?;
            let (host, rest) = s.split_at(close + 1);
            let inner = host.get(1..host.len() - 1)?;
            if inner.is_empty()
                || !inner
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
            {
                return None;
            }
            (host, port_of(rest)?)
        } else {
            let (host, port) = match s.split_once(':') {
                Some((h, p)) => (h, Some(parse_port(p)?)),
                None => (s, None),
            };
            let ok = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_';
            if host.is_empty() || !host.bytes().all(ok) {
                return None;
            }
            (host, port)
        };
        Some(Self { host, port })
    }
}

/// `""` → no port; `":digits"` → that port; anything else → malformed.
fn port_of(rest: &str) -> Option<Option<u16>> {
    if rest.is_empty() {
        return Some(None);
    }
    Some(Some(parse_port(rest.strip_prefix(':')?)?))
}

fn parse_port(p: &str) -> Option<u16> {
    if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    p.parse().ok()
}

fn allowed<S: AsRef<str>>(a: Authority<'_>, allow_list: &[S]) -> bool {
    allow_list
        .iter()
        .filter_map(|e| Authority::parse(e.as_ref()))
        .any(|e| e.host.eq_ignore_ascii_case(a.host) && (e.port.is_none() || e.port == a.port))
}

#[cfg(test)]
mod tests {
    use super::*;
    use OriginError::*;

    #[test]
    fn table() {
        let public: &[&str] = &["mcp.example.com", "app.example.com:8443"];
        type Row<'a> = (
            Option<&'a str>,
            Option<&'a str>,
            &'a [&'a str],
            Result<(), OriginError>,
        );
        #[rustfmt::skip]
        let rows: &[Row<'_>] = &[
            // Loopback server, non-browser client.
            (Some("localhost"), None, LOCALHOST, Ok(())),
            (Some("localhost:3000"), None, LOCALHOST, Ok(())),
            (Some("LocalHost:3000"), None, LOCALHOST, Ok(())),
            (Some("127.0.0.1:3000"), None, LOCALHOST, Ok(())),
            (Some("[::1]:3000"), None, LOCALHOST, Ok(())),
            (Some("[::1]"), None, LOCALHOST, Ok(())),
            // Loopback server, browser on a loopback page.
            (Some("localhost:3000"), Some("http://localhost:5173"), LOCALHOST, Ok(())),
            (Some("127.0.0.1:3000"), Some("https://127.0.0.1"), LOCALHOST, Ok(())),
            (Some("[::1]:3000"), Some("http://[::1]:3000"), LOCALHOST, Ok(())),
            // DNS rebinding: attacker's name in Host and Origin, agreeing with each other.
            (Some("evil.example:3000"), Some("http://evil.example:3000"), LOCALHOST, Err(HostNotAllowed)),
            (Some("evil.example"), None, LOCALHOST, Err(HostNotAllowed)),
            (Some("localhost.evil.example"), None, LOCALHOST, Err(HostNotAllowed)),
            (Some("localhost."), None, LOCALHOST, Err(HostNotAllowed)),
            (Some("127.0.0.2"), None, LOCALHOST, Err(HostNotAllowed)),
            // Cross-site page talking to a loopback Host.
            (Some("localhost:3000"), Some("http://evil.example"), LOCALHOST, Err(OriginNotAllowed)),
            (Some("localhost:3000"), Some("https://localhost.evil.example"), LOCALHOST, Err(OriginNotAllowed)),
            (Some("localhost:3000"), Some("null"), LOCALHOST, Err(NullOrigin)),
            (Some("localhost:3000"), Some("file://"), LOCALHOST, Err(MalformedOrigin)),
            (Some("localhost:3000"), Some("chrome-extension://abc"), LOCALHOST, Err(MalformedOrigin)),
            (Some("localhost:3000"), Some("http://localhost:3000/"), LOCALHOST, Err(MalformedOrigin)),
            (Some("localhost:3000"), Some("http://user@localhost"), LOCALHOST, Err(MalformedOrigin)),
            (Some("localhost:3000"), Some("localhost:3000"), LOCALHOST, Err(MalformedOrigin)),
            (Some("localhost:3000"), Some(""), LOCALHOST, Err(MalformedOrigin)),
            // Host syntax.
            (None, None, LOCALHOST, Err(MissingHost)),
            (Some(""), None, LOCALHOST, Err(MalformedHost)),
            (Some("localhost:"), None, LOCALHOST, Err(MalformedHost)),
            (Some("localhost:99999"), None, LOCALHOST, Err(MalformedHost)),
            (Some("localhost:80:80"), None, LOCALHOST, Err(MalformedHost)),
            (Some("user@localhost"), None, LOCALHOST, Err(MalformedHost)),
            (Some("local host"), None, LOCALHOST, Err(MalformedHost)),
            (Some("::1"), None, LOCALHOST, Err(MalformedHost)),
            (Some("[::1"), None, LOCALHOST, Err(MalformedHost)),
            (Some("[::1]x"), None, LOCALHOST, Err(MalformedHost)),
            (Some("[fe80::1%25eth0]"), None, LOCALHOST, Err(MalformedHost)),
            // Public server: exact names, optional port pinning, default ports.
            (Some("mcp.example.com"), Some("https://mcp.example.com"), public, Ok(())),
            (Some("MCP.example.com:443"), Some("https://mcp.example.com:443"), public, Ok(())),
            (Some("app.example.com:8443"), Some("https://app.example.com:8443"), public, Ok(())),
            (Some("app.example.com:8443"), Some("https://app.example.com"), public, Err(OriginNotAllowed)),
            (Some("app.example.com"), None, public, Err(HostNotAllowed)),
            (Some("example.com"), None, public, Err(HostNotAllowed)),
            (Some("localhost"), None, public, Err(HostNotAllowed)),
            // An empty or broken allow-list allows nothing.
            (Some("localhost"), None, &[], Err(HostNotAllowed)),
            (Some("localhost"), None, &["", "local host", "[::1"], Err(HostNotAllowed)),
        ];
        for (i, (host, origin, list, want)) in rows.iter().enumerate() {
            assert_eq!(
                check_origin(*host, *origin, list),
                *want,
                "row {i}: {host:?} {origin:?}"
            );
        }
    }

    #[test]
    fn owned_lists_and_separate_origins() {
        let hosts: std::vec::Vec<std::string::String> = std::vec!["mcp.example.com".into()];
        let origins: std::vec::Vec<&str> = std::vec!["app.example.com"];
        let both = |h, o| check_host_and_origin(Some(h), o, &hosts, &origins);
        assert_eq!(both("mcp.example.com", None), Ok(()));
        assert_eq!(
            both("mcp.example.com", Some("https://app.example.com")),
            Ok(())
        );
        // The host list does not admit origins, nor the origin list hosts.
        assert_eq!(
            both("mcp.example.com", Some("https://mcp.example.com")),
            Err(OriginError::OriginNotAllowed)
        );
        assert_eq!(both("app.example.com", None), Err(HostNotAllowed));
        let owned: std::vec::Vec<&str> = LOCALHOST.to_vec();
        assert_eq!(check_origin(Some("localhost"), None, &owned), Ok(()));
    }

    #[test]
    fn statuses() {
        assert_eq!(MissingHost.http_status(), 400);
        assert_eq!(MalformedHost.http_status(), 400);
        for e in [
            HostNotAllowed,
            NullOrigin,
            MalformedOrigin,
            OriginNotAllowed,
        ] {
            assert_eq!(e.http_status(), 403);
        }
    }
}
