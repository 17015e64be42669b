//! 2025-11-25 HTTP sessions: the `MCP-Protocol-Version` header inside a session, a second
//! `initialize`, and the session-flood policy (half-open sessions evicted first and bounded
//! by `session_handshake_ms`, the per-peer bound, 503/429 with `Retry-After` when only
//! established sessions hold the places). docs/rules.md §17.3 items 9-11.

mod common;
mod server_harness;

use core::net::IpAddr;

use mcp_context::http::{HttpResponse, HttpStart, RequestHead};
use mcp_context::server::{Ctx, LEGACY_VERSIONS, Server, ServerConfig, StreamId};
use serde_json::{Value, json};
use server_harness::catalogue;

const LEGACY: &str = "2025-11-25";

/// An HTTP client of one machine: each call is one POST/GET/DELETE on a fresh stream.
struct H {
    server: Server,
    now: u64,
    stream: u64,
}

impl H {
    fn new(config: ServerConfig) -> Self {
        Self {
            server: catalogue(config),
            now: 1_000,
            stream: 0,
        }
    }

    /// One request; `version` is the `MCP-Protocol-Version` header.
    fn call(
        &mut self,
        method: &str,
        session: Option<&str>,
        version: Option<&str>,
        body: &Value,
        peer: Option<&str>,
    ) -> HttpResponse {
        let head = RequestHead {
            method,
            path: "/mcp",
            host: Some("localhost:8080"),
            content_type: Some("application/json"),
            accept: Some("application/json, text/event-stream"),
            protocol_version: version,
            session_id: session,
            ..RequestHead::default()
        };
        let bytes = if body.is_null() {
            vec![]
        } else {
            serde_json::to_vec(body).unwrap()
        };
        self.stream += 1;
        let mut ctx = Ctx::http(StreamId(self.stream), 0);
        if let Some(p) = peer {
            ctx = ctx.with_peer(p.parse::<IpAddr>().unwrap());
        }
        match self.server.handle_http(&head, &bytes, self.now, ctx) {
            HttpStart::Respond(r) => r,
            HttpStart::EventStream { response, .. } => response,
            other => panic!("not a complete answer: {other:?}"),
        }
    }

    /// `initialize` from `peer`: the response (with `Mcp-Session-Id` when it opened one).
    fn init(&mut self, peer: Option<&str>) -> HttpResponse {
        self.call("POST", None, None, &init(1, LEGACY), peer)
    }

    /// A session opened and established (`notifications/initialized` sent) from `peer`.
    fn session(&mut self, peer: Option<&str>) -> String {
        let r = self.init(peer);
        assert_eq!(r.status, 200, "{}", text(&r));
        let id = r.header("Mcp-Session-Id").unwrap().to_string();
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            self.call("POST", Some(&id), Some(LEGACY), &note, None)
                .status,
            202
        );
        id
    }

    /// A `ping` in session `id` with header `version`: the status.
    fn ping(&mut self, id: &str, version: Option<&str>) -> u16 {
        let r = self.call("POST", Some(id), version, &ping(9), None);
        if r.status == 200 {
            assert_eq!(body(&r)["result"], json!({}), "{}", text(&r));
        }
        r.status
    }
}

fn init(id: u64, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
           "params": {"protocolVersion": version, "capabilities": {},
                      "clientInfo": {"name": "t", "version": "1"}}})
}

