//! [`Authorizer`]: the authorization flow's state machine (docs/rules.md §21).

mod identity;
mod token;

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use super::challenge::Challenges;
use super::form::{self, Form};
use super::metadata::{
    RegistrationResponse, ResourceMetadata, ServerMetadata, TokenResponse, error_code,
};
use super::url::{self, HttpUrl};
use super::{
    Action, AuthConfig, AuthError, ClientRegistration, ENTROPY_LEN, FetchId, FetchRequest,
    HttpMethod, Tokens,
};
use crate::base64::{self, Alphabet};
use crate::uri::Uri;

/// A `client_id` (and secret) for one authorization server, and how to authenticate.
#[derive(Debug, Clone)]
struct Client {
    issuer: String,
    client_id: String,
    secret: Option<String>,
    method: AuthMethod,
    /// Obtained by dynamic registration (forgotten when the server changes).
    registered: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AuthMethod {
    None,
    Basic,
    Post,
}

impl AuthMethod {
    /// The registry name (RFC 7591 `token_endpoint_auth_method`).
    fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Basic => "client_secret_basic",
            Self::Post => "client_secret_post",
        }
    }
}

/// What the authorization response is checked against.
#[derive(Debug, Clone)]
struct Pending {
    state: String,
    verifier: String,
    scope: Option<String>,
}

#[derive(Debug, Clone)]
enum Phase {
    Idle,
    ResourceMetadata {
        candidates: Vec<String>,
        next: usize,
    },
    ServerMetadata {
        issuer: String,
        candidates: Vec<String>,
        next: usize,
    },
    Registering,
    Redirect(Pending),
    Token {
        refresh: bool,
        /// After a failed refresh, authorize from scratch (challenge-driven refresh).
        fallback: bool,
        scope: Option<String>,
    },
}

/// The client side of MCP authorization for one MCP server (docs/rules.md §21).
///
/// ```
/// use mcp_context::auth::{Action, AuthConfig, Authorizer};
/// let mut a = Authorizer::new(AuthConfig::new(
///     "https://mcp.example.com/mcp", "http://127.0.0.1:5000/callback", "demo")).unwrap();
/// a.handle_challenge(401, Some(r#"Bearer resource_metadata="https://mcp.example.com/prm""#),
///     &[7; 48], 0);
/// let Some(Action::Fetch(f)) = a.poll_action() else { panic!() };
/// assert_eq!(f.url, "https://mcp.example.com/prm");
/// ```
#[derive(Debug)]
pub struct Authorizer {
    config: AuthConfig,
    actions: VecDeque<Action>,
    phase: Phase,
    awaiting: Option<FetchId>,
    next_fetch: u64,
    entropy: [u8; ENTROPY_LEN],
    /// The current challenge's `scope`.
    challenge_scope: Option<String>,
    /// Scopes requested so far (the step-up union, docs/rules.md §21.6).
    requested: Vec<String>,
    /// A 401 with a refresh token in hand: refresh before authorizing again.
    try_refresh: bool,
    resource: Option<ResourceMetadata>,
    server: Option<ServerMetadata>,
    clients: Vec<Client>,
    client: Option<Client>,
    tokens: Option<Tokens>,
    authorizations: u8,
}

impl Authorizer {
    /// A flow for the MCP server `config.server_url`.
    ///
    /// # Errors
    /// [`AuthError::BadUrl`] when the server URL is not an `http(s)` URL or the redirect URI
    /// is not an absolute URI without a fragment.
    pub fn new(config: AuthConfig) -> Result<Self, AuthError> {
        if HttpUrl::parse(&config.server_url).is_none() {
            return Err(AuthError::BadUrl(config.server_url));
        }
        // Any absolute URI without a fragment (a native app may use its own scheme).
        if Uri::parse(&config.redirect_uri).map_or(true, |u| u.fragment.is_some()) {
            return Err(AuthError::BadUrl(config.redirect_uri));
        }
        Ok(Self {
            config,
            actions: VecDeque::new(),
            phase: Phase::Idle,
            awaiting: None,
            next_fetch: 0,
            entropy: [0; ENTROPY_LEN],
            challenge_scope: None,
            requested: Vec::new(),
            try_refresh: false,
            resource: None,
            server: None,
            clients: Vec::new(),
            client: None,
            tokens: None,
            authorizations: 0,
        })
    }

