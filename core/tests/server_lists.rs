//! Server machine: `resources/list`, `resources/templates/list`, `prompts/list`, pagination
//! and list cache hints (docs/rules.md §3–§6, §8; checklist §16.3, §16.4).

mod common;
mod server_harness;

use mcp_context::messages::owned::{OwnedPrompt, OwnedResource};
use mcp_context::server::Ctx;
use mcp_context::server::{CacheHint, Listed, PromptEntry, ResourceEntry, ServerConfig, StreamId};
use serde_json::{Value, json};
use server_harness::*;

fn with_resources(tag: &str, page_size: usize, uris: &[&str]) -> H {
    let config = ServerConfig {
        page_size,
        ..ServerConfig::default()
    };
    let mut h = H::with(tag, config);
    for u in uris {
        h.server
            .add_resource(ResourceEntry {
                resource: OwnedResource::new(*u, *u),
                contents: None,
                cache: None,
            })
            .unwrap();
    }
    h
}

/// Walks every page of `method`, returning the item names per page and the results.
fn walk(h: &mut H, ctx: Ctx, method: &str, key: &str) -> (Vec<Vec<String>>, Vec<Value>) {
    let mut pages = Vec::new();
    let mut results = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let v = only(&h.call(ctx, json!(1), method, params));
        let r = v["result"].clone();
        let names = r[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap().to_string())
            .collect();
        pages.push(names);
        results.push(r.clone());
        match r.get("nextCursor") {
            Some(Value::String(c)) => {
                assert!(!c.is_empty(), "cursors are never empty");
                cursor = Some(c.clone());
            }
            None => break,
            Some(other) => panic!("bad nextCursor {other}"),
        }
        assert!(pages.len() < 100);
    }
    (pages, results)
}

#[test]
fn resources_list_transcript() {
    let mut h = H::new("lists-res", catalogue(ServerConfig::default()));
    let v = h.ask("resources/list", json!({}));
    let r = &v["result"];
    let uris: Vec<_> = r["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["uri"].clone())
        .collect();
    assert_eq!(
        uris,
        [
            json!("notes://acme/index"),
            json!("test://static-binary"),
            json!("test://static-text")
        ]
    );
    assert_eq!(r["resources"][2]["mimeType"], "text/plain");
    assert!(r.get("nextCursor").is_none());
    assert_eq!(
        (r["ttlMs"].clone(), r["cacheScope"].clone()),
        (json!(60_000), json!("public"))
    );
}

#[test]
fn templates_and_prompts_list_transcripts() {
    let mut h = H::new("lists-tp", catalogue(ServerConfig::default()));
    let v = h.ask("resources/templates/list", json!({}));
    assert_eq!(
        v["result"]["resourceTemplates"],
        json!([{"uriTemplate": NOTE_TEMPLATE, "name": "note"}])
    );
    let v = h.ask("prompts/list", json!({}));
    let p = &v["result"]["prompts"][0];
    assert_eq!(p["name"], "review_note");
    assert_eq!(
        p["arguments"][0],
        json!({"name": "project", "required": true})
    );
    assert_eq!(v["result"]["cacheScope"], "public");
}

#[test]
fn pages_walk_every_item_once_in_key_order() {
    let uris: Vec<String> = (0..11).rev().map(|i| format!("test://r/{i:02}")).collect();
    let refs: Vec<&str> = uris.iter().map(String::as_str).collect();
    let mut h = with_resources("lists-walk", 4, &refs);
    let (pages, _) = walk(&mut h, STDIO, "resources/list", "resources");
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 3]);
    let all: Vec<String> = pages.concat();
    let mut sorted = uris.clone();
    sorted.sort();
    assert_eq!(all, sorted);
}

#[test]
fn lists_are_deterministic_whatever_the_registration_order() {
    let a = with_resources("lists-det-a", 3, &["x:1", "x:3", "x:2", "x:0"]);
    let b = with_resources("lists-det-b", 3, &["x:0", "x:2", "x:1", "x:3"]);
    let (mut a, mut b) = (a, b);
    assert_eq!(
        walk(&mut a, STDIO, "resources/list", "resources"),
        walk(&mut b, STDIO, "resources/list", "resources")
    );
}

