//! 2025-11-25 sessions shared by the instances of a fleet (docs/scale-out.md §"2025-11-25
//! sessions across instances"): the state a machine exports and another imports, the
//! changes a runner stores, an end on one instance is a 404 on another, the GET stream's
//! event ids and the replay rule, and the flood policy over the fleet's table.
//! docs/rules.md §17.3 item 14.

mod common;
mod server_harness;

use mcp_context::http::{HttpResponse, HttpStart, RequestHead};
use mcp_context::server::{
    Ctx, Output, SESSION_ORIGIN_LEN, Server, ServerConfig, SessionChange, SessionMessage, StreamId,
    session_event_seq,
};
use serde_json::{Value, json};
use server_harness::catalogue;

const LEGACY: &str = "2025-11-25";

/// One instance of the fleet: a machine sharing its sessions, and its stream counter.
struct I {
    server: Server,
    stream: u64,
}

impl I {
    fn new(first_stream: u64, config: ServerConfig) -> Self {
        let mut server = catalogue(config);
        server.share_sessions(Some(&first_stream.to_le_bytes()));
        Self {
            server,
            stream: first_stream,
        }
    }

    /// One request at `now`; a GET answers its event stream's id too.
    fn call(
        &mut self,
        method: &str,
        session: Option<&str>,
        body: &Value,
        now: u64,
    ) -> (HttpResponse, Option<StreamId>) {
        let head = RequestHead {
            method,
            path: "/mcp",
            host: Some("localhost:8080"),
            content_type: Some("application/json"),
            accept: Some("application/json, text/event-stream"),
            session_id: session,
            ..RequestHead::default()
        };
        let bytes = if body.is_null() {
            vec![]
        } else {
            serde_json::to_vec(body).unwrap()
        };
        self.stream += 1;
        let ctx = Ctx::http(StreamId(self.stream), 7).with_peer("192.0.2.1".parse().unwrap());
        match self.server.handle_http(&head, &bytes, now, ctx) {
            HttpStart::Respond(r) => (r, None),
            HttpStart::EventStream { stream, response } => (response, Some(stream)),
            other => panic!("not a complete answer: {other:?}"),
        }
    }

    /// The changes since the last call, as `(id, Some(state) | None)`.
    fn changes(&mut self) -> Vec<(String, Option<Vec<u8>>)> {
        let mut out = Vec::new();
        self.server.take_session_changes(&mut out);
        out.into_iter()
            .map(|c| match c {
                SessionChange::Stored { id, state } => (id, Some(state)),
                SessionChange::Ended { id } => (id, None),
            })
            .collect()
    }

    /// The transmits queued for `stream`.
    fn on(&mut self, stream: StreamId) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        while let Some(o) = self.server.poll_output() {
            if let Output::Transmit(t) = o
                && t.stream == stream
            {
                out.push(t.bytes);
            }
        }
        out
    }
}

fn init(id: u64, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
           "params": {"protocolVersion": version, "capabilities": {"elicitation": {}},
                      "clientInfo": {"name": "inspector", "version": "2"}}})
}