    /// Loads tokens from the host's store (their issuer's metadata is fetched again on the
    /// next challenge). Tokens for a resource that does not cover this server are ignored
    /// (docs/rules.md §21.7); returns whether they were loaded.
    pub fn restore(&mut self, tokens: Tokens) -> bool {
        let covers = HttpUrl::parse(&self.config.server_url)
            .is_some_and(|s| url::resource_covers(&tokens.resource, &s));
        if covers {
            self.tokens = Some(tokens);
        }
        covers
    }

    /// The client identity from dynamic registration with the current authorization server,
    /// if the flow registered one (or one was restored): keep it beside the tokens.
    #[must_use]
    pub fn registration(&self) -> Option<ClientRegistration> {
        let c = self.client.as_ref().filter(|c| c.registered)?;
        Some(ClientRegistration {
            issuer: c.issuer.clone(),
            client_id: c.client_id.clone(),
            client_secret: c.secret.clone(),
            token_endpoint_auth_method: c.method.name().into(),
        })
    }

    /// Loads a client identity kept from an earlier run: used for its issuer like one
    /// registered in this run (to refresh restored tokens, or to authorize without
    /// registering again), and forgotten when the resource names another authorization
    /// server (docs/rules.md §21.4). An unknown method is read from whether there is a secret.
    pub fn restore_registration(&mut self, r: ClientRegistration) {
        let method = match (r.token_endpoint_auth_method.as_str(), &r.client_secret) {
            ("client_secret_post", Some(_)) => AuthMethod::Post,
            ("none", _) | (_, None) => AuthMethod::None,
            _ => AuthMethod::Basic,
        };
        self.clients.retain(|c| c.issuer != r.issuer);
        self.clients.push(Client {
            issuer: r.issuer,
            client_id: r.client_id,
            secret: r.client_secret,
            method,
            registered: true,
        });
    }

    /// The tokens held, if any.
    #[must_use]
    pub fn tokens(&self) -> Option<&Tokens> {
        self.tokens.as_ref()
    }

    /// The next action, if any (drain after every input).
    pub fn poll_action(&mut self) -> Option<Action> {
        self.actions.pop_front()
    }

    /// Whether a flow is running (waiting for a fetch or a redirect).
    #[must_use]
    pub fn is_busy(&self) -> bool {
        !matches!(self.phase, Phase::Idle)
    }

    /// The `Authorization` value for a request to `request_url` at `now_ms`: `Bearer` and the
    /// access token, only for the MCP server's own origin and an unexpired token
    /// (docs/rules.md §21.7).
    #[must_use]
    pub fn authorization_header(&self, request_url: &str, now_ms: u64) -> Option<String> {
        let t = self.tokens.as_ref()?;
        let fresh = t.expires_at_ms.is_none_or(|at| at > now_ms);
        (fresh && url::same_origin(request_url, &self.config.server_url))
            .then(|| format!("Bearer {}", t.access_token))
    }

    /// Whether the access token expires within the refresh skew and a refresh token and the
    /// server's metadata are at hand.
    #[must_use]
    pub fn refresh_due(&self, now_ms: u64) -> bool {
        let Some(t) = &self.tokens else { return false };
        let due = t
            .expires_at_ms
            .is_some_and(|at| at <= now_ms.saturating_add(self.config.refresh_skew_ms));
        due && t.refresh_token.is_some()
            && !self.is_busy()
            && self.server.as_ref().is_some_and(|s| s.issuer == t.issuer)
            && self.client.as_ref().is_some_and(|c| c.issuer == t.issuer)
    }

    /// Starts a refresh (docs/rules.md §21.7); a no-op unless [`Self::refresh_due`]. Ends in
    /// `StoreTokens`, or `Failed` (the tokens are dropped; the next 401 authorizes again).
    pub fn start_refresh(&mut self, now_ms: u64) {
        if self.refresh_due(now_ms) {
            self.refresh(false);
        }
    }

