//! What the OTLP tests share (otlp.rs, otlp_sessions.rs): tests/otlp/receiver.py started on
//! the Python of `MCP_OTLP_PYTHON`, the OTLP/HTTP protobuf exporters, the demo server.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use mcp_context::messages::owned::{
    FromJsonText, OwnedGetPromptResult, OwnedJson, OwnedPrompt, OwnedResourceContents,
    OwnedResourceTemplate, OwnedTool,
};
use mcp_context_host::telemetry::{Otel, RateLimit};
use mcp_context_host::{App, Context, Error, Host, PromptRequest, ReadRequest, ToolRequest};
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{MetricExporter, Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use serde_json::{Value, json};

pub(crate) const V: &str = "2026-07-28";
pub(crate) const META_TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
pub(crate) const META_PARENT: &str = "00f067aa0ba902b7";
pub(crate) const HEADER_TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
pub(crate) const HEADER_PARENT: &str = "b7ad6b7169203331";

/// tests/otlp/receiver.py on a free port; it exits when its stdin closes (with the test).
pub(crate) struct Receiver {
    child: Child,
    pub(crate) endpoint: String,
}

impl Receiver {
    pub(crate) fn start() -> Option<Self> {
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
        BufReader::new(child.stdout.take().unwrap())
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

pub(crate) fn app(tracer: &SdkTracerProvider, meter: &SdkMeterProvider) -> Host {
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
    // Caller 0 has five requests (both reads, the prompt, boom, big: cut after its handler
    // ran), the sixth is over its rate; the list is caller 1's (otlp.rs, `session`).
    app.sink(Otel::new(
        tracer.tracer("mcp-context"),
        &meter.meter("mcp-context"),
    ))
    .middleware(RateLimit::per_caller(0.001, 5.0))
    .limit_responses(1024);
    app.build().unwrap()
}

pub(crate) fn message(id: u32, method: &str, params: Value, traceparent: Option<&str>) -> String {
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

/// The OTLP/HTTP protobuf exporters to `endpoint`: spans through a batch processor, metrics
/// through a periodic reader (flushed by the test). Built, and shut down, outside a tokio
/// runtime: the blocking HTTP client runs on the SDK's own threads.
pub(crate) fn providers(endpoint: &str) -> (SdkTracerProvider, SdkMeterProvider) {
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

/// Flushes both providers, waits at the receiver for what `query` asks
/// (`spans=N&metric=NAME`, 20 s at most), shuts everything down and returns what it received.
pub(crate) fn collect(
    receiver: Receiver,
    rt: tokio::runtime::Runtime,
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
    query: &str,
) -> Value {
    tracer.force_flush().unwrap();
    meter.force_flush().unwrap();
    let url = format!("{}/received?{query}&timeout=20", receiver.endpoint);
    let got: Value = rt.block_on(async { reqwest::get(url).await.unwrap().json().await.unwrap() });
    drop(rt);
    tracer.shutdown().unwrap();
    meter.shutdown().unwrap();
    drop(receiver);
    got
}
