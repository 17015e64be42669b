//! Subscriptions (docs/rules.md §11, §12, §16.9) and their legacy emulation (docs/rules.md §17.2).

mod client_harness;

use client_harness::Pair;
use mcp_context::client::{CachePolicy, CallError, EndReason, Event, Notice, PeerError};
use mcp_context::messages::CacheScope;
use mcp_context::messages::owned::{
    OwnedReadResourceResult, OwnedResourceContents, OwnedSubscriptionFilter,
};
use serde_json::{Value, json};

fn filter(uris: &[&str]) -> OwnedSubscriptionFilter {
    OwnedSubscriptionFilter {
        tools_list_changed: Some(true),
        prompts_list_changed: Some(true),
        resources_list_changed: Some(true),
        resource_subscriptions: Some(uris.iter().map(|u| u.to_string()).collect()),
    }
}

fn note(method: &str, sub: Value, extra: Value) -> Value {
    let mut params = json!({"_meta": {"io.modelcontextprotocol/subscriptionId": sub}});
    if let Value::Object(m) = extra {
        for (k, v) in m {
            params[k] = v;
        }
    }
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn ack(sub: Value, notifications: Value) -> Value {
    note(
        "notifications/subscriptions/acknowledged",
        sub,
        json!({"notifications": notifications}),
    )
}

/// A modern pair with an acknowledged subscription; returns (pair, call, listen id).
fn listening(tag: &str) -> (Pair, mcp_context::client::CallId, i64) {
    let mut p = Pair::modern(tag);
    let call = p
        .client
        .listen(filter(&["file:///p/a", "file:///p/b"]), p.now);
    p.drain();
    let req = p.one_sent();
    assert_eq!(req.method(), "subscriptions/listen");
    assert_eq!(
        req.params()["notifications"],
        json!({"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true,
               "resourceSubscriptions": ["file:///p/a", "file:///p/b"]})
    );
    assert_eq!(
        p.client.poll_timeout(),
        None,
        "a listen request has no deadline"
    );
    let id = req.id();
    // The server honours resources and one URI; it has no tools and no prompt changes.
    p.feed_json(ack(
        json!(id),
        json!({"resourcesListChanged": true, "resourceSubscriptions": ["file:///p/a"]}),
    ));
    let Event::Acknowledged {
        call: c,
        honoured,
        refused,
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!(c, call);
    assert_eq!(
        honoured,
        OwnedSubscriptionFilter {
            resources_list_changed: Some(true),
            resource_subscriptions: Some(vec!["file:///p/a".into()]),
            ..Default::default()
        }
    );
    assert_eq!(
        refused,
        OwnedSubscriptionFilter {
            tools_list_changed: Some(true),
            prompts_list_changed: Some(true),
            resource_subscriptions: Some(vec!["file:///p/b".into()]),
            ..Default::default()
        }
    );
    (p, call, id)
}

#[test]
fn notifications_are_routed_by_subscription_id_and_checked_against_the_ack() {
    let (mut p, call, id) = listening("listen-route");
    p.feed_json(note(
        "notifications/resources/updated",
        json!(id),
        json!({"uri": "file:///p/a"}),
    ));
    assert_eq!(
        p.one_event(),
        Event::Notified {
            subscription: Some(call),
            notice: Notice::ResourceUpdated {
                uri: "file:///p/a".into()
            }
        }
    );
    // A sub-resource of a subscribed URI (docs/rules.md §12).
    p.feed_json(note(
        "notifications/resources/updated",
        json!(id),
        json!({"uri": "file:///p/a/x.rs"}),
    ));
    assert!(matches!(
        p.one_event(),
        Event::Notified {
            subscription: Some(_),
            ..
        }
    ));
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(id),
        json!({}),
    ));
    assert_eq!(
        p.one_event(),
        Event::Notified {
            subscription: Some(call),
            notice: Notice::ResourcesListChanged
        }
    );
    // Refused by the ack: not delivered.
    p.feed_json(note(
        "notifications/resources/updated",
        json!(id),
        json!({"uri": "file:///p/b"}),
    ));
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::UnrequestedNotification)
    );
    p.feed_json(note(
        "notifications/prompts/list_changed",
        json!(id),
        json!({}),
    ));
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::UnrequestedNotification)
    );
    // The id keeps its JSON type: "1" is not 1.
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(id.to_string()),
        json!({}),
    ));
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::UnknownSubscription)
    );
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(4242),
        json!({}),
    ));
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::UnknownSubscription)
    );
    assert!(p.take_sent().is_empty());
}

#[test]
fn two_subscriptions_are_demultiplexed() {
    let (mut p, first, id1) = listening("listen-two");
    let second = p.client.listen(
        OwnedSubscriptionFilter {
            prompts_list_changed: Some(true),
            ..Default::default()
        },
        p.now,
    );
    p.drain();
    let id2 = p.one_sent().id();
    // Interleaving before the second ack is allowed on stdio (docs/rules.md §11.2).
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(id1),
        json!({}),
    ));
    p.feed_json(ack(json!(id2), json!({"promptsListChanged": true})));
    p.feed_json(note(
        "notifications/prompts/list_changed",
        json!(id2),
        json!({}),
    ));
    let events = p.take_events();
    assert!(matches!(events[0], Event::Notified { subscription: Some(c), .. } if c == first));
    assert!(matches!(events[1], Event::Acknowledged { call: c, .. } if c == second));
    assert!(
        matches!(events[2], Event::Notified { subscription: Some(c), notice: Notice::PromptsListChanged } if c == second)
    );
}

