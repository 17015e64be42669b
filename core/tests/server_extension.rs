//! Server machine: methods and capabilities the host adds (docs/server-machine.md
//! §Extension methods): `tools/list`, `tools/call` with `input_required` and a retry, a
//! vendor method, the validation order, and what the core refuses to hand over. Every
//! emitted message is recorded for the schema check (`tests/schema/validate_emitted.py`).

mod common;
mod server_harness;

use mcp_context::jsonrpc::Method;
use mcp_context::messages::owned::{OwnedInputRequest, OwnedJson};
use mcp_context::server::{
    CacheHint, Event, Failure, Handle, InputRequired, Output, RegisterError, RequestEvent,
    RespondError, SealingKey, Server, ServerConfig,
};
use serde_json::{Value, json};
use server_harness::*;

fn j(v: Value) -> OwnedJson {
    OwnedJson::parse(v.to_string()).unwrap()
}

fn tools_server(config: ServerConfig) -> Server {
    let mut s = catalogue(config);
    s.add_method("tools/list").unwrap();
    s.add_method("tools/call").unwrap();
    s.set_capability("tools", j(json!({"listChanged": true})))
        .unwrap();
    s
}

fn keyed() -> ServerConfig {
    ServerConfig {
        state_keys: vec![SealingKey {
            id: 3,
            secret: vec![0x42; 32],
        }],
        ..ServerConfig::default()
    }
}

fn request_event(outs: &[Output]) -> RequestEvent {
    match events(outs).as_slice() {
        [Event::Request(e)] => e.clone(),
        other => panic!("expected one request event, got {other:?}"),
    }
}

const ECHO_TOOL: &str = r#"{"tools":[{"name":"echo","description":"Echoes its input","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}"#;

#[test]
fn tools_list_is_answered_by_the_host_with_the_machine_members() {
    let mut h = H::new("ext-tools-list", tools_server(ServerConfig::default()));
    // Announced next to the derived capabilities.
    let d = h.ask("server/discover", json!({}));
    let caps = &d["result"]["capabilities"];
    assert_eq!(caps["tools"], json!({"listChanged": true}));
    assert!(caps["resources"].is_object() && caps["prompts"].is_object());

    let outs = h.call(STDIO, json!(2), "tools/list", json!({}));
    assert!(transmits(&outs).is_empty());
    let e = request_event(&outs);
    assert_eq!(e.method, "tools/list");
    assert!(!e.progress && e.retry.is_none());
    let params: Value = serde_json::from_str(&format!("{:?}", e.params)).unwrap();
    assert_eq!(
        params["_meta"]["io.modelcontextprotocol/protocolVersion"], V,
        "params come as received, _meta included"
    );
    h.server
        .respond_result(
            e.handle,
            OwnedJson::parse(ECHO_TOOL).unwrap(),
            Some(CacheHint::public(60_000)),
        )
        .unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    assert_eq!(v["id"], 2);
    assert_eq!(r["resultType"], "complete");
    assert_eq!(
        (r["ttlMs"].as_u64(), r["cacheScope"].as_str()),
        (Some(60_000), Some("public"))
    );
    assert_eq!(r["tools"][0]["name"], "echo");
    assert_eq!(
        r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-context"
    );
    // The answer is final: a second one is refused.
    let again = h
        .server
        .respond_result(e.handle, j(json!({"tools": []})), None);
    assert_eq!(again, Err(RespondError::UnknownHandle));
}

fn call_params(caps: Value, args: Value, extra: Value) -> Value {
    let mut p = json!({"_meta": meta_with(caps), "name": "echo", "arguments": args});
    if let Value::Object(o) = extra {
        for (k, v) in o {
            p[k] = v;
        }
    }
    p
}

fn elicit() -> (String, OwnedInputRequest) {
    let params = r#"{"mode":"form","message":"Echo it?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}"#;
    (
        "confirm".into(),
        OwnedInputRequest {
            method: Method::ElicitationCreate,
            params: Some(OwnedJson::parse(params).unwrap()),
        },
    )
}

