//! Cost of telemetry on stdio reads/s (docs/operations.md): the same host over an in-memory
//! stdio connection, a pipelined client (64 in flight) reading a template resource whose
//! handler answers at once, with telemetry off, then on (`Otel` on the OpenTelemetry SDK
//! with an in-memory span exporter and a metric reader, and `JsonLog` to a sink). Rounds
//! alternate off/on; best of each.
//!
//! `cargo run --release -p mcp-context-primitives-host --example telemetry_cost -- [seconds] [rounds]`
//!
//! `telemetry_cost serve-http PORT off|on` serves the same app over HTTP on 127.0.0.1:PORT
//! (prints `listening PORT`) for an HTTP load client: `./bench.sh --only offcost` drives it
//! with wrk, off against on in the same run.

use std::time::{Duration, Instant};

use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
use mcp_context_host::telemetry::{JsonLog, Otel};
use mcp_context_host::{App, Context, ReadRequest};
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const WINDOW: usize = 64;

fn app(on: bool) -> App {
    let mut app = App::named("cost", "1.0.0");
    app.template(
        OwnedResourceTemplate::new("note://{id}", "note"),
        |req: ReadRequest, _cx: Context| async move {
            Ok(OwnedResourceContents::text(
                &req.uri,
                Some("text/plain"),
                "hello",
            ))
        },
    );
    if on {
        let tracer = opentelemetry_sdk::trace::SdkTracerProvider::builder()
            .with_simple_exporter(opentelemetry_sdk::trace::InMemorySpanExporter::default())
            .build();
        let meter = opentelemetry_sdk::metrics::SdkMeterProvider::builder()
            .with_reader(
                opentelemetry_sdk::metrics::PeriodicReader::builder(
                    opentelemetry_sdk::metrics::InMemoryMetricExporter::default(),
                )
                .build(),
            )
            .build();
        app.sink(Otel::new(tracer.tracer("cost"), &meter.meter("cost")))
            .sink(JsonLog::new(std::io::sink()));
    }
    app
}

async fn round(on: bool, seconds: f64) -> f64 {
    let host = app(on).build().expect("build");
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    let (r, w) = tokio::io::split(theirs);
    tokio::spawn(async move { host.serve(r, w).await });
    let (r, mut w) = tokio::io::split(ours);
    let mut lines = BufReader::new(r).lines();
    let line = |i: u64| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"resources/read","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}},"uri":"note://{i}"}}}}"#
        ) + "\n"
    };
    let (mut sent, mut got) = (0u64, 0u64);
    let t0 = Instant::now();
    let end = t0 + Duration::from_secs_f64(seconds);
    loop {
        while sent - got < WINDOW as u64 {
            w.write_all(line(sent).as_bytes()).await.expect("write");
            sent += 1;
        }
        let answer = lines.next_line().await.expect("read").expect("a line");
        assert!(answer.contains("hello"), "{answer}");
        got += 1;
        if Instant::now() >= end {
            break;
        }
    }
    #[allow(clippy::cast_precision_loss)]
    let rate = got as f64 / t0.elapsed().as_secs_f64();
    rate
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("serve-http") {
        let port: u16 = args.get(2).and_then(|p| p.parse().ok()).expect("PORT");
        let on = args.get(3).map(String::as_str) == Some("on");
        let host = app(on).build().expect("build");
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind");
        println!("listening {port}");
        host.serve_http(listener, std::future::pending())
            .await
            .expect("serve");
        return;
    }
    let seconds = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let rounds = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let (mut off, mut on) = (0f64, 0f64);
    for _ in 0..rounds {
        let a = round(false, seconds).await;
        let b = round(true, seconds).await;
        println!("off {a:.0}/s on {b:.0}/s");
        off = off.max(a);
        on = on.max(b);
    }
    println!(
        "best off {off:.0}/s, on {on:.0}/s, on/off = {:.2}",
        on / off
    );
}