#[test]
fn a_notification_before_the_ack_is_a_violation() {
    let mut p = Pair::modern("listen-early");
    let call = p.client.listen(filter(&["file:///x"]), p.now);
    p.drain();
    let id = p.one_sent().id();
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(id),
        json!({}),
    ));
    let events = p.take_events();
    assert_eq!(
        events[0],
        Event::PeerError(PeerError::NotificationBeforeAck)
    );
    assert_eq!(
        events[1],
        Event::Notified {
            subscription: Some(call),
            notice: Notice::ResourcesListChanged
        }
    );
}

#[test]
fn an_ack_granting_more_than_requested_is_clipped() {
    let mut p = Pair::modern("listen-exceed");
    p.client.listen(
        OwnedSubscriptionFilter {
            prompts_list_changed: Some(true),
            ..Default::default()
        },
        p.now,
    );
    p.drain();
    let id = p.one_sent().id();
    p.feed_json(ack(
        json!(id),
        json!({"promptsListChanged": true, "toolsListChanged": true}),
    ));
    let events = p.take_events();
    assert_eq!(events[0], Event::PeerError(PeerError::AckExceedsRequest));
    let Event::Acknowledged {
        honoured, refused, ..
    } = &events[1]
    else {
        panic!()
    };
    assert_eq!(honoured.tools_list_changed, None);
    assert_eq!(*refused, OwnedSubscriptionFilter::default());
}

#[test]
fn the_listen_result_is_a_graceful_end() {
    let (mut p, call, id) = listening("listen-graceful");
    p.answer_json(
        id,
        json!({"resultType": "complete", "_meta": {"io.modelcontextprotocol/subscriptionId": id}}),
    );
    assert_eq!(
        p.one_event(),
        Event::SubscriptionEnded {
            call,
            reason: EndReason::Graceful
        }
    );
    // Nothing of it is left.
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(id),
        json!({}),
    ));
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::UnknownSubscription)
    );
}

#[test]
fn a_listen_result_for_another_subscription_id_is_reported() {
    let (mut p, call, id) = listening("listen-mismatch");
    p.answer_json(id, json!({"resultType": "complete", "_meta": {"io.modelcontextprotocol/subscriptionId": "other"}}));
    assert_eq!(
        p.take_events(),
        [
            Event::PeerError(PeerError::SubscriptionIdMismatch),
            Event::SubscriptionEnded {
                call,
                reason: EndReason::Graceful
            }
        ]
    );
}

#[test]
fn cancelling_sends_notifications_cancelled_and_ignores_what_follows() {
    let (mut p, call, id) = listening("listen-cancel");
    p.client.cancel(call, Some("done"), p.now).unwrap();
    p.drain();
    assert_eq!(
        p.one_sent().json,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "done"}})
    );
    assert!(p.take_events().is_empty());
    p.feed_json(note(
        "notifications/resources/list_changed",
        json!(id),
        json!({}),
    ));
    p.answer_json(
        id,
        json!({"resultType": "complete", "_meta": {"io.modelcontextprotocol/subscriptionId": id}}),
    );
    assert!(
        p.take_events().is_empty(),
        "late messages of a cancelled subscription are ignored"
    );
}

#[test]
fn a_server_cancellation_ends_the_subscription() {
    let (mut p, call, id) = listening("listen-server-cancel");
    p.feed_json(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "Server shutting down"}}),
    );
    assert_eq!(
        p.one_event(),
        Event::SubscriptionEnded {
            call,
            reason: EndReason::CancelledByServer
        }
    );
    // The graceful result may follow (docs/rules.md §19 item 2): ignored.
    p.answer_json(
        id,
        json!({"resultType": "complete", "_meta": {"io.modelcontextprotocol/subscriptionId": id}}),
    );
    assert!(p.take_events().is_empty());
}

#[test]
fn a_modern_server_may_not_cancel_other_requests() {
    let mut p = Pair::modern("listen-bad-cancel");
    p.client
        .read_resource("file:///a", CachePolicy::Refresh, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.feed_json(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}),
    );
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::InvalidCancellation)
    );
}

#[test]
fn an_unexpected_close_carries_the_filter_to_resend() {
    let (mut p, call, _) = listening("listen-close");
    let read = p
        .client
        .read_resource("file:///a", CachePolicy::Refresh, p.now);
    p.drain();
    p.take_sent();
    p.close();
    let events = p.take_events();
    assert_eq!(events.len(), 2);
    assert!(events.contains(&Event::SubscriptionEnded {
        call,
        reason: EndReason::UnexpectedClose {
            filter: filter(&["file:///p/a", "file:///p/b"])
        }
    }));
    assert!(events.contains(&Event::Failed {
        call: read,
        error: CallError::Closed
    }));
    assert_eq!(p.client.outstanding(), 0);
    // Re-sending the listen negotiates first (the server holds no state, docs/rules.md §11.4).
    p.client.listen(filter(&["file:///p/a"]), p.now);
    p.drain();
    assert_eq!(p.one_sent().method(), "server/discover");
}

#[test]
fn updates_on_a_stream_invalidate_cached_reads() {
    let (mut p, _, id) = listening("listen-invalidate");
    p.client
        .read_resource("file:///p/a", CachePolicy::Refresh, p.now);
    p.drain();
    let read = p.one_sent();
    p.answer(
        read.id(),
        OwnedReadResourceResult {
            contents: vec![OwnedResourceContents::text("file:///p/a", None, "v1")],
            ..OwnedReadResourceResult::new(60_000, CacheScope::Public)
        },
    );
    p.take_events();
    assert!(p.client.read_cached("file:///p/a", p.now).is_some());
    p.feed_json(note(
        "notifications/resources/updated",
        json!(id),
        json!({"uri": "file:///p/a"}),
    ));
    assert!(p.client.read_cached("file:///p/a", p.now).is_none());
}
