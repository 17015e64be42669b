//! Server machine properties: random operation sequences never deliver a notification a
//! stream did not ask for, subscription ids always equal the listen id in its JSON type,
//! acknowledgments come first, lists are deterministic, and arbitrary input never panics
//! (every transmit is checked by the harness).

mod common;
mod server_harness;

use std::collections::{BTreeMap, BTreeSet};

use mcp_context::messages::owned::OwnedResource;
use mcp_context::server::{Ctx, ResourceEntry, ServerConfig, StreamId};
use proptest::prelude::*;
use serde_json::{Value, json};
use server_harness::*;

const URIS: &[&str] = &[
    "notes://acme",
    "notes://acme/1",
    "notes://acme/2",
    "notes://zeta/9",
    "test://static-text",
];

#[derive(Debug, Clone)]
enum Op {
    Listen {
        stream: u64,
        id: Value,
        resources: bool,
        prompts: bool,
        tools: bool,
        uris: Vec<usize>,
    },
    Updated(usize),
    ResourcesChanged,
    PromptsChanged,
    Cancel {
        stream: u64,
        id: Value,
    },
    Close(u64),
    Poll,
    Shutdown,
}

fn id_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0i64..4).prop_map(|i| json!(i)),
        (0u8..4).prop_map(|i| json!(i.to_string()))
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u64..3, id_strategy(), any::<bool>(), any::<bool>(), any::<bool>(),
              prop::collection::vec(0..URIS.len(), 0..3))
            .prop_map(|(stream, id, resources, prompts, tools, uris)| Op::Listen { stream, id, resources, prompts, tools, uris }),
        4 => (0..URIS.len() + 1).prop_map(Op::Updated),
        2 => Just(Op::ResourcesChanged),
        2 => Just(Op::PromptsChanged),
        1 => (0u64..3, id_strategy()).prop_map(|(stream, id)| Op::Cancel { stream, id }),
        1 => (1u64..3).prop_map(Op::Close),
        3 => Just(Op::Poll),
        1 => Just(Op::Shutdown),
    ]
}

fn ctx(stream: u64) -> Ctx {
    if stream == 0 {
        STDIO
    } else {
        Ctx::http(StreamId(stream), 0)
    }
}

fn is_sub(child: &str, parent: &str) -> bool {
    match child.strip_prefix(parent) {
        Some("") => true,
        Some(rest) => parent.ends_with('/') || rest.starts_with(['/', '?', '#']),
        None => false,
    }
}

/// The model: acknowledged filters by (stream, id as JSON text), fed only by what the
/// server sent.
#[derive(Default)]
struct Model {
    acked: BTreeMap<(u64, String), Value>,
    ended: BTreeSet<(u64, String)>,
}

