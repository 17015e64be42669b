//! The load client: opens N `subscriptions/listen` streams over HTTP (one connection each,
//! raw tokio sockets, no HTTP library), reads the server's resident memory before and
//! after, triggers one update (`POST /touch`, outside MCP) and times its arrival on every
//! stream. Prints one JSON line.
//!
//! ```text
//! listen-load --addr 127.0.0.1:PORT --pid PID --n 10000 [--label rust] [--path /mcp]
//!             [--touch /touch] [--uri bench://hot] [--concurrency 256] [--sources 1]
//!             [--settle-ms 1500] [--format json|table]
//! ```
//!
//! `--sources K` spreads the connections over the source addresses 127.0.0.1..127.0.0.K
//! (one address has about 28,000 ephemeral ports: 100,000 listens need 4 or more).
//! The delay of a stream is from just before the trigger is written to the read that holds
//! its `notifications/resources/updated`; it counts each stream's updates, so a duplicate
//! or a missing one shows in `delivered` / `duplicates`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::{Notify, Semaphore};

struct Args {
    addr: SocketAddr,
    pid: Option<u32>,
    n: usize,
    label: String,
    path: String,
    touch: String,
    uri: String,
    concurrency: usize,
    sources: u8,
    settle: Duration,
    table: bool,
}

fn parse() -> Args {
    let argv: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        argv.iter()
            .position(|a| a == name)
            .and_then(|i| argv.get(i + 1).cloned())
    };
    Args {
        addr: get("--addr")
            .expect("--addr host:port")
            .parse()
            .expect("--addr host:port"),
        pid: get("--pid").and_then(|v| v.parse().ok()),
        n: get("--n").and_then(|v| v.parse().ok()).unwrap_or(10_000),
        label: get("--label").unwrap_or_else(|| "server".to_owned()),
        path: get("--path").unwrap_or_else(|| "/mcp".to_owned()),
        touch: get("--touch").unwrap_or_else(|| "/touch".to_owned()),
        uri: get("--uri").unwrap_or_else(|| "bench://hot".to_owned()),
        concurrency: get("--concurrency")
            .and_then(|v| v.parse().ok())
            .unwrap_or(256),
        sources: get("--sources").and_then(|v| v.parse().ok()).unwrap_or(1),
        table: get("--format").is_some_and(|f| f == "table"),
        settle: Duration::from_millis(
            get("--settle-ms")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1500),
        ),
    }
}

/// Resident memory of `pid` in KiB (`VmRSS`).
fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn listen_request(a: &Args, i: usize) -> Vec<u8> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{i},"method":"subscriptions/listen","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}},"notifications":{{"resourceSubscriptions":["{}"]}}}}}}"#,
        a.uri
    );
    format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        a.path,
        a.addr,
        body.len()
    )
    .into_bytes()
}

const ACK: &[u8] = b"subscriptions/acknowledged";
const UPDATED: &[u8] = b"resources/updated";

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

struct Shared {
    base: Instant,
    /// Nanoseconds since `base` of each stream's first update (0 = none yet).
    arrived: Vec<AtomicU64>,
    updates: AtomicU64,
    duplicates: AtomicU64,
    ready: AtomicU32,
    failed: AtomicU32,
    ready_note: Notify,
    done_note: Notify,
}

async fn connect(a: &Args, i: usize) -> std::io::Result<TcpStream> {
    if a.sources <= 1 {
        let s = TcpStream::connect(a.addr).await?;
        s.set_nodelay(true)?;
        return Ok(s);
    }
    let k = u8::try_from(i % usize::from(a.sources)).unwrap_or(0) + 1;
    let sock = TcpSocket::new_v4()?;
    sock.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, k)), 0))?;
    let s = sock.connect(a.addr).await?;
    s.set_nodelay(true)?;
    Ok(s)
}

/// One listen: open, wait for the acknowledgment, then count updates until the end.
async fn listen(a: Arc<Args>, sh: Arc<Shared>, i: usize, gate: Arc<Semaphore>) {
    let permit = gate.acquire_owned().await;
    let mut tcp = match connect(&a, i).await {
        Ok(t) => t,
        Err(_) => {
            sh.failed.fetch_add(1, Ordering::Relaxed);
            sh.ready_note.notify_one();
            return;
        }
    };
    let req = listen_request(&a, i);
    if tcp.write_all(&req).await.is_err() {
        sh.failed.fetch_add(1, Ordering::Relaxed);
        sh.ready_note.notify_one();
        return;
    }
    let mut buf = vec![0u8; 2048];
    let mut acked = false;
    let mut carry: Vec<u8> = Vec::new();
    let mut permit = permit.ok();
    loop {
        let n = match tcp.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let at = sh.base.elapsed().as_nanos();
        carry.extend_from_slice(&buf[..n]);
        if !acked {
            if carry.windows(ACK.len()).any(|w| w == ACK) {
                acked = true;
                permit.take();
                sh.ready.fetch_add(1, Ordering::Relaxed);
                sh.ready_note.notify_one();
            } else if carry.len() > 64 * 1024 {
                break;
            } else {
                continue;
            }
        }
        let ups = count(&carry, UPDATED);
        if ups > 0 {
            let prev = sh.arrived[i].load(Ordering::Relaxed);
            if prev == 0 {
                sh.arrived[i].store(
                    u64::try_from(at).unwrap_or(u64::MAX).max(1),
                    Ordering::Relaxed,
                );
                sh.duplicates.fetch_add(ups as u64 - 1, Ordering::Relaxed);
            } else {
                sh.duplicates.fetch_add(ups as u64, Ordering::Relaxed);
            }
            if sh.updates.fetch_add(1, Ordering::Relaxed) + 1 == sh.arrived.len() as u64 {
                sh.done_note.notify_one();
            }
        }
        // Keep a tail for a marker cut between two reads.
        let keep = carry.len().min(UPDATED.len().max(ACK.len()));
        let tail = carry.split_off(carry.len() - keep);
        carry = tail;
    }
    if !acked {
        sh.failed.fetch_add(1, Ordering::Relaxed);
        sh.ready_note.notify_one();
    }
}

