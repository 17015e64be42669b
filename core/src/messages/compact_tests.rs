//! The compact targets' struct decoders (`crate::WIDE`, the shared walk `common::members`)
//! against the wide ones: same values, same errors (kind and field), same cursor position.
//! Where the wide form is `FromJson::decode` itself, the default host run compares the two
//! (the `mcp_compact` run then checks the compact form against itself).

use std::format;
use std::string::String;
use std::vec::Vec;

use super::{Icon, Implementation, ReadResourceParams, RequestMeta, ResourceContents};
use crate::json::{Cursor, Limits};
use crate::jsonrpc::FromJson;

/// Runs `wide` and `compact` over each body and compares what they return and where the
/// cursor stops.
macro_rules! agree {
    ($bodies:expr, $wide:expr, $compact:expr) => {
        for body in $bodies.iter() {
            let (mut a, mut b) = (
                Cursor::new(body.as_bytes(), Limits::DEFAULT).unwrap(),
                Cursor::new(body.as_bytes(), Limits::DEFAULT).unwrap(),
            );
            let want = $wide(&mut a);
            assert_eq!($compact(&mut b), want, "{body}");
            assert_eq!(a.position(), b.position(), "{body}");
        }
    };
}

/// Bodies that break an object walk the same way for any decoder.
fn malformed(prefix: &str) -> Vec<String> {
    [
        String::from("[]"),
        String::from("\"x\""),
        String::from("{"),
        String::from("{\"a\" 1}"),
        String::from("{\"a\":1,}"),
        format!("{{{prefix}"),
        format!("{{{prefix},\"z\":[1,}}"),
    ]
    .into()
}

#[test]
fn request_meta_forms_agree() {
    let v = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#;
    let caps = r#""io.modelcontextprotocol/clientCapabilities":{}"#;
    let info = r#""io.modelcontextprotocol/clientInfo""#;
    let level = r#""io.modelcontextprotocol/logLevel""#;
    let mut bodies = Vec::from([
        format!("{{{v},{caps}}}"),
        format!("{{{caps},{v},\"x\":1}}"),
        format!("{{{v}}}"),
        format!("{{{caps}}}"),
        String::from("{}"),
        String::from("{\"traceparent\":\"a\"}"),
        format!("{{{v},{caps},{v}}}"),
        format!("{{{v},{caps},\"traceparent\":\"00-a\",\"tracestate\":\"k=v\",\"baggage\":\"b\"}}"),
        format!("{{{v},{caps},\"tracestate\":1}}"),
        format!("{{{v},{caps},\"baggage\":null}}"),
        format!("{{{v},{caps},\"traceparent\":\"a\",\"traceparent\":\"b\"}}"),
        format!("{{{v},{caps},\"progressToken\":7,{level}:\"info\"}}"),
        format!("{{{v},{caps},\"progressToken\":\"t\",\"progressToken\":1}}"),
        format!("{{{v},{caps},\"progressToken\":1.5}}"),
        format!("{{{v},{caps},{level}:\"loud\"}}"),
        format!("{{{v},{caps},{info}:{{\"name\":\"n\",\"version\":\"1\"}}}}"),
        format!("{{{v},{caps},{info}:{{\"name\":\"n\"}}}}"),
        format!("{{\"io.modelcontextprotocol/protocolVersion\":2,{caps}}}"),
        format!("{{\"io.modelcontextprotocol/protocolVersi\\u006fn\":\"v\",{caps}}}"),
        format!("{{{v},\"io.modelcontextprotocol/clientCapabilities\":[]}}"),
        format!("{{{v},\"io.modelcontextprotocol/clientCapabilities\":{{\"roots\":1}}}}"),
        format!("{{{v},{caps},\"traceparent\":\"\\u00e9\"}}"),
        format!("{{{v},{caps},\"tracestate\":\"unterminated}}"),
    ]);
    bodies.extend(malformed(v));
    agree!(
        &bodies,
        RequestMeta::decode_wide,
        RequestMeta::decode_compact
    );
}

