//! Server machine: the tool registry (docs/rules.md §20, docs/server-machine.md §Tools):
//! registration checks, `tools/list` pages, hints and visibility, `tools/call` events and
//! results, tool errors as `isError` results, unknown and hidden tools, `input_required` and
//! the retry, the `tools` capability and `list_changed`, and the refusal to mix the registry
//! with the host's own `tools/*` methods. Every emitted message is recorded for the schema
//! check (`tests/schema/validate_emitted.py`).

mod common;
mod server_harness;

use std::borrow::Cow;

use mcp_context::jsonrpc::DecodeError;
use mcp_context::messages::owned::{FromJsonText, OwnedInputRequest, OwnedJson, OwnedTool};
use mcp_context::server::{
    AppCursor, CacheHint, Event, Failure, InputRequired, Listed, Output, RegisterError,
    RespondError, SealingKey, Server, ServerConfig, ToolEvent,
};
use serde_json::{Value, json};
use server_harness::*;

fn tool(v: Value) -> OwnedTool {
    OwnedTool::from_json_text(&v.to_string()).unwrap()
}

fn j(v: Value) -> OwnedJson {
    OwnedJson::parse(v.to_string()).unwrap()
}

fn echo() -> OwnedTool {
    tool(json!({
        "name": "echo",
        "title": "Echo",
        "description": "Echoes its input",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
        "annotations": {"readOnlyHint": true},
        "icons": [{"src": "https://example.com/echo.png", "mimeType": "image/png"}]
    }))
}

fn plain(name: &str) -> OwnedTool {
    tool(json!({"name": name, "inputSchema": {"type": "object"}}))
}

fn tools_server(config: ServerConfig) -> Server {
    let mut s = catalogue(config);
    s.add_tool(echo()).unwrap();
    s.add_tool(plain("b_second")).unwrap();
    s.add_tool(plain("a_first")).unwrap();
    s
}

fn tool_event(outs: &[Output]) -> ToolEvent {
    match events(outs).as_slice() {
        [Event::CallTool(e)] => e.clone(),
        other => panic!("expected one tool event, got {other:?}"),
    }
}

fn call(h: &mut H, id: u64, params: Value) -> Vec<Output> {
    h.call(STDIO, json!(id), "tools/call", params)
}

#[test]
fn tools_list_pages_in_name_order_with_hints_and_the_capability() {
    let config = ServerConfig {
        page_size: 2,
        tools_list_cache: CacheHint::public(7_000),
        ..ServerConfig::default()
    };
    let mut h = H::new("tools-list", tools_server(config));
    let d = h.ask("server/discover", json!({}));
    assert_eq!(
        d["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );

    let first = h.ask("tools/list", json!({}));
    let r = &first["result"];
    let names: Vec<&str> = r["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a_first", "b_second"]);
    assert_eq!(
        (r["ttlMs"].as_u64(), r["cacheScope"].as_str()),
        (Some(7_000), Some("public"))
    );
    let cursor = r["nextCursor"].as_str().unwrap().to_owned();

    let second = h.ask("tools/list", json!({"cursor": cursor}));
    let r = &second["result"];
    assert!(r.get("nextCursor").is_none());
    // Listed exactly as registered.
    assert_eq!(
        r["tools"],
        json!([serde_json::from_str::<Value>(&format!("{:?}", echo().as_json())).unwrap()])
    );

    // A cursor of another list, or any other text, is -32602.
    let prompts = h.ask("prompts/list", json!({}));
    assert!(prompts["result"].get("nextCursor").is_none());
    for bad in ["", "bm9wZQ", "AQM"] {
        let v = h.ask("tools/list", json!({"cursor": bad}));
        assert_eq!(error_code(&v), -32602, "{bad}");
    }
}

#[test]
fn tools_call_is_an_event_answered_with_a_result() {
    let mut h = H::new("tools-call", tools_server(ServerConfig::default()));
    let mut meta = meta_with(json!({}));
    meta["progressToken"] = json!("p1");
    let outs = call(
        &mut h,
        2,
        json!({"_meta": meta, "name": "echo", "arguments": {"text": "hi"}}),
    );
    assert!(transmits(&outs).is_empty());
    let e = tool_event(&outs);
    assert_eq!(e.name, "echo");
    assert_eq!(format!("{:?}", e.arguments), r#"{"text":"hi"}"#);
    assert!(e.progress && e.retry.is_none() && e.auth == 0);
    h.server
        .respond_tool(
            e.handle,
            j(json!({"content": [{"type": "text", "text": "hi"}], "structuredContent": {"text": "hi"},
                     "isError": false, "_meta": {"x": 1}})),
        )
        .unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["content"], json!([{"type": "text", "text": "hi"}]));
    assert_eq!(r["structuredContent"], json!({"text": "hi"}));
    assert_eq!(r["_meta"]["x"], 1);
    assert!(r.get("ttlMs").is_none(), "tool results carry no hints");
    assert_eq!(
        h.server.respond_tool(e.handle, j(json!({"content": []}))),
        Err(RespondError::UnknownHandle)
    );

    // No arguments: an empty object.
    let e = tool_event(&call(&mut h, 3, json!({"name": "a_first"})));
    assert_eq!(format!("{:?}", e.arguments), "{}");
    assert!(!e.progress);
}

#[test]
fn a_failing_tool_is_an_is_error_result_not_a_protocol_error() {
    let mut h = H::new("tools-error", tools_server(ServerConfig::default()));
    let e = tool_event(&call(&mut h, 2, json!({"name": "a_first"})));
    h.server
        .respond_tool_error(e.handle, "disk \"full\"")
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(
        v["result"]["content"],
        json!([{"type": "text", "text": "disk \"full\""}])
    );
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(v["result"]["resultType"], "complete");

    // A missing required argument is a tool error too, answered by the machine (no event).
    let outs = call(
        &mut h,
        3,
        json!({"name": "echo", "arguments": {"other": 1}}),
    );
    assert!(events(&outs).is_empty());
    let v = only(&outs);
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["content"][0]["text"],
        "Missing required argument: text"
    );

    // Protocol errors stay protocol errors when the host says so.
    let e = tool_event(&call(&mut h, 4, json!({"name": "a_first"})));
    h.server
        .fail(e.handle, Failure::InvalidParams("bad date".into()))
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(
        (error_code(&v), v["error"]["message"].as_str()),
        (-32602, Some("bad date"))
    );
    let e = tool_event(&call(&mut h, 5, json!({"name": "a_first"})));
    h.server.fail(e.handle, Failure::NotFound).unwrap();
    let v = only(&h.drain());
    assert_eq!(
        (error_code(&v), v["error"]["message"].as_str()),
        (-32602, Some("Unknown tool"))
    );
}

