//! The Streamable HTTP entry point (`Server::http_head`, `Server::handle_http`): every status
//! with its reason, the head-only refusals before the body, the body limit for chunked
//! uploads, headers against the body inside the core, and a POST → stream → transmit path.

mod common;
mod server_harness;

use mcp_context::http::{HeadCheck, HttpConfig, HttpStart, RequestHead};
use mcp_context::messages::owned::OwnedResourceContents;
use mcp_context::server::{BodyKind, Event, Output, ServerConfig};
use serde_json::{Value, json};
use server_harness::*;

const BOTH: &str = "application/json, text/event-stream";

/// A well-formed POST head for `method` (and `Mcp-Name`), body length `len`.
fn post<'a>(method: &'a str, name: Option<&'a str>, len: usize) -> RequestHead<'a> {
    RequestHead {
        method: "POST",
        path: "/mcp",
        host: Some("localhost:3000"),
        origin: None,
        content_type: Some("application/json"),
        content_length: Some(len as u64),
        protocol_version: Some(V),
        mcp_method: Some(method),
        mcp_name: name,
        accept: Some(BOTH),
        session_id: None,
    }
}

fn cat(tag: &str) -> H {
    H::new(tag, catalogue(ServerConfig::default()))
}

/// What a row expects: a complete response with this status and JSON-RPC error code
/// (`None` = a result, or no body for 202).
struct Want {
    status: u16,
    code: Option<i64>,
}

fn want(status: u16, code: Option<i64>) -> Want {
    Want { status, code }
}