    /// A request went through: the attempt count starts again (docs/rules.md §21.6).
    pub fn handle_success(&mut self) {
        self.authorizations = 0;
    }

    /// An MCP request was answered `status` with this `WWW-Authenticate` value: starts the
    /// flow that ends in `Retry` or `Failed`. `entropy` must be fresh random bytes.
    pub fn handle_challenge(
        &mut self,
        status: u16,
        www_authenticate: Option<&str>,
        entropy: &[u8; ENTROPY_LEN],
        _now_ms: u64,
    ) {
        if self.is_busy() {
            return self.fail_keep(AuthError::Busy);
        }
        let bearer = match www_authenticate.map(Challenges::parse) {
            Some(Ok(c)) => c.bearer().unwrap_or_default(),
            Some(Err(e)) => return self.fail(AuthError::BadChallenge(e)),
            None => Default::default(),
        };
        let insufficient = bearer.error.as_deref() == Some("insufficient_scope");
        if !(status == 401 || status == 403 && insufficient) {
            return self.fail(AuthError::NotAChallenge(status));
        }
        if self.authorizations >= self.config.max_authorizations {
            return self.fail(AuthError::TooManyAttempts);
        }
        self.entropy = *entropy;
        self.challenge_scope = bearer.scope.filter(|s| !s.trim().is_empty());
        // A 401 means the token is no good: keep only its refresh token.
        self.try_refresh = status == 401
            && self
                .tokens
                .as_ref()
                .is_some_and(|t| t.refresh_token.is_some());
        if status == 401
            && let Some(t) = &mut self.tokens
        {
            t.expires_at_ms = Some(0);
        }
        let server = HttpUrl::parse(&self.config.server_url);
        let candidates = match (bearer.resource_metadata, server) {
            (Some(u), _) if HttpUrl::parse(&u).is_some() => alloc::vec![u],
            (Some(u), _) => return self.fail(AuthError::BadUrl(u)),
            (None, Some(s)) => url::protected_resource_candidates(&s),
            (None, None) => return self.fail(AuthError::BadUrl(self.config.server_url.clone())),
        };
        self.phase = Phase::ResourceMetadata {
            candidates,
            next: 0,
        };
        self.fetch_next();
    }

    /// The host could not carry fetch `id` (network error): the same as a 404 for metadata,
    /// a failure otherwise.
    pub fn handle_fetch_failed(&mut self, id: FetchId, now_ms: u64) {
        if self.awaiting != Some(id) {
            return;
        }
        match self.phase {
            Phase::ResourceMetadata { .. } | Phase::ServerMetadata { .. } => {
                self.handle_fetched(id, 0, b"", now_ms);
            }
            _ => self.fail(AuthError::FetchFailed),
        }
    }

    /// The response to fetch `id`: its status and body. A response to anything but the
    /// awaited fetch is ignored.
    pub fn handle_fetched(&mut self, id: FetchId, status: u16, body: &[u8], now_ms: u64) {
        if self.awaiting != Some(id) {
            return;
        }
        self.awaiting = None;
        let ok = (200..300).contains(&status);
        match core::mem::replace(&mut self.phase, Phase::Idle) {
            // Nothing awaits a fetch there; keep the state as it was.
            p @ (Phase::Idle | Phase::Redirect(_)) => self.phase = p,
            Phase::ResourceMetadata { candidates, next } => {
                match ResourceMetadata::parse(body).filter(|_| ok) {
                    Some(prm) => self.on_resource_metadata(prm),
                    None => {
                        self.phase = Phase::ResourceMetadata { candidates, next };
                        self.fetch_next();
                    }
                }
            }
            Phase::ServerMetadata {
                issuer,
                candidates,
                next,
            } => match ServerMetadata::parse(body).filter(|_| ok) {
                Some(m) => self.on_server_metadata(&issuer, m),
                None => {
                    self.phase = Phase::ServerMetadata {
                        issuer,
                        candidates,
                        next,
                    };
                    self.fetch_next();
                }
            },
            Phase::Registering => match RegistrationResponse::parse(body).filter(|_| ok) {
                Some(r) => self.on_registered(r),
                None => self.fail(AuthError::RegistrationFailed(status)),
            },
            Phase::Token {
                refresh,
                fallback,
                scope,
            } => self.on_token(status, body, refresh, fallback, scope, now_ms),
        }
    }

