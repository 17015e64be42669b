//! Telemetry and middleware of the Rust host (docs/operations.md), with the OpenTelemetry
//! SDK's in-memory exporters: a scripted stdio session and an HTTP request carrying a
//! `traceparent`, then the spans, their attributes and parents, the metric values, the
//! JSON request log, the rate limit's refusals and the response cap.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_context::messages::owned::{FromJsonText, OwnedJson, OwnedTool};
use mcp_context::observe::{RATE_LIMITED, RESPONSE_TOO_LARGE};
use mcp_context_host::telemetry::{Call, JsonLog, Middleware, Otel, RateLimit};
use mcp_context_host::{App, Context, Error, Host, ToolRequest};
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::{SpanKind, TracerProvider as _};
use opentelemetry::{Key, Value as OtelValue};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);
impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Tags every call with the tenant, and counts the answers it saw.
#[derive(Default)]
struct Tenant(Arc<Mutex<Vec<String>>>);
impl Middleware for Tenant {
    fn before(&self, call: &mut Call) -> Result<(), Error> {
        call.annotate("app.tenant", "acme");
        Ok(())
    }
    fn after(&self, call: &Call, outcome: Result<(), &Error>) {
        self.0
            .lock()
            .unwrap()
            .push(format!("{} {}", call.method, outcome.is_ok()));
    }
}

struct Kit {
    spans: InMemorySpanExporter,
    metrics: InMemoryMetricExporter,
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
    log: Buf,
    seen: Arc<Mutex<Vec<String>>>,
}

fn host() -> (Host, Kit) {
    let spans = InMemorySpanExporter::default();
    let tracer = SdkTracerProvider::builder()
        .with_simple_exporter(spans.clone())
        .build();
    let metrics = InMemoryMetricExporter::default();
    let meter = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(metrics.clone()).build())
        .build();
    let log = Buf::default();
    let tenant = Tenant::default();
    let seen = tenant.0.clone();
    let mut app = App::named("telemetry", "1.0.0");
    app.tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#).unwrap(),
        |req: ToolRequest, _cx: Context| async move {
            let text = req.name.clone();
            Ok(
                OwnedJson::parse(json!({"content": [{"type": "text", "text": text}]}).to_string())
                    .unwrap(),
            )
        },
    );
    app.tool(
        OwnedTool::from_json_text(r#"{"name":"big","inputSchema":{"type":"object"}}"#).unwrap(),
        |_req: ToolRequest, _cx: Context| async move {
            let text = "x".repeat(4096);
            Ok(
                OwnedJson::parse(json!({"content": [{"type": "text", "text": text}]}).to_string())
                    .unwrap(),
            )
        },
    );
    app.sink(Otel::new(tracer.tracer("test"), &meter.meter("test")))
        .sink(JsonLog::new(log.clone()))
        .middleware(tenant)
        .middleware(RateLimit::per_caller(0.001, 3.0))
        .limit_responses(1024);
    let kit = Kit {
        spans,
        metrics,
        tracer,
        meter,
        log,
        seen,
    };
    (app.build().unwrap(), kit)
}

fn call(id: u32, tool: &str, traceparent: Option<&str>) -> String {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    if let Some(t) = traceparent {
        meta["traceparent"] = json!(t);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"_meta": meta, "name": tool, "arguments": {}}})
    .to_string()
}

fn attr<'a>(s: &'a SpanData, key: &str) -> Option<&'a OtelValue> {
    s.attributes
        .iter()
        .find(|kv| kv.key == Key::from(key.to_owned()))
        .map(|kv| &kv.value)
}

/// The counter's total over the points with `label`, in the last export that has any.
fn sum_of(rm: &[ResourceMetrics], name: &str, label: (&str, &str)) -> u64 {
    let mut last = 0;
    for r in rm {
        let mut total = 0;
        for scope in r.scope_metrics() {
            for m in scope.metrics().filter(|m| m.name() == name) {
                if let AggregatedMetrics::U64(MetricData::Sum(s)) = m.data() {
                    for p in s.data_points() {
                        if p.attributes()
                            .any(|kv| kv.key.as_str() == label.0 && kv.value.as_str() == label.1)
                        {
                            total += p.value();
                        }
                    }
                }
            }
        }
        if total > 0 {
            last = total;
        }
    }
    last
}

