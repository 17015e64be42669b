//! Fuzz target: HTTP requests built from bytes through the server's HTTP entry point
//! (`Server::http_head`, `Server::handle_http`, then `poll_output`).
//!
//! The input is split at `\n` into requests. Each starts with 11 control bytes that pick the
//! request method, path and every header from a small vocabulary, from the fuzzer's own text,
//! or leave it absent; the text runs up to the first NUL, the body follows it. 2025-11-25
//! sessions are reachable: an `initialize` opens one, and later requests can name it (GET
//! and DELETE included). Beyond "never panics": a head refusal is repeated by `handle_http`
//! with the same status; every complete response is 202 (or a session's DELETE, 200) with no
//! body, or carries one JSON-RPC message the crate's decoder accepts; every transmit is one
//! such line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_context::http::{HeadCheck, HttpConfig, HttpStart, RequestHead};
use mcp_context::jsonrpc::Message;
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents, OwnedResourceTemplate};
use mcp_context::server::{
    Ctx, Event, Failure, Output, ResourceEntry, Server, ServerConfig, StreamId, TemplateEntry,
};

/// Control bytes per request: method, path, Host, Origin, Content-Type, Content-Length,
/// MCP-Protocol-Version, Mcp-Method, Mcp-Name, Accept, Mcp-Session-Id (and an action after).
const CTL: usize = 11;
const METHODS: &[&str] = &["POST", "GET", "DELETE", "PUT", "post", ""];
const PATHS: &[&str] = &["/mcp", "/mcp?x=1", "/", "/mcp/", "/MCP"];
const HOSTS: &[&str] = &[
    "localhost:3000",
    "127.0.0.1",
    "[::1]:1",
    "evil.example",
    "a:b:c",
];
const ORIGINS: &[&str] = &["http://localhost:5173", "null", "https://evil.example", "x"];
const TYPES: &[&str] = &[
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/json, text/plain",
    ";",
];
const ACCEPTS: &[&str] = &[
    "application/json, text/event-stream",
    "text/event-stream",
    "*/*;q=0",
    "text/html",
    "application/json;q=0.000",
];
const VERSIONS: &[&str] = &["2026-07-28", "2025-11-25", "v999.0.0", " 2026-07-28"];
const MCP_METHODS: &[&str] = &[
    "resources/read",
    "resources/list",
    "server/discover",
    "prompts/get",
    "subscriptions/listen",
    "initialize",
];
const NAMES: &[&str] = &["test://a", "=?base64?dGVzdDovL2E=?=", "=?base64?!?=", "p"];

fn server() -> Server {
    let config = ServerConfig {
        page_size: 2,
        stream_queue: 4,
        request_timeout_ms: 50,
        forward_unlisted_reads: true,
        http: HttpConfig {
            max_body: 512,
            ..HttpConfig::default()
        },
        ..ServerConfig::default()
    };
    let mut s = Server::new(config).expect("valid config");
    for uri in ["test://a", "test://b"] {
        let _ = s.add_resource(ResourceEntry {
            resource: OwnedResource::new(uri, uri),
            contents: (uri == "test://a")
                .then(|| vec![OwnedResourceContents::text(uri, None, "a")]),
            cache: None,
        });
    }
    let _ = s.add_template(TemplateEntry {
        template: OwnedResourceTemplate::new("notes://{p}/{id}", "note"),
        cache: None,
        completions: vec![],
    });
    s
}

