//! The async HTTP client against a protected server (docs/rules.md §21): the host's HTTP
//! service behind a Bearer check, with its protected resource metadata and a small
//! authorization server on the same listener; the client runs the core's OAuth flow, with a
//! user agent that follows the authorization endpoint's redirect itself.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use mcp_context::auth::{AuthConfig, Tokens};
use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
use mcp_context::server::{CacheHint, TemplateEntry};
use mcp_context_host::client::{McpClient, OAuth, UserAgent, default_config};
use mcp_context_host::http::HttpOptions;
use mcp_context_host::{App, Context, ReadRequest};

const REDIRECT: &str = "http://127.0.0.1:1/callback";

fn app() -> App {
    let mut app = App::named("protected", "1.0.0");
    app.template(
        OwnedResourceTemplate::new("echo://{x}", "echo"),
        |req: ReadRequest, cx: Context| async move {
            let text = format!(
                "{} for caller {}",
                req.var("x").unwrap_or_default(),
                cx.caller()
            );
            Ok(OwnedResourceContents::text(&req.uri, None, text))
        },
    );
    // The same, cached per caller for a minute.
    app.template_entry(
        TemplateEntry {
            template: OwnedResourceTemplate::new("mine://{x}", "mine"),
            cache: Some(CacheHint::private(60_000)),
            completions: Vec::new(),
        },
        |req: ReadRequest, cx: Context| async move {
            let text = format!(
                "{} of caller {}",
                req.var("x").unwrap_or_default(),
                cx.caller()
            );
            Ok(OwnedResourceContents::text(&req.uri, None, text))
        },
    );
    app
}

/// The counts the test checks: token requests, authorization requests, and the last
/// authorization request's query.
#[derive(Default)]
struct Seen {
    tokens: AtomicUsize,
    authorizations: AtomicUsize,
    query: Mutex<Vec<(String, String)>>,
    /// `token-1` no longer admitted; the token endpoint issues `token-2` (another user's).
    revoked: AtomicBool,
}

fn user_agent() -> UserAgent {
    Arc::new(|url: String| {
        Box::pin(async move {
            let http = reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| e.to_string())?;
            let r = http.get(&url).send().await.map_err(|e| e.to_string())?;
            r.headers()
                .get(header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(String::from)
                .ok_or_else(|| format!("no redirect ({})", r.status()))
        })
    })
}

