//! Refresh, endpoint security and redirect checks (docs/rules.md §21.1, §21.6, §21.7).

use super::*;

#[test]
fn refresh_before_expiry_and_on_401_and_only_to_the_server() {
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, None, &E, 0);
    net.run(&mut a, 0);
    assert_eq!(
        a.authorization_header("http://localhost:3000/other", 1)
            .as_deref(),
        Some("Bearer at-1")
    );
    assert_eq!(
        a.authorization_header("http://localhost:3001/mcp", 1),
        None,
        "another origin"
    );
    assert_eq!(a.authorization_header("https://evil.example/mcp", 1), None);
    // Stored tokens come back only for a resource that covers this server.
    let mut other = authorizer();
    let mut t = a.tokens().unwrap().clone();
    t.resource = "http://localhost:3001/mcp".into();
    assert!(!other.restore(t.clone()));
    assert_eq!(other.authorization_header(MCP, 1), None);
    t.resource = MCP.into();
    assert!(other.restore(t));
    assert_eq!(
        other.authorization_header(MCP, 1).as_deref(),
        Some("Bearer at-1")
    );
    assert!(!a.refresh_due(1000));
    assert!(a.refresh_due(3_600_000 - 59_000));
    net.route(
        &format!("{AS}/token"),
        200,
        r#"{"access_token":"at-2","token_type":"Bearer","expires_in":60}"#,
    );
    a.start_refresh(3_550_000);
    let out = net.run(&mut a, 3_550_000);
    assert!(
        matches!(out.as_slice(), [Action::StoreTokens(t)] if t.refresh_token.as_deref() == Some("rt-1"))
    );
    let t = net.last_to("/token");
    assert_eq!(
        body_param(t, "grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(body_param(t, "refresh_token").as_deref(), Some("rt-1"));
    assert_eq!(body_param(t, "resource").as_deref(), Some(MCP));
    assert_eq!(
        a.authorization_header(MCP, 3_600_000).as_deref(),
        Some("Bearer at-2")
    );
    assert_eq!(a.authorization_header(MCP, 3_610_000), None, "expired");
    // A 401 with a refresh token: refresh, no new authorization.
    net.route(
        &format!("{AS}/token"),
        200,
        r#"{"access_token":"at-3","token_type":"Bearer"}"#,
    );
    a.handle_challenge(401, None, &E, 3_560_000);
    let out = net.run(&mut a, 3_560_000);
    assert_eq!(retried(&out), Some("Bearer at-3"));
    assert_eq!(net.authorize_urls.len(), 1);
    // A refused refresh falls back to authorizing again.
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, None, &E, 0);
    net.run(&mut a, 0);
    net.route(&format!("{AS}/token"), 400, r#"{"error":"invalid_grant"}"#);
    a.handle_challenge(401, None, &E, 10);
    let out = net.run(&mut a, 10);
    assert_eq!(
        failed(&out),
        Some(&AuthError::TokenRequestFailed(
            400,
            Some("invalid_grant".into())
        ))
    );
    assert_eq!(
        net.authorize_urls.len(),
        2,
        "authorized again after the refused refresh"
    );
}

#[test]
fn a_restored_registration_refreshes_without_registering_again() {
    // A first run registers, with client_secret_post, and keeps tokens and registration.
    let (mut net, mut a) = post_registration("dyn");
    a.handle_challenge(401, None, &E, 0);
    net.run(&mut a, 0);
    let kept = a.registration().unwrap();
    assert_eq!(
        kept,
        ClientRegistration {
            issuer: AS.into(),
            client_id: "dyn".into(),
            client_secret: Some("sec".into()),
            token_endpoint_auth_method: "client_secret_post".into(),
        }
    );
    let tokens = a.tokens().unwrap().clone();
    // A later run, after the access token expired: a 401 refreshes with the kept client.
    let mut b = authorizer();
    assert!(b.restore(tokens.clone()));
    b.restore_registration(kept.clone());
    let mut net = Net::new();
    net.route(
        &format!("{AS}/token"),
        200,
        r#"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"}"#,
    );
    b.handle_challenge(401, None, &E, 4_000_000);
    let out = net.run(&mut b, 4_000_000);
    assert_eq!(retried(&out), Some("Bearer at-2"));
    assert!(!net.urls().iter().any(|u| u.ends_with("/register")));
    assert!(net.authorize_urls.is_empty());
    let t = net.last_to("/token");
    assert_eq!(
        body_param(t, "grant_type").as_deref(),
        Some("refresh_token")
    );
    assert_eq!(body_param(t, "client_id").as_deref(), Some("dyn"));
    assert_eq!(body_param(t, "client_secret").as_deref(), Some("sec"));
    assert_eq!(b.registration(), Some(kept.clone()));
    // Without the registration the same run registers again and asks the user.
    let mut c = authorizer();
    assert!(c.restore(tokens.clone()));
    let mut net = Net::new();
    c.handle_challenge(401, None, &E, 4_000_000);
    net.run(&mut c, 4_000_000);
    assert!(net.urls().iter().any(|u| u.ends_with("/register")));
    assert_eq!(net.authorize_urls.len(), 1);
    // A refused refresh authorizes again with the kept client, still without registering.
    let mut d = authorizer();
    assert!(d.restore(tokens));
    d.restore_registration(kept);
    let mut net = Net::new();
    net.route(&format!("{AS}/token"), 400, r#"{"error":"invalid_grant"}"#);
    d.handle_challenge(401, None, &E, 4_000_000);
    net.run(&mut d, 4_000_000);
    assert!(!net.urls().iter().any(|u| u.ends_with("/register")));
    assert_eq!(
        query(&net.authorize_urls[0], "client_id").as_deref(),
        Some("dyn")
    );
    // A registration for another authorization server is not used.
    let mut e = authorizer();
    e.restore_registration(ClientRegistration {
        issuer: "http://localhost:4001".into(),
        client_id: "other".into(),
        client_secret: None,
        token_endpoint_auth_method: "none".into(),
    });
    let mut net = Net::new();
    e.handle_challenge(401, None, &E, 0);
    net.run(&mut e, 0);
    assert!(net.urls().iter().any(|u| u.ends_with("/register")));
}

#[test]
fn insecure_or_unusable_servers_are_refused() {
    // Endpoints over plain http on a non-loopback host.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, "").replace("http://localhost:4000/token", "http://as.example/token"),
    );
    a.handle_challenge(401, None, &E, 0);
    assert!(matches!(
        failed(&net.run(&mut a, 0)),
        Some(AuthError::BadUrl(_))
    ));
    // No S256.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        &asm(AS, "").replace(r#""code_challenge_methods_supported":["S256"],"#, ""),
    );
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::PkceUnsupported)
    );
    // No metadata anywhere; a bad header; a non-challenge status; a stray redirect.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.routes.clear();
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::NoResourceMetadata)
    );
    a.handle_challenge(401, Some("Bearer scope=\"x"), &E, 0);
    assert!(matches!(
        failed(&net.run(&mut a, 0)),
        Some(AuthError::BadChallenge(_))
    ));
    a.handle_challenge(500, None, &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::NotAChallenge(500))
    );
    a.handle_redirect(CB, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::UnexpectedRedirect)
    );
    // A token response that is not Bearer.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/token"),
        200,
        r#"{"access_token":"x","token_type":"DPoP"}"#,
    );
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::BadTokenResponse)
    );
    // Nor one whose token could not travel in a header.
    let (mut net, mut a) = (Net::new(), authorizer());
    net.route(
        &format!("{AS}/token"),
        200,
        r#"{"access_token":"a\r\nX: y","token_type":"Bearer"}"#,
    );
    a.handle_challenge(401, None, &E, 0);
    assert_eq!(
        failed(&net.run(&mut a, 0)),
        Some(&AuthError::BadTokenResponse)
    );
    assert_eq!(a.authorization_header(MCP, 0), None);
}

