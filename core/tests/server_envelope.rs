//! Server machine: `server/discover`, the per-request validation order and the envelope
//! rules (docs/rules.md §1, §2; checklist §16.1, §16.2).

mod common;
mod server_harness;

use mcp_context::messages::owned::OwnedImplementation;
use mcp_context::server::{BodyKind, Ctx, Received, Server, ServerConfig, StreamId};
use serde_json::{Value, json};
use server_harness::*;

fn cat() -> H {
    H::new("envelope", catalogue(ServerConfig::default()))
}

#[test]
fn rule_15_discover_returns_versions_capabilities_and_hints() {
    let mut h = cat();
    let r = h.ask("server/discover", json!({}));
    let r = &r["result"];
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(r["ttlMs"], 300_000);
    assert_eq!(r["cacheScope"], "public");
    assert_eq!(
        r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-context"
    );
    assert!(
        r.get("serverInfo").is_none(),
        "no top-level serverInfo (docs/rules.md §19.18)"
    );
}

#[test]
fn rule_16_declares_capabilities_from_registrations() {
    let mut h = cat();
    let caps = h.ask("server/discover", json!({}))["result"]["capabilities"].clone();
    assert_eq!(
        caps,
        json!({"resources": {"subscribe": true, "listChanged": true},
               "prompts": {"listChanged": true}, "completions": {}})
    );
    let mut empty = H::with("envelope-empty", ServerConfig::default());
    let caps = empty.ask("server/discover", json!({}))["result"]["capabilities"].clone();
    assert_eq!(caps, json!({}));
    let config = ServerConfig {
        instructions: Some("Notes as resources.".into()),
        declare_prompts: true,
        ..ServerConfig::default()
    };
    let mut declared = H::with("envelope-declared", config);
    let r = declared.ask("server/discover", json!({}));
    assert_eq!(
        r["result"]["capabilities"],
        json!({"prompts": {"listChanged": true}})
    );
    assert_eq!(r["result"]["instructions"], "Notes as resources.");
}

#[test]
fn discover_reflects_registry_changes() {
    let mut h = H::with("envelope-changes", ServerConfig::default());
    assert_eq!(
        h.ask("server/discover", json!({}))["result"]["capabilities"],
        json!({})
    );
    h.server
        .add_prompt(mcp_context::server::PromptEntry {
            prompt: mcp_context::messages::owned::OwnedPrompt {
                name: "p".into(),
                ..Default::default()
            },
            completions: vec![],
        })
        .unwrap();
    let caps = h.ask("server/discover", json!({}))["result"]["capabilities"].clone();
    assert_eq!(caps, json!({"prompts": {"listChanged": true}}));
}

#[test]
fn rule_7_server_info_on_every_result_unless_configured_off() {
    let mut h = cat();
    for (method, params) in [
        ("server/discover", json!({})),
        ("resources/list", json!({})),
        ("resources/read", json!({"uri": "test://static-text"})),
        ("prompts/list", json!({})),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review_note"},
            "argument": {"name": "tone", "value": "b"}}),
        ),
    ] {
        let r = h.ask(method, params);
        assert!(
            r["result"]["_meta"]["io.modelcontextprotocol/serverInfo"].is_object(),
            "{method}"
        );
    }
    let config = ServerConfig {
        server_info: None,
        ..ServerConfig::default()
    };
    let mut off = H::new("envelope-noinfo", catalogue(config));
    let r = off.ask("resources/list", json!({}));
    assert!(r["result"].get("_meta").is_none());
    let config = ServerConfig {
        server_info: Some(OwnedImplementation::new("demo", "9.9")),
        ..ServerConfig::default()
    };
    let mut named = H::new("envelope-named", catalogue(config));
    let r = named.ask("server/discover", json!({}));
    assert_eq!(
        r["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "demo", "version": "9.9"})
    );
}

fn raw_request(id: Value, method: &str, params: Option<Value>) -> Vec<u8> {
    let mut v = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(p) = params {
        v["params"] = p;
    }
    serde_json::to_vec(&v).unwrap()
}

#[test]
fn rule_1_missing_meta_keys_are_rejected_with_http_400() {
    let mut h = cat();
    let version = json!({"io.modelcontextprotocol/protocolVersion": V});
    let caps = json!({"io.modelcontextprotocol/clientCapabilities": {}});
    for method in [
        "server/discover",
        "resources/list",
        "resources/read",
        "prompts/get",
        "subscriptions/listen",
    ] {
        for params in [
            None,
            Some(json!({})),
            Some(json!({"_meta": {}})),
            Some(json!({"_meta": version, "uri": "test://static-text", "name": "review_note"})),
            Some(json!({"_meta": caps, "uri": "test://static-text"})),
            Some(
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": 7,
                "io.modelcontextprotocol/clientCapabilities": {}}}),
            ),
        ] {
            let outs = h.send(http(9), &raw_request(json!(5), method, params.clone()));
            let t = transmits(&outs);
            let v = json_of(&t[0]);
            assert_eq!(error_code(&v), -32602, "{method} {params:?}");
            assert_eq!(v["id"], 5);
            assert_eq!(
                (t[0].http_status, t[0].kind, t[0].end_of_stream),
                (400, BodyKind::Json, true)
            );
        }
    }
}

