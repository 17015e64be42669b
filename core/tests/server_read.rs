//! Server machine: `resources/read` (docs/rules.md §7; checklist §16.5) and the event lifecycle
//! (answers, failures, deadlines, cancellation).

mod common;
mod server_harness;

use mcp_context::messages::owned::{OwnedGetPromptResult, OwnedResourceContents};
use mcp_context::server::{
    CacheHint, CancelReason, Event, Failure, ReadEvent, ReadTarget, RespondError, ServerConfig,
    StreamId,
};
use serde_json::json;
use server_harness::*;

fn cat(tag: &str) -> H {
    H::new(tag, catalogue(ServerConfig::default()))
}

fn read_event(outs: &[mcp_context::server::Output]) -> ReadEvent {
    match events(outs).as_slice() {
        [Event::ReadResource(e)] => e.clone(),
        other => panic!("expected one read event, got {other:?}"),
    }
}

#[test]
fn static_text_is_answered_by_the_machine_with_its_hints() {
    let mut h = cat("read-static");
    let v = h.ask("resources/read", json!({"uri": "test://static-text"}));
    let r = &v["result"];
    assert_eq!(
        r["contents"],
        json!([{"uri": "test://static-text", "mimeType": "text/plain", "text": "hello"}])
    );
    assert_eq!(
        (r["ttlMs"].clone(), r["cacheScope"].clone()),
        (json!(60_000), json!("public"))
    );
}

#[test]
fn rule_33_binary_contents_are_base64() {
    let mut h = cat("read-blob");
    let v = h.ask("resources/read", json!({"uri": "test://static-binary"}));
    let c = &v["result"]["contents"][0];
    assert_eq!(c["blob"], "AAEC+v8=");
    assert!(c.get("text").is_none());
    // Default read hints: 0 ms, private.
    assert_eq!(
        (
            v["result"]["ttlMs"].clone(),
            v["result"]["cacheScope"].clone()
        ),
        (json!(0), json!("private"))
    );
}

#[test]
fn a_resource_without_contents_asks_the_application() {
    let mut h = cat("read-ask");
    let outs = h.call(
        STDIO,
        json!("r1"),
        "resources/read",
        json!({"uri": "notes://acme/index"}),
    );
    assert!(
        transmits(&outs).is_empty(),
        "nothing is sent before the application answers"
    );
    let e = read_event(&outs);
    assert_eq!(
        (e.uri.as_str(), &e.target, e.auth, e.retry.is_none()),
        ("notes://acme/index", &ReadTarget::Resource, 0, true)
    );
    assert_eq!(h.server.pending_requests(), 1);
    let contents = vec![OwnedResourceContents::text(
        &e.uri,
        Some("text/markdown"),
        "# acme",
    )];
    h.server.respond_read(e.handle, contents).unwrap();
    let v = only(&h.drain());
    assert_eq!(v["id"], "r1");
    assert_eq!(v["result"]["contents"][0]["text"], "# acme");
    assert_eq!(h.server.pending_requests(), 0);
    assert_eq!(
        h.server.respond_read(e.handle, vec![]),
        Err(RespondError::UnknownHandle)
    );
}

#[test]
fn a_template_match_gives_the_template_and_decoded_variables() {
    let mut h = cat("read-template");
    let outs = h.call(
        STDIO,
        json!(2),
        "resources/read",
        json!({"uri": "notes://zeta/9"}),
    );
    let e = read_event(&outs);
    let ReadTarget::Template { id, variables } = &e.target else {
        panic!("{:?}", e.target)
    };
    assert_eq!(h.server.template(*id), Some(NOTE_TEMPLATE));
    assert_eq!(
        variables,
        &[
            ("project".to_string(), "zeta".to_string()),
            ("id".into(), "9".into())
        ]
    );
    h.server
        .respond_read(
            e.handle,
            vec![OwnedResourceContents::text("notes://zeta/9", None, "nine")],
        )
        .unwrap();
    let v = only(&h.drain());
    // The template's own hints.
    assert_eq!(
        (
            v["result"]["ttlMs"].clone(),
            v["result"]["cacheScope"].clone()
        ),
        (json!(5_000), json!("private"))
    );
}

