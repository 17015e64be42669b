//! Server machine: a read answered with its contents as JSON text (`ReadContents`,
//! `Server::respond_read_json`; docs/rules.md §14.2 item 2): the same checks and the same
//! bytes as the owned items.

mod common;
mod server_harness;

use mcp_context::messages::owned::{FromJsonText, OwnedResourceContents};
use mcp_context::server::{CacheHint, Event, ReadContents, ReadEvent, RespondError, ServerConfig};
use serde_json::json;
use server_harness::*;

fn asked(tag: &str) -> (H, ReadEvent) {
    let mut h = H::new(tag, catalogue(ServerConfig::default()));
    let outs = h.call(
        STDIO,
        json!("r1"),
        "resources/read",
        json!({"uri": "notes://acme/1"}),
    );
    match events(&outs).as_slice() {
        [Event::ReadResource(e)] => {
            let e = e.clone();
            (h, e)
        }
        other => panic!("expected one read event, got {other:?}"),
    }
}

fn answer_bytes(h: &mut H) -> Vec<u8> {
    let t = transmits(&h.drain());
    assert_eq!(t.len(), 1);
    t[0].bytes.to_vec()
}

const CONTENTS: &str = r#"[{"uri":"notes://acme/1","mimeType":"text/markdown","text":"caf\u00e9 é \"q\"\n✓ \ud83d\ude00"},
  {"uri":"notes://acme/1#b","blob":"AAEC+v8="}, {"uri":"notes://acme/1#e","text":""}]"#;

#[test]
fn json_contents_give_the_owned_answer_byte_for_byte() {
    for cache in [None, Some(CacheHint::public(42))] {
        let (mut a, ea) = asked("read-json-owned");
        let owned = Vec::<OwnedResourceContents>::from_json_text(CONTENTS).unwrap();
        match cache {
            Some(hint) => a.server.respond_read_cached(ea.handle, owned, hint),
            None => a.server.respond_read(ea.handle, owned),
        }
        .unwrap();
        let (mut b, eb) = asked("read-json-text");
        let contents = ReadContents::parse(CONTENTS).unwrap();
        assert_eq!(contents.len(), 3);
        b.server
            .respond_read_json(eb.handle, contents, cache)
            .unwrap();
        let (x, y) = (answer_bytes(&mut a), answer_bytes(&mut b));
        assert_eq!(String::from_utf8(x).unwrap(), String::from_utf8(y).unwrap());
        // Answered once: the handle is gone.
        let again = ReadContents::parse("[]").unwrap();
        assert_eq!(
            b.server.respond_read_json(eb.handle, again, None),
            Err(RespondError::UnknownHandle)
        );
    }
}

#[test]
fn json_contents_are_checked_like_the_owned_items() {
    let deep = format!(
        "[{{\"uri\":\"a:1\",\"text\":\"x\",\"_meta\":{}1{}}}]",
        "{\"k\":".repeat(200),
        "}".repeat(200)
    );
    for bad in [
        "",
        "[",
        "{}",
        r#"[{"uri":"a:1"}]"#,
        r#"[{"text":"x"}]"#,
        r#"[{"uri":"a:1","text":"x","blob":"AA=="}]"#,
        r#"[{"uri":"a:1","text":7}]"#,
        r#"[{"uri":1,"text":"x"}]"#,
        r#"[{"uri":"a:1","text":"x","_meta":[]}]"#,
        r#"[{"uri":"a:1","text":"x"}] []"#,
        r#"[{"uri":"a:1","text":"\ud800"}]"#,
        "[1]",
        deep.as_str(),
    ] {
        let owned = Vec::<OwnedResourceContents>::from_json_text(bad).map(drop);
        let text = ReadContents::parse(bad).map(drop);
        assert!(text.is_err(), "{bad:?} was accepted");
        assert_eq!(
            text.map_err(|e| e.error_code()),
            owned.map_err(|e| e.error_code()),
            "{bad:?}"
        );
    }
    // A refused text never reaches the machine: the read still waits for its answer.
    let (mut h, e) = asked("read-json-refused");
    assert!(ReadContents::parse(r#"[{"uri":"a:1"}]"#).is_err());
    assert_eq!(h.server.pending_requests(), 1);
    let ok = ReadContents::parse(r#"[{"uri":"notes://acme/1","text":"one"}]"#).unwrap();
    h.server.respond_read_json(e.handle, ok, None).unwrap();
    let v = only(&h.drain());
    assert_eq!(v["result"]["contents"][0]["text"], "one");
}
