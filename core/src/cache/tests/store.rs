use super::super::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::vec;
use std::vec::Vec;

const BIG: CacheLimits = CacheLimits {
    max_entries: 100,
    max_bytes: 10_000,
};
const A: Option<AuthContext> = Some(AuthContext(1));
const B: Option<AuthContext> = Some(AuthContext(2));

fn hints(ttl: i64, scope: CacheScope) -> CacheHints {
    CacheHints {
        ttl_ms: Some(ttl),
        scope: Some(scope),
    }
}

fn read(uri: &str) -> CacheKey<'_> {
    CacheKey::Read { uri }
}

#[test]
fn scopes() {
    let mut c = Cache::new(BIG);
    let k = read("file:///p");
    c.insert(
        &k,
        A,
        hints(100, CacheScope::Private),
        Attempt::Original,
        b"mine",
        0,
    )
    .unwrap();
    assert_eq!(c.get(&k, A, 1), Some(&b"mine"[..]));
    assert_eq!(c.get(&k, B, 1), None);
    assert_eq!(c.get(&k, None, 1), None);
    // Absent scope reads as private, including for the anonymous context.
    let anon = CacheHints {
        ttl_ms: Some(100),
        scope: None,
    };
    c.insert(&k, None, anon, Attempt::Original, b"anon", 0)
        .unwrap();
    assert_eq!(c.get(&k, None, 1), Some(&b"anon"[..]));
    assert_eq!(c.get(&k, B, 1), None);
    // Public is shared; A's newer private answer still wins for A.
    c.insert(
        &k,
        B,
        hints(100, CacheScope::Public),
        Attempt::Original,
        b"pub",
        0,
    )
    .unwrap();
    assert_eq!(c.get(&k, Some(AuthContext(9)), 1), Some(&b"pub"[..]));
    c.insert(
        &k,
        A,
        hints(100, CacheScope::Private),
        Attempt::Original,
        b"mine2",
        2,
    )
    .unwrap();
    assert_eq!(c.get(&k, A, 3), Some(&b"mine2"[..]));
    assert_eq!(c.get(&k, B, 3), Some(&b"pub"[..]));
    assert_eq!(c.forget_context(A), 1);
    assert_eq!(c.get(&k, A, 3), Some(&b"pub"[..]));
}

#[test]
fn refusals() {
    let mut c = Cache::new(CacheLimits {
        max_entries: 4,
        max_bytes: 20,
    });
    let k = CacheKey::List {
        list: ListKind::Tools,
        cursor: None,
    };
    let ok = hints(10, CacheScope::Public);
    assert_eq!(
        c.insert(&k, A, ok, Attempt::Retry, b"v", 0),
        Err(Refused::Retry)
    );
    assert!(c.is_empty());
    c.insert(&k, A, ok, Attempt::Original, b"v1", 0).unwrap();
    // A retry's result neither stores nor disturbs the original's entry.
    assert_eq!(
        c.insert(&k, A, ok, Attempt::Retry, b"v2", 1),
        Err(Refused::Retry)
    );
    assert_eq!(c.get(&k, A, 1), Some(&b"v1"[..]));
    // A newer ttl-0 answer supersedes the stored one.
    assert_eq!(
        c.insert(
            &k,
            A,
            hints(0, CacheScope::Public),
            Attempt::Original,
            b"v3",
            2
        ),
        Err(Refused::ImmediatelyStale)
    );
    assert_eq!(c.lookup(&k, A, 2), Lookup::Miss);
    assert_eq!(
        c.insert(&k, A, ok, Attempt::Original, &[0; 21], 2),
        Err(Refused::TooLarge)
    );
    let mut none = Cache::new(CacheLimits {
        max_entries: 0,
        max_bytes: 100,
    });
    assert_eq!(
        none.insert(&k, A, ok, Attempt::Original, b"v", 0),
        Err(Refused::TooLarge)
    );
}

#[test]
fn stale_lookup_and_purge() {
    let mut c = Cache::new(BIG);
    let k = read("file:///p");
    c.insert(
        &k,
        A,
        hints(10, CacheScope::Private),
        Attempt::Original,
        b"v",
        0,
    )
    .unwrap();
    assert_eq!(c.lookup(&k, A, 9), Lookup::Fresh(b"v"));
    assert_eq!(c.lookup(&k, A, 10), Lookup::Stale(b"v"));
    assert_eq!(c.lookup(&k, B, 10), Lookup::Miss);
    assert_eq!(c.purge_stale(10), 1);
    assert_eq!(c.lookup(&k, A, 10), Lookup::Miss);
    assert_eq!(c.bytes(), 0);
}