#[test]
fn a_handler_failure_is_a_tool_error_on_a_tool_and_32603_elsewhere() {
    let mut server = tools_server(ServerConfig::default());
    server.add_method("acme/custom").unwrap();
    let mut h = H::new("tools-handler-failure", server);
    // A tool's handler raised: a result with isError and the message, for the model.
    let e = tool_event(&call(&mut h, 2, json!({"name": "a_first"})));
    h.server
        .fail(e.handle, Failure::Handler("no such date".into()))
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(v["id"], 2);
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["content"],
        json!([{"type": "text", "text": "no such date"}])
    );
    // Any other request's handler raised: -32603, the message kept from the client.
    let outs = h.call(STDIO, json!(3), "acme/custom", json!({}));
    let handle = match events(&outs).as_slice() {
        [Event::Request(r)] => r.handle,
        other => panic!("expected one request event, got {other:?}"),
    };
    h.server
        .fail(handle, Failure::Handler("secret path /etc/x".into()))
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(error_code(&v), -32603);
    assert!(!v.to_string().contains("secret"), "{v}");
    // Answered once: the handle is gone.
    assert_eq!(
        h.server.fail(handle, Failure::Internal),
        Err(RespondError::UnknownHandle)
    );
}

#[test]
fn unknown_tools_and_malformed_calls_are_32602() {
    let mut h = H::new("tools-unknown", tools_server(ServerConfig::default()));
    let cases = [
        json!({"name": "nope"}),
        json!({"arguments": {}}),
        json!({"name": 7}),
        json!({"name": "echo", "arguments": ["text"]}),
        json!({"name": "echo", "arguments": "text"}),
        json!({"name": "echo", "arguments": {"text": "x"}, "requestState": 1}),
        json!({"name": "echo", "arguments": {"text": "x"}, "inputResponses": []}),
        json!({"name": "echo", "arguments": {"text": "x"}, "requestState": "forged"}),
    ];
    for (i, params) in cases.into_iter().enumerate() {
        let outs = call(&mut h, 10 + i as u64, params.clone());
        assert!(events(&outs).is_empty(), "{params}");
        assert_eq!(error_code(&only(&outs)), -32602, "{params}");
    }
    let v = only(&call(&mut h, 30, json!({"name": "nope"})));
    assert_eq!(v["error"]["message"], "Unknown tool: nope");
}

