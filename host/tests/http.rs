//! The Streamable HTTP service (`Host::router`, `Host::serve_http`) on loopback, driven by raw
//! HTTP and by the crate's async client.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use mcp_context::client::Notice;
use mcp_context::messages::owned::{
    OwnedResourceContents, OwnedResourceTemplate, OwnedSubscriptionFilter,
};
use mcp_context_host::client::McpClient;
use mcp_context_host::{App, Context, Error, Host, ReadRequest};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn app() -> App {
    let mut app = App::named("http-test", "1.0.0");
    app.template(
        OwnedResourceTemplate::new("sleep://{ms}", "sleep"),
        |req: ReadRequest, _cx: Context| async move {
            let ms: u64 = req
                .var("ms")
                .and_then(|v| v.parse().ok())
                .ok_or(Error::not_found())?;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(OwnedResourceContents::text(
                &req.uri,
                None,
                format!("slept {ms}"),
            ))
        },
    );
    app
}

struct Served {
    host: Host,
    addr: std::net::SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

async fn serve() -> Served {
    let host = app().build().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = oneshot::channel();
    let h = host.clone();
    let task = tokio::spawn(async move {
        h.serve_http(listener, async move {
            let _ = rx.await;
        })
        .await
    });
    Served {
        host,
        addr,
        stop: Some(tx),
        task,
    }
}

fn url(s: &Served) -> String {
    format!("http://{}/mcp", s.addr)
}

/// Sends raw bytes and returns the status line and everything read until the server closes
/// or 5 s pass.
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(request).await.unwrap();
    let mut buf = vec![0u8; 64 * 1024];
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_millis(300), tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) if !got.is_empty() => break,
            Err(_) => {}
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test]
async fn a_64_mib_body_is_refused_with_413_before_it_is_sent() {
    let s = serve().await;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        s.addr,
        64u64 << 20
    );
    // Only the head is written: the answer must come without the body.
    let t0 = Instant::now();
    let got = raw(s.addr, head.as_bytes()).await;
    assert!(got.starts_with("HTTP/1.1 413"), "{got}");
    assert!(t0.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn head_refusals_come_from_the_core() {
    let s = serve().await;
    let post = |ct: &str, path: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: {ct}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
            s.addr
        )
    };
    assert!(
        raw(s.addr, post("text/plain", "/mcp").as_bytes())
            .await
            .starts_with("HTTP/1.1 415")
    );
    assert!(
        raw(s.addr, post("application/json", "/other").as_bytes())
            .await
            .starts_with("HTTP/1.1 404")
    );
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    );
    let got = raw(s.addr, get.as_bytes()).await;
    assert!(got.starts_with("HTTP/1.1 405"), "{got}");
    let allow = got
        .to_ascii_lowercase()
        .lines()
        .find_map(|l| l.strip_prefix("allow:").map(str::to_owned))
        .unwrap_or_default();
    assert!(allow.contains("post"), "{got}");
    let evil = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
        s.addr
    );
    assert!(
        raw(s.addr, evil.as_bytes())
            .await
            .starts_with("HTTP/1.1 403")
    );
}

#[tokio::test]
async fn a_request_is_answered_as_json_and_a_notification_with_202() {
    let s = serve().await;
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{{META},"uri":"sleep://10"}}}}"#
    );
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: resources/read\r\nMcp-Name: sleep://10\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        s.addr,
        body.len()
    );
    let t0 = Instant::now();
    let got = raw(s.addr, req.as_bytes()).await;
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    assert!(
        got.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{got}"
    );
    assert!(got.contains(r#""text":"slept 10""#), "{got}");
    assert!(
        t0.elapsed() < Duration::from_millis(300),
        "{:?}",
        t0.elapsed()
    );
    let note = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#;
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{note}",
        s.addr,
        note.len()
    );
    assert!(
        raw(s.addr, req.as_bytes())
            .await
            .starts_with("HTTP/1.1 202")
    );
}

#[tokio::test]
async fn the_async_client_reads_over_http_within_100_ms_of_the_handler() {
    let s = serve().await;
    let client = McpClient::http(&url(&s)).unwrap();
    client.connect().await.unwrap();
    for _ in 0..5 {
        let t0 = Instant::now();
        let r = client.read_resource("sleep://10").await.unwrap();
        let took = t0.elapsed();
        assert!(r.json().contains("slept 10"));
        assert!(took < Duration::from_millis(100), "{took:?}");
    }
    let err = client.read_resource("nothing://x").await.unwrap_err();
    assert!(
        err.to_string().contains("-32602") || err.to_string().contains("not found"),
        "{err}"
    );
}