#[test]
fn rule_3_unsupported_version_names_supported_and_requested() {
    let mut h = cat();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "v999.0.0",
        "io.modelcontextprotocol/clientCapabilities": {}});
    for method in ["server/discover", "resources/list", "prompts/list"] {
        let outs = h.call(http(3), json!("x"), method, json!({"_meta": meta}));
        let t = &transmits(&outs)[0];
        let v = json_of(t);
        assert_eq!(error_code(&v), -32022);
        assert_eq!(
            v["error"]["data"],
            json!({"supported": ["2026-07-28"], "requested": "v999.0.0"})
        );
        assert_eq!(t.http_status, 400);
    }
    let config = ServerConfig {
        supported_versions: vec!["2026-07-28".into(), "2027-01-01".into()],
        ..ServerConfig::default()
    };
    let mut two = H::new("envelope-two", catalogue(config));
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2027-01-01",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let r = two.ask("resources/list", json!({"_meta": meta}));
    assert_eq!(r["result"]["resultType"], "complete");
}

#[test]
fn rule_2_nothing_is_inferred_from_earlier_requests() {
    let mut h = cat();
    assert_eq!(
        h.ask("resources/list", json!({}))["result"]["resultType"],
        "complete"
    );
    // The same connection, a request without _meta: still rejected.
    let outs = h.send(
        STDIO,
        &raw_request(json!(2), "resources/list", Some(json!({}))),
    );
    assert_eq!(error_code(&only(&outs)), -32602);
    // And one at another version: still -32022, whatever came before.
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2025-11-25",
        "io.modelcontextprotocol/clientCapabilities": {}});
    assert_eq!(
        error_code(&h.ask("resources/list", json!({"_meta": meta}))),
        -32022
    );
}

#[test]
fn rule_5_unknown_removed_and_undeclared_methods_are_404() {
    // A modern-only server (legacy sessions off; tests/server_legacy.rs covers the dual-era
    // default, where `initialize` and `ping` are served).
    let modern_only = ServerConfig {
        legacy_sessions: false,
        ..ServerConfig::default()
    };
    let mut h = H::with("envelope-404", modern_only);
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "unknown/method",
        "tools/list",
        "tools/call",
        "prompts/list",
        "prompts/get",
        "resources/list",
        "resources/read",
        "completion/complete",
    ] {
        let outs = h.call(
            http(1),
            json!(77),
            method,
            json!({"uri": "a:b", "name": "x"}),
        );
        let t = &transmits(&outs)[0];
        let v = json_of(t);
        assert_eq!(error_code(&v), -32601, "{method}");
        assert_eq!(v["id"], 77);
        assert_eq!(t.http_status, 404);
    }
    // Legacy shapes without _meta still get -32601, and initialize names the versions.
    let init = raw_request(
        json!(1),
        "initialize",
        Some(json!({"protocolVersion": "2025-11-25",
        "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}})),
    );
    let v = only(&h.send(STDIO, &init));
    assert_eq!(error_code(&v), -32601);
    assert_eq!(v["error"]["data"]["supported"], json!(["2026-07-28"]));
    let ping = raw_request(json!(2), "ping", None);
    assert_eq!(error_code(&only(&h.send(STDIO, &ping))), -32601);
}

#[test]
fn validation_order_meta_then_version_then_method_then_params() {
    let mut h = H::with("envelope-order", ServerConfig::default());
    // Missing clientCapabilities AND a bad version: -32602 first.
    let p = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "v999"}});
    assert_eq!(error_code(&h.ask("prompts/list", p)), -32602);
    // Bad version on an undeclared method: -32022 before -32601.
    let p = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "v999",
        "io.modelcontextprotocol/clientCapabilities": {}}});
    assert_eq!(error_code(&h.ask("prompts/list", p)), -32022);
    // Undeclared method with bad params: -32601 before -32602.
    assert_eq!(error_code(&h.ask("prompts/get", json!({}))), -32601);
    // Declared method, bad params: -32602 with HTTP 200.
    let mut c = cat();
    let outs = c.call(http(4), json!(1), "resources/read", json!({}));
    let t = &transmits(&outs)[0];
    assert_eq!((error_code(&json_of(t)), t.http_status), (-32602, 200));
}

