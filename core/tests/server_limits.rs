//! Server machine: bounded listens and pending requests, per stream and in total
//! (`ServerConfig::max_*`, docs/server-machine.md §Limits). One more is refused with -32603;
//! nothing already accepted is dropped; memory stays bounded under a flood.

mod common;
mod server_harness;

use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context::server::{
    ConfigError, Ctx, Event, Handle, Output, ResourceEntry, Server, ServerConfig, StreamId,
};
use serde_json::json;
use server_harness::*;

fn listen_bytes(id: u64) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"subscriptions/listen","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}},"notifications":{{"resourcesListChanged":true,"resourceSubscriptions":["notes://acme/{id}"]}}}}}}"#
    )
    .into_bytes()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn server(config: ServerConfig) -> Server {
    let mut s = Server::new(config).unwrap();
    s.add_resource(ResourceEntry {
        resource: OwnedResource::new("notes://acme/1", "note"),
        contents: None,
        cache: None,
    })
    .unwrap();
    s
}

/// 200,000 listens on one stdio stream: the first 64 are acknowledged, every other one is
/// refused with -32603, and the memory the machine holds stays that of 64 subscriptions.
#[test]
fn a_listen_flood_on_one_stdio_stream_stays_bounded() {
    let mut s = server(ServerConfig::default());
    let (mut acks, mut refused) = (0usize, 0usize);
    let info = allocation_counter::measure(|| {
        for id in 0..200_000u64 {
            s.handle_message(&listen_bytes(id), 1_000, STDIO);
            while let Some(out) = s.poll_output() {
                let Output::Transmit(t) = out else {
                    panic!("no events expected")
                };
                if contains(&t.bytes, b"notifications/subscriptions/acknowledged") {
                    acks += 1;
                } else if contains(&t.bytes, b"\"code\":-32603,") {
                    refused += 1;
                } else {
                    panic!("unexpected {}", String::from_utf8_lossy(&t.bytes));
                }
            }
        }
    });
    assert_eq!((acks, refused), (64, 200_000 - 64));
    assert_eq!(s.subscriptions(), 64);
    // 64 subscriptions and their index: far below 1 MiB (200,000 would be ~80 MB).
    assert!(
        info.bytes_current < 1 << 20,
        "the machine kept {} bytes",
        info.bytes_current
    );
    // Nothing accepted was dropped: every one of the 64 still gets its notifications.
    s.resources_list_changed();
    let mut n = 0;
    while s.poll_output().is_some() {
        n += 1;
    }
    assert_eq!(n, 64);
}

#[test]
fn a_freed_slot_is_usable_again_and_the_total_bound_spans_streams() {
    let mut h = H::new(
        "limits-listens",
        server(ServerConfig {
            max_listens_per_stream: 3,
            max_listens: 5,
            ..ServerConfig::default()
        }),
    );
    let listen = |id: u64| json!({"notifications": {"resourcesListChanged": true}, "_x": id});
    for id in 0..3 {
        let outs = h.call(STDIO, json!(id), "subscriptions/listen", listen(id));
        assert!(json_of(&transmits(&outs)[0])["method"].is_string());
    }
    let v = only(&h.call(STDIO, json!(3), "subscriptions/listen", listen(3)));
    assert_eq!(error_code(&v), -32603);
    assert_eq!(
        v["error"]["message"],
        "Too many subscriptions on this stream"
    );
    // The client cancels one: the slot is free again.
    h.send(
        STDIO,
        &notification("notifications/cancelled", json!({"requestId": 1})),
    );
    let outs = h.call(STDIO, json!(4), "subscriptions/listen", listen(4));
    assert!(json_of(&transmits(&outs)[0])["method"].is_string());
    // Two more on HTTP streams reach the total of 5; a sixth anywhere is refused.
    for stream in [10, 11] {
        let outs = h.call(http(stream), json!(1), "subscriptions/listen", listen(1));
        assert!(json_of(&transmits(&outs)[0])["method"].is_string());
    }
    let outs = h.call(http(12), json!(1), "subscriptions/listen", listen(1));
    let t = transmits(&outs);
    let v = json_of(&t[0]);
    assert_eq!((error_code(&v), t[0].http_status), (-32603, 200));
    assert_eq!(v["error"]["message"], "Too many subscriptions");
    assert_eq!(h.server.subscriptions(), 5);
    // A closed stream frees its slots.
    h.server.stream_closed(StreamId(10));
    let outs = h.call(http(13), json!(1), "subscriptions/listen", listen(1));
    assert!(json_of(&transmits(&outs)[0])["method"].is_string());
}

fn read(h: &mut H, ctx: Ctx, id: u64) -> Vec<Output> {
    h.call(
        ctx,
        json!(id),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    )
}

fn handle(outs: &[Output]) -> Handle {
    match events(outs).as_slice() {
        [Event::ReadResource(e)] => e.handle,
        other => panic!("expected one read event, got {other:?}"),
    }
}

#[test]
fn pending_requests_are_bounded_and_the_accepted_ones_stay_answerable() {
    let mut h = H::new(
        "limits-pending",
        server(ServerConfig {
            max_pending_per_stream: 2,
            max_pending: 3,
            ..ServerConfig::default()
        }),
    );
    let a = handle(&read(&mut h, STDIO, 1));
    let b = handle(&read(&mut h, STDIO, 2));
    let outs = read(&mut h, STDIO, 3);
    assert!(events(&outs).is_empty());
    let v = only(&outs);
    assert_eq!((error_code(&v), v["id"].as_u64()), (-32603, Some(3)));
    assert_eq!(
        v["error"]["message"],
        "Too many pending requests on this stream"
    );
    // Another stream still has room, up to the total.
    let c = handle(&read(&mut h, http(7), 1));
    let v = only(&read(&mut h, http(8), 1));
    assert_eq!(v["error"]["message"], "Too many pending requests");
    assert_eq!(h.server.pending_requests(), 3);
    // The accepted ones are all answerable; answering frees a slot.
    for hd in [a, b, c] {
        let text = OwnedResourceContents::text("notes://acme/1", None, "x");
        h.server.respond_read(hd, vec![text]).unwrap();
    }
    assert_eq!(transmits(&h.drain()).len(), 3);
    handle(&read(&mut h, STDIO, 4));
}

#[test]
fn zero_limits_are_refused() {
    for config in [
        ServerConfig {
            max_listens: 0,
            ..ServerConfig::default()
        },
        ServerConfig {
            max_pending_per_stream: 0,
            ..ServerConfig::default()
        },
    ] {
        assert_eq!(Server::new(config).err(), Some(ConfigError::ZeroCapacity));
    }
    let d = ServerConfig::default();
    assert_eq!(
        (
            d.max_listens_per_stream,
            d.max_listens,
            d.max_pending_per_stream,
            d.max_pending
        ),
        (64, 10_000, 1_024, 10_000)
    );
}
