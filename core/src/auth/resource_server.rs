//! Authorization, server side (docs/rules.md §22): the pure pieces of an OAuth 2.1 protected
//! resource. The machine half is [`Server::http_authenticate`](crate::server::Server::http_authenticate)
//! and [`Server::http_admit`](crate::server::Server::http_admit).
//!
//! [`ResourceServerConfig`] is the server's own configuration: which resource it is, which
//! authorization servers it trusts, which scopes exist. It is not [`super::AuthConfig`], the
//! client's (its redirect URI, its identity, the server it wants to reach): the two parties
//! of the flow configure different things, and a program may be both.
//!
//! Here: the protected resource metadata document (RFC 9728 §2) and where it is served
//! (§3.1), the bearer credential of an `Authorization` header (RFC 6750 §2.1), the
//! `WWW-Authenticate` challenges (RFC 6750 §3, RFC 9728 §5.1, written with
//! [`BearerChallenge::header_value`]), the [`Caller`] a host's verifier resolves a token to,
//! and [`ScopeSet`], the caller's scopes as bits over [`ResourceServerConfig::scopes_supported`].

use alloc::string::String;
use alloc::vec::Vec;

use super::challenge::{BearerChallenge, is_token68};
use super::url::HttpUrl;
use crate::http::HttpResponse;

/// The longest `Authorization` value read, in bytes: a longer one is refused as malformed
/// without being parsed (16 KiB: room for a large JWT, far below a flood).
pub const MAX_AUTHORIZATION_LEN: usize = 16 * 1024;

/// The RFC 9728 §3.1 well-known path prefix.
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// At most this many [`ResourceServerConfig::scopes_supported`] (one bit each in a [`ScopeSet`]).
pub const MAX_SCOPES: usize = 64;

/// The server as an OAuth 2.1 resource server, on
/// [`ServerConfig::protection`](crate::server::ServerConfig::protection).
///
/// ```
/// use mcp_context::auth::resource_server::ResourceServerConfig;
/// let mut rs = ResourceServerConfig::new("https://mcp.example.com/mcp", "https://auth.example.com");
/// rs.scopes_supported = vec!["notes:read".into(), "notes:write".into()];
/// assert_eq!(rs.metadata_path().as_deref(), Some("/.well-known/oauth-protected-resource/mcp"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceServerConfig {
    /// The resource identifier: the canonical URI of the MCP endpoint (an `http(s)` URL
    /// without fragment). Tokens must name it in `aud` (RFC 8707); the metadata's
    /// `resource`.
    pub resource: String,
    /// Issuer identifiers of the authorization servers whose tokens are accepted (at least
    /// one; RFC 9728 `authorization_servers`).
    pub authorization_servers: Vec<String>,
    /// Every scope the server knows (`scopes_supported`, at most [`MAX_SCOPES`]). Items
    /// may require only these ([`Server::require_scopes`](crate::server::Server::require_scopes)).
    pub scopes_supported: Vec<String>,
    /// Scopes every token must carry (403 `insufficient_scope` otherwise); the 401
    /// challenge's `scope`, what a client asks for first. Each is in `scopes_supported`.
    pub required_scopes: Vec<String>,
    /// A request without a token is refused with 401. `false`: it is served as the
    /// anonymous caller (only what needs no scope), and a presented token is still checked.
    /// Default: true.
    pub token_required: bool,
    /// `resource_name` (human-readable).
    pub resource_name: Option<String>,
    /// `resource_documentation` (a URL).
    pub resource_documentation: Option<String>,
}

impl ResourceServerConfig {
    /// A resource `resource` trusting one authorization server, token required, no scopes.
    #[must_use]
    pub fn new(resource: &str, authorization_server: &str) -> Self {
        Self {
            resource: String::from(resource),
            authorization_servers: alloc::vec![String::from(authorization_server)],
            scopes_supported: Vec::new(),
            required_scopes: Vec::new(),
            token_required: true,
            resource_name: None,
            resource_documentation: None,
        }
    }

