//! A protected endpoint on axum (docs/rules.md §22) against the hostile cases of
//! `tests/auth/cases.json`, over real HTTP: tokens signed with `jsonwebtoken`, the JWKS and
//! an RFC 7662 introspection endpoint served on loopback, the host's `JwtVerifier` and
//! `IntrospectionVerifier`. Then nothing protected is listed, read, completed, embedded or
//! notified to a caller without the scope.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::routing::{get, post};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_context::auth::Challenges;
use mcp_context::auth::resource_server::ResourceServerConfig;
use mcp_context::messages::owned::{
    OwnedContentBlock, OwnedGetPromptResult, OwnedPromptMessage, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::Scoped;
use mcp_context_host::http::HttpOptions;
use mcp_context_host::protect::{IntrospectionVerifier, JwtVerifier, TokenVerifier};
use mcp_context_host::{App, CompleteRequest, Context, PromptRequest, ReadRequest};
use serde_json::{Value, json};

const CASES: &str = include_str!("../../tests/auth/cases.json");
const JWKS: &str = include_str!("../../tests/auth/jwks.json");
const PRIVATE: &str = include_str!("../../tests/auth/rsa.pem");
const PUBLIC: &str = include_str!("../../tests/auth/rsa.pub.pem");
const V: &str = "2026-07-28";

fn now_s() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// The resource an introspected token is for (set once its endpoint is bound).
static INTROSPECTED: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// The authorization server's part on loopback: the JWKS and the introspection endpoint
/// (active only for `live-token`, for the resource in `INTROSPECTED`).
async fn authorization_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let routes = Router::new()
        .route(
            "/jwks",
            get(|| async { ([("content-type", "application/json")], JWKS) }),
        )
        .route(
            "/introspect",
            post(move |body: String| async move {
                let active = body.contains("token=live-token&");
                let doc = if active {
                    json!({"active": true, "scope": "mcp", "sub": "bob", "client_id": "c2",
                           "aud": INTROSPECTED.lock().unwrap().clone(), "exp": now_s() + 3600})
                } else {
                    json!({"active": false})
                };
                ([("content-type", "application/json")], doc.to_string())
            }),
        );
    tokio::spawn(async move { axum::serve(listener, routes).await });
    base
}

/// The protected app: `secret://` items need `notes:secret`.
fn app(resource: &str, issuer: &str) -> App {
    let mut app = App::named("protected", "1.0.0");
    let mut p = ResourceServerConfig::new(resource, issuer);
    p.scopes_supported = vec!["mcp".into(), "notes:secret".into()];
    p.required_scopes = vec!["mcp".into()];
    app.config_mut().protection = Some(p);
    app.config_mut().http.path = Some(url_path(resource));
    app.config_mut().dynamic_resources = false;
    for (uri, text) in [("public://a", "public a"), ("secret://a", "the secret")] {
        app.static_resource(
            OwnedResource::new(uri, uri),
            vec![OwnedResourceContents::text(uri, None, text)],
            None,
        );
    }
    app.template(
        OwnedResourceTemplate::new("secret://note/{id}", "secret note"),
        |req: ReadRequest, cx: Context| async move {
            let who = cx
                .principal()
                .and_then(|c| c.subject.clone())
                .unwrap_or_default();
            Ok(OwnedResourceContents::text(
                &req.uri,
                None,
                format!("a secret note for {who}"),
            ))
        },
    );
    app.complete_template(
        "secret://note/{id}",
        |_req: CompleteRequest, _cx: Context| async move { Ok(vec!["secret-id".to_owned()]) },
    );
    app.prompt(
        mcp_context::messages::owned::OwnedPrompt {
            name: "leak".into(),
            ..Default::default()
        },
        |_req: PromptRequest, _cx: Context| async move {
            Ok(OwnedGetPromptResult {
                description: None,
                messages: vec![OwnedPromptMessage {
                    role: mcp_context::messages::Role::User,
                    content: OwnedContentBlock::ResourceLink(OwnedResource::new("secret://a", "a")),
                }],
                server_info: None,
            })
        },
    );
    app.with_server(|s| {
        s.require_scopes(Scoped::Resource("secret://a"), &["notes:secret"])?;
        s.require_scopes(Scoped::Template("secret://note/{id}"), &["notes:secret"])
    });
    app
}

fn url_path(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    rest.find('/').map_or("/".into(), |i| rest[i..].to_owned())
}

