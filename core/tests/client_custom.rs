//! Methods the client machine does not own (`Client::request`): `tools/list`, `tools/call`,
//! vendor methods, sent with the machine's `_meta`, ids, deadlines, version retry and
//! `input_required` loop; the `x-mcp-header` screening of `tools/list` results and the
//! `Mcp-Param-*` headers of `tools/call` (docs/rules.md §15.1).

mod client_harness;

use client_harness::{Pair, full_capabilities};
use mcp_context::client::{
    CachePolicy, CallError, ClientError, Event, ListMode, ServerError, ToolHeaderError,
    header_value, tool_headers,
};
use mcp_context::json::RawJson;
use mcp_context::messages::owned::OwnedJson;
use serde_json::{Value, json};

fn j(s: &str) -> OwnedJson {
    OwnedJson::parse(s).unwrap()
}

fn result_of(e: Event) -> Value {
    match e {
        Event::Responded { result, .. } => serde_json::from_str(&format!("{result:?}")).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_vendor_method_goes_out_with_the_machine_meta_and_its_result_comes_back_as_json() {
    let mut p = Pair::modern("custom-vendor");
    let call = p
        .client
        .request(
            "tools/list",
            j(r#"{"cursor":"c1","_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"forged"}}"#),
            p.now,
        )
        .unwrap();
    p.drain();
    let sent = p.one_sent();
    assert_eq!(sent.method(), "tools/list");
    assert_eq!(sent.transmit.method.as_deref(), Some("tools/list"));
    assert_eq!(
        sent.transmit.protocol_version.as_deref(),
        Some("2026-07-28")
    );
    let meta = &sent.params()["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"]["name"],
        "harness-client"
    );
    assert_eq!(
        meta["progressToken"], 7,
        "the host's own _meta keys are kept"
    );
    assert_eq!(sent.params()["cursor"], "c1");
    // The machine's keys are written once: the host's forged version is not.
    let text = String::from_utf8(sent.transmit.bytes.clone()).unwrap();
    assert_eq!(text.matches("protocolVersion").count(), 1, "{text}");

    p.answer_json(
        sent.id(),
        json!({"resultType": "complete", "tools": [{"name": "t", "inputSchema": {"type": "object"}}], "ttlMs": 0}),
    );
    let Event::Responded { call: c, result } = p.one_event() else {
        panic!()
    };
    assert_eq!(c, call);
    let v: Value = serde_json::from_str(&format!("{result:?}")).unwrap();
    assert_eq!(v["tools"][0]["name"], "t");
}

#[test]
fn methods_the_machine_owns_and_non_objects_are_refused_and_nothing_is_sent() {
    let mut p = Pair::modern("custom-refused");
    for m in [
        "resources/read",
        "server/discover",
        "subscriptions/listen",
        "initialize",
        "notifications/cancelled",
        "elicitation/create",
        "rpc.discover",
        "",
    ] {
        assert_eq!(
            p.client.request(m, j("{}"), p.now),
            Err(ClientError::OwnedMethod),
            "{m}"
        );
    }
    assert_eq!(
        p.client.request("tools/list", j("[1]"), p.now),
        Err(ClientError::ParamsNotObject)
    );
    for m in ["acme/a b", "acme/\r\nX-Injected: 1", "acme/é"] {
        assert_eq!(
            p.client.request(m, j("{}"), p.now),
            Err(ClientError::InvalidMethodName),
            "{m:?}"
        );
    }
    p.drain();
    assert!(p.take_sent().is_empty());
    assert!(p.take_events().is_empty());
}

#[test]
fn a_request_before_the_negotiation_is_queued_and_sent_after_it() {
    let mut p = Pair::new("custom-queued", Pair::config());
    let call = p.client.request("acme/ping", j("{}"), p.now).unwrap();
    p.drain();
    let probe = p.one_sent();
    assert_eq!(probe.method(), "server/discover");
    p.answer(
        probe.id(),
        client_harness::discover_result(&["2026-07-28"], full_capabilities()),
    );
    assert!(matches!(p.take_events().as_slice(), [Event::Connected(_)]));
    let sent = p.one_sent();
    assert_eq!(sent.method(), "acme/ping");
    assert_eq!(sent.transmit.method.as_deref(), Some("acme/ping"));
    p.answer_json(sent.id(), json!({"ok": true}));
    let Event::Responded { call: c, .. } = p.one_event() else {
        panic!()
    };
    assert_eq!(c, call);
}

#[test]
fn errors_unknown_result_types_and_non_object_results_fail_the_call() {
    let mut p = Pair::modern("custom-errors");
    let a = p
        .client
        .request("tools/call", j(r#"{"name":"x"}"#), p.now)
        .unwrap();
    p.drain();
    let sent = p.one_sent();
    p.error(sent.id(), -32601, "Method not found", None);
    assert!(matches!(
        p.one_event(),
        Event::Failed { call, error: CallError::Server(ServerError::MethodNotFound { .. }) } if call == a
    ));

    let b = p.client.request("acme/x", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), json!({"resultType": "partial"}));
    assert!(matches!(
        p.one_event(),
        Event::Failed { call, error: CallError::InvalidResult(_) } if call == b
    ));

    let c = p.client.request("acme/y", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), json!([1, 2]));
    assert!(matches!(
        p.one_event(),
        Event::Failed { call, error: CallError::InvalidResult(_) } if call == c
    ));
}

#[test]
fn a_request_without_an_answer_times_out() {
    let mut p = Pair::modern("custom-timeout");
    let call = p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    p.one_sent();
    let timeout = p.client.poll_timeout().expect("a deadline");
    p.advance(timeout - p.now);
    assert!(matches!(
        p.one_event(),
        Event::Failed { call: c, error: CallError::Timeout } if c == call
    ));
}

#[test]
fn unsupported_version_is_retried_once_with_a_common_version() {
    let mut config = Pair::config();
    config.versions = vec!["2027-01-01".into(), "2026-07-28".into()];
    let mut p = Pair::new("custom-32022", config);
    p.client.connect(p.now);
    p.drain();
    let probe = p.one_sent();
    p.answer(
        probe.id(),
        client_harness::discover_result(&["2027-01-01", "2026-07-28"], full_capabilities()),
    );
    p.take_events();
    let call = p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let first = p.one_sent();
    assert_eq!(
        first.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2027-01-01"
    );
    p.error(
        first.id(),
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": ["2026-07-28"], "requested": "2027-01-01"})),
    );
    let again = p.one_sent();
    assert_ne!(again.id(), first.id());
    assert_eq!(
        again.transmit.protocol_version.as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(
        again.params()["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    p.answer_json(again.id(), json!({"resultType": "complete", "tools": []}));
    assert!(matches!(p.one_event(), Event::Responded { call: c, .. } if c == call));
}

#[test]
fn tools_call_runs_the_input_required_loop_with_a_new_id_and_the_exact_state() {
    let mut config = Pair::config();
    config.capabilities = j(r#"{"elicitation":{"form":{}}}"#);
    let mut p = Pair::modern_with("custom-mrtr", config, full_capabilities());
    let call = p
        .client
        .request(
            "tools/call",
            j(r#"{"name":"deploy","arguments":{"env":"prod"},"requestState":"stale","inputResponses":{"old":{}}}"#),
            p.now,
        )
        .unwrap();
    p.drain();
    let first = p.one_sent();
    assert_eq!(first.transmit.name.as_deref(), Some("deploy"), "Mcp-Name");
    assert!(
        first.params().get("requestState").is_none()
            && first.params().get("inputResponses").is_none(),
        "the machine owns the MRTR fields: {:?}",
        first.params()
    );
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"resultType":"input_required","inputRequests":{{"ok":{{"method":"elicitation/create","params":{{"mode":"form","message":"Sure?","requestedSchema":{{"type":"object","properties":{{}}}}}}}}}},"requestState":"{{\"n\":1}}\u00e9"}}}}"#,
        first.id()
    );
    p.feed(answer.as_bytes());
    let Event::InputRequired {
        call: c,
        round,
        requests,
    } = p.one_event()
    else {
        panic!()
    };
    assert_eq!((c, round, requests.len()), (call, 1, 1));
    p.client
        .respond_input(
            call,
            vec![("ok".into(), j(r#"{"action":"accept","content":{}}"#))],
            p.now,
        )
        .unwrap();
    p.drain();
    let retry = p.one_sent();
    assert_ne!(retry.id(), first.id());
    assert_eq!(retry.params()["name"], "deploy");
    assert_eq!(retry.params()["arguments"]["env"], "prod");
    assert_eq!(retry.params()["inputResponses"]["ok"]["action"], "accept");
    let text = String::from_utf8(retry.transmit.bytes.clone()).unwrap();
    assert!(
        text.contains(r#""requestState":"{\"n\":1}\u00e9""#),
        "echoed byte-exact: {text}"
    );
    p.answer_json(
        retry.id(),
        json!({"content": [{"type": "text", "text": "done"}]}),
    );
    let v = result_of(p.one_event());
    assert_eq!(
        v["content"][0]["text"], "done",
        "absent resultType is complete"
    );
}

fn tools_list_result() -> Value {
    json!({
        "resultType": "complete",
        "nextCursor": "n",
        "tools": [
            {"name": "ok", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "n": {"type": "integer", "x-mcp-header": "N"},
                "flag": {"type": "boolean", "x-mcp-header": "Flag"},
                "plain": {"type": "string"}
            }}},
            {"name": "empty", "inputSchema": {"type": "object", "properties": {"v": {"type": "string", "x-mcp-header": ""}}}},
            {"name": "colon", "inputSchema": {"type": "object", "properties": {"v": {"type": "string", "x-mcp-header": "A:B"}}}},
            {"name": "dup", "inputSchema": {"type": "object", "properties": {
                "a": {"type": "string", "x-mcp-header": "MyField"},
                "b": {"type": "string", "x-mcp-header": "myfield"}}}},
            {"name": "obj", "inputSchema": {"type": "object", "properties": {"v": {"type": "object", "x-mcp-header": "V"}}}},
            {"name": "none", "inputSchema": {"type": "object"}}
        ]
    })
}

#[test]
fn tools_with_invalid_x_mcp_header_are_left_out_and_cannot_be_called() {
    let mut p = Pair::modern("custom-tools-screen");
    p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), tools_list_result());
    let v = result_of(p.one_event());
    let names: Vec<&str> = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ok", "none"]);
    assert_eq!(v["nextCursor"], "n", "other members are kept");
    for bad in ["empty", "colon", "dup", "obj"] {
        let params = j(&format!(r#"{{"name":"{bad}","arguments":{{}}}}"#));
        assert_eq!(
            p.client.request("tools/call", params, p.now),
            Err(ClientError::RejectedTool),
            "{bad}"
        );
    }
    p.drain();
    assert!(p.take_sent().is_empty());
}

#[test]
fn tools_call_mirrors_annotated_arguments_into_mcp_param_headers() {
    let mut p = Pair::modern("custom-tools-headers");
    p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), tools_list_result());
    p.take_events();
    p.client
        .request(
            "tools/call",
            j(r#"{"name":"ok","arguments":{"region":" us-west1","n":42,"flag":false,"plain":"x"}}"#),
            p.now,
        )
        .unwrap();
    p.drain();
    let call = p.one_sent();
    assert_eq!(
        call.transmit.param_headers,
        vec![
            (
                "Mcp-Param-Region".to_string(),
                "=?base64?IHVzLXdlc3Qx?=".to_string()
            ),
            ("Mcp-Param-N".to_string(), "42".to_string()),
            ("Mcp-Param-Flag".to_string(), "false".to_string()),
        ]
    );
    let headers = call.transmit.http_headers();
    let get = |k: &str| {
        headers
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.to_string())
    };
    assert_eq!(get("Mcp-Method").as_deref(), Some("tools/call"));
    assert_eq!(get("Mcp-Name").as_deref(), Some("ok"));
    assert_eq!(get("MCP-Protocol-Version").as_deref(), Some("2026-07-28"));
    assert_eq!(get("Mcp-Param-N").as_deref(), Some("42"));
    // A null argument gets no header.
    p.client
        .request(
            "tools/call",
            j(r#"{"name":"ok","arguments":{"region":null,"n":1}}"#),
            p.now,
        )
        .unwrap();
    p.drain();
    let call = p.one_sent();
    assert_eq!(
        call.transmit.param_headers,
        vec![("Mcp-Param-N".to_string(), "1".to_string())]
    );
}

#[test]
fn header_values_are_plain_or_base64_per_the_value_encoding_rules() {
    for (v, want) in [
        ("us-west1", "us-west1"),
        ("us west 1", "us west 1"),
        ("", ""),
        ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        (" padded ", "=?base64?IHBhZGRlZCA=?="),
        ("\tindented", "=?base64?CWluZGVudGVk?="),
        ("line1\r\nline2", "=?base64?bGluZTENCmxpbmUy?="),
        ("=?base64?abc?=", "=?base64?PT9iYXNlNjQ/YWJjPz0=?="),
        ("résumé_review", "=?base64?csOpc3Vtw6lfcmV2aWV3?="),
    ] {
        assert_eq!(header_value(v), want, "{v:?}");
    }
}

#[test]
fn x_mcp_header_validation_names_each_broken_constraint() {
    let check = |schema: &str| tool_headers(RawJson::parse(schema.as_bytes()).unwrap());
    let prop = |p: &str| format!(r#"{{"type":"object","properties":{{{p}}}}}"#);
    assert_eq!(
        check(&prop(r#""a":{"type":"string","x-mcp-header":"Region"}"#)),
        Ok(vec![("a".into(), "Region".into())])
    );
    assert_eq!(
        check(&prop(r#""a":{"type":"string","x-mcp-header":""}"#)),
        Err(ToolHeaderError::Empty)
    );
    assert_eq!(
        check(&prop(r#""a":{"type":"string","x-mcp-header":7}"#)),
        Err(ToolHeaderError::Empty)
    );
    for bad in ["My Region", "Region:Primary", "Région", "Region\\t1"] {
        assert_eq!(
            check(&prop(&format!(
                r#""a":{{"type":"string","x-mcp-header":"{bad}"}}"#
            ))),
            Err(ToolHeaderError::Charset),
            "{bad}"
        );
    }
    for ty in [
        "\"object\"",
        "\"array\"",
        "\"null\"",
        "\"number\"",
        "[\"string\",\"null\"]",
    ] {
        assert_eq!(
            check(&prop(&format!(r#""a":{{"type":{ty},"x-mcp-header":"A"}}"#))),
            Err(ToolHeaderError::NotPrimitive),
            "{ty}"
        );
    }
    assert_eq!(
        check(&prop(
            r#""a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"integer","x-mcp-header":"myfield"}"#
        )),
        Err(ToolHeaderError::Duplicate)
    );
}

#[test]
fn the_probe_and_every_modern_request_carry_the_version_header() {
    let mut p = Pair::new("custom-version-header", Pair::config());
    p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let probe = p.one_sent();
    assert_eq!(
        probe.transmit.protocol_version.as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(probe.transmit.method.as_deref(), Some("server/discover"));
}

#[test]
fn a_probe_refused_with_a_list_naming_its_own_version_is_retried_once() {
    // The conformance suite's request-metadata server refuses the first request with -32022
    // and `supported: ["2026-07-28"]`, the very version asked for: the one retry goes out.
    let mut p = Pair::new("custom-32022-same", Pair::config());
    let call = p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let probe = p.one_sent();
    let data = json!({"supported": ["2026-07-28"], "requested": "2026-07-28"});
    p.error(
        probe.id(),
        -32022,
        "Unsupported protocol version",
        Some(data.clone()),
    );
    let again = p.one_sent();
    assert_eq!(again.method(), "server/discover");
    assert_ne!(again.id(), probe.id());
    // A second refusal ends the negotiation: one retry only.
    p.error(
        again.id(),
        -32022,
        "Unsupported protocol version",
        Some(data),
    );
    let events = p.take_events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Failed { call: c, .. } if *c == call)),
        "{events:?}"
    );
    assert!(p.take_sent().is_empty());
}

#[test]
fn a_new_walk_and_a_closed_transport_forget_the_tools_seen() {
    let mut p = Pair::modern("custom-tools-forget");
    p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), tools_list_result());
    p.take_events();
    let bad = || j(r#"{"name":"dup","arguments":{}}"#);
    assert_eq!(
        p.client.request("tools/call", bad(), p.now),
        Err(ClientError::RejectedTool)
    );
    // A later page adds to what is known; a walk from the start replaces it.
    p.client
        .request("tools/list", j(r#"{"cursor":"n"}"#), p.now)
        .unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(
        sent.id(),
        json!({"tools": [{"name": "later", "inputSchema": {"type": "object"}}]}),
    );
    p.take_events();
    assert_eq!(
        p.client.request("tools/call", bad(), p.now),
        Err(ClientError::RejectedTool)
    );
    p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), json!({"tools": []}));
    p.take_events();
    assert!(p.client.request("tools/call", bad(), p.now).is_ok());
    p.drain();
    p.take_sent();
    // After the transport closes, nothing is remembered either.
    p.client.request("tools/list", j("{}"), p.now).unwrap();
    p.drain();
    let sent = p.one_sent();
    p.answer_json(sent.id(), tools_list_result());
    p.take_events();
    p.close();
    p.take_events();
    assert!(p.client.request("tools/call", bad(), p.now).is_ok());
}

#[test]
fn list_tools_pages_and_screens_every_page() {
    let mut p = Pair::modern("custom-tools-list");
    let call = p
        .client
        .list_tools(ListMode::All, CachePolicy::Refresh, p.now);
    p.drain();
    let first = p.one_sent();
    assert_eq!(first.method(), "tools/list");
    assert!(first.params().get("cursor").is_none());
    p.answer_json(first.id(), tools_list_result());
    // The machine follows `nextCursor` itself: no event before the last page.
    p.drain();
    let second = p.one_sent();
    assert_eq!(second.params()["cursor"], "n");
    p.answer_json(
        second.id(),
        json!({"resultType": "complete", "tools": [
            {"name": "last", "inputSchema": {"type": "object"}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {"v": {"type": "string", "x-mcp-header": "A B"}}}}
        ]}),
    );
    let Event::ToolsListed { call: c, listing } = p.one_event() else {
        panic!("expected ToolsListed");
    };
    assert_eq!(c, call);
    assert!(!listing.truncated && listing.next_cursor.is_none());
    let names: Vec<String> = listing
        .pages
        .iter()
        .flat_map(|page| {
            let v: Value = serde_json::from_str(page.json()).unwrap();
            v["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(names, ["ok", "none", "last"]);
    // Rejected on either page: never called.
    for bad in ["dup", "bad"] {
        let params = j(&format!(r#"{{"name":"{bad}","arguments":{{}}}}"#));
        assert_eq!(
            p.client.request("tools/call", params, p.now),
            Err(ClientError::RejectedTool),
            "{bad}"
        );
    }
    // One page on request: the cursor is the host's.
    p.client
        .list_tools(ListMode::Page(None), CachePolicy::Refresh, p.now);
    p.drain();
    let only = p.one_sent();
    p.answer_json(only.id(), tools_list_result());
    let Event::ToolsListed { listing, .. } = p.one_event() else {
        panic!("expected ToolsListed");
    };
    assert_eq!(
        (listing.pages.len(), listing.next_cursor.as_deref()),
        (1, Some("n"))
    );
}