#[test]
fn eviction_prefers_stale_then_lru() {
    let mut c = Cache::new(CacheLimits {
        max_entries: 3,
        max_bytes: 1000,
    });
    let (k1, k2, k3, k4) = (read("a"), read("b"), read("c"), read("d"));
    let p = |ttl| hints(ttl, CacheScope::Public);
    c.insert(&k1, None, p(5), Attempt::Original, b"1", 0)
        .unwrap(); // stale at 5
    c.insert(&k2, None, p(100), Attempt::Original, b"2", 0)
        .unwrap();
    c.insert(&k3, None, p(100), Attempt::Original, b"3", 0)
        .unwrap();
    assert!(c.get(&k2, None, 1).is_some()); // k2 recently used: k3 is now LRU among fresh
    c.insert(&k4, None, p(100), Attempt::Original, b"4", 6)
        .unwrap();
    assert_eq!(
        c.lookup(&k1, None, 6),
        Lookup::Miss,
        "stale entry evicted first"
    );
    c.insert(&k1, None, p(100), Attempt::Original, b"1", 7)
        .unwrap();
    assert_eq!(
        c.lookup(&k3, None, 7),
        Lookup::Miss,
        "then the least recently used"
    );
    assert!(c.get(&k2, None, 7).is_some() && c.get(&k4, None, 7).is_some());
    // Byte limit: a big entry evicts as many as needed.
    let mut c = Cache::new(CacheLimits {
        max_entries: 10,
        max_bytes: 6,
    });
    for k in [&k1, &k2, &k3] {
        c.insert(k, None, p(100), Attempt::Original, b"x", 0)
            .unwrap();
    }
    c.insert(&k4, None, p(100), Attempt::Original, b"yyyy", 0)
        .unwrap();
    assert!(c.bytes() <= 6 && c.get(&k4, None, 0).is_some());
}

#[test]
fn notifications_and_rejected_cursors() {
    let mut c = Cache::new(BIG);
    let p = hints(100, CacheScope::Public);
    let page = |cursor| CacheKey::List {
        list: ListKind::Resources,
        cursor,
    };
    for key in [
        page(None),
        page(Some("2")),
        page(Some("3")),
        read("file:///p"),
        read("file:///p/a"),
        read("file:///q"),
    ] {
        c.insert(&key, None, p, Attempt::Original, b"v", 0).unwrap();
    }
    assert_eq!(
        c.invalidate(Invalidation::CursorRejected {
            list: ListKind::Resources
        }),
        3
    );
    assert_eq!(
        c.invalidate(Invalidation::ResourceUpdated { uri: "file:///p/a" }),
        2
    );
    assert!(c.get(&read("file:///q"), None, 1).is_some());
    assert_eq!(c.len(), 1);
    c.clear();
    assert!(c.is_empty() && c.bytes() == 0);
}

// ---- model-based property tests ----

const URIS: &[&str] = &[
    "file:///p",
    "file:///p/a.rs",
    "file:///p/a.rs?x",
    "file:///pa",
    "db://t",
    "file:///",
];

fn keys() -> Vec<CacheKey<'static>> {
    let mut k = vec![CacheKey::Discover];
    for list in [
        ListKind::Resources,
        ListKind::ResourceTemplates,
        ListKind::Prompts,
        ListKind::Tools,
    ] {
        for cursor in [None, Some(""), Some("c")] {
            k.push(CacheKey::List { list, cursor });
        }
    }
    k.extend(URIS.iter().map(|uri| CacheKey::Read { uri }));
    k
}

