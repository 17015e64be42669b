//! The server machine's per-request cost: bytes in, bytes out, everything the machine does
//! in between (decode, `_meta` validation, routing, the application's answer, encode).
//!
//! Group `server read`, the cost-per-read target (issue 13 item 7: at most 2× the floor):
//! * `mcp-context read_event`: `resources/read` answered by the application through an event
//!   (`handle_message` → `Event::ReadResource` → `respond_read` → transmit);
//! * `mcp-context read_static`: `resources/read` of a resource whose contents the machine
//!   stores;
//! * `serde_json decode+encode`, the floor: serde_json decoding the same request into owned
//!   structs and encoding the same result (the same bytes, checked before timing), with no
//!   validation, routing or queueing at all.
//!
//! Group `server`: `list_page` (one `resources/list` page of 50 of 200 resources) and
//! `discover` (`server/discover`, encoded once and reused).
//!
//! After criterion, the same three are run interleaved in short bursts, keeping each one's
//! fastest burst (robust to a busy machine, as `expand_quiet`), and the ratio to the floor is
//! printed.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context::server::{Ctx, Event, Output, ResourceEntry, Server, ServerConfig, StreamId};
use serde::{Deserialize, Serialize};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}"#;

/// What the application answers a read event with.
const EVENT_TEXT: &str = "# two\n\nAnother note.";

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
                let c = OwnedResourceContents::text(e.uri, Some("text/markdown"), EVENT_TEXT);
                let _ = s.respond_read(e.handle, vec![c]);
            }
            Output::Event(_) => {}
        }
    }
    written
}

/// The floor: what any server does for this read with serde_json and owned structs.
mod floor {
    use super::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    pub(crate) enum Id {
        Int(i64),
        Str(String),
    }

    #[derive(Deserialize)]
    pub(crate) struct Request {
        #[allow(dead_code)]
        pub(crate) jsonrpc: String,
        pub(crate) id: Id,
        #[allow(dead_code)]
        pub(crate) method: String,
        pub(crate) params: ReadParams,
    }

    #[derive(Serialize, Deserialize)]
    pub(crate) struct Implementation {
        pub(crate) name: String,
        pub(crate) version: String,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    pub(crate) struct RequestMeta {
        #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
        pub(crate) protocol_version: String,
        #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
        pub(crate) client_capabilities: serde_json::Map<String, serde_json::Value>,
        #[serde(rename = "io.modelcontextprotocol/clientInfo")]
        pub(crate) client_info: Option<Implementation>,
    }

    #[derive(Deserialize)]
    pub(crate) struct ReadParams {
        #[serde(rename = "_meta")]
        #[allow(dead_code)]
        pub(crate) meta: RequestMeta,
        pub(crate) uri: String,
    }

    #[derive(Serialize)]
    pub(crate) struct Response {
        pub(crate) jsonrpc: &'static str,
        pub(crate) id: Id,
        pub(crate) result: ReadResult,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Contents {
        pub(crate) uri: String,
        pub(crate) mime_type: String,
        pub(crate) text: String,
    }

    #[derive(Serialize)]
    pub(crate) struct ResultMeta {
        #[serde(rename = "io.modelcontextprotocol/serverInfo")]
        pub(crate) server_info: Implementation,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct ReadResult {
        pub(crate) result_type: &'static str,
        pub(crate) contents: Vec<Contents>,
        pub(crate) ttl_ms: u64,
        pub(crate) cache_scope: &'static str,
        #[serde(rename = "_meta")]
        pub(crate) meta: ResultMeta,
    }

