//! Server machine: `notifications/progress` by handle (the public spec, "Progress";
//! docs/server-machine.md §Progress): only for a request that sent a `progressToken`, with
//! that token, increasing, on the request's own stream (SSE on HTTP, the final response
//! following as the last event), never after the final response.

mod common;
mod server_harness;

use mcp_context::messages::owned::{OwnedJson, OwnedResourceContents};
use mcp_context::server::{
    BodyKind, Event, Handle, InputRequired, Output, RespondError, ServerConfig,
};
use serde_json::{Value, json};
use server_harness::*;

fn read_params(uri: &str, token: Option<Value>) -> Value {
    let mut meta = meta_with(json!({}));
    if let Some(t) = token {
        meta["progressToken"] = t;
    }
    json!({"_meta": meta, "uri": uri})
}

fn read_event(outs: &[Output]) -> (Handle, bool) {
    match events(outs).as_slice() {
        [Event::ReadResource(e)] => (e.handle, e.progress),
        other => panic!("expected one read event, got {other:?}"),
    }
}

fn text(uri: &str) -> Vec<OwnedResourceContents> {
    vec![OwnedResourceContents::text(uri, Some("text/plain"), "done")]
}

const URI: &str = "notes://acme/index";

#[test]
fn progress_carries_the_requests_token_and_must_increase() {
    let mut h = H::new("progress-stdio", catalogue(ServerConfig::default()));
    let outs = h.call(
        STDIO,
        json!(1),
        "resources/read",
        read_params(URI, Some(json!("t-1"))),
    );
    let (hd, flagged) = read_event(&outs);
    assert!(flagged);
    assert_eq!(
        h.server.progress(hd, 1.0, Some(4.0), Some("reading")),
        Ok(true)
    );
    let v = only(&h.drain());
    assert_eq!(
        v,
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": "t-1", "progress": 1, "total": 4, "message": "reading"}})
    );
    assert_eq!(h.server.progress(hd, 2.5, None, None), Ok(true));
    let v = only(&h.drain());
    assert_eq!(
        v["params"],
        json!({"progressToken": "t-1", "progress": 2.5})
    );
    // Not increasing, or not a number JSON can carry: refused, nothing sent.
    for (p, t) in [
        (2.5, None),
        (1.0, None),
        (f64::NAN, None),
        (3.0, Some(f64::INFINITY)),
    ] {
        assert_eq!(
            h.server.progress(hd, p, t, None),
            Err(RespondError::InvalidProgress)
        );
    }
    assert!(h.drain().is_empty());
    h.server.respond_read(hd, text(URI)).unwrap();
    let v = only(&h.drain());
    assert_eq!(v["result"]["contents"][0]["text"], "done");
    // Never after the final response.
    assert_eq!(
        h.server.progress(hd, 9.0, None, None),
        Err(RespondError::UnknownHandle)
    );
    assert!(h.drain().is_empty());
}

#[test]
fn no_token_no_progress() {
    let mut h = H::new("progress-none", catalogue(ServerConfig::default()));
    let outs = h.call(STDIO, json!(1), "resources/read", read_params(URI, None));
    let (hd, flagged) = read_event(&outs);
    assert!(!flagged);
    assert_eq!(h.server.progress(hd, 1.0, None, None), Ok(false));
    assert!(!h.server.has_output());
}

#[test]
fn an_integer_token_stays_an_integer() {
    let mut h = H::new("progress-int", catalogue(ServerConfig::default()));
    let outs = h.call(
        STDIO,
        json!(1),
        "resources/read",
        read_params(URI, Some(json!(7))),
    );
    let (hd, _) = read_event(&outs);
    h.server.progress(hd, 0.5, None, None).unwrap();
    assert_eq!(only(&h.drain())["params"]["progressToken"], json!(7));
}

