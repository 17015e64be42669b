//! Server machine: `input_required` and the multi-round-trip retry (docs/rules.md §13; checklist
//! §16.8, §16.1 rule 4, §16.4 rule 23).

mod common;
mod server_harness;

use mcp_context::jsonrpc::Method;
use mcp_context::messages::owned::{OwnedInputRequest, OwnedJson, OwnedResourceContents};
use mcp_context::server::Ctx;
use mcp_context::server::{
    Event, InputRequired, Output, RespondError, SealingKey, ServerConfig, StreamId,
};
use serde_json::{Value, json};
use server_harness::*;

fn keyed(tag: &str) -> H {
    let config = ServerConfig {
        state_keys: vec![SealingKey {
            id: 7,
            secret: vec![0x5a; 32],
        }],
        state_ttl_ms: 10_000,
        ..ServerConfig::default()
    };
    H::new(tag, catalogue(config))
}

fn elicit() -> (String, OwnedInputRequest) {
    let params = r#"{"mode":"form","message":"Allow?","requestedSchema":{"type":"object","properties":{"allow":{"type":"boolean"}},"required":["allow"]}}"#;
    (
        "confirm".into(),
        OwnedInputRequest {
            method: Method::ElicitationCreate,
            params: Some(OwnedJson::parse(params).unwrap()),
        },
    )
}

fn roots() -> (String, OwnedInputRequest) {
    (
        "roots".into(),
        OwnedInputRequest {
            method: Method::RootsList,
            params: None,
        },
    )
}

fn read_with(uri: &str, caps: Value, extra: Value) -> Value {
    let mut p = json!({"_meta": meta_with(caps), "uri": uri});
    if let Value::Object(o) = extra {
        for (k, v) in o {
            p[k] = v;
        }
    }
    p
}

fn handle_of(outs: &[Output]) -> mcp_context::server::Handle {
    match events(outs).as_slice() {
        [Event::ReadResource(e)] => e.handle,
        [Event::GetPrompt(e)] => e.handle,
        other => panic!("expected one event, got {other:?}"),
    }
}

fn retry_of(outs: &[Output]) -> Option<mcp_context::server::Retry> {
    match events(outs).as_slice() {
        [Event::ReadResource(e)] => e.retry.clone(),
        [Event::GetPrompt(e)] => e.retry.clone(),
        other => panic!("expected one event, got {other:?}"),
    }
}

