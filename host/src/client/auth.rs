//! Authorization for the HTTP client: the core's OAuth 2.1 flow
//! ([`mcp_context::auth::Authorizer`], docs/rules.md §21) driven with reqwest, tokens kept in
//! memory (wall-clock milliseconds, so they can be persisted). A 401 or 403 `insufficient_scope` answer runs the flow, then the request is sent
//! again with the new token; a token about to expire is refreshed before a request.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use mcp_context::auth::{
    Action, AuthConfig, Authorizer, ClientRegistration, ENTROPY_LEN, HttpMethod, Tokens,
};
use tokio::sync::Mutex;

/// What a user agent returns: the URL the authorization server redirected to.
pub type Redirect = Pin<Box<dyn Future<Output = Result<String, String>> + Send>>;

/// The user agent: opens an authorization URL (a browser, or a test's direct request) and
/// resolves to the redirect URL the authorization server sent it to (with `code`, `state`,
/// `iss`), e.g. as captured by a loopback listener at the configured `redirect_uri`.
pub type UserAgent = Arc<dyn Fn(String) -> Redirect + Send + Sync>;

/// OAuth for [`super::McpClient::http_with_auth`]: the flow's configuration and the user agent.
#[derive(Clone)]
pub struct OAuth {
    /// The flow's configuration (`server_url` is set to the client's URL).
    pub config: AuthConfig,
    /// Opens authorization URLs.
    pub user_agent: UserAgent,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The flow of one client: the authorizer behind an async lock (one flow at a time; requests
/// that meet a challenge meanwhile wait and then use its token).
pub(crate) struct AuthState {
    authorizer: Mutex<Authorizer>,
    user_agent: UserAgent,
    /// For the flow's fetches: redirects are not followed.
    http: reqwest::Client,
}

impl AuthState {
    pub(crate) fn new(mut oauth: OAuth, url: &str) -> Result<Self, String> {
        oauth.config.server_url = url.to_owned();
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Self {
            authorizer: Mutex::new(Authorizer::new(oauth.config).map_err(|e| e.to_string())?),
            user_agent: oauth.user_agent,
            http,
        })
    }

    fn now(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    /// The `Authorization` value for a request to `url`, refreshing a token about to expire.
    pub(crate) async fn header(&self, url: &str) -> Option<String> {
        let mut a = self.authorizer.lock().await;
        if a.refresh_due(self.now()) {
            a.start_refresh(self.now());
            let _ = self.drive(&mut a).await;
        }
        a.authorization_header(url, self.now())
    }

    /// The tokens held (what a persistent store would keep).
    pub(crate) async fn tokens(&self) -> Option<Tokens> {
        self.authorizer.lock().await.tokens().cloned()
    }

    /// Loads tokens kept from an earlier run; `false` when they are for another resource.
    pub(crate) async fn restore(&self, tokens: Tokens) -> bool {
        self.authorizer.lock().await.restore(tokens)
    }

    /// The client identity from dynamic registration (what a persistent store keeps beside
    /// the tokens).
    pub(crate) async fn registration(&self) -> Option<ClientRegistration> {
        self.authorizer.lock().await.registration()
    }

    /// Loads a registration kept from an earlier run.
    pub(crate) async fn restore_registration(&self, r: ClientRegistration) {
        self.authorizer.lock().await.restore_registration(r);
    }

    /// A request carrying `sent` (its `Authorization` value, if any) was answered `status`
    /// with `www_authenticate`: runs the flow unless another request already renewed the
    /// token. `Ok` means: send it again.
    pub(crate) async fn challenge(
        &self,
        url: &str,
        sent: Option<&str>,
        status: u16,
        www_authenticate: Option<&str>,
    ) -> Result<(), String> {
        let mut a = self.authorizer.lock().await;
        let current = a.authorization_header(url, self.now());
        if status == 401 && current.is_some() && current.as_deref() != sent {
            return Ok(());
        }
        let entropy = random()?;
        a.handle_challenge(status, www_authenticate, &entropy, self.now());
        self.drive(&mut a).await
    }

    /// A request went through with the current token.
    pub(crate) async fn success(&self) {
        self.authorizer.lock().await.handle_success();
    }

    async fn drive(&self, a: &mut Authorizer) -> Result<(), String> {
        let http = &self.http;
        while let Some(action) = a.poll_action() {
            match action {
                Action::Fetch(f) => {
                    let mut req = match f.method {
                        HttpMethod::Get => http.get(&f.url),
                        HttpMethod::Post => http.post(&f.url).body(f.body),
                    };
                    for (k, v) in &f.headers {
                        req = req.header(*k, v);
                    }
                    let got = match req.send().await {
                        Ok(r) => {
                            let status = r.status().as_u16();
                            r.bytes().await.ok().map(|b| (status, b))
                        }
                        Err(_) => None,
                    };
                    match got {
                        Some((status, body)) => a.handle_fetched(f.id, status, &body, self.now()),
                        None => a.handle_fetch_failed(f.id, self.now()),
                    }
                }
                Action::Authorize { url } => {
                    let redirect = (self.user_agent)(url).await?;
                    a.handle_redirect(&redirect, self.now());
                }
                // In memory: the authorizer holds them.
                Action::StoreTokens(_) => {}
                Action::Retry { .. } => return Ok(()),
                Action::Failed(e) => return Err(e.to_string()),
            }
        }
        Ok(())
    }
}

fn random() -> Result<[u8; ENTROPY_LEN], String> {
    let mut bytes = [0u8; ENTROPY_LEN];
    getrandom::getrandom(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}