#[test]
fn on_http_progress_turns_the_response_into_an_sse_stream() {
    let mut h = H::new("progress-http", catalogue(ServerConfig::default()));
    // Without progress, the answer is one JSON body.
    let outs = h.call(
        http(1),
        json!(1),
        "resources/read",
        read_params(URI, Some(json!("a"))),
    );
    let (hd, _) = read_event(&outs);
    h.server.respond_read(hd, text(URI)).unwrap();
    let t = transmits(&h.drain());
    assert_eq!(
        (t.len(), t[0].kind, t[0].end_of_stream),
        (1, BodyKind::Json, true)
    );

    // With progress: SSE events on the POST's own stream, the result last, ending it.
    let outs = h.call(
        http(2),
        json!(2),
        "resources/read",
        read_params(URI, Some(json!("b"))),
    );
    let (hd, _) = read_event(&outs);
    h.server.progress(hd, 1.0, Some(2.0), None).unwrap();
    h.server.progress(hd, 2.0, Some(2.0), None).unwrap();
    h.server.respond_read(hd, text(URI)).unwrap();
    let t = transmits(&h.drain());
    assert_eq!(t.len(), 3);
    for (i, x) in t.iter().enumerate() {
        assert_eq!((x.stream.0, x.kind, x.http_status), (2, BodyKind::Sse, 200));
        assert_eq!(x.end_of_stream, i == 2);
    }
    assert_eq!(json_of(&t[2])["id"], 2);

    // A stream that became SSE keeps status 200 even for an error that would be 400.
    let outs = h.call(
        http(3),
        json!(3),
        "resources/read",
        read_params(URI, Some(json!("c"))),
    );
    let (hd, _) = read_event(&outs);
    h.server.progress(hd, 1.0, None, None).unwrap();
    let elicit = mcp_context::messages::owned::OwnedInputRequest {
        method: mcp_context::jsonrpc::Method::ElicitationCreate,
        params: Some(
            OwnedJson::parse(
                r#"{"message":"?","requestedSchema":{"type":"object","properties":{}}}"#,
            )
            .unwrap(),
        ),
    };
    let r = h.server.respond_input_required(
        hd,
        InputRequired {
            requests: vec![("k".into(), elicit)],
            state: None,
        },
    );
    assert_eq!(r, Err(RespondError::ClientLacksCapability));
    let t = transmits(&h.drain());
    assert_eq!(error_code(&json_of(&t[1])), -32021);
    assert_eq!(
        (t[1].kind, t[1].http_status, t[1].end_of_stream),
        (BodyKind::Sse, 200, true)
    );

    // The next request on a new stream starts as JSON again.
    let outs = h.call(
        http(4),
        json!(4),
        "resources/read",
        read_params(URI, Some(json!("d"))),
    );
    let (hd, _) = read_event(&outs);
    h.server.respond_read(hd, text(URI)).unwrap();
    assert_eq!(transmits(&h.drain())[0].kind, BodyKind::Json);
}

#[test]
fn cancelled_and_timed_out_requests_get_no_progress() {
    let mut h = H::new("progress-cancel", catalogue(ServerConfig::default()));
    let outs = h.call(
        STDIO,
        json!(1),
        "resources/read",
        read_params(URI, Some(json!("x"))),
    );
    let (hd, _) = read_event(&outs);
    h.send(
        STDIO,
        &notification("notifications/cancelled", json!({"requestId": 1})),
    );
    assert_eq!(
        h.server.progress(hd, 1.0, None, None),
        Err(RespondError::UnknownHandle)
    );
    let outs = h.call(
        STDIO,
        json!(2),
        "resources/read",
        read_params(URI, Some(json!("y"))),
    );
    let (hd, _) = read_event(&outs);
    h.server.handle_timeout(h.now + 30_000);
    h.drain();
    assert_eq!(
        h.server.progress(hd, 1.0, None, None),
        Err(RespondError::UnknownHandle)
    );
}

#[test]
fn registered_methods_and_prompts_report_progress_too() {
    let mut s = catalogue(ServerConfig::default());
    s.add_method("tools/call").unwrap();
    let mut h = H::new("progress-ext", s);
    let mut meta = meta_with(json!({}));
    meta["progressToken"] = json!("tool-1");
    let outs = h.call(
        STDIO,
        json!(1),
        "tools/call",
        json!({"_meta": meta, "name": "slow"}),
    );
    let e = match events(&outs).as_slice() {
        [Event::Request(e)] => e.clone(),
        other => panic!("{other:?}"),
    };
    assert!(e.progress);
    assert_eq!(
        h.server.progress(e.handle, 50.0, Some(100.0), Some("half")),
        Ok(true)
    );
    assert_eq!(only(&h.drain())["params"]["progressToken"], "tool-1");
    let result = OwnedJson::parse(r#"{"content":[{"type":"text","text":"ok"}]}"#).unwrap();
    h.server.respond_result(e.handle, result, None).unwrap();
    assert_eq!(only(&h.drain())["result"]["content"][0]["text"], "ok");

    let mut meta = meta_with(json!({}));
    meta["progressToken"] = json!(3);
    let p =
        json!({"_meta": meta, "name": "review_note", "arguments": {"project": "acme", "id": "1"}});
    let outs = h.call(STDIO, json!(2), "prompts/get", p);
    let (hd, flagged) = match events(&outs).as_slice() {
        [Event::GetPrompt(e)] => (e.handle, e.progress),
        other => panic!("{other:?}"),
    };
    assert!(flagged);
    assert_eq!(h.server.progress(hd, 1.0, None, None), Ok(true));
}
