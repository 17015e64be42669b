//! 2025-11-25 sessions over real HTTP (`Host::serve_http` on loopback): the core's session
//! rules reach the wire through the axum runner, the peer address included
//! (docs/rules.md §17.3 items 9-11).

use std::net::SocketAddr;

use mcp_context::server::ServerConfig;
use mcp_context_host::{App, Host};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

struct Served {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    _host: Host,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn serve(config: ServerConfig) -> Served {
    let host = App::with_config(config).build().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let h = host.clone();
    tokio::spawn(async move {
        h.serve_http(listener, async move {
            let _ = rx.await;
        })
        .await
    });
    Served {
        addr,
        stop: Some(tx),
        _host: host,
    }
}

/// A response: status, headers (lowercase names), body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// One POST on its own connection (`Connection: close`).
async fn post(
    addr: SocketAddr,
    session: Option<&str>,
    version: Option<&str>,
    body: &Value,
) -> Answer {
    let body = body.to_string();
    let mut req = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    if let Some(s) = session {
        req += &format!("Mcp-Session-Id: {s}\r\n");
    }
    if let Some(v) = version {
        req += &format!("MCP-Protocol-Version: {v}\r\n");
    }
    req += "\r\n";
    req += &body;
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut got = String::new();
    tcp.read_to_string(&mut got).await.unwrap();
    let (head, body) = got.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
           "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "t", "version": "1"}}})
}

const PING: &str = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;

/// A real client's handshake: `initialize`, `notifications/initialized`, a `ping`.
async fn connect(addr: SocketAddr) -> Result<String, Answer> {
    let r = post(addr, None, None, &initialize()).await;
    if r.status != 200 {
        return Err(r);
    }
    let id = r.header("mcp-session-id").unwrap().to_owned();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        post(addr, Some(&id), Some("2025-11-25"), &note)
            .await
            .status,
        202
    );
    let ping: Value = serde_json::from_str(PING).unwrap();
    let r = post(addr, Some(&id), Some("2025-11-25"), &ping).await;
    assert_eq!((r.status, r.json()["result"].clone()), (200, json!({})));
    Ok(id)
}

#[tokio::test]
async fn an_unsupported_protocol_version_in_a_session_is_400() {
    let s = serve(ServerConfig::default()).await;
    let id = connect(s.addr).await.unwrap();
    let ping: Value = serde_json::from_str(PING).unwrap();
    let r = post(s.addr, Some(&id), Some("1999-01-01"), &ping).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], -32600);
    // A second initialize in the session: 400, -32600.
    let r = post(s.addr, Some(&id), Some("2025-11-25"), &initialize()).await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (400, json!(-32600))
    );
    assert_eq!(post(s.addr, Some(&id), None, &ping).await.status, 200);
}

#[tokio::test]
async fn a_flood_of_half_open_sessions_still_lets_a_real_client_in() {
    let s = serve(ServerConfig::default()).await;
    // More `initialize` POSTs than the table holds (1,024), none followed by a request.
    for i in 0..1_100 {
        let r = post(s.addr, None, None, &initialize()).await;
        assert_eq!(r.status, 200, "flood {i}: {}", r.body);
    }
    connect(s.addr).await.unwrap();
}

#[tokio::test]
async fn the_peer_address_reaches_the_per_peer_bound() {
    let s = serve(ServerConfig {
        max_sessions_per_peer: 2,
        ..ServerConfig::default()
    })
    .await;
    connect(s.addr).await.unwrap();
    connect(s.addr).await.unwrap();
    // Both of 127.0.0.1's places are established: 429 with Retry-After.
    let r = connect(s.addr).await.unwrap_err();
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("60"));
    assert_eq!(r.json()["error"]["code"], -32603);
}
