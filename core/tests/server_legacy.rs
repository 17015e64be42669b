//! The dual-era server machine: 2025-11-25 clients over stdio (a connection is legacy after
//! `initialize`) and over Streamable HTTP sessions (`Mcp-Session-Id`), next to modern
//! stateless requests. Every legacy message is recorded under
//! `target/emitted-server-2025-11-25/<Type>/` for `tests/schema/validate_emitted.py` with the
//! 2025-11-25 schema, and checked here for what that schema's results do not have.

mod common;
mod server_harness;

use std::collections::HashMap;
use std::path::PathBuf;

use mcp_context::http::{HttpStart, RequestHead};
use mcp_context::jsonrpc::Message;
use mcp_context::messages::owned::{OwnedGetPromptResult, OwnedResourceContents};
use mcp_context::server::{
    BodyKind, CancelReason, Ctx, Event, Output, Server, ServerConfig, StreamId, Transmit,
};
use serde_json::{Value, json};
use server_harness::catalogue;

const LEGACY: &str = "2025-11-25";

fn emit(type_name: &str, tag: &str, bytes: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/emitted-server-2025-11-25")
        .join(type_name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{tag}.json")), bytes).unwrap();
}

fn result_type(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "ping" | "resources/subscribe" | "resources/unsubscribe" | "logging/setLevel" => {
            "EmptyResult"
        }
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        "tools/list" => "ListToolsResult",
        _ => return None,
    })
}

/// A legacy peer: sends raw 2025-11-25 messages, drains, and checks and records every
/// message the server writes to a legacy stream.
struct L {
    server: Server,
    now: u64,
    tag: &'static str,
    n: usize,
    methods: HashMap<String, String>,
    /// Streams whose messages are legacy (checked and recorded as such).
    legacy: Vec<u64>,
}

impl L {
    fn new(tag: &'static str, config: ServerConfig) -> Self {
        Self {
            server: catalogue(config),
            now: 1_000,
            tag,
            n: 0,
            methods: HashMap::new(),
            legacy: vec![],
        }
    }

    fn remember(&mut self, bytes: &[u8]) {
        if let Ok(v) = serde_json::from_slice::<Value>(bytes)
            && let (Some(id), Some(m)) = (v.get("id"), v.get("method").and_then(Value::as_str))
        {
            self.methods.insert(id.to_string(), m.to_string());
        }
    }

    fn send(&mut self, stream: u64, msg: Value) -> Vec<Output> {
        let bytes = serde_json::to_vec(&msg).unwrap();
        self.remember(&bytes);
        self.server
            .handle_message(&bytes, self.now, Ctx::stdio(StreamId(stream)));
        self.drain()
    }

    fn drain(&mut self) -> Vec<Output> {
        let mut outs = vec![];
        while let Some(o) = self.server.poll_output() {
            if let Output::Transmit(t) = &o
                && self.legacy.contains(&t.stream.0)
            {
                self.check(&t.bytes);
            }
            outs.push(o);
        }
        outs
    }

    /// One message written to a 2025-11-25 client.
    fn check(&mut self, bytes: &[u8]) -> Value {
        assert!(!bytes.contains(&b'\n'));
        Message::decode(bytes).expect("the crate's decoder accepts it");
        let v: Value = serde_json::from_slice(bytes).unwrap();
        self.n += 1;
        let tag = format!("{}-{}", self.tag, self.n);
        if let Some(method) = v.get("method").and_then(Value::as_str)
            && v.get("id").is_some()
        {
            // A server-to-client request (an input request of `input_required`).
            let name = match method {
                "elicitation/create" => "ElicitRequest",
                "sampling/createMessage" => "CreateMessageRequest",
                "roots/list" => "ListRootsRequest",
                other => panic!("unexpected request {other}"),
            };
            emit(name, &tag, bytes);
            emit("JSONRPCRequest", &tag, bytes);
            return v;
        }
        if let Some(method) = v.get("method").and_then(Value::as_str) {
            assert!(
                v["params"].get("_meta").is_none(),
                "no subscriptionId on legacy notifications: {v}"
            );
            let name = match method {
                "notifications/resources/updated" => "ResourceUpdatedNotification",
                "notifications/resources/list_changed" => "ResourceListChangedNotification",
                "notifications/prompts/list_changed" => "PromptListChangedNotification",
                "notifications/tools/list_changed" => "ToolListChangedNotification",
                "notifications/message" => "LoggingMessageNotification",
                "notifications/cancelled" => "CancelledNotification",
                other => panic!("unexpected notification {other}"),
            };
            emit(name, &tag, bytes);
            emit("JSONRPCNotification", &tag, bytes);
            return v;
        }
        if v.get("error").is_some() {
            emit("JSONRPCErrorResponse", &tag, bytes);
            return v;
        }
        let r = &v["result"];
        for k in ["resultType", "ttlMs", "cacheScope"] {
            assert!(r.get(k).is_none(), "{k} in a legacy result: {v}");
        }
        assert!(
            r["_meta"]
                .get("io.modelcontextprotocol/serverInfo")
                .is_none(),
            "{v}"
        );
        emit("JSONRPCResultResponse", &tag, bytes);
        let method = self.methods.get(&v["id"].to_string()).cloned();
        if let Some(name) = method.as_deref().and_then(result_type) {
            emit(name, &tag, &serde_json::to_vec(r).unwrap());
        }
        v
    }
}

fn req(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn init(id: u64, version: &str) -> Value {
    req(
        id,
        "initialize",
        json!({"protocolVersion": version, "capabilities": {"roots": {"listChanged": true}},
               "clientInfo": {"name": "legacy-client", "version": "1.0.0"}}),
    )
}

fn only(outs: &[Output]) -> Value {
    let t: Vec<&Transmit> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Transmit(t) => Some(t),
            Output::Event(_) => None,
        })
        .collect();
    assert_eq!(t.len(), 1, "{outs:#?}");
    serde_json::from_slice(&t[0].bytes).unwrap()
}

fn one_event(outs: &[Output]) -> Event {
    let e = events(outs);
    assert_eq!(e.len(), 1, "{outs:#?}");
    e[0].clone()
}

fn events(outs: &[Output]) -> Vec<Event> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Event(e) => Some(e.clone()),
            Output::Transmit(_) => None,
        })
        .collect()
}

