//! Transcript tests of the client machine against a scripted fake server: every method's
//! request shape and typed result, errors, pagination, unknown ids, garbage, timeouts.

mod client_harness;

use client_harness::{Pair, full_capabilities};
use mcp_context::cache::ListKind;
use mcp_context::client::{
    CachePolicy, CallError, CompletionRef, Event, ListMode, Notice, PeerError, ServerError,
    Transport,
};
use mcp_context::error_code::ErrorCode;
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::CacheScope;
use mcp_context::messages::Role;
use mcp_context::messages::owned::{
    OwnedCompleteResult, OwnedContentBlock, OwnedGetPromptResult, OwnedListPromptsResult,
    OwnedListResourceTemplatesResult, OwnedListResourcesResult, OwnedPrompt, OwnedPromptMessage,
    OwnedReadResourceResult, OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use serde_json::json;

const REFRESH: CachePolicy = CachePolicy::Refresh;

fn page(uris: &[&str], next: Option<&str>) -> OwnedListResourcesResult {
    OwnedListResourcesResult {
        items: uris.iter().map(|u| OwnedResource::new(*u, *u)).collect(),
        next_cursor: next.map(String::from),
        ..OwnedListResourcesResult::new(60_000, CacheScope::Public)
    }
}

fn text(uri: &str, body: &str, ttl: u64, scope: CacheScope) -> OwnedReadResourceResult {
    OwnedReadResourceResult {
        contents: vec![OwnedResourceContents::text(uri, Some("text/plain"), body)],
        ..OwnedReadResourceResult::new(ttl, scope)
    }
}

#[test]
fn probe_carries_the_standard_meta_and_connects() {
    let mut p = Pair::new("probe", Pair::config());
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    assert_eq!(probe.method(), "server/discover");
    let meta = &probe.params()["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"],
        json!({})
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"],
        json!({"name": "harness-client", "version": "1.0.0"})
    );
    assert_eq!(
        probe.transmit.protocol_version.as_deref(),
        Some("2026-07-28")
    );
    p.answer(
        probe.id(),
        client_harness::discover_result(&["2026-07-28"], full_capabilities()),
    );
    let Event::Connected(session) = p.one_event() else {
        panic!()
    };
    assert_eq!(session.version, "2026-07-28");
    assert!(session.features.resources_subscribe && session.features.completions);
    assert!(!session.features.tools_list_changed);
    assert_eq!(
        p.client.session().map(|s| s.version.as_str()),
        Some("2026-07-28")
    );
}

