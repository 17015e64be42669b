//! Reads per second and latency of `resources/read`: a server on `mcp-context-primitives-host` against
//! the same server on rmcp (the Rust SDK), over stdio and Streamable HTTP, driven by the
//! same client (`mcp_context_host::client::McpClient`, the core's client machine) in the
//! same run.
//!
//! ```text
//! cargo run --release --manifest-path host/bench/Cargo.toml -- [--seconds 5] [--inflight 64] [--rounds 3] [--only stdio|http]
//! ```
//!
//! Each server runs in its own process (this binary, `serve <kind>`); the driver keeps
//! `--inflight` reads outstanding for `--seconds` after a one-second warm-up, and reports
//! reads per second and the p50/p99 round-trip latency. Over HTTP it runs twice: with the
//! async client (reqwest), and with a raw HTTP/1.1 load generator (`raw`) whose own cost is
//! small, so the servers' difference shows.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_context::client::ClientConfig;
use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
use mcp_context_host::client::McpClient;
use mcp_context_host::{App, Context, Error, ReadRequest};
use tokio::io::AsyncBufReadExt;
use tokio::process::Command;

mod pipe;

const TEMPLATE: &str = "bench://item/{id}";

fn ours() -> App {
    let mut app = App::named("bench-ours", "1.0.0");
    app.template(
        OwnedResourceTemplate::new(TEMPLATE, "item"),
        |req: ReadRequest, _cx: Context| async move {
            let id = req.var("id").ok_or(Error::not_found())?;
            Ok(OwnedResourceContents::text(
                &req.uri,
                Some("text/plain"),
                format!("item {id}"),
            ))
        },
    );
    app
}

mod theirs {
    use rmcp::model::ReadResourceResponse;
    use rmcp::model::{
        CacheScope, ReadResourceRequestParams, ReadResourceResult, ResourceContents,
        ServerCapabilities, ServerConfig,
    };
    use rmcp::service::RequestContext;
    use rmcp::{ErrorData, RoleServer, ServerHandler};

    /// The same server on rmcp: one template, text contents.
    #[derive(Clone, Copy)]
    pub(crate) struct Bench;

    impl ServerHandler for Bench {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
        }

        async fn read_resource(
            &self,
            request: ReadResourceRequestParams,
            _context: RequestContext<RoleServer>,
        ) -> Result<ReadResourceResponse, ErrorData> {
            let Some(id) = request.uri.strip_prefix("bench://item/") else {
                return Err(ErrorData::resource_not_found("not found", None));
            };
            let text = format!("item {id}");
            let contents = ResourceContents::text(text, request.uri.clone());
            Ok(ReadResourceResult::new(vec![contents])
                .with_ttl_ms(0)
                .with_cache_scope(CacheScope::Private)
                .into())
        }
    }
}

async fn serve(kind: &str, port: Option<u16>) {
    match kind {
        "floor-stdio" => pipe::floor(),
        "ours-stdio" => {
            mcp_context_host::serve_stdio(ours()).await.expect("serve");
        }
        "rmcp-stdio" => {
            use rmcp::ServiceExt;
            let running = theirs::Bench
                .serve(rmcp::transport::stdio())
                .await
                .expect("serve");
            let _ = running.waiting().await;
        }
        "ours-http" | "rmcp-http" | "axum-http" => {
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", port.unwrap_or(0)))
                .await
                .expect("bind");
            let addr = listener.local_addr().expect("addr");
            println!("ready http://{addr}/mcp");
            if kind == "axum-http" {
                // The ceiling: axum answering every POST with a fixed result, no MCP at all.
                const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","contents":[{"uri":"bench://item/1","mimeType":"text/plain","text":"item 1"}],"ttlMs":0,"cacheScope":"private"}}"#;
                let router = axum::Router::new().route(
                    "/mcp",
                    axum::routing::post(|_body: axum::body::Bytes| async {
                        ([("content-type", "application/json")], BODY)
                    }),
                );
                use axum::serve::ListenerExt;
                let listener = listener.tap_io(|tcp| {
                    let _ = tcp.set_nodelay(true);
                });
                axum::serve(listener, router).await.expect("serve");
            } else if kind == "ours-http" {
                let host = ours().build().expect("build");
                host.serve_http(listener, std::future::pending())
                    .await
                    .expect("serve");
            } else {
                use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
                use rmcp::transport::streamable_http_server::{
                    StreamableHttpServerConfig, StreamableHttpService,
                };
                let mut config = StreamableHttpServerConfig::default();
                config.json_response = true;
                let service = StreamableHttpService::new(
                    || Ok(theirs::Bench),
                    LocalSessionManager::default().into(),
                    config,
                );
                let router = axum::Router::new().nest_service("/mcp", service);
                // TCP_NODELAY, as `Host::serve_http` sets it.
                use axum::serve::ListenerExt;
                let listener = listener.tap_io(|tcp| {
                    let _ = tcp.set_nodelay(true);
                });
                axum::serve(listener, router).await.expect("serve");
            }
        }
        other => panic!("unknown server {other}"),
    }
}

