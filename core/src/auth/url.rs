//! The URLs of the authorization flow: `http`/`https` URLs checked with [`crate::uri`], their
//! origins, the well-known metadata locations (RFC 9728 §3.1, RFC 8414 §3.1, OpenID Connect
//! Discovery 1.0 §4) in the order docs/rules.md §21.2 gives, the resource check
//! (docs/rules.md §21.3), and query strings built and read with [`super::form`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::form;
use crate::uri::Uri;

/// An absolute `http` or `https` URL, split (borrowed, not normalised).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpUrl<'a> {
    /// `http` or `https`, as written.
    pub scheme: &'a str,
    /// `host[:port]` (userinfo refused).
    pub authority: &'a str,
    /// The path, possibly empty.
    pub path: &'a str,
    /// The query without `?`.
    pub query: Option<&'a str>,
    /// The fragment without `#`.
    pub fragment: Option<&'a str>,
}

impl<'a> HttpUrl<'a> {
    /// Parses `s`: an RFC 3986 URI with scheme `http` or `https` (any case), a non-empty
    /// authority, no userinfo and a valid port if any.
    #[must_use]
    pub fn parse(s: &'a str) -> Option<Self> {
        let u = Uri::parse(s).ok()?;
        let authority = u.authority.filter(|a| !a.is_empty() && !a.contains('@'))?;
        let https = u.scheme.eq_ignore_ascii_case("https");
        let url = Self {
            scheme: u.scheme,
            authority,
            path: u.path,
            query: u.query,
            fragment: u.fragment,
        };
        // A port that is not a u16 makes no origin.
        ((https || u.scheme.eq_ignore_ascii_case("http")) && url.port().is_some()).then_some(url)
    }

    /// Whether the scheme is `https`.
    #[must_use]
    pub fn is_https(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("https")
    }

    /// The host, without port or IPv6 brackets, as written.
    #[must_use]
    pub fn host(&self) -> &'a str {
        let a = self.authority;
        if let Some(rest) = a.strip_prefix('[') {
            return rest.split(']').next().unwrap_or_default();
        }
        a.rsplit_once(':').map_or(a, |(h, _)| h)
    }

    /// The port, explicit or the scheme's default.
    #[must_use]
    pub fn port(&self) -> Option<u16> {
        let after_host = match self.authority.rfind(']') {
            Some(i) => self.authority.get(i + 1..).unwrap_or_default(),
            None => self.authority,
        };
        match after_host.rsplit_once(':') {
            Some((_, p)) if !p.is_empty() => p.parse().ok(),
            _ => Some(if self.is_https() { 443 } else { 80 }),
        }
    }

    /// Whether the host is a loopback name or address (`localhost`, `127.x.x.x`, `::1`).
    #[must_use]
    pub fn is_loopback(&self) -> bool {
        let h = self.host();
        h.eq_ignore_ascii_case("localhost") || h.starts_with("127.") || h == "::1"
    }

    /// `scheme://authority`, scheme and host lowercased, the default port dropped: what two
    /// URLs must share to be the same origin (RFC 6454 §4).
    #[must_use]
    pub fn origin(&self) -> String {
        let scheme = if self.is_https() { "https" } else { "http" };
        let host = self.host().to_ascii_lowercase();
        let default = if self.is_https() { 443 } else { 80 };
        let bracket = self.authority.starts_with('[');
        match self.port() {
            Some(p) if p != default && bracket => format!("{scheme}://[{host}]:{p}"),
            Some(p) if p != default => format!("{scheme}://{host}:{p}"),
            _ if bracket => format!("{scheme}://[{host}]"),
            _ => format!("{scheme}://{host}"),
        }
    }

    /// The path without its trailing `/` (so `/` and `` are both empty).
    #[must_use]
    pub fn trimmed_path(&self) -> &'a str {
        self.path.strip_suffix('/').unwrap_or(self.path)
    }
}