// `HttpOptions::auth` refuses with a whole `Response`, as its signature says.
#[allow(clippy::result_large_err)]
async fn protected_server(seen: Arc<Seen>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let host = app().build().unwrap();
    let prm = format!("{base}/.well-known/oauth-protected-resource/mcp");
    let s0 = seen.clone();
    let options = HttpOptions {
        auth: Some(Arc::new(
            move |parts: &axum::http::request::Parts| match parts
                .headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
            {
                Some("Bearer token-1") if !s0.revoked.load(Ordering::SeqCst) => Ok(7),
                Some("Bearer token-2") => Ok(8),
                _ => Err((
                    StatusCode::UNAUTHORIZED,
                    [(
                        header::WWW_AUTHENTICATE,
                        format!(r#"Bearer error="invalid_token", resource_metadata="{prm}""#),
                    )],
                )
                    .into_response()),
            },
        )),
        ..HttpOptions::default()
    };
    let (b1, b2, b3) = (base.clone(), base.clone(), base.clone());
    let (s1, s2) = (seen.clone(), seen.clone());
    let routes = Router::new()
        .route(
            "/.well-known/oauth-protected-resource/mcp",
            get(move || async move {
                format!(r#"{{"resource":"{b1}/mcp","authorization_servers":["{b1}"]}}"#)
            }),
        )
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || async move {
                format!(
                    r#"{{"issuer":"{b2}","authorization_endpoint":"{b2}/authorize","token_endpoint":"{b2}/token","registration_endpoint":"{b2}/register","code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true}}"#
                )
            }),
        )
        .route(
            "/register",
            post(|| async { (StatusCode::CREATED, r#"{"client_id":"client-1"}"#) }),
        )
        .route(
            "/authorize",
            get(move |uri: axum::http::Uri| async move {
                let q = mcp_context::auth::form::parse(uri.query().unwrap_or_default()).unwrap();
                s1.authorizations.fetch_add(1, Ordering::SeqCst);
                let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
                let state = get("state").unwrap_or_default();
                let to = format!(
                    "{}?code=code-1&state={state}&iss={}",
                    get("redirect_uri").unwrap_or_default(),
                    b3.replace(':', "%3A").replace('/', "%2F")
                );
                *s1.query.lock().unwrap() = q;
                Response::builder()
                    .status(StatusCode::FOUND)
                    .header(header::LOCATION, to)
                    .body(axum::body::Body::empty())
                    .unwrap()
            }),
        )
        .route(
            "/token",
            post(move || async move {
                s2.tokens.fetch_add(1, Ordering::SeqCst);
                if s2.revoked.load(Ordering::SeqCst) {
                    r#"{"access_token":"token-2","token_type":"Bearer","expires_in":3600}"#
                } else {
                    r#"{"access_token":"token-1","token_type":"Bearer","expires_in":3600}"#
                }
            }),
        );
    let router = host.router_with(options).merge(routes);
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_authorizes_then_reuses_its_token() {
    let seen = Arc::new(Seen::default());
    let base = protected_server(seen.clone()).await;
    let url = format!("{base}/mcp");
    let oauth = OAuth {
        config: AuthConfig::new(&url, REDIRECT, "host test"),
        user_agent: user_agent(),
    };
    let client = McpClient::http_with_auth(&url, default_config(), oauth).unwrap();
    let read = client.read_resource("echo://a").await.unwrap();
    assert!(read.json().contains("a for caller 7"), "{}", read.json());
    let read = client.read_resource("echo://b").await.unwrap();
    assert!(read.json().contains("b for caller 7"), "{}", read.json());
    assert_eq!(seen.authorizations.load(Ordering::SeqCst), 1);
    assert_eq!(seen.tokens.load(Ordering::SeqCst), 1);
    let q = seen.query.lock().unwrap().clone();
    let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(get("resource"), Some(url.as_str()));
    assert_eq!(get("client_id"), Some("client-1"));
    assert_eq!(get("code_challenge_method"), Some("S256"));
    let tokens = client.tokens().await.unwrap();
    assert_eq!(
        (tokens.access_token.as_str(), tokens.issuer.as_str()),
        ("token-1", base.as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_result_is_not_served_to_another_grant() {
    let seen = Arc::new(Seen::default());
    let base = protected_server(seen.clone()).await;
    let url = format!("{base}/mcp");
    let oauth = OAuth {
        config: AuthConfig::new(&url, REDIRECT, "host test"),
        user_agent: user_agent(),
    };
    let client = McpClient::http_with_auth(&url, default_config(), oauth).unwrap();
    // Sent without a token, answered after the flow: cached for the grant, not for nobody.
    let read = client.read_resource_cached("mine://a").await.unwrap();
    assert!(read.json().contains("a of caller 7"), "{}", read.json());
    let again = client.read_resource_cached("mine://a").await.unwrap();
    assert!(again.json().contains("a of caller 7"), "{}", again.json());
    // Another user's tokens: another grant, so the cached result is not theirs.
    let theirs = Tokens {
        issuer: base.clone(),
        resource: url.clone(),
        access_token: "token-2".into(),
        refresh_token: None,
        expires_at_ms: None,
        scope: None,
    };
    assert!(client.restore_tokens(theirs).await);
    let read = client.read_resource_cached("mine://a").await.unwrap();
    assert!(read.json().contains("a of caller 8"), "{}", read.json());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_authorization_is_a_new_grant_for_the_cache() {
    let seen = Arc::new(Seen::default());
    let base = protected_server(seen.clone()).await;
    let url = format!("{base}/mcp");
    let oauth = OAuth {
        config: AuthConfig::new(&url, REDIRECT, "host test"),
        user_agent: user_agent(),
    };
    let client = McpClient::http_with_auth(&url, default_config(), oauth).unwrap();
    let read = client.read_resource_cached("mine://a").await.unwrap();
    assert!(read.json().contains("a of caller 7"), "{}", read.json());
    // The token is revoked; the next call's 401 authorizes again, as another user.
    seen.revoked.store(true, Ordering::SeqCst);
    let other = client.read_resource("echo://b").await.unwrap();
    assert!(other.json().contains("b for caller 8"), "{}", other.json());
    assert_eq!(seen.authorizations.load(Ordering::SeqCst), 2);
    let read = client.read_resource_cached("mine://a").await.unwrap();
    assert!(read.json().contains("a of caller 8"), "{}", read.json());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_authorization_a_401_fails_the_call() {
    let seen = Arc::new(Seen::default());
    let base = protected_server(seen.clone()).await;
    let client = McpClient::http(&format!("{base}/mcp")).unwrap();
    assert!(client.read_resource("echo://a").await.is_err());
    assert_eq!(seen.authorizations.load(Ordering::SeqCst), 0);
}
