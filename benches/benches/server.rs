//! The server machine's per-request cost: bytes in, bytes out, everything the machine does
//! in between (decode, `_meta` validation, routing, the application's answer, encode).
//!
//! * `read_static`: `resources/read` of a resource whose contents the machine stores.
//! * `read_event`: `resources/read` answered by the application through an event
//!   (`handle_message` → `Event::ReadResource` → `respond_read` → transmit).
//! * `list_page`: one `resources/list` page of 50 of 200 resources.
//! * `discover`: `server/discover` (the result is encoded once and reused).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context::server::{Ctx, Event, Output, ResourceEntry, Server, ServerConfig, StreamId};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}"#;

fn request(method: &str, params: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":17,"method":"{method}","params":{{{META}{params}}}}}"#)
        .into_bytes()
}

fn server() -> Server {
    let mut s = Server::new(ServerConfig::default()).expect("config");
    for i in 0..200 {
        let uri = format!("notes://acme/{i:03}");
        let contents = (i == 1).then(|| {
            vec![OwnedResourceContents::text(
                &uri,
                Some("text/markdown"),
                "# one\n\nA short note body.",
            )]
        });
        s.add_resource(ResourceEntry {
            resource: OwnedResource::new(uri.as_str(), format!("note {i}")),
            contents,
            cache: None,
        })
        .expect("register");
    }
    s
}

/// Runs one request and returns the bytes written, answering read events.
fn round_trip(s: &mut Server, msg: &[u8], ctx: Ctx) -> usize {
    s.handle_message(msg, 1, ctx);
    let mut written = 0;
    while let Some(out) = s.poll_output() {
        match out {
            Output::Transmit(t) => written += t.bytes.len(),
            Output::Event(Event::ReadResource(e)) => {
                let c = OwnedResourceContents::text(
                    e.uri,
                    Some("text/markdown"),
                    "# two\n\nAnother note.",
                );
                let _ = s.respond_read(e.handle, vec![c]);
            }
            Output::Event(_) => {}
        }
    }
    written
}

fn bench(c: &mut Criterion) {
    let ctx = Ctx::stdio(StreamId(0));
    let mut s = server();
    let read_static = request("resources/read", r#","uri":"notes://acme/001""#);
    let read_event = request("resources/read", r#","uri":"notes://acme/002""#);
    let list = request("resources/list", "");
    let discover = request("server/discover", "");
    assert!(round_trip(&mut s, &read_static, ctx) > 0);
    let mut g = c.benchmark_group("server");
    g.bench_function("read_static", |b| {
        b.iter(|| round_trip(&mut s, black_box(&read_static), ctx))
    });
    g.bench_function("read_event", |b| {
        b.iter(|| round_trip(&mut s, black_box(&read_event), ctx))
    });
    g.bench_function("list_page", |b| {
        b.iter(|| round_trip(&mut s, black_box(&list), ctx))
    });
    g.bench_function("discover", |b| {
        b.iter(|| round_trip(&mut s, black_box(&discover), ctx))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