fn req(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn body(r: &HttpResponse) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

/// Copies every change of `from` into `to` (what the store does between instances).
fn sync(changes: &[(String, Option<Vec<u8>>)], to: &mut I, now: u64) {
    for (id, state) in changes {
        match state {
            Some(s) => to.server.import_session(id, s, now).unwrap(),
            None => {
                to.server.forget_session(id);
            }
        }
    }
}

#[test]
fn a_session_continues_on_another_instance_and_ends_everywhere() {
    let (mut a, mut b, mut c) = (
        I::new(0, ServerConfig::default()),
        I::new(1000, ServerConfig::default()),
        I::new(2000, ServerConfig::default()),
    );
    // A 2025 `initialize` on A: the change to store is the session, before the answer goes.
    let (r, _) = a.call("POST", None, &init(1, "2025-06-18"), 10_000);
    let id = r.header("Mcp-Session-Id").unwrap().to_string();
    let changes = a.changes();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].0, id);
    let state: Value = serde_json::from_slice(changes[0].1.as_ref().unwrap()).unwrap();
    assert_eq!(state["version"], "2025-06-18");
    assert_eq!(
        state["client"],
        json!({"name": "inspector", "version": "2"})
    );
    assert_eq!(state["caps"], json!({"elicitation": {"form": {}}}));
    assert_eq!(state["auth"], 7);
    assert_eq!(state["peer"], "192.0.2.1");
    // B has never seen it: 404 (the runner imports from the store before the request).
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    assert_eq!(b.call("POST", Some(&id), &ping, 50).0.status, 404);
    // Instances' clocks differ: the state carries durations, not instants.
    sync(&changes, &mut b, 50);
    sync(&changes, &mut c, 900_000);
    assert!(b.server.has_session(&id) && c.server.has_session(&id));
    let (r, _) = b.call("POST", Some(&id), &ping, 60);
    assert_eq!(body(&r)["result"], json!({}));
    // A subscription and a log level set on B travel with the session.
    let sub = req(
        3,
        "resources/subscribe",
        json!({"uri": "test://static-text"}),
    );
    assert_eq!(
        body(&b.call("POST", Some(&id), &sub, 70).0)["result"],
        json!({})
    );
    let lvl = req(4, "logging/setLevel", json!({"level": "warning"}));
    assert_eq!(
        body(&b.call("POST", Some(&id), &lvl, 80).0)["result"],
        json!({})
    );
    let changes = b.changes();
    let state: Value = serde_json::from_slice(changes[0].1.as_ref().unwrap()).unwrap();
    assert_eq!(state["subs"], json!(["test://static-text"]));
    assert_eq!(state["level"], "warning");
    assert_eq!(state["est"], true);
    sync(&changes, &mut c, 900_100);
    // The GET stream on C: an update made there reaches it, as event 1, then 2.
    let (r, get) = c.call("GET", Some(&id), &Value::Null, 900_200);
    assert_eq!(r.status, 200);
    let get = get.unwrap();
    c.server.resource_updated("test://static-text");
    let sent = c.on(get);
    assert_eq!(sent.len(), 1);
    let e1 = c.server.session_event(get, &sent[0]).unwrap();
    assert_eq!((e1.session.as_str(), e1.seq), (id.as_str(), 1));
    let text = String::from_utf8(e1.bytes.clone()).unwrap();
    assert!(text.starts_with("id: 1\ndata: {"), "{text}");
    assert!(text.contains("notifications/resources/updated"), "{text}");
    let e2 = c.server.session_event(get, &sent[0]).unwrap();
    assert_eq!(e2.seq, 2);
    // A transmit on any other stream is not a session event.
    assert!(c.server.session_event(StreamId(999_999), b"{}").is_none());
    // DELETE on C: ended, and the store's removal makes it 404 on A and B.
    let _ = c.changes();
    assert_eq!(
        c.call("DELETE", Some(&id), &Value::Null, 900_300).0.status,
        200
    );
    let changes = c.changes();
    assert_eq!(changes, vec![(id.clone(), None)]);
    sync(&changes, &mut a, 10_100);
    sync(&changes, &mut b, 90);
    assert_eq!(a.call("POST", Some(&id), &ping, 10_200).0.status, 404);
    assert_eq!(b.call("POST", Some(&id), &ping, 100).0.status, 404);
    assert!(a.changes().is_empty(), "an unknown id records nothing");
}