fn ping(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

fn body(r: &HttpResponse) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

fn text(r: &HttpResponse) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

#[test]
fn version_header_in_a_session_must_be_a_legacy_version() {
    let mut h = H::new(ServerConfig::default());
    let r = h.call("POST", None, None, &init(1, "2025-06-18"), None);
    assert_eq!(body(&r)["result"]["protocolVersion"], "2025-06-18");
    let id = r.header("Mcp-Session-Id").unwrap().to_string();
    // Invalid, unsupported and modern (2026-07-28 has no sessions) values: 400, on every
    // method, before the body is looked at; the session is untouched.
    for bad in ["1999-01-01", "not-a-version", "2026-07-28", ""] {
        let r = h.call("POST", Some(&id), Some(bad), &ping(2), None);
        assert_eq!(r.status, 400, "{bad}: {}", text(&r));
        let v = body(&r);
        assert_eq!(v["error"]["code"], -32600);
        assert!(v.get("id").is_none_or(Value::is_null));
        let msg = v["error"]["message"].as_str().unwrap();
        assert!(msg.contains(&LEGACY_VERSIONS.join(", ")), "{msg}");
        for method in ["GET", "DELETE"] {
            let r = h.call(method, Some(&id), Some(bad), &Value::Null, None);
            assert_eq!(r.status, 400, "{method} {bad}");
        }
    }
    assert_eq!(h.server.open_sessions(), 1);
    // Absent: the negotiated version. The negotiated one, and another version the server
    // negotiates (a SHOULD for the client, accepted as the official SDKs do): served.
    assert_eq!(h.ping(&id, None), 200);
    assert_eq!(h.ping(&id, Some("2025-06-18")), 200);
    assert_eq!(h.ping(&id, Some(LEGACY)), 200);
    assert_eq!(h.ping(&id, Some("2025-03-26")), 200);
    // An unknown session is still 404 first, whatever the header.
    let r = h.call("POST", Some("nope"), Some("1999-01-01"), &ping(3), None);
    assert_eq!(r.status, 404);
}

#[test]
fn a_second_initialize_is_refused() {
    // HTTP: inside a session, 400 with -32600; the session goes on.
    let mut h = H::new(ServerConfig::default());
    let id = h.session(None);
    let r = h.call("POST", Some(&id), Some(LEGACY), &init(5, LEGACY), None);
    assert_eq!(r.status, 400, "{}", text(&r));
    let v = body(&r);
    assert_eq!(v["id"], 5);
    assert_eq!(v["error"]["code"], -32600);
    assert_eq!(
        v["error"]["message"],
        "Invalid Request: Server already initialized"
    );
    assert!(r.header("Mcp-Session-Id").is_some_and(|s| s == id));
    assert_eq!(h.server.open_sessions(), 1);
    assert_eq!(h.ping(&id, Some(LEGACY)), 200);
    // Without the session id it is a new session.
    assert_eq!(h.init(None).status, 200);
    assert_eq!(h.server.open_sessions(), 2);

    // stdio: the connection is initialized once; the era stays.
    let mut s = catalogue(ServerConfig::default());
    let mut send = |v: Value| {
        let bytes = serde_json::to_vec(&v).unwrap();
        s.handle_message(&bytes, 1_000, Ctx::stdio(StreamId(0)));
        let mut out = vec![];
        while let Some(o) = s.poll_output() {
            out.push(o);
        }
        server_harness::only(&out)
    };
    assert_eq!(send(init(1, LEGACY))["result"]["protocolVersion"], LEGACY);
    let v = send(init(2, "2025-06-18"));
    assert_eq!(
        (v["id"].clone(), v["error"]["code"].clone()),
        (json!(2), json!(-32600))
    );
    assert_eq!(send(ping(3))["result"], json!({}));
}

#[test]
fn a_flood_of_half_open_sessions_leaves_room_for_real_clients() {
    let mut h = H::new(ServerConfig::default());
    let before = h.session(Some("198.51.100.1"));
    // 3,000 `initialize` POSTs over 8 s from many addresses, none followed by a request.
    for i in 0..3_000u32 {
        h.now += 8_000 / 3_000;
        let peer = format!("203.0.{}.{}", i / 250, i % 250);
        let r = h.init(Some(&peer));
        assert_eq!(r.status, 200, "flood {i}: {}", text(&r));
    }
    assert_eq!(h.server.open_sessions(), 1024);
    // A real client still gets a session at once, and so does one without a known peer.
    let id = h.session(Some("198.51.100.2"));
    assert_eq!(h.ping(&id, Some(LEGACY)), 200);
    let id2 = h.session(None);
    assert_eq!(h.ping(&id2, Some(LEGACY)), 200);
    // The session established before the flood was never evicted.
    assert_eq!(h.ping(&before, Some(LEGACY)), 200);
    // The half-open ones end after `session_handshake_ms`; the established ones stay.
    h.now += ServerConfig::default().session_handshake_ms;
    assert_eq!(h.ping(&before, None), 200);
    assert_eq!(h.server.open_sessions(), 3);
}

#[test]
fn one_peer_holds_at_most_max_sessions_per_peer() {
    let config = ServerConfig {
        max_sessions_per_peer: 2,
        ..ServerConfig::default()
    };
    let mut h = H::new(config);
    let a = "2001:db8:7:7::1";
    let same_64 = "2001:db8:7:7:ffff::2";
    let first = h.session(Some(a));
    // A half-open session of the peer makes room for the peer's next `initialize`.
    let half = h.init(Some(same_64));
    let half = half.header("Mcp-Session-Id").unwrap().to_string();
    h.now += 1;
    let second = h.session(Some(a));
    assert_eq!(
        h.ping(&half, None),
        404,
        "the peer's half-open session made room"
    );
    // Both places established: 429 with Retry-After, -32603 in the body.
    let r = h.init(Some(same_64));
    assert_eq!(r.status, 429, "{}", text(&r));
    assert_eq!(body(&r)["error"]["code"], -32603);
    assert_eq!(r.header("Retry-After"), Some("60"));
    assert!(r.header("Mcp-Session-Id").is_none());
    // Another peer, another /64, an IPv4-mapped address and no peer at all are not bounded
    // by it.
    for other in [Some("2001:db8:7:8::1"), Some("192.0.2.1"), None, None, None] {
        assert_eq!(h.init(other).status, 200, "{other:?}");
    }
    assert_eq!(h.ping(&first, None), 200);
    assert_eq!(h.ping(&second, None), 200);
    // An IPv4-mapped address is its IPv4 peer: its half-open session made room.
    let r = h.init(Some("::ffff:192.0.2.9"));
    let mapped = r.header("Mcp-Session-Id").unwrap().to_string();
    h.session(Some("192.0.2.9"));
    assert_eq!(h.init(Some("192.0.2.9")).status, 200);
    assert_eq!(h.ping(&mapped, None), 404);
}

#[test]
fn a_table_full_of_established_sessions_is_503_with_retry_after() {
    let config = ServerConfig {
        max_sessions: 2,
        session_idle_ms: 10_000,
        ..ServerConfig::default()
    };
    let mut h = H::new(config);
    let a = h.session(None);
    h.now += 3_000;
    let b = h.session(None);
    h.now += 1_500;
    let r = h.init(None);
    assert_eq!(r.status, 503, "{}", text(&r));
    assert_eq!(body(&r)["error"]["code"], -32603);
    assert_eq!(body(&r)["error"]["message"], "Too many sessions");
    // `a` is idle for 4.5 s of 10 s: the first place frees in 5.5 s, so 6.
    assert_eq!(r.header("Retry-After"), Some("6"));
    assert!(r.header("Mcp-Session-Id").is_none());
    assert_eq!(h.server.open_sessions(), 2);
    assert_eq!(h.ping(&a, None), 200);
    assert_eq!(h.ping(&b, None), 200);
    // A session holding its GET stream never idles out: it does not count for Retry-After.
    let r = h.call("GET", Some(&a), None, &Value::Null, None);
    assert_eq!(r.status, 200);
    h.now += 2_000;
    let r = h.init(None);
    assert_eq!((r.status, r.header("Retry-After")), (503, Some("8")));
}

#[test]
fn half_open_sessions_end_after_session_handshake_ms() {
    let config = ServerConfig {
        session_handshake_ms: 5_000,
        ..ServerConfig::default()
    };
    let mut h = H::new(config);
    let established = h.session(None);
    let r = h.init(None);
    let late = r.header("Mcp-Session-Id").unwrap().to_string();
    let r = h.init(None);
    let never = r.header("Mcp-Session-Id").unwrap().to_string();
    // Just in time: the handshake completes and the session stays.
    h.now += 4_999;
    assert_eq!(h.ping(&late, None), 200);
    h.now += 1;
    assert_eq!(h.ping(&never, None), 404);
    h.now += 60_000;
    assert_eq!(h.ping(&late, None), 200);
    assert_eq!(h.ping(&established, None), 200);
    assert_eq!(h.server.open_sessions(), 2);
}