/// `GET /heap` of a server that counts its heap (the Rust one): (bytes, blocks).
async fn heap(a: &Args) -> Option<(i64, i64)> {
    let mut tcp = TcpStream::connect(a.addr).await.ok()?;
    let req = format!(
        "GET /heap HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        a.addr
    );
    tcp.write_all(req.as_bytes()).await.ok()?;
    let mut got = Vec::new();
    tcp.read_to_end(&mut got).await.ok()?;
    let text = String::from_utf8_lossy(&got);
    if !text.starts_with("HTTP/1.1 200") {
        return None;
    }
    let body = text.split("\r\n\r\n").nth(1)?;
    let mut it = body.split_whitespace();
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

async fn touch(a: &Args) -> std::io::Result<()> {
    let mut tcp = TcpStream::connect(a.addr).await?;
    tcp.set_nodelay(true)?;
    let req = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        a.touch, a.addr
    );
    tcp.write_all(req.as_bytes()).await?;
    let mut sink = Vec::new();
    let _ = tcp.read_to_end(&mut sink).await;
    Ok(())
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1e6
}

#[tokio::main]
async fn main() {
    let a = Arc::new(parse());
    let rss0 = a.pid.and_then(rss_kib);
    let heap0 = heap(&a).await;
    let sh = Arc::new(Shared {
        base: Instant::now(),
        arrived: (0..a.n).map(|_| AtomicU64::new(0)).collect(),
        updates: AtomicU64::new(0),
        duplicates: AtomicU64::new(0),
        ready: AtomicU32::new(0),
        failed: AtomicU32::new(0),
        ready_note: Notify::new(),
        done_note: Notify::new(),
    });
    let gate = Arc::new(Semaphore::new(a.concurrency));
    let opening = Instant::now();
    let mut tasks = Vec::with_capacity(a.n);
    for i in 0..a.n {
        tasks.push(tokio::spawn(listen(a.clone(), sh.clone(), i, gate.clone())));
    }
    let total = u32::try_from(a.n).unwrap_or(u32::MAX);
    loop {
        let note = sh.ready_note.notified();
        let (r, f) = (
            sh.ready.load(Ordering::Relaxed),
            sh.failed.load(Ordering::Relaxed),
        );
        if r + f >= total {
            break;
        }
        if tokio::time::timeout(Duration::from_secs(60), note)
            .await
            .is_err()
        {
            break;
        }
    }
    let open_s = opening.elapsed().as_secs_f64();
    let ready = sh.ready.load(Ordering::Relaxed);
    // Let the server settle (allocator, lazy buffers) before reading its memory.
    tokio::time::sleep(a.settle).await;
    let rss1 = a.pid.and_then(rss_kib);
    let heap1 = heap(&a).await;
    let t0 = sh.base.elapsed().as_nanos() as u64;
    let done = sh.done_note.notified();
    let _ = touch(&a).await;
    let all = tokio::time::timeout(Duration::from_secs(30), done)
        .await
        .is_ok();
    if !all {
        // Stragglers: whatever arrived in the window counts.
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A moment for duplicates to show.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut delays: Vec<u64> = sh
        .arrived
        .iter()
        .map(|x| x.load(Ordering::Relaxed))
        .filter(|&t| t != 0)
        .map(|t| t.saturating_sub(t0))
        .collect();
    delays.sort_unstable();
    let kb = match (rss0, rss1) {
        (Some(r0), Some(r1)) if ready > 0 => {
            format!("{:.2}", (r1.saturating_sub(r0)) as f64 / f64::from(ready))
        }
        _ => "null".to_owned(),
    };
    let (heap_kb, blocks) = match (heap0, heap1) {
        (Some((b0, k0)), Some((b1, k1))) if ready > 0 => (
            format!("{:.2}", (b1 - b0) as f64 / 1024.0 / f64::from(ready)),
            format!("{:.1}", (k1 - k0) as f64 / f64::from(ready)),
        ),
        _ => ("null".to_owned(), "null".to_owned()),
    };
    let mb = |r: Option<u64>| r.map_or("null".to_owned(), |k| format!("{:.1}", k as f64 / 1024.0));
    if a.table {
        println!(
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {} | {:.1} |",
            a.label,
            ready,
            kb,
            pct(&delays, 0.50),
            pct(&delays, 0.99),
            pct(&delays, 1.0),
            delays.len(),
            open_s
        );
        for t in tasks {
            t.abort();
        }
        return;
    }
    println!(
        "{{\"server\":\"{}\",\"listens\":{},\"open\":{},\"failed\":{},\"open_s\":{:.2},\"rss_before_mb\":{},\"rss_after_mb\":{},\"kb_per_listen\":{},\"heap_kb_per_listen\":{},\"heap_blocks_per_listen\":{},\"delivered\":{},\"duplicates\":{},\"fanout_p50_ms\":{:.2},\"fanout_p99_ms\":{:.2},\"fanout_max_ms\":{:.2}}}",
        a.label,
        a.n,
        ready,
        sh.failed.load(Ordering::Relaxed),
        open_s,
        mb(rss0),
        mb(rss1),
        kb,
        heap_kb,
        blocks,
        delays.len(),
        sh.duplicates.load(Ordering::Relaxed),
        pct(&delays, 0.50),
        pct(&delays, 0.99),
        pct(&delays, 1.0),
    );
    for t in tasks {
        t.abort();
    }
}
