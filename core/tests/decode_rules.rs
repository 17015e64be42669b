//! Each decode rule: a message that breaks it, and the JSON-RPC code (and typed error) it
//! must produce. Plus the legacy shapes a dual-era client accepts (docs/rules.md §17).

use mcp_context::json::{JsonErrorKind, Limits, to_string};
use mcp_context::jsonrpc::{
    DecodeError, EnvelopeError, ErrorData, Message, ParamsErrorKind as P, RequestId, TypedResponse,
};
use mcp_context::messages as m;

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn read_request(params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{params}}}"#)
}

fn envelope_err(json: &str) -> EnvelopeError {
    match Message::decode(json.as_bytes()) {
        Err(DecodeError::Envelope(e)) => {
            assert_eq!(DecodeError::Envelope(e).error_code().code(), -32600);
            e
        }
        other => panic!("{json}: expected an envelope error, got {other:?}"),
    }
}

fn params_err<T: std::fmt::Debug>(r: Result<T, DecodeError>) -> (P, &'static str) {
    match r {
        Err(DecodeError::Params(e)) => {
            assert_eq!(DecodeError::Params(e).error_code().code(), -32602);
            (e.kind, e.field)
        }
        other => panic!("expected a params error, got {other:?}"),
    }
}

fn list_result(result: &str) -> Result<m::ListResourcesResultResponse<'_>, DecodeError> {
    // Leak to get a 'static input for the borrowed view: test only.
    let s: &'static str =
        Box::leak(format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#).into_boxed_str());
    m::ListResourcesResultResponse::decode(s.as_bytes())
}

fn resource_list(resource: &str) -> String {
    format!(
        r#"{{"resultType":"complete","resources":[{resource}],"ttlMs":0,"cacheScope":"public"}}"#
    )
}

#[test]
fn json_errors_are_parse_errors() {
    for (input, kind) in [
        ("{", JsonErrorKind::UnexpectedEnd),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"\ud800"}}"#,
            JsonErrorKind::LoneSurrogate,
        ),
        (r#"{"jsonrpc":"2.0"} x"#, JsonErrorKind::TrailingCharacters),
    ] {
        match Message::decode(input.as_bytes()) {
            Err(e @ DecodeError::Json(j)) => {
                assert_eq!((j.kind, e.error_code().code()), (kind, -32700), "{input}");
            }
            other => panic!("{input}: {other:?}"),
        }
    }
    let deep = format!(
        r#"{{"jsonrpc":"2.0","method":"x","params":{}{}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    assert!(
        matches!(Message::decode(deep.as_bytes()), Err(DecodeError::Json(j)) if j.kind == JsonErrorKind::TooDeep)
    );
    let small = Limits {
        max_len: 10,
        max_depth: 8,
    };
    assert!(
        matches!(Message::decode_with(deep.as_bytes(), small), Err(DecodeError::Json(j)) if j.kind == JsonErrorKind::TooLarge)
    );
}