#[test]
fn every_status_with_its_reason() {
    let read = request(
        json!(1),
        "resources/read",
        json!({"uri": "test://static-text"}),
    );
    let list = request(json!(2), "resources/list", json!({}));
    let note = notification("notifications/cancelled", json!({"requestId": 9}));
    let client_response = br#"{"jsonrpc":"2.0","id":5,"result":{}}"#.to_vec();
    let no_meta = br#"{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{}}"#.to_vec();
    let v999 = serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": 4, "method": "resources/list",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "v999.0.0",
        "io.modelcontextprotocol/clientCapabilities": {}}}}),
    )
    .unwrap();
    let tools = request(json!(6), "tools/list", json!({}));
    let missing = request(json!(7), "resources/read", json!({"uri": "test://nope"}));
    let n = |b: &[u8]| b.len();
    let uri = "test://static-text";

    type Row<'a> = (&'a str, RequestHead<'a>, &'a [u8], Want);
    #[rustfmt::skip]
    let rows: Vec<Row<'_>> = vec![
        // Head refusals: the body is never looked at.
        ("wrong path", RequestHead { path: "/other", ..post("resources/list", None, n(&list)) }, &list, want(404, Some(-32600))),
        ("DNS rebinding Host", RequestHead { host: Some("evil.example:3000"), ..post("resources/list", None, n(&list)) }, &list, want(403, Some(-32600))),
        ("foreign Origin", RequestHead { origin: Some("https://evil.example"), ..post("resources/list", None, n(&list)) }, &list, want(403, Some(-32600))),
        ("missing Host", RequestHead { host: None, ..post("resources/list", None, n(&list)) }, &list, want(400, Some(-32600))),
        ("GET without sessions", RequestHead { method: "GET", ..post("resources/list", None, 0) }, b"", want(405, Some(-32600))),
        ("DELETE without sessions", RequestHead { method: "DELETE", ..post("resources/list", None, 0) }, b"", want(405, Some(-32600))),
        ("text/plain", RequestHead { content_type: Some("text/plain"), ..post("resources/list", None, n(&list)) }, &list, want(415, Some(-32600))),
        ("Accept: text/html", RequestHead { accept: Some("text/html"), ..post("resources/list", None, n(&list)) }, &list, want(406, Some(-32600))),
        ("64 MiB Content-Length", RequestHead { content_length: Some(64 << 20), ..post("resources/list", None, n(&list)) }, &list, want(413, Some(-32600))),
        // After the body.
        ("notification: 202, no body", post("notifications/cancelled", None, n(&note)), &note, want(202, None)),
        ("client response: 202, no body", post("x", None, n(&client_response)), &client_response, want(202, None)),
        ("not JSON", post("resources/list", None, 3), b"{x}", want(400, Some(-32700))),
        ("not JSON-RPC", post("resources/list", None, 7), br#"{"a":1}"#, want(400, Some(-32600))),
        ("unknown method before _meta and headers", RequestHead { mcp_method: None, ..post("tools/list", None, n(&tools)) }, &tools, want(404, Some(-32601))),
        ("missing _meta before headers", RequestHead { protocol_version: None, ..post("resources/list", None, n(&no_meta)) }, &no_meta, want(400, Some(-32602))),
        ("missing MCP-Protocol-Version", RequestHead { protocol_version: None, ..post("resources/list", None, n(&list)) }, &list, want(400, Some(-32020))),
        ("missing Mcp-Method", RequestHead { mcp_method: None, ..post("resources/list", None, n(&list)) }, &list, want(400, Some(-32020))),
        ("Mcp-Method differs", post("prompts/list", None, n(&list)), &list, want(400, Some(-32020))),
        ("missing Mcp-Name", post("resources/read", None, n(&read)), &read, want(400, Some(-32020))),
        ("Mcp-Name differs", post("resources/read", Some("test://other"), n(&read)), &read, want(400, Some(-32020))),
        ("header version is not the body's", post("resources/list", None, n(&v999)), &v999, want(400, Some(-32020))),
        ("unsupported version", RequestHead { protocol_version: Some("v999.0.0"), ..post("resources/list", None, n(&v999)) }, &v999, want(400, Some(-32022))),
        ("resource not found: 200 with the error", post("resources/read", Some("test://nope"), n(&missing)), &missing, want(200, Some(-32602))),
        ("a result answered at once", post("resources/read", Some(uri), n(&read)), &read, want(200, None)),
        ("base64 Mcp-Name", post("resources/read", Some("=?base64?dGVzdDovL3N0YXRpYy10ZXh0?="), n(&read)), &read, want(200, None)),
        ("charset and query are fine", RequestHead { content_type: Some("application/json; charset=utf-8"), path: "/mcp?x", accept: None, ..post("resources/list", None, n(&list)) }, &list, want(200, None)),
    ];
    let mut h = cat("http-statuses");
    for (i, (why, head, body, want)) in rows.into_iter().enumerate() {
        let (start, outs) = h.http(&head, body, 100 + i as u64);
        let HttpStart::Respond(r) = start else {
            panic!("{why}: expected a complete answer, got {start:?}");
        };
        assert!(
            outs.iter().all(|o| !matches!(o, Output::Transmit(_))),
            "{why}: the answer is not also polled: {outs:?}"
        );
        assert_eq!(r.status, want.status, "{why}: {r:?}");
        if want.status == 202 {
            assert!(r.body.is_empty() && r.headers.is_empty(), "{why}");
            continue;
        }
        assert_eq!(r.header("Content-Type"), Some("application/json"), "{why}");
        assert_eq!(
            r.header("Allow"),
            (want.status == 405).then_some("GET, POST, DELETE"),
            "{why}"
        );
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        match want.code {
            Some(code) => assert_eq!(v["error"]["code"], code, "{why}: {v}"),
            None => assert_eq!(v["result"]["resultType"], "complete", "{why}: {v}"),
        }
        // Head refusals name their reason and carry no id.
        if want.code == Some(-32600) && body.len() != 7 {
            assert!(v.get("id").is_none(), "{why}");
            let msg = v["error"]["message"].as_str().unwrap();
            assert!(msg.len() > 8, "{why}: {msg}");
        }
    }
    assert_eq!(h.server.pending_requests(), 0);
}

