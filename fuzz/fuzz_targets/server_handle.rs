//! Fuzz target: arbitrary bytes through the server machine (`mcp_context::server::Server`).
//!
//! The input is split at `\n` into messages. The first byte of each chunk picks the stream
//! and transport; chunks starting with `!` are control inputs instead (change notifications,
//! timeouts, stream closes, shutdown). Events are answered in several ways (contents,
//! prompt messages, completions, `input_required`, failures, results of registered methods,
//! host list pages, progress). Beyond "never panics", every transmitted message must be one
//! line that the crate's own decoder accepts. Small limits exercise the refusal paths.
//!
//! Wiring (fuzz/Cargo.toml, owned by the fuzz setup): a `[[bin]] name = "server_handle"`,
//! `path = "fuzz_targets/server_handle.rs"`, with dependencies `libfuzzer-sys` and
//! `mcp-context` (default features: `alloc`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_context::jsonrpc::{Message, Method};
use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedInputRequest, OwnedJson, OwnedPrompt, OwnedPromptArgument,
    OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    CacheHint, Ctx, Event, Failure, InputRequired, Output, PromptEntry, ResourceEntry, SealingKey,
    Server, ServerConfig, StreamId, TemplateEntry,
};

fn server() -> Server {
    let config = ServerConfig {
        page_size: 2,
        stream_queue: 4,
        request_timeout_ms: 50,
        completion_events: true,
        forward_unlisted_reads: true,
        dynamic_resources: true,
        max_listens_per_stream: 2,
        max_listens: 4,
        max_pending_per_stream: 3,
        max_pending: 5,
        state_keys: vec![SealingKey {
            id: 1,
            secret: vec![7; 32],
        }],
        ..ServerConfig::default()
    };
    let mut s = Server::new(config).expect("valid config");
    for uri in ["test://a", "test://b", "notes://x", "notes://x/1"] {
        let _ = s.add_resource(ResourceEntry {
            resource: OwnedResource::new(uri, uri),
            contents: (uri == "test://a")
                .then(|| vec![OwnedResourceContents::text(uri, None, "a")]),
            cache: Some(CacheHint::public(5)),
        });
    }
    let _ = s.add_template(TemplateEntry {
        template: OwnedResourceTemplate::new("notes://{p}/{id}", "note"),
        cache: None,
        completions: vec![("p".into(), vec!["x".into(), "y".into()])],
    });
    let _ = s.add_prompt(PromptEntry {
        prompt: OwnedPrompt {
            name: "p".into(),
            arguments: vec![OwnedPromptArgument {
                name: "a".into(),
                required: Some(true),
                ..Default::default()
            }],
            ..Default::default()
        },
        completions: vec![],
    });
    let _ = s.add_method("tools/call");
    let _ = s.add_method("acme/x");
    if let Ok(caps) = OwnedJson::parse(r#"{"listChanged":true}"#) {
        let _ = s.set_capability("tools", caps);
    }
    s
}

fn drain(s: &mut Server, answer: u8) {
    while let Some(out) = s.poll_output() {
        match out {
            Output::Transmit(t) => {
                assert!(!t.bytes.contains(&b'\n'), "embedded newline");
                let msg = Message::decode(&t.bytes).expect("every transmit decodes");
                assert!(
                    !matches!(msg, Message::Request(_)),
                    "the server sent a request"
                );
            }
            Output::Event(e) => {
                let roots = || InputRequired {
                    requests: vec![(
                        "r".into(),
                        OwnedInputRequest {
                            method: Method::RootsList,
                            params: None,
                        },
                    )],
                    state: Some(vec![answer]),
                };
                let _ = match (e, answer % 4) {
                    (Event::ReadResource(e), 0) => s.respond_read(
                        e.handle,
                        vec![OwnedResourceContents::blob(&e.uri, None, &[answer])],
                    ),
                    (Event::ReadResource(e), 1) => s.respond_input_required(e.handle, roots()),
                    (Event::GetPrompt(e), 0) => {
                        s.respond_prompt(e.handle, OwnedGetPromptResult::default())
                    }
                    (Event::GetPrompt(e), 1) => s.respond_input_required(e.handle, roots()),
                    (Event::Complete(e), _) => s.respond_completion(
                        e.handle,
                        (0..u32::from(answer)).map(|i| i.to_string()).collect(),
                    ),
                    (Event::ReadResource(e), 2) => s.fail(e.handle, Failure::NotFound),
                    (Event::GetPrompt(e), 2) => s.fail(e.handle, Failure::Internal),
                    (Event::ReadResource(e), _) => {
                        // Progress, then left for the timeout.
                        let p = f64::from(answer);
                        s.progress(e.handle, p, Some(p + 1.0), Some("reading"))
                            .map(|_| ())
                    }
                    (Event::Request(e), 0) => {
                        let result = if answer & 0x10 == 0 {
                            r#"{"content":[{"type":"text","text":"ok"}],"_meta":{"k":1}}"#
                        } else {
                            r#"{"resultType":"complete","value":[1,2]}"#
                        };
                        let cache = (answer & 0x20 != 0).then(|| CacheHint::private(1));
                        match OwnedJson::parse(result) {
                            Ok(r) => s.respond_result(e.handle, r, cache),
                            Err(_) => Ok(()),
                        }
                    }
                    (Event::Request(e), 1) => s.respond_input_required(e.handle, roots()),
                    (Event::Request(e), 2) => {
                        let _ = s.progress(e.handle, 1.0, None, None);
                        s.fail(e.handle, Failure::InvalidParams("bad arguments".into()))
                    }
                    (Event::ListResources(e), n) => {
                        let items = vec![
                            OwnedResource::new("h://1", "h1"),
                            OwnedResource::new("test://a", "duplicate of a registered one"),
                        ];
                        let next = (n != 0 && e.cursor.is_none()).then(|| "next".to_string());
                        s.respond_list(e.handle, items, next)
                    }
                    _ => Ok(()), // left for the timeout
                };
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut s = server();
    let mut now = 0u64;
    for chunk in data.split(|&b| b == b'\n') {
        now += 7;
        let Some((&first, rest)) = chunk.split_first() else {
            continue;
        };
        if first == b'!' {
            match rest.first().copied().unwrap_or(0) % 6 {
                0 => s.resource_updated(core::str::from_utf8(rest).unwrap_or("notes://x/1")),
                1 => s.resources_list_changed(),
                2 => s.prompts_list_changed(),
                3 => s.handle_timeout(now + u64::from(rest.len() as u8)),
                4 => s.stream_closed(StreamId(u64::from(rest.len() as u8 % 3))),
                _ => s.shutdown(),
            }
        } else {
            let stream = StreamId(u64::from(first % 3));
            let ctx = if first % 2 == 0 {
                Ctx::stdio(stream)
            } else {
                Ctx::http(stream, u64::from(first))
            };
            let _ = s.handle_message(rest, now, ctx);
        }
        drain(&mut s, first);
    }
});