#[test]
fn tools_call_asks_for_input_and_the_retry_carries_the_sealed_state() {
    let mut h = H::new("ext-tools-call", tools_server(keyed()));
    let caps = json!({"elicitation": {"form": {}}});
    let args = json!({"text": "hi", "n": [1, {"b": 2, "a": 1}]});
    let outs = h.call(
        STDIO,
        json!(5),
        "tools/call",
        call_params(caps.clone(), args, json!({})),
    );
    let e = request_event(&outs);
    assert_eq!(e.method, "tools/call");
    assert!(e.capabilities.elicitation_form);
    h.server
        .respond_input_required(
            e.handle,
            InputRequired {
                requests: vec![elicit()],
                state: Some(b"round-1".to_vec()),
            },
        )
        .unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    assert_eq!(r["resultType"], "input_required");
    assert_eq!(
        r["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    let state = r["requestState"].as_str().unwrap().to_string();

    // The retry re-sends the same params, members (even nested ones) in another order.
    let reordered = json!({"n": [1, {"a": 1, "b": 2}], "text": "hi"});
    let extra = json!({
        "requestState": state,
        "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}},
    });
    let outs = h.call(
        STDIO,
        json!(6),
        "tools/call",
        call_params(caps.clone(), reordered, extra),
    );
    let e = request_event(&outs);
    let retry = e.retry.clone().expect("a retry");
    assert_eq!(retry.state.as_deref(), Some(&b"round-1"[..]));
    assert_eq!(retry.input_responses.len(), 1);
    assert_eq!(retry.input_responses[0].0, "confirm");
    h.server
        .respond_result(
            e.handle,
            j(json!({"content": [{"type": "text", "text": "hi"}], "isError": false})),
            None,
        )
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(v["result"]["resultType"], "complete");
    assert_eq!(v["result"]["content"][0]["text"], "hi");
    assert!(v["result"].get("ttlMs").is_none(), "no hints unless given");

    // The state is bound to the params: other arguments, or another method, are refused.
    let other = json!({"text": "bye", "n": [1, {"a": 1, "b": 2}]});
    let extra = json!({"requestState": state});
    let outs = h.call(
        STDIO,
        json!(7),
        "tools/call",
        call_params(caps.clone(), other, extra.clone()),
    );
    assert_eq!(error_code(&only(&outs)), -32602);
    let mut p = call_params(caps.clone(), json!({}), extra.clone());
    p.as_object_mut().unwrap().remove("arguments");
    let outs = h.call(STDIO, json!(8), "tools/list", p);
    assert_eq!(error_code(&only(&outs)), -32602);
    // A requestState that is not a string, or inputResponses that are not an object.
    let bad = json!({"requestState": 5});
    let outs = h.call(
        STDIO,
        json!(9),
        "tools/call",
        call_params(caps.clone(), json!({}), bad),
    );
    assert_eq!(error_code(&only(&outs)), -32602);
    let bad = json!({"inputResponses": []});
    let outs = h.call(
        STDIO,
        json!(10),
        "tools/call",
        call_params(caps, json!({}), bad),
    );
    assert_eq!(error_code(&only(&outs)), -32602);
}

#[test]
fn input_requests_need_the_declared_capability_on_registered_methods_too() {
    let mut h = H::new("ext-caps", tools_server(keyed()));
    let outs = h.call(
        STDIO,
        json!(1),
        "tools/call",
        call_params(json!({}), json!({}), json!({})),
    );
    let e = request_event(&outs);
    let r = h.server.respond_input_required(
        e.handle,
        InputRequired {
            requests: vec![elicit()],
            state: None,
        },
    );
    assert_eq!(r, Err(RespondError::ClientLacksCapability));
    assert_eq!(error_code(&only(&h.drain())), -32021);
}

#[test]
fn unregistered_methods_stay_method_not_found() {
    let mut h = H::new("ext-unregistered", catalogue(ServerConfig::default()));
    for (i, m) in ["tools/list", "tools/call", "acme/x", "ping"]
        .iter()
        .enumerate()
    {
        let v = h.ask(m, json!({"name": "echo"}));
        assert_eq!(error_code(&v), -32601, "{m}");
        let _ = i;
    }
    // tools are not announced.
    let d = h.ask("server/discover", json!({}));
    assert!(d["result"]["capabilities"].get("tools").is_none());
    // Registered, then removed: -32601 again, even for a malformed _meta (method first).
    h.server.add_method("acme/x").unwrap();
    assert!(h.server.remove_method("acme/x"));
    assert!(!h.server.remove_method("acme/x"));
    let outs = h.send(
        STDIO,
        br#"{"jsonrpc":"2.0","id":3,"method":"acme/x","params":{}}"#,
    );
    assert_eq!(error_code(&only(&outs)), -32601);
}

#[test]
fn a_vendor_method_keeps_the_hosts_meta_and_gets_server_info() {
    let mut s = catalogue(ServerConfig::default());
    s.add_method("acme/x").unwrap();
    let mut h = H::new("ext-vendor", s);
    let outs = h.call(STDIO, json!("q"), "acme/x", json!({"query": "a"}));
    let e = request_event(&outs);
    assert_eq!(e.method, "acme/x");
    // A result naming resultType "complete" and its own _meta.
    let result = j(json!({"resultType": "complete", "value": 1, "_meta": {"acme/trace": "t1"}}));
    h.server
        .respond_result(e.handle, result, Some(CacheHint::private(5)))
        .unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    assert_eq!(v["id"], "q");
    assert_eq!(r["value"], 1);
    assert_eq!(r["_meta"]["acme/trace"], "t1");
    assert_eq!(
        r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-context"
    );
    assert_eq!(
        (r["ttlMs"].as_u64(), r["cacheScope"].as_str()),
        (Some(5), Some("private"))
    );
    let text = String::from_utf8(transmits_of_last(&mut h, "acme/x")).unwrap();
    assert_eq!(
        text.matches("resultType").count(),
        1,
        "written once: {text}"
    );
}

/// Sends one more `acme/x` request, answers it with a result naming `resultType`, and
/// returns the raw bytes.
fn transmits_of_last(h: &mut H, method: &str) -> Vec<u8> {
    let outs = h.call(STDIO, json!(99), method, json!({}));
    let e = request_event(&outs);
    let result = j(json!({"resultType": "complete"}));
    h.server.respond_result(e.handle, result, None).unwrap();
    transmits(&h.drain())[0].bytes.clone()
}

#[test]
fn registered_methods_are_validated_like_the_cores_own() {
    let mut s = catalogue(ServerConfig::default());
    s.add_method("tools/list").unwrap();
    let mut h = H::new("ext-order", s);
    // _meta missing: -32602, HTTP 400.
    let outs = h.send(
        http(1),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
    );
    let t = transmits(&outs);
    assert_eq!(
        (error_code(&json_of(&t[0])), t[0].http_status),
        (-32602, 400)
    );
    // No params at all: the same.
    let outs = h.send(
        http(2),
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    );
    assert_eq!(error_code(&only(&outs)), -32602);
    // A malformed _meta (capabilities not an object) is caught before the version.
    let p = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01",
        "io.modelcontextprotocol/clientCapabilities": 5}});
    let outs = h.call(http(3), json!(3), "tools/list", p);
    assert_eq!(error_code(&only(&outs)), -32602);
    // An unserved version: -32022 with the supported list, HTTP 400.
    let p = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01",
        "io.modelcontextprotocol/clientCapabilities": {}}});
    let outs = h.call(http(4), json!(4), "tools/list", p);
    let t = transmits(&outs);
    let v = json_of(&t[0]);
    assert_eq!((error_code(&v), t[0].http_status), (-32022, 400));
    assert_eq!(v["error"]["data"]["supported"], json!([V]));
    assert!(events(&outs).is_empty());
    // A method name written with escapes is the registered one.
    let outs = h.send(
        STDIO,
        format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"tools\/list","params":{{"_meta":{}}}}}"#,
            meta_with(json!({}))
        )
        .as_bytes(),
    );
    assert_eq!(request_event(&outs).method, "tools/list");
}

