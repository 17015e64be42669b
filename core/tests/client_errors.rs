//! Transcript tests of what goes wrong: typed server errors, unknown ids, garbage input,
//! server requests, timeouts and cancellation.

mod client_harness;

use client_harness::{Pair, full_capabilities};
use mcp_context::client::{CachePolicy, CallError, Event, PeerError, ServerError, Transport};
use mcp_context::error_code::ErrorCode;
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::CacheScope;
use mcp_context::messages::owned::{OwnedReadResourceResult, OwnedResourceContents};
use serde_json::json;

const REFRESH: CachePolicy = CachePolicy::Refresh;

fn text(uri: &str, body: &str, ttl: u64, scope: CacheScope) -> OwnedReadResourceResult {
    OwnedReadResourceResult {
        contents: vec![OwnedResourceContents::text(uri, Some("text/plain"), body)],
        ..OwnedReadResourceResult::new(ttl, scope)
    }
}

#[test]
fn errors_are_typed() {
    let mut p = Pair::modern("errors");
    let fail = |p: &mut Pair, code: i64, data: Option<serde_json::Value>| {
        p.client.read_resource("file:///missing", REFRESH, p.now);
        p.drain();
        let id = p.one_sent().id();
        p.error(id, code, "nope", data);
        match p.one_event() {
            Event::Failed {
                error: CallError::Server(e),
                ..
            } => e,
            other => panic!("{other:?}"),
        }
    };
    let e = fail(&mut p, -32602, Some(json!({"uri": "file:///missing"})));
    assert_eq!(
        e,
        ServerError::ResourceNotFound {
            uri: Some("file:///missing".into()),
            message: "nope".into()
        }
    );
    let e = fail(&mut p, -32002, None);
    assert_eq!(
        e,
        ServerError::ResourceNotFound {
            uri: None,
            message: "nope".into()
        }
    );
    let e = fail(&mut p, -32002, Some(json!({"uri": "file:///missing"})));
    assert!(matches!(
        e,
        ServerError::ResourceNotFound { uri: Some(_), .. }
    ));
    let e = fail(&mut p, -32602, None);
    assert_eq!(
        e,
        ServerError::InvalidParams {
            message: "nope".into()
        }
    );
    let e = fail(
        &mut p,
        -32021,
        Some(json!({"requiredCapabilities": {"elicitation": {}}})),
    );
    let ServerError::MissingRequiredClientCapability { required } = e else {
        panic!()
    };
    assert_eq!(format!("{required:?}"), r#"{"elicitation":{}}"#);
    let e = fail(&mut p, -32601, None);
    assert_eq!(e.code(), ErrorCode::METHOD_NOT_FOUND);
    let e = fail(&mut p, -32603, None);
    assert!(matches!(e, ServerError::Internal { .. }));
    let e = fail(&mut p, -31000, Some(json!([1])));
    assert!(matches!(
        e,
        ServerError::Other {
            code: ErrorCode(-31000),
            data: Some(_),
            ..
        }
    ));
    // -32022 whose version has nothing in common: a typed error, no retry.
    let e = fail(
        &mut p,
        -32022,
        Some(json!({"supported": ["1999-01-01"], "requested": "2026-07-28"})),
    );
    assert_eq!(
        e,
        ServerError::UnsupportedProtocolVersion {
            supported: vec!["1999-01-01".into()],
            requested: "2026-07-28".into()
        }
    );
}

#[test]
fn unknown_ids_are_events_and_ids_match_type_exactly() {
    let mut p = Pair::modern("unknown-ids");
    p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.feed_json(json!({"jsonrpc": "2.0", "id": 999, "result": {}}));
    assert_eq!(
        p.one_event(),
        Event::UnknownResponse {
            id: OwnedRequestId::Int(999)
        }
    );
    // The same number as a string is another id.
    p.feed_json(json!({"jsonrpc": "2.0", "id": id.to_string(), "result": {"contents": []}}));
    assert_eq!(
        p.one_event(),
        Event::UnknownResponse {
            id: OwnedRequestId::Str(id.to_string())
        }
    );
    p.feed(br#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}"#);
    assert!(matches!(
        p.one_event(),
        Event::UnknownResponse {
            id: OwnedRequestId::BigInt(_)
        }
    ));
    // The real answer still lands.
    p.answer(id, text("file:///a", "hi", 0, CacheScope::Public));
    assert!(matches!(p.one_event(), Event::ResourceRead { .. }));
    // An error without id.
    p.feed_json(
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse"}}),
    );
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::ErrorWithoutId(ErrorCode(-32700)))
    );
}

#[test]
fn garbage_is_reported_and_the_machine_keeps_working() {
    let mut p = Pair::modern("garbage");
    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    let deep = "[".repeat(10_000);
    let garbage: [&[u8]; 9] = [
        b"",
        b"not json",
        b"\xff\xfe",
        br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#,
        br#"{"id":1,"result":{}}"#,
        br#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
        deep.as_bytes(),
        br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{}}"#,
        br#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
    ];
    for g in garbage {
        p.feed(g);
        assert!(
            matches!(p.one_event(), Event::PeerError(_)),
            "{:?}",
            String::from_utf8_lossy(g)
        );
        assert!(p.take_sent().is_empty());
    }
    p.answer(id, text("file:///a", "hi", 0, CacheScope::Public));
    let Event::ResourceRead { call: c, .. } = p.one_event() else {
        panic!()
    };
    assert_eq!(c, call);
}

#[test]
fn a_modern_server_request_is_a_violation_and_gets_no_answer() {
    let mut p = Pair::modern("server-request");
    p.feed_json(json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}));
    assert_eq!(
        p.one_event(),
        Event::PeerError(PeerError::UnexpectedRequest)
    );
    assert!(p.take_sent().is_empty());
}

#[test]
fn timeouts_cancel_and_late_answers_are_ignored() {
    let mut p = Pair::modern("timeout");
    let call = p.client.read_resource("file:///slow", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    assert_eq!(p.client.poll_timeout(), Some(p.now + 30_000));
    p.advance(29_999);
    assert!(p.take_events().is_empty());
    p.advance(1);
    let Event::Failed {
        call: c,
        error: CallError::Timeout,
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!(c, call);
    let cancel = p.one_sent();
    assert_eq!(
        cancel.json,
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "timeout"}})
    );
    p.answer(id, text("file:///slow", "late", 0, CacheScope::Public));
    assert!(
        p.take_events().is_empty(),
        "late answer to a cancelled request is ignored"
    );
    assert_eq!(p.client.poll_timeout(), None);
}

#[test]
fn cancel_on_http_closes_the_stream() {
    let mut config = Pair::config();
    config.transport = Transport::Http;
    let mut p = Pair::modern_with("http-cancel", config, full_capabilities());
    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.client.cancel(call, None, p.now).unwrap();
    p.drain();
    assert!(p.take_sent().is_empty());
    assert_eq!(p.closed_streams, [id]);
    assert!(p.client.cancel(call, None, p.now).is_err());
}
