//! Version negotiation and the dual-era fallback (docs/rules.md §2, §17.2).

mod client_harness;

use client_harness::{Pair, discover_result, full_capabilities};
use mcp_context::client::{
    CachePolicy, CallError, ConnectError, Era, Event, ListMode, ServerError,
};
use mcp_context::error_code::ErrorCode;
use mcp_context::messages::owned::OwnedJson;
use serde_json::json;

const REFRESH: CachePolicy = CachePolicy::Refresh;

fn legacy_init_result(version: &str) -> serde_json::Value {
    json!({
        "protocolVersion": version,
        "capabilities": {"resources": {"subscribe": true, "listChanged": true},
                          "prompts": {"listChanged": true}, "completions": {}},
        "serverInfo": {"name": "old-server", "version": "1.0.0"}
    })
}

/// Probe → `error` → `initialize` → result → `notifications/initialized`.
fn legacy_pair(tag: &str, fail_probe: impl FnOnce(&mut Pair, i64)) -> Pair {
    let mut p = Pair::new(tag, Pair::config());
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    fail_probe(&mut p, probe.id());
    let init = p.one_sent();
    assert_eq!(init.method(), "initialize");
    assert_eq!(
        init.params(),
        &json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "harness-client", "version": "1.0.0"}})
    );
    assert!(init.transmit.protocol_version.is_none());
    p.answer_json(init.id(), legacy_init_result("2025-11-25"));
    let sent = p.take_sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].json,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    let Event::Connected(session) = p.one_event() else {
        panic!()
    };
    assert_eq!(
        (session.era, session.version.as_str()),
        (Era::Legacy, "2025-11-25")
    );
    assert!(session.features.resources_subscribe);
    p
}