struct Run {
    reads: u64,
    seconds: f64,
    p50: Duration,
    p99: Duration,
}

async fn drive(client: McpClient, seconds: u64, inflight: usize) -> Run {
    client.connect().await.expect("connect");
    client
        .read_resource("bench://item/0")
        .await
        .expect("first read");
    let measuring = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for w in 0..inflight {
        let (c, measuring, stop) = (client.clone(), measuring.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let uri = format!("bench://item/{w}-{i}");
                i += 1;
                let t0 = Instant::now();
                c.read_resource(&uri).await.expect("read");
                if measuring.load(Ordering::Relaxed) {
                    lat.push(t0.elapsed());
                }
            }
            lat
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    measuring.store(false, Ordering::Relaxed);
    let elapsed = t0.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("join"));
    }
    client.close();
    summarize(all, elapsed)
}

/// A minimal HTTP/1.1 load generator: `inflight` keep-alive connections, each sending one
/// pre-encoded `resources/read` POST (the 2026-07-28 headers included) and reading the
/// response (`Content-Length` or chunked) before the next. It parses nothing else, so the
/// server's cost dominates; the same bytes go to both servers.
mod raw {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::Run;

    fn request(addr: &str, i: u64) -> Vec<u8> {
        let uri = format!("bench://item/{i}");
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"resources/read","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}},"uri":"{uri}"}}}}"#
        );
        format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: resources/read\r\nMcp-Name: {uri}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    /// Reads one response; returns whether it was a 200 whose body names `item`.
    async fn response(tcp: &mut TcpStream, buf: &mut Vec<u8>) -> bool {
        let mut tmp = [0u8; 16 * 1024];
        loop {
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                let ok = head.starts_with("http/1.1 200");
                let body_start = end + 4;
                if let Some(len) = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                {
                    while buf.len() < body_start + len {
                        let n = tcp.read(&mut tmp).await.unwrap_or(0);
                        if n == 0 {
                            return false;
                        }
                        buf.extend_from_slice(&tmp[..n]);
                    }
                    let found = buf[body_start..body_start + len]
                        .windows(5)
                        .any(|w| w == b"item ");
                    buf.drain(..body_start + len);
                    return ok && found;
                }
                // Chunked: read until the terminating chunk.
                loop {
                    if let Some(p) = buf[body_start..].windows(5).position(|w| w == b"0\r\n\r\n") {
                        let found = buf[body_start..].windows(5).any(|w| w == b"item ");
                        buf.drain(..body_start + p + 5);
                        return ok && found;
                    }
                    let n = tcp.read(&mut tmp).await.unwrap_or(0);
                    if n == 0 {
                        return false;
                    }
                    buf.extend_from_slice(&tmp[..n]);
                }
            }
            let n = tcp.read(&mut tmp).await.unwrap_or(0);
            if n == 0 {
                return false;
            }
            buf.extend_from_slice(&tmp[..n]);
        }
    }

    pub(crate) async fn drive(addr: String, seconds: u64, inflight: usize) -> Run {
        let measuring = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let mut tasks = Vec::new();
        for w in 0..inflight {
            let (addr, measuring, stop) = (addr.clone(), measuring.clone(), stop.clone());
            tasks.push(tokio::spawn(async move {
                let mut tcp = TcpStream::connect(&addr).await.expect("connect");
                tcp.set_nodelay(true).expect("nodelay");
                let mut buf = Vec::new();
                let mut lat = Vec::new();
                let mut i = (w as u64) << 32;
                while !stop.load(Ordering::Relaxed) {
                    i += 1;
                    let t0 = Instant::now();
                    tcp.write_all(&request(&addr, i)).await.expect("write");
                    assert!(
                        response(&mut tcp, &mut buf).await,
                        "a 200 with the contents"
                    );
                    if measuring.load(Ordering::Relaxed) {
                        lat.push(t0.elapsed());
                    }
                }
                lat
            }));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        measuring.store(true, Ordering::Relaxed);
        let t0 = Instant::now();
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        measuring.store(false, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("join"));
        }
        super::summarize(all, elapsed)
    }
}

