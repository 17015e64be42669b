//! Fuzz target: hostile server bytes into the client machine (`mcp_context::client::Client`).
//!
//! The client first makes a few calls of every kind (read, aggregated and paged lists, a
//! prompt, a completion, a subscription, `tools/list`, `tools/call`, a vendor method), so
//! requests with ids 1, 2, 3, … are outstanding once the probe is answered. The input is then
//! split at `\n`: each chunk is a message from the server, or, when it starts with `!`, a
//! control input (time passing, the transport closing, a request failing, the host cancelling,
//! answering input requests, a new call with a method and params taken from the bytes).
//! Beyond "never panics": every transmit is one line the crate's own decoder accepts, and
//! every HTTP header it asks for is a token name with a value safe on the wire.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_context::client::{
    CachePolicy, CallId, Client, ClientConfig, CompletionRef, Event, ListMode, Output, Transport,
};
use mcp_context::jsonrpc::Message;
use mcp_context::messages::owned::{OwnedJson, OwnedSubscriptionFilter};

fn client(http: bool) -> Client {
    let mut config = ClientConfig::new("fuzz", "1.0.0");
    config.transport = if http {
        Transport::Http
    } else {
        Transport::Stdio
    };
    config.request_timeout_ms = 40;
    config.probe_timeout_ms = 20;
    config.max_pages = 3;
    config.max_input_rounds = 2;
    config.capabilities =
        OwnedJson::parse(r#"{"elicitation":{"form":{}},"roots":{}}"#).expect("valid capabilities");
    Client::new(config).expect("valid config")
}

fn header_safe(name: &str, value: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_graphic() && b != b':')
        && value.bytes().all(|b| (0x20..=0x7E).contains(&b))
}

/// Drains the outputs, checking each transmit; returns the calls waiting for input.
fn drain(c: &mut Client, waiting: &mut Vec<(CallId, Vec<String>)>) {
    while let Some(out) = c.poll_output() {
        match out {
            Output::Transmit(t) => {
                assert!(!t.bytes.contains(&b'\n'), "embedded newline");
                Message::decode(&t.bytes).expect("every transmit decodes");
                for (name, value) in t.http_headers() {
                    assert!(header_safe(name, &value), "unsafe header {name}: {value:?}");
                }
            }
            Output::CloseStream { .. } => {}
            Output::Event(Event::InputRequired { call, requests, .. }) => {
                waiting.push((call, requests.into_iter().map(|(k, _)| k).collect()));
            }
            Output::Event(_) => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let http = data.first().is_some_and(|b| b & 1 == 1);
    let mut c = client(http);
    let mut now = 0u64;
    let mut calls = vec![
        c.read_resource("file:///a", CachePolicy::PreferCache, now),
        c.list_resources(ListMode::All, CachePolicy::PreferCache, now),
        c.list_prompts(
            ListMode::Page(Some(String::new())),
            CachePolicy::Refresh,
            now,
        ),
        c.get_prompt("p", &[("a", "b")], now),
        c.complete(
            CompletionRef::Resource("file:///{x}".into()),
            ("x", "a"),
            None,
            now,
        ),
        c.listen(
            OwnedSubscriptionFilter {
                resources_list_changed: Some(true),
                resource_subscriptions: Some(vec!["file:///a".into()]),
                ..Default::default()
            },
            now,
        ),
    ];
    for (method, params) in [
        ("tools/list", "{}"),
        (
            "tools/call",
            r#"{"name":"t","arguments":{"region":"é ","n":1,"b":true}}"#,
        ),
        ("acme/ping", r#"{"_meta":{"progressToken":1}}"#),
    ] {
        let params = OwnedJson::parse(params).expect("valid params");
        if let Ok(call) = c.request(method, params, now) {
            calls.push(call);
        }
    }
    let mut waiting = Vec::new();
    drain(&mut c, &mut waiting);
    for chunk in data.split(|&b| b == b'\n') {
        now += 3;
        match chunk.split_first() {
            Some((b'!', rest)) => {
                let arg = rest.get(1).copied().unwrap_or(0);
                match rest.first().copied().unwrap_or(0) % 8 {
                    0 => {
                        now += u64::from(arg);
                        c.handle_timeout(now);
                    }
                    1 => c.handle_close(now),
                    2 => c.handle_request_failed(i64::from(arg % 16), now),
                    3 => {
                        if let Some(call) = calls.get(usize::from(arg) % calls.len().max(1)) {
                            let _ = c.cancel(*call, Some("fuzz"), now);
                        }
                    }
                    4 => {
                        if let Some((call, keys)) = waiting.pop() {
                            let answer = OwnedJson::parse(r#"{"action":"accept","content":{}}"#)
                                .expect("valid answer");
                            let mut responses: Vec<(String, OwnedJson)> =
                                keys.into_iter().map(|k| (k, answer.clone())).collect();
                            if arg % 5 == 0 {
                                responses.pop();
                            }
                            let _ = c.respond_input(call, responses, now);
                        }
                    }
                    5 => {
                        // A host call with a method and params from the bytes.
                        let text = rest.get(2..).unwrap_or_default();
                        let split = text.iter().position(|&b| b == b' ').unwrap_or(text.len());
                        let method = core::str::from_utf8(&text[..split]).unwrap_or("x/y");
                        let params =
                            core::str::from_utf8(text.get(split + 1..).unwrap_or_default())
                                .ok()
                                .and_then(|p| OwnedJson::parse(p).ok())
                                .unwrap_or_else(OwnedJson::empty_object);
                        if let Ok(call) = c.request(method, params, now) {
                            calls.push(call);
                        }
                    }
                    6 => {
                        let uri = core::str::from_utf8(&rest[1..]).unwrap_or("file:///b");
                        calls.push(c.read_resource(uri, CachePolicy::PreferCache, now));
                    }
                    _ => {
                        let _ = c.read_cached("file:///a", now);
                        c.connect(now);
                    }
                }
            }
            _ => c.handle_message(chunk, now),
        }
        drain(&mut c, &mut waiting);
        let _ = (
            c.poll_timeout(),
            c.outstanding(),
            c.session(),
            c.has_output(),
        );
    }
});
