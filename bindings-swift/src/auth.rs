//! Authorization, client side: the core's OAuth 2.1 flow (`mcp_context::auth`,
//! docs/rules.md §21) as `Authorizer`, its configuration (`AuthConfig`, `PreRegisteredClient`),
//! its actions (`AuthAction`) and tokens (`AuthTokens`). The Swift async layer
//! (`OAuthSession`, `swift/Sources/MCPContext/Async/OAuth.swift`) does the I/O.

use std::sync::{Mutex, MutexGuard, PoisonError};

use mcp_context::auth::{self, Action, ENTROPY_LEN, FetchId, HttpMethod, PreRegistered, Tokens};

/// Client credentials registered out of band, bound to one authorization server.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PreRegisteredClient {
    /// The issuer identifier of the authorization server that issued them.
    pub issuer: String,
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`, for a confidential client.
    pub client_secret: Option<String>,
}

/// How the flow behaves.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct AuthConfig {
    /// The MCP server's URL.
    pub server_url: String,
    /// Where the authorization server sends the user agent back (`redirect_uri`; a custom
    /// scheme of the app is fine).
    pub redirect_uri: String,
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// The client's Client ID Metadata Document URL, used as `client_id` where supported.
    pub client_id_metadata_document: Option<String>,
    /// Pre-registered credentials.
    pub pre_registered: Vec<PreRegisteredClient>,
    /// Ask for `offline_access` when offered (refresh tokens).
    pub offline_access: bool,
    /// Authorizations without a request going through before the flow gives up.
    pub max_authorizations: u8,
    /// Refresh this long before the access token expires (ms).
    pub refresh_skew_ms: u64,
}

/// The defaults for `server_url`, `redirect_uri` and `client_name`: no metadata document, no
/// pre-registered client, `offline_access` when offered, 3 authorizations, 60 s skew.
#[uniffi::export]
pub fn auth_config(server_url: String, redirect_uri: String, client_name: String) -> AuthConfig {
    let c = auth::AuthConfig::new(&server_url, &redirect_uri, &client_name);
    AuthConfig {
        server_url,
        redirect_uri,
        client_name,
        client_id_metadata_document: None,
        pre_registered: Vec::new(),
        offline_access: c.offline_access,
        max_authorizations: c.max_authorizations,
        refresh_skew_ms: c.refresh_skew_ms,
    }
}

/// Tokens for one protected resource, as a token store keeps them.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct AuthTokens {
    /// The issuer that issued them.
    pub issuer: String,
    /// The `resource` they were requested for.
    pub resource: String,
    /// The access token.
    pub access_token: String,
    /// The refresh token, if one was issued.
    pub refresh_token: Option<String>,
    /// When the access token expires, on the host's clock (ms).
    pub expires_at_ms: Option<u64>,
    /// The scope granted.
    pub scope: Option<String>,
}

impl From<Tokens> for AuthTokens {
    fn from(t: Tokens) -> Self {
        Self {
            issuer: t.issuer,
            resource: t.resource,
            access_token: t.access_token,
            refresh_token: t.refresh_token,
            expires_at_ms: t.expires_at_ms,
            scope: t.scope,
        }
    }
}

impl From<AuthTokens> for Tokens {
    fn from(t: AuthTokens) -> Self {
        Self {
            issuer: t.issuer,
            resource: t.resource,
            access_token: t.access_token,
            refresh_token: t.refresh_token,
            expires_at_ms: t.expires_at_ms,
            scope: t.scope,
        }
    }
}

/// A header of a fetch the flow asks for.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct AuthHeader {
    /// The header name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// What the host does next.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum AuthAction {
    /// Send this request (redirects not followed); answer with `handleFetched`.
    Fetch {
        /// Echo it back.
        id: u64,
        /// `GET` or `POST`.
        method: String,
        /// The absolute URL.
        url: String,
        /// The headers to send.
        headers: Vec<AuthHeader>,
        /// The body (empty for `GET`).
        body: Vec<u8>,
    },
    /// Present this authorization URL; pass the redirect URL it ends at to `handleRedirect`.
    Authorize {
        /// The authorization request URL.
        url: String,
    },
    /// Keep these tokens.
    Store {
        /// The tokens.
        tokens: AuthTokens,
    },
    /// Send the challenged request again with this `Authorization` value.
    Retry {
        /// `Bearer <access token>`.
        authorization: String,
    },
    /// The flow stopped; the challenged request fails.
    Failed {
        /// Why, in words.
        error: String,
    },
}

impl From<Action> for AuthAction {
    fn from(a: Action) -> Self {
        match a {
            Action::Fetch(f) => Self::Fetch {
                id: f.id.0,
                method: match f.method {
                    HttpMethod::Get => "GET".into(),
                    HttpMethod::Post => "POST".into(),
                },
                url: f.url,
                headers: f
                    .headers
                    .into_iter()
                    .map(|(name, value)| AuthHeader {
                        name: name.into(),
                        value,
                    })
                    .collect(),
                body: f.body,
            },
            Action::Authorize { url } => Self::Authorize { url },
            Action::StoreTokens(t) => Self::Store { tokens: t.into() },
            Action::Retry { authorization } => Self::Retry { authorization },
            Action::Failed(e) => Self::Failed {
                error: e.to_string(),
            },
        }
    }
}

/// A configuration the flow refuses (an unacceptable URL).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Error)]
#[uniffi::export(Display)]
pub enum AuthConfigError {
    /// The server URL or the redirect URI is not acceptable.
    BadUrl {
        /// The URL.
        url: String,
    },
}

impl std::fmt::Display for AuthConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadUrl { url } => write!(f, "unacceptable URL: {url}"),
        }
    }
}

impl std::error::Error for AuthConfigError {}

/// The client side of MCP authorization (OAuth 2.1 authorization code with PKCE) for one
/// server, as a state machine; the host does the I/O, the clock and the randomness. Drain
/// `pollAction()` after every input.
#[derive(Debug, uniffi::Object)]
pub struct Authorizer(Mutex<auth::Authorizer>);

#[uniffi::export]
impl Authorizer {
    /// A flow for `config.serverUrl`.
    ///
    /// # Errors
    /// `BadUrl` for an unacceptable server URL or redirect URI.
    #[uniffi::constructor]
    pub fn new(config: AuthConfig) -> Result<Self, AuthConfigError> {
        let mut c = auth::AuthConfig::new(
            &config.server_url,
            &config.redirect_uri,
            &config.client_name,
        );
        c.client_id_metadata_document = config.client_id_metadata_document;
        c.pre_registered = config
            .pre_registered
            .into_iter()
            .map(|p| PreRegistered {
                issuer: p.issuer,
                client_id: p.client_id,
                client_secret: p.client_secret,
            })
            .collect();
        c.offline_access = config.offline_access;
        c.max_authorizations = config.max_authorizations;
        c.refresh_skew_ms = config.refresh_skew_ms;
        auth::Authorizer::new(c)
            .map(|a| Self(Mutex::new(a)))
            .map_err(|e| AuthConfigError::BadUrl {
                url: match e {
                    auth::AuthError::BadUrl(u) => u,
                    other => other.to_string(),
                },
            })
    }

    /// Loads stored tokens; `false` (ignored) when they are for another resource.
    pub fn restore(&self, tokens: AuthTokens) -> bool {
        self.lock().restore(tokens.into())
    }

    /// The tokens held.
    pub fn tokens(&self) -> Option<AuthTokens> {
        self.lock().tokens().cloned().map(Into::into)
    }

    /// The authorization context of the tokens held: one value per grant (restored tokens or
    /// a new authorization; a refresh keeps it), `nil` without tokens. `HTTPTransport` gives it
    /// to the client machine with each answer, so private results stay with their grant.
    pub fn auth_context(&self) -> Option<u64> {
        self.lock().auth_context().map(|a| a.0)
    }

    /// The next action, if any.
    pub fn poll_action(&self) -> Option<AuthAction> {
        self.lock().poll_action().map(Into::into)
    }

    /// Whether a flow is running.
    pub fn is_busy(&self) -> bool {
        self.lock().is_busy()
    }

    /// The `Authorization` value for a request to `url` (the server's origin only, an
    /// unexpired token).
    pub fn authorization_header(&self, url: String, now_ms: u64) -> Option<String> {
        self.lock().authorization_header(&url, now_ms)
    }

    /// Whether the access token is about to expire and can be refreshed now.
    pub fn refresh_due(&self, now_ms: u64) -> bool {
        self.lock().refresh_due(now_ms)
    }

    /// Starts a refresh when one is due.
    pub fn start_refresh(&self, now_ms: u64) {
        self.lock().start_refresh(now_ms);
    }

    /// A request went through.
    pub fn handle_success(&self) {
        self.lock().handle_success();
    }

    /// A 401 (or 403 `insufficient_scope`) and its `WWW-Authenticate`: starts the flow.
    /// `entropy`: 48 fresh random bytes (fewer: the flow fails with the next action).
    pub fn handle_challenge(
        &self,
        status: u16,
        www_authenticate: Option<String>,
        entropy: Vec<u8>,
        now_ms: u64,
    ) {
        let mut bytes = [0u8; ENTROPY_LEN];
        let ok = entropy.len() == ENTROPY_LEN;
        if ok {
            bytes.copy_from_slice(&entropy);
        }
        // Without fresh randomness the flow must not run: an impossible status fails it.
        let status = if ok { status } else { 0 };
        self.lock()
            .handle_challenge(status, www_authenticate.as_deref(), &bytes, now_ms);
    }

    /// The response to fetch `id`.
    pub fn handle_fetched(&self, id: u64, status: u16, body: Vec<u8>, now_ms: u64) {
        self.lock()
            .handle_fetched(FetchId(id), status, &body, now_ms);
    }

    /// Fetch `id` could not be carried.
    pub fn handle_fetch_failed(&self, id: u64, now_ms: u64) {
        self.lock().handle_fetch_failed(FetchId(id), now_ms);
    }

    /// The URL the user agent came back to.
    pub fn handle_redirect(&self, url: String, now_ms: u64) {
        self.lock().handle_redirect(&url, now_ms);
    }
}

impl Authorizer {
    fn lock(&self) -> MutexGuard<'_, auth::Authorizer> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