fn histogram_count(rm: &[ResourceMetrics], name: &str) -> u64 {
    let mut n = 0;
    for r in rm {
        for scope in r.scope_metrics() {
            for m in scope.metrics().filter(|m| m.name() == name) {
                if let AggregatedMetrics::F64(MetricData::Histogram(h)) = m.data() {
                    n = h.data_points().map(|p| p.count()).sum();
                }
            }
        }
    }
    n
}

/// One scripted stdio session: a traced call, a `tools/list` the core answers (the
/// rate limit counts it: the middleware runs at the gate), a call over the response cap,
/// then two over the caller's rate (an unknown method too); then spans, parents,
/// attributes, metrics and log lines.
#[tokio::test]
async fn a_stdio_session_yields_spans_metrics_and_log_lines() {
    let (host, kit) = host();
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (r, w) = tokio::io::split(theirs);
    let server = host.clone();
    tokio::spawn(async move { server.serve(r, w).await });
    let (r, mut w) = tokio::io::split(ours);
    let mut lines = BufReader::new(r).lines();
    let tp = format!("00-{TRACE}-{PARENT}-01");
    let script = [
        call(1, "echo", Some(&tp)),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
               "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                    "io.modelcontextprotocol/clientCapabilities": {}}}})
        .to_string(),
        call(3, "big", None),
        call(4, "echo", None),
        json!({"jsonrpc": "2.0", "id": 5, "method": "no/such", "params": {}}).to_string(),
    ];
    let mut answers = Vec::new();
    for line in &script {
        w.write_all(line.as_bytes()).await.unwrap();
        w.write_all(b"\n").await.unwrap();
        let got = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        answers.push(serde_json::from_str::<Value>(&got).unwrap());
    }
    assert!(answers[0]["result"].is_object(), "{}", answers[0]);
    assert!(answers[1]["result"]["tools"].is_array(), "{}", answers[1]);
    assert_eq!(
        answers[2]["error"]["code"], RESPONSE_TOO_LARGE,
        "{}",
        answers[2]
    );
    assert_eq!(answers[3]["error"]["code"], RATE_LIMITED, "{}", answers[3]);
    let msg = answers[3]["error"]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("Rate limit exceeded: retry after "),
        "{msg}"
    );
    assert_eq!(answers[4]["error"]["code"], RATE_LIMITED, "{}", answers[4]);

    let spans = kit.spans.get_finished_spans().unwrap();
    assert_eq!(spans.len(), 5, "{spans:#?}");
    let first = &spans[0];
    assert_eq!(first.name, "tools/call echo");
    assert_eq!(first.span_kind, SpanKind::Server);
    assert_eq!(first.span_context.trace_id().to_string(), TRACE);
    assert_eq!(first.parent_span_id.to_string(), PARENT);
    assert!(first.parent_span_is_remote);
    assert_eq!(
        attr(first, "mcp.method.name").unwrap().as_str(),
        "tools/call"
    );
    assert_eq!(attr(first, "gen_ai.tool.name").unwrap().as_str(), "echo");
    assert_eq!(
        attr(first, "gen_ai.operation.name").unwrap().as_str(),
        "execute_tool"
    );
    assert_eq!(attr(first, "jsonrpc.request.id").unwrap().as_str(), "1");
    assert_eq!(
        attr(first, "mcp.protocol.version").unwrap().as_str(),
        "2026-07-28"
    );
    assert_eq!(attr(first, "network.transport").unwrap().as_str(), "pipe");
    assert_eq!(attr(first, "app.tenant").unwrap().as_str(), "acme");
    assert!(attr(first, "error.type").is_none());
    assert_eq!(spans[1].name, "tools/list");
    assert_eq!(attr(&spans[1], "app.tenant").unwrap().as_str(), "acme");
    assert_ne!(
        spans[1].span_context.trace_id().to_string(),
        TRACE,
        "no parent: a new trace"
    );
    assert_eq!(
        attr(&spans[2], "error.type").unwrap().as_str(),
        RESPONSE_TOO_LARGE.to_string()
    );
    assert_eq!(
        attr(&spans[3], "error.type").unwrap().as_str(),
        RATE_LIMITED.to_string()
    );
    assert_eq!(
        attr(&spans[4], "mcp.method.name").unwrap().as_str(),
        "no/such"
    );
    assert_eq!(
        attr(&spans[4], "rpc.response.status_code")
            .unwrap()
            .as_str(),
        RATE_LIMITED.to_string()
    );

    kit.meter.force_flush().unwrap();
    let rm = kit.metrics.get_finished_metrics().unwrap();
    assert_eq!(
        sum_of(&rm, "mcp_context.server.requests", ("outcome", "ok")),
        2
    );
    assert_eq!(
        sum_of(
            &rm,
            "mcp_context.server.refusals",
            ("mcp_context.limit", "rate")
        ),
        2
    );
    assert_eq!(
        sum_of(
            &rm,
            "mcp_context.server.refusals",
            ("mcp_context.limit", "response")
        ),
        1
    );
    assert_eq!(histogram_count(&rm, "mcp.server.operation.duration"), 5);

    let log = String::from_utf8(kit.log.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let requests: Vec<&Value> = lines.iter().filter(|l| l.get("method").is_some()).collect();
    assert_eq!(requests.len(), 5, "{log}");
    assert_eq!(requests[0]["trace_id"], TRACE);
    assert_eq!(requests[0]["target"], "echo");
    assert_eq!(requests[0]["annotations"]["app.tenant"], "acme");
    assert_eq!(requests[3]["error_type"], RATE_LIMITED.to_string());
    assert_eq!(
        lines.iter().filter(|l| l.get("refused").is_some()).count(),
        3
    );
    assert_eq!(
        *kit.seen.lock().unwrap(),
        [
            "tools/call true",
            "tools/list true",
            "tools/call true",
            "tools/call false",
            "no/such false"
        ]
    );
    let _ = kit.tracer.shutdown();
}