#[test]
fn stdio_session_from_initialize_to_updates() {
    let mut l = L::new("stdio", ServerConfig::default());
    l.legacy.push(0);
    // initialize: the version echoed, capabilities from the registry (and `logging`, which
    // the core serves to legacy clients), serverInfo in the body.
    let v = only(&l.send(0, init(1, LEGACY)));
    let r = &v["result"];
    assert_eq!(r["protocolVersion"], LEGACY);
    assert_eq!(
        r["capabilities"],
        json!({"resources": {"subscribe": true, "listChanged": true},
               "prompts": {"listChanged": true}, "completions": {}, "logging": {}})
    );
    assert_eq!(r["serverInfo"]["name"], "mcp-context");
    assert!(
        l.send(
            0,
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .is_empty()
    );
    assert_eq!(
        only(&l.send(0, req(2, "ping", json!({}))))["result"],
        json!({})
    );

    // The catalogue through the modern code, shaped for 2025-11-25.
    let list = only(&l.send(
        0,
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
    ));
    let uris: Vec<&str> = list["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert!(uris.contains(&"test://static-text"), "{list}");
    let t = only(&l.send(0, req(4, "resources/templates/list", json!({}))));
    assert_eq!(
        t["result"]["resourceTemplates"][0]["uriTemplate"],
        "notes://{project}/{id}"
    );
    let read = only(&l.send(
        0,
        req(5, "resources/read", json!({"uri": "test://static-text"})),
    ));
    assert_eq!(read["result"]["contents"][0]["text"], "hello");
    // A template read goes to the application, and its answer is shaped too.
    let outs = l.send(
        0,
        req(6, "resources/read", json!({"uri": "notes://acme/1"})),
    );
    let Event::ReadResource(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    let c = OwnedResourceContents::text(&ev.uri, Some("text/plain"), "note 1");
    l.server.respond_read(ev.handle, vec![c]).unwrap();
    let v = only(&l.drain());
    assert_eq!(v["result"]["contents"][0]["text"], "note 1");
    // A missing resource is -32002, as 2025-11-25 clients expect.
    let nf = only(&l.send(
        0,
        req(7, "resources/read", json!({"uri": "test://missing"})),
    ));
    assert_eq!(nf["error"]["code"], -32002);
    assert_eq!(nf["error"]["data"]["uri"], "test://missing");
    // Prompts and completion.
    let p = only(&l.send(0, req(8, "prompts/list", json!({}))));
    assert_eq!(p["result"]["prompts"][0]["name"], "review_note");
    let outs = l.send(
        0,
        req(
            9,
            "prompts/get",
            json!({"name": "review_note",
            "arguments": {"project": "acme", "id": "1"}}),
        ),
    );
    let Event::GetPrompt(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    l.server
        .respond_prompt(ev.handle, OwnedGetPromptResult::default())
        .unwrap();
    assert_eq!(only(&l.drain())["result"]["messages"], json!([]));
    let c = only(&l.send(
        0,
        req(
            10,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review_note"},
            "argument": {"name": "tone", "value": "b"}}),
        ),
    ));
    assert_eq!(
        c["result"]["completion"]["values"],
        json!(["brief", "blunt"])
    );
    // Modern-only methods do not exist in this session.
    let d = only(&l.send(0, req(11, "server/discover", json!({}))));
    assert_eq!(d["error"]["code"], -32601);

    // Subscriptions: unsolicited updates for subscribed URIs only, no subscriptionId.
    let s = only(&l.send(
        0,
        req(
            12,
            "resources/subscribe",
            json!({"uri": "test://static-text"}),
        ),
    ));
    assert_eq!(s["result"], json!({}));
    l.server.resource_updated("test://static-binary");
    assert!(l.drain().is_empty());
    l.server.resource_updated("test://static-text");
    let n = only(&l.drain());
    assert_eq!(
        n,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "test://static-text"}})
    );
    l.server.resources_list_changed();
    assert_eq!(
        only(&l.drain())["method"],
        "notifications/resources/list_changed"
    );
    l.server.prompts_list_changed();
    assert_eq!(
        only(&l.drain())["method"],
        "notifications/prompts/list_changed"
    );
    only(&l.send(
        0,
        req(
            13,
            "resources/unsubscribe",
            json!({"uri": "test://static-text"}),
        ),
    ));
    l.server.resource_updated("test://static-text");
    assert!(l.drain().is_empty());

    // Cancellation is the modern code's: the event is cancelled, nothing is answered.
    let outs = l.send(
        0,
        req(14, "resources/read", json!({"uri": "notes://acme/2"})),
    );
    let Event::ReadResource(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    let outs = l.send(
        0,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
               "params": {"requestId": 14, "reason": "user"}}),
    );
    assert!(matches!(
        events(&outs).as_slice(),
        [Event::Cancelled { handle, reason: CancelReason::Client }] if *handle == ev.handle
    ));

    // Another connection stays modern, on the same machine.
    let modern = server_harness::request(json!(1), "resources/list", json!({}));
    l.server
        .handle_message(&modern, l.now, Ctx::stdio(StreamId(1)));
    let v = only(&l.drain());
    assert_eq!(v["result"]["resultType"], "complete");
    assert!(v["result"]["ttlMs"].is_u64());
    // A legacy request on a modern connection gets the modern answer.
    let v = only(&l.send(1, req(2, "ping", json!({}))));
    assert_eq!(v["error"]["code"], -32601);
    // The transport closes the legacy connection: nothing more is pushed to it.
    l.server.stream_closed(StreamId(0));
    l.server.resources_list_changed();
    assert!(l.drain().is_empty());
}

#[test]
fn version_negotiation() {
    let mut l = L::new("versions", ServerConfig::default());
    l.legacy.extend([0, 1, 2]);
    for (stream, asked, answered) in [
        (0, "2025-11-25", "2025-11-25"),
        (1, "2025-06-18", "2025-06-18"),
        (2, "2024-11-05", "2025-11-25"),
    ] {
        let v = only(&l.send(stream, init(1, asked)));
        assert_eq!(v["result"]["protocolVersion"], answered, "{asked}");
    }
    let v = only(&l.send(3, req(1, "initialize", json!({"capabilities": {}}))));
    assert_eq!(v["error"]["code"], -32602);
}

const BOTH: &str = "application/json, text/event-stream";

fn head<'a>(method: &'a str, session: Option<&'a str>) -> RequestHead<'a> {
    RequestHead {
        method,
        path: "/mcp",
        host: Some("localhost:8080"),
        content_type: Some("application/json"),
        accept: Some(BOTH),
        protocol_version: session.map(|_| LEGACY),
        session_id: session,
        ..RequestHead::default()
    }
}

