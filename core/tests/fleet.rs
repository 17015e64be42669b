//! The fleet protocol (docs/rules.md §23): the wire format, echo suppression, applying another
//! instance's change to the machine, and the broker's edges. Two machines stand for two
//! instances; the bytes one `Fleet` hands out are what the other receives from the broker.

mod common;
mod server_harness;

use mcp_context::fleet::{
    Change, Fleet, FleetError, Receipt, Reject, WIRE_VERSION, decode, encode_into,
};
use mcp_context::server::ServerConfig;
use serde_json::{Value, json};
use server_harness::*;

const NOTE: &str = "notes://acme/1";

fn instance(tag: &str) -> H {
    H::new(tag, catalogue(ServerConfig::default()))
}

/// Opens a listen on stdio for `NOTE` and the resource list; returns its acknowledgement.
fn listen(h: &mut H, id: Value) -> Vec<Value> {
    let outs = h.call(
        STDIO,
        id,
        "subscriptions/listen",
        json!({"notifications": {"resourcesListChanged": true, "resourceSubscriptions": [NOTE]}}),
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
fn the_wire_format_is_versioned_and_reads_the_unversioned_form() {
    let mut out = Vec::new();
    encode_into("a1", &Change::ResourceUpdated(NOTE.into()), &mut out);
    assert_eq!(
        out,
        br#"{"v":1,"o":"a1","k":"resource_updated","u":"notes://acme/1"}"#
    );
    out.clear();
    encode_into("a1", &Change::PromptsListChanged, &mut out);
    assert_eq!(out, br#"{"v":1,"o":"a1","k":"prompts_list_changed"}"#);
    assert_eq!(WIRE_VERSION, 1);
    // Version 0: what the Python broker wrote before the fleet module (no "v").
    let m = decode(br#"{"o":"py","k":"resource_updated","u":"notes://acme/1"}"#).unwrap();
    assert_eq!((m.version, &*m.origin), (0, "py"));
    assert_eq!(m.change, Change::ResourceUpdated(NOTE.into()));
    let m = decode(br#"{"k":"tools_list_changed","o":"x","v":1,"extra":[1]}"#).unwrap();
    assert_eq!(m.change, Change::ToolsListChanged);
    // Escapes round-trip.
    out.clear();
    let odd = "notes://a/\"q\"\\\u{e9}\u{1}";
    encode_into("a1", &Change::ResourceUpdated(odd.into()), &mut out);
    assert_eq!(decode(&out).unwrap().change.uri(), Some(odd));
    // Every kind names itself and round-trips.
    for c in [
        Change::ResourceUpdated(NOTE.into()),
        Change::ResourcesListChanged,
        Change::PromptsListChanged,
        Change::ToolsListChanged,
    ] {
        assert_eq!(Change::from_kind(c.kind(), c.uri()).as_ref(), Some(&c));
        out.clear();
        encode_into("z", &c, &mut out);
        assert_eq!(decode(&out).unwrap().change, c);
    }
    assert_eq!(Change::from_kind("resource_updated", None), None);
}

#[test]
fn newer_unknown_and_malformed_events_are_rejected_without_panic() {
    let bad = |b: &[u8]| decode(b).unwrap_err();
    assert_eq!(
        bad(br#"{"v":2,"o":"a","k":"resource_updated","u":"x"}"#),
        Reject::Version
    );
    assert_eq!(bad(br#"{"v":1,"o":"a","k":"keys_rotated"}"#), Reject::Kind);
    for b in [
        &b""[..],
        b"[]",
        b"null",
        b"{",
        br#"{"k":"resources_list_changed"}"#,
        br#"{"o":"","k":"resources_list_changed"}"#,
        br#"{"o":1,"k":"resources_list_changed"}"#,
        br#"{"o":"a","k":"resource_updated"}"#,
        br#"{"o":"a","k":"resource_updated","u":7}"#,
        br#"{"v":-1,"o":"a","k":"prompts_list_changed"}"#,
        br#"{"v":"1","o":"a","k":"prompts_list_changed"}"#,
        b"{\"o\":\"a\xff\",\"k\":\"prompts_list_changed\"}",
    ] {
        assert_eq!(
            bad(b),
            Reject::Malformed,
            "{:?}",
            String::from_utf8_lossy(b)
        );
    }
    let big = format!(
        r#"{{"o":"a","k":"resource_updated","u":"{}"}}"#,
        "x".repeat(70_000)
    );
    assert_eq!(bad(big.as_bytes()), Reject::Malformed);
    // Every prefix of a valid event: an answer, never a panic.
    let ok = br#"{"v":1,"o":"a1","k":"resource_updated","u":"notes://acme/1"}"#;
    for n in 0..ok.len() {
        let _ = decode(&ok[..n]);
    }
}

#[test]
fn names_and_instance_ids_are_checked() {
    assert_eq!(Fleet::new("", "a").unwrap_err(), FleetError::Name);
    for name in ["a:b", "a b", "a*", "a?", "a[", "a\n"] {
        assert_eq!(
            Fleet::new(name, "a").unwrap_err(),
            FleetError::Name,
            "{name}"
        );
    }
    for origin in ["", "a b", "a\"", &"x".repeat(65)] {
        assert_eq!(Fleet::new("notes", origin).unwrap_err(), FleetError::Origin);
    }
    let f = Fleet::new("notes", "0f3a-b_c.d").unwrap();
    assert_eq!(f.channel(), "mcp-context:notes:events");
    assert_eq!(f.origin(), "0f3a-b_c.d");
}

#[test]
fn a_change_reaches_every_instance_once_with_the_listen_id() {
    let (mut a, mut b) = (instance("fleet-a"), instance("fleet-b"));
    let (mut fa, mut fb) = (
        Fleet::new("notes", "a").unwrap(),
        Fleet::new("notes", "b").unwrap(),
    );
    assert!(!fa.link_up(&mut a.server)); // first link: nothing to signal
    assert!(!fb.link_up(&mut b.server));
    listen(&mut a, json!("LA"));
    listen(&mut b, json!("LB"));
    // Made on A: applied on A at once, then published.
    let bytes = fa
        .local(&mut a.server, &Change::ResourceUpdated(NOTE.into()))
        .unwrap()
        .to_vec();
    fa.published(1);
    let on_a = sent(&mut a);
    assert_eq!(on_a.len(), 1);
    assert_eq!(on_a[0]["method"], "notifications/resources/updated");
    assert_eq!(sub_id(&on_a[0]), "LA");
    // The broker delivers it to every subscriber, A included: A skips its echo.
    assert_eq!(fa.receive(&mut a.server, &bytes), Receipt::Echo);
    assert!(sent(&mut a).is_empty());
    assert_eq!(fb.receive(&mut b.server, &bytes), Receipt::Applied);
    let on_b = sent(&mut b);
    assert_eq!(on_b.len(), 1);
    assert_eq!(on_b[0]["params"]["uri"], NOTE);
    assert_eq!(sub_id(&on_b[0]), "LB");
    // A list change from B.
    let bytes = fb
        .local(&mut b.server, &Change::ResourcesListChanged)
        .unwrap()
        .to_vec();
    assert_eq!(
        sent(&mut b)[0]["method"],
        "notifications/resources/list_changed"
    );
    assert_eq!(fa.receive(&mut a.server, &bytes), Receipt::Applied);
    let on_a = sent(&mut a);
    assert_eq!(on_a[0]["method"], "notifications/resources/list_changed");
    assert_eq!(sub_id(&on_a[0]), "LA");
    // Rejected events are counted, nothing is sent.
    assert_eq!(
        fa.receive(&mut a.server, b"{}"),
        Receipt::Rejected(Reject::Malformed)
    );
    assert!(sent(&mut a).is_empty());
    let s = fa.stats();
    assert_eq!(
        (s.published, s.applied, s.echoes, s.rejected, s.dropped),
        (1, 1, 1, 1, 0)
    );
}

/// The result that ends a listen (graceful, docs/rules.md §11.4): `id` and `_meta` id.
fn ended(msgs: &[Value], id: &str) -> bool {
    msgs.iter().any(|m| {
        m["id"] == id && m["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == id
    })
}

#[test]
fn the_brokers_edges_end_every_listen_and_local_changes_still_apply() {
    let mut a = instance("fleet-edges");
    let mut f = Fleet::new("notes", "a").unwrap();
    // The first attempt fails: nothing was open before, nothing to signal.
    assert!(!f.link_down(&mut a.server));
    listen(&mut a, json!("L1"));
    // Down: a local change still reaches the local listen; it is not published.
    assert!(
        f.local(&mut a.server, &Change::ResourceUpdated(NOTE.into()))
            .is_none()
    );
    assert_eq!(sent(&mut a)[0]["method"], "notifications/resources/updated");
    assert_eq!(f.stats().dropped, 1);
    // Up after a failed attempt: L1 heard only local events: ended.
    assert!(f.link_up(&mut a.server));
    assert!(ended(&sent(&mut a), "L1"));
    assert_eq!(a.server.subscriptions(), 0);
    // Lost while up: every listen ends, new listens are served.
    listen(&mut a, json!("L2"));
    assert!(f.link_down(&mut a.server));
    assert!(ended(&sent(&mut a), "L2"));
    assert!(!f.link_down(&mut a.server)); // a retry that fails again: no second signal
    listen(&mut a, json!("L3"));
    assert!(f.link_up(&mut a.server));
    assert!(ended(&sent(&mut a), "L3"));
    let s = f.stats();
    assert_eq!((s.signals, s.connected), (3, true));
    f.dropped(2);
    assert_eq!(f.stats().dropped, 3);
}
