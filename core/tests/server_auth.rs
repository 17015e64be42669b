//! Authorization, server side (docs/rules.md §22): the protected resource metadata, the
//! bearer door (`Server::http_authenticate`), the core's checks on a verified caller
//! (`Server::http_admit`), and per-caller items (`Server::require_scopes`): lists, reads,
//! prompts, completions, tools, listens and prompt embeds for a caller without the scope.

mod common;
mod server_harness;

use mcp_context::auth::Challenges;
use mcp_context::auth::resource_server::{Caller, ResourceServerConfig, ScopeSet};
use mcp_context::http::{HttpResponse, HttpStart, RequestHead};
use mcp_context::messages::Role;
use mcp_context::messages::owned::{
    FromJsonText, OwnedContentBlock, OwnedGetPromptResult, OwnedPromptMessage,
    OwnedResourceContents, OwnedTool,
};
use mcp_context::server::{
    ConfigError, Ctx, Event, Gate, Output, RegisterError, Scoped, Server, ServerConfig, StreamId,
};
use serde_json::{Value, json};
use server_harness::*;

const RESOURCE: &str = "https://mcp.example.com/mcp";
const ISSUER: &str = "https://auth.example.com";
const PRM: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

fn protection() -> ResourceServerConfig {
    let mut p = ResourceServerConfig::new(RESOURCE, ISSUER);
    p.scopes_supported = strings(&["mcp", "notes:secret", "tools:admin"]);
    p.required_scopes = strings(&["mcp"]);
    p.resource_name = Some("Notes".into());
    p
}

fn config() -> ServerConfig {
    let mut c = ServerConfig::default();
    c.http.allowed_hosts.push("mcp.example.com".into());
    c.protection = Some(protection());
    c
}

/// The catalogue, protected: `test://static-text` and the notes template need
/// `notes:secret`, the `admin` tool `tools:admin`; `test://static-binary`, the
/// `review_note` prompt and `echo` need nothing beyond the token.
fn server() -> Server {
    let mut s = catalogue(config());
    s.add_tool(
        OwnedTool::from_json_text(r#"{"name":"admin","inputSchema":{"type":"object"}}"#).unwrap(),
    )
    .unwrap();
    s.add_tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#).unwrap(),
    )
    .unwrap();
    s.require_scopes(Scoped::Resource("test://static-text"), &["notes:secret"])
        .unwrap();
    s.require_scopes(Scoped::Template(NOTE_TEMPLATE), &["notes:secret"])
        .unwrap();
    s.require_scopes(Scoped::Tool("admin"), &["tools:admin"])
        .unwrap();
    s
}

fn head<'a>(method: &'a str, path: &'a str) -> RequestHead<'a> {
    RequestHead {
        method,
        path,
        host: Some("mcp.example.com"),
        ..RequestHead::default()
    }
}

fn post<'a>(mcp_method: &'a str, name: Option<&'a str>, len: usize) -> RequestHead<'a> {
    RequestHead {
        content_type: Some("application/json"),
        content_length: Some(len as u64),
        protocol_version: Some(V),
        mcp_method: Some(mcp_method),
        mcp_name: name,
        accept: Some("application/json, text/event-stream"),
        ..head("POST", "/mcp")
    }
}

fn respond(g: Gate<'_>) -> HttpResponse {
    match g {
        Gate::Respond(r) => r,
        other => panic!("expected a response, got {other:?}"),
    }
}

/// The `Bearer` challenge of a response, parsed back with the client's parser.
fn challenge(r: &HttpResponse) -> mcp_context::auth::BearerChallenge {
    let h = r.header("WWW-Authenticate").expect("WWW-Authenticate");
    Challenges::parse(h)
        .unwrap()
        .bearer()
        .expect("a Bearer challenge")
}

fn caller(scopes: &[&str]) -> Caller {
    Caller {
        subject: Some("alice".into()),
        client_id: Some("client-1".into()),
        scopes: strings(scopes),
        audience: strings(&[RESOURCE]),
        expires_at_ms: Some(10_000_000),
    }
}

/// An HTTP context admitted with `scopes`.
fn as_caller(s: &Server, stream: u64, scopes: &[&str]) -> Ctx {
    let granted = s.http_admit(&caller(scopes), 1_000).unwrap();
    Ctx::http(StreamId(stream), 7).with_scopes(granted)
}