impl L {
    /// One HTTP request; a complete JSON answer is checked as legacy when `legacy`.
    fn http(
        &mut self,
        head: &RequestHead<'_>,
        body: &Value,
        stream: u64,
        auth: u64,
    ) -> (HttpStart, Option<Value>) {
        let bytes = if body.is_null() {
            vec![]
        } else {
            serde_json::to_vec(body).unwrap()
        };
        self.remember(&bytes);
        let start =
            self.server
                .handle_http(head, &bytes, self.now, Ctx::http(StreamId(stream), auth));
        let v = match &start {
            HttpStart::Respond(r) if !r.body.is_empty() && head.session_id.is_some() => {
                Some(self.check(&r.body.clone()))
            }
            HttpStart::Respond(r) if !r.body.is_empty() => {
                Some(serde_json::from_slice(&r.body).unwrap())
            }
            _ => None,
        };
        (start, v)
    }
}

fn status(start: &HttpStart) -> u16 {
    match start {
        HttpStart::Respond(r) => r.status,
        other => panic!("not a complete answer: {other:?}"),
    }
}

#[test]
fn http_session_next_to_stateless_modern() {
    let mut l = L::new("http", ServerConfig::default());
    // initialize without a session: 200, InitializeResult, Mcp-Session-Id.
    let (start, v) = l.http(&head("POST", None), &init(1, LEGACY), 10, 0);
    let HttpStart::Respond(r) = &start else {
        panic!("{start:?}")
    };
    assert_eq!(r.status, 200);
    let sid = r.header("Mcp-Session-Id").expect("session id").to_string();
    assert_eq!(sid.len(), 22);
    let v = v.unwrap();
    assert_eq!(v["result"]["protocolVersion"], LEGACY);
    l.n += 1;
    emit(
        "InitializeResult",
        "http-init",
        &serde_json::to_vec(&v["result"]).unwrap(),
    );
    assert_eq!(l.server.open_sessions(), 1);
    let s = Some(sid.as_str());

    // notifications/initialized: 202.
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (start, _) = l.http(&head("POST", s), &note, 11, 0);
    assert_eq!(status(&start), 202);
    // A list, in the legacy shape; a missing resource is -32002 with HTTP 200.
    let (start, v) = l.http(
        &head("POST", s),
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}),
        12,
        0,
    );
    assert_eq!(status(&start), 200);
    assert!(v.unwrap()["result"]["resources"].is_array());
    let (start, v) = l.http(
        &head("POST", s),
        &req(3, "resources/read", json!({"uri": "test://missing"})),
        13,
        0,
    );
    assert_eq!(status(&start), 200);
    assert_eq!(v.unwrap()["error"]["code"], -32002);
    // An unknown method in a session: -32601 in a 200 (2025-11-25 clients read the body).
    let (start, v) = l.http(&head("POST", s), &req(4, "tools/list", json!({})), 14, 0);
    assert_eq!(status(&start), 200);
    assert_eq!(v.unwrap()["error"]["code"], -32601);

    // A read the application answers comes through the stream, shaped.
    l.legacy.push(15);
    let (start, _) = l.http(
        &head("POST", s),
        &req(5, "resources/read", json!({"uri": "notes://acme/1"})),
        15,
        0,
    );
    assert!(matches!(start, HttpStart::Stream(StreamId(15))));
    let outs = l.drain();
    let Event::ReadResource(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    let c = OwnedResourceContents::text(&ev.uri, None, "n1");
    l.server.respond_read(ev.handle, vec![c]).unwrap();
    let v = only(&l.drain());
    assert_eq!(v["result"]["contents"][0]["text"], "n1");

    // GET opens the session's event stream; a second one conflicts.
    let (start, _) = l.http(&head("GET", s), &Value::Null, 20, 0);
    let HttpStart::EventStream { stream, response } = &start else {
        panic!("{start:?}")
    };
    assert_eq!(*stream, StreamId(20));
    assert_eq!(response.status, 200);
    assert_eq!(response.header("Content-Type"), Some("text/event-stream"));
    assert_eq!(response.header("Mcp-Session-Id"), Some(sid.as_str()));
    l.legacy.push(20);
    let (start, _) = l.http(&head("GET", s), &Value::Null, 21, 0);
    assert_eq!(status(&start), 409);
    // Subscribe, then updates and list changes arrive on the GET stream as SSE.
    let (_, v) = l.http(
        &head("POST", s),
        &req(
            6,
            "resources/subscribe",
            json!({"uri": "test://static-text"}),
        ),
        16,
        0,
    );
    assert_eq!(v.unwrap()["result"], json!({}));
    l.server.resource_updated("test://static-text");
    l.server.prompts_list_changed();
    let outs = l.drain();
    let t: Vec<&Transmit> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Transmit(t) => Some(t),
            Output::Event(_) => None,
        })
        .collect();
    assert_eq!(t.len(), 2, "{outs:?}");
    for t in &t {
        assert_eq!(
            (t.stream, t.kind, t.end_of_stream),
            (StreamId(20), BodyKind::Sse, false)
        );
    }

    // Modern requests on the same endpoint stay stateless and modern.
    let modern = server_harness::request(json!(1), "resources/list", json!({}));
    let mh = RequestHead {
        protocol_version: Some("2026-07-28"),
        mcp_method: Some("resources/list"),
        ..head("POST", None)
    };
    let start = l
        .server
        .handle_http(&mh, &modern, l.now, Ctx::http(StreamId(30), 0));
    let HttpStart::Respond(r) = start else {
        panic!()
    };
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["result"]["resultType"], "complete");
    assert!(r.header("Mcp-Session-Id").is_none());
    // GET and DELETE without a session: 405.
    let (start, _) = l.http(&head("GET", None), &Value::Null, 31, 0);
    assert_eq!(status(&start), 405);
    // Unknown session, another caller's session: 404.
    let (start, _) = l.http(
        &head("POST", Some("nope")),
        &req(7, "ping", json!({})),
        32,
        0,
    );
    assert_eq!(status(&start), 404);
    let (start, _) = l.http(&head("POST", s), &req(8, "ping", json!({})), 33, 7);
    assert_eq!(status(&start), 404);
    // DELETE ends it.
    let (start, _) = l.http(&head("DELETE", s), &Value::Null, 34, 0);
    assert_eq!(status(&start), 200);
    assert_eq!(l.server.open_sessions(), 0);
    let (start, _) = l.http(&head("POST", s), &req(9, "ping", json!({})), 35, 0);
    assert_eq!(status(&start), 404);
    l.server.resources_list_changed();
    assert!(l.drain().is_empty(), "nothing for an ended session");
}

