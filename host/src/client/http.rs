//! The client over Streamable HTTP: one POST per message, the answer as a JSON body or an
//! event stream (parsed by the core's `http::sse::SseDecoder`); cancelling a request closes
//! its response stream. A 2025-11-25 session is the core's (`Client::handle_http_response`
//! with each response head; the session header comes with `Transmit::http_headers`), and
//! closing the client sends the `DELETE` that ends it (`Client::end_session`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use futures_util::StreamExt;
use mcp_context::client::{ClientConfig, Transmit, Transport};
use reqwest::header::CONTENT_TYPE;
use tokio::task::AbortHandle;

use super::auth::{AuthState, OAuth};
use super::{Error, Inner, McpClient, Wire, default_config};
use mcp_context::http::sse::SseDecoder;

/// The HTTP side of a client: the endpoint, the connection pool and the requests whose
/// response streams are open.
pub struct HttpTransport {
    http: reqwest::Client,
    url: String,
    open: Mutex<HashMap<i64, AbortHandle>>,
    /// The authorization flow, for a protected server ([`McpClient::http_with_auth`]).
    auth: Option<Arc<AuthState>>,
}

impl std::fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpTransport")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl HttpTransport {
    pub(crate) fn post(&self, inner: &Arc<Inner>, t: Transmit) {
        // The standard, parameter and session headers, values encoded by the core.
        let mut req = self.http.post(&self.url);
        for (name, value) in t.http_headers() {
            req = req.header(name, value.as_ref());
        }
        let req = req.body(t.bytes);
        let id = t.id;
        let task_inner = inner.clone();
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let task = tokio::spawn(async move {
            exchange(&task_inner, req, id).await;
            if let (Some(id), Wire::Http(h)) = (id, &task_inner.wire) {
                h.open
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&id);
            }
        });
        if let Some(id) = id {
            open.insert(id, task.abort_handle());
        }
    }

    /// Ends a 2025-11-25 session: `DELETE` with the headers the core gave (a 405 only means
    /// the server keeps sessions until they expire).
    pub(crate) fn end_session(&self, headers: Vec<(&'static str, String)>) {
        let mut req = self.http.delete(&self.url);
        for (name, value) in headers {
            req = req.header(name, value);
        }
        let (auth, url) = (self.auth.clone(), self.url.clone());
        tokio::spawn(async move {
            // Authorization goes in every request of a protected server (docs/rules.md §21.7).
            if let Some(a) = auth
                && let Some(v) = a.header(&url).await
            {
                req = req.header(reqwest::header::AUTHORIZATION, v);
            }
            let _ = req.send().await;
        });
    }

    /// Closes the response stream of request `id` (the HTTP cancellation).
    pub(crate) fn close(&self, id: i64) {
        if let Some(task) = self
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id)
        {
            task.abort();
        }
    }
}

async fn exchange(inner: &Arc<Inner>, req: reqwest::RequestBuilder, id: Option<i64>) {
    let failed = |inner: &Arc<Inner>| {
        if let Some(id) = id {
            inner.input(|c, now| c.handle_request_failed(id, now));
        }
    };
    let resp = match send(inner, req).await {
        Ok(r) => r,
        Err(_) => return failed(inner),
    };
    let status = resp.status().as_u16();
    let session = resp
        .headers()
        .get(mcp_context::client::SESSION_HEADER)
        .and_then(|v| v.to_str().ok());
    inner.input(|c, now| c.handle_http_response(id, status, session, now));
    let kind = resp
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if kind.starts_with("text/event-stream") {
        let mut body = resp.bytes_stream();
        let mut sse = SseDecoder::default();
        while let Some(Ok(chunk)) = body.next().await {
            let fed = sse.feed(&chunk, |e| {
                inner.input(|c, now| c.handle_message(e.data, now));
            });
            if fed.is_err() {
                // An event over the bound: the stream is given up.
                return failed(inner);
            }
        }
    } else if kind.starts_with("application/json") {
        let ok = (200..300).contains(&status);
        match resp.bytes().await {
            Ok(body) if !body.is_empty() => {
                inner.input(|c, now| c.handle_message(&body, now));
                // An error status whose body did not answer the request (an error without
                // `id`, as servers refuse a POST before reading it): failed. A no-op when
                // the body did answer it.
                if !ok {
                    failed(inner);
                }
            }
            _ => failed(inner),
        }
    } else if !(200..300).contains(&status) {
        failed(inner);
    }
}