/// `None`, the fuzzer's text, or a vocabulary entry, by `sel`.
fn pick<'a>(sel: u8, text: &'a str, vocab: &[&'a str]) -> Option<&'a str> {
    match sel % 4 {
        0 => None,
        1 => Some(text),
        _ => vocab.get(usize::from(sel / 4) % vocab.len()).copied(),
    }
}

fn check_message(bytes: &[u8]) {
    assert!(!bytes.contains(&b'\n'), "embedded newline");
    let msg = Message::decode(bytes).expect("every message the server writes decodes");
    assert!(
        !matches!(msg, Message::Request(_)),
        "the server sent a request"
    );
}

fn drain(s: &mut Server, answer: u8) {
    while let Some(out) = s.poll_output() {
        match out {
            Output::Transmit(t) => check_message(&t.bytes),
            Output::Event(Event::ReadResource(e)) => {
                let _ = if answer % 2 == 0 {
                    s.respond_read(
                        e.handle,
                        vec![OwnedResourceContents::text(&e.uri, None, "x")],
                    )
                } else {
                    s.fail(e.handle, Failure::NotFound)
                };
            }
            Output::Event(_) => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut s = server();
    let mut now = 0u64;
    let mut sid = String::new();
    for (i, chunk) in data.split(|&b| b == b'\n').enumerate() {
        now += 5;
        if chunk.len() < CTL {
            continue;
        }
        let (ctl, rest) = chunk.split_at(CTL);
        let (text, body) = match rest.iter().position(|&b| b == 0) {
            Some(p) => (&rest[..p], &rest[p + 1..]),
            None => (rest, &[][..]),
        };
        let text = core::str::from_utf8(text).unwrap_or("");
        let head = RequestHead {
            method: pick(ctl[0] | 2, text, METHODS).unwrap_or("POST"),
            path: pick(ctl[1] | 2, text, PATHS).unwrap_or("/mcp"),
            host: pick(ctl[2], text, HOSTS),
            origin: pick(ctl[3], text, ORIGINS),
            content_type: pick(ctl[4], text, TYPES),
            content_length: match ctl[5] % 3 {
                0 => None,
                1 => Some(body.len() as u64),
                _ => Some(u64::from(ctl[5]) << (ctl[5] % 40)),
            },
            protocol_version: pick(ctl[6], text, VERSIONS),
            mcp_method: pick(ctl[7], text, MCP_METHODS),
            mcp_name: pick(ctl[8], text, NAMES),
            accept: pick(ctl[9], text, ACCEPTS),
            // `Mcp-Session-Id`: absent, the fuzzer's text, `s`, or the last one issued.
            session_id: match ctl[10] % 4 {
                3 => Some(sid.as_str()),
                _ => pick(ctl[10], text, &["s"]),
            },
        };
        let refused = match s.http_head(&head) {
            HeadCheck::Respond(r) => Some(r.status),
            HeadCheck::ReadBody { .. } => None,
        };
        let stream = StreamId(i as u64);
        let mut issued = None;
        match s.handle_http(&head, body, now, Ctx::http(stream, u64::from(ctl[0] & 1))) {
            HttpStart::Respond(r) => {
                issued = r.header("Mcp-Session-Id").map(String::from);
                if let Some(status) = refused {
                    assert_eq!(r.status, status, "handle_http repeats the head refusal");
                }
                if r.body.is_empty() {
                    // 202 for notifications; 200 for a session's DELETE.
                    assert!(
                        r.status == 202 || (r.status == 200 && head.method == "DELETE"),
                        "an empty {} answer",
                        r.status
                    );
                } else {
                    assert_ne!(r.status, 202);
                    check_message(&r.body);
                }
            }
            HttpStart::Stream(id) => {
                assert!(refused.is_none(), "a refused head was served");
                assert_eq!(id, stream);
            }
            HttpStart::EventStream {
                stream: id,
                response,
            } => {
                assert!(refused.is_none(), "a refused head was served");
                assert_eq!((id, response.status), (stream, 200));
                assert!(response.body.is_empty());
            }
        }
        if let Some(id) = issued {
            sid = id;
        }
        drain(&mut s, ctl[0]);
        match ctl[10] / 4 % 8 {
            0 => s.stream_closed(stream),
            1 => s.handle_timeout(now + 100),
            _ => {}
        }
        drain(&mut s, ctl[1]);
    }
});
