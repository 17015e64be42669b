//! The gate (docs/rules.md §26.7): with it on, every request, the ones the core answers
//! itself included, is shown to the host first; admitted, the machine does exactly what it
//! does without a gate; refused, the request gets the error a handler's failure gets, and
//! reaches no table.

mod common;
mod server_harness;

use mcp_context::http::{HttpStart, RequestHead};
use mcp_context::messages::owned::{FromJsonText, OwnedTool};
use mcp_context::observe::{Era, Observation, Outcome, RATE_LIMITED};
use mcp_context::server::{Ctx, Event, Failure, Output, ServerConfig, StreamId, Transport};
use serde_json::{Value, json};
use server_harness::*;

const TP: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn server(config: ServerConfig, gate: bool) -> H {
    let mut s = catalogue(config);
    s.add_tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#).unwrap(),
    )
    .unwrap();
    s.gate(gate);
    H::new("gate", s)
}

/// Every method the core answers itself, with the target the gate reports.
fn core_answered() -> Vec<(&'static str, Value, Option<&'static str>)> {
    vec![
        ("server/discover", json!({}), None),
        ("resources/list", json!({}), None),
        ("resources/templates/list", json!({}), None),
        ("prompts/list", json!({}), None),
        ("tools/list", json!({}), None),
        (
            "resources/read",
            json!({"uri": "test://static-text"}),
            Some("test://static-text"),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "notes://{project}/{id}"},
                   "argument": {"name": "project", "value": "a"}}),
            None,
        ),
        ("subscriptions/listen", json!({"notifications": {}}), None),
    ]
}

fn bytes_of(outs: &[Output]) -> Vec<Vec<u8>> {
    transmits(outs).into_iter().map(|t| t.bytes).collect()
}

/// rules §26.7 rules 1 and 2: each core-answered method stops at the gate with the
/// observation's fields; admitted, the machine answers it byte for byte as without a gate.
/// Notifications, responses and malformed input are not gated; off, nothing is.
#[test]
fn every_core_answered_method_is_gated_and_admitted_unchanged() {
    let mut gated = server(ServerConfig::default(), true);
    let mut plain = server(ServerConfig::default(), false);
    assert!(gated.server.gating() && !plain.server.gating());
    for (i, (method, mut params, target)) in core_answered().into_iter().enumerate() {
        params["_meta"] = meta_with(json!({}));
        params["_meta"]["traceparent"] = json!(TP);
        let ctx = Ctx::http(StreamId(10 + i as u64), 77);
        let body = request(json!(format!("r{i}")), method, params);
        assert!(
            plain.server.gate_request(&body, 1_000, ctx).is_none(),
            "gate off"
        );
        let mut g = gated.server.gate_request(&body, 1_000, ctx).expect(method);
        let r = g.request();
        assert_eq!(r.method, method);
        assert_eq!(r.request_id, format!("r{i}"));
        assert_eq!(r.target.as_deref(), target);
        assert_eq!(
            (r.caller, r.stream, r.transport),
            (77, ctx.stream, Transport::Http)
        );
        assert_eq!(r.era, Era::Modern);
        assert_eq!(r.protocol_version.as_deref(), Some(V));
        assert_eq!(r.traceparent.as_deref(), Some(TP));
        g.annotate("gate", "seen");
        gated.server.gate_admit(g);
        let a = gated.send(ctx, &body);
        let b = plain.send(ctx, &body);
        assert_eq!(bytes_of(&a), bytes_of(&b), "{method}");
        assert!(
            !bytes_of(&a).is_empty() || method == "subscriptions/listen",
            "{method}"
        );
    }
    let note = notification("notifications/cancelled", json!({"requestId": 1}));
    assert!(gated.server.gate_request(&note, 1_000, STDIO).is_none());
    assert!(
        gated
            .server
            .gate_request(b"{not json", 1_000, STDIO)
            .is_none()
    );
    let answer = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    assert!(gated.server.gate_request(answer, 1_000, STDIO).is_none());
}

/// rules §26.7 rule 3: a refusal is the error the same failure from a handler gets (an
/// application code as given, reserved codes -32603, invalid params -32602), on the
/// request's id, with the status `http::status_for` gives; nothing else is sent.
#[test]
fn refusals_are_the_handlers_errors_on_stdio() {
    let mut h = server(ServerConfig::default(), true);
    let cases = [
        (
            Failure::from_code(RATE_LIMITED, "Rate limit exceeded: retry after 5 ms"),
            RATE_LIMITED,
            "Rate limit exceeded: retry after 5 ms",
        ),
        (
            Failure::from_code(-32_000, "reserved"),
            -32_603,
            "Internal error",
        ),
        (Failure::InvalidParams("no".into()), -32_602, "no"),
        (Failure::from_code(7, "mine"), 7, "mine"),
    ];
    for (i, (failure, code, message)) in cases.into_iter().enumerate() {
        let body = request(json!(i), "resources/list", json!({}));
        let g = h.server.gate_request(&body, 1_000, STDIO).unwrap();
        h.server.gate_refuse(g, failure);
        let outs = h.drain();
        let v = only(&outs);
        assert_eq!(v["id"], json!(i));
        assert_eq!(error_code(&v), i64::from(code));
        assert_eq!(v["error"]["message"], json!(message));
        assert_eq!(transmits(&outs)[0].http_status, 200);
    }
}