/// Over HTTP, the `traceparent` header is the parent when `_meta` carries none.
#[tokio::test]
async fn an_http_traceparent_header_is_the_parent() {
    let (host, kit) = host();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = host.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        server
            .serve_http(listener, async move {
                let _ = stopped.await;
            })
            .await
    });
    let r = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "echo")
        .header("traceparent", format!("00-{TRACE}-{PARENT}-01"))
        .body(call(7, "echo", None))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{:?}", r.text().await);
    let _ = stop.send(());
    task.await.unwrap().unwrap();
    let spans = kit.spans.get_finished_spans().unwrap();
    assert_eq!(spans.len(), 1);
    assert_eq!(spans[0].span_context.trace_id().to_string(), TRACE);
    assert_eq!(spans[0].parent_span_id.to_string(), PARENT);
    assert_eq!(
        attr(&spans[0], "network.transport").unwrap().as_str(),
        "tcp"
    );
}

/// Refuses `server/discover` and `resources/list`: requests the core answers itself.
struct NoLists;
impl Middleware for NoLists {
    fn before(&self, call: &mut Call) -> Result<(), Error> {
        match call.method.as_str() {
            "server/discover" | "resources/list" => Err(Error::application(-31_000, "not here")),
            _ => Ok(()),
        }
    }
}