#[test]
fn redirects_are_checked_against_the_redirect_uri() {
    // A redirect while the flow waits for a fetch is refused and the flow goes on.
    let (mut net, mut a) = (Net::new(), authorizer());
    a.handle_challenge(401, None, &E, 0);
    let Some(Action::Fetch(f)) = a.poll_action() else {
        panic!("a metadata fetch first")
    };
    a.handle_redirect(&format!("{CB}?code=x&state=y"), 0);
    assert_eq!(
        a.poll_action(),
        Some(Action::Failed(AuthError::UnexpectedRedirect))
    );
    let body = prm(MCP, &[AS], None);
    a.handle_fetched(f.id, 200, body.as_bytes(), 0);
    assert!(retried(&net.run(&mut a, 0)).is_some(), "the flow went on");
    // A native app's own scheme is a redirect URI; another path is not the redirect.
    let waiting = || {
        let config = AuthConfig::new(MCP, "com.example.app:/oauth/cb", "c");
        let mut a = Authorizer::new(config).unwrap();
        a.handle_challenge(401, None, &E, 0);
        while let Some(action) = a.poll_action() {
            match action {
                Action::Fetch(f) => {
                    let (s, b) = net
                        .routes
                        .iter()
                        .find(|(u, _, _)| *u == f.url)
                        .map(|(_, s, b)| (*s, b.clone()))
                        .unwrap();
                    a.handle_fetched(f.id, s, b.as_bytes(), 0);
                }
                Action::Authorize { url } => return (a, url),
                other => panic!("{other:?}"),
            }
        }
        panic!("no authorization request")
    };
    let (mut a, url) = waiting();
    assert_eq!(
        query(&url, "redirect_uri").as_deref(),
        Some("com.example.app:/oauth/cb")
    );
    let state = query(&url, "state").unwrap();
    a.handle_redirect(
        &format!("com.example.app:/other?code=c&state={state}&iss={AS}"),
        0,
    );
    assert_eq!(
        a.poll_action(),
        Some(Action::Failed(AuthError::UnexpectedRedirect))
    );
    let (mut a, _) = waiting();
    a.handle_redirect(
        &format!("COM.EXAMPLE.APP:/oauth/cb?code=c&state={state}&iss={AS}"),
        0,
    );
    assert!(matches!(a.poll_action(), Some(Action::Fetch(f)) if f.url.ends_with("/token")));
    assert!(Authorizer::new(AuthConfig::new(MCP, "http://x/cb#f", "c")).is_err());
    assert!(Authorizer::new(AuthConfig::new("mcp.example.com", CB, "c")).is_err());
}
