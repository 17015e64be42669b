//! The decoder's shortcuts give what the plain paths give: a `Seq` read back through the
//! span its validation kept equals each item decoded on its own; known keys matched a word
//! at a time decode as their text does; and hostile spellings are still refused.

use mcp_context::json::{JsonStr, RawJson};
use mcp_context::jsonrpc::{FromJson, TypedResponse};
use mcp_context::messages::{
    ContentBlock, GetPromptResultResponse, ListResourcesResultResponse, Outcome,
    ReadResourceResult, ReadResourceResultResponse, ResourceContents, Seq,
};
use proptest::prelude::*;

/// Strings with escapes, quotes, control characters and long runs.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z \"\\\\\n\t\u{1}é😀]{0,300}",
        "[a-z]{0,40}",
    ]
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// `items` of `seq` as iterated, against the raw items decoded one by one (no span).
fn same_items<'a, T: FromJson<'a> + Copy + PartialEq + core::fmt::Debug>(seq: Seq<'a, T>) {
    let raw = seq.raw().expect("decoded");
    let alone: Vec<T> = raw
        .array()
        .unwrap()
        .map(|v| T::from_json(v).unwrap())
        .collect();
    let iterated: Vec<T> = seq.iter().collect();
    assert_eq!(iterated, alone);
    assert_eq!(iterated.len(), seq.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn read_contents_iterate_as_decoded_alone(texts in prop::collection::vec((text(), text()), 0..4), pad in "[ \n]{0,2}") {
        let items: Vec<String> = texts
            .iter()
            .map(|(uri, t)| format!("{{\"uri\":{}{pad},\"text\":{pad}{}}}", json(uri), json(t)))
            .collect();
        let msg = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"contents\":[{}],\"ttlMs\":5}}}}",
            items.join(&format!(",{pad}"))
        );
        let r = ReadResourceResultResponse::decode(msg.as_bytes()).unwrap();
        let Outcome::Complete(r) = r.result else { panic!() };
        same_items(r.contents);
        for (c, (uri, t)) in r.contents.iter().zip(&texts) {
            let ResourceContents::Text(c) = c else { panic!() };
            prop_assert!(c.uri == uri.as_str());
            prop_assert!(c.text == t.as_str());
            let mut scratch = vec![0u8; t.len()];
            prop_assert_eq!(c.text.unescape_into(&mut scratch).unwrap(), t.as_str());
        }
    }

    #[test]
    fn nested_seqs_iterate_as_decoded_alone(a in text(), b in text(), c in text()) {
        // A prompt whose embedded resource and audience sit inside the messages array.
        let msg = format!(
            concat!(
                "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"messages\":[",
                "{{\"role\":\"user\",\"content\":{{\"type\":\"text\",\"text\":{}}}}},",
                "{{\"role\":\"user\",\"content\":{{\"type\":\"resource\",\"resource\":{{\"uri\":\"x:\",\"text\":{}}},",
                "\"annotations\":{{\"audience\":[\"user\",\"assistant\"],\"lastModified\":{}}}}}}}]}}}}"
            ),
            json(&a), json(&b), json(&c)
        );
        let r = GetPromptResultResponse::decode(msg.as_bytes()).unwrap();
        let Outcome::Complete(r) = r.result else { panic!() };
        same_items(r.messages);
        let m: Vec<_> = r.messages.iter().collect();
        let ContentBlock::Text(t) = m[0].content else { panic!() };
        prop_assert!(t.text == a.as_str());
        let ContentBlock::Resource(e) = m[1].content else { panic!() };
        prop_assert!(e.resource.uri() == "x:");
        let ResourceContents::Text(body) = e.resource else { panic!() };
        prop_assert!(body.text == b.as_str());
        let ann = e.annotations.unwrap();
        prop_assert!(ann.last_modified.unwrap() == c.as_str());
        same_items(ann.audience.unwrap());
    }

    #[test]
    fn list_items_iterate_as_decoded_alone(names in prop::collection::vec((text(), text()), 0..6)) {
        let items: Vec<String> = names
            .iter()
            .map(|(u, n)| format!("{{\"uri\":{},\"name\":{},\"description\":{}}}", json(u), json(n), json(&format!("{u}{n}"))))
            .collect();
        let msg = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"resources\":[{}]}}}}",
            items.join(",")
        );
        let r = ListResourcesResultResponse::decode(msg.as_bytes()).unwrap();
        same_items(r.result.items);
        for (item, (u, n)) in r.result.items.iter().zip(&names) {
            prop_assert!(item.uri == u.as_str());
            prop_assert!(item.name == n.as_str());
        }
    }
}

