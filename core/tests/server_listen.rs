//! Server machine: `subscriptions/listen`, change notifications and the ends of a
//! subscription (docs/rules.md §11, §12; checklist §16.9).

mod common;
mod server_harness;

use mcp_context::server::{BodyKind, Event, ServerConfig, StreamId};
use serde_json::{Value, json};
use server_harness::*;

fn cat(tag: &str) -> H {
    H::new(tag, catalogue(ServerConfig::default()))
}

fn listen(h: &mut H, ctx: mcp_context::server::Ctx, id: Value, filter: Value) -> Vec<Value> {
    let outs = h.call(
        ctx,
        id,
        "subscriptions/listen",
        json!({"notifications": filter}),
    );
    transmits(&outs).iter().map(json_of).collect()
}

fn sent(h: &mut H) -> Vec<Value> {
    transmits(&h.drain()).iter().map(json_of).collect()
}

fn sub_id(v: &Value) -> Value {
    v["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone()
}

#[test]
fn rule_49_ack_first() {
    let mut h = cat("listen-49");
    h.server.resources_list_changed(); // nobody listens yet: nothing
    assert!(h.drain().is_empty());
    let ack = listen(
        &mut h,
        STDIO,
        json!("L1"),
        json!({"resourcesListChanged": true}),
    );
    assert_eq!(ack.len(), 1);
    assert_eq!(ack[0]["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(sub_id(&ack[0]), "L1");
    assert!(ack[0].get("id").is_none());
    // Queued behind the ack even when produced before the host polls.
    let mut h = cat("listen-49b");
    h.server.handle_message(
        &request(
            json!(5),
            "subscriptions/listen",
            json!({"notifications": {"resourcesListChanged": true}}),
        ),
        1,
        STDIO,
    );
    h.server.resources_list_changed();
    let msgs = sent(&mut h);
    assert_eq!(
        msgs[0]["method"],
        "notifications/subscriptions/acknowledged"
    );
    assert_eq!(msgs[1]["method"], "notifications/resources/list_changed");
}

#[test]
fn rule_50_ack_is_the_honoured_subset() {
    let mut h = cat("listen-50");
    let ack = listen(
        &mut h,
        STDIO,
        json!(1),
        json!({"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": false,
               "resourceSubscriptions": ["notes://acme/1", "bad uri", "notes://acme/1", "notes://zeta"]}),
    );
    assert_eq!(
        ack[0]["params"]["notifications"],
        json!({"promptsListChanged": true, "resourceSubscriptions": ["notes://acme/1", "notes://zeta"]})
    );
    // A server without prompts drops promptsListChanged (docs/rules.md §11.2).
    let mut r = H::with(
        "listen-50b",
        ServerConfig {
            declare_resources: true,
            ..Default::default()
        },
    );
    let ack = listen(
        &mut r,
        STDIO,
        json!(1),
        json!({"promptsListChanged": true, "resourcesListChanged": true}),
    );
    assert_eq!(
        ack[0]["params"]["notifications"],
        json!({"resourcesListChanged": true})
    );
    // Nothing served: an empty filter, still acknowledged (docs/rules.md §19.7).
    let mut e = H::with("listen-50c", ServerConfig::default());
    let ack = listen(
        &mut e,
        STDIO,
        json!(1),
        json!({"promptsListChanged": true, "resourceSubscriptions": ["a:b"]}),
    );
    assert_eq!(ack[0]["params"]["notifications"], json!({}));
}

#[test]
fn rule_48_only_requested_types_are_sent() {
    let mut h = cat("listen-48");
    listen(
        &mut h,
        STDIO,
        json!("p"),
        json!({"promptsListChanged": true}),
    );
    listen(
        &mut h,
        STDIO,
        json!("r"),
        json!({"resourcesListChanged": true}),
    );
    listen(
        &mut h,
        STDIO,
        json!("u"),
        json!({"resourceSubscriptions": ["notes://acme/1"]}),
    );
    h.server.prompts_list_changed();
    h.server.resources_list_changed();
    h.server.resource_updated("notes://acme/1");
    h.server.resource_updated("notes://acme/2");
    let msgs = sent(&mut h);
    let got: Vec<(Value, Value)> = msgs
        .iter()
        .map(|m| (sub_id(m), m["method"].clone()))
        .collect();
    assert_eq!(
        got,
        [
            (json!("p"), json!("notifications/prompts/list_changed")),
            (json!("r"), json!("notifications/resources/list_changed")),
            (json!("u"), json!("notifications/resources/updated")),
        ]
    );
    assert_eq!(msgs[2]["params"]["uri"], "notes://acme/1");
}

#[test]
fn rule_51_subscription_id_is_the_listen_id_in_its_json_type() {
    let mut h = cat("listen-51");
    listen(
        &mut h,
        STDIO,
        json!(42),
        json!({"resourcesListChanged": true}),
    );
    listen(
        &mut h,
        STDIO,
        json!("42"),
        json!({"resourcesListChanged": true}),
    );
    h.server.resources_list_changed();
    let msgs = sent(&mut h);
    assert_eq!(sub_id(&msgs[0]), json!(42));
    assert_eq!(sub_id(&msgs[1]), json!("42"));
}

#[test]
fn updates_reach_subscribers_of_a_parent_uri() {
    let mut h = cat("listen-sub");
    listen(
        &mut h,
        STDIO,
        json!(1),
        json!({"resourceSubscriptions": ["notes://acme"]}),
    );
    for uri in [
        "notes://acme/1",
        "notes://acme",
        "notes://acme?rev=2",
        "notes://acmex",
        "notes://zeta/9",
    ] {
        h.server.resource_updated(uri);
    }
    let uris: Vec<Value> = sent(&mut h)
        .iter()
        .map(|m| m["params"]["uri"].clone())
        .collect();
    assert_eq!(
        uris,
        [
            json!("notes://acme/1"),
            json!("notes://acme"),
            json!("notes://acme?rev=2")
        ]
    );
}

#[test]
fn rule_59_list_changed_goes_to_listeners_that_opted_in() {
    let mut h = cat("listen-59");
    listen(
        &mut h,
        http(1),
        json!(1),
        json!({"resourcesListChanged": true, "promptsListChanged": true}),
    );
    listen(&mut h, http(2), json!(1), json!({}));
    h.server.prompts_list_changed();
    let outs = h.drain();
    let t = transmits(&outs);
    assert_eq!(t.len(), 1);
    assert_eq!(
        (t[0].stream, t[0].kind, t[0].http_status, t[0].end_of_stream),
        (StreamId(1), BodyKind::Sse, 200, false)
    );
}

#[test]
fn equal_notifications_coalesce_while_queued() {
    let mut h = cat("listen-coalesce");
    listen(
        &mut h,
        STDIO,
        json!(1),
        json!({"resourcesListChanged": true, "resourceSubscriptions": ["notes://acme"]}),
    );
    for _ in 0..5 {
        h.server.resources_list_changed();
        h.server.resource_updated("notes://acme/1");
    }
    h.server.resource_updated("notes://acme/2");
    assert_eq!(sent(&mut h).len(), 3);
    h.server.resources_list_changed();
    assert_eq!(
        sent(&mut h).len(),
        1,
        "once polled, the next change is sent again"
    );
}

#[test]
fn rule_52_rule_55_graceful_shutdown_on_stdio_and_http() {
    let mut h = cat("listen-52");
    listen(
        &mut h,
        STDIO,
        json!("s"),
        json!({"resourcesListChanged": true}),
    );
    listen(
        &mut h,
        http(7),
        json!(3),
        json!({"resourcesListChanged": true}),
    );
    h.server.shutdown();
    let outs = h.drain();
    let t = transmits(&outs);
    let msgs: Vec<Value> = t.iter().map(json_of).collect();
    assert_eq!(msgs.len(), 3);
    assert_eq!(msgs[0]["id"], "s");
    assert_eq!(
        msgs[0]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "s"
    );
    assert_eq!(msgs[0]["result"]["resultType"], "complete");
    assert_eq!(msgs[1]["method"], "notifications/cancelled");
    assert_eq!(msgs[1]["params"]["requestId"], "s");
    assert_eq!(
        msgs[2]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        3
    );
    assert!(t[2].end_of_stream && !t[0].end_of_stream);
    assert_eq!(h.server.subscriptions(), 0);
    h.server.resources_list_changed();
    assert!(h.drain().is_empty());
}

#[test]
fn rule_56_client_cancellation_ends_the_stream_and_purges_it() {
    let mut h = cat("listen-56");
    listen(
        &mut h,
        STDIO,
        json!("a"),
        json!({"resourcesListChanged": true}),
    );
    listen(
        &mut h,
        STDIO,
        json!("b"),
        json!({"resourcesListChanged": true}),
    );
    h.server.resources_list_changed();
    // Cancel "a" before the host polled its notification: it is never sent.
    h.server.handle_message(
        &notification("notifications/cancelled", json!({"requestId": "a"})),
        2,
        STDIO,
    );
    let msgs = sent(&mut h);
    assert_eq!(msgs.iter().map(sub_id).collect::<Vec<_>>(), [json!("b")]);
    h.server.resources_list_changed();
    assert_eq!(
        sent(&mut h).iter().map(sub_id).collect::<Vec<_>>(),
        [json!("b")]
    );
    assert_eq!(h.server.subscriptions(), 1);
}

#[test]
fn rule_65_stream_close_ends_http_subscriptions() {
    let mut h = cat("listen-65");
    listen(
        &mut h,
        http(1),
        json!(1),
        json!({"resourcesListChanged": true}),
    );
    listen(
        &mut h,
        http(2),
        json!(1),
        json!({"resourcesListChanged": true}),
    );
    h.server.resources_list_changed();
    h.server.stream_closed(StreamId(1));
    let t = transmits(&h.drain());
    assert_eq!(
        t.iter().map(|t| t.stream).collect::<Vec<_>>(),
        [StreamId(2)]
    );
    assert_eq!(h.server.subscriptions(), 1);
}

#[test]
fn overflow_is_reported_and_tears_the_subscription_down() {
    let config = ServerConfig {
        stream_queue: 3,
        ..ServerConfig::default()
    };
    let mut h = H::new("listen-overflow", catalogue(config));
    h.server.handle_message(
        &request(
            json!("o"),
            "subscriptions/listen",
            json!({"notifications": {"resourceSubscriptions": ["notes://acme"]}}),
        ),
        1,
        http(4),
    );
    for i in 0..5 {
        h.server.resource_updated(&format!("notes://acme/{i}"));
    }
    let outs = h.drain();
    let msgs: Vec<Value> = transmits(&outs).iter().map(json_of).collect();
    // ack + 2 updates fill the queue of 3; the third update overflows.
    assert_eq!(msgs.len(), 4);
    assert_eq!(msgs[3]["method"], "notifications/cancelled");
    assert_eq!(msgs[3]["params"]["requestId"], "o");
    assert!(transmits(&outs)[3].end_of_stream);
    let evs = events(&outs);
    assert!(matches!(
        evs.as_slice(),
        [Event::StreamOverflow {
            stream: StreamId(4),
            ..
        }]
    ));
    assert_eq!(h.server.subscriptions(), 0);
}

#[test]
fn stdio_subscriptions_interleave_and_demultiplex_by_id() {
    let mut h = cat("listen-stdio");
    listen(
        &mut h,
        STDIO,
        json!(1),
        json!({"resourceSubscriptions": ["notes://acme/1"]}),
    );
    let outs = h.call(
        STDIO,
        json!(2),
        "resources/read",
        json!({"uri": "test://static-text"}),
    );
    assert_eq!(only(&outs)["id"], 2);
    listen(
        &mut h,
        STDIO,
        json!(3),
        json!({"resourceSubscriptions": ["notes://acme"]}),
    );
    h.server.resource_updated("notes://acme/1");
    let ids: Vec<Value> = sent(&mut h).iter().map(sub_id).collect();
    assert_eq!(ids, [json!(1), json!(3)]);
}

#[test]
fn a_listen_id_in_use_on_the_stream_is_refused() {
    let mut h = cat("listen-dup");
    listen(&mut h, STDIO, json!(1), json!({}));
    let v = listen(&mut h, STDIO, json!(1), json!({}));
    assert_eq!(error_code(&v[0]), -32600);
    let v = listen(&mut h, http(5), json!(1), json!({}));
    assert_eq!(v[0]["method"], "notifications/subscriptions/acknowledged");
}