#[test]
fn hidden_tools_are_neither_listed_nor_callable_and_lists_turn_private() {
    let mut s = tools_server(ServerConfig::default());
    s.set_visibility(Box::new(|auth, item| match item {
        Listed::Tool(t) => auth == 1 || t.name() != "echo",
        _ => true,
    }));
    let mut h = H::new("tools-visibility", s);
    let v = h.ask("tools/list", json!({}));
    let names: Vec<&str> = v["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a_first", "b_second"]);
    assert_eq!(v["result"]["cacheScope"], "private");
    let v = only(&call(
        &mut h,
        2,
        json!({"name": "echo", "arguments": {"text": "x"}}),
    ));
    assert_eq!(v["error"]["message"], "Unknown tool: echo");

    let outs = h.call(
        mcp_context::server::Ctx::http(mcp_context::server::StreamId(9), 1),
        json!(3),
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "x"}}),
    );
    assert_eq!(tool_event(&outs).auth, 1);
}

#[test]
fn input_required_then_a_retry_bound_to_the_tool_and_arguments() {
    let config = ServerConfig {
        state_keys: vec![SealingKey {
            id: 1,
            secret: vec![7; 32],
        }],
        ..ServerConfig::default()
    };
    let mut h = H::new("tools-mrtr", tools_server(config));
    let meta = meta_with(json!({"elicitation": {}}));
    let args = json!({"text": "x"});
    let e = tool_event(&call(
        &mut h,
        2,
        json!({"_meta": meta, "name": "echo", "arguments": args}),
    ));
    let ask = OwnedInputRequest::from_json_text(
        r#"{"method":"elicitation/create","params":{"mode":"form","message":"Sure?","requestedSchema":{"type":"object","properties":{}}}}"#,
    )
    .unwrap();
    h.server
        .respond_input_required(
            e.handle,
            InputRequired {
                requests: vec![("confirm".into(), ask)],
                state: Some(b"step-1".to_vec()),
            },
        )
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(v["result"]["resultType"], "input_required");
    let state = v["result"]["requestState"].as_str().unwrap().to_owned();

    let responses = json!({"confirm": {"action": "accept", "content": {}}});
    let e = tool_event(&call(
        &mut h,
        3,
        json!({"_meta": meta, "name": "echo", "arguments": args, "requestState": state, "inputResponses": responses}),
    ));
    let retry = e.retry.expect("verified retry");
    assert_eq!(retry.state.as_deref(), Some(&b"step-1"[..]));
    assert_eq!(retry.input_responses[0].0, "confirm");
    h.server
        .respond_tool(e.handle, j(json!({"content": []})))
        .unwrap();
    h.drain();

    // Other arguments, or another tool: the state does not open.
    for (name, args) in [
        ("echo", json!({"text": "y"})),
        ("a_first", json!({"text": "x"})),
    ] {
        let outs = call(
            &mut h,
            4,
            json!({"_meta": meta, "name": name, "arguments": args, "requestState": state}),
        );
        assert_eq!(error_code(&only(&outs)), -32602, "{name} {args}");
    }
}

#[test]
fn answers_must_fit_a_tool_call() {
    let mut h = H::new("tools-answers", tools_server(ServerConfig::default()));
    // Each refused answer ends its call with -32603 (docs/rules.md §20.4 rule 5).
    for bad in [
        json!([]),
        json!({}),
        json!({"content": {}}),
        json!({"content": [{"type": "nope"}]}),
        json!({"content": [], "isError": "yes"}),
        json!({"content": [], "resultType": "input_required"}),
        json!({"content": [], "_meta": 1}),
    ] {
        let e = tool_event(&call(&mut h, 2, json!({"name": "a_first"})));
        assert_eq!(
            h.server.respond_tool(e.handle, j(bad.clone())),
            Err(RespondError::InvalidResult),
            "{bad}"
        );
        assert_eq!(error_code(&only(&h.drain())), -32603, "{bad}");
    }
    let e = tool_event(&call(&mut h, 2, json!({"name": "a_first"})));
    assert_eq!(
        h.server
            .respond_result(e.handle, j(json!({"content": []})), None),
        Err(RespondError::WrongKind)
    );
    assert_eq!(error_code(&only(&h.drain())), -32603);
    let outs = h.call(
        STDIO,
        json!(3),
        "resources/read",
        json!({"uri": "notes://acme/index"}),
    );
    let Event::ReadResource(read) = events(&outs)[0].clone() else {
        panic!("{outs:?}")
    };
    assert_eq!(
        h.server.respond_tool_error(read.handle, "x"),
        Err(RespondError::WrongKind)
    );
    assert_eq!(error_code(&only(&h.drain())), -32603);
    let e = tool_event(&call(&mut h, 4, json!({"name": "a_first"})));
    // A fitting answer goes out.
    h.server
        .respond_tool(
            e.handle,
            j(json!({"content": [], "structuredContent": [1, 2]})),
        )
        .unwrap();
    assert_eq!(
        only(&h.drain())["result"]["structuredContent"],
        json!([1, 2])
    );
}

