//! The flow end to end against a scripted authorization server (docs/rules.md §21).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};

use sha2::{Digest, Sha256};

use super::*;

const MCP: &str = "http://localhost:3000/mcp";
const CB: &str = "http://localhost:5000/callback";
const AS: &str = "http://localhost:4000";
const E: [u8; ENTROPY_LEN] = [42; ENTROPY_LEN];

/// A scripted network: the metadata documents and endpoints of one MCP server and its
/// authorization server(s), and everything the flow sent.
struct Net {
    /// `(url, status, body)`; unknown URLs are 404.
    routes: Vec<(String, u16, String)>,
    sent: Vec<FetchRequest>,
    /// What the authorization endpoint redirects with: `code`, `iss` (None: omitted).
    iss: Option<String>,
    state_override: Option<String>,
    authorize_urls: Vec<String>,
}

mod tokens;

fn prm(resource: &str, servers: &[&str], scopes: Option<&[&str]>) -> String {
    let q = |v: &[&str]| {
        v.iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(",")
    };
    let scopes = scopes.map_or(String::new(), |s| {
        format!(",\"scopes_supported\":[{}]", q(s))
    });
    format!(
        "{{\"resource\":\"{resource}\",\"authorization_servers\":[{}]{scopes}}}",
        q(servers)
    )
}

fn asm(issuer: &str, extra: &str) -> String {
    format!(
        "{{\"issuer\":\"{issuer}\",\"authorization_endpoint\":\"{issuer}/authorize\",\
         \"token_endpoint\":\"{issuer}/token\",\"registration_endpoint\":\"{issuer}/register\",\
         \"code_challenge_methods_supported\":[\"S256\"],\
         \"token_endpoint_auth_methods_supported\":[\"none\"]{extra}}}"
    )
}

impl Net {
    fn new() -> Self {
        Self {
            routes: vec![
                (
                    "http://localhost:3000/.well-known/oauth-protected-resource/mcp".to_string(),
                    200,
                    prm(MCP, &[AS], None),
                ),
                (
                    format!("{AS}/.well-known/oauth-authorization-server"),
                    200,
                    asm(AS, ""),
                ),
                (
                    format!("{AS}/register"),
                    201,
                    r#"{"client_id":"dyn-client"}"#.into(),
                ),
                (
                    format!("{AS}/token"),
                    200,
                    r#"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}"#
                        .into(),
                ),
            ],
            sent: Vec::new(),
            iss: Some(AS.into()),
            state_override: None,
            authorize_urls: Vec::new(),
        }
    }

    fn route(&mut self, url: &str, status: u16, body: &str) {
        self.routes.retain(|(u, _, _)| u != url);
        self.routes.push((url.into(), status, body.into()));
    }

    /// Drains `a`, answering fetches and authorizations; returns the other actions.
    fn run(&mut self, a: &mut Authorizer, now: u64) -> Vec<Action> {
        let mut out = Vec::new();
        while let Some(action) = a.poll_action() {
            match action {
                Action::Fetch(f) => {
                    let (status, body) = self
                        .routes
                        .iter()
                        .find(|(u, _, _)| *u == f.url)
                        .map_or((404, String::new()), |(_, s, b)| (*s, b.clone()));
                    self.sent.push(f.clone());
                    a.handle_fetched(f.id, status, body.as_bytes(), now);
                }
                Action::Authorize { url } => {
                    let u = url::HttpUrl::parse(&url).unwrap();
                    let q = url::query_pairs(&u).unwrap();
                    let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
                    let state = self.state_override.clone().or(get("state")).unwrap();
                    let mut f = form::Form::new();
                    f.pair("code", "the-code").pair("state", &state);
                    if let Some(iss) = &self.iss {
                        f.pair("iss", iss);
                    }
                    self.authorize_urls.push(url.clone());
                    a.handle_redirect(&url::with_query(CB, &f), now);
                }
                other => out.push(other),
            }
        }
        out
    }

    fn urls(&self) -> Vec<&str> {
        self.sent.iter().map(|f| f.url.as_str()).collect()
    }

    fn last_to(&self, suffix: &str) -> &FetchRequest {
        self.sent
            .iter()
            .rev()
            .find(|f| f.url.ends_with(suffix))
            .unwrap()
    }
}