    /// The URL the user agent was redirected to after [`Action::Authorize`]
    /// (docs/rules.md §21.5): `iss`, then `state`, then `error` or `code`.
    pub fn handle_redirect(&mut self, redirect_url: &str, _now_ms: u64) {
        if !matches!(self.phase, Phase::Redirect(_)) {
            // Not waiting for one: the running flow (if any) goes on.
            return self.fail_keep(AuthError::UnexpectedRedirect);
        }
        let Phase::Redirect(pending) = core::mem::replace(&mut self.phase, Phase::Idle) else {
            return;
        };
        let (Ok(got), Ok(want)) = (
            Uri::parse(redirect_url),
            Uri::parse(&self.config.redirect_uri),
        ) else {
            return self.fail(AuthError::UnexpectedRedirect);
        };
        let same_endpoint = got.scheme.eq_ignore_ascii_case(want.scheme)
            && got.authority.map(str::to_ascii_lowercase)
                == want.authority.map(str::to_ascii_lowercase)
            && got.path == want.path;
        let pairs = got.query.map_or(Some(Vec::new()), form::parse);
        let (true, Some(pairs)) = (same_endpoint, pairs) else {
            return self.fail(AuthError::UnexpectedRedirect);
        };
        let get = |n: &str| pairs.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
        let Some(server) = &self.server else {
            return self.fail(AuthError::UnexpectedRedirect);
        };
        // RFC 9207 §2.4 as the spec's table has it: a present `iss` is compared by simple
        // string comparison; an absent one is refused only when advertised.
        match get("iss") {
            Some(iss) if iss != server.issuer => return self.fail(AuthError::IssMismatch),
            None if server.authorization_response_iss_parameter_supported => {
                return self.fail(AuthError::IssMissing);
            }
            _ => {}
        }
        if get("state") != Some(pending.state.as_str()) {
            return self.fail(AuthError::StateMismatch);
        }
        if let Some(e) = get("error") {
            return self.fail(AuthError::AuthorizationDenied(e.to_string()));
        }
        let Some(code) = get("code") else {
            return self.fail(AuthError::AuthorizationDenied("no code".into()));
        };
        let mut f = Form::new();
        f.pair("grant_type", "authorization_code")
            .pair("code", code)
            .pair("redirect_uri", &self.config.redirect_uri)
            .pair("code_verifier", &pending.verifier);
        self.token_request(f, false, false, pending.scope);
    }

    // --- steps ----------------------------------------------------------------------------

    fn on_resource_metadata(&mut self, prm: ResourceMetadata) {
        let Some(server) = HttpUrl::parse(&self.config.server_url) else {
            return self.fail(AuthError::BadUrl(self.config.server_url.clone()));
        };
        if !url::resource_covers(&prm.resource, &server) {
            return self.fail(AuthError::ResourceMismatch(prm.resource));
        }
        let Some(issuer) = prm.authorization_servers.first().cloned() else {
            return self.fail(AuthError::NoServerMetadata);
        };
        let Some(candidates) = HttpUrl::parse(&issuer)
            .filter(secure)
            .map(|u| url::authorization_server_candidates(&u))
        else {
            return self.fail(AuthError::BadUrl(issuer));
        };
        self.resource = Some(prm);
        self.phase = Phase::ServerMetadata {
            issuer,
            candidates,
            next: 0,
        };
        self.fetch_next();
    }

