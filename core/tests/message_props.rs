//! Property tests of the message layer: generated messages round-trip (encode → decode →
//! encode), `decode_into` gives what `decode` gives (broken messages included), and no
//! input up to 64 KiB makes any decoder panic.

mod common;
#[macro_use]
#[path = "common/decode_all.rs"]
mod decode_all;

use mcp_context::json::{JsonStr, RawJson, to_string};
use mcp_context::jsonrpc::{FromJson, OwnedRequestId, RequestId, TypedResponse};
use mcp_context::messages::owned::*;
use mcp_context::messages::{
    self as m, CacheScope, ClientCapabilities, Priority, RequestMeta, Role,
};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9 _./-]{0,24}",
        "[\"\\\\\u{0}-\u{1f}é😀]{0,8}"
    ]
}

fn uri() -> impl Strategy<Value = String> {
    "(file|https|db|test)://[a-z0-9]{1,8}(/[a-zA-Z0-9._~-]{1,10}){0,3}"
}

fn id() -> impl Strategy<Value = OwnedRequestId> {
    prop_oneof![
        any::<i64>().prop_map(OwnedRequestId::Int),
        text().prop_map(OwnedRequestId::Str),
        "[1-9][0-9]{19,40}".prop_map(OwnedRequestId::BigInt),
    ]
}

fn annotations() -> impl Strategy<Value = Option<OwnedAnnotations>> {
    proptest::option::of(
        (
            prop::collection::vec(prop_oneof![Just(Role::User), Just(Role::Assistant)], 0..3),
            proptest::option::of(0.0f64..=1.0),
            proptest::option::of(text()),
        )
            .prop_map(|(audience, p, last_modified)| OwnedAnnotations {
                audience,
                priority: p.and_then(Priority::new),
                last_modified,
            }),
    )
}

fn resource() -> impl Strategy<Value = OwnedResource> {
    (
        uri(),
        text(),
        proptest::option::of(text()),
        proptest::option::of(any::<u64>()),
        annotations(),
    )
        .prop_map(|(uri, name, title, size, annotations)| OwnedResource {
            title,
            size,
            annotations,
            ..OwnedResource::new(uri, name)
        })
}

fn contents() -> impl Strategy<Value = OwnedResourceContents> {
    prop_oneof![
        (uri(), proptest::option::of("[a-z]+/[a-z0-9.+-]+"), text())
            .prop_map(|(u, m, t)| OwnedResourceContents::text(u, m.as_deref(), t)),
        (uri(), prop::collection::vec(any::<u8>(), 0..64)).prop_map(|(u, b)| {
            OwnedResourceContents::blob(u, Some("application/octet-stream"), &b)
        }),
    ]
}

fn block() -> impl Strategy<Value = OwnedContentBlock> {
    prop_oneof![
        (text(), annotations())
            .prop_map(|(text, annotations)| OwnedContentBlock::Text { text, annotations }),
        ("[A-Za-z0-9+/]{0,16}", annotations()).prop_map(|(data, annotations)| {
            OwnedContentBlock::Image {
                data,
                mime_type: "image/png".into(),
                annotations,
            }
        }),
        "[A-Za-z0-9+/]{0,16}".prop_map(|data| OwnedContentBlock::Audio {
            data,
            mime_type: "audio/wav".into(),
            annotations: None
        }),
        resource().prop_map(OwnedContentBlock::ResourceLink),
        (contents(), annotations()).prop_map(|(resource, annotations)| {
            OwnedContentBlock::Resource {
                resource,
                annotations,
            }
        }),
    ]
}

/// `decode_into` answers as `decode` does (`decode_all::same_into`) on `$json` of `$n`
/// items, then again on `$json` broken by each of `$broken`'s edits (a byte removed or
/// replaced at an index).
macro_rules! same_into_broken {
    ($ty:ty, $json:expr, $n:expr, $broken:expr) => {{
        let json: &str = &$json;
        let mut texts = vec![json.as_bytes().to_vec()];
        for &(at, byte) in &$broken {
            let mut b = json.as_bytes().to_vec();
            let at = at % b.len().max(1);
            match byte {
                None => drop(b.remove(at)),
                Some(byte) => b[at] = byte,
            }
            texts.push(b);
        }
        for bytes in &texts {
            same_into!($ty, bytes, $n);
        }
    }};
}

/// Edits that break a message: a byte removed (`None`) or replaced, at an index.
fn edits() -> impl Strategy<Value = Vec<(usize, Option<u8>)>> {
    prop::collection::vec(
        (
            any::<usize>(),
            proptest::option::of(prop::sample::select(b"\\\"{}[],:0a \x01".to_vec())),
        ),
        0..6,
    )
}

static EMITTED: AtomicUsize = AtomicUsize::new(0);