#[test]
fn head_refuses_before_the_body() {
    let h = cat("http-head");
    // 64 MiB declared: refused from the head, nothing read.
    let head = RequestHead {
        content_length: Some(64 << 20),
        ..post("resources/list", None, 0)
    };
    let HeadCheck::Respond(r) = h.server.http_head(&head) else {
        panic!("413 expected")
    };
    assert_eq!(r.status, 413);
    let text = RequestHead {
        content_type: Some("text/plain"),
        ..post("resources/list", None, 10)
    };
    assert!(matches!(h.server.http_head(&text), HeadCheck::Respond(r) if r.status == 415));
    let ok = post("resources/list", None, 10);
    assert_eq!(
        h.server.http_head(&ok),
        HeadCheck::ReadBody {
            limit: 4 * 1024 * 1024
        }
    );
}

#[test]
fn chunked_body_over_the_limit_is_413() {
    let config = ServerConfig {
        http: HttpConfig {
            max_body: 64,
            ..HttpConfig::default()
        },
        ..ServerConfig::default()
    };
    let mut h = H::new("http-limit", catalogue(config));
    let chunked = RequestHead {
        content_length: None,
        ..post("resources/list", None, 0)
    };
    assert_eq!(
        h.server.http_head(&chunked),
        HeadCheck::ReadBody { limit: 64 }
    );
    let body = request(json!(1), "resources/list", json!({"pad": "x".repeat(100)}));
    assert!(body.len() > 64);
    let (start, outs) = h.http(&chunked, &body, 1);
    assert!(matches!(start, HttpStart::Respond(r) if r.status == 413));
    assert!(outs.is_empty());
    // Exactly at the limit is read.
    let small = br#"{"jsonrpc":"2.0","method":"notifications/x"}"#;
    let (start, _) = h.http(&chunked, small, 2);
    assert!(matches!(start, HttpStart::Respond(r) if r.status == 202));
}

#[test]
fn post_stream_transmit() {
    let mut h = cat("http-stream");
    // A read the application answers: the POST becomes a stream.
    let uri = "notes://acme/index";
    let body = request(json!(7), "resources/read", json!({"uri": uri}));
    let (start, outs) = h.http(&post("resources/read", Some(uri), body.len()), &body, 42);
    assert!(
        matches!(start, HttpStart::Stream(s) if s.0 == 42),
        "{start:?}"
    );
    let ev = events(&outs);
    let [Event::ReadResource(ev)] = ev.as_slice() else {
        panic!("one read event: {outs:?}")
    };
    assert!(transmits(&outs).is_empty());
    let text = OwnedResourceContents::text(uri, Some("text/plain"), "index");
    h.server.respond_read(ev.handle, vec![text]).unwrap();
    let outs = h.drain();
    let t = transmits(&outs);
    assert_eq!(t.len(), 1);
    let t = &t[0];
    assert_eq!(
        (t.stream.0, t.http_status, t.kind, t.end_of_stream),
        (42, 200, BodyKind::Json, true)
    );
    assert_eq!(t.http_headers(), &[("Content-Type", "application/json")]);
    assert_eq!(json_of(t)["result"]["contents"][0]["text"], "index");

    // A listen: an SSE stream that stays open.
    let listen = request(
        json!(8),
        "subscriptions/listen",
        json!({"notifications": {"resourcesListChanged": true}}),
    );
    let (start, outs) = h.http(
        &post("subscriptions/listen", None, listen.len()),
        &listen,
        43,
    );
    assert!(matches!(start, HttpStart::Stream(s) if s.0 == 43));
    let t = transmits(&outs);
    assert_eq!(t.len(), 1, "{outs:?}");
    assert_eq!((t[0].kind, t[0].end_of_stream), (BodyKind::Sse, false));
    assert_eq!(
        t[0].http_headers(),
        &[
            ("Content-Type", "text/event-stream"),
            ("Cache-Control", "no-cache")
        ]
    );
    h.server.resources_list_changed();
    let t = transmits(&h.drain());
    assert_eq!(t.len(), 1);
    assert_eq!(
        json_of(&t[0])["method"],
        "notifications/resources/list_changed"
    );
    // The client goes away: the stream closes, nothing more is sent.
    h.server.stream_closed(mcp_context::server::StreamId(43));
    h.server.resources_list_changed();
    assert!(transmits(&h.drain()).is_empty());
}