/// One POST of `method` with `params` in context `ctx`: the start and the drained outputs.
fn call(
    s: &mut Server,
    ctx: Ctx,
    method: &str,
    name: Option<&str>,
    params: Value,
) -> (HttpStart, Vec<Output>) {
    let body = request(json!(1), method, params);
    let start = s.handle_http(&post(method, name, body.len()), &body, 1_000, ctx);
    let mut outs = Vec::new();
    s.drain(&mut outs);
    (start, outs)
}

fn body(start: &HttpStart) -> (u16, Value) {
    match start {
        HttpStart::Respond(r) => (
            r.status,
            serde_json::from_slice(&r.body).unwrap_or(Value::Null),
        ),
        other => panic!("expected a complete answer, got {other:?}"),
    }
}

#[test]
fn the_metadata_document_is_served_at_both_well_known_paths() {
    let s = server();
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp?x=1",
    ] {
        let r = respond(s.http_authenticate(&head("GET", path), None));
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("Content-Type"), Some("application/json"));
        assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"));
        let doc: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(
            doc,
            json!({"resource": RESOURCE, "authorization_servers": [ISSUER],
                   "scopes_supported": ["mcp", "notes:secret", "tools:admin"],
                   "bearer_methods_supported": ["header"], "resource_name": "Notes"})
        );
        let parsed = mcp_context::auth::ResourceMetadata::parse(&r.body).unwrap();
        assert_eq!(parsed.resource, RESOURCE);
    }
    let r =
        respond(s.http_authenticate(&head("POST", "/.well-known/oauth-protected-resource"), None));
    assert_eq!((r.status, r.header("Allow")), (405, Some("GET")));
    // Another path under .well-known is not ours; without protection nothing is served.
    assert_eq!(
        s.http_authenticate(
            &head("GET", "/.well-known/oauth-protected-resource/other"),
            None
        ),
        Gate::Proceed
    );
    let open = Server::new(ServerConfig::default()).unwrap();
    assert_eq!(
        open.http_authenticate(&head("GET", "/.well-known/oauth-protected-resource"), None),
        Gate::Proceed
    );
    assert_eq!(
        open.http_authenticate(&post("x", None, 0), None),
        Gate::Proceed
    );
}

/// The door's outcome: the token to verify, or (status, `error`); status 0 = proceed.
type Door = Result<String, (u16, Option<String>)>;