#[tokio::test]
async fn two_hundred_concurrent_listens_get_their_notification_and_end_on_shutdown() {
    let mut s = serve().await;
    let client = McpClient::http(&url(&s)).unwrap();
    client.connect().await.unwrap();
    let mut subs = Vec::new();
    let opens = (0..200).map(|_| {
        let c = client.clone();
        async move {
            c.listen(OwnedSubscriptionFilter {
                resource_subscriptions: Some(vec!["sleep://1".into()]),
                ..Default::default()
            })
            .await
        }
    });
    for sub in futures_util::future::join_all(opens).await {
        subs.push(sub.expect("listen acknowledged"));
    }
    s.host.notifier().resource_updated("sleep://1");
    for sub in &mut subs {
        let n = tokio::time::timeout(Duration::from_secs(10), sub.next())
            .await
            .expect("a notification within 10 s")
            .expect("open");
        assert_eq!(
            n,
            Notice::ResourceUpdated {
                uri: "sleep://1".into()
            }
        );
    }
    // Graceful shutdown: every listen gets its result, every stream ends, the server stops.
    s.stop.take().unwrap().send(()).unwrap();
    for sub in &mut subs {
        let end = tokio::time::timeout(Duration::from_secs(10), sub.next())
            .await
            .expect("the stream ends");
        assert!(end.is_none());
        assert!(sub.end_reason().is_some());
    }
    tokio::time::timeout(Duration::from_secs(10), s.task)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_client_that_goes_away_cancels_its_listen() {
    let s = serve().await;
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"w","method":"subscriptions/listen","params":{{{META},"notifications":{{"resourceSubscriptions":["sleep://1"]}}}}}}"#
    );
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n{body}",
        s.addr,
        body.len()
    );
    let mut tcp = TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tcp.read(&mut buf).await.unwrap();
    let head = String::from_utf8_lossy(&buf[..n]);
    assert!(head.contains("text/event-stream"), "{head}");
    let subs = || s.host.notifier().with_server(|m| m.subscriptions());
    let deadline = Instant::now() + Duration::from_secs(5);
    while subs() != 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(subs(), 1);
    drop(tcp);
    let deadline = Instant::now() + Duration::from_secs(5);
    while subs() != 0 && Instant::now() < deadline {
        // A write after the close is what reveals it: notify until the stream fails.
        s.host.notifier().resource_updated("sleep://1");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(subs(), 0, "the closed stream ended the subscription");
}

/// An idle listen stream gets the core's keepalive comment at the configured interval, and a
/// real HTTP client (reqwest, parsing with the core's SSE decoder) sees it and ignores it.
#[tokio::test]
async fn an_idle_event_stream_gets_keepalives_a_client_ignores() {
    let host = app().build().unwrap();
    let options = mcp_context_host::http::HttpOptions {
        keepalive: Duration::from_millis(50),
        ..Default::default()
    };
    let router = host.router_with(options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"w","method":"subscriptions/listen","params":{{{META},"notifications":{{"resourceSubscriptions":["sleep://1"]}}}}}}"#
    );
    let resp = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "subscriptions/listen")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let mut body = resp.bytes_stream();
    let mut raw = Vec::new();
    let mut events = Vec::new();
    let mut sse = mcp_context::http::sse::SseDecoder::default();
    let deadline = Instant::now() + Duration::from_secs(5);
    let keepalives = |raw: &[u8]| {
        raw.windows(mcp_context::http::sse::KEEPALIVE.len())
            .filter(|w| *w == mcp_context::http::sse::KEEPALIVE)
            .count()
    };
    while keepalives(&raw) < 3 && Instant::now() < deadline {
        let Ok(Some(Ok(chunk))) = tokio::time::timeout(Duration::from_secs(1), body.next()).await
        else {
            break;
        };
        raw.extend_from_slice(&chunk);
        sse.feed(&chunk, |e| {
            events.push(String::from_utf8_lossy(e.data).into_owned())
        })
        .unwrap();
    }
    assert!(keepalives(&raw) >= 3, "{}", String::from_utf8_lossy(&raw));
    // Only the acknowledgment is an event; the keepalives are comments.
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        events[0].contains("notifications/subscriptions/acknowledged"),
        "{events:?}"
    );
    // The default interval is the core's one constant.
    assert_eq!(
        mcp_context_host::http::HttpOptions::default().keepalive,
        Duration::from_millis(mcp_context::http::sse::KEEPALIVE_INTERVAL_MS)
    );
}
