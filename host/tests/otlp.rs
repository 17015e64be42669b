//! Telemetry exported over OTLP/HTTP (protobuf) to a receiver on loopback (docs/operations.md,
//! "Tests with a collector"): the `opentelemetry-otlp` exporters (a batch span processor, a
//! periodic metric reader) under `telemetry::Otel`, a scripted session over the axum runner
//! (a list, a read, a prompt, a tool error, an unknown resource, an answer over the response
//! cap, a call over the caller's rate), one request traced by `_meta.traceparent` and one by
//! the HTTP `traceparent` header; then what reached tests/otlp/receiver.py: span names, kinds,
//! attributes, the client's trace and parent ids, statuses and the metric points.
//!
//! The receiver runs on the Python of `MCP_OTLP_PYTHON` (one with `opentelemetry-proto`;
//! ./test.sh passes its venv's). Without it the tests say so and pass. otlp_sessions.rs: a
//! 2025-11-25 session and a stdio session.

use std::sync::Arc;

use axum::http::request::Parts;
use mcp_context::observe::{RATE_LIMITED, RESPONSE_TOO_LARGE};
use mcp_context_host::Host;
use mcp_context_host::http::HttpOptions;
use serde_json::{Value, json};

#[allow(dead_code)]
mod otlp_kit;
use otlp_kit::{
    HEADER_PARENT, HEADER_TRACE, META_PARENT, META_TRACE, Receiver, V, app, collect, message,
    providers,
};