#[test]
fn sessions_are_bounded_in_number_and_idle_time() {
    let config = ServerConfig {
        max_sessions: 2,
        session_idle_ms: 10_000,
        ..ServerConfig::default()
    };
    let mut l = L::new("http-bounds", config);
    let mut ids = vec![];
    for i in 0..2 {
        let (start, _) = l.http(&head("POST", None), &init(1, LEGACY), i, 0);
        let HttpStart::Respond(r) = start else {
            panic!()
        };
        let id = r.header("Mcp-Session-Id").unwrap().to_string();
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (start, _) = l.http(&head("POST", Some(&id)), &note, 10 + i, 0);
        assert_eq!(status(&start), 202);
        ids.push(id);
    }
    assert_ne!(ids[0], ids[1]);
    let (start, v) = l.http(&head("POST", None), &init(1, LEGACY), 3, 0);
    assert_eq!(status(&start), 503);
    assert_eq!(v.unwrap()["error"]["code"], -32603);
    // One session stays busy, the other goes idle and ends.
    l.now += 6_000;
    let (start, _) = l.http(
        &head("POST", Some(&ids[0])),
        &req(2, "ping", json!({})),
        4,
        0,
    );
    assert_eq!(status(&start), 200);
    l.now += 6_000;
    let (start, _) = l.http(
        &head("POST", Some(&ids[1])),
        &req(2, "ping", json!({})),
        5,
        0,
    );
    assert_eq!(status(&start), 404);
    assert_eq!(l.server.open_sessions(), 1);
    let (start, _) = l.http(&head("POST", None), &init(1, LEGACY), 6, 0);
    assert_eq!(status(&start), 200);
}

#[test]
fn legacy_off_is_modern_only() {
    let config = ServerConfig {
        legacy_sessions: false,
        ..ServerConfig::default()
    };
    let mut l = L::new("off", config);
    let v = only(&l.send(0, init(1, LEGACY)));
    assert_eq!(v["error"]["code"], -32601);
    assert_eq!(v["error"]["data"]["supported"], json!(["2026-07-28"]));
    let (start, _) = l.http(&head("GET", Some("x")), &Value::Null, 1, 0);
    let HttpStart::Respond(r) = start else {
        panic!()
    };
    assert_eq!((r.status, r.header("Allow")), (405, Some("POST")));
}

#[test]
fn extension_methods_serve_legacy_clients_too() {
    use mcp_context::messages::owned::OwnedJson;
    let mut l = L::new("ext", ServerConfig::default());
    l.legacy.push(0);
    l.server.add_method("tools/list").unwrap();
    l.server
        .set_capability(
            "tools",
            OwnedJson::parse(r#"{"listChanged":true}"#).unwrap(),
        )
        .unwrap();
    let v = only(&l.send(0, init(1, LEGACY)));
    assert_eq!(
        v["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    let outs = l.send(0, req(2, "tools/list", json!({})));
    let Event::Request(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    assert_eq!(ev.method, "tools/list");
    let result = OwnedJson::parse(r#"{"tools":[]}"#).unwrap();
    l.server
        .respond_result(
            ev.handle,
            result,
            Some(mcp_context::server::CacheHint::public(5)),
        )
        .unwrap();
    let v = only(&l.drain());
    assert_eq!(v["result"], json!({"tools": []}));
}

#[test]
fn registry_tools_serve_legacy_clients_in_their_shape() {
    use mcp_context::messages::owned::{FromJsonText, OwnedJson, OwnedTool};
    let mut l = L::new("tools", ServerConfig::default());
    l.legacy.push(0);
    for t in [
        r#"{"name":"any_output","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}"#,
        r#"{"name":"object_output","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}"#,
    ] {
        l.server
            .add_tool(OwnedTool::from_json_text(t).unwrap())
            .unwrap();
    }
    let v = only(&l.send(0, init(1, LEGACY)));
    assert_eq!(
        v["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    // 2025-11-25 output schemas are object schemas: another one is not listed.
    let v = only(&l.send(0, req(2, "tools/list", json!({}))));
    let tools = v["result"]["tools"].as_array().unwrap();
    assert!(tools[0].get("outputSchema").is_none(), "{v}");
    assert_eq!(tools[1]["outputSchema"], json!({"type": "object"}));
    // A call: the event, then a result without the modern members; a structuredContent
    // that is not an object is dropped (the text content stays).
    let Event::CallTool(ev) =
        one_event(&l.send(0, req(3, "tools/call", json!({"name": "any_output"}))))
    else {
        panic!()
    };
    let result = r#"{"content":[{"type":"text","text":"[1,2]"}],"structuredContent":[1,2]}"#;
    l.server
        .respond_tool(ev.handle, OwnedJson::parse(result).unwrap())
        .unwrap();
    let v = only(&l.drain());
    assert_eq!(
        v["result"],
        json!({"content": [{"type": "text", "text": "[1,2]"}]})
    );
    let Event::CallTool(ev) =
        one_event(&l.send(0, req(4, "tools/call", json!({"name": "object_output"}))))
    else {
        panic!()
    };
    l.server.respond_tool_error(ev.handle, "boom").unwrap();
    let v = only(&l.drain());
    assert_eq!(v["result"]["isError"], true);
    let v = only(&l.send(0, req(5, "tools/call", json!({"name": "nope"}))));
    assert_eq!(v["error"]["code"], -32602);
    l.server.tools_list_changed();
    let v = only(&l.drain());
    assert_eq!(v["method"], "notifications/tools/list_changed");
}

#[test]
fn a_modern_claim_is_modern_even_for_initialize() {
    let mut l = L::new("claim", ServerConfig::default());
    // The official conformance suite's probe: `initialize` with modern `_meta` and headers.
    let body = server_harness::request(json!(500), "initialize", json!({}));
    let h = RequestHead {
        protocol_version: Some("2026-07-28"),
        mcp_method: Some("initialize"),
        ..head("POST", None)
    };
    let start = l
        .server
        .handle_http(&h, &body, l.now, Ctx::http(StreamId(1), 0));
    let HttpStart::Respond(r) = start else {
        panic!()
    };
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!((r.status, v["error"]["code"].as_i64()), (404, Some(-32601)));
    assert!(r.header("Mcp-Session-Id").is_none());
    assert_eq!(l.server.open_sessions(), 0);
    // A modern MCP-Protocol-Version header is a claim too, without `_meta`.
    let bare = serde_json::to_vec(&init(501, LEGACY)).unwrap();
    let start = l
        .server
        .handle_http(&h, &bare, l.now, Ctx::http(StreamId(2), 0));
    assert_eq!(status(&start), 404);
    assert_eq!(l.server.open_sessions(), 0);
    // On a legacy stdio connection, a request with modern `_meta` gets the modern shape, and
    // the legacy requests around it keep theirs.
    l.legacy.push(0);
    only(&l.send(0, init(1, LEGACY)));
    let modern = server_harness::request(json!(2), "resources/list", json!({}));
    l.server
        .handle_message(&modern, l.now, Ctx::stdio(StreamId(0)));
    let mut outs = vec![];
    while let Some(o) = l.server.poll_output() {
        outs.push(o);
    }
    let v = only(&outs);
    assert_eq!(v["result"]["resultType"], "complete");
    let v = only(&l.send(0, req(3, "resources/list", json!({}))));
    assert!(v["result"].get("resultType").is_none());
}

// ---- input_required as server-to-client requests; logging (docs/rules.md §17.3 items 12, 13)

/// A machine that seals `requestState` and serves `tools/call` (the host's method).
fn bridge_server(tag: &'static str) -> L {
    use mcp_context::messages::owned::OwnedJson;
    use mcp_context::server::SealingKey;
    let config = ServerConfig {
        state_keys: vec![SealingKey {
            id: 1,
            secret: vec![7; 32],
        }],
        ..ServerConfig::default()
    };
    let mut l = L::new(tag, config);
    l.server.add_method("tools/call").unwrap();
    l.server
        .set_capability("tools", OwnedJson::parse("{}").unwrap())
        .unwrap();
    l
}

fn init_with(id: u64, capabilities: Value) -> Value {
    req(
        id,
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": capabilities,
               "clientInfo": {"name": "legacy-client", "version": "1.0.0"}}),
    )
}

fn input(method: &str, params: Value) -> mcp_context::messages::owned::OwnedInputRequest {
    use mcp_context::jsonrpc::Method;
    use mcp_context::messages::owned::{OwnedInputRequest, OwnedJson};
    let method = match method {
        "elicitation/create" => Method::ElicitationCreate,
        "sampling/createMessage" => Method::SamplingCreateMessage,
        _ => Method::RootsList,
    };
    OwnedInputRequest {
        method,
        params: Some(OwnedJson::parse(params.to_string()).unwrap()),
    }
}

fn elicit() -> mcp_context::messages::owned::OwnedInputRequest {
    input(
        "elicitation/create",
        json!({"message": "Your name?", "requestedSchema": {"type": "object",
               "properties": {"name": {"type": "string"}}, "required": ["name"]}}),
    )
}

fn sample() -> mcp_context::messages::owned::OwnedInputRequest {
    input(
        "sampling/createMessage",
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}],
               "maxTokens": 10}),
    )
}

fn transmits(outs: &[Output]) -> Vec<(Transmit, Value)> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Transmit(t) => Some((t.clone(), serde_json::from_slice(&t.bytes).unwrap())),
            Output::Event(_) => None,
        })
        .collect()
}

