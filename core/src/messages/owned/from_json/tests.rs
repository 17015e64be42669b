use super::*;
use crate::json::to_string;
use crate::messages::Role;
use crate::messages::owned::AsView;
use crate::server::CacheHint;
use alloc::vec;

/// Owned → JSON → owned is the identity: the decoders accept exactly what the encoders
/// emit.
fn round_trip<T>(value: &T)
where
    T: FromJsonText + AsView + PartialEq + core::fmt::Debug,
    for<'a> T::View<'a>: crate::json::Encode,
{
    let text = to_string(&value.view()).unwrap();
    assert_eq!(&T::from_json_text(&text).unwrap(), value, "{text}");
}

#[test]
fn owned_values_round_trip_through_their_wire_shape() {
    let mut r = OwnedResource::new("file:///a b.md", "a\"b");
    r.annotations = Some(OwnedAnnotations {
        audience: vec![Role::User, Role::Assistant],
        priority: None,
        last_modified: Some("2026-01-01T00:00:00Z".into()),
    });
    r.size = Some(12);
    r.icons = vec![OwnedIcon {
        src: "https://x/i.png".into(),
        mime_type: Some("image/png".into()),
        sizes: vec!["48x48".into()],
        theme: None,
    }];
    r.meta = Some(OwnedJson::parse(r#"{"k":[1,2]}"#).unwrap());
    round_trip(&r);
    let mut t = OwnedResourceTemplate::new("repo://{owner}/{repo}", "repo");
    t.mime_type = Some("text/markdown".into());
    round_trip(&t);
    round_trip(&OwnedResourceContents::blob(
        "x:b",
        Some("a/b"),
        b"\x00\x01",
    ));
    round_trip(&OwnedSubscriptionFilter {
        resources_list_changed: Some(true),
        resource_subscriptions: Some(vec!["file:///a".into()]),
        ..OwnedSubscriptionFilter::default()
    });
    round_trip(&OwnedGetPromptResult {
        description: Some("d".into()),
        messages: vec![
            OwnedPromptMessage {
                role: Role::User,
                content: OwnedContentBlock::Resource {
                    resource: OwnedResourceContents::text("kb://c", None, "charte"),
                    annotations: None,
                },
            },
            OwnedPromptMessage {
                role: Role::User,
                content: OwnedContentBlock::Text {
                    text: "é\n\u{1F600}".into(),
                    annotations: None,
                },
            },
        ],
        server_info: None,
    });
}

#[test]
fn arrays_and_errors() {
    let v = Vec::<OwnedResourceContents>::from_json_text(
        r#" [{"uri":"a:1","text":"x"},{"uri":"a:2","blob":"AAE=","mimeType":"b/c"}] "#,
    )
    .unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(Vec::<OwnedResource>::from_json_text("[]").unwrap(), vec![]);
    // Not JSON → -32700; wrong shape → -32602 with the field; trailing text → -32700.
    assert_eq!(
        OwnedResource::from_json_text("{")
            .unwrap_err()
            .error_code()
            .0,
        -32700
    );
    let e = OwnedResourceContents::from_json_text(r#"{"uri":"a:1","text":"x","blob":"AA=="}"#)
        .unwrap_err();
    assert_eq!(e.error_code().0, -32602);
    assert_eq!(
        OwnedPrompt::from_json_text(r#"{"name":"p"} x"#)
            .unwrap_err()
            .error_code()
            .0,
        -32700
    );
    let e = Vec::<OwnedResource>::from_json_text(r#"[{"uri":"a:1","name":3}]"#).unwrap_err();
    assert!(
        matches!(e, DecodeError::Params(p) if p.field == "name"),
        "{e:?}"
    );
    // Input requests: only the spec's methods.
    let ok = OwnedInputRequiredResult::from_json_text(
        r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"s"}"#,
    )
    .unwrap();
    assert_eq!(ok.input_requests.len(), 1);
    assert_eq!(ok.request_state.as_deref(), Some("s"));
    let map = Vec::<(String, OwnedInputRequest)>::from_json_text(
        r#"{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}},"b":{"method":"roots/list"}}"#,
    )
    .unwrap();
    assert_eq!(map.len(), 2);
    assert!(
        Vec::<(String, OwnedInputRequest)>::from_json_text(r#"{"r":{"method":"x/y"}}"#).is_err()
    );
    assert_eq!(
        CacheHint::from_json_text(r#"{"ttlMs":5000,"cacheScope":"public","x":1}"#).unwrap(),
        CacheHint::public(5000)
    );
    assert_eq!(
        CacheHint::from_json_text(r#"{"cacheScope":"private","ttlMs":-3}"#).unwrap(),
        CacheHint::private(0)
    );
    assert!(CacheHint::from_json_text(r#"{"ttlMs":1}"#).is_err());
    assert!(CacheHint::from_json_text(r#"{"ttlMs":1,"cacheScope":"shared"}"#).is_err());
}
