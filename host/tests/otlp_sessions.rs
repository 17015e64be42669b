//! OTLP export (see otlp.rs) of a 2025-11-25 HTTP session (`mcp.session.id`, the
//! open-sessions gauge) and of a stdio session (`network.transport` `pipe`, the `_meta`
//! parent), checked at tests/otlp/receiver.py. Without `MCP_OTLP_PYTHON` the tests say so
//! and pass.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[allow(dead_code)]
mod otlp_kit;
use otlp_kit::{HEADER_PARENT, HEADER_TRACE, Receiver, app, collect, message, providers};

/// A 2025-11-25 HTTP session (initialize, a call traced by the header): its spans carry
/// `mcp.session.id`, the open-sessions gauge counts it.
#[test]
fn a_2025_session_carries_its_session_id_to_the_receiver() {
    let Some(receiver) = Receiver::start() else {
        return;
    };
    let (tracer, meter) = providers(&receiver.endpoint);
    let host = app(&tracer, &meter);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (sid, answer) = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            host.serve_http(listener, async move {
                let _ = stopped.await;
            })
            .await
        });
        let http = reqwest::Client::new();
        let post = |body: Value| {
            http.post(&url)
                .header("accept", "application/json, text/event-stream")
                .json(&body)
        };
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}});
        let r = post(init).send().await.unwrap();
        let sid = r.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let r = post(initialized)
            .header("mcp-session-id", &sid)
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 202);
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                          "params": {"name": "echo", "arguments": {}}});
        let answer: Value = post(call)
            .header("mcp-session-id", &sid)
            .header("mcp-protocol-version", "2025-11-25")
            .header(
                "traceparent",
                format!("00-{HEADER_TRACE}-{HEADER_PARENT}-01"),
            )
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let _ = stop.send(());
        task.await.unwrap().unwrap();
        (sid, answer)
    });
    assert_eq!(answer["result"]["content"][0]["text"], "hi", "{answer}");
    let got = collect(
        receiver,
        rt,
        tracer,
        meter,
        "spans=2&metric=mcp_context.server.open_sessions",
    );

    let spans = got["spans"].as_array().unwrap();
    let mut methods: Vec<&str> = spans
        .iter()
        .map(|s| s["attributes"]["mcp.method.name"].as_str().unwrap())
        .collect();
    methods.sort_unstable();
    assert_eq!(methods, ["initialize", "tools/call"], "{spans:#?}");
    let echo = spans
        .iter()
        .find(|s| s["name"] == "tools/call echo")
        .unwrap();
    assert_eq!(echo["attributes"]["mcp.session.id"], sid.as_str());
    assert_eq!(echo["trace_id"], HEADER_TRACE);
    assert_eq!(echo["parent_span_id"], HEADER_PARENT);
    let gauge = &got["latest"]["mcp_context.server.open_sessions"];
    assert_eq!(gauge[0]["type"], "gauge", "{gauge}");
    assert_eq!(gauge[0]["value"], 1, "{gauge}");
}

/// Over stdio (`network.transport` `pipe`), `_meta.traceparent` is the only parent.
#[test]
fn a_stdio_session_reaches_the_otlp_receiver() {
    let Some(receiver) = Receiver::start() else {
        return;
    };
    let (tracer, meter) = providers(&receiver.endpoint);
    let host = app(&tracer, &meter);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let answers = rt.block_on(async {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (r, w) = tokio::io::split(theirs);
        tokio::spawn(async move { host.serve(r, w).await });
        let (r, mut w) = tokio::io::split(ours);
        let mut lines = BufReader::new(r).lines();
        let tp = format!("00-{HEADER_TRACE}-{HEADER_PARENT}-01");
        let mut answers = Vec::new();
        for line in [
            message(1, "resources/read", json!({"uri": "notes://1"}), Some(&tp)),
            message(
                2,
                "tools/call",
                json!({"name": "boom", "arguments": {}}),
                None,
            ),
        ] {
            w.write_all(format!("{line}\n").as_bytes()).await.unwrap();
            let got = lines.next_line().await.unwrap().unwrap();
            answers.push(serde_json::from_str::<Value>(&got).unwrap());
        }
        answers
    });
    assert_eq!(
        answers[0]["result"]["contents"][0]["text"], "hi",
        "{}",
        answers[0]
    );
    assert_eq!(answers[1]["result"]["isError"], true, "{}", answers[1]);
    let got = collect(
        receiver,
        rt,
        tracer,
        meter,
        "spans=2&metric=mcp_context.server.requests",
    );

    let spans = got["spans"].as_array().unwrap();
    let names: Vec<&str> = spans.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["resources/read", "tools/call boom"]);
    assert!(
        spans
            .iter()
            .all(|s| s["attributes"]["network.transport"] == "pipe")
    );
    assert_eq!(spans[0]["trace_id"], HEADER_TRACE);
    assert_eq!(spans[0]["parent_span_id"], HEADER_PARENT);
    assert!(spans[1]["parent_span_id"].is_null());
    let outcomes: Vec<(&str, i64)> = got["latest"]["mcp_context.server.requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["attributes"]["outcome"].as_str().unwrap(),
                p["value"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    assert!(outcomes.contains(&("ok", 1)) && outcomes.contains(&("tool_error", 1)));
}
