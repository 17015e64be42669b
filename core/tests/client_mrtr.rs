//! The `input_required` loop (docs/rules.md §13, §16.8 rule 47) against a scripted server.

mod client_harness;

use client_harness::{Pair, full_capabilities};
use mcp_context::client::{CachePolicy, CallError, ClientError, Event};
use mcp_context::jsonrpc::Method;
use mcp_context::messages::owned::OwnedJson;
use serde_json::json;

fn mrtr_pair(tag: &str, rounds: u8) -> Pair {
    let mut config = Pair::config();
    config.capabilities = OwnedJson::parse(r#"{"elicitation":{"form":{}},"roots":{}}"#).unwrap();
    config.max_input_rounds = rounds;
    Pair::modern_with(tag, config, full_capabilities())
}

fn j(s: &str) -> OwnedJson {
    OwnedJson::parse(s).unwrap()
}

#[test]
fn input_required_round_trip_echoes_request_state_byte_exact() {
    let mut p = mrtr_pair("mrtr-read", 8);
    let call = p
        .client
        .read_resource("file:///secret", CachePolicy::PreferCache, p.now);
    p.drain();
    let first = p.one_sent();
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"resultType":"input_required","inputRequests":{{"login":{{"method":"elicitation/create","params":{{"mode":"form","message":"Name?","requestedSchema":{{"type":"object","properties":{{"name":{{"type":"string"}}}}}}}}}},"roots":{{"method":"roots/list"}}}},"requestState":"v1.\u00e9\/x"}}}}"#,
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
    assert_eq!((c, round), (call, 1));
    assert_eq!(requests.len(), 2);
    let (key, login) = &requests[0];
    assert_eq!(
        (key.as_str(), login.method),
        ("login", Method::ElicitationCreate)
    );
    assert!(format!("{:?}", login.params.as_ref().unwrap()).contains("Name?"));
    assert_eq!(
        (requests[1].0.as_str(), requests[1].1.method),
        ("roots", Method::RootsList)
    );
    assert!(
        p.take_sent().is_empty(),
        "nothing is sent until the host answers"
    );

    // Host mistakes change nothing.
    let elicit = || {
        (
            "login".to_string(),
            j(r#"{"action":"accept","content":{"name":"octocat"}}"#),
        )
    };
    let roots = || {
        (
            "roots".to_string(),
            j(r#"{"roots":[{"uri":"file:///home/u","name":"home"}]}"#),
        )
    };
    let r = p.client.respond_input(call, vec![elicit()], p.now);
    assert_eq!(r, Err(ClientError::MissingInputResponse));
    let r = p
        .client
        .respond_input(call, vec![elicit(), roots(), ("x".into(), j("{}"))], p.now);
    assert_eq!(r, Err(ClientError::UnexpectedInputResponse));
    let r = p
        .client
        .respond_input(call, vec![elicit(), elicit(), roots()], p.now);
    assert_eq!(r, Err(ClientError::UnexpectedInputResponse));
    let r = p
        .client
        .respond_input(call, vec![elicit(), ("roots".into(), j("[]"))], p.now);
    assert_eq!(r, Err(ClientError::InputResponseNotObject));
    let r = p
        .client
        .respond_input(mcp_context::client::CallId(999), vec![], p.now);
    assert_eq!(r, Err(ClientError::UnknownCall));
    p.drain();
    assert!(p.take_sent().is_empty());

    p.client
        .respond_input(call, vec![elicit(), roots()], p.now)
        .unwrap();
    p.drain();
    let retry = p.one_sent();
    assert_ne!(retry.id(), first.id(), "the retry uses a new id");
    assert_eq!(retry.params()["uri"], "file:///secret");
    assert_eq!(retry.params()["_meta"], first.params()["_meta"]);
    assert_eq!(
        retry.params()["inputResponses"]["login"]["content"]["name"],
        "octocat"
    );
    assert_eq!(
        retry.params()["inputResponses"]["roots"]["roots"][0]["name"],
        "home"
    );
    let bytes = String::from_utf8(retry.transmit.bytes.clone()).unwrap();
    assert!(
        bytes.contains(r#""requestState":"v1.\u00e9\/x""#),
        "byte-exact echo: {bytes}"
    );
    assert_eq!(
        p.client.respond_input(call, vec![], p.now),
        Err(ClientError::NotAwaitingInput)
    );

    // Round 2: only requestState: the client retries at once, without inputResponses.
    p.answer_json(
        retry.id(),
        json!({"resultType": "input_required", "requestState": "s2"}),
    );
    let again = p.one_sent();
    assert_eq!(again.params()["requestState"], "s2");
    assert!(again.params().get("inputResponses").is_none());
    assert!(p.take_events().is_empty());

    p.answer_json(
        again.id(),
        json!({"resultType": "complete", "contents": [{"uri": "file:///secret", "text": "ok"}],
               "ttlMs": 60000, "cacheScope": "private"}),
    );
    let Event::ResourceRead { call: c, reply } = p.one_event() else {
        panic!()
    };
    assert!(c == call && !reply.from_cache());
    assert!(
        p.client.read_cached("file:///secret", p.now).is_none(),
        "retried results are never cached"
    );
}

#[test]
fn prompt_retry_without_state_omits_it() {
    let mut p = mrtr_pair("mrtr-prompt", 8);
    let call = p
        .client
        .get_prompt("code_review", &[("code", "x = 1")], p.now);
    p.drain();
    let first = p.one_sent();
    p.answer_json(
        first.id(),
        json!({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}}),
    );
    assert!(matches!(
        p.one_event(),
        Event::InputRequired { round: 1, .. }
    ));
    p.client
        .respond_input(call, vec![("r".into(), j(r#"{"roots":[]}"#))], p.now)
        .unwrap();
    p.drain();
    let retry = p.one_sent();
    assert_eq!(retry.params()["name"], "code_review");
    assert_eq!(retry.params()["arguments"], json!({"code": "x = 1"}));
    assert!(
        retry.params().get("requestState").is_none(),
        "no state was given: none is sent"
    );
    p.answer_json(retry.id(), json!({"messages": []}));
    assert!(matches!(p.one_event(), Event::PromptFetched { .. }));
}

#[test]
fn rounds_are_bounded() {
    let mut p = mrtr_pair("mrtr-bound", 2);
    let call = p
        .client
        .read_resource("file:///loop", CachePolicy::Refresh, p.now);
    p.drain();
    // The original request and two retries; the third `input_required` ends the call.
    for _ in 0..3 {
        let req = p.one_sent();
        p.answer_json(
            req.id(),
            json!({"resultType": "input_required", "requestState": "again"}),
        );
    }
    assert!(p.take_sent().is_empty());
    assert_eq!(
        p.one_event(),
        Event::Failed {
            call,
            error: CallError::TooManyInputRounds
        }
    );
}

#[test]
fn an_empty_input_required_result_is_invalid() {
    let mut p = mrtr_pair("mrtr-empty", 8);
    p.client
        .read_resource("file:///x", CachePolicy::Refresh, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer_json(req.id(), json!({"resultType": "input_required"}));
    assert!(matches!(
        p.one_event(),
        Event::Failed {
            error: CallError::InvalidResult(_),
            ..
        }
    ));
}

#[test]
fn cancel_while_awaiting_input_sends_nothing() {
    let mut p = mrtr_pair("mrtr-cancel", 8);
    let call = p
        .client
        .read_resource("file:///x", CachePolicy::Refresh, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer_json(
        req.id(),
        json!({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}}),
    );
    p.take_events();
    p.client.cancel(call, None, p.now).unwrap();
    p.drain();
    assert!(
        p.take_sent().is_empty(),
        "no request is in flight to cancel"
    );
    assert_eq!(
        p.client.respond_input(call, vec![], p.now),
        Err(ClientError::UnknownCall)
    );
}