#[test]
fn explicit_hints_from_the_application() {
    let mut h = cat("read-explicit");
    let e = read_event(&h.call(
        STDIO,
        json!(2),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    h.server
        .respond_read_cached(e.handle, vec![], CacheHint::public(42))
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(
        v["result"]["contents"],
        json!([]),
        "an existing empty resource (docs/rules.md §19.1)"
    );
    assert_eq!(v["result"]["ttlMs"], 42);
}

#[test]
fn rule_30_not_found_is_32602_with_the_uri_never_empty_contents() {
    let mut h = cat("read-missing");
    for uri in [
        "test://nonexistent-resource-for-conformance-testing",
        "notes://acme/3",
        "notes://acme",
    ] {
        let v = h.ask("resources/read", json!({"uri": uri}));
        assert_eq!(error_code(&v), -32602, "{uri}");
        assert_eq!(v["error"]["data"]["uri"], uri);
        assert!(v.get("result").is_none());
    }
    // The application can say not found too.
    let e = read_event(&h.call(
        STDIO,
        json!(9),
        "resources/read",
        json!({"uri": "notes://acme/2"}),
    ));
    h.server.fail(e.handle, Failure::NotFound).unwrap();
    let v = only(&h.drain());
    assert_eq!(
        (error_code(&v), v["error"]["data"]["uri"].clone()),
        (-32602, json!("notes://acme/2"))
    );
}

#[test]
fn rule_32_rule_34_invalid_uris_are_refused() {
    let mut h = cat("read-invalid");
    for uri in ["", "no-scheme", "1x:y", "a:b c", "a:%zz", "a:\u{7f}", "a:é"] {
        let v = h.ask("resources/read", json!({"uri": uri}));
        assert_eq!(error_code(&v), -32602, "{uri:?}");
        assert_eq!(v["error"]["message"], "Invalid resource URI");
    }
}

#[test]
fn forwarding_unlisted_reads() {
    let config = ServerConfig {
        forward_unlisted_reads: true,
        ..ServerConfig::default()
    };
    let mut h = H::new("read-forward", catalogue(config));
    let e = read_event(&h.call(
        STDIO,
        json!(1),
        "resources/read",
        json!({"uri": "file:///srv/x.txt"}),
    ));
    assert_eq!(e.target, ReadTarget::Unlisted);
    h.server.fail(e.handle, Failure::NotFound).unwrap();
    assert_eq!(error_code(&only(&h.drain())), -32602);
}

#[test]
fn rule_31_internal_and_application_errors() {
    let mut h = cat("read-internal");
    let e = read_event(&h.call(
        STDIO,
        json!(1),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    h.server.fail(e.handle, Failure::Internal).unwrap();
    assert_eq!(error_code(&only(&h.drain())), -32603);
    let e = read_event(&h.call(
        STDIO,
        json!(2),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    h.server
        .fail(
            e.handle,
            Failure::Application {
                code: 1234,
                message: "Quota exceeded".into(),
            },
        )
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(
        (error_code(&v), v["error"]["message"].clone()),
        (1234, json!("Quota exceeded"))
    );
    // Reserved codes are not the application's to use.
    let e = read_event(&h.call(
        STDIO,
        json!(3),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    h.server
        .fail(
            e.handle,
            Failure::Application {
                code: -32050,
                message: "x".into(),
            },
        )
        .unwrap();
    assert_eq!(error_code(&only(&h.drain())), -32603);
    let e = read_event(&h.call(
        STDIO,
        json!(4),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    h.server
        .fail(e.handle, Failure::InvalidParams("Bad revision".into()))
        .unwrap();
    assert_eq!(only(&h.drain())["error"]["message"], "Bad revision");
}

#[test]
fn a_refused_answer_fails_the_request_with_32603() {
    let mut h = cat("read-wrong");
    let read = |h: &mut H, id: u32| {
        let outs = h.call(
            STDIO,
            json!(id),
            "resources/read",
            json!({"uri": "notes://acme/1"}),
        );
        read_event(&outs).handle
    };
    // The wrong kind of answer: refused, and the request ends with -32603 at once rather
    // than waiting for the timeout (docs/rules.md §20.4 rule 5).
    let e = read(&mut h, 1);
    let r = h.server.respond_prompt(e, OwnedGetPromptResult::default());
    assert_eq!(r, Err(RespondError::WrongKind));
    assert!(!r.unwrap_err().is_late());
    assert_eq!(h.server.pending_requests(), 0);
    let v = only(&h.drain());
    assert_eq!((error_code(&v), &v["id"]), (-32603, &json!(1)));
    // Once answered, every answer is late: nothing more is sent (§20.4 rule 6).
    let again = h.server.respond_read(e, vec![]).unwrap_err();
    assert_eq!(again, RespondError::UnknownHandle);
    assert!(again.is_late());
    assert!(h.drain().is_empty());
    let e = read(&mut h, 2);
    assert_eq!(
        h.server.respond_completion(e, vec![]),
        Err(RespondError::WrongKind)
    );
    assert_eq!(error_code(&only(&h.drain())), -32603);
    // A fitting answer goes out as given.
    let e = read(&mut h, 3);
    h.server.respond_read(e, vec![]).unwrap();
    assert_eq!(only(&h.drain())["result"]["resultType"], "complete");
}

#[test]
fn unanswered_events_time_out_with_32603() {
    let config = ServerConfig {
        request_timeout_ms: 500,
        ..ServerConfig::default()
    };
    let mut h = H::new("read-timeout", catalogue(config));
    assert_eq!(h.server.poll_timeout(), None);
    let e1 = read_event(&h.call(
        http(1),
        json!(1),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    h.now += 100;
    let e2 = read_event(&h.call(
        http(2),
        json!(2),
        "resources/read",
        json!({"uri": "notes://acme/2"}),
    ));
    assert_eq!(h.server.poll_timeout(), Some(1_500));
    h.server.handle_timeout(1_499);
    assert!(h.drain().is_empty());
    h.server.handle_timeout(1_500);
    let outs = h.drain();
    let t = transmits(&outs);
    assert_eq!(
        (t.len(), t[0].stream, error_code(&json_of(&t[0]))),
        (1, StreamId(1), -32603)
    );
    assert_eq!(
        events(&outs),
        [Event::Cancelled {
            handle: e1.handle,
            reason: CancelReason::TimedOut
        }]
    );
    assert_eq!(h.server.poll_timeout(), Some(1_600));
    assert_eq!(
        h.server.respond_read(e1.handle, vec![]),
        Err(RespondError::UnknownHandle)
    );
    // A clock that goes backwards does not move deadlines.
    h.server.handle_timeout(10);
    assert!(h.drain().is_empty());
    h.server.respond_read(e2.handle, vec![]).unwrap();
    assert_eq!(only(&h.drain())["id"], 2);
    assert_eq!(h.server.poll_timeout(), None);
}

#[test]
fn rule_56_a_cancelled_request_gets_nothing_more() {
    let mut h = cat("read-cancel");
    let e = read_event(&h.call(
        STDIO,
        json!("r7"),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    // A cancellation for another id or on another stream changes nothing.
    h.send(
        STDIO,
        &notification("notifications/cancelled", json!({"requestId": 7})),
    );
    h.send(
        http(3),
        &notification("notifications/cancelled", json!({"requestId": "r7"})),
    );
    assert_eq!(h.server.pending_requests(), 1);
    let outs = h.send(
        STDIO,
        &notification(
            "notifications/cancelled",
            json!({"requestId": "r7", "reason": "user"}),
        ),
    );
    assert_eq!(
        events(&outs),
        [Event::Cancelled {
            handle: e.handle,
            reason: CancelReason::Client
        }]
    );
    assert!(transmits(&outs).is_empty());
    assert_eq!(
        h.server.respond_read(e.handle, vec![]),
        Err(RespondError::UnknownHandle)
    );
    assert!(h.drain().is_empty());
}

#[test]
fn rule_65_a_closed_http_stream_cancels_its_request() {
    let mut h = cat("read-closed");
    let e = read_event(&h.call(
        http(11),
        json!(1),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    ));
    let _ = read_event(&h.call(
        http(12),
        json!(1),
        "resources/read",
        json!({"uri": "notes://acme/2"}),
    ));
    h.server.stream_closed(mcp_context::server::StreamId(11));
    let outs = h.drain();
    assert_eq!(
        events(&outs),
        [Event::Cancelled {
            handle: e.handle,
            reason: CancelReason::StreamClosed
        }]
    );
    assert_eq!(h.server.pending_requests(), 1);
    assert_eq!(
        h.server.fail(e.handle, Failure::Internal),
        Err(RespondError::UnknownHandle)
    );
}

#[test]
fn escaped_uris_are_decoded_before_lookup() {
    let mut h = cat("read-escaped");
    let bytes = br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"test:\/\/static-\u0074ext"}}"#;
    let v = only(&h.send(STDIO, bytes));
    assert_eq!(v["result"]["contents"][0]["text"], "hello");
}