#[test]
fn event_ids_continue_after_the_stored_ones_and_the_replay_rule() {
    let mut a = I::new(0, ServerConfig::default());
    let (r, _) = a.call("POST", None, &init(1, LEGACY), 1_000);
    let id = r.header("Mcp-Session-Id").unwrap().to_string();
    let (_, get) = a.call("GET", Some(&id), &Value::Null, 1_100);
    let get = get.unwrap();
    // The store already holds events up to 41 (written by an instance that died).
    a.server.session_stream_floor(get, 41);
    assert_eq!(a.server.session_event(get, b"{}").unwrap().seq, 42);
    // A lower floor never moves the sequence back.
    a.server.session_stream_floor(get, 3);
    assert_eq!(a.server.session_event(get, b"{}").unwrap().seq, 43);
    // The replay rule: the ids the core minted replay what follows them; anything else
    // replays nothing (a fresh stream).
    assert_eq!(session_event_seq("41"), Some(41));
    assert_eq!(session_event_seq("0"), Some(0));
    for other in ["", "-1", "4a", " 41", "abc", "184467440737095516150"] {
        assert_eq!(session_event_seq(other), None, "{other:?}");
    }
}

#[test]
fn a_state_that_is_not_ours_is_refused_and_changes_nothing() {
    let mut a = I::new(0, ServerConfig::default());
    for bad in [
        &b"not json"[..],
        br#"{"v":2,"auth":0,"age":0,"idle":0,"subs":[],"version":"2025-11-25"}"#,
        br#"{"v":1,"auth":0,"age":0,"idle":0,"subs":[],"version":"2026-07-28"}"#,
        br#"{"v":1,"auth":0,"age":0,"subs":[],"version":"2025-11-25"}"#,
        br#"{"v":1,"auth":0,"age":0,"idle":0,"subs":[1],"version":"2025-11-25"}"#,
        br#"{"v":1,"auth":0,"age":0,"idle":0,"subs":[],"version":"2025-11-25","peer":"x"}"#,
        br#"{"v":1,"auth":0,"age":0,"idle":0,"subs":[],"version":"2025-11-25","level":"loud"}"#,
    ] {
        assert!(a.server.import_session("s1", bad, 5).is_err());
        assert!(!a.server.has_session("s1"));
    }
    let good = br#"{"v":1,"auth":7,"age":0,"idle":0,"subs":[],"version":"2025-11-25"}"#;
    a.server.import_session("s1", good, 5).unwrap();
    assert!(a.server.has_session("s1"));
    // Imports are not changes (no echo back to the store).
    assert!(a.changes().is_empty());
}

#[test]
fn the_flood_policy_counts_the_fleets_sessions() {
    let config = || ServerConfig {
        max_sessions: 2,
        ..ServerConfig::default()
    };
    let (mut a, mut b) = (I::new(0, config()), I::new(1000, config()));
    // Two established sessions made on A fill the fleet's table.
    let mut ids = Vec::new();
    for n in 0..2 {
        let (r, _) = a.call("POST", None, &init(n, LEGACY), 1_000);
        let id = r.header("Mcp-Session-Id").unwrap().to_string();
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(a.call("POST", Some(&id), &note, 1_000).0.status, 202);
        ids.push(id);
    }
    let changes = a.changes();
    sync(&changes, &mut b, 1_000);
    // B refuses a third, as A would: the table is the fleet's.
    let (r, _) = b.call("POST", None, &init(9, LEGACY), 1_000);
    assert_eq!(r.status, 503);
    // A half-open session imported from the fleet is evicted to make room, and the
    // eviction is a change the store applies (the instance that made it learns of it).
    let mut b2 = I::new(3000, config());
    let (r, _) = a.call("POST", None, &init(5, LEGACY), 2_000);
    assert_eq!(r.status, 503, "A is full too");
    let (r, _) = b2.call("POST", None, &init(6, LEGACY), 2_000);
    let half = r.header("Mcp-Session-Id").unwrap().to_string();
    let changes = b2.changes();
    sync(&changes, &mut b, 2_000);
    sync(&[(ids[0].clone(), None)], &mut b, 2_000);
    let (r, _) = b.call("POST", None, &init(7, LEGACY), 2_000);
    assert_eq!(r.status, 200);
    let changes = b.changes();
    assert!(changes.contains(&(half.clone(), None)), "{changes:?}");
    assert_eq!(
        changes.len(),
        2,
        "the evicted one and the new one: {changes:?}"
    );
}