/// The middleware runs at the gate: it refuses `server/discover` and `resources/list`,
/// which reach no handler, over stdio and HTTP; a tool call passes.
#[tokio::test]
async fn middleware_refuses_requests_the_core_answers() {
    let mut app = App::named("gated", "1.0.0");
    app.tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#).unwrap(),
        |_req: ToolRequest, _cx: Context| async move {
            Ok(OwnedJson::parse(r#"{"content":[]}"#).unwrap())
        },
    );
    app.middleware(NoLists);
    let host = app.build().unwrap();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}});
    let req = |id: u32, method: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": meta}}).to_string()
    };
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (r, w) = tokio::io::split(theirs);
    let server = host.clone();
    tokio::spawn(async move { server.serve(r, w).await });
    let (r, mut w) = tokio::io::split(ours);
    let mut lines = BufReader::new(r).lines();
    for line in [
        req(1, "server/discover"),
        req(2, "resources/list"),
        call(3, "echo", None),
    ] {
        w.write_all(line.as_bytes()).await.unwrap();
        w.write_all(b"\n").await.unwrap();
    }
    let mut answers = Vec::new();
    for _ in 0..3 {
        let got = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        answers.push(serde_json::from_str::<Value>(&got).unwrap());
    }
    for (a, id) in answers.iter().take(2).zip([1, 2]) {
        assert_eq!(
            (a["id"].clone(), a["error"]["code"].clone()),
            (json!(id), json!(-31_000))
        );
        assert_eq!(a["error"]["message"], "not here");
    }
    assert!(answers[2]["result"]["content"].is_array(), "{}", answers[2]);

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        host.serve_http(listener, async move {
            let _ = stopped.await;
        })
        .await
    });
    for method in ["server/discover", "resources/list"] {
        let r = reqwest::Client::new()
            .post(format!("http://{addr}/mcp"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .body(req(9, method))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"]["code"], -31_000, "{v}");
    }
    let _ = stop.send(());
    task.await.unwrap().unwrap();
}

/// The request span opens at the gate and is current while the handler runs (polled in
/// place, then as a task after an await): a span the handler opens is its child, and the
/// request span keeps the client's `traceparent` as its parent.
#[tokio::test]
async fn a_handlers_span_is_a_child_of_the_request_span() {
    use opentelemetry::trace::{Tracer as _, TracerProvider as _};
    let spans = InMemorySpanExporter::default();
    let tracer = SdkTracerProvider::builder()
        .with_simple_exporter(spans.clone())
        .build();
    let meter = SdkMeterProvider::builder().build();
    let inner = tracer.tracer("handler");
    let mut app = App::named("traced", "1.0.0");
    app.tool(
        OwnedTool::from_json_text(r#"{"name":"work","inputSchema":{"type":"object"}}"#).unwrap(),
        move |_req: ToolRequest, _cx: Context| {
            let inner = inner.clone();
            async move {
                tokio::task::yield_now().await; // the rest runs as a task
                inner.in_span("handler work", |_| ());
                Ok(OwnedJson::parse(r#"{"content":[]}"#).unwrap())
            }
        },
    );
    app.sink(Otel::new(tracer.tracer("test"), &meter.meter("test")));
    let host = app.build().unwrap();
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (r, w) = tokio::io::split(theirs);
    tokio::spawn(async move { host.serve(r, w).await });
    let (r, mut w) = tokio::io::split(ours);
    let mut lines = BufReader::new(r).lines();
    let tp = format!("00-{TRACE}-{PARENT}-01");
    w.write_all(format!("{}\n", call(1, "work", Some(&tp))).as_bytes())
        .await
        .unwrap();
    let got = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(got.contains("\"result\""), "{got}");
    let done = kit_spans(&spans, 2).await;
    let request = done.iter().find(|s| s.name == "tools/call work").unwrap();
    let child = done.iter().find(|s| s.name == "handler work").unwrap();
    assert_eq!(request.parent_span_id.to_string(), PARENT);
    assert_eq!(child.parent_span_id, request.span_context.span_id());
    assert_eq!(
        child.span_context.trace_id(),
        request.span_context.trace_id()
    );
    assert_eq!(attr(request, "gen_ai.tool.name").unwrap().as_str(), "work");
}

/// The finished spans once there are `n` (the request span ends when its observation is
/// drained, right after the answer left).
async fn kit_spans(spans: &InMemorySpanExporter, n: usize) -> Vec<SpanData> {
    for _ in 0..100 {
        let got = spans.get_finished_spans().unwrap();
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    spans.get_finished_spans().unwrap()
}