/// A `Seq` decoded from a validated value (no span kept) iterates the same.
#[test]
fn seq_from_validated_value_iterates_the_same() {
    let body = r#"{"contents":[{"uri":"a","text":"long \"escaped\" text\nwith lines"},{"uri":"b","blob":"AA=="}]}"#;
    let from_raw = ReadResourceResult::from_json(RawJson::parse(body.as_bytes()).unwrap()).unwrap();
    let msg = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{body}}}"#);
    let from_bytes = TypedResponse::<ReadResourceResult<'_>>::decode(msg.as_bytes()).unwrap();
    let a: Vec<_> = from_raw.contents.iter().collect();
    let b: Vec<_> = from_bytes.result.contents.iter().collect();
    assert_eq!(a, b);
    assert_eq!(a.len(), 2);
}

/// Spellings of known keys that must still be refused or told apart.
#[test]
fn hostile_keys_are_still_refused() {
    let wrap =
        |item: &str| format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{item}]}}}}"#);
    for (item, code) in [
        // The same key twice, once escaped.
        (r#"{"uri":"a","ur\u0069":"b","text":""}"#, -32602),
        (r#"{"text":"","uri":"a","\u0074ext":"b"}"#, -32602),
        // A known name's prefix or extension is another key: `uri` is missing.
        (r#"{"ur":"a","text":""}"#, -32602),
        (r#"{"urix":"a","text":""}"#, -32602),
        (r#"{"uri\u0000":"a","text":""}"#, -32602),
        // Malformed JSON anywhere is -32700 first.
        ("{\"uri\":\"a\u{1}\",\"text\":\"\"}", -32700),
        (r#"{"uri":"a","text":"\x"}"#, -32700),
        (r#"{"uri":"a","text":"\ud800"}"#, -32700),
        (r#"{"uri":"a","mimeType"}"#, -32700),
    ] {
        let msg = wrap(item);
        let e = ReadResourceResultResponse::decode(msg.as_bytes()).unwrap_err();
        assert_eq!(e.error_code().code(), code, "{msg}");
    }
    // An escaped spelling of a known key is that key.
    let msg = wrap(r#"{"\u0075ri":"a","te\u0078t":"t"}"#);
    let r = ReadResourceResultResponse::decode(msg.as_bytes()).unwrap();
    let Outcome::Complete(r) = r.result else {
        panic!()
    };
    assert_eq!(
        r.contents.iter().next().map(|c| c.uri()),
        Some(JsonStr::new("a"))
    );
}

/// `size` and `ttlMs` read as plain digits give what the general number path gives.
#[test]
fn integer_fields_read_as_the_general_path_does() {
    for (lit, size) in [
        ("0", Ok(0)),
        ("-0", Ok(0)),
        ("7", Ok(7)),
        ("1024", Ok(1024)),
        ("1234567890123456789", Ok(1_234_567_890_123_456_789)),
        ("18446744073709551615", Ok(u64::MAX)),
        ("99999999999999999999", Ok(u64::MAX)),
        ("1e3", Ok(1000)),
        ("1.0", Ok(1)),
        ("10E-1", Ok(1)),
        ("1.5", Err(-32602)),
        ("-1", Err(-32602)),
        ("01", Err(-32700)),
        ("1.", Err(-32700)),
        ("1x", Err(-32700)),
        ("\"1\"", Err(-32602)),
    ] {
        for pad in ["", " "] {
            let msg = format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resources":[{{"uri":"a","name":"b","size":{pad}{lit}{pad}}}],"ttlMs":{pad}{lit}{pad}}}}}"#
            );
            let got = ListResourcesResultResponse::decode(msg.as_bytes())
                .map(|r| r.result.items.iter().next().and_then(|i| i.size))
                .map_err(|e| e.error_code().code());
            assert_eq!(got, size.map(Some), "{msg}");
        }
    }
    // A negative or fractional-but-integral ttlMs reads as the general path reads it.
    for (lit, ttl) in [("-5", 0), ("-0", 0), ("6e4", 60_000), ("42", 42), ("0", 0)] {
        let msg =
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"resources":[],"ttlMs":{lit}}}}}"#);
        let r = ListResourcesResultResponse::decode(msg.as_bytes()).unwrap();
        assert_eq!(r.result.ttl(), ttl, "{msg}");
    }
}

/// A content block decodes the same with its `type` first (one pass) or elsewhere.
#[test]
fn content_blocks_decode_the_same_wherever_the_tag_is() {
    let bodies = [
        (
            r#""text""#,
            r#""text":"hi \"there\"","annotations":{"priority":0.5}"#,
        ),
        (r#""image""#, r#""data":"AA==","mimeType":"image/png""#),
        (
            r#""audio""#,
            r#""data":"AA==","mimeType":"audio/wav","_meta":{"k":1}"#,
        ),
        (r#""resource_link""#, r#""uri":"x:","name":"n","size":3"#),
        (
            r#""resource""#,
            r#""resource":{"uri":"x:","text":"t\n"},"annotations":{"audience":["user"]}"#,
        ),
        (r#""t\u0065xt""#, r#""text":"escaped tag""#),
    ];
    for (tag, rest) in bodies {
        let first = format!(r#"{{"type":{tag},{rest}}}"#);
        let last = format!(r#"{{{rest},"type":{tag}}}"#);
        let a = ContentBlock::from_json(RawJson::parse(first.as_bytes()).unwrap());
        let b = ContentBlock::from_json(RawJson::parse(last.as_bytes()).unwrap());
        assert!(a.is_ok(), "{first}");
        assert_eq!(a, b, "{first}");
        let msg = |block: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"messages":[{{"role":"user","content":{block}}}]}}}}"#
            )
        };
        let (ma, mb) = (msg(&first), msg(&last));
        let pa = GetPromptResultResponse::decode(ma.as_bytes()).unwrap();
        let pb = GetPromptResultResponse::decode(mb.as_bytes()).unwrap();
        let (Outcome::Complete(pa), Outcome::Complete(pb)) = (pa.result, pb.result) else {
            panic!()
        };
        let (ca, cb) = (
            pa.messages.iter().next().unwrap(),
            pb.messages.iter().next().unwrap(),
        );
        assert_eq!(ca.content, cb.content, "{first}");
    }
    // Errors are the same too: a wrong member for the tag, an unknown tag, a repeated
    // known member; a repeated tag is still accepted, as before.
    for (block, ok) in [
        (r#"{"type":"image","text":"a"}"#, false),
        (r#"{"type":"video","data":"a"}"#, false),
        (r#"{"type":5,"text":"a"}"#, false),
        (r#"{"type":"text","text":"a","text":"b"}"#, false),
        (r#"{"type":"text","type":"text","text":"a"}"#, true),
    ] {
        let got = ContentBlock::from_json(RawJson::parse(block.as_bytes()).unwrap());
        assert_eq!(got.is_ok(), ok, "{block}");
        let msg = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"messages":[{{"role":"user","content":{block}}}]}}}}"#
        );
        let one_pass = GetPromptResultResponse::decode(msg.as_bytes());
        assert_eq!(one_pass.is_ok(), ok, "{msg}");
        if let (Err(a), Err(b)) = (&got, &one_pass) {
            assert_eq!(a.error_code(), b.error_code(), "{block}");
        }
    }
}