#[test]
fn the_core_keeps_its_own_methods_and_capabilities() {
    let mut s = Server::new(ServerConfig::default()).unwrap();
    for m in [
        "resources/read",
        "resources/list",
        "server/discover",
        "subscriptions/listen",
        "completion/complete",
        "prompts/get",
        "initialize",
        "resources/subscribe",
        "elicitation/create",
        "roots/list",
        "notifications/progress",
        "",
    ] {
        assert_eq!(s.add_method(m), Err(RegisterError::CoreMethod), "{m}");
    }
    for m in ["tools/list", "logging/setLevel", "ping", "acme/x"] {
        assert_eq!(s.add_method(m), Ok(()), "{m}");
    }
    for k in ["resources", "prompts", "completions"] {
        let r = s.set_capability(k, OwnedJson::empty_object());
        assert_eq!(r, Err(RegisterError::CoreCapability), "{k}");
    }
    let r = s.set_capability("tools", j(json!(true)));
    assert_eq!(r, Err(RegisterError::NotAnObject));
    assert!(!s.remove_capability("tools"));
}

#[test]
fn discover_follows_capability_changes() {
    let mut h = H::new("ext-discover", catalogue(ServerConfig::default()));
    let before = h.ask("server/discover", json!({}));
    assert!(before["result"]["capabilities"].get("logging").is_none());
    h.server
        .set_capability("logging", OwnedJson::empty_object())
        .unwrap();
    h.server
        .set_capability("extensions", j(json!({"io.acme/search": {}})))
        .unwrap();
    let after = h.ask("server/discover", json!({}));
    let caps = &after["result"]["capabilities"];
    assert_eq!(caps["logging"], json!({}));
    assert_eq!(caps["extensions"]["io.acme/search"], json!({}));
    assert!(caps["resources"].is_object());
    assert!(h.server.remove_capability("logging"));
    let last = h.ask("server/discover", json!({}));
    assert!(last["result"]["capabilities"].get("logging").is_none());
}