/// Whether `a` and `b` are URLs of the same origin.
#[must_use]
pub fn same_origin(a: &str, b: &str) -> bool {
    match (HttpUrl::parse(a), HttpUrl::parse(b)) {
        (Some(a), Some(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

/// Where to look for the protected resource metadata of `server` when the challenge names
/// none (RFC 9728 §3.1): the path-based well-known URI first when the server URL has a path,
/// then the root one.
#[must_use]
pub fn protected_resource_candidates(server: &HttpUrl<'_>) -> Vec<String> {
    let origin = server.origin();
    let path = server.trimmed_path();
    let mut out = Vec::with_capacity(2);
    if !path.is_empty() {
        out.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    out.push(format!("{origin}/.well-known/oauth-protected-resource"));
    out
}

/// Where to look for the metadata of the authorization server `issuer`, in order: with a
/// path, RFC 8414 path insertion, OpenID Connect path insertion, OpenID Connect path
/// appending; without one, RFC 8414 then OpenID Connect.
#[must_use]
pub fn authorization_server_candidates(issuer: &HttpUrl<'_>) -> Vec<String> {
    let origin = issuer.origin();
    let path = issuer.trimmed_path();
    if path.is_empty() {
        return alloc::vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ];
    }
    alloc::vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ]
}

/// The resource check (docs/rules.md §21.3): the metadata's `resource` identifies the MCP
/// server at `server` when it is an `http(s)` URL without a fragment, of the same origin,
/// whose path is the server's path or a `/`-bounded prefix of it.
#[must_use]
pub fn resource_covers(resource: &str, server: &HttpUrl<'_>) -> bool {
    let Some(r) = HttpUrl::parse(resource) else {
        return false;
    };
    if r.fragment.is_some() || r.query.is_some() || r.origin() != server.origin() {
        return false;
    }
    let (rp, sp) = (r.trimmed_path(), server.trimmed_path());
    sp == rp
        || sp
            .strip_prefix(rp)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `base` with the pairs of `query` appended (after `?`, or `&` when `base` has a query).
#[must_use]
pub fn with_query(base: &str, query: &form::Form) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}{}", query.as_str())
}

/// The decoded query pairs of `url` (none when it has no query; `None` when a pair does not
/// decode).
#[must_use]
pub fn query_pairs(url: &HttpUrl<'_>) -> Option<Vec<(String, String)>> {
    url.query.map_or(Some(Vec::new()), form::parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> HttpUrl<'_> {
        HttpUrl::parse(s).unwrap()
    }

    #[test]
    fn parses_origins_and_ports() {
        let x = u("HTTPS://Example.COM:443/a/b?c=1#f");
        assert_eq!(
            (x.host(), x.port(), x.path),
            ("Example.COM", Some(443), "/a/b")
        );
        assert_eq!(x.origin(), "https://example.com");
        assert_eq!(u("http://[::1]:8080/x").origin(), "http://[::1]:8080");
        assert!(u("http://[::1]:8080/x").is_loopback());
        assert!(u("http://127.0.0.1/x").is_loopback() && !u("https://a.example").is_loopback());
        for bad in [
            "ftp://x/y",
            "http:/x",
            "http://u@h/",
            "mcp.example.com",
            "http://",
            "http://h:99999/",
        ] {
            assert!(HttpUrl::parse(bad).is_none(), "{bad}");
        }
        assert!(same_origin("http://localhost:80/a", "HTTP://LOCALHOST/b"));
        assert!(!same_origin(
            "http://localhost:3000/a",
            "http://localhost:3001/a"
        ));
        assert!(!same_origin("https://a.example/", "http://a.example/"));
    }

    #[test]
    fn well_known_locations_in_order() {
        assert_eq!(
            protected_resource_candidates(&u("https://mcp.example.com/public/mcp/")),
            [
                "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://mcp.example.com/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            protected_resource_candidates(&u("https://mcp.example.com")),
            ["https://mcp.example.com/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            authorization_server_candidates(&u("https://auth.example.com/tenant1")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            authorization_server_candidates(&u("https://auth.example.com/")),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn resource_check() {
        let server = u("https://mcp.example.com/server/mcp");
        for ok in [
            "https://mcp.example.com/server/mcp",
            "https://MCP.example.com:443/server/mcp/",
            "https://mcp.example.com/server",
            "https://mcp.example.com",
        ] {
            assert!(resource_covers(ok, &server), "{ok}");
        }
        for bad in [
            "https://evil.example.com/server/mcp",
            "http://mcp.example.com/server/mcp",
            "https://mcp.example.com/serv",
            "https://mcp.example.com/server/mcp/other",
            "https://mcp.example.com/server/mcp#f",
            "mcp.example.com",
        ] {
            assert!(!resource_covers(bad, &server), "{bad}");
        }
    }

    #[test]
    fn queries() {
        let mut f = form::Form::new();
        f.pair("a", "b c");
        assert_eq!(
            with_query("https://as/authorize", &f),
            "https://as/authorize?a=b+c"
        );
        assert_eq!(
            with_query("https://as/authorize?x=1", &f),
            "https://as/authorize?x=1&a=b+c"
        );
        let pairs = query_pairs(&u("http://localhost:3000/cb?code=x&state=y%20z")).unwrap();
        assert_eq!(pairs[1], ("state".into(), "y z".into()));
    }
}
