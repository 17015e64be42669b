//! `Client::forget_read`: a host-side no-store policy drops a read result the server's hints
//! let the cache keep (docs/rules.md §4: the hints bound what a client may keep, never force it).

mod client_harness;

use client_harness::Pair;
use mcp_context::cache::AuthContext;
use mcp_context::client::{CachePolicy, Event};
use mcp_context::messages::CacheScope;
use mcp_context::messages::owned::{OwnedReadResourceResult, OwnedResourceContents};

fn read(p: &mut Pair, uri: &str, scope: CacheScope) -> bool {
    p.client.read_resource(uri, CachePolicy::PreferCache, p.now);
    p.drain();
    let sent = p.take_sent();
    if let [req] = sent.as_slice() {
        let result = OwnedReadResourceResult {
            contents: vec![OwnedResourceContents::text(uri, None, "secret")],
            ..OwnedReadResourceResult::new(60_000, scope)
        };
        p.answer(req.id(), result);
    }
    let Event::ResourceRead { reply, .. } = p.one_event() else {
        panic!("no read result")
    };
    reply.from_cache()
}

#[test]
fn forget_read_drops_the_entry_in_every_context() {
    let mut p = Pair::modern("forget");
    p.client.set_auth_context(Some(AuthContext(1)));
    assert!(!read(&mut p, "notes://payroll", CacheScope::Private));
    assert!(read(&mut p, "notes://payroll", CacheScope::Private)); // the hints allowed it
    p.client.set_auth_context(Some(AuthContext(2)));
    assert!(!read(&mut p, "notes://payroll", CacheScope::Private));
    assert!(!read(&mut p, "notes://other", CacheScope::Public));
    assert_eq!(p.client.forget_read("notes://payroll"), 2);
    assert!(p.client.read_cached("notes://payroll", p.now).is_none());
    p.client.set_auth_context(Some(AuthContext(1)));
    assert!(p.client.read_cached("notes://payroll", p.now).is_none());
    assert!(!read(&mut p, "notes://payroll", CacheScope::Private)); // asked the server again
    assert!(read(&mut p, "notes://other", CacheScope::Public)); // unrelated entries stay
    assert_eq!(p.client.forget_read("notes://never-read"), 0);
}