fn query(url_text: &str, key: &str) -> Option<String> {
    let u = url::HttpUrl::parse(url_text).unwrap();
    let q = url::query_pairs(&u).unwrap();
    q.into_iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn body_param(f: &FetchRequest, key: &str) -> Option<String> {
    form::parse(core::str::from_utf8(&f.body).unwrap())
        .unwrap()
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// A flow whose registration returns `client_id`, a secret and `client_secret_post`.
fn post_registration(client_id: &str) -> (Net, Authorizer) {
    let mut net = Net::new();
    net.route(
        &format!("{AS}/register"),
        201,
        &format!(
            r#"{{"client_id":"{client_id}","client_secret":"sec","token_endpoint_auth_method":"client_secret_post"}}"#
        ),
    );
    (net, authorizer())
}

fn authorizer() -> Authorizer {
    Authorizer::new(AuthConfig::new(MCP, CB, "test client")).unwrap()
}

fn retried(actions: &[Action]) -> Option<&str> {
    actions.iter().find_map(|a| match a {
        Action::Retry { authorization } => Some(authorization.as_str()),
        _ => None,
    })
}

fn failed(actions: &[Action]) -> Option<&AuthError> {
    actions.iter().find_map(|a| match a {
        Action::Failed(e) => Some(e),
        _ => None,
    })
}

#[test]
fn full_flow_with_dynamic_registration_and_pkce() {
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, Some(r#"Bearer error="invalid_token""#), &E, 0);
    let out = net.run(&mut a, 10);
    assert_eq!(retried(&out), Some("Bearer at-1"), "{out:?}");
    assert_eq!(
        net.urls(),
        [
            "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
            "http://localhost:4000/.well-known/oauth-authorization-server",
            "http://localhost:4000/register",
            "http://localhost:4000/token",
        ]
    );
    let reg = core::str::from_utf8(&net.sent[2].body).unwrap();
    assert!(
        reg.contains(r#""redirect_uris":["http://localhost:5000/callback"]"#),
        "{reg}"
    );
    assert!(reg.contains(r#""application_type":"native""#) && reg.contains("refresh_token"));
    let auth = &net.authorize_urls[0];
    assert!(auth.starts_with("http://localhost:4000/authorize?response_type=code&"));
    assert_eq!(query(auth, "client_id").as_deref(), Some("dyn-client"));
    assert_eq!(
        query(auth, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert_eq!(query(auth, "resource").as_deref(), Some(MCP));
    assert_eq!(query(auth, "scope"), None, "no scope anywhere: omitted");
    let token = net.last_to("/token");
    let verifier = body_param(token, "code_verifier").unwrap();
    assert_eq!(verifier.len(), 43);
    let mut challenge = [0u8; 43];
    let n = crate::base64::encode(
        crate::base64::Alphabet::UrlSafeNoPad,
        &Sha256::digest(verifier.as_bytes()),
        &mut challenge,
    )
    .unwrap();
    assert_eq!(
        query(auth, "code_challenge").as_deref().map(str::as_bytes),
        Some(&challenge[..n])
    );
    assert_eq!(body_param(token, "resource").as_deref(), Some(MCP));
    assert_eq!(
        body_param(token, "client_id").as_deref(),
        Some("dyn-client")
    );
    assert_eq!(
        body_param(token, "grant_type").as_deref(),
        Some("authorization_code")
    );
    let stored = out.iter().find_map(|x| match x {
        Action::StoreTokens(t) => Some(t.clone()),
        _ => None,
    });
    let stored = stored.unwrap();
    assert_eq!(
        (stored.expires_at_ms, stored.issuer.as_str()),
        (Some(3_600_010), AS)
    );
    assert_eq!(
        a.authorization_header(MCP, 20).as_deref(),
        Some("Bearer at-1")
    );
    assert!(!a.is_busy());
}

#[test]
fn discovery_order_and_metadata_locations() {
    // resource_metadata from the challenge is fetched first; a path issuer tries RFC 8414
    // insertion, OIDC insertion, then OIDC appending.
    let (mut net, mut a) = (Net::new(), authorizer());
    let issuer = "http://localhost:4000/tenant1";
    net.route(
        "http://localhost:3000/custom.json",
        200,
        &prm(MCP, &[issuer], None),
    );
    net.route(
        "http://localhost:4000/tenant1/.well-known/openid-configuration",
        200,
        &asm(issuer, ""),
    );
    net.route(&format!("{issuer}/register"), 201, r#"{"client_id":"c"}"#);
    net.route(
        &format!("{issuer}/token"),
        200,
        r#"{"access_token":"t","token_type":"bearer"}"#,
    );
    net.iss = Some(issuer.into());
    let h = r#"Bearer resource_metadata="http://localhost:3000/custom.json""#;
    a.handle_challenge(401, Some(h), &E, 0);
    let out = net.run(&mut a, 0);
    assert_eq!(retried(&out), Some("Bearer t"), "{out:?}");
    assert_eq!(
        &net.urls()[..4],
        [
            "http://localhost:3000/custom.json",
            "http://localhost:4000/.well-known/oauth-authorization-server/tenant1",
            "http://localhost:4000/.well-known/openid-configuration/tenant1",
            "http://localhost:4000/tenant1/.well-known/openid-configuration",
        ]
    );
    // Without resource_metadata: path-based, then root; the root one may name the origin.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
        404,
        "",
    );
    net.route(
        "http://localhost:3000/.well-known/oauth-protected-resource",
        200,
        &prm("http://localhost:3000", &[AS], None),
    );
    a.handle_challenge(401, None, &E, 0);
    let out = net.run(&mut a, 0);
    assert!(retried(&out).is_some(), "{out:?}");
    assert_eq!(
        &net.urls()[..2],
        [
            "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
            "http://localhost:3000/.well-known/oauth-protected-resource",
        ]
    );
    assert_eq!(
        query(&net.authorize_urls[0], "resource").as_deref(),
        Some("http://localhost:3000"),
        "the resource exactly as published"
    );
}

#[test]
fn resource_and_issuer_mismatches_stop_the_flow() {
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
        200,
        &prm("https://evil.example.com/mcp", &[AS], None),
    );
    a.handle_challenge(401, None, &E, 0);
    let out = net.run(&mut a, 0);
    assert!(
        matches!(failed(&out), Some(AuthError::ResourceMismatch(_))),
        "{out:?}"
    );
    assert_eq!(net.sent.len(), 1, "nothing after the metadata");

    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm("https://attacker.example.com", ""),
    );
    a.handle_challenge(401, None, &E, 0);
    let out = net.run(&mut a, 0);
    assert!(
        matches!(failed(&out), Some(AuthError::IssuerMismatch(_))),
        "{out:?}"
    );
    assert!(net.authorize_urls.is_empty() && net.sent.len() == 2);
}

#[test]
fn iss_validation_follows_the_table() {
    // (advertised, iss sent, proceeds)
    let cases = [
        (true, Some(AS.to_string()), Ok(())),
        (true, None, Err(AuthError::IssMissing)),
        (
            false,
            Some("https://evil.example.com".into()),
            Err(AuthError::IssMismatch),
        ),
        (false, None, Ok(())),
        (true, Some(format!("{AS}/")), Err(AuthError::IssMismatch)),
        (
            true,
            Some("HTTP://LOCALHOST:4000".into()),
            Err(AuthError::IssMismatch),
        ),
    ];
    for (advertised, iss, want) in cases {
        let (mut net, mut a) = (Net::new(), authorizer());
        let extra = if advertised {
            ",\"authorization_response_iss_parameter_supported\":true"
        } else {
            ""
        };
        net.route(
            &format!("{AS}/.well-known/oauth-authorization-server"),
            200,
            &asm(AS, extra),
        );
        net.iss = iss.clone();
        a.handle_challenge(401, None, &E, 0);
        let out = net.run(&mut a, 0);
        let token_sent = net.urls().iter().any(|u| u.ends_with("/token"));
        match want {
            Ok(()) => assert!(retried(&out).is_some() && token_sent, "{iss:?}: {out:?}"),
            Err(e) => {
                assert_eq!(failed(&out), Some(&e), "{iss:?}");
                assert!(!token_sent, "the code never reaches the token endpoint");
            }
        }
    }
    // A wrong state is refused too.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.state_override = Some("forged".into());
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(failed(&net.run(&mut a, 0)), Some(&AuthError::StateMismatch));
}

#[test]
fn scope_selection_and_offline_access() {
    // The challenge's scope wins over scopes_supported.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
        200,
        &prm(MCP, &[AS], Some(&["a", "b"])),
    );
    a.handle_challenge(401, Some(r#"Bearer scope="mcp:basic""#), &E, 0);
    net.run(&mut a, 0);
    assert_eq!(
        query(&net.authorize_urls[0], "scope").as_deref(),
        Some("mcp:basic")
    );
    // Else every scopes_supported; offline_access added only when the AS lists it.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
        200,
        &prm(MCP, &[AS], Some(&["a", "b"])),
    );
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, r#","scopes_supported":["a","b","offline_access"]"#),
    );
    a.handle_challenge(401, None, &E, 0);
    net.run(&mut a, 0);
    assert_eq!(
        query(&net.authorize_urls[0], "scope").as_deref(),
        Some("a b offline_access")
    );
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, r#","scopes_supported":["a","b"]"#),
    );
    a.handle_challenge(401, Some(r#"Bearer scope="a""#), &E, 0);
    net.run(&mut a, 0);
    assert_eq!(query(&net.authorize_urls[0], "scope").as_deref(), Some("a"));
}

#[test]
fn step_up_unions_scopes_and_retries_are_limited() {
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, Some(r#"Bearer scope="mcp:basic""#), &E, 0);
    assert!(retried(&net.run(&mut a, 0)).is_some());
    a.handle_success();
    let h = r#"Bearer error="insufficient_scope", scope="mcp:write""#;
    a.handle_challenge(403, Some(h), &E, 0);
    assert!(retried(&net.run(&mut a, 0)).is_some());
    assert_eq!(
        query(&net.authorize_urls[1], "scope").as_deref(),
        Some("mcp:basic mcp:write")
    );
    // 403 without insufficient_scope is not a challenge.
    a.handle_challenge(403, Some(r#"Bearer error="invalid_request""#), &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::NotAChallenge(403))
    );
    // Without a request going through, the third authorization is the last.
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, Some(r#"Bearer scope="x""#), &E, 0);
    net.run(&mut a, 0);
    for _ in 0..5 {
        a.handle_challenge(403, Some(h), &E, 0);
        net.run(&mut a, 0);
    }
    assert_eq!(net.authorize_urls.len(), 3);
    a.handle_challenge(403, Some(h), &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::TooManyAttempts)
    );
}

#[test]
fn client_identity_order_and_token_endpoint_authentication() {
    // Pre-registered credentials for this issuer come first: Basic when supported.
    let mut config = AuthConfig::new(MCP, CB, "c");
    config.pre_registered.push(PreRegistered {
        issuer: AS.into(),
        client_id: "pre id".into(),
        client_secret: Some("s:é".into()),
    });
    config.client_id_metadata_document = Some("https://app.example/client.json".into());
    let mut a = Authorizer::new(config).unwrap();
    let mut net = Net::new();
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, r#","token_endpoint_auth_methods_supported":["client_secret_basic"],"client_id_metadata_document_supported":true"#)
            .replace(r#","token_endpoint_auth_methods_supported":["none"]"#, ""),
    );
    a.handle_challenge(401, None, &E, 0);
    assert!(retried(&net.run(&mut a, 0)).is_some());
    let t = net.last_to("/token");
    let basic = t
        .headers
        .iter()
        .find(|(k, _)| *k == "Authorization")
        .unwrap();
    // base64("pre+id:s%3A%C3%A9")
    assert_eq!(basic.1, "Basic cHJlK2lkOnMlM0ElQzMlQTk=");
    assert!(!net.urls().iter().any(|u| u.ends_with("/register")));
    // A metadata document where supported, before registration.
    let mut config = AuthConfig::new(MCP, CB, "c");
    config.client_id_metadata_document = Some("https://app.example/client.json".into());
    let mut a = Authorizer::new(config).unwrap();
    let mut net = Net::new();
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, r#","client_id_metadata_document_supported":true"#),
    );
    a.handle_challenge(401, None, &E, 0);
    assert!(retried(&net.run(&mut a, 0)).is_some());
    assert_eq!(
        query(&net.authorize_urls[0], "client_id").as_deref(),
        Some("https://app.example/client.json")
    );
    assert!(!net.urls().iter().any(|u| u.ends_with("/register")));
    // Registration's token_endpoint_auth_method decides: post puts the secret in the body.
    let (mut net, mut a) = post_registration("id");
    a.handle_challenge(401, None, &E, 0);
    assert!(retried(&net.run(&mut a, 0)).is_some());
    let t = net.last_to("/token");
    assert_eq!(body_param(t, "client_secret").as_deref(), Some("sec"));
    assert!(t.headers.iter().all(|(k, _)| *k != "Authorization"));
    // No identity at all.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, "").replace(&format!(r#""registration_endpoint":"{AS}/register","#), ""),
    );
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::NoClientIdentity)
    );
}

#[test]
fn migration_to_another_server_registers_again() {
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(retried(&net.run(&mut a, 0)), Some("Bearer at-1"));
    a.handle_success();
    let as2 = "http://localhost:4100";
    net.route(
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
        200,
        &prm(MCP, &[as2], None),
    );
    net.route(
        &format!("{as2}/.well-known/oauth-authorization-server"),
        200,
        &asm(as2, ""),
    );
    net.route(
        &format!("{as2}/register"),
        201,
        r#"{"client_id":"as2-client"}"#,
    );
    net.route(
        &format!("{as2}/token"),
        200,
        r#"{"access_token":"at-2","token_type":"Bearer"}"#,
    );
    net.iss = Some(as2.into());
    let before = net.sent.len();
    a.handle_challenge(401, Some(r#"Bearer error="invalid_token""#), &E, 0);
    let out = net.run(&mut a, 0);
    assert_eq!(retried(&out), Some("Bearer at-2"), "{out:?}");
    let urls: Vec<&str> = net.sent[before..].iter().map(|f| f.url.as_str()).collect();
    assert!(urls.contains(&"http://localhost:4100/register"), "{urls:?}");
    assert!(
        !urls.iter().any(|u| u.starts_with(AS)),
        "nothing more to the old server"
    );
    assert_eq!(
        query(&net.authorize_urls[1], "client_id").as_deref(),
        Some("as2-client")
    );
    assert_eq!(a.tokens().unwrap().issuer, as2);
}
