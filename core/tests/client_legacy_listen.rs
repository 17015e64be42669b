//! The legacy emulation of subscriptions (docs/rules.md §17.2 item 4): `resources/subscribe` per
//! URI, notifications routed by method.

mod client_harness;

use client_harness::Pair;
use mcp_context::client::{EndReason, Era, Event, Notice};
use mcp_context::messages::owned::OwnedSubscriptionFilter;
use serde_json::json;

fn filter(uris: &[&str]) -> OwnedSubscriptionFilter {
    OwnedSubscriptionFilter {
        tools_list_changed: Some(true),
        prompts_list_changed: Some(true),
        resources_list_changed: Some(true),
        resource_subscriptions: Some(uris.iter().map(|u| u.to_string()).collect()),
    }
}

fn legacy_session(tag: &str, subscribe: bool) -> Pair {
    let mut p = Pair::new(tag, Pair::config());
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    p.error(probe.id(), -32601, "Method not found", None);
    let init = p.one_sent();
    p.answer_json(
        init.id(),
        json!({"protocolVersion": "2025-11-25",
               "capabilities": {"resources": {"subscribe": subscribe, "listChanged": true}, "prompts": {}},
               "serverInfo": {"name": "old", "version": "1"}}),
    );
    p.take_sent();
    let Event::Connected(s) = p.one_event() else {
        panic!()
    };
    assert_eq!(s.era, Era::Legacy);
    p
}

#[test]
fn legacy_listen_subscribes_per_uri_and_routes_by_method() {
    let mut p = legacy_session("legacy-listen", true);
    let call = p
        .client
        .listen(filter(&["file:///a", "file:///b", "file:///a"]), p.now);
    p.drain();
    let subs = p.take_sent();
    assert_eq!(subs.len(), 2, "one subscribe per distinct URI");
    assert_eq!(
        subs[0].json,
        json!({"jsonrpc": "2.0", "id": subs[0].id(), "method": "resources/subscribe", "params": {"uri": "file:///a"}})
    );
    p.answer_json(subs[0].id(), json!({}));
    assert!(
        p.take_events().is_empty(),
        "acknowledged once every subscribe is answered"
    );
    p.error(subs[1].id(), -32602, "Unknown resource", None);
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
            resource_subscriptions: Some(vec!["file:///a".into()]),
            ..Default::default()
        }
    );
    assert_eq!(
        refused.resource_subscriptions,
        Some(vec!["file:///b".into()])
    );
    assert_eq!(
        (refused.tools_list_changed, refused.prompts_list_changed),
        (Some(true), Some(true))
    );

    // Legacy notifications carry no subscription id: routed by method.
    p.feed_json(json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "file:///a"}}));
    assert_eq!(
        p.one_event(),
        Event::Notified {
            subscription: Some(call),
            notice: Notice::ResourceUpdated {
                uri: "file:///a".into()
            }
        }
    );
    p.feed_json(json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}));
    assert_eq!(
        p.one_event(),
        Event::Notified {
            subscription: Some(call),
            notice: Notice::ResourcesListChanged
        }
    );
    p.feed_json(json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"}));
    assert_eq!(
        p.one_event(),
        Event::Notified {
            subscription: None,
            notice: Notice::PromptsListChanged
        }
    );

    // A second listen on the same URI shares the server-side subscription.
    let second = p.client.listen(
        OwnedSubscriptionFilter {
            resource_subscriptions: Some(vec!["file:///a".into()]),
            ..Default::default()
        },
        p.now,
    );
    p.drain();
    assert!(p.take_sent().is_empty());
    assert!(matches!(p.one_event(), Event::Acknowledged { call: c, .. } if c == second));
    p.client.cancel(call, None, p.now).unwrap();
    p.drain();
    assert!(
        p.take_sent().is_empty(),
        "the second listen still holds file:///a"
    );
    p.client.cancel(second, None, p.now).unwrap();
    p.drain();
    let unsub = p.one_sent();
    assert_eq!(unsub.json["method"], "resources/unsubscribe");
    assert_eq!(unsub.params(), &json!({"uri": "file:///a"}));
    p.answer_json(unsub.id(), json!({}));
    assert!(p.take_events().is_empty());
    assert_eq!(p.client.outstanding(), 0);
}

#[test]
fn a_legacy_server_without_subscribe_refuses_every_uri() {
    let mut p = legacy_session("legacy-nosub", false);
    p.client.listen(filter(&["file:///a"]), p.now);
    p.drain();
    assert!(p.take_sent().is_empty());
    let Event::Acknowledged {
        honoured, refused, ..
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!(honoured.resource_subscriptions, None);
    assert_eq!(
        refused.resource_subscriptions,
        Some(vec!["file:///a".into()])
    );
    p.close();
    assert!(matches!(
        p.one_event(),
        Event::SubscriptionEnded {
            reason: EndReason::UnexpectedClose { .. },
            ..
        }
    ));
}