fn summarize(mut all: Vec<Duration>, seconds: f64) -> Run {
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    Run {
        reads: all.len() as u64,
        seconds,
        p50: pct(0.50),
        p99: pct(0.99),
    }
}

/// The run with the median rate.
fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by(|a, b| {
        let (ra, rb) = (a.reads as f64 / a.seconds, b.reads as f64 / b.seconds);
        ra.total_cmp(&rb)
    });
    let mid = runs.len() / 2;
    runs.swap_remove(mid)
}

fn config() -> ClientConfig {
    let mut c = mcp_context_host::client::default_config();
    c.cache = None;
    c
}

async fn bench(kind: &str, seconds: u64, inflight: usize, raw_client: bool) -> Run {
    let exe = std::env::current_exe().expect("exe");
    if kind.ends_with("stdio") {
        let mut cmd = Command::new(exe);
        cmd.args(["serve", kind]);
        let client = McpClient::spawn_with(cmd, config()).expect("spawn");
        return drive(client, seconds, inflight).await;
    }
    let mut child = Command::new(exe)
        .args(["serve", kind])
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let line = lines.next_line().await.expect("read").expect("ready line");
    let url = line.trim_start_matches("ready ").to_owned();
    let run = if raw_client {
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_owned();
        raw::drive(addr, seconds, inflight).await
    } else {
        let client = McpClient::http_with(&url, config()).expect("client");
        drive(client, seconds, inflight).await
    };
    let _ = child.kill().await;
    run
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        let port = args.get(2).and_then(|p| p.parse().ok());
        return serve(&args[1], port).await;
    }
    if args.first().map(String::as_str) == Some("stdio") {
        return stdio(&args[1..]);
    }
    let mut seconds = 5;
    let mut inflight = 64;
    let mut only: Option<String> = None;
    let mut rounds = 3;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => seconds = it.next().and_then(|v| v.parse().ok()).expect("--seconds N"),
            "--inflight" => {
                inflight = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--inflight N")
            }
            "--only" => only = it.next().cloned(),
            "--rounds" => rounds = it.next().and_then(|v| v.parse().ok()).expect("--rounds N"),
            other => panic!("unknown argument {other}"),
        }
    }
    println!(
        "resources/read, {inflight} in flight, {seconds} s per run (after 1 s warm-up), median of {rounds} alternating runs, same client"
    );
    println!("| transport | client | server | reads/s | p50 | p99 | ratio |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (transport, client, raw_client) in [
        ("stdio", "McpClient", false),
        ("http", "McpClient", false),
        ("http", "raw HTTP/1.1", true),
    ] {
        if only.as_deref().is_some_and(|o| o != transport) {
            continue;
        }
        // Alternate the servers `rounds` times and keep each one's median round: the machine
        // is shared, so a single run can land on a busy second.
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            ours.push(bench(&format!("ours-{transport}"), seconds, inflight, raw_client).await);
            theirs.push(bench(&format!("rmcp-{transport}"), seconds, inflight, raw_client).await);
        }
        let (ours, theirs) = (median(ours), median(theirs));
        if raw_client {
            let floor = bench("axum-http", seconds, inflight, true).await;
            println!(
                "| {transport} | {client} | axum, fixed answer (no MCP: the ceiling) | {:.0} | {:.2} ms | {:.2} ms | |",
                floor.reads as f64 / floor.seconds,
                floor.p50.as_secs_f64() * 1e3,
                floor.p99.as_secs_f64() * 1e3,
            );
        }
        let rate = |r: &Run| r.reads as f64 / r.seconds;
        for (name, r) in [
            ("mcp-context-primitives-host", &ours),
            ("rmcp 3.11.0", &theirs),
        ] {
            println!(
                "| {transport} | {client} | {name} | {:.0} | {:.2} ms | {:.2} ms | {} |",
                rate(r),
                r.p50.as_secs_f64() * 1e3,
                r.p99.as_secs_f64() * 1e3,
                if std::ptr::eq(r, &ours) {
                    format!("{:.2}x", rate(&ours) / rate(&theirs))
                } else {
                    "1x".to_owned()
                }
            );
        }
    }
}