/// Serves `app` protected by `verifier`; returns the endpoint URL.
async fn serve(resource_path: &str, issuer: &str, verifier: Arc<dyn TokenVerifier>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}{resource_path}", listener.local_addr().unwrap());
    let host = app(&url, issuer).build().unwrap();
    let options = HttpOptions {
        verifier: Some(verifier),
        ..HttpOptions::default()
    };
    let router = host.router_with(options);
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// A token as `tokens[kind]` of the case file describes it.
fn token(kind: &str, spec: &Value, issuer: &str, resource: &str) -> String {
    let s = |k: &str| spec[k].as_str().unwrap_or_default();
    let iss = if s("iss") == "issuer" {
        issuer
    } else {
        s("iss")
    };
    let aud = if s("aud") == "resource" {
        resource
    } else {
        s("aud")
    };
    let mut claims = json!({"iss": iss, "aud": aud, "sub": "alice", "client_id": "c1",
                            "scope": s("scope"), "exp": now_s() + spec["exp"].as_i64().unwrap(),
                            "iat": now_s()});
    if let Some(nbf) = spec["nbf"].as_i64() {
        claims["nbf"] = json!(now_s() + nbf);
    }
    let rsa = || EncodingKey::from_rsa_pem(PRIVATE.as_bytes()).unwrap();
    let with_kid = |alg, kid: &str| Header {
        kid: Some(kid.into()),
        ..Header::new(alg)
    };
    match s("sign") {
        "RS256" => {
            jsonwebtoken::encode(&with_kid(Algorithm::RS256, "test-key"), &claims, &rsa()).unwrap()
        }
        "RS256-other-kid" => {
            jsonwebtoken::encode(&with_kid(Algorithm::RS256, "rotated-away"), &claims, &rsa())
                .unwrap()
        }
        "HS256-public-key" => {
            let key = EncodingKey::from_secret(PUBLIC.as_bytes()).unwrap();
            jsonwebtoken::encode(&with_kid(Algorithm::HS256, "test-key"), &claims, &key).unwrap()
        }
        "none" => {
            let b = |v: &Value| {
                let bytes = v.to_string().into_bytes();
                let alphabet = mcp_context::base64::Alphabet::UrlSafeNoPad;
                let mut out =
                    vec![0; mcp_context::base64::encoded_len(alphabet, bytes.len()).unwrap()];
                let n = mcp_context::base64::encode(alphabet, &bytes, &mut out).unwrap();
                String::from_utf8(out[..n].to_vec()).unwrap()
            };
            format!(
                "{}.{}.",
                b(&json!({"alg": "none", "typ": "JWT", "kid": "test-key"})),
                b(&claims)
            )
        }
        other => panic!("{kind}: unknown signing {other}"),
    }
}

