//! Observations (docs/rules.md §26): one record per finished request with the
//! OpenTelemetry MCP names, one per refusal by a limit; off by default and then free.

mod common;
mod server_harness;

use mcp_context::http::{HttpStart, RequestHead};
use mcp_context::messages::owned::{FromJsonText, OwnedTool};
use mcp_context::observe::{
    Era, Limit, Observation, Outcome, RequestObservation, ResultKind, TraceParent, attr,
};
use mcp_context::server::{Ctx, Event, Server, ServerConfig, StreamId, Transport};
use serde_json::{Value, json};
use server_harness::*;

const TP: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn observed(config: ServerConfig) -> H {
    let mut s = catalogue(config);
    s.add_tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#).unwrap(),
    )
    .unwrap();
    s.observe(true);
    H::new("observe", s)
}

fn all(h: &mut H, now: u64) -> Vec<Observation> {
    std::iter::from_fn(|| h.server.poll_observation(now)).collect()
}

fn requests(obs: Vec<Observation>) -> Vec<RequestObservation> {
    obs.into_iter()
        .filter_map(|o| match o {
            Observation::Request(r) => Some(r),
            Observation::Refused(_) => None,
        })
        .collect()
}

fn meta_traced() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {},
        "traceparent": TP,
        "tracestate": "vendor=1",
    })
}