#[test]
fn the_door_takes_a_bearer_token_from_authorization_only() {
    let s = server();
    let big = format!("Bearer {}", "a".repeat(64 * 1024));
    let on = |path: &str, auth: Option<&str>| {
        let h = RequestHead {
            path,
            ..post("resources/list", None, 10)
        };
        match s.http_authenticate(&h, auth) {
            Gate::Verify(t) => Ok(String::from(t)),
            Gate::Respond(r) => Err((r.status, challenge(&r).error)),
            Gate::Proceed => Err((0, None)),
        }
    };
    let no_token = Err((401, None));
    let invalid = Err((401, Some(String::from("invalid_token"))));
    #[rustfmt::skip]
    let rows: &[(&str, &str, Option<&str>, Door)] = &[
        ("no header", "/mcp", None, no_token.clone()),
        ("token in the query string", "/mcp?access_token=abc", None, no_token.clone()),
        ("another scheme", "/mcp", Some("Basic YWxhZGRpbjpvcGVu"), no_token.clone()),
        ("scheme without space", "/mcp", Some("Bearerabc"), no_token.clone()),
        ("Bearer, empty", "/mcp", Some("Bearer "), invalid.clone()),
        ("Bearer alone", "/mcp", Some("Bearer"), invalid.clone()),
        ("two credentials", "/mcp", Some("Bearer abc def"), invalid.clone()),
        ("joined repeated headers", "/mcp", Some("Bearer abc,Bearer def"), invalid.clone()),
        ("a quote", "/mcp", Some("Bearer ab\"c"), invalid.clone()),
        ("only padding", "/mcp", Some("Bearer ==="), invalid.clone()),
        ("64 KiB", "/mcp", Some(big.as_str()), invalid.clone()),
        ("a JWT", "/mcp", Some("Bearer eyJ.eyJ.sig-_~+/=="), Ok("eyJ.eyJ.sig-_~+/==".into())),
        ("scheme case-insensitive", "/mcp", Some("bEARER  abc"), Ok("abc".into())),
        ("another path proceeds to the head checks", "/other", None, Err((0, None))),
    ];
    for (why, path, auth, want) in rows {
        assert_eq!(on(path, *auth), *want, "{why}");
    }
    // The 401 without a token names the metadata and the scopes to ask for first.
    let r = respond(s.http_authenticate(&post("resources/list", None, 10), None));
    let c = challenge(&r);
    assert_eq!(c.resource_metadata.as_deref(), Some(PRM));
    assert_eq!(c.scope.as_deref(), Some("mcp"));
    assert!(r.body.is_empty());
    assert_eq!(
        r.header("WWW-Authenticate"),
        Some(format!(r#"Bearer scope="mcp", resource_metadata="{PRM}""#).as_str())
    );
    // Token optional: no header proceeds (anonymous), a bad one is still refused.
    let mut c = config();
    c.protection.as_mut().unwrap().token_required = false;
    let open = Server::new(c).unwrap();
    assert_eq!(
        open.http_authenticate(&post("x", None, 0), None),
        Gate::Proceed
    );
    assert!(
        matches!(open.http_authenticate(&post("x", None, 0), Some("Bearer ")), Gate::Respond(r) if r.status == 401)
    );
}

#[test]
fn the_core_checks_expiry_audience_and_required_scopes() {
    let s = server();
    let err = |c: &Caller| {
        let r = s.http_admit(c, 1_000).unwrap_err();
        let b = challenge(&r);
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["error"].as_str(), b.error.as_deref());
        (
            r.status,
            b.error.unwrap(),
            b.scope,
            b.resource_metadata.unwrap(),
        )
    };
    let prm = String::from(PRM);
    let expired = Caller {
        expires_at_ms: Some(1_000),
        ..caller(&["mcp"])
    };
    assert_eq!(
        err(&expired),
        (401, "invalid_token".into(), Some("mcp".into()), prm.clone())
    );
    let other_aud = Caller {
        audience: strings(&["https://other.example.com/mcp"]),
        ..caller(&["mcp"])
    };
    assert_eq!(err(&other_aud).0, 401);
    let no_aud = Caller {
        audience: vec![],
        ..caller(&["mcp"])
    };
    assert_eq!(err(&no_aud).0, 401);
    let no_scope = caller(&["notes:secret"]);
    assert_eq!(
        err(&no_scope),
        (403, "insufficient_scope".into(), Some("mcp".into()), prm)
    );
    // The audience may carry a trailing slash; scopes the server does not know are ignored.
    let ok = Caller {
        audience: strings(&["https://mcp.example.com/mcp/"]),
        ..caller(&["mcp", "unknown", "tools:admin"])
    };
    assert_eq!(s.http_admit(&ok, 1_000), Ok(ScopeSet(0b101)));
    let never_expires = Caller {
        expires_at_ms: None,
        ..caller(&["mcp"])
    };
    assert_eq!(s.http_admit(&never_expires, u64::MAX), Ok(ScopeSet(0b1)));
    // The verifier's rejection.
    let r = s.http_reject("signature invalid");
    let b = challenge(&r);
    assert_eq!(
        (r.status, b.error.as_deref(), b.error_description.as_deref()),
        (401, Some("invalid_token"), Some("signature invalid"))
    );
}

#[test]
fn a_host_that_skips_the_door_gets_401() {
    let mut s = server();
    let (start, outs) = call(
        &mut s,
        Ctx::http(StreamId(1), 0),
        "resources/list",
        None,
        json!({}),
    );
    let HttpStart::Respond(r) = start else {
        panic!()
    };
    assert_eq!(r.status, 401);
    assert_eq!(challenge(&r).resource_metadata.as_deref(), Some(PRM));
    assert!(outs.is_empty());
    // Stdio stays credential-free: everything is served.
    let mut h = H::new("auth-stdio", server());
    let v = h.ask("resources/read", json!({"uri": "test://static-text"}));
    assert!(v.get("result").is_some(), "{v}");
}

#[test]
fn lists_are_filtered_per_caller() {
    let mut s = server();
    let low = as_caller(&s, 1, &["mcp"]);
    let high = as_caller(&s, 2, &["mcp", "notes:secret", "tools:admin"]);
    let names = |s: &mut Server, ctx, method: &str, key: &str, field: &str| {
        let (start, _) = call(s, ctx, method, None, json!({}));
        let (status, v) = body(&start);
        assert_eq!(status, 200, "{v}");
        let r = &v["result"];
        assert_eq!(
            r["cacheScope"], "private",
            "{method}: results depend on the caller"
        );
        r[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i[field].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&mut s, low, "resources/list", "resources", "uri"),
        ["notes://acme/index", "test://static-binary"]
    );
    assert_eq!(
        names(&mut s, high, "resources/list", "resources", "uri"),
        [
            "notes://acme/index",
            "test://static-binary",
            "test://static-text"
        ]
    );
    assert!(
        names(
            &mut s,
            low,
            "resources/templates/list",
            "resourceTemplates",
            "uriTemplate"
        )
        .is_empty()
    );
    assert_eq!(
        names(
            &mut s,
            high,
            "resources/templates/list",
            "resourceTemplates",
            "uriTemplate"
        ),
        [NOTE_TEMPLATE]
    );
    assert_eq!(names(&mut s, low, "tools/list", "tools", "name"), ["echo"]);
    assert_eq!(
        names(&mut s, high, "tools/list", "tools", "name"),
        ["admin", "echo"]
    );
    assert_eq!(
        names(&mut s, low, "prompts/list", "prompts", "name"),
        ["review_note"]
    );
}

/// The step-up answer: 403, `insufficient_scope` naming the scope, -32600 in the body.
fn assert_step_up(start: &HttpStart, scope: &str) {
    let HttpStart::Respond(r) = start else {
        panic!("{start:?}")
    };
    assert_eq!(r.status, 403);
    let c = challenge(r);
    assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
    assert_eq!(c.scope.as_deref(), Some(scope));
    assert_eq!(c.resource_metadata.as_deref(), Some(PRM));
    let (_, v) = body(start);
    assert_eq!(error_code(&v), -32600, "{v}");
    assert!(v.get("id").is_some(), "{v}");
}

#[test]
fn a_caller_without_the_scope_gets_the_step_up_answer() {
    let mut s = server();
    let low = as_caller(&s, 1, &["mcp"]);
    let high = as_caller(&s, 2, &["mcp", "notes:secret", "tools:admin"]);
    let read = |uri: &str| json!({"uri": uri});
    let (start, _) = call(
        &mut s,
        low,
        "resources/read",
        Some("test://static-text"),
        read("test://static-text"),
    );
    assert_step_up(&start, "notes:secret");
    let (start, _) = call(
        &mut s,
        high,
        "resources/read",
        Some("test://static-text"),
        read("test://static-text"),
    );
    assert_eq!(body(&start).0, 200);
    // A template's scope covers the URIs it matches; nothing reaches the application.
    let (start, outs) = call(
        &mut s,
        low,
        "resources/read",
        Some("notes://acme/1"),
        read("notes://acme/1"),
    );
    assert_step_up(&start, "notes:secret");
    assert!(outs.is_empty(), "{outs:?}");
    let (start, outs) = call(
        &mut s,
        high,
        "resources/read",
        Some("notes://acme/1"),
        read("notes://acme/1"),
    );
    assert!(matches!(start, HttpStart::Stream(_)));
    assert!(matches!(events(&outs)[..], [Event::ReadResource(_)]));
    // Completion of the template's variables.
    let complete = json!({"ref": {"type": "ref/resource", "uri": NOTE_TEMPLATE},
                          "argument": {"name": "project", "value": "a"}});
    let (start, _) = call(&mut s, low, "completion/complete", None, complete.clone());
    assert_step_up(&start, "notes:secret");
    let (start, _) = call(&mut s, high, "completion/complete", None, complete);
    assert_eq!(
        body(&start).1["result"]["completion"]["values"],
        json!(["acme", "apollo"])
    );
    // Tools.
    let (start, outs) = call(
        &mut s,
        low,
        "tools/call",
        Some("admin"),
        json!({"name": "admin", "arguments": {}}),
    );
    assert_step_up(&start, "tools:admin");
    assert!(outs.is_empty());
    let (start, outs) = call(
        &mut s,
        high,
        "tools/call",
        Some("admin"),
        json!({"name": "admin", "arguments": {}}),
    );
    assert!(matches!(start, HttpStart::Stream(_)));
    assert!(matches!(events(&outs)[..], [Event::CallTool(_)]));
    // An item hidden by the predicate filter stays "not found", scopes or not.
    s.set_visibility(Box::new(|auth, item| {
        !(auth == 7 && matches!(item, mcp_context::server::Listed::Resource(r) if r.uri == "test://static-binary"))
    }));
    let (start, _) = call(
        &mut s,
        high,
        "resources/read",
        Some("test://static-binary"),
        read("test://static-binary"),
    );
    let (status, v) = body(&start);
    assert_eq!((status, error_code(&v)), (200, -32602), "{v}");
}

#[test]
fn a_prompt_cannot_embed_what_the_caller_may_not_read() {
    let mut s = server();
    let low = as_caller(&s, 1, &["mcp"]);
    let high = as_caller(&s, 2, &["mcp", "notes:secret"]);
    let embed = |uri: &str| OwnedGetPromptResult {
        description: None,
        messages: vec![OwnedPromptMessage {
            role: Role::User,
            content: OwnedContentBlock::Resource {
                resource: OwnedResourceContents::text(uri, None, "secret"),
                annotations: None,
            },
        }],
        server_info: None,
    };
    let get = json!({"name": "review_note", "arguments": {"project": "acme", "id": "1"}});
    for (ctx, uri, want_error) in [
        (low, "test://static-text", true),
        (low, "notes://acme/2", true),
        (low, "test://static-binary", false),
        (high, "test://static-text", false),
    ] {
        let (start, outs) = call(&mut s, ctx, "prompts/get", Some("review_note"), get.clone());
        assert!(matches!(start, HttpStart::Stream(_)));
        let [Event::GetPrompt(ev)] = &events(&outs)[..] else {
            panic!("{outs:?}")
        };
        s.respond_prompt(ev.handle, embed(uri)).unwrap();
        let mut outs = Vec::new();
        s.drain(&mut outs);
        let t = &transmits(&outs)[0];
        let v = json_of(t);
        assert_eq!(v.get("error").is_some(), want_error, "{uri}: {v}");
        if want_error {
            assert_eq!(t.http_status, 403);
            assert!(!t.bytes.windows(6).any(|w| w == b"secret"), "{v}");
        }
    }
}

#[test]
fn listens_deliver_updates_only_for_what_the_caller_may_read() {
    let mut s = server();
    let low = as_caller(&s, 1, &["mcp"]);
    let high = as_caller(&s, 2, &["mcp", "notes:secret"]);
    let listen = json!({"notifications": {"resourceSubscriptions": ["test://static-text", "notes://acme/1", "test://static-binary"]}});
    let (_, outs) = call(&mut s, low, "subscriptions/listen", None, listen.clone());
    let ack = json_of(&transmits(&outs)[0]);
    assert_eq!(
        ack["params"]["notifications"]["resourceSubscriptions"],
        json!(["test://static-binary"]),
        "{ack}"
    );
    let (_, outs) = call(&mut s, high, "subscriptions/listen", None, listen);
    assert_eq!(transmits(&outs).len(), 1);
    for uri in [
        "test://static-text",
        "notes://acme/1",
        "test://static-binary",
    ] {
        s.resource_updated(uri);
    }
    let mut outs = Vec::new();
    s.drain(&mut outs);
    let mut got: Vec<(u64, String)> = transmits(&outs)
        .iter()
        .map(|t| {
            (
                t.stream.0,
                json_of(t)["params"]["uri"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (1, "test://static-binary".to_owned()),
            (2, "notes://acme/1".to_owned()),
            (2, "test://static-binary".to_owned()),
            (2, "test://static-text".to_owned()),
        ]
    );
}

#[test]
fn scopes_and_protection_are_checked_when_configured() {
    let mut s = server();
    assert_eq!(
        s.require_scopes(Scoped::Prompt("review_note"), &["nope"]),
        Err(RegisterError::UnknownScope)
    );
    let mut open = Server::new(ServerConfig::default()).unwrap();
    assert_eq!(
        open.require_scopes(Scoped::Tool("x"), &["mcp"]),
        Err(RegisterError::UnknownScope)
    );
    assert_eq!(open.require_scopes(Scoped::Tool("x"), &[]), Ok(()));
    let bad = |f: fn(&mut ResourceServerConfig)| {
        let mut p = protection();
        f(&mut p);
        let c = ServerConfig {
            protection: Some(p),
            ..ServerConfig::default()
        };
        Server::new(c).map(|_| ()).unwrap_err()
    };
    assert_eq!(
        bad(|p| p.resource = "not a url".into()),
        ConfigError::InvalidProtection
    );
    assert_eq!(
        bad(|p| p.resource = "https://h/mcp#x".into()),
        ConfigError::InvalidProtection
    );
    assert_eq!(
        bad(|p| p.authorization_servers.clear()),
        ConfigError::InvalidProtection
    );
    assert_eq!(
        bad(|p| p.required_scopes.push("other".into())),
        ConfigError::InvalidProtection
    );
    assert_eq!(
        bad(|p| p.scopes_supported.push("a b".into())),
        ConfigError::InvalidProtection
    );
    assert_eq!(
        bad(|p| p.scopes_supported = (0..65).map(|i| format!("s{i}")).collect()),
        ConfigError::InvalidProtection
    );
    // Set after construction: checked the same way; scope requirements start over.
    let mut late = Server::new(ServerConfig::default()).unwrap();
    let mut p = protection();
    p.resource = "nope".into();
    assert_eq!(
        late.set_protection(Some(p)),
        Err(ConfigError::InvalidProtection)
    );
    assert!(late.config().protection.is_none());
    late.set_protection(Some(protection())).unwrap();
    late.require_scopes(Scoped::Tool("x"), &["mcp"]).unwrap();
    assert!(
        matches!(late.http_authenticate(&post("x", None, 0), None), Gate::Respond(r) if r.status == 401)
    );
    // A resource at the origin's root: only the root well-known path.
    let p = ResourceServerConfig::new("https://mcp.example.com", ISSUER);
    assert_eq!(p.metadata_path(), None);
    assert_eq!(
        p.metadata_url(),
        "https://mcp.example.com/.well-known/oauth-protected-resource"
    );
    // Requiring no scope clears a requirement.
    s.require_scopes(Scoped::Tool("admin"), &[]).unwrap();
    let low = as_caller(&s, 1, &["mcp"]);
    let (start, _) = call(&mut s, low, "tools/list", None, json!({}));
    assert_eq!(
        body(&start).1["result"]["tools"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn a_legacy_session_subscribes_only_to_what_the_caller_may_read() {
    let mut s = server();
    let low = as_caller(&s, 1, &["mcp"]);
    let high = as_caller(&s, 2, &["mcp", "notes:secret"]);
    let legacy = |id: u64, method: &str, params: Value| {
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .unwrap()
    };
    let open = |s: &mut Server, ctx: Ctx| -> String {
        let body = legacy(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "old", "version": "1"}}),
        );
        let h = RequestHead {
            protocol_version: None,
            mcp_method: None,
            ..post("initialize", None, body.len())
        };
        let HttpStart::Respond(r) = s.handle_http(&h, &body, 1_000, ctx) else {
            panic!()
        };
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        r.header("Mcp-Session-Id").unwrap().to_owned()
    };
    let subscribe = |s: &mut Server, ctx: Ctx, session: &str, uri: &str| -> HttpResponse {
        let body = legacy(2, "resources/subscribe", json!({"uri": uri}));
        let h = RequestHead {
            protocol_version: Some("2025-11-25"),
            mcp_method: None,
            session_id: Some(session),
            ..post("resources/subscribe", None, body.len())
        };
        match s.handle_http(&h, &body, 1_000, ctx) {
            HttpStart::Respond(r) => r,
            other => panic!("{other:?}"),
        }
    };
    let sl = open(&mut s, low);
    let r = subscribe(&mut s, low, &sl, "test://static-text");
    assert_eq!(r.status, 403, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(challenge(&r).scope.as_deref(), Some("notes:secret"));
    let r = subscribe(&mut s, low, &sl, "notes://acme/1");
    assert_eq!(r.status, 403);
    let r = subscribe(&mut s, low, &sl, "test://static-binary");
    assert_eq!(r.status, 200);
    let sh = open(&mut s, high);
    let r = subscribe(&mut s, high, &sh, "test://static-text");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}
