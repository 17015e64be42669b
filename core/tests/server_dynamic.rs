//! Server machine: the host's own `resources/list` pages after the registered ones
//! (`ServerConfig::dynamic_resources`), and which cache hint a read carries when a URI is
//! registered, matched by a template, or both (docs/server-machine.md §Registries and lists,
//! §Cache hints).

mod common;
mod server_harness;

use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents, OwnedResourceTemplate};
use mcp_context::server::{
    CacheHint, Event, Failure, Handle, ListEvent, Listed, Output, ReadTarget, ResourceEntry,
    RespondError, Server, ServerConfig, TemplateEntry,
};
use serde_json::{Value, json};
use server_harness::*;

fn dynamic(page_size: usize, registered: &[&str]) -> Server {
    let mut s = Server::new(ServerConfig {
        dynamic_resources: true,
        page_size,
        ..ServerConfig::default()
    })
    .unwrap();
    for uri in registered {
        s.add_resource(ResourceEntry {
            resource: OwnedResource::new(*uri, *uri),
            contents: None,
            cache: None,
        })
        .unwrap();
    }
    s
}

fn list_event(outs: &[Output]) -> ListEvent {
    match events(outs).as_slice() {
        [Event::ListResources(e)] => e.clone(),
        other => panic!("expected one list event, got {other:?}"),
    }
}