/// rules §26.7 rule 3 over HTTP: `http_gate_request` gates a POST's request (the head's
/// session is the request's), `http_gate_refuse` is the answer to write.
#[test]
fn refusals_over_http_are_the_answer_to_write() {
    let mut h = server(ServerConfig::default(), true);
    let head = RequestHead {
        method: "POST",
        path: "/mcp",
        host: Some("localhost"),
        content_type: Some("application/json"),
        accept: Some("application/json, text/event-stream"),
        ..RequestHead::default()
    };
    let body = request(json!("d"), "server/discover", json!({}));
    let ctx = Ctx::http(StreamId(4), 9);
    let get = RequestHead {
        method: "GET",
        ..head
    };
    assert!(
        h.server
            .http_gate_request(&get, &body, 1_000, ctx)
            .is_none()
    );
    let g = h
        .server
        .http_gate_request(&head, &body, 1_000, ctx)
        .unwrap();
    assert_eq!(g.request().method, "server/discover");
    let start = h
        .server
        .http_gate_refuse(g, Failure::from_code(RATE_LIMITED, "slow down"));
    let HttpStart::Respond(r) = start else {
        panic!("{start:?}")
    };
    assert_eq!(r.status, 200);
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!((v["id"].clone(), error_code(&v)), (json!("d"), -31_429));
    assert!(h.drain().is_empty(), "the answer is not also polled");
    // A body over the limit is refused by the machine, gated or not.
    let (start, _) = h.http(&head, &vec![b' '; 8 << 20], 5);
    assert!(matches!(start, HttpStart::Respond(r) if r.status == 413));
}

/// rules §26.7 rule 4: a refused request reaches no table: refusing reads at the pending
/// bound leaves room for the next admitted one, which becomes its event as usual.
#[test]
fn refused_requests_count_against_no_limit() {
    let config = ServerConfig {
        max_pending_per_stream: 1,
        ..ServerConfig::default()
    };
    let mut h = server(config, true);
    let read = |id: u64| {
        request(
            json!(id),
            "resources/read",
            json!({"uri": "notes://acme/index"}),
        )
    };
    for id in 0..5 {
        let g = h.server.gate_request(&read(id), 1_000, STDIO).unwrap();
        h.server
            .gate_refuse(g, Failure::from_code(RATE_LIMITED, "later"));
        assert_eq!(error_code(&only(&h.drain())), i64::from(RATE_LIMITED));
    }
    assert_eq!(h.server.pending_requests(), 0);
    let g = h.server.gate_request(&read(9), 1_000, STDIO).unwrap();
    h.server.gate_admit(g);
    let outs = h.send(STDIO, &read(9));
    assert!(
        matches!(events(&outs).as_slice(), [Event::ReadResource(_)]),
        "{outs:?}"
    );
    // The limit is the machine's as before: a second read on the stream is refused by it.
    let outs = h.send(STDIO, &read(10));
    assert_eq!(error_code(&only(&outs)), -32_603);
}

/// rules §26.7 rule 5: with observations on, an admitted request's observation carries the
/// gate's annotations, a refused one is observed with its error and annotations.
#[test]
fn gate_annotations_and_refusals_are_observed() {
    let mut h = server(ServerConfig::default(), true);
    h.server.observe(true);
    let body = request(json!(1), "prompts/list", json!({}));
    let mut g = h.server.gate_request(&body, 1_000, STDIO).unwrap();
    g.annotate("tenant", "acme");
    h.server.gate_admit(g);
    h.send(STDIO, &body);
    let body = request(json!(2), "tools/list", json!({}));
    let mut g = h.server.gate_request(&body, 1_000, STDIO).unwrap();
    g.annotate("audit", "refused");
    h.server
        .gate_refuse(g, Failure::from_code(RATE_LIMITED, "later"));
    h.drain();
    let rs: Vec<_> = std::iter::from_fn(|| h.server.poll_observation(1_000))
        .filter_map(|o| match o {
            Observation::Request(r) => Some(r),
            Observation::Refused(_) => None,
        })
        .collect();
    assert_eq!(rs.len(), 2, "{rs:?}");
    assert_eq!(rs[0].method, "prompts/list");
    assert!(rs[0].outcome.is_success());
    assert_eq!(rs[0].annotations, [("tenant".into(), "acme".into())]);
    assert_eq!(rs[1].method, "tools/list");
    assert_eq!(rs[1].outcome, Outcome::Error(RATE_LIMITED));
    assert_eq!(rs[1].annotations, [("audit".into(), "refused".into())]);
    assert_eq!(h.server.observed_in_flight(), 0);
}

/// rules §26.7 rule 2: a 2025-11-25 session's requests are gated in the legacy era with
/// their session; `initialize` itself is gated too.
#[test]
fn legacy_requests_are_gated_with_their_session() {
    let mut h = server(ServerConfig::default(), true);
    let head = RequestHead {
        method: "POST",
        path: "/mcp",
        host: Some("localhost"),
        content_type: Some("application/json"),
        accept: Some("application/json, text/event-stream"),
        ..RequestHead::default()
    };
    let init = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}}))
    .unwrap();
    let g = h
        .server
        .http_gate_request(&head, &init, 1_000, Ctx::http(StreamId(3), 0))
        .unwrap();
    assert_eq!(
        (g.request().method.as_str(), g.request().era),
        ("initialize", Era::Legacy)
    );
    h.server.gate_admit(g);
    let start = h
        .server
        .handle_http(&head, &init, 1_000, Ctx::http(StreamId(3), 0));
    let HttpStart::Respond(r) = start else {
        panic!()
    };
    let session = r.header("Mcp-Session-Id").unwrap().to_string();
    let in_session = RequestHead {
        session_id: Some(&session),
        protocol_version: Some("2025-11-25"),
        ..head
    };
    let list = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}))
        .unwrap();
    let g = h
        .server
        .http_gate_request(&in_session, &list, 1_000, Ctx::http(StreamId(4), 0))
        .unwrap();
    let r = g.request();
    assert_eq!((r.method.as_str(), r.era), ("resources/list", Era::Legacy));
    assert_eq!(r.session_id.as_deref(), Some(session.as_str()));
}
