//! Cost of the gate on stdio reads (docs/operations.md "Cost"): the same host over an
//! in-memory stdio connection, a pipelined client (64 in flight) reading a template
//! resource whose handler answers at once. `off`: no middleware (the gate is off); `noop`:
//! one middleware that allows everything (the gate on, every request through the chain).
//!
//! `cargo run --release -p mcp-context-primitives-host --example gate_cost -- MODE seconds S`
//! prints reads/s; `… -- MODE reads N` serves exactly N reads on one thread (for callgrind:
//! the instructions of 2N reads minus those of N, over N, are the per-read cost).

use std::time::{Duration, Instant};

use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
use mcp_context_host::telemetry::Middleware;
use mcp_context_host::{App, Context, ReadRequest};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const WINDOW: u64 = 64;

struct Allow;
impl Middleware for Allow {}

fn app(mode: &str) -> App {
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
    if mode == "noop" {
        app.middleware(Allow);
    }
    app
}

/// Reads until `seconds` passed or `count` were answered; the answered reads and the time.
async fn run(mode: &str, seconds: f64, count: u64) -> (u64, f64) {
    let host = app(mode).build().expect("build");
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
        while sent - got < WINDOW && sent < count {
            w.write_all(line(sent).as_bytes()).await.expect("write");
            sent += 1;
        }
        let answer = lines.next_line().await.expect("read").expect("a line");
        assert!(answer.contains("hello"), "{answer}");
        got += 1;
        if got >= count || Instant::now() >= end {
            break;
        }
    }
    (got, t0.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("off", String::as_str).to_owned();
    let what = args.get(2).map_or("seconds", String::as_str);
    let n: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    if what == "reads" {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let (got, _) = rt.block_on(run(&mode, 1.0e6, n as u64));
        println!("{mode}: {got} reads");
        return;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (got, secs) = rt.block_on(run(&mode, n, u64::MAX));
    #[allow(clippy::cast_precision_loss)]
    let rate = got as f64 / secs;
    println!("{mode}: {rate:.0} reads/s");
}