/// rules §26.1, §26.2: a tool call answered later by the application: method, id,
/// target, caller, era, version, trace context, outcome `tool_error`, the host's times.
#[test]
fn a_tool_call_is_observed_with_its_names_outcome_and_times() {
    let mut h = observed(ServerConfig::default());
    let ctx = Ctx::http(StreamId(5), 42);
    let outs = h.call(
        ctx,
        json!("call-1"),
        "tools/call",
        json!({"_meta": meta_traced(), "name": "echo", "arguments": {}}),
    );
    let evs = events(&outs);
    let [Event::CallTool(e)] = evs.as_slice() else {
        panic!("{outs:?}")
    };
    assert!(
        h.server.poll_observation(1_001).is_none(),
        "not finished yet"
    );
    assert_eq!(h.server.observed_in_flight(), 1);
    h.server.respond_tool_error(e.handle, "boom").unwrap();
    h.drain();
    let mut rs = requests(all(&mut h, 1_250));
    assert_eq!(rs.len(), 1);
    let r = rs.remove(0);
    assert_eq!(r.method, "tools/call");
    assert_eq!(r.request_id, "call-1");
    assert_eq!(r.target.as_deref(), Some("echo"));
    assert_eq!(r.target_attribute(), Some(attr::TOOL_NAME));
    assert_eq!(r.span_name(), "tools/call echo");
    assert_eq!(
        (r.caller, r.stream, r.transport),
        (42, StreamId(5), Transport::Http)
    );
    assert_eq!(
        (r.era, r.protocol_version.as_deref()),
        (Era::Modern, Some(V))
    );
    assert_eq!(r.session_id, None);
    assert_eq!(r.outcome, Outcome::Result(ResultKind::ToolError));
    assert!(!r.outcome.is_success());
    assert_eq!(r.outcome.error_type(&mut [0; 12]), Some("tool_error"));
    assert_eq!((r.start_ms, r.end_ms, r.duration_s()), (1_000, 1_250, 0.25));
    assert_eq!(r.tracestate.as_deref(), Some("vendor=1"));
    let parent = r.trace_parent(None).unwrap();
    assert_eq!(parent.trace_id_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(parent.span_id()[..2], [0x00, 0xf0]);
    assert_eq!(h.server.observed_in_flight(), 0);
}

/// rules §26.2: error answers carry their code as `error.type`; a resource read's target
/// is its URI, kept out of the span name.
#[test]
fn errors_carry_their_code_and_reads_their_uri() {
    let mut h = observed(ServerConfig::default());
    h.call(STDIO, json!(1), "no/such", json!({}));
    h.call(
        STDIO,
        json!(2),
        "resources/read",
        json!({"uri": "nope://x/1"}),
    );
    let rs = requests(all(&mut h, 1_000));
    assert_eq!(rs.len(), 2);
    assert_eq!(rs[0].method, "no/such");
    assert_eq!(rs[0].outcome, Outcome::Error(-32601));
    assert_eq!(rs[0].outcome.error_type(&mut [0; 12]), Some("-32601"));
    assert_eq!(rs[0].outcome.label(), "error");
    assert_eq!(rs[1].target.as_deref(), Some("nope://x/1"));
    assert_eq!(rs[1].target_attribute(), Some(attr::RESOURCE_URI));
    assert_eq!(rs[1].span_name(), "resources/read");
    assert_eq!(rs[1].outcome, Outcome::Error(-32602));
    assert!(rs[1].trace_parent(None).is_none());
}

/// rules §26.4: a listen refused by a limit is one refusal (which limit, which caller) and
/// one finished request (-32603); an accepted listen ends `cancelled` when its stream closes.
#[test]
fn refusals_name_their_limit_and_listens_end_when_their_stream_closes() {
    let mut h = observed(ServerConfig {
        max_listens: 1,
        declare_resources: true,
        ..ServerConfig::default()
    });
    let listen = json!({"notifications": {"resourcesListChanged": true}});
    h.call(http(1), json!(1), "subscriptions/listen", listen.clone());
    h.call(http(2), json!(1), "subscriptions/listen", listen);
    let obs = all(&mut h, 1_000);
    assert!(
        matches!(
            obs.as_slice(),
            [Observation::Refused(r), Observation::Request(q)]
                if r.limit == Limit::Listens && r.stream == StreamId(2) && r.caller == 0
                    && q.outcome == Outcome::Error(-32603)
        ),
        "{obs:?}"
    );
    assert_eq!(Limit::Listens.as_str(), "listens");
    assert_eq!(
        h.server.observed_in_flight(),
        1,
        "the accepted listen is open"
    );
    h.server.stream_closed(StreamId(1));
    let rs = requests(all(&mut h, 9_000));
    assert_eq!(rs.len(), 1);
    assert_eq!(rs[0].method, "subscriptions/listen");
    assert_eq!(rs[0].outcome, Outcome::Cancelled);
    assert_eq!((rs[0].start_ms, rs[0].end_ms), (1_000, 9_000));
}

/// rules §26.4: a stdio line over the bound and an HTTP body over the bound are refusals.
#[test]
fn oversized_lines_and_bodies_are_refusals() {
    let mut h = observed(ServerConfig::default());
    h.server.handle_line_too_long(br#"{"id":3,"#, 1_000, STDIO);
    let head = RequestHead {
        method: "POST",
        path: "/mcp",
        host: Some("localhost"),
        content_type: Some("application/json"),
        accept: Some("application/json, text/event-stream"),
        content_length: None,
        ..RequestHead::default()
    };
    let big = vec![b' '; 8 << 20];
    let start = h
        .server
        .handle_http(&head, &big, 1_000, Ctx::http(StreamId(9), 7));
    assert!(matches!(start, HttpStart::Respond(r) if r.status == 413));
    let limits: Vec<(Limit, u64)> = all(&mut h, 1_000)
        .into_iter()
        .filter_map(|o| match o {
            Observation::Refused(r) => Some((r.limit, r.caller)),
            Observation::Request(_) => None,
        })
        .collect();
    assert_eq!(limits, [(Limit::Line, 0), (Limit::Body, 7)]);
}

/// rules §26.1: a 2025-11-25 `initialize` over HTTP is the legacy era, and its observation
/// names the session it opened; later requests in the session carry it too.
#[test]
fn legacy_requests_name_their_era_and_session() {
    let mut h = observed(ServerConfig::default());
    let head = RequestHead {
        method: "POST",
        path: "/mcp",
        host: Some("localhost"),
        content_type: Some("application/json"),
        accept: Some("application/json, text/event-stream"),
        ..RequestHead::default()
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}});
    let bytes = serde_json::to_vec(&init).unwrap();
    let start = h
        .server
        .handle_http(&head, &bytes, 1_000, Ctx::http(StreamId(3), 0));
    let HttpStart::Respond(r) = start else {
        panic!()
    };
    let session = r.header("Mcp-Session-Id").unwrap().to_string();
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let in_session = RequestHead {
        session_id: Some(&session),
        protocol_version: Some("2025-11-25"),
        ..head
    };
    let bytes = serde_json::to_vec(&ping).unwrap();
    h.server
        .handle_http(&in_session, &bytes, 1_000, Ctx::http(StreamId(4), 0));
    while h.server.poll_output().is_some() {}
    let rs = requests(all(&mut h, 1_000));
    assert_eq!(rs.len(), 2, "{rs:?}");
    for (r, method) in rs.iter().zip(["initialize", "ping"]) {
        assert_eq!(r.method, method);
        assert_eq!(r.era, Era::Legacy);
        assert_eq!(r.session_id.as_deref(), Some(session.as_str()));
        assert!(r.outcome.is_success());
    }
}

