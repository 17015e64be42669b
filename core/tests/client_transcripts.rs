//! Transcript tests of the client machine against a scripted fake server: every method's
//! request shape and typed result, errors, pagination, unknown ids, garbage, timeouts.

mod client_harness;

use client_harness::{Pair, full_capabilities};
use mcp_context::cache::ListKind;
use mcp_context::client::{CachePolicy, CallError, CompletionRef, Event, ListMode, Notice};
use mcp_context::messages::CacheScope;
use mcp_context::messages::Role;
use mcp_context::messages::owned::{
    OwnedCompleteResult, OwnedContentBlock, OwnedGetPromptResult, OwnedListPromptsResult,
    OwnedListResourceTemplatesResult, OwnedListResourcesResult, OwnedPrompt, OwnedPromptMessage,
    OwnedResource, OwnedResourceTemplate,
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
    // Every modern request carries the required `_meta` keys (docs/rules.md §1.1).
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
        "\"\" is a cursor (docs/rules.md §3)"
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

    // input_required on a method that does not allow it (docs/rules.md §13).
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