/// Encodes `owned` as a response, decodes it back as `T`, and checks the view re-encodes to
/// the same bytes. The first cases are recorded for schema validation.
fn check_response<'a, T: FromJson<'a> + mcp_context::json::Encode>(
    json: &'a str,
    type_name: &str,
) -> T {
    let resp = mcp_context::jsonrpc::TypedResponse::<T>::decode(json.as_bytes())
        .unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(to_string(&resp).unwrap(), json);
    let n = EMITTED.fetch_add(1, Ordering::Relaxed);
    if n < 400 {
        common::emit(type_name, &format!("prop-{n}"), json.as_bytes());
    }
    resp.result
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn read_results_round_trip(id in id(), items in prop::collection::vec(contents(), 0..4), ttl in any::<u64>(), private in any::<bool>(), broken in edits()) {
        let scope = if private { CacheScope::Private } else { CacheScope::Public };
        let owned = OwnedResponse { id, result: OwnedReadResourceResult { contents: items.clone(), ..OwnedReadResourceResult::new(ttl, scope) } };
        let json = to_string(&owned).unwrap();
        same_into_broken!(m::Outcome<'_, m::ReadResourceResult<'_>>, json, items.len(), broken);
        let m::Outcome::Complete(r) = check_response::<m::Outcome<'_, m::ReadResourceResult<'_>>>(&json, "ReadResourceResultResponse") else { panic!() };
        prop_assert_eq!((r.ttl(), r.cache_scope, r.contents.len()), (ttl, Some(scope), items.len()));
        for (got, want) in r.contents.iter().zip(&items) {
            let want_uri = match want { OwnedResourceContents::Text { uri, .. } | OwnedResourceContents::Blob { uri, .. } => uri };
            prop_assert!(got.uri() == want_uri.as_str());
        }
    }

    #[test]
    fn list_results_round_trip(id in id(), items in prop::collection::vec(resource(), 0..5), cursor in proptest::option::of(text()), broken in edits()) {
        let result = OwnedListResourcesResult { items: items.clone(), next_cursor: cursor.clone(), server_info: Some(OwnedImplementation::new("s", "1")), ..OwnedListResult::new(1000, CacheScope::Public) };
        let json = to_string(&OwnedResponse { id, result }).unwrap();
        same_into_broken!(m::ListResourcesResult<'_>, json, items.len(), broken);
        let r = check_response::<m::ListResourcesResult<'_>>(&json, "ListResourcesResultResponse");
        prop_assert_eq!(r.next_cursor.map(|c| c.to_cow().into_owned()), cursor);
        for (got, want) in r.items.iter().zip(&items) {
            prop_assert!(got.name == want.name.as_str() && got.size == want.size);
            prop_assert_eq!(got.title.map(|t| t.to_cow().into_owned()), want.title.clone());
        }
    }

    #[test]
    fn prompt_results_round_trip(id in id(), messages in prop::collection::vec((any::<bool>(), block()), 0..4), description in proptest::option::of(text()), broken in edits()) {
        let messages: Vec<_> = messages.into_iter().map(|(user, content)| OwnedPromptMessage { role: if user { Role::User } else { Role::Assistant }, content }).collect();
        let result = OwnedGetPromptResult { description, messages: messages.clone(), server_info: None };
        let json = to_string(&OwnedResponse { id, result }).unwrap();
        same_into_broken!(m::Outcome<'_, m::GetPromptResult<'_>>, json, messages.len(), broken);
        let m::Outcome::Complete(r) = check_response::<m::Outcome<'_, m::GetPromptResult<'_>>>(&json, "GetPromptResultResponse") else { panic!() };
        prop_assert_eq!(r.messages.len(), messages.len());
    }

    #[test]
    fn discover_and_completion_round_trip(id in id(), versions in prop::collection::vec("[0-9]{4}-[0-9]{2}-[0-9]{2}", 1..3), candidates in prop::collection::vec(text(), 0..130)) {
        let discover = OwnedDiscoverResult {
            supported_versions: versions.clone(),
            capabilities: OwnedServerCapabilities { resources: Some(m::ResourcesCapability { subscribe: Some(true), list_changed: None }), completions: true, ..Default::default() },
            instructions: None, ttl_ms: 0, cache_scope: CacheScope::Public, server_info: None,
        };
        let json = to_string(&OwnedResponse { id: id.clone(), result: discover }).unwrap();
        let d = check_response::<m::DiscoverResult<'_>>(&json, "DiscoverResultResponse");
        prop_assert_eq!(d.supported_versions.len(), versions.len());
        let complete = OwnedCompleteResult::from_candidates(candidates.clone());
        let json = to_string(&OwnedResponse { id, result: complete }).unwrap();
        let c = check_response::<m::CompleteResult<'_>>(&json, "CompleteResultResponse");
        prop_assert_eq!((c.values.len(), c.total, c.has_more), (candidates.len().min(100), Some(candidates.len() as u64), Some(candidates.len() > 100)));
    }

    #[test]
    fn notifications_round_trip(sub in id(), uri in uri(), filter_uris in proptest::option::of(prop::collection::vec(uri(), 0..3))) {
        let ack = OwnedAcknowledged { subscription_id: sub.clone(), notifications: OwnedSubscriptionFilter { resources_list_changed: Some(true), resource_subscriptions: filter_uris, ..Default::default() } };
        let json = to_string(&ack).unwrap();
        let n = m::SubscriptionsAcknowledgedNotification::decode(json.as_bytes()).unwrap();
        prop_assert_eq!(n.params.meta.unwrap().subscription_id, Some(sub.as_ref()));
        prop_assert_eq!(to_string(&n).unwrap(), json.clone());
        common::emit("SubscriptionsAcknowledgedNotification", &format!("prop-{}", EMITTED.fetch_add(1, Ordering::Relaxed) % 64), json.as_bytes());
        let upd = OwnedResourceUpdated { subscription_id: Some(sub.clone()), uri };
        let json = to_string(&upd).unwrap();
        let n = m::ResourceUpdatedNotification::decode(json.as_bytes()).unwrap();
        prop_assert_eq!(n.params.meta.unwrap().subscription_id, Some(sub.as_ref()));
        common::emit("ResourceUpdatedNotification", &format!("prop-{}", EMITTED.fetch_add(1, Ordering::Relaxed) % 64), json.as_bytes());
    }

    #[test]
    fn requests_round_trip_without_alloc_types(id in any::<i64>(), uri in uri(), version in "[0-9-]{10}", state in proptest::option::of(text())) {
        // Built from borrowed views only (the no-alloc path), then decoded back.
        let mut params = m::ReadResourceParams::new(RequestMeta::new(&version, ClientCapabilities::EMPTY), &uri);
        params.request_state = state.as_deref().map(JsonStr::new);
        let req = m::ReadResourceRequest { id: RequestId::Int(id), params };
        let json = to_string(&req).unwrap();
        let back = m::ReadResourceRequest::decode(json.as_bytes()).unwrap();
        prop_assert_eq!(back.id, RequestId::Int(id));
        prop_assert!(back.params.uri == uri.as_str() && back.params.meta.protocol_version == version.as_str());
        prop_assert_eq!(back.params.is_retry(), state.is_some());
        prop_assert_eq!(to_string(&back).unwrap(), json.clone());
        common::emit("ReadResourceRequest", &format!("prop-{}", id.rem_euclid(64)), json.as_bytes());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..65536)) {
        decode_all::decode_all(&bytes);
    }

    #[test]
    fn json_token_soup_never_panics(s in "([\\[\\]{}:,]|\"(jsonrpc|id|method|params|result|error|_meta|uri|type|text|resultType|contents|2\\.0|resources/read|complete)\"|-?[0-9]{1,3}(\\.[0-9])?|true|null|\"\\\\u[0-9a-fA-F]{4}\"){0,64}") {
        decode_all::decode_all(s.as_bytes());
    }

    #[test]
    fn mutated_valid_messages_never_panic(pick in any::<prop::sample::Index>(), edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..8)) {
        let corpus = corpus();
        let mut bytes = corpus[pick.index(corpus.len())].clone();
        for (at, byte, op) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                2 if i < bytes.len() => { bytes.remove(i); }
                _ => bytes.truncate(i),
            }
        }
        decode_all::decode_all(&bytes);
    }
}

