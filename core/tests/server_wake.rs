//! The output-ready signal (docs/server-machine.md §Run loop): `set_waker` is woken each
//! time an output is queued while the queue was empty, from any call that queues, so a host
//! that answers an event after async work drains at once; nothing queued, no wake.

mod common;
mod server_harness;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Wake, Waker};

use mcp_context::client::{CachePolicy, Client, ClientConfig};
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context::server::{Event, Failure, Output, ResourceEntry, Server, ServerConfig, StreamId};
use serde_json::json;
use server_harness::*;

struct Counter(AtomicUsize);

impl Wake for Counter {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn counter() -> (Arc<Counter>, Waker) {
    let c = Arc::new(Counter(AtomicUsize::new(0)));
    (c.clone(), Waker::from(c))
}

fn wakes(c: &Counter) -> usize {
    c.0.load(Ordering::SeqCst)
}

fn server() -> Server {
    let mut s = Server::new(ServerConfig::default()).unwrap();
    s.add_resource(ResourceEntry {
        resource: OwnedResource::new("notes://acme/1", "note 1"),
        contents: None,
        cache: None,
    })
    .unwrap();
    s
}

fn read(id: u64) -> Vec<u8> {
    request(
        json!(id),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    )
}

fn drain(s: &mut Server) -> Vec<Output> {
    std::iter::from_fn(|| s.poll_output()).collect()
}

fn read_handle(outs: &[Output]) -> mcp_context::server::Handle {
    match events(outs).as_slice() {
        [Event::ReadResource(e)] => e.handle,
        other => panic!("expected one read event, got {other:?}"),
    }
}

#[test]
fn a_later_answer_wakes_once() {
    let (c, waker) = counter();
    let mut s = server();
    s.set_waker(waker);
    assert_eq!(
        wakes(&c),
        0,
        "installing a waker on an empty queue does not wake"
    );
    s.handle_message(&read(1), 1_000, STDIO);
    assert_eq!(wakes(&c), 1, "the event was queued on an empty queue");
    assert!(s.has_output());
    let h = read_handle(&drain(&mut s));
    assert!(!s.has_output());
    // The host does async work, then answers: exactly one wake, and the answer is there.
    let text = OwnedResourceContents::text("notes://acme/1", Some("text/plain"), "hi");
    s.respond_read(h, vec![text]).unwrap();
    assert_eq!(wakes(&c), 2);
    assert!(s.has_output());
    let outs = drain(&mut s);
    assert_eq!(only(&outs)["result"]["contents"][0]["text"], "hi");
    assert_eq!(wakes(&c), 2, "draining does not wake");
}

#[test]
fn no_wake_without_output_and_one_per_empty_to_non_empty() {
    let (c, waker) = counter();
    let mut s = server();
    s.set_waker(waker);
    // A notification the server ignores queues nothing: no wake.
    s.handle_message(
        &notification("notifications/cancelled", json!({"requestId": 99})),
        1_000,
        STDIO,
    );
    s.resource_updated("notes://acme/1"); // no subscription: nothing queued
    s.resources_list_changed();
    s.shutdown();
    s.handle_timeout(2_000);
    s.stream_closed(StreamId(5));
    assert_eq!(wakes(&c), 0);
    assert!(!s.has_output());
    // Two inputs before a drain: the second queues onto a non-empty queue and does not wake.
    s.handle_message(&read(1), 1_000, STDIO);
    s.handle_message(&read(2), 1_000, STDIO);
    assert_eq!(wakes(&c), 1);
    let outs = drain(&mut s);
    let hs: Vec<_> = events(&outs)
        .into_iter()
        .filter_map(|e| match e {
            Event::ReadResource(e) => Some(e.handle),
            _ => None,
        })
        .collect();
    assert_eq!(hs.len(), 2);
    s.fail(hs[0], Failure::NotFound).unwrap();
    s.fail(hs[1], Failure::Internal).unwrap();
    assert_eq!(
        wakes(&c),
        2,
        "two answers, one empty-to-non-empty transition"
    );
    assert_eq!(transmits(&drain(&mut s)).len(), 2);
    // A refused answer queues nothing and does not wake.
    assert!(s.fail(hs[0], Failure::Internal).is_err());
    assert_eq!(wakes(&c), 2);
}

#[test]
fn every_queuing_call_wakes() {
    let (c, waker) = counter();
    let mut s = server();
    s.set_waker(waker);
    let listen = request(
        json!("l"),
        "subscriptions/listen",
        json!({"notifications": {"resourcesListChanged": true,
            "resourceSubscriptions": ["notes://acme/1"]}}),
    );
    s.handle_message(&listen, 1_000, STDIO);
    assert_eq!(wakes(&c), 1);
    drain(&mut s);
    s.resource_updated("notes://acme/1");
    assert_eq!(wakes(&c), 2);
    drain(&mut s);
    s.resources_list_changed();
    assert_eq!(wakes(&c), 3);
    drain(&mut s);
    // The deadline passes: the error and the cancellation event.
    s.handle_message(&read(1), 1_000, STDIO);
    assert_eq!(wakes(&c), 4);
    drain(&mut s);
    s.handle_timeout(1_000 + 30_000);
    assert_eq!(wakes(&c), 5);
    assert_eq!(transmits(&drain(&mut s)).len(), 1);
    // A closed stream: its pending event is cancelled.
    s.handle_message(&read(2), 40_000, STDIO);
    drain(&mut s);
    s.stream_closed(STDIO.stream);
    assert_eq!(wakes(&c), 7);
    assert!(matches!(
        events(&drain(&mut s)).as_slice(),
        [Event::Cancelled { .. }]
    ));
    // Shutdown closes the remaining subscriptions (on another stream).
    s.handle_message(&listen, 40_000, http(9));
    drain(&mut s);
    s.shutdown();
    assert_eq!(wakes(&c), 9);
    assert!(!drain(&mut s).is_empty());
}

#[test]
fn a_waker_installed_late_is_woken_for_waiting_output() {
    let (c, waker) = counter();
    let mut s = server();
    s.handle_message(&read(1), 1_000, STDIO);
    s.set_waker(waker);
    assert_eq!(wakes(&c), 1);
}

#[test]
fn the_client_wakes_too() {
    let (c, waker) = counter();
    let mut client = Client::new(ClientConfig::new("t", "1")).unwrap();
    client.set_waker(waker);
    assert!(!client.has_output());
    assert_eq!(wakes(&c), 0);
    let _ = client.read_resource("file:///a.txt", CachePolicy::PreferCache, 0);
    assert_eq!(wakes(&c), 1, "the discover probe was queued");
    assert!(client.has_output());
    while client.poll_output().is_some() {}
    assert!(!client.has_output());
    // The probe times out: the machine queues the failure and wakes.
    let deadline = client.poll_timeout().unwrap();
    client.handle_timeout(deadline);
    assert_eq!(wakes(&c), 2);
    assert!(client.has_output());
}
