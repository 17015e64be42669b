//! Listens by the thousand on one machine: the process-wide cap is the config's
//! (`ServerConfig::max_listens`, 10,000 by default, raised by `set_limit`), one update reaches
//! every listen that asked exactly once, the machine's memory per open listen stays small,
//! and closing them all is cheap (no table moves every entry on each removal).

use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context::server::{Ctx, Output, ResourceEntry, Server, ServerConfig, StreamId};

fn listen_bytes(id: u64) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"subscriptions/listen","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}},"notifications":{{"resourceSubscriptions":["bench://hot"]}}}}}}"#
    )
    .into_bytes()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn server(config: ServerConfig) -> Server {
    let mut s = Server::new(config).unwrap();
    s.add_resource(ResourceEntry {
        resource: OwnedResource::new("bench://hot", "hot"),
        contents: Some(vec![OwnedResourceContents::text(
            "bench://hot",
            None,
            "hot",
        )]),
        cache: None,
    })
    .unwrap();
    s
}

/// Opens listens on HTTP streams `1..=n` (one each, as one POST each); returns how many were
/// acknowledged and how many refused.
fn open(s: &mut Server, n: u64) -> (u64, u64) {
    let (mut acks, mut refused) = (0, 0);
    for i in 1..=n {
        s.handle_message(&listen_bytes(i), 1_000, Ctx::http(StreamId(i), 0));
        while let Some(out) = s.poll_output() {
            let Output::Transmit(t) = out else { continue };
            if contains(&t.bytes, b"notifications/subscriptions/acknowledged") {
                acks += 1;
            } else if contains(&t.bytes, b"Too many subscriptions") {
                refused += 1;
            } else {
                panic!("unexpected {}", String::from_utf8_lossy(&t.bytes));
            }
        }
    }
    (acks, refused)
}

#[test]
fn the_default_cap_is_ten_thousand_listens_per_process() {
    let mut s = server(ServerConfig::default());
    assert_eq!(ServerConfig::default().limit("max_listens"), Some(10_000));
    assert_eq!(open(&mut s, 10_050), (10_000, 50));
    assert_eq!(s.subscriptions(), 10_000);
}

/// `max_listens` raised to 12,000: 12,000 listens on 12,000 streams, one update, one
/// `notifications/resources/updated` on each stream carrying that stream's listen id; then
/// every stream closes and no subscription is left.
#[test]
fn a_raised_cap_admits_more_and_one_update_reaches_every_listen_once() {
    const N: u64 = 12_000;
    let mut config = ServerConfig::default();
    config.set_limit("max_listens", N).unwrap();
    let mut s = server(config);
    let info = allocation_counter::measure(|| {
        assert_eq!(open(&mut s, N + 1), (N, 1));
    });
    assert_eq!(s.subscriptions(), N as usize);
    // What the machine keeps per open listen (subscription, filter, caller, index): a few
    // hundred bytes, not kilobytes.
    let per_listen = info.bytes_current / N as i64;
    eprintln!("machine: {per_listen} bytes per open listen");
    assert!(per_listen <= 768, "{per_listen} bytes per listen");

    s.resource_updated("bench://hot");
    let mut seen = vec![0u32; N as usize + 1];
    while let Some(out) = s.poll_output() {
        let Output::Transmit(t) = out else { continue };
        assert!(
            contains(&t.bytes, b"notifications/resources/updated"),
            "{}",
            String::from_utf8_lossy(&t.bytes)
        );
        let i = t.stream.0;
        let id = format!(r#"/subscriptionId":{i}}}"#);
        assert!(
            contains(&t.bytes, id.as_bytes()),
            "stream {i}: {}",
            String::from_utf8_lossy(&t.bytes)
        );
        seen[i as usize] += 1;
    }
    assert!(
        seen[1..].iter().all(|&k| k == 1),
        "each listen gets it once"
    );

    // Closing them all, oldest first (the order that moved a sorted table's whole tail on
    // every removal).
    for i in 1..=N {
        s.stream_closed(StreamId(i));
    }
    while s.poll_output().is_some() {}
    assert_eq!(s.subscriptions(), 0);
}