    fn on_server_metadata(&mut self, issuer: &str, m: ServerMetadata) {
        // RFC 8414 §3.3: identical to the issuer the well-known URL was built from.
        if m.issuer != issuer {
            return self.fail(AuthError::IssuerMismatch(m.issuer));
        }
        for e in [&m.authorization_endpoint, &m.token_endpoint]
            .into_iter()
            .chain(m.registration_endpoint.as_ref())
        {
            if !HttpUrl::parse(e).is_some_and(|u| secure(&u) && u.fragment.is_none()) {
                return self.fail(AuthError::BadUrl(e.clone()));
            }
        }
        let s256 = m
            .code_challenge_methods_supported
            .as_ref()
            .is_some_and(|l| l.iter().any(|x| x == "S256"));
        if !s256 {
            return self.fail(AuthError::PkceUnsupported);
        }
        // Another authorization server: nothing of the old one is reused (§21.4).
        if self.tokens.as_ref().is_some_and(|t| t.issuer != m.issuer) {
            self.tokens = None;
            self.try_refresh = false;
        }
        self.clients
            .retain(|c| !c.registered || c.issuer == m.issuer);
        self.client = self.client.take().filter(|c| c.issuer == m.issuer);
        // After a restart the tokens come back without a client: refresh with the identity
        // known for this issuer (pre-registered or restored), never a new registration.
        if self.try_refresh && self.client.is_none() {
            self.client = self.known_client(&m);
        }
        self.server = Some(m);
        if self.try_refresh && self.client.is_some() {
            self.try_refresh = false;
            return self.refresh(true);
        }
        self.identify();
    }

    /// The `resource` parameter: the metadata's identifier as published, else the server URL.
    fn resource_id(&self) -> String {
        self.resource
            .as_ref()
            .map_or_else(|| self.config.server_url.clone(), |r| r.resource.clone())
    }

    // --- plumbing -------------------------------------------------------------------------

    /// Fetches the next metadata candidate, or fails when none is left.
    fn fetch_next(&mut self) {
        let (url, err) = match &mut self.phase {
            Phase::ResourceMetadata { candidates, next } => {
                let u = candidates.get(*next).cloned();
                *next += 1;
                (u, AuthError::NoResourceMetadata)
            }
            Phase::ServerMetadata {
                candidates, next, ..
            } => {
                let u = candidates.get(*next).cloned();
                *next += 1;
                (u, AuthError::NoServerMetadata)
            }
            _ => return,
        };
        match url {
            Some(u) => self.send(
                HttpMethod::Get,
                u,
                alloc::vec![("Accept", "application/json".into())],
                Vec::new(),
            ),
            None => self.fail(err),
        }
    }

    fn send(
        &mut self,
        method: HttpMethod,
        url: String,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    ) {
        self.next_fetch += 1;
        let id = FetchId(self.next_fetch);
        self.awaiting = Some(id);
        self.actions.push_back(Action::Fetch(FetchRequest {
            id,
            method,
            url,
            headers,
            body,
        }));
    }

    /// Stops the running flow with `e`.
    fn fail(&mut self, e: AuthError) {
        self.phase = Phase::Idle;
        self.awaiting = None;
        self.fail_keep(e);
    }

    /// Reports `e` without touching the running flow.
    fn fail_keep(&mut self, e: AuthError) {
        self.actions.push_back(Action::Failed(e));
    }
}

/// Endpoints are `https`, or `http` on a loopback host (docs/rules.md §21.1).
fn secure(u: &HttpUrl<'_>) -> bool {
    u.is_https() || u.is_loopback()
}

/// RFC 6750 §2.1 `b64token`: what a Bearer credential may hold, so the header value is
/// safe on the wire.
fn is_b64token(t: &str) -> bool {
    let body = t.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

fn b64(bytes: &[u8]) -> String {
    encode(Alphabet::UrlSafeNoPad, bytes)
}

fn b64_std(bytes: &[u8]) -> String {
    encode(Alphabet::Standard, bytes)
}

fn encode(alphabet: Alphabet, bytes: &[u8]) -> String {
    let mut buf = alloc::vec![0u8; bytes.len().div_ceil(3) * 4];
    let n = base64::encode(alphabet, bytes, &mut buf).unwrap_or(0);
    buf.truncate(n);
    String::from_utf8(buf).unwrap_or_default()
}