#[test]
fn instances_never_mint_the_same_id() {
    // Same keys, same millisecond, same caller, same counter: the instance bytes differ.
    let (mut a, mut b) = (
        I::new(0, ServerConfig::default()),
        I::new(1000, ServerConfig::default()),
    );
    let (ra, _) = a.call("POST", None, &init(1, LEGACY), 1_000);
    let (rb, _) = b.call("POST", None, &init(1, LEGACY), 1_000);
    assert_ne!(ra.header("Mcp-Session-Id"), rb.header("Mcp-Session-Id"));
}

#[test]
fn a_table_reload_forgets_the_sessions_the_store_no_longer_has() {
    let (mut a, mut b) = (
        I::new(0, ServerConfig::default()),
        I::new(1000, ServerConfig::default()),
    );
    // Two sessions made on A, stored, and copied to B; A holds a GET stream of the first.
    let (r, _) = a.call("POST", None, &init(1, "2025-06-18"), 10_000);
    let gone = r.header("Mcp-Session-Id").unwrap().to_string();
    let (r, _) = a.call("POST", None, &init(1, "2025-06-18"), 10_001);
    let kept = r.header("Mcp-Session-Id").unwrap().to_string();
    let changes = a.changes();
    sync(&changes, &mut b, 50);
    let (r, get) = a.call("GET", Some(&gone), &Value::Null, 10_010);
    assert_eq!(r.status, 200);
    let get = get.unwrap();
    let _ = a.changes();
    // DELETE on B while A's channel is down: A never hears it.
    assert_eq!(
        b.call("DELETE", Some(&gone), &Value::Null, 60).0.status,
        200
    );
    let table: Vec<String> = vec![kept.clone()];
    // Meanwhile a third session is made on A: its change is not yet taken.
    let (r, _) = a.call("POST", None, &init(1, "2025-06-18"), 10_020);
    let fresh = r.header("Mcp-Session-Id").unwrap().to_string();
    // A loads the table again: the ended session is forgotten and its GET stream closed.
    let mut closed = Vec::new();
    let n = a
        .server
        .retain_sessions(|id| table.iter().any(|t| t == id), &mut closed);
    assert_eq!((n, closed), (1, vec![get]));
    assert!(!a.server.has_session(&gone));
    assert!(a.server.has_session(&kept) && a.server.has_session(&fresh));
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    assert_eq!(a.call("POST", Some(&gone), &ping, 10_030).0.status, 404);
    // Forgetting records no change: nothing to store, the fresh session's change still is.
    let changes = a.changes();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].0, fresh);
    // A reload that lists every session forgets nothing.
    let mut closed = Vec::new();
    assert_eq!(a.server.retain_sessions(|_| true, &mut closed), 0);
    assert!(closed.is_empty());
}