#[test]
fn envelope_rules_are_invalid_request() {
    use EnvelopeError as E;
    let cases = [
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            E::WrongVersion,
        ),
        (r#"{"jsonrpc":2.0,"id":1,"method":"ping"}"#, E::WrongVersion),
        (r#"{"id":1,"method":"ping"}"#, E::MissingVersion),
        (r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, E::NullId),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            E::InvalidId,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#,
            E::InvalidId,
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            E::InvalidId,
        ),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, E::Batch),
        (r#""ping""#, E::NotAnObject),
        (r#"{"jsonrpc":"2.0","id":1,"method":5}"#, E::InvalidMethod),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#,
            E::InvalidParams,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
            E::Ambiguous,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#,
            E::Ambiguous,
        ),
        (r#"{"jsonrpc":"2.0","result":{}}"#, E::MissingId),
        (
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            E::DuplicateMember("id"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}"#,
            E::InvalidErrorObject,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}"#,
            E::InvalidErrorObject,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":99999999999,"message":"m"}}"#,
            E::InvalidErrorObject,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#,
            E::InvalidErrorObject,
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#, E::UnknownShape),
    ];
    for (json, want) in cases {
        assert_eq!(envelope_err(json), want, "{json}");
    }
    // The wrong kind or method for a typed decode is also -32600.
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#;
    assert!(matches!(
        m::ReadResourceRequest::decode(ping),
        Err(DecodeError::Envelope(E::UnexpectedMethod))
    ));
    let note = br#"{"jsonrpc":"2.0","method":"resources/read","params":{}}"#;
    assert!(matches!(
        m::ReadResourceRequest::decode(note),
        Err(DecodeError::Envelope(E::UnexpectedKind))
    ));
    // The id of a rejected message can still be echoed.
    assert_eq!(
        mcp_context::jsonrpc::recover_id(br#"{"jsonrpc":"1.0","id":"a","method":"x"}"#),
        Some(RequestId::str("a"))
    );
}

#[test]
fn request_meta_rules() {
    let r = |p: &str| {
        params_err(m::ReadResourceRequest::decode(
            read_request(p).leak().as_bytes(),
        ))
    };
    assert_eq!(r(r#"{"uri":"a:b"}"#), (P::Missing, "_meta"));
    assert_eq!(
        r(r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}},"uri":"a:b"}"#),
        (P::Missing, "io.modelcontextprotocol/protocolVersion")
    );
    assert_eq!(
        r(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"uri":"a:b"}"#),
        (P::Missing, "io.modelcontextprotocol/clientCapabilities")
    );
    assert_eq!(
        r(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]},"uri":"a:b"}"#
        ),
        (P::WrongType, "io.modelcontextprotocol/clientCapabilities")
    );
    assert_eq!(
        r(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"},"uri":"a:b"}"#
        ),
        (P::UnknownValue, "io.modelcontextprotocol/logLevel")
    );
    assert_eq!(r(&format!(r#"{{"_meta":{META}}}"#)), (P::Missing, "uri"));
    assert_eq!(
        r(&format!(r#"{{"_meta":{META},"uri":1}}"#)),
        (P::WrongType, "uri")
    );
    assert_eq!(
        r(&format!(r#"{{"_meta":{META},"uri":"a:b","uri":"c:d"}}"#)),
        (P::Duplicate, "uri")
    );
    let missing = br#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#;
    assert_eq!(
        params_err(m::DiscoverRequest::decode(missing)),
        (P::Missing, "params")
    );
    // Escaped strings are read correctly: `\/` is `/`.
    let esc = read_request(&format!(
        r#"{{"_meta":{META},"uri":"file:\/\/\/a\u0020b"}}"#
    ));
    let req = m::ReadResourceRequest::decode(esc.as_bytes()).unwrap();
    assert_eq!(req.params.uri.to_cow(), "file:///a b");
}

#[test]
fn annotation_and_content_rules() {
    let ann = |a: &str| {
        params_err(list_result(&resource_list(&format!(
            r#"{{"uri":"a:b","name":"n","annotations":{a}}}"#
        ))))
    };
    assert_eq!(ann(r#"{"priority":1.5}"#), (P::OutOfRange, "priority"));
    assert_eq!(ann(r#"{"priority":-0.1}"#), (P::OutOfRange, "priority"));
    assert_eq!(ann(r#"{"priority":"high"}"#), (P::WrongType, "priority"));
    assert_eq!(
        ann(r#"{"audience":["user","system"]}"#),
        (P::UnknownValue, "audience")
    );
    assert_eq!(ann(r#"{"audience":"user"}"#), (P::WrongType, "audience"));
    assert!(
        list_result(&resource_list(
            r#"{"uri":"a:b","name":"n","annotations":{"priority":0,"audience":["assistant"]}}"#
        ))
        .is_ok()
    );
    assert_eq!(
        params_err(list_result(&resource_list(
            r#"{"uri":"a:b","name":"n","size":-1}"#
        ))),
        (P::OutOfRange, "size")
    );
    assert_eq!(
        params_err(list_result(&resource_list(r#"{"name":"n"}"#))),
        (P::Missing, "uri")
    );

    let msg = |content: &str| {
        let s: &'static str = Box::leak(format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","messages":[{{"role":"user","content":{content}}}]}}}}"#).into_boxed_str());
        m::GetPromptResultResponse::decode(s.as_bytes())
    };
    assert_eq!(
        params_err(msg(r#"{"type":"video","data":"x"}"#)),
        (P::UnknownValue, "type")
    );
    assert_eq!(
        params_err(msg(r#"{"text":"no type"}"#)),
        (P::Missing, "type")
    );
    assert_eq!(
        params_err(msg(r#"{"type":"image","data":"AA=="}"#)),
        (P::Missing, "mimeType")
    );
    assert_eq!(
        params_err(msg(
            r#"{"type":"resource","resource":{"uri":"a:b","text":"t","blob":"AA=="}}"#
        )),
        (P::Conflicting, "blob")
    );
    assert_eq!(
        params_err(msg(r#"{"type":"resource","resource":{"uri":"a:b"}}"#)),
        (P::Missing, "text")
    );
    assert!(msg(r#"{"type":"text","text":"hi","annotations":{"priority":1}}"#).is_ok());
    let role = Box::leak(r#"{"jsonrpc":"2.0","id":1,"result":{"messages":[{"role":"system","content":{"type":"text","text":"x"}}]}}"#.to_owned().into_boxed_str());
    assert_eq!(
        params_err(m::GetPromptResultResponse::decode(role.as_bytes())),
        (P::UnknownValue, "role")
    );
}

#[test]
fn result_rules() {
    assert_eq!(
        params_err(list_result(r#"{"resultType":"partial","resources":[]}"#)),
        (P::UnknownResultType, "resultType")
    );
    assert_eq!(
        params_err(list_result(
            r#"{"resultType":"input_required","requestState":"s"}"#
        )),
        (P::InputRequiredNotAllowed, "resultType")
    );
    assert_eq!(
        params_err(list_result(r#"{"resources":[],"cacheScope":"shared"}"#)),
        (P::UnknownValue, "cacheScope")
    );
    assert_eq!(
        params_err(list_result(r#"{"resources":[],"ttlMs":1.5}"#)),
        (P::WrongType, "ttlMs")
    );
    assert_eq!(
        params_err(list_result(r#"{"resources":[],"ttlMs":"5"}"#)),
        (P::WrongType, "ttlMs")
    );
    assert_eq!(
        params_err(list_result(r#"{"resultType":"complete"}"#)),
        (P::Missing, "resources")
    );
    // Negative or absent ttlMs reads as 0 (docs/rules.md §4); 6e4 is an integer.
    assert_eq!(
        list_result(r#"{"resources":[],"ttlMs":-5}"#)
            .unwrap()
            .result
            .ttl(),
        0
    );
    assert_eq!(
        list_result(r#"{"resources":[],"ttlMs":6e4}"#)
            .unwrap()
            .result
            .ttl(),
        60_000
    );
    assert_eq!(list_result(r#"{"resources":[]}"#).unwrap().result.ttl(), 0);

    let read = |result: &str| {
        let s: &'static str =
            Box::leak(format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#).into_boxed_str());
        m::ReadResourceResultResponse::decode(s.as_bytes())
    };
    assert!(matches!(
        read(r#"{"resultType":"input_required","requestState":"s"}"#)
            .unwrap()
            .result,
        m::Outcome::InputRequired(_)
    ));
    assert_eq!(
        params_err(read(r#"{"resultType":"input_required"}"#)),
        (P::EmptyInputRequired, "result")
    );
    assert_eq!(
        params_err(read(r#"{"resultType":"task","contents":[]}"#)),
        (P::UnknownResultType, "resultType")
    );
    assert_eq!(
        params_err(read(
            r#"{"resultType":"input_required","inputRequests":{"k":{"method":"tools/call","params":{}}}}"#
        )),
        (P::UnknownValue, "method")
    );
    assert_eq!(
        params_err(read(
            r#"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create"}}}"#
        )),
        (P::Missing, "params")
    );

    let values: Vec<String> = (0..101).map(|i| format!("\"v{i}\"")).collect();
    let complete = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","completion":{{"values":[{}]}}}}}}"#,
        values.join(",")
    );
    assert_eq!(
        params_err(m::CompleteResultResponse::decode(complete.as_bytes())),
        (P::TooManyItems, "values")
    );

    let listen = br#"{"jsonrpc":"2.0","id":"l","result":{"resultType":"complete","_meta":{}}}"#;
    assert_eq!(
        params_err(m::SubscriptionsListenResultResponse::decode(listen)),
        (P::Missing, "io.modelcontextprotocol/subscriptionId")
    );
}

#[test]
fn prompt_and_completion_params_rules() {
    let get = |args: &str| {
        let s: &'static str = Box::leak(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{{"_meta":{META},"name":"p","arguments":{args}}}}}"#).into_boxed_str());
        m::GetPromptRequest::decode(s.as_bytes())
    };
    assert_eq!(
        params_err(get(r#"{"code":1}"#)),
        (P::WrongType, "arguments")
    );
    assert_eq!(
        params_err(get(r#"{"code":null}"#)),
        (P::WrongType, "arguments")
    );
    assert_eq!(params_err(get(r#"["a"]"#)), (P::WrongType, "arguments"));
    let ok = get(r#"{"code":"x = 1","lang":"py"}"#).unwrap();
    assert_eq!(
        ok.params.arguments.unwrap().get("lang").map(|v| v.0),
        Some(mcp_context::json::JsonStr::new("py"))
    );

    let complete = |r: &str| {
        let s: &'static str = Box::leak(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{{"_meta":{META},"ref":{r},"argument":{{"name":"a","value":"b"}}}}}}"#).into_boxed_str());
        m::CompleteRequest::decode(s.as_bytes())
    };
    assert_eq!(
        params_err(complete(r#"{"type":"ref/tool","name":"x"}"#)),
        (P::UnknownValue, "type")
    );
    assert_eq!(
        params_err(complete(r#"{"type":"ref/prompt"}"#)),
        (P::Missing, "name")
    );
    assert!(complete(r#"{"type":"ref/resource","uri":"file:///{path}"}"#).is_ok());

    let cancel =
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}"#;
    assert_eq!(
        params_err(m::CancelledNotification::decode(cancel)),
        (P::WrongType, "requestId")
    );
}

#[test]
fn typed_error_data() {
    let e = |json: &'static str| match Message::decode(json.as_bytes()).unwrap() {
        Message::Error(e) => e,
        other => panic!("{other:?}"),
    };
    let unsupported = e(
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}"#,
    );
    let ErrorData::UnsupportedProtocolVersion {
        supported,
        requested,
    } = unsupported.error.details().unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (supported.len(), requested),
        (1, mcp_context::json::JsonStr::new("1900-01-01"))
    );
    let bad = e(
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"requested":"x"}}}"#,
    );
    assert_eq!(bad.error.details().unwrap_err().field, "supported");
    let caps = e(
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":{"elicitation":{}}}}}"#,
    );
    let ErrorData::MissingRequiredClientCapability { required } = caps.error.details().unwrap()
    else {
        panic!()
    };
    assert!(required.elicitation_form() && !required.elicitation_url());
    let arr = e(
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":["sampling"]}}}"#,
    );
    assert_eq!(arr.error.details().unwrap_err().kind, P::WrongType);
}

#[test]
fn legacy_shapes_are_accepted() {
    // Results without resultType / ttlMs / cacheScope (docs/rules.md §17.2 items 1, 3).
    let legacy =
        list_result(r#"{"resources":[{"uri":"file:///a","name":"a"}],"nextCursor":"abc"}"#)
            .unwrap();
    assert_eq!(
        (
            legacy.result.result_type,
            legacy.result.ttl(),
            legacy.result.cache_scope
        ),
        (None, 0, None)
    );
    // -32002 and -32602 with data.uri both mean "not found"; an error id of null is absent.
    for code in [-32002, -32602] {
        let s = format!(
            r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"Resource not found","data":{{"uri":"file:///x"}}}}}}"#
        );
        let Message::Error(e) = Message::decode(s.as_bytes()).unwrap() else {
            panic!()
        };
        assert!(e.id.is_none() && e.error.is_resource_not_found(), "{code}");
    }
    let plain = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid cursor"}}"#;
    let Message::Error(e) = Message::decode(plain).unwrap() else {
        panic!()
    };
    assert!(!e.error.is_resource_not_found());
    // resources/subscribe and unsubscribe.
    let sub = m::SubscribeRequest::decode(
        br#"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"file:///a"}}"#,
    )
    .unwrap();
    assert_eq!(sub.params.0.uri, "file:///a");
    assert!(m::UnsubscribeRequest::decode(br#"{"jsonrpc":"2.0","id":5,"method":"resources/unsubscribe","params":{"uri":"file:///a"}}"#).is_ok());
    // Notifications without a subscription id, and list_changed without params.
    let upd = m::ResourceUpdatedNotification::decode(br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}"#).unwrap();
    assert!(upd.params.meta.is_none());
    let bare = br#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#;
    let lc = m::ResourceListChangedNotification::decode(bare).unwrap();
    assert_eq!(to_string(&lc).unwrap().as_bytes(), bare);
}

#[test]
fn ids_keep_their_json_type() {
    let big = br#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":123456789012345678901234567890},"notifications":{}}}"#;
    let ack = m::SubscriptionsAcknowledgedNotification::decode(big).unwrap();
    assert_eq!(
        ack.params.meta.unwrap().subscription_id,
        Some(RequestId::BigInt("123456789012345678901234567890"))
    );
    assert_eq!(to_string(&ack).unwrap().as_bytes(), big);
    let s = br#"{"jsonrpc":"2.0","id":"42","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"42"}}}"#;
    let r: TypedResponse<'_, m::ListenResult<'_>> = TypedResponse::decode(s).unwrap();
    assert_eq!(r.id, RequestId::str("42"));
    assert_eq!(to_string(&r).unwrap().as_bytes(), s);
}
