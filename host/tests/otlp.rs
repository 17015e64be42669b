//! Telemetry exported over OTLP/HTTP (protobuf) to a receiver on loopback (docs/operations.md,
//! "Tests with a collector"): the `opentelemetry-otlp` exporters (a batch span processor, a
//! periodic metric reader) under `telemetry::Otel`, a scripted session over the axum runner
//! (a list, a read, a prompt, a tool error, an unknown resource, an answer over the response
//! cap, a call over the caller's rate), one request traced by `_meta.traceparent` and one by
//! the HTTP `traceparent` header; then what reached tests/otlp/receiver.py: span names, kinds,
//! attributes, the client's trace and parent ids, statuses and the metric points.
//!
//! The receiver runs on the Python of `MCP_OTLP_PYTHON` (one with `opentelemetry-proto`;
//! ./test.sh passes its venv's). Without it the test says so and passes.

use std::io::{BufRead, BufReader as StdBufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mcp_context::messages::owned::{
    FromJsonText, OwnedGetPromptResult, OwnedJson, OwnedPrompt, OwnedResourceContents,
    OwnedResourceTemplate, OwnedTool,
};
use mcp_context::observe::{RATE_LIMITED, RESPONSE_TOO_LARGE};
use mcp_context_host::telemetry::{Otel, RateLimit};
use mcp_context_host::{App, Context, Error, Host, PromptRequest, ReadRequest, ToolRequest};
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{MetricExporter, Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const V: &str = "2026-07-28";
const META_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const META_PARENT: &str = "00f067aa0ba902b7";
const HEADER_TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
const HEADER_PARENT: &str = "b7ad6b7169203331";

/// tests/otlp/receiver.py on a free port; it exits when its stdin closes (with the test).
struct Receiver {
    child: Child,
    endpoint: String,
}

impl Receiver {
    fn start() -> Option<Self> {
        let Some(python) = std::env::var_os("MCP_OTLP_PYTHON") else {
            eprintln!(
                "skipped: MCP_OTLP_PYTHON is not set (a python with opentelemetry-proto; ./test.sh sets it)"
            );
            return None;
        };
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/otlp/receiver.py");
        let mut child = Command::new(python)
            .arg(script)
            .arg("--until-stdin-closes")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start tests/otlp/receiver.py");
        let mut line = String::new();
        StdBufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port: u16 = line.trim().parse().expect("the receiver prints its port");
        Some(Self {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
        })
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

fn text(s: &str) -> OwnedJson {
    OwnedJson::parse(json!({"content": [{"type": "text", "text": s}]}).to_string()).unwrap()
}

fn app(tracer: &SdkTracerProvider, meter: &SdkMeterProvider) -> Host {
    let mut app = App::named("otlp", "1.0.0");
    app.template(
        OwnedResourceTemplate::new("notes://{id}", "notes"),
        |req: ReadRequest, _cx: Context| async move {
            if req.var("id") != Some("1") {
                return Err(Error::not_found());
            }
            Ok(OwnedResourceContents::text(&req.uri, None, "hi"))
        },
    );
    app.prompt(
        OwnedPrompt {
            name: "greet".into(),
            ..Default::default()
        },
        |_req: PromptRequest, _cx: Context| async move {
            Ok(OwnedGetPromptResult {
                description: Some("hello".into()),
                ..Default::default()
            })
        },
    );
    let tool = |name: &str| {
        OwnedTool::from_json_text(
            &json!({"name": name, "inputSchema": {"type": "object"}}).to_string(),
        )
        .unwrap()
    };
    app.tool(tool("boom"), |_req: ToolRequest, _cx: Context| async move {
        Err::<OwnedJson, _>(Error::tool("boom"))
    });
    app.tool(tool("big"), |_req: ToolRequest, _cx: Context| async move {
        Ok(text(&"x".repeat(4096)))
    });
    app.tool(tool("echo"), |_req: ToolRequest, _cx: Context| async move {
        Ok(text("hi"))
    });
    // Five handler calls pass (both reads, the prompt, boom, big: cut after its handler
    // ran), the sixth is over the rate.
    app.sink(Otel::new(
        tracer.tracer("mcp-context"),
        &meter.meter("mcp-context"),
    ))
    .middleware(RateLimit::per_caller(0.001, 5.0))
    .limit_responses(1024);
    app.build().unwrap()
}

fn message(id: u32, method: &str, params: Value, traceparent: Option<&str>) -> String {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    if let Some(t) = traceparent {
        meta["traceparent"] = json!(t);
    }
    let mut params = params;
    params["_meta"] = meta;
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The scripted session over HTTP; the answers in order.
async fn session(host: Host) -> Vec<Value> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        host.serve_http(listener, async move {
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
        answers.push(req.body(body).send().await.unwrap().json().await.unwrap());
    }
    let _ = stop.send(());
    task.await.unwrap().unwrap();
    answers
}

/// The OTLP/HTTP protobuf exporters to `endpoint`: spans through a batch processor, metrics
/// through a periodic reader (flushed by the test). Built, and shut down, outside a tokio
/// runtime: the blocking HTTP client runs on the SDK's own threads.
fn providers(endpoint: &str) -> (SdkTracerProvider, SdkMeterProvider) {
    let resource = Resource::builder()
        .with_service_name("otlp-rust-test")
        .build();
    let spans = SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{endpoint}/v1/traces"))
        .build()
        .unwrap();
    let tracer = SdkTracerProvider::builder()
        .with_batch_exporter(spans)
        .with_resource(resource.clone())
        .build();
    let metrics = MetricExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(format!("{endpoint}/v1/metrics"))
        .build()
        .unwrap();
    let meter = SdkMeterProvider::builder()
        .with_reader(
            PeriodicReader::builder(metrics)
                .with_interval(Duration::from_secs(3600))
                .build(),
        )
        .with_resource(resource)
        .build();
    (tracer, meter)
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

    tracer.force_flush().unwrap();
    meter.force_flush().unwrap();
    let url = format!(
        "{}/received?spans=7&metric=mcp_context.server.refusals&timeout=20",
        receiver.endpoint
    );
    let got: Value = rt.block_on(async { reqwest::get(url).await.unwrap().json().await.unwrap() });
    drop(rt);
    tracer.shutdown().unwrap();
    meter.shutdown().unwrap();
    drop(receiver);

    check_spans(&got, not_found);
    check_metrics(&got, not_found);
}

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
    tracer.force_flush().unwrap();
    meter.force_flush().unwrap();
    let url = format!(
        "{}/received?spans=2&metric=mcp_context.server.open_sessions&timeout=20",
        receiver.endpoint
    );
    let got: Value = rt.block_on(async { reqwest::get(url).await.unwrap().json().await.unwrap() });
    drop(rt);
    tracer.shutdown().unwrap();
    meter.shutdown().unwrap();
    drop(receiver);

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
    tracer.force_flush().unwrap();
    meter.force_flush().unwrap();
    let url = format!(
        "{}/received?spans=2&metric=mcp_context.server.requests&timeout=20",
        receiver.endpoint
    );
    let got: Value = rt.block_on(async { reqwest::get(url).await.unwrap().json().await.unwrap() });
    drop(rt);
    tracer.shutdown().unwrap();
    meter.shutdown().unwrap();
    drop(receiver);

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