/// Sends `req`; with authorization, adds the token and answers 401/403 challenges with the
/// flow, then sends it again (at most 4 flows per request).
async fn send(
    inner: &Arc<Inner>,
    req: reqwest::RequestBuilder,
) -> reqwest::Result<reqwest::Response> {
    let (Wire::Http(h), Some(auth)) = (&inner.wire, inner.http_auth()) else {
        return req.send().await;
    };
    let mut flows = 0;
    loop {
        let Some(mut attempt) = req.try_clone() else {
            return req.send().await;
        };
        let sent = auth.header(&h.url).await;
        if let Some(v) = &sent {
            attempt = attempt.header(reqwest::header::AUTHORIZATION, v);
        }
        let resp = attempt.send().await?;
        let status = resp.status().as_u16();
        if !matches!(status, 401 | 403) || flows >= 4 {
            if resp.status().is_success() {
                auth.success().await;
            }
            return Ok(resp);
        }
        flows += 1;
        let www = resp
            .headers()
            .get(reqwest::header::WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        if auth
            .challenge(&h.url, sent.as_deref(), status, www.as_deref())
            .await
            .is_err()
        {
            return Ok(resp);
        }
    }
}

impl Inner {
    fn http_auth(&self) -> Option<Arc<AuthState>> {
        match &self.wire {
            Wire::Http(h) => h.auth.clone(),
            Wire::Lines(_) => None,
        }
    }
}

impl McpClient {
    /// [`McpClient::http_with`] for a protected server: a 401 or 403 `insufficient_scope`
    /// answer runs the core's OAuth flow ([`mcp_context::auth`], docs/rules.md §21) with
    /// `oauth.user_agent` for the authorization step, tokens kept in memory and refreshed.
    ///
    /// # Errors
    /// The HTTP client could not be built, or the configuration was refused.
    pub fn http_with_auth(url: &str, config: ClientConfig, oauth: OAuth) -> Result<Self, Error> {
        let auth = AuthState::new(oauth, url).map_err(|e| Error::Io(std::io::Error::other(e)))?;
        Self::http_wire(url, config, Some(Arc::new(auth)))
    }

    /// The tokens the authorization flow holds, if any (to persist them).
    pub async fn tokens(&self) -> Option<mcp_context::auth::Tokens> {
        match self.inner().http_auth() {
            Some(a) => a.tokens().await,
            None => None,
        }
    }

    /// Loads tokens persisted from an earlier run into the authorization flow (their
    /// `expires_at_ms` is wall-clock milliseconds); `false` without a flow or when they are
    /// for another resource (docs/rules.md §21.7).
    pub async fn restore_tokens(&self, tokens: mcp_context::auth::Tokens) -> bool {
        match self.inner().http_auth() {
            Some(a) => a.restore(tokens).await,
            None => false,
        }
    }

    /// The client identity the authorization flow obtained by dynamic registration, if any
    /// (to persist it beside the tokens, so that a later run need not register again).
    pub async fn registration(&self) -> Option<mcp_context::auth::ClientRegistration> {
        match self.inner().http_auth() {
            Some(a) => a.registration().await,
            None => None,
        }
    }

    /// Loads a registration persisted from an earlier run: restored tokens are refreshed with
    /// it, and a new authorization uses it instead of registering again (docs/rules.md
    /// §21.4); `false` without a flow.
    pub async fn restore_registration(
        &self,
        registration: mcp_context::auth::ClientRegistration,
    ) -> bool {
        match self.inner().http_auth() {
            Some(a) => {
                a.restore_registration(registration).await;
                true
            }
            None => false,
        }
    }

    /// A client for the Streamable HTTP endpoint `url` (e.g. `http://127.0.0.1:3001/mcp`).
    ///
    /// # Errors
    /// The HTTP client could not be built.
    pub fn http(url: &str) -> Result<Self, Error> {
        Self::http_with(url, default_config())
    }

    /// [`McpClient::http`] with a configuration (its transport is set to HTTP).
    ///
    /// # Errors
    /// The HTTP client could not be built, or the configuration was refused.
    pub fn http_with(url: &str, config: ClientConfig) -> Result<Self, Error> {
        Self::http_wire(url, config, None)
    }

    fn http_wire(
        url: &str,
        mut config: ClientConfig,
        auth: Option<Arc<AuthState>>,
    ) -> Result<Self, Error> {
        config.transport = Transport::Http;
        let http = reqwest::Client::builder()
            .build()
            .map_err(|e| Error::Io(std::io::Error::other(e)))?;
        Self::start(
            config,
            Wire::Http(HttpTransport {
                http,
                url: url.to_owned(),
                open: Mutex::new(HashMap::new()),
                auth,
            }),
        )
    }
}