#[test]
fn input_required_on_stdio_becomes_client_requests_then_the_retry() {
    use mcp_context::messages::LoggingLevel;
    use mcp_context::messages::owned::OwnedJson;
    use mcp_context::server::{InputRequired, Retry};
    let mut l = bridge_server("bridge-stdio");
    l.legacy.push(0);
    let v = only(&l.send(0, init_with(1, json!({"elicitation": {}, "sampling": {}}))));
    assert_eq!(v["result"]["capabilities"]["logging"], json!({}));
    let call = req(
        2,
        "tools/call",
        json!({"name": "greet", "arguments": {"x": 1}, "_meta": {"progressToken": "p"}}),
    );
    let outs = l.send(0, call.clone());
    let Event::Request(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    // The capabilities `initialize` declared are the request's.
    assert!(ev.capabilities.elicitation_form && ev.capabilities.sampling);
    assert!(!ev.capabilities.roots && !ev.capabilities.elicitation_url);
    assert!(ev.retry.is_none());
    // A log line tied to the request goes on its stream (no level set: every level).
    let data = OwnedJson::parse(r#""starting""#).unwrap();
    assert_eq!(
        l.server
            .log_for(ev.handle, LoggingLevel::Debug, Some("tool"), &data),
        Ok(true)
    );
    let v = only(&l.drain());
    assert_eq!(v["method"], "notifications/message");
    assert_eq!(
        v["params"],
        json!({"level": "debug", "logger": "tool", "data": "starting"})
    );
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests: vec![("name".into(), elicit()), ("llm".into(), sample())],
                state: Some(b"round-1".to_vec()),
            },
        )
        .unwrap();
    let sent = transmits(&l.drain());
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(sent[0].1["method"], "elicitation/create");
    assert_eq!(sent[0].1["params"]["message"], "Your name?");
    assert_eq!(sent[1].1["method"], "sampling/createMessage");
    let (e_id, s_id) = (sent[0].1["id"].clone(), sent[1].1["id"].clone());
    assert_ne!(e_id, s_id);
    // An answer with an unknown id, and one from another (legacy) connection, change nothing.
    let stray = json!({"jsonrpc": "2.0", "id": 999, "result": {}});
    assert!(l.send(0, stray).is_empty());
    l.legacy.push(5);
    l.send(5, init_with(1, json!({"elicitation": {}})));
    let elsewhere = json!({"jsonrpc": "2.0", "id": e_id, "result": {"action": "decline"}});
    assert!(l.send(5, elsewhere).is_empty());
    // The elicitation is answered; the sampling fails: the retry comes after both.
    let accepted = json!({"action": "accept", "content": {"name": "Ada"}});
    let outs = l.send(0, json!({"jsonrpc": "2.0", "id": e_id, "result": accepted}));
    assert!(outs.is_empty(), "{outs:?}");
    let refused = json!({"jsonrpc": "2.0", "id": s_id,
                         "error": {"code": -1, "message": "User rejected sampling"}});
    let outs = l.send(0, refused);
    let Event::Request(retry) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    assert_eq!(retry.method, "tools/call");
    assert!(retry.progress, "the progress token is kept");
    assert_eq!(
        retry.params.as_raw().get("name").unwrap().as_text(),
        "\"greet\""
    );
    let Retry {
        state,
        input_responses,
    } = retry.retry.clone().expect("a retry");
    assert_eq!(state.as_deref(), Some(&b"round-1"[..]));
    assert_eq!(input_responses.len(), 1, "the error answer is left out");
    assert_eq!(input_responses[0].0, "name");
    let got: Value = serde_json::from_str(input_responses[0].1.as_raw().as_text()).unwrap();
    assert_eq!(got, accepted);
    // The final answer goes to the original request id, in the 2025-11-25 shape.
    let result = OwnedJson::parse(r#"{"content":[{"type":"text","text":"Hello, Ada!"}]}"#);
    l.server
        .respond_result(retry.handle, result.unwrap(), None)
        .unwrap();
    let v = only(&l.drain());
    assert_eq!(v["id"], 2);
    assert_eq!(v["result"]["content"][0]["text"], "Hello, Ada!");
    // A late duplicate answer is ignored.
    let late = json!({"jsonrpc": "2.0", "id": e_id, "result": accepted});
    assert!(l.send(0, late).is_empty());
    // A modern request on the legacy connection gets the modern `input_required` result.
    l.legacy.retain(|s| *s != 0);
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}});
    let outs = l.send(0, req(3, "tools/call", json!({"name": "t", "_meta": meta})));
    let Event::Request(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    let requests = vec![("name".into(), elicit())];
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests,
                state: None,
            },
        )
        .unwrap();
    let outs = l.drain();
    let t = transmits(&outs);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].1["id"], 3);
    assert_eq!(t[0].1["result"]["resultType"], "input_required");
    assert_eq!(l.server.pending_requests(), 0);
    assert_eq!(l.server.poll_timeout(), None);
}