/// First round: asks for elicitation; returns the requestState.
fn first_round(h: &mut H, ctx: Ctx, uri: &str) -> String {
    let caps = json!({"elicitation": {"form": {}}});
    let outs = h.call(
        ctx,
        json!(1),
        "resources/read",
        read_with(uri, caps, json!({})),
    );
    let handle = handle_of(&outs);
    let input = InputRequired {
        requests: vec![elicit()],
        state: Some(b"step-2".to_vec()),
    };
    h.server.respond_input_required(handle, input).unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    assert_eq!(r["resultType"], "input_required");
    assert_eq!(
        r["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    r["requestState"].as_str().unwrap().to_string()
}

#[test]
fn rule_45_sealed_state_comes_back_verified_on_the_retry() {
    let mut h = keyed("mrtr-45");
    let state = first_round(&mut h, STDIO, "notes://acme/1");
    assert_eq!(
        h.server.pending_requests(),
        0,
        "rule 46: the server never waits for a retry"
    );
    h.now += 1_000;
    let caps = json!({"elicitation": {"form": {}}});
    let extra = json!({"requestState": state, "inputResponses": {"confirm": {"action": "accept", "content": {"allow": true}}}});
    let outs = h.call(
        STDIO,
        json!(2),
        "resources/read",
        read_with("notes://acme/1", caps, extra),
    );
    let retry = retry_of(&outs).unwrap();
    assert_eq!(retry.state.as_deref(), Some(&b"step-2"[..]));
    assert_eq!(retry.input_responses.len(), 1);
    assert_eq!(retry.input_responses[0].0, "confirm");
    h.server
        .respond_read(
            handle_of(&outs),
            vec![OwnedResourceContents::text("notes://acme/1", None, "ok")],
        )
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(v["result"]["resultType"], "complete");
    assert!(
        v["result"]["ttlMs"].is_u64(),
        "hints stay on the final result (the client must not cache it)"
    );
}

#[test]
fn rule_45_tampered_replayed_foreign_and_expired_states_are_32602() {
    let mut h = keyed("mrtr-45-bad");
    let state = first_round(&mut h, Ctx::http(StreamId(1), 5), "notes://acme/1");
    let mut tampered = state.clone().into_bytes();
    let i = tampered.len() / 2;
    tampered[i] = if tampered[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let caps = json!({"elicitation": {"form": {}}});
    let cases = [
        ("tampered", 5, "notes://acme/1", json!(tampered), 0),
        ("other uri", 5, "notes://acme/2", json!(state), 0),
        ("other auth", 6, "notes://acme/1", json!(state), 0),
        ("garbage", 5, "notes://acme/1", json!("not base64!"), 0),
        ("expired", 5, "notes://acme/1", json!(state), 10_000),
    ];
    for (what, auth, uri, token, later) in cases {
        h.now += later;
        let ctx = Ctx::http(StreamId(2), auth);
        let outs = h.call(
            ctx,
            json!(2),
            "resources/read",
            read_with(uri, caps.clone(), json!({"requestState": token})),
        );
        let v = only(&outs);
        assert_eq!(error_code(&v), -32602, "{what}");
        assert!(events(&outs).is_empty(), "{what}");
    }
}

#[test]
fn a_state_the_server_never_sealed_is_refused_without_keys() {
    let mut h = H::new("mrtr-nokeys", catalogue(ServerConfig::default()));
    let outs = h.call(
        STDIO,
        json!(1),
        "resources/read",
        read_with("notes://acme/1", json!({}), json!({"requestState": "abc"})),
    );
    assert_eq!(error_code(&only(&outs)), -32602);
}

#[test]
fn rule_44_rule_4_input_requests_need_declared_capabilities() {
    let mut h = keyed("mrtr-44");
    let outs = h.call(
        http(3),
        json!(9),
        "resources/read",
        read_with("notes://acme/1", json!({"roots": {}}), json!({})),
    );
    let handle = handle_of(&outs);
    let input = InputRequired {
        requests: vec![roots(), elicit()],
        state: None,
    };
    assert_eq!(
        h.server.respond_input_required(handle, input),
        Err(RespondError::ClientLacksCapability)
    );
    let outs = h.drain();
    let t = &transmits(&outs)[0];
    let v = json_of(t);
    assert_eq!(error_code(&v), -32021);
    assert_eq!(
        v["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"form": {}}})
    );
    assert_eq!((v["id"].clone(), t.http_status), (json!(9), 400));
    assert_eq!(h.server.pending_requests(), 0);
    // Sampling and URL elicitation are named the same way.
    let outs = h.call(
        STDIO,
        json!(1),
        "resources/read",
        read_with("notes://acme/1", json!({"elicitation": {}}), json!({})),
    );
    let url = OwnedInputRequest {
        method: Method::ElicitationCreate,
        params: Some(
            OwnedJson::parse(
                r#"{"mode":"url","message":"m","url":"https://x.example/","elicitationId":"e"}"#,
            )
            .unwrap(),
        ),
    };
    let sampling = OwnedInputRequest {
        method: Method::SamplingCreateMessage,
        params: Some(OwnedJson::parse(r#"{"messages":[],"maxTokens":5}"#).unwrap()),
    };
    let input = InputRequired {
        requests: vec![("u".into(), url), ("s".into(), sampling)],
        state: None,
    };
    assert_eq!(
        h.server.respond_input_required(handle_of(&outs), input),
        Err(RespondError::ClientLacksCapability)
    );
    let v = only(&h.drain());
    assert_eq!(
        v["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {"url": {}}, "sampling": {}})
    );
}

#[test]
fn rule_43_input_required_only_on_read_and_prompt() {
    let config = ServerConfig {
        completion_events: true,
        ..ServerConfig::default()
    };
    let mut h = H::new("mrtr-43", catalogue(config));
    let outs = h.call(STDIO, json!(1), "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "review_note"}, "argument": {"name": "id", "value": ""}}));
    let evs = events(&outs);
    let [Event::Complete(e)] = evs.as_slice() else {
        panic!()
    };
    let input = InputRequired {
        requests: vec![roots()],
        state: None,
    };
    assert_eq!(
        h.server.respond_input_required(e.handle, input),
        Err(RespondError::WrongKind)
    );
    // prompts/get may: a state-only ("load shedding") answer.
    let mut k = keyed("mrtr-43-prompt");
    let outs = k.call(
        STDIO,
        json!(3),
        "prompts/get",
        json!({"name": "review_note", "arguments": {"project": "acme", "id": "1"}}),
    );
    k.server
        .respond_input_required(
            handle_of(&outs),
            InputRequired {
                requests: vec![],
                state: Some(vec![1, 2]),
            },
        )
        .unwrap();
    let v = only(&k.drain());
    assert!(v["result"].get("inputRequests").is_none());
    let state = v["result"]["requestState"].as_str().unwrap().to_string();
    // The retry, arguments in another order, binds the same.
    let outs = k.call(STDIO, json!(4), "prompts/get",
        json!({"name": "review_note", "arguments": {"id": "1", "project": "acme"}, "requestState": state}));
    assert_eq!(retry_of(&outs).unwrap().state, Some(vec![1, 2]));
    // Other arguments do not.
    let outs = k.call(STDIO, json!(5), "prompts/get",
        json!({"name": "review_note", "arguments": {"id": "2", "project": "acme"}, "requestState": state}));
    assert_eq!(error_code(&only(&outs)), -32602);
}

#[test]
fn malformed_input_required_answers_are_refused_with_32603() {
    let mut h = H::new("mrtr-misuse", catalogue(ServerConfig::default()));
    let read = |h: &mut H, id: u32| {
        let outs = h.call(
            STDIO,
            json!(id),
            "resources/read",
            read_with(
                "notes://acme/1",
                json!({"elicitation": {}, "roots": {}}),
                json!({}),
            ),
        );
        handle_of(&outs)
    };
    let bad_method = OwnedInputRequest {
        method: Method::ToolsCall,
        params: None,
    };
    let no_params = OwnedInputRequest {
        method: Method::ElicitationCreate,
        params: None,
    };
    let cases = [
        (
            InputRequired {
                requests: vec![],
                state: None,
            },
            RespondError::InvalidInputRequests,
        ),
        (
            InputRequired {
                requests: vec![roots(), roots()],
                state: None,
            },
            RespondError::InvalidInputRequests,
        ),
        (
            InputRequired {
                requests: vec![("x".into(), bad_method)],
                state: None,
            },
            RespondError::InvalidInputRequests,
        ),
        (
            InputRequired {
                requests: vec![("x".into(), no_params)],
                state: None,
            },
            RespondError::InvalidInputRequests,
        ),
        (
            InputRequired {
                requests: vec![roots()],
                state: Some(vec![1]),
            },
            RespondError::NoStateKey,
        ),
    ];
    // Each refusal ends its request with -32603 at once (docs/rules.md §20.4 rule 5).
    for (n, (input, err)) in (1..).zip(cases) {
        let handle = read(&mut h, n);
        assert_eq!(h.server.respond_input_required(handle, input), Err(err));
        let v = only(&h.drain());
        assert_eq!((error_code(&v), &v["id"]), (-32603, &json!(n)));
    }
    let handle = read(&mut h, 9);
    // Without keys, requests alone go out with no requestState.
    h.server
        .respond_input_required(
            handle,
            InputRequired {
                requests: vec![roots()],
                state: None,
            },
        )
        .unwrap();
    let v = only(&h.drain());
    assert!(v["result"].get("requestState").is_none());
    assert_eq!(
        v["result"]["inputRequests"]["roots"],
        json!({"method": "roots/list"})
    );
}