fn corpus() -> &'static Vec<Vec<u8>> {
    static CORPUS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/mcp");
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json") && !p.ends_with("schema.json")
                {
                    out.push(std::fs::read(&p).unwrap());
                }
            }
        }
        out.sort();
        out
    })
}

#[test]
fn every_corpus_message_decodes_somehow() {
    let corpus = corpus();
    assert!(corpus.len() >= 179, "{}", corpus.len());
    for bytes in corpus {
        assert!(
            decode_all::decode_all(bytes) > 0,
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
    let _ = RawJson::parse(b"{}");
}

/// Found by the `message_decode` fuzz target: an unknown method name with escapes was stored
/// as its escaped source and re-escaped on encode, so encode ∘ decode was not idempotent.
#[test]
fn unknown_method_with_escapes_re_encodes_unchanged() {
    let msg = br#"{"jsonrpc":"2.0","id":"l","method":"x/\\\"y\u00e9","params":{}}"#;
    decode_all::decode_all(msg);
    let m = mcp_context::jsonrpc::Message::decode(msg).unwrap();
    let mcp_context::jsonrpc::Message::Request(r) = m else {
        panic!()
    };
    assert!(matches!(
        r.method,
        mcp_context::jsonrpc::Method::UnknownEscaped(_)
    ));
    assert_eq!(
        mcp_context::json::to_string(&r).unwrap(),
        r#"{"jsonrpc":"2.0","id":"l","method":"x/\\\"yé","params":{}}"#
    );
}