#[test]
fn calls_before_connect_are_queued_then_sent_in_order() {
    let mut p = Pair::new("queue", Pair::config());
    let a = p.client.list_prompts(ListMode::Page(None), REFRESH, p.now);
    let b = p.client.read_resource("file:///x", REFRESH, p.now);
    p.drain();
    let probe = p.one_sent();
    p.answer(
        probe.id(),
        client_harness::discover_result(&["2026-07-28"], full_capabilities()),
    );
    let sent = p.take_sent();
    assert_eq!(
        sent.iter().map(|s| s.method()).collect::<Vec<_>>(),
        ["prompts/list", "resources/read"]
    );
    assert_ne!(a, b);
    // Every modern request carries the required `_meta` keys (DIGEST §1.1).
    for s in &sent {
        assert_eq!(
            s.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert!(s.params()["_meta"]["io.modelcontextprotocol/clientCapabilities"].is_object());
    }
}

#[test]
fn list_resources_page_mode_keeps_an_empty_cursor() {
    let mut p = Pair::modern("page");
    let call = p
        .client
        .list_resources(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    let req = p.one_sent();
    assert!(req.params().get("cursor").is_none());
    p.answer(req.id(), page(&["file:///a"], Some("")));
    let Event::ResourcesListed { call: c, listing } = p.one_event() else {
        panic!()
    };
    assert_eq!(c, call);
    assert_eq!(
        listing.next_cursor.as_deref(),
        Some(""),
        "\"\" is a cursor (DIGEST §3)"
    );
    assert!(!listing.truncated);
    let view = listing.pages[0].view().unwrap();
    assert_eq!(view.items.iter().next().unwrap().uri, "file:///a");
    // The host goes on with the empty cursor.
    p.client
        .list_resources(ListMode::Page(Some(String::new())), REFRESH, p.now);
    p.drain();
    assert_eq!(p.one_sent().params()["cursor"], "");
}

#[test]
fn aggregated_list_follows_cursors_until_absent() {
    let mut p = Pair::modern("aggregate");
    let call = p.client.list_resources(ListMode::All, REFRESH, p.now);
    p.drain();
    let first = p.one_sent();
    p.answer(first.id(), page(&["file:///1"], Some("")));
    let second = p.one_sent();
    assert_eq!(second.params()["cursor"], "");
    assert_ne!(second.id(), first.id());
    p.answer(second.id(), page(&["file:///2"], Some("c3")));
    let third = p.one_sent();
    assert_eq!(third.params()["cursor"], "c3");
    assert!(p.take_events().is_empty());
    p.answer(third.id(), page(&["file:///3"], None));
    let Event::ResourcesListed { call: c, listing } = p.one_event() else {
        panic!()
    };
    assert_eq!(c, call);
    let uris: Vec<String> = listing
        .pages
        .iter()
        .flat_map(|pg| {
            let v = pg.view().unwrap();
            v.items
                .iter()
                .map(|r| r.uri.to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(uris, ["file:///1", "file:///2", "file:///3"]);
    assert_eq!((listing.next_cursor, listing.truncated), (None, false));
}

#[test]
fn aggregated_list_stops_at_the_page_limit() {
    let mut config = Pair::config();
    config.max_pages = 3;
    let mut p = Pair::modern_with("pagelimit", config, full_capabilities());
    p.client.list_resources(ListMode::All, REFRESH, p.now);
    p.drain();
    for i in 0..3 {
        let req = p.one_sent();
        p.answer(req.id(), page(&["file:///loop"], Some(&format!("c{i}"))));
    }
    assert!(p.take_sent().is_empty(), "no fourth page");
    let Event::ResourcesListed { listing, .. } = p.one_event() else {
        panic!()
    };
    assert_eq!((listing.pages.len(), listing.truncated), (3, true));
    assert_eq!(listing.next_cursor.as_deref(), Some("c2"));
}

#[test]
fn templates_prompts_prompt_and_completion() {
    let mut p = Pair::modern("methods");
    let t = p
        .client
        .list_resource_templates(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    let req = p.one_sent();
    assert_eq!(req.method(), "resources/templates/list");
    p.answer(
        req.id(),
        OwnedListResourceTemplatesResult {
            items: vec![OwnedResourceTemplate::new("file:///{path}", "files")],
            ..OwnedListResourceTemplatesResult::new(0, CacheScope::Public)
        },
    );
    let Event::TemplatesListed { call, listing } = p.one_event() else {
        panic!()
    };
    assert_eq!(call, t);
    assert_eq!(
        listing.pages[0]
            .view()
            .unwrap()
            .items
            .iter()
            .next()
            .unwrap()
            .uri_template,
        "file:///{path}"
    );

    p.client.list_prompts(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer(
        req.id(),
        OwnedListPromptsResult {
            items: vec![OwnedPrompt {
                name: "review".into(),
                ..OwnedPrompt::default()
            }],
            ..OwnedListPromptsResult::new(0, CacheScope::Public)
        },
    );
    assert!(matches!(p.one_event(), Event::PromptsListed { .. }));

    let g = p
        .client
        .get_prompt("review", &[("code", "x = 1"), ("lang", "py")], p.now);
    p.drain();
    let req = p.one_sent();
    assert_eq!(req.params()["name"], "review");
    assert_eq!(
        req.params()["arguments"],
        json!({"code": "x = 1", "lang": "py"})
    );
    assert!(req.params().get("requestState").is_none());
    assert_eq!(req.transmit.name.as_deref(), Some("review"), "Mcp-Name");
    p.answer(
        req.id(),
        OwnedGetPromptResult {
            description: Some("Review".into()),
            messages: vec![OwnedPromptMessage {
                role: Role::User,
                content: OwnedContentBlock::Text {
                    text: "review x = 1".into(),
                    annotations: None,
                },
            }],
            server_info: None,
        },
    );
    let Event::PromptFetched { call, reply } = p.one_event() else {
        panic!()
    };
    assert_eq!(call, g);
    assert_eq!(reply.view().unwrap().messages.len(), 1);

    let c = p.client.complete(
        CompletionRef::Resource("file:///{path}".into()),
        ("path", "sr"),
        Some(&[("root", "/")]),
        p.now,
    );
    p.drain();
    let req = p.one_sent();
    assert_eq!(
        req.params()["ref"],
        json!({"type": "ref/resource", "uri": "file:///{path}"})
    );
    assert_eq!(
        req.params()["argument"],
        json!({"name": "path", "value": "sr"})
    );
    assert_eq!(req.params()["context"], json!({"arguments": {"root": "/"}}));
    p.answer(
        req.id(),
        OwnedCompleteResult::from_candidates(["src".to_string(), "srv".to_string()]),
    );
    let Event::Completed { call, reply } = p.one_event() else {
        panic!()
    };
    assert_eq!(call, c);
    assert_eq!(reply.view().unwrap().values.len(), 2);

    p.client.complete(
        CompletionRef::Prompt("review".into()),
        ("lang", ""),
        None,
        p.now,
    );
    p.drain();
    let req = p.one_sent();
    assert_eq!(
        req.params()["ref"],
        json!({"type": "ref/prompt", "name": "review"})
    );
    assert!(req.params().get("context").is_none());
}

#[test]
fn discover_call_and_read() {
    let mut p = Pair::modern("discover-call");
    let d = p.client.discover(REFRESH, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer(
        req.id(),
        client_harness::discover_result(&["2026-07-28"], full_capabilities()),
    );
    let Event::Discovered { call, reply } = p.one_event() else {
        panic!()
    };
    assert_eq!(call, d);
    assert_eq!(reply.view().unwrap().supported_versions.len(), 1);
    // A fresh discover result is served from the cache.
    let again = p.client.discover(CachePolicy::PreferCache, p.now + 10);
    p.drain();
    assert!(p.take_sent().is_empty());
    let Event::Discovered { call, reply } = p.one_event() else {
        panic!()
    };
    assert!(call == again && reply.from_cache());
}

#[test]
fn result_type_absent_is_complete_and_unknown_is_a_protocol_error() {
    let mut p = Pair::modern("resulttype");
    p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.answer_json(
        id,
        json!({"contents": [{"uri": "file:///a", "text": "legacy"}]}),
    );
    assert!(matches!(p.one_event(), Event::ResourceRead { .. }));

    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.answer_json(id, json!({"resultType": "tasks", "contents": []}));
    let Event::Failed {
        call: c,
        error: CallError::InvalidResult(_),
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!(c, call);

    // input_required on a method that does not allow it (DIGEST §13).
    p.client.list_prompts(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.answer_json(
        id,
        json!({"resultType": "input_required", "requestState": "x"}),
    );
    assert!(matches!(
        p.one_event(),
        Event::Failed {
            error: CallError::InvalidResult(_),
            ..
        }
    ));
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

#[test]
fn notifications_without_subscription_are_delivered_unclaimed() {
    let mut p = Pair::modern("unclaimed");
    p.feed_json(json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"}));
    assert_eq!(
        p.one_event(),
        Event::Notified {
            subscription: None,
            notice: Notice::PromptsListChanged
        }
    );
    p.feed_json(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}));
    assert!(p.take_events().is_empty());
}

#[test]
fn list_kind_methods_match_the_cache_vocabulary() {
    assert_eq!(
        ListKind::ResourceTemplates.method(),
        "resources/templates/list"
    );
}