#[test]
fn a_table_load_keeps_what_is_newer_here_and_forgets_what_the_table_lacks() {
    let (mut a, mut b) = (
        I::new(0, ServerConfig::default()),
        I::new(1000, ServerConfig::default()),
    );
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    // Four sessions made on A and stored; B has them all.
    let mut ids = Vec::new();
    for t in 0..4 {
        let (r, _) = a.call("POST", None, &init(1, "2025-06-18"), 10_000 + t);
        ids.push(r.header("Mcp-Session-Id").unwrap().to_string());
    }
    let stored = a.changes();
    for (id, _) in &stored {
        a.server.session_change_settled(id);
    }
    sync(&stored, &mut b, 50);
    let [in_flight, taken_during, gone, plain] = [&ids[0], &ids[1], &ids[2], &ids[3]];
    // A subscribes a resource in `in_flight`: the change is taken, its store not done yet.
    let sub = req(3, "resources/subscribe", json!({"uri": "notes://1"}));
    assert_eq!(a.call("POST", Some(in_flight), &sub, 10_100).0.status, 200);
    let flying = a.changes();
    assert_eq!(flying.len(), 1);
    // The table as the store holds it: B's DELETE of `gone` (A missed it), the old states.
    assert_eq!(b.call("DELETE", Some(gone), &Value::Null, 60).0.status, 200);
    let mut table: Vec<(String, Vec<u8>)> = Vec::new();
    for id in [in_flight, taken_during, plain] {
        table.push((id.clone(), b.server.export_session(id).unwrap()));
    }
    table.push(("broken".into(), b"{\"v\":99}".to_vec()));
    a.server.session_load_begin();
    // While the table is read, `taken_during` is used on A and its change taken.
    assert_eq!(
        a.call("POST", Some(taken_during), &sub, 10_200).0.status,
        200
    );
    assert_eq!(a.changes().len(), 1);
    let rows = table.iter().map(|(id, s)| (id.as_str(), s.as_slice()));
    let load = a.server.session_load_end(rows, 10_300);
    assert_eq!(load.imported, 1, "only `plain`: the others are newer here");
    assert_eq!(load.malformed, vec!["broken".to_string()]);
    assert_eq!((load.forgotten, load.closed.len()), (1, 0));
    assert!(!a.server.has_session(gone));
    assert_eq!(a.call("POST", Some(gone), &ping, 10_310).0.status, 404);
    // The newer states were kept: both sessions still hold their subscription.
    for id in [in_flight, taken_during] {
        let state: Value = serde_json::from_slice(&a.server.export_session(id).unwrap()).unwrap();
        assert_eq!(state["subs"], json!(["notes://1"]), "{id}");
    }
    // Once settled, a change no longer shields its session: a load replaces its state.
    a.server.session_change_settled(in_flight);
    a.server.session_load_begin();
    let rows = table.iter().map(|(id, s)| (id.as_str(), s.as_slice()));
    let load = a.server.session_load_end(rows, 10_400);
    assert_eq!(load.imported, 2, "`in_flight` and `plain`");
    let state: Value =
        serde_json::from_slice(&a.server.export_session(in_flight).unwrap()).unwrap();
    assert_eq!(state["subs"], json!([]));
    // An aborted load forgets nothing, and a table read without a load begun only imports.
    a.server.session_load_begin();
    a.server.session_load_abort();
    let load = a.server.session_load_end(std::iter::empty(), 10_500);
    assert_eq!((load.imported, load.forgotten), (0, 0));
    assert!(a.server.has_session(plain));
}

#[test]
fn a_channel_message_reads_its_origin_by_length() {
    // Random origin bytes hold `\n` one time in sixteen: a reader that searched for the
    // first `\n` took part of the origin for the id, and missed the end of a session.
    let origin = [b'\n'; SESSION_ORIGIN_LEN];
    for state in [None, Some(&b"{\"v\":1}\n"[..])] {
        let m = SessionMessage {
            origin: &origin,
            id: "s-1",
            state,
        };
        let bytes = m.encode();
        assert_eq!(SessionMessage::decode(&bytes), Some(m));
    }
    let ended = SessionMessage::decode(b"0123456789abcdef\ns-2").unwrap();
    assert_eq!(
        (ended.origin, ended.id, ended.state),
        (b"0123456789abcdef", "s-2", None)
    );
    for bad in [
        &b""[..],
        b"0123456789abcdef",
        b"0123456789abcdef\n",
        b"0123456789abcdefs-2",
        b"0123456789abcdef\n\n{}",
        b"0123456789abcdef\n\xff\n{}",
        b"short\ns-2",
    ] {
        assert_eq!(SessionMessage::decode(bad), None, "{bad:?}");
    }
}
