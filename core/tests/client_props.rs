//! Property tests of the client machine: ids are never shared by two outstanding requests,
//! private cached results never reach another authorization context, and no input breaks it.

mod client_harness;

use std::collections::BTreeSet;

use client_harness::Pair;
use mcp_context::cache::AuthContext;
use mcp_context::client::{CachePolicy, Event, ListMode, Output};
use mcp_context::messages::owned::OwnedSubscriptionFilter;
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Debug, Clone)]
enum Op {
    Read(u8),
    List,
    Listen,
    AnswerOldest,
    AnswerNewest,
    InputRequired,
    ErrorOldest,
    Cancel(u8),
    Advance(u16),
    Close,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..4).prop_map(Op::Read),
        1 => Just(Op::List),
        1 => Just(Op::Listen),
        3 => Just(Op::AnswerOldest),
        2 => Just(Op::AnswerNewest),
        1 => Just(Op::InputRequired),
        1 => Just(Op::ErrorOldest),
        1 => (0u8..8).prop_map(Op::Cancel),
        1 => (0u16..40_000).prop_map(Op::Advance),
        1 => Just(Op::Close),
    ]
}

/// Drains the client; returns the requests it sent, checking each new id is not outstanding.
fn drain(p: &mut Pair, outstanding: &mut BTreeSet<i64>, requests: &mut Vec<(i64, String)>) {
    while let Some(out) = p.client.poll_output() {
        match out {
            Output::Transmit(t) => {
                let v: Value = serde_json::from_slice(&t.bytes).unwrap();
                if let (Some(id), Some(m)) = (v["id"].as_i64(), v["method"].as_str()) {
                    assert!(outstanding.insert(id), "id {id} reused while outstanding");
                    requests.push((id, m.to_string()));
                }
                if v["method"] == "notifications/cancelled" {
                    let id = v["params"]["requestId"].as_i64().unwrap();
                    outstanding.remove(&id);
                }
            }
            Output::CloseStream { id } => {
                outstanding.remove(&id);
            }
            Output::Event(_) => {}
        }
    }
}

fn answer_for(method: &str, id: i64) -> Value {
    let result = match method {
        "server/discover" => json!({"resultType": "complete", "supportedVersions": ["2026-07-28"],
            "capabilities": {"resources": {"subscribe": true}}, "ttlMs": 0, "cacheScope": "public"}),
        "resources/read" => {
            json!({"resultType": "complete", "contents": [], "ttlMs": 5, "cacheScope": "private"})
        }
        "resources/list" => {
            json!({"resultType": "complete", "resources": [], "nextCursor": "", "ttlMs": 0, "cacheScope": "public"})
        }
        "subscriptions/listen" => {
            json!({"resultType": "complete", "_meta": {"io.modelcontextprotocol/subscriptionId": id}})
        }
        _ => json!({}),
    };
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn no_two_outstanding_requests_share_an_id(ops in proptest::collection::vec(op(), 1..60)) {
        let mut p = Pair::new("prop-ids", Pair::config());
        let mut outstanding = BTreeSet::new();
        let mut requests: Vec<(i64, String)> = Vec::new();
        let mut calls = Vec::new();
        for op in ops {
            match op {
                Op::Read(u) => calls.push(p.client.read_resource(&format!("file:///{u}"), CachePolicy::PreferCache, p.now)),
                Op::List => calls.push(p.client.list_resources(ListMode::All, CachePolicy::PreferCache, p.now)),
                Op::Listen => calls.push(p.client.listen(OwnedSubscriptionFilter { resources_list_changed: Some(true), ..Default::default() }, p.now)),
                Op::AnswerOldest | Op::AnswerNewest | Op::ErrorOldest | Op::InputRequired => {
                    let pick = if matches!(op, Op::AnswerNewest) { requests.last() } else { requests.iter().find(|(id, _)| outstanding.contains(id)) };
                    if let Some((id, method)) = pick.cloned() {
                        outstanding.remove(&id);
                        requests.retain(|(i, _)| *i != id);
                        let msg = match op {
                            Op::ErrorOldest => json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "x"}}),
                            Op::InputRequired => json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required", "requestState": "s"}}),
                            _ => answer_for(&method, id),
                        };
                        p.client.handle_message(msg.to_string().as_bytes(), p.now);
                    }
                }
                Op::Cancel(i) => {
                    if let Some(call) = calls.get(usize::from(i)).copied() {
                        let _ = p.client.cancel(call, None, p.now);
                    }
                }
                Op::Advance(ms) => {
                    p.now += u64::from(ms);
                    if p.client.poll_timeout().is_some_and(|t| t <= p.now) {
                        // Requests given up on are no longer outstanding for the client.
                        p.client.handle_timeout(p.now);
                    }
                }
                Op::Close => {
                    p.client.handle_close(p.now);
                    outstanding.clear();
                }
            }
            drain(&mut p, &mut outstanding, &mut requests);
            // The machine's own count never exceeds what the server saw outstanding.
            prop_assert!(p.client.outstanding() <= outstanding.len());
        }
    }

    /// Reads by several authorization contexts, all answered `private` with the reader's
    /// context in the body: a reply served from the cache always belongs to the reader.
    #[test]
    fn private_results_are_never_served_to_another_context(
        steps in proptest::collection::vec((0u64..3, 0u8..3, 0u16..200), 1..40)
    ) {
        let mut p = Pair::modern("prop-auth");
        for (ctx, uri, wait) in steps {
            p.now += u64::from(wait);
            p.client.set_auth_context((ctx > 0).then_some(AuthContext(ctx)));
            let uri = format!("file:///{uri}");
            p.client.read_resource(&uri, CachePolicy::PreferCache, p.now);
            p.drain();
            let sent = p.take_sent();
            if let [req] = sent.as_slice() {
                let body = format!("ctx-{ctx}");
                p.answer_json(req.id(), json!({"resultType": "complete",
                    "contents": [{"uri": uri, "text": body}], "ttlMs": 150, "cacheScope": "private"}));
            }
            for e in p.take_events() {
                if let Event::ResourceRead { reply, .. } = e {
                    prop_assert!(reply.json().contains(&format!("\"ctx-{ctx}\"")), "{} served to ctx {ctx}", reply.json());
                }
            }
        }
    }

    #[test]
    fn arbitrary_input_never_panics_and_the_machine_keeps_working(
        inputs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..200), 0..20),
        json_like in proptest::collection::vec("[\\[\\]{}\":,0-9a-z .-]{0,60}", 0..20),
    ) {
        let mut p = Pair::modern("prop-garbage");
        let call = p.client.read_resource("file:///a", CachePolicy::Refresh, p.now);
        p.drain();
        let id = p.one_sent().id();
        for bytes in inputs.iter().map(Vec::as_slice).chain(json_like.iter().map(|s| s.as_bytes())) {
            p.client.handle_message(bytes, p.now);
            p.drain();
            p.take_sent();
            p.take_events();
        }
        p.answer_json(id, json!({"resultType": "complete", "contents": [], "ttlMs": 0, "cacheScope": "public"}));
        let events = p.take_events();
        let read = events.iter().any(|e| matches!(e, Event::ResourceRead { call: c, .. } if *c == call));
        prop_assert!(read, "the read still completes");
    }
}
