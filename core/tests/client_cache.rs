//! Cache integration (docs/rules.md §4, §16.4): hits, expiry, authorization scopes, invalidation.

mod client_harness;

use client_harness::Pair;
use mcp_context::auth::{AuthConfig, Authorizer, Tokens};
use mcp_context::cache::AuthContext;
use mcp_context::client::{CachePolicy, Event, ListMode};
use mcp_context::messages::CacheScope;
use mcp_context::messages::owned::{
    OwnedListResourcesResult, OwnedReadResourceResult, OwnedResource, OwnedResourceContents,
};
use serde_json::json;

const CACHE: CachePolicy = CachePolicy::PreferCache;

fn read_result(uri: &str, body: &str, ttl: u64, scope: CacheScope) -> OwnedReadResourceResult {
    OwnedReadResourceResult {
        contents: vec![OwnedResourceContents::text(uri, None, body)],
        ..OwnedReadResourceResult::new(ttl, scope)
    }
}

/// Reads `uri` through the server, answering with `body`.
fn fetch(p: &mut Pair, uri: &str, body: &str, ttl: u64, scope: CacheScope) {
    p.client.read_resource(uri, CACHE, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer(req.id(), read_result(uri, body, ttl, scope));
    let Event::ResourceRead { reply, .. } = p.one_event() else {
        panic!()
    };
    assert!(!reply.from_cache());
}

/// A read that the cache answers, or `None` when a request went out (answered with `None`).
fn try_cached(p: &mut Pair, uri: &str) -> Option<String> {
    p.client.read_resource(uri, CACHE, p.now);
    p.drain();
    let sent = p.take_sent();
    if let [req] = sent.as_slice() {
        p.error(req.id(), -32603, "test: no answer", None);
        p.take_events();
        return None;
    }
    let Event::ResourceRead { reply, .. } = p.one_event() else {
        panic!()
    };
    assert!(reply.from_cache());
    let v = reply.view().unwrap();
    let Some(mcp_context::messages::ResourceContents::Text(t)) = v.contents.iter().next() else {
        panic!()
    };
    Some(t.text.to_string())
}

#[test]
fn fresh_results_are_served_until_the_ttl_runs_out() {
    let mut p = Pair::modern("cache-ttl");
    fetch(&mut p, "file:///a", "v1", 1_000, CacheScope::Public);
    p.now += 999;
    assert_eq!(try_cached(&mut p, "file:///a").as_deref(), Some("v1"));
    assert_eq!(
        p.client
            .read_cached("file:///a", p.now)
            .map(|r| r.from_cache()),
        Some(true)
    );
    p.now += 1;
    assert_eq!(
        try_cached(&mut p, "file:///a"),
        None,
        "fresh while now < received + ttlMs"
    );
    assert!(p.client.read_cached("file:///a", p.now).is_none());
}

#[test]
fn ttl_zero_and_refresh_are_never_served_from_cache() {
    let mut p = Pair::modern("cache-zero");
    fetch(&mut p, "file:///z", "v1", 0, CacheScope::Public);
    assert_eq!(try_cached(&mut p, "file:///z"), None);
    fetch(&mut p, "file:///r", "v1", 60_000, CacheScope::Public);
    p.client
        .read_resource("file:///r", CachePolicy::Refresh, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer(
        req.id(),
        read_result("file:///r", "v2", 60_000, CacheScope::Public),
    );
    p.take_events();
    assert_eq!(
        try_cached(&mut p, "file:///r").as_deref(),
        Some("v2"),
        "a refresh updates the cache"
    );
}

#[test]
fn private_results_stay_with_their_authorization_context() {
    let mut p = Pair::modern("cache-auth");
    p.client.set_auth_context(Some(AuthContext(1)));
    fetch(&mut p, "file:///me", "alice", 60_000, CacheScope::Private);
    fetch(
        &mut p,
        "file:///pub",
        "everyone",
        60_000,
        CacheScope::Public,
    );
    p.client.set_auth_context(Some(AuthContext(2)));
    assert_eq!(
        try_cached(&mut p, "file:///me"),
        None,
        "private is never shared across contexts"
    );
    assert!(p.client.read_cached("file:///me", p.now).is_none());
    assert_eq!(
        try_cached(&mut p, "file:///pub").as_deref(),
        Some("everyone")
    );
    p.client.set_auth_context(None);
    assert_eq!(try_cached(&mut p, "file:///me"), None);
    p.client.set_auth_context(Some(AuthContext(1)));
    assert_eq!(try_cached(&mut p, "file:///me").as_deref(), Some("alice"));
}

#[test]
fn private_results_stay_with_the_authorizers_grant() {
    let tokens = |access: &str| Tokens {
        issuer: "https://as.example".into(),
        resource: "https://mcp.example/mcp".into(),
        access_token: access.into(),
        refresh_token: None,
        expires_at_ms: None,
        scope: None,
    };
    let mut a = Authorizer::new(AuthConfig::new(
        "https://mcp.example/mcp",
        "http://127.0.0.1:5000/callback",
        "cache-grant",
    ))
    .unwrap();
    let mut p = Pair::modern("cache-grant");
    assert!(a.restore(tokens("alice-token")));
    p.client.set_auth_context(a.auth_context());
    fetch(&mut p, "file:///me", "alice", 60_000, CacheScope::Private);
    assert!(a.restore(tokens("bob-token")));
    p.client.set_auth_context(a.auth_context());
    assert_eq!(
        try_cached(&mut p, "file:///me"),
        None,
        "bob never sees alice's"
    );
}

#[test]
fn results_are_cached_for_the_context_they_were_requested_under() {
    let mut p = Pair::modern("cache-auth-switch");
    p.client.set_auth_context(Some(AuthContext(1)));
    p.client.read_resource("file:///me", CACHE, p.now);
    p.drain();
    let req = p.one_sent();
    // The context changes while the request is in flight.
    p.client.set_auth_context(Some(AuthContext(2)));
    p.answer(
        req.id(),
        read_result("file:///me", "alice", 60_000, CacheScope::Private),
    );
    p.take_events();
    assert_eq!(try_cached(&mut p, "file:///me"), None);
    p.client.set_auth_context(Some(AuthContext(1)));
    assert_eq!(try_cached(&mut p, "file:///me").as_deref(), Some("alice"));
}

#[test]
fn a_request_answered_under_new_credentials_is_cached_for_them() {
    let mut p = Pair::modern("cache-auth-answered");
    p.client.set_auth_context(None);
    p.client.read_resource("file:///me", CACHE, p.now);
    p.drain();
    let req = p.one_sent();
    // A 401 ran an authorization; the request went again with the new grant's token.
    p.client
        .set_request_auth_context(req.id(), Some(AuthContext(7)));
    p.answer(
        req.id(),
        read_result("file:///me", "alice", 60_000, CacheScope::Private),
    );
    p.take_events();
    assert_eq!(
        try_cached(&mut p, "file:///me"),
        None,
        "not for the anonymous"
    );
    p.client.set_auth_context(Some(AuthContext(7)));
    assert_eq!(try_cached(&mut p, "file:///me").as_deref(), Some("alice"));
}

#[test]
fn change_notifications_invalidate() {
    let mut p = Pair::modern("cache-invalidate");
    fetch(&mut p, "file:///dir", "listing", 60_000, CacheScope::Public);
    fetch(&mut p, "file:///other", "x", 60_000, CacheScope::Public);
    p.feed_json(
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                       "params": {"uri": "file:///dir/sub.txt"}}),
    );
    p.take_events();
    assert_eq!(
        try_cached(&mut p, "file:///dir"),
        None,
        "a sub-resource update invalidates"
    );
    assert_eq!(try_cached(&mut p, "file:///other").as_deref(), Some("x"));

    p.client.list_resources(ListMode::Page(None), CACHE, p.now);
    p.drain();
    let req = p.one_sent();
    p.answer(
        req.id(),
        OwnedListResourcesResult {
            items: vec![OwnedResource::new("file:///a", "a")],
            ..OwnedListResourcesResult::new(60_000, CacheScope::Public)
        },
    );
    p.take_events();
    p.client.list_resources(ListMode::Page(None), CACHE, p.now);
    p.drain();
    assert!(p.take_sent().is_empty(), "served from cache");
    p.take_events();
    p.feed_json(json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"}));
    p.take_events();
    p.client.list_resources(ListMode::Page(None), CACHE, p.now);
    p.drain();
    assert_eq!(p.one_sent().method(), "resources/list");
}

fn list_page(uris: &[&str], next: Option<&str>) -> OwnedListResourcesResult {
    OwnedListResourcesResult {
        items: uris.iter().map(|u| OwnedResource::new(*u, *u)).collect(),
        next_cursor: next.map(String::from),
        ..OwnedListResourcesResult::new(60_000, CacheScope::Private)
    }
}

#[test]
fn aggregated_lists_reuse_fresh_pages_and_a_rejected_cursor_drops_them() {
    let mut p = Pair::modern("cache-pages");
    p.client.list_resources(ListMode::All, CACHE, p.now);
    p.drain();
    let a = p.one_sent();
    p.answer(a.id(), list_page(&["file:///1"], Some("c2")));
    let b = p.one_sent();
    p.answer(b.id(), list_page(&["file:///2"], None));
    p.take_events();

    // Both pages are fresh: the whole walk is answered from the cache.
    p.client.list_resources(ListMode::All, CACHE, p.now);
    p.drain();
    assert!(p.take_sent().is_empty());
    let Event::ResourcesListed { listing, .. } = p.one_event() else {
        panic!()
    };
    assert_eq!(listing.pages.len(), 2);
    assert!(listing.pages.iter().all(|pg| pg.from_cache()));

    // The server rejects the cursor: every cached page of that list goes.
    p.client.list_resources(
        ListMode::Page(Some("c2".into())),
        CachePolicy::Refresh,
        p.now,
    );
    p.drain();
    let req = p.one_sent();
    p.error(req.id(), -32602, "Invalid cursor", None);
    p.take_events();
    p.client.list_resources(ListMode::Page(None), CACHE, p.now);
    p.drain();
    assert_eq!(p.one_sent().method(), "resources/list");
}

#[test]
fn caching_can_be_disabled() {
    let mut config = Pair::config();
    config.cache = None;
    let mut p = Pair::modern_with("cache-off", config, client_harness::full_capabilities());
    fetch(&mut p, "file:///a", "v1", 60_000, CacheScope::Public);
    assert_eq!(try_cached(&mut p, "file:///a"), None);
}