#[test]
fn answers_that_do_not_fit_are_refused_and_answered_32603() {
    let mut s = tools_server(ServerConfig::default());
    s.add_method("acme/x").unwrap();
    let mut h = H::new("ext-refused", s);
    // Each refused answer ends its request with -32603 at once (docs/rules.md §20.4 rule 5).
    for (n, bad) in [
        json!([1]),
        json!("x"),
        json!({"resultType": "input_required"}),
        json!({"_meta": 1}),
    ]
    .into_iter()
    .enumerate()
    {
        let e = request_event(&h.call(STDIO, json!(n), "acme/x", json!({})));
        let r = h.server.respond_result(e.handle, j(bad.clone()), None);
        assert_eq!(r, Err(RespondError::InvalidResult), "{bad}");
        assert!(!r.unwrap_err().is_late());
        let v = only(&h.drain());
        assert_eq!((error_code(&v), &v["id"]), (-32603, &json!(n)), "{bad}");
        assert_eq!(
            h.server
                .respond_result(e.handle, OwnedJson::empty_object(), None),
            Err(RespondError::UnknownHandle)
        );
    }
    let outs = h.call(STDIO, json!(1), "acme/x", json!({}));
    let e = request_event(&outs);
    // A read event cannot be answered with a result object.
    let outs = h.call(
        STDIO,
        json!(2),
        "resources/read",
        json!({"uri": "notes://acme/index"}),
    );
    let read: Handle = match events(&outs).as_slice() {
        [Event::ReadResource(r)] => r.handle,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        h.server
            .respond_result(read, OwnedJson::empty_object(), None),
        Err(RespondError::WrongKind)
    );
    assert_eq!(error_code(&only(&h.drain())), -32603);
    // The method handle is answerable with an error.
    h.server
        .fail(
            e.handle,
            Failure::Application {
                code: 7,
                message: "no".into(),
            },
        )
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(
        (error_code(&v), v["error"]["message"].as_str()),
        (7, Some("no"))
    );
    assert_eq!(
        h.server.fail(read, Failure::NotFound),
        Err(RespondError::UnknownHandle)
    );
    // NotFound and InvalidParams on a registered method: -32602.
    let outs = h.call(STDIO, json!(3), "tools/call", json!({"name": "nope"}));
    let e = request_event(&outs);
    h.server.fail(e.handle, Failure::NotFound).unwrap();
    assert_eq!(error_code(&only(&h.drain())), -32602);
}

#[test]
fn tools_list_changed_reaches_listeners_only_when_announced() {
    let filter = json!({"notifications": {"toolsListChanged": true, "promptsListChanged": true}});
    // Announced with listChanged: honoured, acknowledged, notified.
    let mut h = H::new("ext-tools-changed", tools_server(ServerConfig::default()));
    let outs = h.call(STDIO, json!("l"), "subscriptions/listen", filter.clone());
    let ack = only(&outs);
    assert_eq!(ack["params"]["notifications"]["toolsListChanged"], true);
    h.server.tools_list_changed();
    let v = only(&h.drain());
    assert_eq!(v["method"], "notifications/tools/list_changed");
    assert_eq!(
        v["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l"
    );
    // Without the announcement: dropped from the acknowledgment, nothing sent.
    let mut s = catalogue(ServerConfig::default());
    s.add_method("tools/list").unwrap();
    s.set_capability("tools", OwnedJson::empty_object())
        .unwrap();
    let mut h = H::new("ext-tools-unchanged", s);
    let ack = only(&h.call(STDIO, json!("l"), "subscriptions/listen", filter));
    assert!(
        ack["params"]["notifications"]
            .get("toolsListChanged")
            .is_none()
    );
    assert_eq!(ack["params"]["notifications"]["promptsListChanged"], true);
    h.server.tools_list_changed();
    assert!(h.drain().is_empty());
}