    /// Decodes the request, builds the application's result, encodes the response.
    pub(crate) fn round_trip(msg: &[u8]) -> Vec<u8> {
        let Ok(req) = serde_json::from_slice::<Request>(msg) else {
            return Vec::new();
        };
        let response = Response {
            jsonrpc: "2.0",
            id: req.id,
            result: ReadResult {
                result_type: "complete",
                contents: vec![Contents {
                    uri: req.params.uri,
                    mime_type: "text/markdown".into(),
                    text: super::EVENT_TEXT.into(),
                }],
                ttl_ms: 0,
                cache_scope: "private",
                meta: ResultMeta {
                    server_info: Implementation {
                        name: "mcp-context".into(),
                        version: env!("CARGO_PKG_VERSION").into(),
                    },
                },
            },
        };
        serde_json::to_vec(&response).unwrap_or_default()
    }
}

/// The machine's transmitted bytes for one request (answering read events).
fn machine_bytes(s: &mut Server, msg: &[u8], ctx: Ctx) -> Vec<u8> {
    s.handle_message(msg, 1, ctx);
    let mut bytes = Vec::new();
    while let Some(out) = s.poll_output() {
        match out {
            Output::Transmit(t) => bytes = t.bytes,
            Output::Event(Event::ReadResource(e)) => {
                let c = OwnedResourceContents::text(e.uri, Some("text/markdown"), EVENT_TEXT);
                let _ = s.respond_read(e.handle, vec![c]);
            }
            Output::Event(_) => {}
        }
    }
    bytes
}

fn bench(c: &mut Criterion) {
    let ctx = Ctx::stdio(StreamId(0));
    let mut s = server();
    let read_static = request("resources/read", r#","uri":"notes://acme/001""#);
    let read_event = request("resources/read", r#","uri":"notes://acme/002""#);
    let list = request("resources/list", "");
    let discover = request("server/discover", "");
    check_same_answer(&mut s, &read_event, ctx);
    let mut g = c.benchmark_group("server read");
    g.bench_function("mcp-context read_event", |b| {
        b.iter(|| round_trip(&mut s, black_box(&read_event), ctx))
    });
    g.bench_function("mcp-context read_static", |b| {
        b.iter(|| round_trip(&mut s, black_box(&read_static), ctx))
    });
    g.bench_function("serde_json decode+encode", |b| {
        b.iter(|| floor::round_trip(black_box(&read_event)).len())
    });
    g.finish();
    let mut g = c.benchmark_group("server");
    g.bench_function("list_page", |b| {
        b.iter(|| round_trip(&mut s, black_box(&list), ctx))
    });
    g.bench_function("discover", |b| {
        b.iter(|| round_trip(&mut s, black_box(&discover), ctx))
    });
    g.finish();
}

/// The floor and the machine answer the read with the same JSON (and both succeed).
fn check_same_answer(s: &mut Server, msg: &[u8], ctx: Ctx) {
    let ours: serde_json::Value =
        serde_json::from_slice(&machine_bytes(s, msg, ctx)).expect("the machine answers JSON");
    let floor: serde_json::Value =
        serde_json::from_slice(&floor::round_trip(msg)).expect("the floor answers JSON");
    assert_eq!(ours, floor, "the floor must produce the machine's answer");
    assert!(ours["result"]["contents"][0]["text"].is_string());
}

const BURST: u32 = 100;
const ROUNDS: u32 = 2000;

/// Interleaved bursts; each contender's fastest burst, per request.
fn quiet() {
    let ctx = Ctx::stdio(StreamId(0));
    let mut s = server();
    let read_event = request("resources/read", r#","uri":"notes://acme/002""#);
    let read_static = request("resources/read", r#","uri":"notes://acme/001""#);
    let names = [
        "mcp-context read_event",
        "mcp-context read_static",
        "serde_json decode+encode",
    ];
    let mut best = [f64::MAX; 3];
    for _ in 0..ROUNDS {
        for (k, slot) in best.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..BURST {
                black_box(match k {
                    0 => round_trip(&mut s, black_box(&read_event), ctx),
                    1 => round_trip(&mut s, black_box(&read_static), ctx),
                    _ => floor::round_trip(black_box(&read_event)).len(),
                });
            }
            let per = start.elapsed().as_secs_f64() * 1e9 / f64::from(BURST);
            *slot = slot.min(per);
        }
    }
    println!();
    println!("| group | function | fastest burst, per request | ours / serde_json floor |");
    println!("| --- | --- | --- | --- |");
    let floor = best[2];
    for (name, t) in names.iter().zip(best) {
        let ratio = if name.starts_with("mcp-context") {
            format!("{:.2}×", t / floor)
        } else {
            String::new()
        };
        println!("| server read | {name} | {t:.0} ns | {ratio} |");
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    quiet();
}