fn body(id: u64, method: &str, params: Value) -> String {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": V,
                             "io.modelcontextprotocol/clientCapabilities": {}});
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// POSTs `method` (named `name`) to `url` with `authorization`: status, headers, JSON body.
async fn post_mcp(
    url: &str,
    authorization: Option<&str>,
    method: &str,
    name: Option<&str>,
    params: Value,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let http = reqwest::Client::new();
    let mut req = http
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", V)
        .header("Mcp-Method", method)
        .body(body(1, method, params));
    if let Some(n) = name {
        req = req.header("Mcp-Name", n);
    }
    if let Some(a) = authorization {
        req = req.header("Authorization", a);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let text = r.text().await.unwrap();
    let text = text.strip_prefix("data: ").unwrap_or(&text).trim();
    (
        status,
        headers,
        serde_json::from_str(text).unwrap_or(Value::Null),
    )
}

fn bearer(headers: &reqwest::header::HeaderMap) -> Option<mcp_context::auth::BearerChallenge> {
    let h = headers.get("www-authenticate")?.to_str().unwrap();
    Challenges::parse(h).unwrap().bearer()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hostile_cases_get_their_status_and_challenge() {
    let cases: Value = serde_json::from_str(CASES).unwrap();
    let issuer = authorization_server().await;
    // The JWT verifier's audience is the endpoint URL, known once bound.
    let url = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let verifier = Arc::new(JwtVerifier::new(&format!("{issuer}/jwks"), &issuer, &url));
        let host = app(&url, &issuer).build().unwrap();
        let router = host.router_with(HttpOptions {
            verifier: Some(verifier),
            ..HttpOptions::default()
        });
        tokio::spawn(async move { axum::serve(listener, router).await });
        url
    };
    let introspected = serve(
        "/mcp-introspected",
        &issuer,
        Arc::new(IntrospectionVerifier::new(
            &format!("{issuer}/introspect"),
            Some(("rs", "secret")),
        )),
    )
    .await;
    *INTROSPECTED.lock().unwrap() = introspected.clone();
    let prm_of = |u: &str| {
        let (origin, path) = u.split_at(u.find("/mcp").unwrap());
        format!("{origin}/.well-known/oauth-protected-resource{path}")
    };
    let big = "a".repeat(64 * 1024);
    let mut table = Vec::new();
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (endpoint, tok) = match (
            case["verifier"].as_str(),
            case["token"].as_str(),
            case["opaque"].as_str(),
        ) {
            (Some("introspection"), _, Some(o)) => (introspected.clone(), o.to_owned()),
            (_, Some(kind), _) => (
                url.clone(),
                token(kind, &cases["tokens"][kind], &issuer, &url),
            ),
            _ => (url.clone(), String::new()),
        };
        let authorization = case["authorization"]
            .as_str()
            .map(|a| a.replace("{token}", &tok).replace("{big}", &big));
        let target = match case["query"].as_str() {
            Some(q) => format!("{endpoint}?{}", q.replace("{token}", &tok)),
            None => endpoint.clone(),
        };
        let (status, headers, v) = post_mcp(
            &target,
            authorization.as_deref(),
            "resources/list",
            None,
            json!({}),
        )
        .await;
        let allowed: Vec<u16> = match case["status_any"].as_array() {
            Some(a) => a.iter().map(|s| s.as_u64().unwrap() as u16).collect(),
            None => vec![case["status"].as_u64().unwrap() as u16],
        };
        assert!(
            allowed.contains(&status),
            "{name}: status {status}, body {v}"
        );
        if status == 401 || status == 403 {
            let c = bearer(&headers).unwrap_or_else(|| panic!("{name}: no Bearer challenge"));
            assert_eq!(c.error.as_deref(), case["error"].as_str(), "{name}");
            assert_eq!(c.resource_metadata, Some(prm_of(&endpoint)), "{name}");
            if let Some(scope) = case["scope"].as_str() {
                assert_eq!(c.scope.as_deref(), Some(scope), "{name}");
            }
            assert!(v.get("result").is_none(), "{name}: {v}");
        }
        if status == 200 {
            assert!(v["result"]["resources"].is_array(), "{name}: {v}");
        }
        table.push(format!("{name}: {status}"));
    }
    println!("axum runner:\n  {}", table.join("\n  "));
    // The metadata document, at the path RFC 9728 §3.1 derives.
    let doc: Value = reqwest::get(prm_of(&url))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(doc["resource"], url.as_str());
    assert_eq!(doc["authorization_servers"], json!([issuer]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_protected_reaches_a_caller_without_the_scope() {
    let cases: Value = serde_json::from_str(CASES).unwrap();
    let issuer = authorization_server().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let verifier = Arc::new(JwtVerifier::new(&format!("{issuer}/jwks"), &issuer, &url));
    let host = app(&url, &issuer).build().unwrap();
    let router = host.router_with(HttpOptions {
        verifier: Some(verifier),
        ..HttpOptions::default()
    });
    tokio::spawn(async move { axum::serve(listener, router).await });
    let low = format!(
        "Bearer {}",
        token("low", &cases["tokens"]["low"], &issuer, &url)
    );
    let high = format!(
        "Bearer {}",
        token("valid", &cases["tokens"]["valid"], &issuer, &url)
    );
    let uris = |v: &Value| -> Vec<String> {
        v["result"]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap().to_owned())
            .collect()
    };
    // Listed.
    let (_, _, v) = post_mcp(&url, Some(&low), "resources/list", None, json!({})).await;
    assert_eq!(uris(&v), ["public://a"]);
    let (_, _, v) = post_mcp(&url, Some(&high), "resources/list", None, json!({})).await;
    assert_eq!(uris(&v), ["public://a", "secret://a"]);
    let (_, _, v) = post_mcp(
        &url,
        Some(&low),
        "resources/templates/list",
        None,
        json!({}),
    )
    .await;
    assert_eq!(v["result"]["resourceTemplates"], json!([]));
    // Read: the step-up answer, never the contents.
    for uri in ["secret://a", "secret://note/1"] {
        let (status, headers, v) = post_mcp(
            &url,
            Some(&low),
            "resources/read",
            Some(uri),
            json!({"uri": uri}),
        )
        .await;
        assert_eq!(status, 403, "{uri}: {v}");
        let c = bearer(&headers).unwrap();
        assert_eq!(
            (c.error.as_deref(), c.scope.as_deref()),
            (Some("insufficient_scope"), Some("notes:secret"))
        );
        assert!(
            !v.to_string().contains("secret note") && !v.to_string().contains("the secret"),
            "{v}"
        );
        let (status, _, v) = post_mcp(
            &url,
            Some(&high),
            "resources/read",
            Some(uri),
            json!({"uri": uri}),
        )
        .await;
        assert_eq!(status, 200, "{uri}: {v}");
    }
    // The handler sees the verified caller (never the token).
    let (_, _, v) = post_mcp(
        &url,
        Some(&high),
        "resources/read",
        Some("secret://note/7"),
        json!({"uri": "secret://note/7"}),
    )
    .await;
    assert!(v.to_string().contains("a secret note for alice"), "{v}");
    // Completed.
    let complete = json!({"ref": {"type": "ref/resource", "uri": "secret://note/{id}"},
                          "argument": {"name": "id", "value": ""}});
    let (status, _, _) = post_mcp(&url, Some(&low), "completion/complete", None, complete).await;
    assert_eq!(status, 403);
    // Embedded: a prompt linking the secret resource.
    let (status, _, v) = post_mcp(
        &url,
        Some(&low),
        "prompts/get",
        Some("leak"),
        json!({"name": "leak"}),
    )
    .await;
    assert!(v.get("error").is_some(), "{status} {v}");
    assert!(!v.to_string().contains("secret://a"), "{v}");
    let (_, _, v) = post_mcp(
        &url,
        Some(&high),
        "prompts/get",
        Some("leak"),
        json!({"name": "leak"}),
    )
    .await;
    assert!(v.to_string().contains("secret://a"), "{v}");
}