fn uris(v: &Value) -> Vec<String> {
    v["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_string())
        .collect()
}

fn list(h: &mut H, cursor: Option<&Value>) -> Vec<Output> {
    let params = match cursor {
        Some(c) => json!({"cursor": c}),
        None => json!({}),
    };
    h.call(STDIO, json!(1), "resources/list", params)
}

fn res(uri: &str) -> OwnedResource {
    OwnedResource::new(uri, uri)
}

#[test]
fn registered_resources_first_then_the_hosts_pages() {
    let mut h = H::new("dyn-merge", dynamic(2, &["a://3", "a://1", "a://2"]));
    let p1 = only(&list(&mut h, None));
    assert_eq!(uris(&p1), ["a://1", "a://2"]);
    // The last registered page has room left: it merges the host's first page.
    let outs = list(&mut h, Some(&p1["result"]["nextCursor"]));
    assert!(transmits(&outs).is_empty());
    let e = list_event(&outs);
    assert_eq!((e.cursor.as_deref(), e.auth, e.progress), (None, 0, false));
    // A host item with a registered URI is dropped (listed already).
    h.server
        .respond_list(
            e.handle,
            vec![res("h://1"), res("a://2"), res("h://2")],
            Some("host-page-2".into()),
        )
        .unwrap();
    let p2 = only(&h.drain());
    assert_eq!(uris(&p2), ["a://3", "h://1", "h://2"]);
    assert_eq!(p2["result"]["ttlMs"], 60_000);
    assert_eq!(p2["result"]["cacheScope"], "public");
    let next = p2["result"]["nextCursor"].clone();
    assert!(!next.as_str().unwrap().contains("host-page-2"), "opaque");
    // The host gets back exactly its own cursor.
    let e = list_event(&list(&mut h, Some(&next)));
    assert_eq!(e.cursor.as_deref(), Some("host-page-2"));
    h.server
        .respond_list(e.handle, vec![res("h://3")], None)
        .unwrap();
    let p3 = only(&h.drain());
    assert_eq!(uris(&p3), ["h://3"]);
    assert!(p3["result"].get("nextCursor").is_none());
    // The same cursor gives the same request to the host again (deterministic).
    let e = list_event(&list(&mut h, Some(&next)));
    assert_eq!(e.cursor.as_deref(), Some("host-page-2"));
}

#[test]
fn one_registered_and_the_hosts_first_page_in_one_answer() {
    let mut h = H::new("dyn-one", dynamic(50, &["a://1"]));
    let e = list_event(&list(&mut h, None));
    assert_eq!(e.cursor, None);
    let items = (1..=5).map(|i| res(&format!("h://{i}"))).collect();
    h.server.respond_list(e.handle, items, None).unwrap();
    let v = only(&h.drain());
    assert_eq!(
        uris(&v),
        ["a://1", "h://1", "h://2", "h://3", "h://4", "h://5"]
    );
    assert!(v["result"].get("nextCursor").is_none());
    assert_eq!(v["result"]["ttlMs"], 60_000);
}

#[test]
fn registered_filling_a_page_exactly_carries_the_cursor() {
    let mut h = H::new("dyn-exact", dynamic(2, &["a://1", "a://2"]));
    let p1 = only(&list(&mut h, None));
    assert_eq!(uris(&p1), ["a://1", "a://2"]);
    let e = list_event(&list(&mut h, Some(&p1["result"]["nextCursor"])));
    assert_eq!(e.cursor, None);
    h.server
        .respond_list(e.handle, vec![res("a://1"), res("h://1")], Some("n".into()))
        .unwrap();
    let p2 = only(&h.drain());
    // Host phase alone: the registered duplicate is dropped, nothing registered repeats.
    assert_eq!(uris(&p2), ["h://1"]);
    assert!(p2["result"]["nextCursor"].is_string());
}

#[test]
fn an_empty_last_host_page_leaves_the_registered_tail_alone() {
    let mut h = H::new(
        "dyn-tail",
        dynamic(3, &["a://1", "a://2", "a://3", "a://4"]),
    );
    let p1 = only(&list(&mut h, None));
    assert_eq!(uris(&p1), ["a://1", "a://2", "a://3"]);
    let e = list_event(&list(&mut h, Some(&p1["result"]["nextCursor"])));
    h.server.respond_list(e.handle, vec![], None).unwrap();
    let p2 = only(&h.drain());
    assert_eq!(uris(&p2), ["a://4"]);
    assert!(p2["result"].get("nextCursor").is_none());
}

#[test]
fn the_tail_is_reread_when_the_host_answers() {
    let mut h = H::new("dyn-changed", dynamic(3, &["a://1"]));
    let e = list_event(&list(&mut h, None));
    // Registered meanwhile: still one valid page of the current set.
    h.server
        .add_resource(ResourceEntry {
            resource: res("a://0"),
            contents: None,
            cache: None,
        })
        .unwrap();
    h.server
        .respond_list(e.handle, vec![res("h://1"), res("a://0")], None)
        .unwrap();
    assert_eq!(uris(&only(&h.drain())), ["a://0", "a://1", "h://1"]);
    // Grown past a page: the registered page alone, with its key cursor.
    let e = list_event(&list(&mut h, None));
    for uri in ["a://2", "a://3"] {
        h.server
            .add_resource(ResourceEntry {
                resource: res(uri),
                contents: None,
                cache: None,
            })
            .unwrap();
    }
    h.server
        .respond_list(e.handle, vec![res("h://1")], None)
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(uris(&v), ["a://0", "a://1", "a://2"]);
    let e = list_event(&list(&mut h, Some(&v["result"]["nextCursor"])));
    h.server
        .respond_list(e.handle, vec![res("h://1")], None)
        .unwrap();
    assert_eq!(uris(&only(&h.drain())), ["a://3", "h://1"]);
}

#[test]
fn with_nothing_registered_the_first_page_is_the_hosts() {
    let mut h = H::new("dyn-empty", dynamic(50, &[]));
    let d = h.ask("server/discover", json!({}));
    assert!(d["result"]["capabilities"]["resources"].is_object());
    let e = list_event(&list(&mut h, None));
    assert_eq!(e.cursor, None);
    h.server.respond_list(e.handle, vec![], None).unwrap();
    let v = only(&h.drain());
    assert_eq!(uris(&v), Vec::<String>::new());
    assert!(v["result"].get("nextCursor").is_none());
    // Reads of URIs it lists go to the host.
    let outs = h.call(STDIO, json!(2), "resources/read", json!({"uri": "h://9"}));
    match events(&outs).as_slice() {
        [Event::ReadResource(r)] => assert_eq!(r.target, ReadTarget::Unlisted),
        other => panic!("{other:?}"),
    }
}

#[test]
fn cursors_are_checked_and_answers_must_fit() {
    let mut h = H::new("dyn-refused", dynamic(1, &["a://1", "a://2"]));
    let v = only(&list(&mut h, Some(&json!("not-a-cursor"))));
    assert_eq!(error_code(&v), -32602);
    let p1 = only(&list(&mut h, None));
    // A resources cursor is not a prompts cursor.
    let v = h.ask(
        "prompts/list",
        json!({"cursor": p1["result"]["nextCursor"]}),
    );
    assert_eq!(error_code(&v), -32601, "no prompts served");
    let p2 = only(&list(&mut h, Some(&p1["result"]["nextCursor"])));
    let host_start = p2["result"]["nextCursor"].clone();
    let e = list_event(&list(&mut h, Some(&host_start)));
    let r = h
        .server
        .respond_list(e.handle, vec![res("no scheme")], None);
    assert_eq!(r, Err(RespondError::InvalidResult));
    // A refused answer ends the request with -32603 (docs/rules.md §20.4 rule 5).
    assert_eq!(error_code(&only(&h.drain())), -32603);
    let e = list_event(&list(&mut h, Some(&host_start)));
    let text = OwnedResourceContents::text("a://1", None, "x");
    assert_eq!(
        h.server.respond_read(e.handle, vec![text]),
        Err(RespondError::WrongKind)
    );
    assert_eq!(error_code(&only(&h.drain())), -32603);
    // The host's cursor expired: -32602 "Invalid cursor".
    let e = list_event(&list(&mut h, Some(&host_start)));
    h.server.fail(e.handle, Failure::NotFound).unwrap();
    let v = only(&h.drain());
    assert_eq!(
        (error_code(&v), v["error"]["message"].as_str()),
        (-32602, Some("Invalid cursor"))
    );
    // A host-phase cursor means nothing to a server without dynamic resources.
    let mut plain = H::new("dyn-plain", catalogue(ServerConfig::default()));
    let v = plain.ask("resources/list", json!({"cursor": host_start}));
    assert_eq!(error_code(&v), -32602);
}

#[test]
fn visibility_applies_to_host_items_and_makes_pages_private() {
    let mut s = dynamic(50, &[]);
    s.set_visibility(Box::new(|auth, item| match item {
        Listed::Resource(r) => auth == 1 || !r.uri.starts_with("secret:"),
        _ => true,
    }));
    let mut h = H::new("dyn-visibility", s);
    for (auth, expect) in [(0u64, vec!["open:1"]), (1, vec!["open:1", "secret:1"])] {
        let ctx = mcp_context::server::Ctx { auth, ..STDIO };
        let outs = h.call(ctx, json!(1), "resources/list", json!({}));
        let e = list_event(&outs);
        assert_eq!(e.auth, auth);
        h.server
            .respond_list(e.handle, vec![res("open:1"), res("secret:1")], None)
            .unwrap();
        let v = only(&h.drain());
        assert_eq!(uris(&v), expect);
        assert_eq!(v["result"]["cacheScope"], "private");
    }
}

fn read_hint(h: &mut H, uri: &str) -> (u64, String) {
    let outs = h.call(STDIO, json!(1), "resources/read", json!({"uri": uri}));
    let handle: Handle = match events(&outs).as_slice() {
        [Event::ReadResource(r)] => r.handle,
        [] => {
            let v = only(&outs);
            let r = &v["result"];
            return (
                r["ttlMs"].as_u64().unwrap(),
                r["cacheScope"].as_str().unwrap().into(),
            );
        }
        other => panic!("{other:?}"),
    };
    let text = OwnedResourceContents::text(uri, None, "x");
    h.server.respond_read(handle, vec![text]).unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    (
        r["ttlMs"].as_u64().unwrap(),
        r["cacheScope"].as_str().unwrap().into(),
    )
}

#[test]
fn which_hint_a_read_carries() {
    let mut s = Server::new(ServerConfig::default()).unwrap();
    s.add_template(TemplateEntry {
        template: OwnedResourceTemplate::new("kb://articles/{id}", "article"),
        cache: Some(CacheHint::public(60_000)),
        completions: vec![],
    })
    .unwrap();
    // Registered with its own hint: the resource's hint wins (more specific).
    s.add_resource(ResourceEntry {
        resource: res("kb://articles/own"),
        contents: None,
        cache: Some(CacheHint::private(5)),
    })
    .unwrap();
    // Registered without a hint (listed, answered by the host): the template's.
    s.add_resource(ResourceEntry {
        resource: res("kb://articles/listed"),
        contents: None,
        cache: None,
    })
    .unwrap();
    // Registered with stored contents and no hint: the template's too.
    s.add_resource(ResourceEntry {
        resource: res("kb://articles/stored"),
        contents: Some(vec![OwnedResourceContents::text(
            "kb://articles/stored",
            None,
            "s",
        )]),
        cache: None,
    })
    .unwrap();
    // Registered outside any template, no hint: the configured default.
    s.add_resource(ResourceEntry {
        resource: res("kb://about"),
        contents: None,
        cache: None,
    })
    .unwrap();
    let mut h = H::new("dyn-hints", s);
    assert_eq!(
        read_hint(&mut h, "kb://articles/own"),
        (5, "private".into())
    );
    assert_eq!(
        read_hint(&mut h, "kb://articles/listed"),
        (60_000, "public".into())
    );
    assert_eq!(
        read_hint(&mut h, "kb://articles/stored"),
        (60_000, "public".into())
    );
    assert_eq!(
        read_hint(&mut h, "kb://articles/42"),
        (60_000, "public".into())
    );
    assert_eq!(read_hint(&mut h, "kb://about"), (0, "private".into()));
}

#[test]
fn turned_on_later_and_off_again() {
    let mut s = Server::new(ServerConfig::default()).unwrap();
    s.add_resource(ResourceEntry {
        resource: res("a://1"),
        contents: None,
        cache: None,
    })
    .unwrap();
    let mut h = H::new("dyn-toggle", s);
    // Off: one page, no cursor into a host phase.
    let p = only(&list(&mut h, None));
    assert_eq!(uris(&p), ["a://1"]);
    assert!(p["result"].get("nextCursor").is_none());
    // On: the registered page merges the host's first page.
    h.server.set_dynamic_resources(true);
    let e = list_event(&list(&mut h, None));
    h.server
        .respond_list(e.handle, vec![res("h://1")], Some("more".into()))
        .unwrap();
    let p = only(&h.drain());
    assert_eq!(uris(&p), ["a://1", "h://1"]);
    let cursor = p["result"]["nextCursor"].clone();
    // Off again: the host-phase cursor is refused.
    h.server.set_dynamic_resources(false);
    let err = only(&list(&mut h, Some(&cursor)));
    assert_eq!(err["error"]["code"], -32602);
}