#[test]
fn unsupported_version_on_the_probe_retries_with_the_best_common_version() {
    let mut config = Pair::config();
    config.versions = vec!["2027-01-01".into(), "2026-07-28".into()];
    let mut p = Pair::new("v-32022", config);
    let call = p.client.list_prompts(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    let probe = p.one_sent();
    assert_eq!(
        probe.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2027-01-01"
    );
    p.error(
        probe.id(),
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": ["2026-07-28", "2025-11-25"], "requested": "2027-01-01"})),
    );
    let again = p.one_sent();
    assert_eq!(again.method(), "server/discover");
    assert_ne!(again.id(), probe.id());
    assert_eq!(
        again.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    p.answer(
        again.id(),
        discover_result(&["2026-07-28"], full_capabilities()),
    );
    let Event::Connected(s) = p.one_event() else {
        panic!()
    };
    assert_eq!((s.era, s.version.as_str()), (Era::Modern, "2026-07-28"));
    let list = p.one_sent();
    assert_eq!(
        list.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        list.transmit.protocol_version.as_deref(),
        Some("2026-07-28")
    );
    p.answer_json(
        list.id(),
        json!({"resultType": "complete", "prompts": [], "ttlMs": 0, "cacheScope": "public"}),
    );
    assert!(matches!(p.one_event(), Event::PromptsListed { call: c, .. } if c == call));
}

#[test]
fn a_second_unsupported_version_fails_the_negotiation() {
    let mut config = Pair::config();
    config.versions = vec!["2027-01-01".into(), "2026-07-28".into()];
    config.legacy_versions = vec![];
    let mut p = Pair::new("v-twice", config);
    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let data = json!({"supported": ["2026-07-28"], "requested": "x"});
    let probe = p.one_sent();
    p.error(probe.id(), -32022, "no", Some(data.clone()));
    let again = p.one_sent();
    p.error(again.id(), -32022, "no", Some(data));
    let events = p.take_events();
    assert_eq!(
        events,
        [
            Event::ConnectFailed(ConnectError::NoCommonVersion),
            Event::Failed {
                call,
                error: CallError::NotConnected(ConnectError::NoCommonVersion)
            }
        ]
    );
    // The next call probes again.
    p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    assert_eq!(p.one_sent().method(), "server/discover");
}

#[test]
fn only_a_legacy_version_in_common_goes_to_initialize() {
    let p = legacy_pair("v-legacy-common", |p, id| {
        p.error(
            id,
            -32022,
            "Unsupported",
            Some(json!({"supported": ["2025-11-25"], "requested": "2026-07-28"})),
        );
    });
    drop(p);
}

#[test]
fn method_not_found_falls_back_to_initialize() {
    let mut p = legacy_pair("v-fallback", |p, id| {
        p.error(id, -32601, "Method not found", None)
    });
    // Requests of a legacy session carry no `_meta`; a first-page list has no params.
    p.client
        .list_resources(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    let list = p.one_sent();
    assert_eq!(
        list.json,
        json!({"jsonrpc": "2.0", "id": list.id(), "method": "resources/list"})
    );
    assert_eq!(
        list.transmit.protocol_version.as_deref(),
        Some("2025-11-25")
    );
    p.answer_json(
        list.id(),
        json!({"resources": [{"uri": "file:///a", "name": "a"}], "nextCursor": "abc"}),
    );
    let Event::ResourcesListed { listing, .. } = p.one_event() else {
        panic!()
    };
    assert_eq!(listing.next_cursor.as_deref(), Some("abc"));
    p.client
        .list_resources(ListMode::Page(Some("abc".into())), REFRESH, p.now);
    p.drain();
    assert_eq!(p.one_sent().params(), &json!({"cursor": "abc"}));

    p.client
        .read_resource("file:///a", CachePolicy::PreferCache, p.now);
    p.drain();
    let read = p.one_sent();
    assert_eq!(read.params(), &json!({"uri": "file:///a"}));
    p.error(
        read.id(),
        -32002,
        "Resource not found",
        Some(json!({"uri": "file:///a"})),
    );
    let Event::Failed {
        error: CallError::Server(ServerError::ResourceNotFound { uri, .. }),
        ..
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!(uri.as_deref(), Some("file:///a"));

    p.client.get_prompt("p", &[("a", "1")], p.now);
    p.drain();
    assert_eq!(
        p.one_sent().params(),
        &json!({"name": "p", "arguments": {"a": "1"}})
    );

    // server/discover does not exist in a legacy session.
    let d = p.client.discover(REFRESH, p.now);
    p.drain();
    assert_eq!(
        p.one_event(),
        Event::Failed {
            call: d,
            error: CallError::UnsupportedInEra
        }
    );
}

#[test]
fn silence_falls_back_to_initialize() {
    let p = legacy_pair("v-silence", |p, _| {
        p.advance(4_999);
        assert!(p.take_sent().is_empty());
        p.advance(1);
    });
    drop(p);
}

#[test]
fn invalid_params_on_the_probe_falls_back_too() {
    // "The fallback MUST NOT be keyed to one specific error code."
    let p = legacy_pair("v-32602", |p, id| {
        p.error(id, -32602, "Invalid params", None)
    });
    drop(p);
}

#[test]
fn legacy_unsupported_version_retries_initialize_once() {
    let mut config = Pair::config();
    config.legacy_versions = vec!["2025-11-25".into(), "2025-06-18".into()];
    let mut p = Pair::new("v-legacy-retry", config);
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    p.error(probe.id(), -32601, "Method not found", None);
    let init = p.one_sent();
    p.error(
        init.id(),
        -32602,
        "Unsupported protocol version",
        Some(json!({"supported": ["2025-06-18"], "requested": "2025-11-25"})),
    );
    let again = p.one_sent();
    assert_eq!(again.params()["protocolVersion"], "2025-06-18");
    p.answer_json(again.id(), legacy_init_result("2025-06-18"));
    assert_eq!(p.take_sent().len(), 1, "notifications/initialized");
    let Event::Connected(s) = p.one_event() else {
        panic!()
    };
    assert_eq!(s.version, "2025-06-18");
}

#[test]
fn a_legacy_answer_with_a_foreign_version_fails() {
    let mut p = Pair::new("v-foreign", Pair::config());
    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let probe = p.one_sent();
    p.error(probe.id(), -32601, "Method not found", None);
    let init = p.one_sent();
    p.answer_json(init.id(), legacy_init_result("2024-11-05"));
    assert!(p.take_sent().is_empty(), "no notifications/initialized");
    assert_eq!(
        p.take_events(),
        [
            Event::ConnectFailed(ConnectError::NoCommonVersion),
            Event::Failed {
                call,
                error: CallError::NotConnected(ConnectError::NoCommonVersion)
            }
        ]
    );
}

#[test]
fn modern_only_clients_do_not_fall_back() {
    let mut config = Pair::config();
    config.legacy_versions.clear();
    let mut p = Pair::new("v-modern-only", config);
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    p.error(probe.id(), -32601, "Method not found", None);
    assert!(p.take_sent().is_empty());
    assert_eq!(
        p.one_event(),
        Event::ConnectFailed(ConnectError::LegacyDisabled)
    );
}

#[test]
fn recognised_modern_errors_do_not_fall_back() {
    let mut p = Pair::new("v-32021", Pair::config());
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    p.error(
        probe.id(),
        -32021,
        "Missing",
        Some(json!({"requiredCapabilities": {"roots": {}}})),
    );
    assert!(p.take_sent().is_empty());
    assert_eq!(
        p.one_event(),
        Event::ConnectFailed(ConnectError::Rejected(ErrorCode(-32021)))
    );
}

#[test]
fn a_legacy_session_answers_ping_and_refuses_other_server_requests() {
    let mut p = legacy_pair("v-ping", |p, id| {
        p.error(id, -32601, "Method not found", None)
    });
    p.feed_json(json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"}));
    assert_eq!(
        p.one_sent().json,
        json!({"jsonrpc": "2.0", "id": "srv-1", "result": {}})
    );
    p.feed_json(
        json!({"jsonrpc": "2.0", "id": 9, "method": "sampling/createMessage", "params": {}}),
    );
    let refused = p.one_sent();
    assert_eq!(refused.json["error"]["code"], -32601);
    assert_eq!(refused.json["id"], 9);
    assert!(p.take_events().is_empty());
}

#[test]
fn a_modern_session_retries_a_call_once_on_unsupported_version() {
    let mut config = Pair::config();
    config.versions = vec!["2026-07-28".into(), "2026-01-01".into()];
    config.capabilities = OwnedJson::parse("{}").unwrap();
    let mut p = Pair::modern_with("v-call-retry", config, full_capabilities());
    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let first = p.one_sent();
    p.error(
        first.id(),
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": ["2026-01-01"], "requested": "2026-07-28"})),
    );
    let retry = p.one_sent();
    assert_ne!(retry.id(), first.id());
    assert_eq!(
        retry.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-01-01"
    );
    assert_eq!(p.client.session().unwrap().version, "2026-01-01");
    p.error(
        retry.id(),
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": ["2026-07-28"], "requested": "2026-01-01"})),
    );
    let Event::Failed {
        call: c,
        error: CallError::Server(ServerError::UnsupportedProtocolVersion { .. }),
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!(c, call);
    assert!(p.take_sent().is_empty(), "one version retry per call");
}

#[test]
fn a_closed_legacy_session_negotiates_again() {
    let mut p = legacy_pair("v-reconnect", |p, id| {
        p.error(id, -32601, "Method not found", None)
    });
    p.close();
    assert!(p.client.session().is_none());
    p.client.list_prompts(ListMode::Page(None), REFRESH, p.now);
    p.drain();
    assert_eq!(p.one_sent().method(), "server/discover");
}

#[test]
fn an_undeliverable_probe_means_a_legacy_server() {
    // HTTP: a 404/405 with an empty body to the probe (docs/rules.md §17.2 era detection).
    let mut p = legacy_pair("v-undeliverable", |p, id| {
        p.client.handle_request_failed(id, p.now);
        p.drain();
    });
    let call = p.client.read_resource("file:///a", REFRESH, p.now);
    p.drain();
    let id = p.one_sent().id();
    p.client.handle_request_failed(id, p.now);
    p.drain();
    assert_eq!(
        p.one_event(),
        Event::Failed {
            call,
            error: CallError::Undeliverable
        }
    );
    p.client.handle_request_failed(id, p.now);
    p.drain();
    assert!(p.take_events().is_empty(), "unknown ids are ignored");
}