#[test]
fn rule_11_error_responses_echo_the_id_in_its_type() {
    let mut h = cat();
    for id in [json!("abc"), json!(0), json!(-7), json!("caf\u{e9}")] {
        let outs = h.send(STDIO, &raw_request(id.clone(), "nope", None));
        assert_eq!(only(&outs)["id"], id);
    }
    // An integer beyond 2^64 is echoed digit for digit, still a number.
    let big = br#"{"jsonrpc":"2.0","id":12345678901234567890123,"method":"nope"}"#;
    h.server.handle_message(big, 1, STDIO);
    let t = transmits(&h.drain()).remove(0);
    let text = String::from_utf8(t.bytes).unwrap();
    assert!(text.contains(r#""id":12345678901234567890123"#), "{text}");
    let v = only(&h.call(STDIO, json!("s-1"), "resources/list", json!({})));
    assert_eq!(v["id"], "s-1");
}

#[test]
fn rule_12_notifications_get_no_response() {
    let mut h = cat();
    for (method, params) in [
        ("notifications/initialized", json!({})),
        ("notifications/cancelled", json!({"requestId": 999})),
        ("notifications/cancelled", json!({"oops": true})),
        ("notifications/whatever", json!([1, 2])),
        ("resources/list", json!({})),
    ] {
        let bytes = notification(method, params);
        assert_eq!(
            h.server.handle_message(&bytes, 1, http(2)),
            Received::Notification
        );
        assert!(h.drain().is_empty(), "{method}");
    }
}

#[test]
fn rule_64_http_notification_is_accepted_without_body() {
    let mut h = cat();
    let bytes = notification("notifications/cancelled", json!({"requestId": "x"}));
    assert_eq!(
        h.server.handle_message(&bytes, 1, http(8)),
        Received::Notification
    );
    assert!(h.drain().is_empty());
}

#[test]
fn client_responses_are_ignored() {
    let mut h = cat();
    let bytes = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    assert_eq!(h.server.handle_message(bytes, 1, STDIO), Received::Response);
    assert!(h.drain().is_empty());
}

#[test]
fn parse_errors_and_invalid_requests() {
    let mut h = cat();
    let cases: &[(&[u8], i64, Value)] = &[
        (b"{not json", -32700, Value::Null),
        (b"", -32700, Value::Null),
        (b"[]", -32600, Value::Null),
        (
            br#"{"jsonrpc":"1.0","id":4,"method":"x"}"#,
            -32600,
            json!(4),
        ),
        (
            br#"{"jsonrpc":"2.0","id":null,"method":"x"}"#,
            -32600,
            Value::Null,
        ),
        (
            br#"{"jsonrpc":"2.0","id":"q","method":5}"#,
            -32600,
            json!("q"),
        ),
    ];
    for (bytes, code, id) in cases {
        assert_eq!(
            h.server.handle_message(bytes, 1, http(1)),
            Received::Invalid
        );
        let outs = h.drain();
        let t = &transmits(&outs)[0];
        let v = json_of(t);
        assert_eq!(error_code(&v), *code);
        assert_eq!(v.get("id").cloned().unwrap_or(Value::Null), *id);
        assert_eq!(t.http_status, 400);
    }
}

#[test]
fn rule_14_reserved_meta_keys_change_nothing() {
    let mut h = cat();
    let plain = h.ask("resources/list", json!({}));
    let mut meta = meta_with(json!({}));
    meta["io.modelcontextprotocol/somethingNew"] = json!({"x": 1});
    meta["com.example/trace"] = json!("t");
    meta["progressToken"] = json!(5);
    meta["io.modelcontextprotocol/clientInfo"] = json!({"name": "c", "version": "1"});
    let extra = h.ask("resources/list", json!({"_meta": meta}));
    assert_eq!(plain, extra);
}

#[test]
fn stdio_transmits_never_end_the_stream() {
    let mut h = cat();
    let outs = h.call(STDIO, json!(1), "server/discover", json!({}));
    let t = &transmits(&outs)[0];
    assert!(!t.end_of_stream);
    assert_eq!(t.stream, StreamId(0));
    let ctx = Ctx::http(StreamId(42), 7);
    let outs = h.call(ctx, json!(1), "server/discover", json!({}));
    let t = &transmits(&outs)[0];
    assert_eq!(
        (t.stream, t.end_of_stream, t.http_status),
        (StreamId(42), true, 200)
    );
}

#[test]
fn config_errors() {
    use mcp_context::server::{ConfigError, SealingKey};
    let bad = |c: ServerConfig| Server::new(c).unwrap_err();
    assert_eq!(
        bad(ServerConfig {
            supported_versions: vec![],
            ..Default::default()
        }),
        ConfigError::NoSupportedVersion
    );
    assert_eq!(
        bad(ServerConfig {
            page_size: 0,
            ..Default::default()
        }),
        ConfigError::ZeroCapacity
    );
    let short = SealingKey {
        id: 1,
        secret: vec![1; 8],
    };
    assert_eq!(
        bad(ServerConfig {
            state_keys: vec![short],
            ..Default::default()
        }),
        ConfigError::StateKeyTooShort
    );
}