#[test]
fn implementation_and_icon_forms_agree() {
    let mut bodies = Vec::from([
        String::from(r#"{"name":"n","version":"1"}"#),
        String::from(
            r#"{"version":"1","name":"n","title":"t","description":"d","websiteUrl":"w"}"#,
        ),
        String::from(r#"{"name":"n"}"#),
        String::from(r#"{"version":"1"}"#),
        String::from("{}"),
        String::from(r#"{"title":"t"}"#),
        String::from(r#"{"name":"n","version":"1","name":"m"}"#),
        String::from(r#"{"name":"n","version":1}"#),
        String::from(r#"{"name":"n","version":"1","title":null}"#),
        String::from(r#"{"name":"n","version":"1","x":{"y":[]},"websiteUrl":"w"}"#),
        String::from(r#"{"name":"n","version":"1","icons":[]}"#),
        String::from(r#"{"name":"n","version":"1","icons":[{"src":"a"}]}"#),
        String::from(
            r#"{"name":"n","version":"1","icons":[{"src":"a","sizes":["48x48"],"theme":"dark","mimeType":"image/png"}]}"#,
        ),
        String::from(r#"{"name":"n","version":"1","icons":[{"mimeType":"image/png"}]}"#),
        String::from(r#"{"name":"n","version":"1","icons":[{"src":"a","theme":"dim"}]}"#),
        String::from(r#"{"name":"n","version":"1","icons":[{"src":"a","sizes":[1]}]}"#),
        String::from(r#"{"name":"n","version":"1","icons":[{"src":"a","src":"b"}]}"#),
        String::from(r#"{"name":"n","version":"1","icons":{}}"#),
        String::from(r#"{"n\u0061me":"n","version":"1"}"#),
    ]);
    bodies.extend(malformed(r#""name":"n""#));
    agree!(
        &bodies,
        Implementation::decode_wide,
        Implementation::decode_compact
    );
    let icons: Vec<String> = [
        r#"{"src":"a"}"#,
        r#"{"src":"a","sizes":["any"],"theme":"light","mimeType":"m","x":1}"#,
        r#"{"theme":"light"}"#,
        r#"{"src":1}"#,
        r#"{"src":"a","theme":"light","theme":"dark"}"#,
        r#"{"src":"a","sizes":"48x48"}"#,
    ]
    .map(String::from)
    .into();
    agree!(&icons, Icon::decode_wide, Icon::decode_compact);
    agree!(
        &malformed(r#""src":"a""#),
        Icon::decode_wide,
        Icon::decode_compact
    );
}

#[test]
fn read_params_and_contents_forms_agree() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"v","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let mut bodies = Vec::from([
        format!("{{{meta},\"uri\":\"a://b\"}}"),
        format!("{{\"uri\":\"a://b\",{meta}}}"),
        String::from(r#"{"uri":"a://b"}"#),
        format!("{{{meta}}}"),
        String::from("{}"),
        String::from(r#"{"requestState":"s"}"#),
        format!("{{{meta},\"uri\":7}}"),
        format!("{{{meta},\"uri\":\"a\",\"uri\":\"b\"}}"),
        format!("{{{meta},\"uri\":\"a\",\"requestState\":\"s\"}}"),
        format!("{{{meta},\"uri\":\"a\",\"requestState\":[]}}"),
        format!("{{{meta},\"uri\":\"a\",\"inputResponses\":{{}}}}"),
        format!("{{{meta},\"uri\":\"a\",\"inputResponses\":[]}}"),
        format!("{{{meta},\"uri\":\"a\",\"inputResponses\":{{\"k\":1}}}}"),
        String::from(r#"{"_meta":{},"uri":"a"}"#),
        format!("{{{meta},\"ur\\u0069\":\"a\",\"other\":true}}"),
    ]);
    bodies.extend(malformed(meta));
    let mut contents: Vec<String> = [
        r#"{"uri":"a","text":"t"}"#,
        r#"{"uri":"a","blob":"YQ==","mimeType":"m","_meta":{"k":1}}"#,
        r#"{"text":"t"}"#,
        r#"{"text":"t","blob":"b"}"#,
        r#"{"mimeType":"m"}"#,
        r#"{}"#,
        r#"{"uri":"a","text":"t","blob":"b"}"#,
        r#"{"uri":"a","_meta":[]}"#,
        r#"{"uri":"a","text":1}"#,
        r#"{"uri":"a","text":"t","text":"u"}"#,
        r#"{"uri":"a","x":null,"mimeType":"m"}"#,
    ]
    .map(String::from)
    .into();
    contents.extend(malformed(r#""uri":"a""#));
    agree!(
        &contents,
        <ResourceContents<'_> as FromJson<'_>>::decode,
        ResourceContents::decode_compact
    );
    agree!(
        &bodies,
        <ReadResourceParams<'_> as FromJson<'_>>::decode,
        ReadResourceParams::decode_compact
    );
}