#[test]
fn input_required_on_a_read_reruns_the_read() {
    use mcp_context::messages::owned::OwnedResourceContents;
    use mcp_context::server::InputRequired;
    let mut l = bridge_server("bridge-read");
    l.legacy.push(0);
    l.send(0, init_with(1, json!({"roots": {}})));
    let outs = l.send(
        0,
        req(2, "resources/read", json!({"uri": "notes://acme/1"})),
    );
    let Event::ReadResource(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    assert!(ev.capabilities.roots);
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests: vec![("roots".into(), input("roots/list", json!({})))],
                state: None,
            },
        )
        .unwrap();
    let sent = transmits(&l.drain());
    assert_eq!(sent[0].1["method"], "roots/list");
    let roots = json!({"roots": [{"uri": "file:///work"}]});
    let answer = json!({"jsonrpc": "2.0", "id": sent[0].1["id"], "result": roots});
    let Event::ReadResource(retry) = one_event(&l.send(0, answer)) else {
        panic!()
    };
    assert_eq!(retry.uri, "notes://acme/1");
    let r = retry.retry.expect("a retry");
    assert_eq!(
        r.state.as_deref(),
        Some(&b""[..]),
        "an empty state is sealed"
    );
    assert_eq!(r.input_responses[0].0, "roots");
    let text = OwnedResourceContents::text("notes://acme/1", None, "note 1");
    l.server.respond_read(retry.handle, vec![text]).unwrap();
    let v = only(&l.drain());
    assert_eq!(v["id"], 2);
    assert_eq!(v["result"]["contents"][0]["text"], "note 1");
}

#[test]
fn input_required_needs_the_capabilities_initialize_declared() {
    use mcp_context::server::{InputRequired, RespondError};
    let mut l = bridge_server("bridge-caps");
    l.legacy.push(0);
    l.send(0, init_with(1, json!({"elicitation": {}})));
    let outs = l.send(0, req(2, "tools/call", json!({"name": "t"})));
    let Event::Request(ev) = one_event(&outs) else {
        panic!()
    };
    let r = l.server.respond_input_required(
        ev.handle,
        InputRequired {
            requests: vec![("llm".into(), sample())],
            state: None,
        },
    );
    assert_eq!(r, Err(RespondError::ClientLacksCapability));
    let v = only(&l.drain());
    assert_eq!(v["id"], 2);
    assert_eq!(v["error"]["code"], -32021);
    assert_eq!(
        v["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
}

#[test]
fn unanswered_client_requests_time_out_and_cancellation_cleans_up() {
    use mcp_context::server::InputRequired;
    let mut l = bridge_server("bridge-timeout");
    l.legacy.push(0);
    l.send(0, init_with(1, json!({"elicitation": {}})));
    let ask = |l: &mut L, id: u64| {
        let outs = l.send(0, req(id, "tools/call", json!({"name": "t"})));
        let Event::Request(ev) = one_event(&outs) else {
            panic!()
        };
        l.server
            .respond_input_required(
                ev.handle,
                InputRequired {
                    requests: vec![("name".into(), elicit())],
                    state: None,
                },
            )
            .unwrap();
        transmits(&l.drain())[0].1["id"].clone()
    };
    // Time: the deadline is `request_timeout_ms` after the answer.
    let sent = ask(&mut l, 2);
    let deadline = l.server.poll_timeout().expect("a deadline");
    assert_eq!(deadline, l.now + ServerConfig::default().request_timeout_ms);
    l.server.handle_timeout(deadline - 1);
    assert!(l.drain().is_empty());
    l.server.handle_timeout(deadline);
    let out = transmits(&l.drain());
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0].1["method"], "notifications/cancelled");
    assert_eq!(out[0].1["params"]["requestId"], sent);
    assert_eq!(out[1].1["id"], 2);
    assert_eq!(out[1].1["error"]["code"], -32603);
    assert_eq!(l.server.poll_timeout(), None);
    let late = json!({"jsonrpc": "2.0", "id": sent, "result": {"action": "cancel"}});
    assert!(l.send(0, late).is_empty());

    // The client cancels its request: the server cancels its own, sends nothing more.
    let sent = ask(&mut l, 3);
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 3, "reason": "user"}});
    let v = only(&l.send(0, cancel));
    assert_eq!(v["method"], "notifications/cancelled");
    assert_eq!(v["params"]["requestId"], sent);
    let late = json!({"jsonrpc": "2.0", "id": sent, "result": {"action": "cancel"}});
    assert!(l.send(0, late).is_empty());
    assert_eq!(l.server.poll_timeout(), None);

    // The connection closes: everything waiting on it goes, silently.
    ask(&mut l, 4);
    l.server.stream_closed(StreamId(0));
    assert!(l.drain().is_empty());
    assert_eq!(l.server.poll_timeout(), None);
}