/// rules §26.5: off by default, nothing is recorded; on, nothing waits past the bound.
#[test]
fn observations_are_off_by_default() {
    let mut s = catalogue(ServerConfig::default());
    assert!(!s.observing());
    s.handle_message(&request(json!(1), "server/discover", json!({})), 1, STDIO);
    while s.poll_output().is_some() {}
    assert!(s.poll_observation(2).is_none());
    assert_eq!(s.observed_in_flight(), 0);
    s.observe(true);
    for i in 0..5_000 {
        s.handle_message(&request(json!(i), "server/discover", json!({})), 1, STDIO);
        while s.poll_output().is_some() {}
    }
    assert_eq!(s.observations_dropped(), 5_000 - 4_096);
    s.observe(false);
    assert!(s.poll_observation(2).is_none());
}

/// rules §26.5: turned off, a request allocates exactly what it did before observations
/// existed: the same count as on a server that was never turned on.
#[test]
fn observing_off_allocates_nothing_for_it() {
    let body = request(json!(1), "server/discover", json!({}));
    let count = |s: &mut Server| {
        allocation_counter::measure(|| {
            s.handle_message(&body, 1, STDIO);
            while s.poll_output().is_some() {}
        })
        .count_total
    };
    let mut never = catalogue(ServerConfig::default());
    let mut toggled = catalogue(ServerConfig::default());
    toggled.observe(true);
    toggled.observe(false);
    count(&mut never);
    count(&mut toggled);
    let mut on = catalogue(ServerConfig::default());
    on.observe(true);
    count(&mut on);
    assert_eq!(count(&mut never), count(&mut toggled));
    assert!(count(&mut on) > count(&mut never));
}

/// rules §26.3: `traceparent` per W3C Trace Context; `_meta` first, the HTTP header second.
#[test]
fn traceparent_is_parsed_strictly_and_meta_wins_over_the_header() {
    let other = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
    assert_eq!(
        TraceParent::choose(Some(TP), Some(other)).unwrap().as_str(),
        TP
    );
    assert_eq!(
        TraceParent::choose(Some("junk"), Some(other))
            .unwrap()
            .as_str(),
        other
    );
    assert_eq!(
        TraceParent::choose(None, Some(&format!(" {other}\t")))
            .unwrap()
            .as_str(),
        other
    );
    assert!(!TraceParent::parse(other).unwrap().sampled());
    for bad in [
        "",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    ] {
        assert!(TraceParent::parse(bad).is_none(), "{bad}");
    }
    let future = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more";
    assert_eq!(TraceParent::parse(future).unwrap().as_str().len(), 55);
}

/// rules §26.6: an answer over `limit_responses` becomes `RESPONSE_TOO_LARGE` with the same
/// id and a `response` refusal; annotations on a pending request reach its observation.
#[test]
fn oversized_answers_are_replaced_and_annotations_reach_the_record() {
    let mut h = observed(ServerConfig::default());
    h.server.limit_responses(Some(200));
    let outs = h.call(
        STDIO,
        json!(8),
        "tools/call",
        json!({"name": "echo", "arguments": {}}),
    );
    let evs = events(&outs);
    let [Event::CallTool(e)] = evs.as_slice() else {
        panic!("{outs:?}")
    };
    h.server.annotate(e.handle, "tenant", "acme");
    let big = "x".repeat(500);
    let result = mcp_context::messages::owned::OwnedJson::parse(
        json!({"content": [{"type": "text", "text": big}]}).to_string(),
    )
    .unwrap();
    h.server.respond_tool(e.handle, result).unwrap();
    let mut answer = None;
    while let Some(o) = h.server.poll_output() {
        if let mcp_context::server::Output::Transmit(t) = o {
            answer = Some(serde_json::from_slice::<Value>(&t.bytes).unwrap());
        }
    }
    let answer = answer.unwrap();
    assert_eq!(answer["id"], 8);
    assert_eq!(
        answer["error"]["code"],
        mcp_context::observe::RESPONSE_TOO_LARGE
    );
    let obs = all(&mut h, 1_000);
    assert!(
        matches!(&obs[..], [Observation::Refused(r), Observation::Request(q)]
            if r.limit == Limit::Response
                && q.outcome == Outcome::Error(mcp_context::observe::RESPONSE_TOO_LARGE)
                && q.annotations == [("tenant".to_string(), "acme".to_string())]),
        "{obs:?}"
    );
    // A small answer passes untouched.
    let v = h.ask("no/such", json!({}));
    assert_eq!(v["error"]["code"], -32601, "{v}");
}