#[test]
fn registration_is_checked_and_never_mixed_with_host_methods() {
    let err = |text: &str| match OwnedTool::from_json_text(text) {
        Err(DecodeError::Params(p)) => p.field,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(
        err(r#"{"name":"has space","inputSchema":{"type":"object"}}"#),
        "name"
    );
    assert_eq!(
        err(r#"{"name":"a","inputSchema":{"type":"string"}}"#),
        "inputSchema.type"
    );

    let mut s = Server::new(ServerConfig::default()).unwrap();
    s.add_tool(plain("a")).unwrap();
    assert_eq!(s.add_tool(plain("a")), Err(RegisterError::Duplicate));
    assert_eq!(
        s.add_method("tools/list"),
        Err(RegisterError::ToolsByMethod)
    );
    assert_eq!(
        s.add_method("tools/call"),
        Err(RegisterError::ToolsByMethod)
    );
    assert_eq!(
        s.set_capability("tools", j(json!({}))),
        Err(RegisterError::ToolsByMethod)
    );
    s.add_method("acme/search").unwrap();
    assert!(s.tool("a").is_some());

    // Without tools, the host's own methods work as before, and then the registry is refused.
    assert!(s.remove_tool("a") && !s.remove_tool("a"));
    let mut h = H::new("tools-mixed", s);
    let v = h.ask("tools/list", json!({}));
    assert_eq!(error_code(&v), -32601);
    let d = h.ask("server/discover", json!({}));
    assert!(d["result"]["capabilities"].get("tools").is_none());
    h.server.add_method("tools/call").unwrap();
    assert_eq!(
        h.server.add_tool(plain("a")),
        Err(RegisterError::ToolsByMethod)
    );
    h.server.remove_method("tools/call");
    h.server.set_capability("tools", j(json!({}))).unwrap();
    assert_eq!(
        h.server.add_tool(plain("a")),
        Err(RegisterError::ToolsByMethod)
    );
    h.server.remove_capability("tools");
    h.server.add_tool(plain("a")).unwrap();
}

#[test]
fn tools_list_changed_reaches_listens_that_asked() {
    let mut h = H::new("tools-listen", tools_server(ServerConfig::default()));
    let outs = h.call(
        STDIO,
        json!("L"),
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let ack = only(&outs);
    assert_eq!(ack["params"]["notifications"]["toolsListChanged"], true);
    h.server.remove_tool("a_first");
    h.server.tools_list_changed();
    let v = only(&h.drain());
    assert_eq!(v["method"], "notifications/tools/list_changed");
    assert_eq!(
        v["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "L"
    );
}

#[test]
fn drain_gives_every_output_in_order() {
    let mut a = tools_server(ServerConfig::default());
    let mut b = tools_server(ServerConfig::default());
    let msgs = [
        request(json!(1), "tools/call", json!({"name": "a_first"})),
        request(json!(2), "tools/list", json!({})),
        request(json!(3), "tools/call", json!({"name": "nope"})),
    ];
    for m in &msgs {
        a.handle_message(m, 1, STDIO);
        b.handle_message(m, 1, STDIO);
    }
    let mut polled = vec![];
    while let Some(o) = a.poll_output() {
        polled.push(o);
    }
    let mut drained = vec![];
    b.drain(&mut drained);
    assert_eq!(drained.len(), 3);
    assert_eq!(polled, drained);
    assert!(!b.has_output());
    b.drain(&mut drained);
    assert_eq!(drained.len(), 3, "nothing more");
}

#[test]
fn application_error_codes_map_to_failures() {
    let m = |s: &'static str| Cow::Borrowed(s);
    assert_eq!(
        Failure::from_code(-32602, "bad"),
        Failure::InvalidParams(m("bad"))
    );
    assert_eq!(Failure::from_code(-32002, "gone"), Failure::NotFound);
    for reserved in [-32768, -32603, -32601, -32000, -32042] {
        assert_eq!(
            Failure::from_code(reserved, "x"),
            Failure::Internal,
            "{reserved}"
        );
    }
    for own in [-32769, -31999, 0, 1, 42] {
        assert_eq!(
            Failure::from_code(own, "x"),
            Failure::Application {
                code: own,
                message: m("x")
            },
            "{own}"
        );
    }
}

#[test]
fn app_cursors_are_the_cores_one_format() {
    let c = AppCursor {
        source: "kb://acme/fiches/{slug}".into(),
        offset: 50,
    };
    assert_eq!(AppCursor::decode(&c.encode()), Some(c));
    assert_eq!(AppCursor::decode("50"), None);
    assert_eq!(AppCursor::decode(r#"["kb://acme/fiches/{slug}",50]"#), None);
}