    /// Whether the configuration is usable: `resource` an `http(s)` URL without fragment,
    /// an authorization server, at most [`MAX_SCOPES`] scopes, each a non-empty RFC 6749
    /// §3.3 scope token, and `required_scopes` among them.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        let url_ok = HttpUrl::parse(&self.resource).is_some_and(|u| u.fragment.is_none());
        let scope_ok = |s: &String| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
        };
        url_ok
            && !self.authorization_servers.is_empty()
            && self.scopes_supported.len() <= MAX_SCOPES
            && self.scopes_supported.iter().all(scope_ok)
            && self
                .required_scopes
                .iter()
                .all(|s| self.scopes_supported.contains(s))
    }

    /// The path-suffixed well-known path RFC 9728 §3.1 derives from [`Self::resource`]
    /// (`/.well-known/oauth-protected-resource/mcp` for `https://h/mcp`); `None` when the
    /// resource has no path (the root form is then the only one).
    #[must_use]
    pub fn metadata_path(&self) -> Option<String> {
        let url = HttpUrl::parse(&self.resource)?;
        let path = url.trimmed_path();
        (!path.is_empty()).then(|| alloc::format!("{WELL_KNOWN}{path}"))
    }

    /// Whether `path` (a query string ignored) is where the metadata is served: the
    /// path-suffixed form, or the root form [`WELL_KNOWN`].
    #[must_use]
    pub fn is_metadata_path(&self, path: &str) -> bool {
        let path = path.split_once('?').map_or(path, |(p, _)| p);
        path == WELL_KNOWN || self.metadata_path().is_some_and(|p| p == path)
    }

    /// The metadata's absolute URL, named by every challenge's `resource_metadata`: the
    /// resource's origin and [`Self::metadata_path`] (or the root form).
    #[must_use]
    pub fn metadata_url(&self) -> String {
        let origin = HttpUrl::parse(&self.resource).map(|u| u.origin());
        let path = self.metadata_path();
        alloc::format!(
            "{}{}",
            origin.unwrap_or_default(),
            path.as_deref().unwrap_or(WELL_KNOWN)
        )
    }

    /// The protected resource metadata document (RFC 9728 §2): `resource`,
    /// `authorization_servers`, `bearer_methods_supported: ["header"]` (a token is taken
    /// from `Authorization` only), and `scopes_supported`, `resource_name`,
    /// `resource_documentation` when set.
    #[must_use]
    pub fn metadata_document(&self) -> Vec<u8> {
        let mut body = Vec::new();
        let mut w = crate::json::Writer::new(&mut body);
        let _ = (|| {
            w.begin_object()?;
            w.key("resource")?;
            w.str(&self.resource)?;
            w.key("authorization_servers")?;
            w.begin_array()?;
            for s in &self.authorization_servers {
                w.str(s)?;
            }
            w.end_array()?;
            if !self.scopes_supported.is_empty() {
                w.key("scopes_supported")?;
                w.begin_array()?;
                for s in &self.scopes_supported {
                    w.str(s)?;
                }
                w.end_array()?;
            }
            w.key("bearer_methods_supported")?;
            w.begin_array()?;
            w.str("header")?;
            w.end_array()?;
            if let Some(n) = &self.resource_name {
                w.key("resource_name")?;
                w.str(n)?;
            }
            if let Some(d) = &self.resource_documentation {
                w.key("resource_documentation")?;
                w.str(d)?;
            }
            w.end_object()
        })();
        body
    }

    /// The metadata response: 200 with the document for `GET`, 405 with `Allow: GET`
    /// otherwise. `Access-Control-Allow-Origin: *`: the document is public, and browser
    /// clients discover it cross-origin.
    #[must_use]
    pub fn metadata_response(&self, method: &str) -> HttpResponse {
        if method != "GET" {
            let mut r = HttpResponse::json(405, Vec::new());
            r.headers.clear();
            r.headers.push(("Allow", String::from("GET")));
            return r;
        }
        let mut r = HttpResponse::json(200, self.metadata_document());
        r.headers
            .push(("Access-Control-Allow-Origin", String::from("*")));
        r
    }

    /// The scopes of `names` that this server knows, as bits; unknown names are ignored.
    #[must_use]
    pub fn scope_set<'s>(&self, names: impl IntoIterator<Item = &'s str>) -> ScopeSet {
        let mut bits = 0u64;
        for n in names {
            if let Some(i) = self.scopes_supported.iter().position(|s| s == n) {
                bits |= 1 << i;
            }
        }
        ScopeSet(bits)
    }

    /// The scope names of `set`, space-separated (a `scope` parameter's value).
    #[must_use]
    pub fn scope_names(&self, set: ScopeSet) -> String {
        let mut out = String::new();
        for (i, s) in self.scopes_supported.iter().enumerate() {
            if set.0 & (1 << i) != 0 {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(s);
            }
        }
        out
    }

    /// The 401 or 403 answer to a request the resource refuses (RFC 6750 §3, RFC 9728
    /// §5.1): `WWW-Authenticate: Bearer` with `resource_metadata` always, `error` and
    /// `error_description` when given, and `scope` (`needed`, or for a 401 the
    /// [`Self::required_scopes`]) when not empty. The body is the OAuth error object
    /// (`{"error", "error_description"}`) when there is an error, as the official SDKs send.
    #[must_use]
    pub fn challenge(&self, refusal: &Unauthorized<'_>) -> HttpResponse {
        let required = self.scope_set(self.required_names());
        let (status, error, needed, description) = match refusal {
            Unauthorized::NoToken => (401, None, required, None),
            Unauthorized::InvalidToken(why) => (401, Some("invalid_token"), required, Some(*why)),
            Unauthorized::InsufficientScope(needed) => (
                403,
                Some("insufficient_scope"),
                *needed,
                Some("the token lacks a scope"),
            ),
        };
        let description = description.map(String::from);
        let scope = self.scope_names(needed);
        let challenge = BearerChallenge {
            resource_metadata: Some(self.metadata_url()),
            scope: (!scope.is_empty()).then_some(scope),
            error: error.map(String::from),
            error_description: description.clone(),
        };
        let mut body = Vec::new();
        if let Some(e) = error {
            let mut w = crate::json::Writer::new(&mut body);
            let _ = (|| {
                w.begin_object()?;
                w.key("error")?;
                w.str(e)?;
                if let Some(d) = &description {
                    w.key("error_description")?;
                    w.str(d)?;
                }
                w.end_object()
            })();
        }
        let mut r = HttpResponse::json(status, body);
        if error.is_none() {
            r.headers.clear();
        }
        r.headers
            .push(("WWW-Authenticate", challenge.header_value()));
        r
    }

    fn required_names(&self) -> impl Iterator<Item = &str> {
        self.required_scopes.iter().map(String::as_str)
    }

    /// Whether `audience` names this resource (RFC 8707): equal to [`Self::resource`],
    /// ignoring one trailing `/` on either side.
    #[must_use]
    pub fn is_audience(&self, audience: &str) -> bool {
        let trim = |s: &str| -> String { String::from(s.strip_suffix('/').unwrap_or(s)) };
        trim(audience) == trim(&self.resource)
    }
}