/// The scripted session over HTTP; the answers in order.
// `HttpOptions::auth` refuses with a whole `Response`, as its signature says.
#[allow(clippy::result_large_err)]
async fn session(host: Host) -> Vec<Value> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    // The caller is the `x-caller` header (0 without one): the list is caller 1's.
    let options = HttpOptions {
        auth: Some(Arc::new(|head: &Parts| {
            Ok(head
                .headers
                .get("x-caller")
                .and_then(|v| v.to_str().ok()?.parse().ok())
                .unwrap_or(0))
        })),
        ..HttpOptions::default()
    };
    let task = tokio::spawn(async move {
        host.serve_http_with(listener, options, async move {
            let _ = stopped.await;
        })
        .await
    });
    let meta_tp = format!("00-{META_TRACE}-{META_PARENT}-01");
    let header_tp = format!("00-{HEADER_TRACE}-{HEADER_PARENT}-01");
    let tool = |name: &str| json!({"name": name, "arguments": {}});
    let script: Vec<(String, &str, Option<&str>, Option<&str>)> = vec![
        (
            message(1, "resources/list", json!({}), Some(&meta_tp)),
            "resources/list",
            None,
            None,
        ),
        (
            message(2, "resources/read", json!({"uri": "notes://1"}), None),
            "resources/read",
            Some("notes://1"),
            Some(&header_tp),
        ),
        (
            message(3, "prompts/get", json!({"name": "greet"}), None),
            "prompts/get",
            Some("greet"),
            None,
        ),
        (
            message(4, "tools/call", tool("boom"), None),
            "tools/call",
            Some("boom"),
            None,
        ),
        (
            message(5, "resources/read", json!({"uri": "notes://2"}), None),
            "resources/read",
            Some("notes://2"),
            None,
        ),
        (
            message(6, "tools/call", tool("big"), None),
            "tools/call",
            Some("big"),
            None,
        ),
        (
            message(7, "tools/call", tool("echo"), None),
            "tools/call",
            Some("echo"),
            None,
        ),
    ];
    let http = reqwest::Client::new();
    let mut answers = Vec::new();
    for (body, method, name, traceparent) in script {
        let mut req = http
            .post(format!("http://{addr}/mcp"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", V)
            .header("mcp-method", method);
        if let Some(n) = name {
            req = req.header("mcp-name", n);
        }
        if let Some(t) = traceparent {
            req = req.header("traceparent", t);
        }
        if method == "resources/list" {
            req = req.header("x-caller", "1");
        }
        answers.push(req.body(body).send().await.unwrap().json().await.unwrap());
    }
    let _ = stop.send(());
    task.await.unwrap().unwrap();
    answers
}

/// The scripted HTTP session's spans and metrics at the OTLP receiver.
#[test]
fn a_scripted_session_reaches_the_otlp_receiver() {
    let Some(receiver) = Receiver::start() else {
        return;
    };
    let (tracer, meter) = providers(&receiver.endpoint);
    let host = app(&tracer, &meter);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let answers = rt.block_on(session(host));
    for a in &answers[..3] {
        assert!(a["result"].is_object(), "{a}");
    }
    assert_eq!(answers[3]["result"]["isError"], true, "{}", answers[3]);
    let not_found = answers[4]["error"]["code"].as_i64().expect("an error");
    assert_eq!(
        answers[5]["error"]["code"], RESPONSE_TOO_LARGE,
        "{}",
        answers[5]
    );
    assert_eq!(answers[6]["error"]["code"], RATE_LIMITED, "{}", answers[6]);

    let got = collect(
        receiver,
        rt,
        tracer,
        meter,
        "spans=7&metric=mcp_context.server.refusals",
    );

    check_spans(&got, not_found);
    check_metrics(&got, not_found);
}

fn check_spans(got: &Value, not_found: i64) {
    let all = got["spans"].as_array().unwrap();
    assert_eq!(all.len(), 7, "{all:#?}");
    let span = |id: &str| {
        all.iter()
            .find(|s| s["attributes"]["jsonrpc.request.id"] == id)
            .unwrap_or_else(|| panic!("no span for request {id}: {all:#?}"))
    };
    let names: Vec<&str> = (1..=7)
        .map(|i| span(&i.to_string())["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "resources/list",
            "resources/read",
            "prompts/get greet",
            "tools/call boom",
            "resources/read",
            "tools/call big",
            "tools/call echo"
        ]
    );
    for s in all {
        assert_eq!(s["kind"], "SERVER", "{s}");
        assert_eq!(s["scope"], "mcp-context");
        assert_eq!(s["resource"]["service.name"], "otlp-rust-test");
        assert_eq!(s["attributes"]["network.transport"], "tcp");
        assert_eq!(s["attributes"]["mcp.protocol.version"], V);
    }
    let (listed, read) = (span("1"), span("2"));
    assert_eq!(listed["trace_id"], META_TRACE, "{listed}");
    assert_eq!(listed["parent_span_id"], META_PARENT);
    assert_eq!(listed["attributes"]["mcp.method.name"], "resources/list");
    assert_eq!(listed["status"]["code"], "UNSET");
    assert_eq!(listed["attributes"]["mcp_context.caller"], 1);
    assert_eq!(read["attributes"]["mcp_context.caller"], 0);
    assert_eq!(read["trace_id"], HEADER_TRACE, "{read}");
    assert_eq!(read["parent_span_id"], HEADER_PARENT);
    assert_eq!(read["attributes"]["mcp.resource.uri"], "notes://1");
    assert!(read["attributes"].get("error.type").is_none());
    assert_eq!(span("3")["attributes"]["gen_ai.prompt.name"], "greet");
    assert!(
        span("3")["parent_span_id"].is_null(),
        "no traceparent: a new trace"
    );
    let boom = span("4");
    assert_eq!(boom["attributes"]["gen_ai.tool.name"], "boom");
    assert_eq!(boom["attributes"]["gen_ai.operation.name"], "execute_tool");
    assert_eq!(boom["attributes"]["error.type"], "tool_error");
    assert_eq!(
        boom["status"],
        json!({"code": "ERROR", "message": "tool_error"})
    );
    let missing = &span("5")["attributes"];
    assert_eq!(missing["mcp.resource.uri"], "notes://2");
    assert_eq!(missing["error.type"], not_found.to_string());
    assert_eq!(missing["rpc.response.status_code"], not_found.to_string());
    assert_eq!(
        span("6")["attributes"]["error.type"],
        RESPONSE_TOO_LARGE.to_string()
    );
    assert_eq!(
        span("7")["attributes"]["error.type"],
        RATE_LIMITED.to_string()
    );
}

fn check_metrics(got: &Value, not_found: i64) {
    let latest = &got["latest"];
    let mut requests: Vec<(String, String, String, i64)> = latest["mcp_context.server.requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let a = &p["attributes"];
            assert_eq!(p["type"], "sum");
            assert_eq!(p["monotonic"], true);
            (
                a["mcp.method.name"].as_str().unwrap().to_owned(),
                a["outcome"].as_str().unwrap().to_owned(),
                a["error.type"].as_str().unwrap_or("").to_owned(),
                p["value"].as_i64().unwrap(),
            )
        })
        .collect();
    requests.sort();
    let row = |m: &str, o: &str, e: &str| (m.to_owned(), o.to_owned(), e.to_owned(), 1);
    let mut want = vec![
        row("resources/list", "ok", ""),
        row("resources/read", "ok", ""),
        row("prompts/get", "ok", ""),
        row("tools/call", "tool_error", "tool_error"),
        row("resources/read", "error", &not_found.to_string()),
        row("tools/call", "error", &RESPONSE_TOO_LARGE.to_string()),
        row("tools/call", "error", &RATE_LIMITED.to_string()),
    ];
    want.sort();
    assert_eq!(requests, want);
    let duration = latest["mcp.server.operation.duration"].as_array().unwrap();
    assert!(
        duration
            .iter()
            .all(|p| p["type"] == "histogram" && p["unit"] == "s")
    );
    let count: i64 = duration.iter().map(|p| p["count"].as_i64().unwrap()).sum();
    assert_eq!(count, 7);
    let mut refusals: Vec<(String, i64)> = latest["mcp_context.server.refusals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["attributes"]["mcp_context.limit"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                p["value"].as_i64().unwrap(),
            )
        })
        .collect();
    refusals.sort();
    assert_eq!(
        refusals,
        [("rate".to_owned(), 1), ("response".to_owned(), 1)]
    );
}