#[test]
fn a_cursor_survives_changes_between_pages() {
    let mut h = with_resources("lists-keyset", 2, &["x:a", "x:b", "x:c", "x:d"]);
    let v = h.ask("resources/list", json!({}));
    let cursor = v["result"]["nextCursor"].as_str().unwrap().to_string();
    h.server.remove_resource("x:b");
    h.server
        .add_resource(ResourceEntry {
            resource: OwnedResource::new("x:bb", "x:bb"),
            ..Default::default()
        })
        .unwrap();
    let v = h.ask("resources/list", json!({"cursor": cursor}));
    let names: Vec<_> = v["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].clone())
        .collect();
    assert_eq!(names, [json!("x:bb"), json!("x:c")]);
}

#[test]
fn rule_20_invalid_cursor_is_32602() {
    let mut h = with_resources("lists-badcursor", 1, &["x:a", "x:b"]);
    let prompts_cursor = {
        let mut p = H::with(
            "lists-badcursor-p",
            ServerConfig {
                page_size: 1,
                ..Default::default()
            },
        );
        for n in ["a", "b"] {
            p.server
                .add_prompt(PromptEntry {
                    prompt: OwnedPrompt {
                        name: n.into(),
                        ..Default::default()
                    },
                    completions: vec![],
                })
                .unwrap();
        }
        p.ask("prompts/list", json!({}))["result"]["nextCursor"].clone()
    };
    for bad in [
        json!(""),
        json!("!!!"),
        json!("AQ"),
        prompts_cursor,
        json!("eyJwYWdlIjogMn0="),
    ] {
        let v = h.ask("resources/list", json!({"cursor": bad}));
        assert_eq!(error_code(&v), -32602, "{bad}");
        assert_eq!(v["error"]["message"], "Invalid cursor");
    }
    let v = h.ask("resources/list", json!({"cursor": 5}));
    assert_eq!(error_code(&v), -32602);
}

#[test]
fn rule_21_hints_on_every_list_from_configuration() {
    let config = ServerConfig {
        resources_list_cache: CacheHint::private(1),
        templates_list_cache: CacheHint::public(2),
        prompts_list_cache: CacheHint::public(0),
        ..ServerConfig::default()
    };
    let mut h = H::new("lists-hints", catalogue(config));
    for (method, ttl, scope) in [
        ("resources/list", 1, "private"),
        ("resources/templates/list", 2, "public"),
        ("prompts/list", 0, "public"),
    ] {
        let r = h.ask(method, json!({}))["result"].clone();
        assert_eq!(
            (r["ttlMs"].as_u64(), r["cacheScope"].as_str()),
            (Some(ttl), Some(scope)),
            "{method}"
        );
    }
}

fn filtered(tag: &str) -> H {
    let uris: Vec<String> = (0..9).map(|i| format!("test://r/{i}")).collect();
    let refs: Vec<&str> = uris.iter().map(String::as_str).collect();
    let mut h = with_resources(tag, 2, &refs);
    // auth 1 sees everything; others see even-numbered resources only.
    h.server.set_visibility(Box::new(|auth, item| match item {
        Listed::Resource(r) => auth == 1 || r.uri.ends_with(['0', '2', '4', '6', '8']),
        _ => true,
    }));
    h
}

#[test]
fn rule_17_lists_vary_by_auth_never_by_connection() {
    let mut h = filtered("lists-auth");
    let (admin, _) = walk(
        &mut h,
        Ctx::http(StreamId(1), 1),
        "resources/list",
        "resources",
    );
    let (guest, _) = walk(
        &mut h,
        Ctx::http(StreamId(2), 2),
        "resources/list",
        "resources",
    );
    assert_eq!(admin.concat().len(), 9);
    assert_eq!(
        guest.concat(),
        [
            "test://r/0",
            "test://r/2",
            "test://r/4",
            "test://r/6",
            "test://r/8"
        ]
    );
    // Same auth on another stream, or interleaved with other requests: the same list.
    let _ = h.ask("resources/read", json!({"uri": "test://r/1"}));
    let (again, _) = walk(
        &mut h,
        Ctx::http(StreamId(3), 2),
        "resources/list",
        "resources",
    );
    assert_eq!(again, guest);
    let (stdio, _) = walk(
        &mut h,
        Ctx { auth: 2, ..STDIO },
        "resources/list",
        "resources",
    );
    assert_eq!(stdio, guest);
}

#[test]
fn rule_22_same_scope_on_every_page() {
    let mut h = filtered("lists-scope");
    let (_, results) = walk(
        &mut h,
        Ctx::http(StreamId(1), 1),
        "resources/list",
        "resources",
    );
    assert!(results.len() > 2);
    assert!(
        results.iter().all(|r| r["cacheScope"] == "private"),
        "a filter makes lists private"
    );
    let mut plain = with_resources("lists-scope-plain", 1, &["x:1", "x:2", "x:3"]);
    let (_, results) = walk(&mut plain, STDIO, "resources/list", "resources");
    assert!(results.iter().all(|r| r["cacheScope"] == "public"));
}

#[test]
fn rule_29_hidden_items_are_not_found_whatever_the_scope() {
    let mut h = filtered("lists-hidden");
    let v = only(&h.call(
        Ctx::http(StreamId(5), 2),
        json!(1),
        "resources/read",
        json!({"uri": "test://r/1"}),
    ));
    assert_eq!(error_code(&v), -32602);
    assert_eq!(v["error"]["data"]["uri"], "test://r/1");
    let outs = h.call(
        Ctx::http(StreamId(6), 1),
        json!(1),
        "resources/read",
        json!({"uri": "test://r/1"}),
    );
    assert_eq!(
        events(&outs).len(),
        1,
        "visible to auth 1: the application is asked"
    );
}