fn invalidation() -> impl Strategy<Value = Invalidation<'static>> {
    let list = proptest::sample::select(
        &[
            ListKind::Resources,
            ListKind::ResourceTemplates,
            ListKind::Prompts,
            ListKind::Tools,
        ][..],
    );
    prop_oneof![
        proptest::sample::select(URIS).prop_map(|uri| Invalidation::ResourceUpdated { uri }),
        Just(Invalidation::ResourcesListChanged),
        Just(Invalidation::PromptsListChanged),
        Just(Invalidation::ToolsListChanged),
        list.prop_map(|list| Invalidation::CursorRejected { list }),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Insert {
        key: usize,
        auth: Option<u64>,
        ttl: Option<i64>,
        scope: Option<CacheScope>,
        retry: bool,
    },
    Lookup {
        key: usize,
        auth: Option<u64>,
    },
    Invalidate(Invalidation<'static>),
    Advance(u64),
}

fn op() -> impl Strategy<Value = Op> {
    let auth = proptest::option::of(1u64..4);
    let scope = proptest::option::of(prop_oneof![
        Just(CacheScope::Public),
        Just(CacheScope::Private)
    ]);
    prop_oneof![
        4 => (0..keys().len(), auth.clone(), proptest::option::weighted(0.9, -3i64..30), scope, proptest::bool::weighted(0.2))
            .prop_map(|(key, auth, ttl, scope, retry)| Op::Insert { key, auth, ttl, scope, retry }),
        4 => (0..keys().len(), auth).prop_map(|(key, auth)| Op::Lookup { key, auth }),
        1 => invalidation().prop_map(Op::Invalidate),
        2 => (0u64..15).prop_map(Op::Advance),
    ]
}

/// What the model remembers of every insert attempt, by the value's sequence number.
struct Record {
    key: usize,
    private_to: Option<Option<u64>>,
    stored_at: u64,
    ttl: Option<i64>,
    retry: bool,
    invalidated: bool,
}

proptest! {
    /// Every served value: was stored for this key, is not a retry's result, is public or
    /// private to this very context, was not invalidated since, and (if Fresh) is within its
    /// TTL. After a matching notification nothing for the affected keys is served.
    #[test]
    fn served_values_respect_scope_ttl_and_invalidation(
        ops in proptest::collection::vec(op(), 1..80),
        max_entries in 1usize..8,
        max_bytes in 8usize..120,
    ) {
        let keys = keys();
        let mut cache = Cache::new(CacheLimits { max_entries, max_bytes });
        let mut now = 0u64;
        let mut seq = 0u64;
        let mut model: BTreeMap<u64, Record> = BTreeMap::new();
        for op in ops {
            match op {
                Op::Insert { key, auth, ttl, scope, retry } => {
                    seq += 1;
                    let h = CacheHints { ttl_ms: ttl, scope };
                    let attempt = if retry { Attempt::Retry } else { Attempt::Original };
                    let auth_ctx = auth.map(AuthContext);
                    let r = cache.insert(&keys[key], auth_ctx, h, attempt, &seq.to_le_bytes(), now);
                    let private_to = (h.effective_scope() == CacheScope::Private).then_some(auth);
                    model.insert(seq, Record { key, private_to, stored_at: now, ttl, retry, invalidated: false });
                    if r.is_ok() {
                        prop_assert!(!retry && h.effective_ttl_ms() > 0);
                        // The newest answer is what this context now sees.
                        prop_assert_eq!(cache.get(&keys[key], auth_ctx, now), Some(&seq.to_le_bytes()[..]));
                    }
                    prop_assert!(cache.len() <= max_entries && cache.bytes() <= max_bytes);
                }
                Op::Lookup { key, auth } => {
                    let (value, fresh) = match cache.lookup(&keys[key], auth.map(AuthContext), now) {
                        Lookup::Fresh(v) => (v, true),
                        Lookup::Stale(v) => (v, false),
                        Lookup::Miss => continue,
                    };
                    let got = u64::from_le_bytes(value.try_into().unwrap());
                    let rec = &model[&got];
                    prop_assert_eq!(rec.key, key, "served another key's value");
                    prop_assert!(!rec.retry, "served a retry's result");
                    prop_assert!(rec.private_to.is_none() || rec.private_to == Some(auth), "private entry leaked");
                    prop_assert!(!rec.invalidated, "served an invalidated entry");
                    prop_assert!(!fresh || is_fresh(rec.ttl, rec.stored_at, now), "served past TTL");
                }
                Op::Invalidate(inv) => {
                    cache.invalidate(inv);
                    for rec in model.values_mut() {
                        if inv.matches(&keys[rec.key]) {
                            rec.invalidated = true;
                        }
                    }
                    for k in keys.iter().filter(|k| inv.matches(k)) {
                        for auth in [None, Some(1), Some(2), Some(3)] {
                            prop_assert_eq!(cache.lookup(k, auth.map(AuthContext), now), Lookup::Miss);
                        }
                    }
                }
                Op::Advance(dt) => now += dt,
            }
        }
    }
}