impl Model {
    fn observe(&mut self, stream: u64, msg: &Value) {
        let Some(method) = msg["method"].as_str() else {
            // A listen result ends its subscription.
            if let Some(sid) = msg["result"]["_meta"].get("io.modelcontextprotocol/subscriptionId")
            {
                assert_eq!(
                    sid, &msg["id"],
                    "result subscriptionId = response id, same type"
                );
                self.ended.insert((stream, sid.to_string()));
            }
            return;
        };
        let sid = msg["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone();
        assert!(
            !sid.is_null(),
            "every listen-stream notification is stamped: {msg}"
        );
        let key = (stream, sid.to_string());
        if method == "notifications/subscriptions/acknowledged" {
            assert!(!self.acked.contains_key(&key) || self.ended.contains(&key));
            self.ended.remove(&key);
            self.acked
                .insert(key, msg["params"]["notifications"].clone());
            return;
        }
        if method == "notifications/cancelled" {
            // The teardown notice (after the graceful result on stdio, or alone).
            assert_eq!(msg["params"]["requestId"], sid);
            assert!(
                self.acked.contains_key(&key),
                "teardown of an unknown subscription"
            );
            self.ended.insert(key);
            return;
        }
        assert!(!self.ended.contains(&key), "sent after the end: {msg}");
        let filter = self
            .acked
            .get(&key)
            .unwrap_or_else(|| panic!("no ack precedes {msg}"));
        match method {
            "notifications/resources/list_changed" => {
                assert_eq!(filter["resourcesListChanged"], true)
            }
            "notifications/prompts/list_changed" => assert_eq!(filter["promptsListChanged"], true),
            "notifications/resources/updated" => {
                let uri = msg["params"]["uri"].as_str().unwrap();
                let subs = filter["resourceSubscriptions"]
                    .as_array()
                    .expect("updates were honoured");
                assert!(
                    subs.iter().any(|s| is_sub(uri, s.as_str().unwrap())),
                    "{uri} not asked"
                );
            }
            other => panic!("unexpected notification {other}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn notifications_only_as_asked_and_stamped_with_the_listen_id(ops in prop::collection::vec(op(), 1..40)) {
        let mut h = H::new("props-listen", catalogue(ServerConfig { stream_queue: 4, ..ServerConfig::default() }));
        let mut model = Model::default();
        let mut listen_ids: BTreeMap<(u64, String), Value> = BTreeMap::new();
        let record = |h: &mut H, model: &mut Model, outs: Vec<mcp_context::server::Output>| {
            for t in transmits(&outs) {
                let v = json_of(&t);
                model.observe(t.stream.0, &v);
            }
            let _ = h;
        };
        for op in ops {
            match op {
                Op::Listen { stream, id, resources, prompts, tools, uris } => {
                    let mut filter = json!({});
                    if resources { filter["resourcesListChanged"] = json!(true); }
                    if prompts { filter["promptsListChanged"] = json!(true); }
                    if tools { filter["toolsListChanged"] = json!(true); }
                    if !uris.is_empty() {
                        filter["resourceSubscriptions"] = json!(uris.iter().map(|&i| URIS[i]).collect::<Vec<_>>());
                    }
                    h.server.handle_message(&request(id.clone(), "subscriptions/listen", json!({"notifications": filter})), 1, ctx(stream));
                    listen_ids.insert((stream, id.to_string()), id);
                }
                Op::Updated(i) => h.server.resource_updated(URIS.get(i).copied().unwrap_or("other://x")),
                Op::ResourcesChanged => h.server.resources_list_changed(),
                Op::PromptsChanged => h.server.prompts_list_changed(),
                Op::Cancel { stream, id } => {
                    let outs = h.send(ctx(stream), &notification("notifications/cancelled", json!({"requestId": id})));
                    record(&mut h, &mut model, outs);
                    model.ended.insert((stream, id.to_string()));
                }
                Op::Close(stream) => {
                    let outs = h.drain();
                    record(&mut h, &mut model, outs);
                    h.server.stream_closed(StreamId(stream));
                    for (k, _) in model.acked.iter().filter(|(k, _)| k.0 == stream) {
                        model.ended.insert(k.clone());
                    }
                }
                Op::Poll => {
                    let outs = h.drain();
                    record(&mut h, &mut model, outs);
                }
                Op::Shutdown => h.server.shutdown(),
            }
        }
        let outs = h.drain();
        record(&mut h, &mut model, outs);
        // Every acknowledged subscription id is one a listen used, in its JSON type.
        for (k, _) in model.acked.keys().map(|k| (k, ())) {
            prop_assert!(listen_ids.contains_key(k), "ack for an id no listen used: {k:?}");
        }
    }

    #[test]
    fn lists_are_deterministic(mut uris in prop::collection::btree_set("[a-z]{1,6}", 0..20), size in 1usize..6, seed in any::<u64>()) {
        let list: Vec<String> = std::mem::take(&mut uris).into_iter().map(|u| format!("x:{u}")).collect();
        let mut shuffled = list.clone();
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        let pages = |order: &[String]| {
            let mut h = H::with("props-lists", ServerConfig { page_size: size, declare_resources: true, ..ServerConfig::default() });
            for u in order {
                h.server.add_resource(ResourceEntry { resource: OwnedResource::new(u.as_str(), "n"), ..Default::default() }).unwrap();
            }
            let mut out = Vec::new();
            let mut cursor: Option<Value> = None;
            loop {
                let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
                let v = h.ask("resources/list", params);
                out.push(v["result"].clone());
                match v["result"].get("nextCursor") { Some(c) => cursor = Some(c.clone()), None => break }
            }
            out
        };
        let a = pages(&list);
        prop_assert_eq!(&a, &pages(&shuffled));
        let all: Vec<String> = a.iter().flat_map(|p| p["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap().to_string())).collect();
        prop_assert_eq!(all, list);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let mut h = H::new("props-bytes", catalogue(ServerConfig::default()));
        h.send(STDIO, &bytes);
    }

    #[test]
    fn arbitrary_requests_never_panic(
        method in prop::sample::select(vec!["server/discover", "resources/list", "resources/read", "resources/templates/list",
            "prompts/list", "prompts/get", "completion/complete", "subscriptions/listen", "initialize", "x"]),
        params in prop::sample::select(vec![
            json!({}), json!({"uri": "notes://acme/1"}), json!({"uri": 5}), json!({"name": "review_note", "arguments": {"project": "a", "id": "b"}}),
            json!({"cursor": "AQE"}), json!({"notifications": {"resourceSubscriptions": ["a:b", 3]}}),
            json!({"ref": {"type": "ref/prompt", "name": "review_note"}, "argument": {"name": "tone", "value": "b"}}),
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}), json!([1]), json!({"uri": "notes://acme/1", "requestState": "AAAA"}),
        ]),
        stream in 0u64..3,
    ) {
        let mut h = H::new("props-requests", catalogue(ServerConfig::default()));
        let outs = h.call(ctx(stream), json!(1), method, params);
        // Every request is answered exactly once, or becomes one event.
        prop_assert_eq!(transmits(&outs).len() + events(&outs).len(), 1);
    }
}