/// Why the resource refuses a request, and the challenge that goes with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unauthorized<'a> {
    /// No bearer credential (none, or another scheme): 401 without `error`
    /// (RFC 6750 §3.1).
    NoToken,
    /// A credential that is malformed, or that the verifier or the core's checks rejected:
    /// 401 `invalid_token`, with this description.
    InvalidToken(&'a str),
    /// A valid token without these scopes: 403 `insufficient_scope` naming them (the
    /// spec's step-up).
    InsufficientScope(ScopeSet),
}

/// What an `Authorization` header value carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bearer<'a> {
    /// No header, or a scheme other than `Bearer`.
    Absent,
    /// `Bearer` with no credential, more than one, characters outside RFC 6750's
    /// `b64token`, or a value over [`MAX_AUTHORIZATION_LEN`].
    Malformed(&'static str),
    /// The token.
    Token(&'a str),
}

/// The bearer token of an `Authorization` value (RFC 6750 §2.1: `Bearer 1*SP b64token`; the
/// scheme case-insensitive). A token in the query string or the body is never read
/// (`bearer_methods_supported: ["header"]`). Repeated headers, joined with `,`, are
/// malformed.
#[must_use]
pub fn bearer(authorization: Option<&str>) -> Bearer<'_> {
    let Some(v) = authorization else {
        return Bearer::Absent;
    };
    if v.len() > MAX_AUTHORIZATION_LEN {
        return Bearer::Malformed("Authorization header too long");
    }
    let v = v.trim_matches([' ', '\t']);
    let (scheme, rest) = v.split_once([' ', '\t']).unwrap_or((v, ""));
    if !scheme.eq_ignore_ascii_case("Bearer") {
        return Bearer::Absent;
    }
    let token = rest.trim_start_matches([' ', '\t']);
    if token.is_empty() {
        return Bearer::Malformed("empty bearer token");
    }
    let body = token.trim_end_matches('=');
    if body.is_empty() || !body.bytes().all(is_token68) {
        return Bearer::Malformed("malformed bearer token");
    }
    Bearer::Token(token)
}

/// Who a verified token speaks for: what a host's verifier (JWT, introspection) resolved
/// it to. The token itself stays with the host.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Caller {
    /// `sub`: the resource owner.
    pub subject: Option<String>,
    /// `client_id` (or `azp`): the client the token was issued to.
    pub client_id: Option<String>,
    /// The granted scopes (`scope`, space-separated, split).
    pub scopes: Vec<String>,
    /// `aud`: the resources the token is for; must name this one (RFC 8707).
    pub audience: Vec<String>,
    /// `exp` in milliseconds since the Unix epoch, when the token has one.
    pub expires_at_ms: Option<u64>,
}

/// A caller's scopes, as bits over [`ResourceServerConfig::scopes_supported`] (bit `i` =
/// scope `i`). Copy and allocation-free: it travels in every [`Ctx`](crate::server::Ctx).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ScopeSet(pub u64);

impl ScopeSet {
    /// No scope.
    pub const NONE: Self = Self(0);
    /// Every scope (a trusted caller: stdio, whose credentials come from its environment).
    pub const ALL: Self = Self(u64::MAX);

    /// Whether no scope is in the set.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every scope of `needed` is in the set.
    #[must_use]
    pub const fn covers(self, needed: Self) -> bool {
        needed.0 & !self.0 == 0
    }

    /// The scopes of `needed` not in the set.
    #[must_use]
    pub const fn missing(self, needed: Self) -> Self {
        Self(needed.0 & !self.0)
    }
}