#[test]
fn client_requests_are_bounded_per_connection() {
    use mcp_context::server::InputRequired;
    let mut l = bridge_server("bridge-bound");
    l.legacy.push(0);
    l.send(0, init_with(1, json!({"elicitation": {}})));
    let many: Vec<_> = (0..40).map(|i| (format!("k{i}"), elicit())).collect();
    let mut answers = vec![];
    for id in [2, 3] {
        let outs = l.send(0, req(id, "tools/call", json!({"name": "t"})));
        let Event::Request(ev) = one_event(&outs) else {
            panic!()
        };
        l.server
            .respond_input_required(
                ev.handle,
                InputRequired {
                    requests: many.clone(),
                    state: None,
                },
            )
            .unwrap();
        answers.push(transmits(&l.drain()));
    }
    assert_eq!(answers[0].len(), 40);
    // 40 + 40 > 64: the second request fails instead of asking.
    assert_eq!(answers[1].len(), 1);
    assert_eq!(answers[1][0].1["id"], 3);
    assert_eq!(answers[1][0].1["error"]["code"], -32603);
}

#[test]
fn input_required_in_an_http_session_goes_on_the_post_stream() {
    use mcp_context::messages::LoggingLevel;
    use mcp_context::messages::owned::OwnedJson;
    use mcp_context::server::InputRequired;
    let mut l = bridge_server("bridge-http");
    let (start, _) = l.http(
        &head("POST", None),
        &init_with(1, json!({"elicitation": {}})),
        10,
        0,
    );
    let HttpStart::Respond(r) = &start else {
        panic!()
    };
    let sid = r.header("Mcp-Session-Id").unwrap().to_string();
    let s = Some(sid.as_str());
    l.legacy.extend([20, 30]);
    // The session's event stream gets log lines not tied to a request.
    let (start, _) = l.http(&head("GET", s), &Value::Null, 30, 0);
    assert!(matches!(start, HttpStart::EventStream { .. }), "{start:?}");
    let (start, _) = l.http(
        &head("POST", s),
        &req(2, "tools/call", json!({"name": "greet"})),
        20,
        0,
    );
    assert!(
        matches!(start, HttpStart::Stream(StreamId(20))),
        "{start:?}"
    );
    let Event::Request(ev) = one_event(&l.drain()) else {
        panic!()
    };
    let data = OwnedJson::parse(r#"{"step":1}"#).unwrap();
    assert_eq!(l.server.log(LoggingLevel::Info, None, &data), 1);
    let t = transmits(&l.drain());
    assert_eq!((t[0].0.stream, t[0].0.kind), (StreamId(30), BodyKind::Sse));
    assert_eq!(t[0].1["method"], "notifications/message");
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests: vec![("name".into(), elicit())],
                state: None,
            },
        )
        .unwrap();
    let t = transmits(&l.drain());
    assert_eq!(t.len(), 1);
    let (first, ask) = &t[0];
    assert_eq!(first.stream, StreamId(20));
    assert_eq!(
        (first.kind, first.http_status, first.end_of_stream),
        (BodyKind::Sse, 200, false)
    );
    assert_eq!(ask["method"], "elicitation/create");
    // The client answers in a POST of its own: 202, and the retry reaches the host.
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"],
                        "result": {"action": "accept", "content": {"name": "Ada"}}});
    let (start, _) = l.http(&head("POST", s), &answer, 21, 0);
    assert_eq!(status(&start), 202);
    let Event::Request(retry) = one_event(&l.drain()) else {
        panic!()
    };
    assert_eq!(retry.retry.unwrap().input_responses[0].0, "name");
    let result = OwnedJson::parse(r#"{"content":[{"type":"text","text":"Hello, Ada!"}]}"#);
    l.server
        .respond_result(retry.handle, result.unwrap(), None)
        .unwrap();
    let t = transmits(&l.drain());
    let (last, v) = &t[0];
    assert_eq!(
        (last.stream, last.kind, last.end_of_stream),
        (StreamId(20), BodyKind::Sse, true)
    );
    assert_eq!(v["id"], 2);
    assert!(v["result"]["content"].is_array());

    // The client cancels a waiting request in a POST of its own: its open input is
    // cancelled on the request's stream, and a late answer is ignored.
    l.legacy.push(22);
    let call = req(3, "tools/call", json!({"name": "greet"}));
    l.http(&head("POST", s), &call, 22, 0);
    let Event::Request(ev) = one_event(&l.drain()) else {
        panic!()
    };
    let requests = vec![("name".into(), elicit())];
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests,
                state: None,
            },
        )
        .unwrap();
    let ask = transmits(&l.drain())[0].1.clone();
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 3}});
    let (start, _) = l.http(&head("POST", s), &cancel, 23, 0);
    assert_eq!(status(&start), 202);
    let t = transmits(&l.drain());
    assert_eq!((t.len(), t[0].0.stream), (1, StreamId(22)));
    assert_eq!(t[0].1["params"]["requestId"], ask["id"]);
    let late = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "cancel"}});
    l.http(&head("POST", s), &late, 24, 0);
    assert!(l.drain().is_empty());
    assert_eq!(l.server.poll_timeout(), None);

    // The POST's stream closes while the request waits: it is dropped.
    l.http(
        &head("POST", s),
        &req(4, "tools/call", json!({"name": "g"})),
        25,
        0,
    );
    let Event::Request(ev) = one_event(&l.drain()) else {
        panic!()
    };
    let requests = vec![("name".into(), elicit())];
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests,
                state: None,
            },
        )
        .unwrap();
    l.drain();
    assert!(l.server.poll_timeout().is_some());
    l.server.stream_closed(StreamId(25));
    assert!(l.drain().is_empty());
    assert_eq!(l.server.poll_timeout(), None);

    // A request waiting for the host is cancelled by the client's POST too.
    l.http(
        &head("POST", s),
        &req(5, "tools/call", json!({"name": "g"})),
        26,
        0,
    );
    let Event::Request(ev) = one_event(&l.drain()) else {
        panic!()
    };
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 5}});
    l.http(&head("POST", s), &cancel, 27, 0);
    let outs = l.drain();
    assert!(
        matches!(one_event(&outs), Event::Cancelled { handle, reason: CancelReason::Client } if handle == ev.handle),
        "{outs:?}"
    );
    assert!(transmits(&outs).is_empty());
}

