//! The wide typed decoders (body kept outside `decode_top`) against the compact ones (body
//! moved through it): same values, same errors, for well-formed and broken messages.

use std::format;
use std::string::String;
use std::vec::Vec;

use crate::messages::{ReadResourceRequest, ResourceUpdatedNotification};

/// Messages around one method: members in either order, missing or broken params, other
/// kinds and methods, and malformed JSON before, inside and after the body.
fn messages(method: &str, params: &str, bad_params: &str) -> Vec<String> {
    let m = format!(r#""method":"{method}""#);
    let p = format!(r#""params":{params}"#);
    let bad = format!(r#""params":{bad_params}"#);
    let v = r#""jsonrpc":"2.0""#;
    [
        format!("{{{v},\"id\":1,{m},{p}}}"),
        format!("{{{v},{m},{p}}}"),
        format!("{{{p},{v},\"id\":\"a\",{m}}}"),
        format!("{{{p},{v},{m}}}"),
        format!("{{{v},\"id\":1,{m}}}"),
        format!("{{{v},{m}}}"),
        format!("{{{v},\"id\":1,{m},{bad}}}"),
        format!("{{{v},{m},{bad}}}"),
        format!("{{{bad},{v},\"id\":1,{m}}}"),
        format!("{{{v},\"id\":1,{m},{bad},\"x\":[1,}}"),
        format!("{{{v},\"id\":1,{m},{bad}}} x"),
        format!("{{{v},\"id\":1,{m},{p}}} x"),
        format!("{{{v},\"id\":1,{m},{p},\"x\":tru}}"),
        format!("{{{v},\"id\":1,\"method\":\"ping\",{p}}}"),
        format!("{{{v},\"method\":\"ping\",{p}}}"),
        format!("{{{v},\"id\":1,\"result\":{{}}}}"),
        format!("{{\"jsonrpc\":\"1.0\",\"id\":1,{m},{p}}}"),
        format!("{{{v},\"id\":1,{m},{p},{p}}}"),
        format!("{{{v},\"id\":null,{m},{p}}}"),
        String::from("[]"),
        String::from("{"),
    ]
    .into()
}

#[test]
fn request_forms_agree() {
    let meta = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let params = format!(r#"{{"_meta":{meta},"uri":"file:///a"}}"#);
    let mut seen_ok = 0;
    for bad in [
        format!(r#"{{"_meta":{meta}}}"#),
        String::from(r#"{"uri":"file:///a"}"#),
        format!(r#"{{"_meta":{meta},"uri":1}}"#),
        String::from("[]"),
    ] {
        for msg in messages("resources/read", &params, &bad) {
            let want = ReadResourceRequest::decode_compact(msg.as_bytes());
            seen_ok += usize::from(want.is_ok());
            assert_eq!(ReadResourceRequest::decode(msg.as_bytes()), want, "{msg}");
        }
    }
    assert!(seen_ok >= 4);
}

#[test]
fn notification_forms_agree() {
    let params = r#"{"uri":"file:///a","_meta":{"io.modelcontextprotocol/subscriptionId":3}}"#;
    let mut seen_ok = 0;
    for bad in [r#"{"_meta":{}}"#, r#"{"uri":true}"#, "7"] {
        for msg in messages("notifications/resources/updated", params, bad) {
            let want = ResourceUpdatedNotification::decode_compact(msg.as_bytes());
            seen_ok += usize::from(want.is_ok());
            assert_eq!(
                ResourceUpdatedNotification::decode(msg.as_bytes()),
                want,
                "{msg}"
            );
        }
    }
    assert!(seen_ok >= 2);
}