/// `stdio [--seconds S] [--window W] [--rounds R] [--line L] [--expect E] [--pre L]... [--note L]... [NAME=CMD]...`:
/// pipelined reads per second of each stdio server (default: the floor, ours, rmcp), the same
/// client, interleaved rounds, the best round of each; ratios to the first server.
fn stdio(args: &[String]) {
    let exe = std::env::current_exe().expect("exe");
    let exe = exe.to_string_lossy();
    let mut o = pipe::Options {
        seconds: 3.0,
        window: 64,
        line: r#"{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"bench://item/1"}}"#.to_owned(),
        expect: Vec::new(),
        pre: Vec::new(),
        notes: Vec::new(),
    };
    let mut rounds = 3;
    let mut tsv = None;
    let mut targets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .unwrap_or_else(|| panic!("{a} needs a value"))
        };
        match a.as_str() {
            "--seconds" => o.seconds = val().parse().expect("--seconds S"),
            "--window" => o.window = val().parse().expect("--window W"),
            "--rounds" => rounds = val().parse().expect("--rounds R"),
            "--line" => o.line = val(),
            "--expect" => o.expect.push(val()),
            "--tsv" => tsv = Some(val()),
            "--pre" => o.pre.push(val()),
            "--note" => o.notes.push(val()),
            t => {
                let (name, cmd) = t.split_once('=').expect("NAME=CMD");
                targets.push(pipe::Target {
                    name: name.to_owned(),
                    cmd: cmd.split_whitespace().map(str::to_owned).collect(),
                });
            }
        }
    }
    if o.expect.is_empty() {
        o.expect.push("item 1".to_owned());
    }
    if targets.is_empty() {
        for (name, kind) in [
            ("floor (30-line Rust, canned answer)", "floor-stdio"),
            ("mcp-context-host serve_stdio", "ours-stdio"),
            ("rmcp 3.11.0", "rmcp-stdio"),
        ] {
            targets.push(pipe::Target {
                name: name.to_owned(),
                cmd: vec![exe.to_string(), "serve".to_owned(), kind.to_owned()],
            });
        }
    }
    let best = pipe::compare(&targets, &o, rounds);
    println!(
        "stdio, pipelined resources/read, {} in flight, {} s per run after 1 s warm-up, best of {rounds} interleaved rounds",
        o.window, o.seconds
    );
    println!("| server | reads/s | × {} |", targets[0].name);
    println!("| --- | ---: | ---: |");
    for (t, r) in targets.iter().zip(&best) {
        println!("| {} | {:.0} | {:.2} |", t.name, r, r / best[0]);
    }
    if let Some(path) = tsv {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("--tsv file");
        for (t, r) in targets.iter().zip(&best) {
            writeln!(f, "{}\t{r}", t.name).expect("write --tsv");
        }
    }
}