#[test]
fn logging_set_level_filters_log_lines() {
    use mcp_context::messages::LoggingLevel;
    use mcp_context::messages::owned::OwnedJson;
    let mut l = bridge_server("bridge-log");
    l.legacy.extend([0, 1]);
    l.send(0, init_with(1, json!({})));
    l.send(1, init_with(1, json!({})));
    let data = OwnedJson::parse(r#""disk almost full""#).unwrap();
    // Before any setLevel every level reaches both connections.
    assert_eq!(l.server.log(LoggingLevel::Debug, Some("disk"), &data), 2);
    assert_eq!(transmits(&l.drain()).len(), 2);
    // An unknown level is -32602; a known one is `{}` and applies to its connection only.
    let v = only(&l.send(0, req(2, "logging/setLevel", json!({"level": "loud"}))));
    assert_eq!(v["error"]["code"], -32602);
    let v = only(&l.send(0, req(3, "logging/setLevel", json!({"level": "warning"}))));
    assert_eq!(v["result"], json!({}));
    assert_eq!(l.server.log(LoggingLevel::Info, None, &data), 1);
    let t = transmits(&l.drain());
    assert_eq!(t[0].0.stream, StreamId(1));
    assert_eq!(l.server.log(LoggingLevel::Warning, None, &data), 2);
    l.drain();
    // A request on the connection carries its level: below it nothing is sent.
    let outs = l.send(0, req(4, "tools/call", json!({"name": "t"})));
    let Event::Request(ev) = one_event(&outs) else {
        panic!()
    };
    assert_eq!(
        l.server.log_for(ev.handle, LoggingLevel::Info, None, &data),
        Ok(false)
    );
    assert_eq!(
        l.server
            .log_for(ev.handle, LoggingLevel::Error, None, &data),
        Ok(true)
    );
    assert_eq!(only(&l.drain())["params"]["level"], "error");
    // A modern request: only with `_meta.logLevel`, and at or above it (docs/rules.md §16.9
    // rule 54).
    let modern = |id: u64, level: Option<&str>| {
        let mut meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                              "io.modelcontextprotocol/clientCapabilities": {}});
        if let Some(level) = level {
            meta["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        req(id, "tools/call", json!({"name": "t", "_meta": meta}))
    };
    let Event::Request(quiet) = one_event(&l.send(7, modern(5, None))) else {
        panic!()
    };
    let Event::Request(info) = one_event(&l.send(8, modern(6, Some("info")))) else {
        panic!()
    };
    let log = |l: &mut L, h, level| l.server.log_for(h, level, None, &data);
    assert_eq!(
        log(&mut l, quiet.handle, LoggingLevel::Emergency),
        Ok(false)
    );
    assert_eq!(log(&mut l, info.handle, LoggingLevel::Debug), Ok(false));
    assert_eq!(log(&mut l, info.handle, LoggingLevel::Info), Ok(true));
    let t = transmits(&l.drain());
    assert_eq!((t.len(), t[0].0.stream), (1, StreamId(8)));
}

#[test]
fn input_required_on_a_prompt_reruns_the_prompt_with_its_arguments() {
    use mcp_context::messages::owned::{FromJsonText, OwnedGetPromptResult};
    use mcp_context::server::InputRequired;
    let mut l = bridge_server("bridge-prompt");
    l.legacy.push(0);
    l.send(0, init_with(1, json!({"elicitation": {}})));
    let args = json!({"project": "acme", "id": "1"});
    let params = json!({"name": "review_note", "arguments": args, "_meta": {"progressToken": 9}});
    let outs = l.send(0, req(2, "prompts/get", params));
    let Event::GetPrompt(ev) = one_event(&outs) else {
        panic!("{outs:?}")
    };
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests: vec![("tone".into(), elicit())],
                state: Some(b"p".to_vec()),
            },
        )
        .unwrap();
    let ask = transmits(&l.drain())[0].1.clone();
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}});
    let Event::GetPrompt(retry) = one_event(&l.send(0, answer)) else {
        panic!()
    };
    assert_eq!(retry.name, "review_note");
    assert_eq!(retry.arguments, ev.arguments);
    assert!(retry.progress && retry.capabilities.elicitation_form);
    let r = retry.retry.expect("a retry");
    assert_eq!(r.state.as_deref(), Some(&b"p"[..]));
    let got: Value = serde_json::from_str(r.input_responses[0].1.as_raw().as_text()).unwrap();
    assert_eq!(got, json!({"action": "decline"}));
    let result = OwnedGetPromptResult::from_json_text(r#"{"messages":[]}"#).unwrap();
    l.server.respond_prompt(retry.handle, result).unwrap();
    let v = only(&l.drain());
    assert_eq!(
        (v["id"].clone(), v["result"]["messages"].clone()),
        (json!(2), json!([]))
    );
}

#[test]
fn input_required_on_a_registered_tool_reruns_the_call() {
    use mcp_context::messages::owned::{FromJsonText, OwnedJson, OwnedTool};
    use mcp_context::server::{InputRequired, SealingKey};
    let config = ServerConfig {
        state_keys: vec![SealingKey {
            id: 1,
            secret: vec![7; 32],
        }],
        ..ServerConfig::default()
    };
    let mut l = L::new("bridge-tool", config);
    let tool = r#"{"name":"greet","inputSchema":{"type":"object"}}"#;
    l.server
        .add_tool(OwnedTool::from_json_text(tool).unwrap())
        .unwrap();
    l.legacy.push(0);
    l.send(0, init_with(1, json!({"sampling": {}})));
    let call = json!({"name": "greet", "arguments": {"who": "Ada"}});
    let Event::CallTool(ev) = one_event(&l.send(0, req(2, "tools/call", call))) else {
        panic!()
    };
    assert!(ev.capabilities.sampling);
    l.server
        .respond_input_required(
            ev.handle,
            InputRequired {
                requests: vec![("llm".into(), sample())],
                state: None,
            },
        )
        .unwrap();
    let ask = transmits(&l.drain())[0].1.clone();
    assert_eq!(ask["method"], "sampling/createMessage");
    let sampled =
        json!({"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m"});
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"], "result": sampled});
    let Event::CallTool(retry) = one_event(&l.send(0, answer)) else {
        panic!()
    };
    assert_eq!(retry.name, "greet");
    assert_eq!(retry.arguments, ev.arguments);
    assert_eq!(retry.retry.expect("a retry").input_responses[0].0, "llm");
    let result = OwnedJson::parse(r#"{"content":[{"type":"text","text":"Hi, Ada"}]}"#).unwrap();
    l.server.respond_tool(retry.handle, result).unwrap();
    let v = only(&l.drain());
    assert_eq!(v["id"], 2);
    assert_eq!(v["result"]["content"][0]["text"], "Hi, Ada");
}
