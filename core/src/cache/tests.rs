use super::*;

#[test]
fn freshness() {
    #[rustfmt::skip]
    let rows: &[(Option<i64>, u64, u64, bool)] = &[
        (Some(1000), 0, 0, true),
        (Some(1000), 0, 999, true),
        (Some(1000), 0, 1000, false), // fresh while now < stored + ttl
        (Some(1000), 500, 1499, true),
        (Some(1000), 500, 1500, false),
        (Some(0), 0, 0, false),        // 0: immediately stale
        (None, 0, 0, false),           // absent: 0
        (Some(-5), 0, 0, false),       // negative: 0
        (Some(i64::MIN), 0, 0, false),
        (Some(1000), 500, 499, false), // clock went back: not fresh
        (Some(i64::MAX), u64::MAX - 1, u64::MAX, true),
        (Some(1), u64::MAX, u64::MAX, true),
    ];
    for &(ttl, stored, now, want) in rows {
        assert_eq!(is_fresh(ttl, stored, now), want, "{ttl:?} {stored} {now}");
    }
    let h = CacheHints {
        ttl_ms: Some(-1),
        scope: None,
    };
    assert_eq!(
        (h.effective_ttl_ms(), h.effective_scope()),
        (0, CacheScope::Private)
    );
    assert_eq!(CacheScope::from_name("public"), Some(CacheScope::Public));
    assert_eq!(CacheScope::from_name("Public"), None);
}

#[test]
fn keys() {
    use CacheKey::*;
    #[rustfmt::skip]
    let rows: &[(&str, Option<&str>, Result<CacheKey<'static>, KeyError>)] = &[
        ("server/discover", None, Ok(Discover)),
        ("server/discover", Some("x"), Ok(Discover)),
        ("resources/list", None, Ok(List { list: ListKind::Resources, cursor: None })),
        ("resources/list", Some(""), Ok(List { list: ListKind::Resources, cursor: Some("") })),
        ("resources/templates/list", Some("c"), Ok(List { list: ListKind::ResourceTemplates, cursor: Some("c") })),
        ("prompts/list", None, Ok(List { list: ListKind::Prompts, cursor: None })),
        ("tools/list", None, Ok(List { list: ListKind::Tools, cursor: None })),
        ("resources/read", Some("file:///a"), Ok(Read { uri: "file:///a" })),
        ("resources/read", None, Err(KeyError::MissingUri)),
        ("prompts/get", Some("x"), Err(KeyError::NotCacheable)),
        ("completion/complete", None, Err(KeyError::NotCacheable)),
        ("tools/call", None, Err(KeyError::NotCacheable)),
        ("Resources/list", None, Err(KeyError::NotCacheable)),
    ];
    for (method, param, want) in rows {
        let got = CacheKey::new(method, *param);
        assert_eq!(got, *want, "{method}");
        if let Ok(k) = got {
            assert_eq!(k.method(), *method);
        }
    }
    // Absent cursor and "" are different pages (docs/rules.md §3).
    assert_ne!(
        CacheKey::new("tools/list", None),
        CacheKey::new("tools/list", Some(""))
    );
}

#[test]
fn sub_resources() {
    #[rustfmt::skip]
    let rows: &[(&str, &str, bool)] = &[
        ("file:///p", "file:///p", true),
        ("file:///p/a.rs", "file:///p", true),    // cached below the update
        ("file:///p", "file:///p/a.rs", true),    // update below the cached read (directory)
        ("file:///p/", "file:///p/a.rs", true),
        ("file:///p/a/b/c", "file:///p", true),
        ("db://t/rows?limit=1", "db://t/rows", true),
        ("file:///p#x", "file:///p", true),
        ("file:///pa", "file:///p", false),       // not at a boundary
        ("file:///p", "file:///pa", false),
        ("file:///q/a", "file:///p/a", false),
        ("db://t", "file:///t", false),
        ("file:///P", "file:///p", false),        // exact strings
        ("", "file:///p", false),
        ("", "", true),
    ];
    for &(cached, updated, want) in rows {
        assert_eq!(uri_related(cached, updated), want, "{cached} / {updated}");
    }
}

#[test]
fn invalidation_matrix() {
    use CacheKey::*;
    let keys = [
        Discover,
        List {
            list: ListKind::Resources,
            cursor: None,
        },
        List {
            list: ListKind::ResourceTemplates,
            cursor: Some("p2"),
        },
        List {
            list: ListKind::Prompts,
            cursor: None,
        },
        List {
            list: ListKind::Tools,
            cursor: Some(""),
        },
        Read {
            uri: "file:///p/a.rs",
        },
    ];
    #[rustfmt::skip]
    let rows: &[(Invalidation<'_>, [bool; 6])] = &[
        (Invalidation::ResourceUpdated { uri: "file:///p" },       [false, false, false, false, false, true]),
        (Invalidation::ResourceUpdated { uri: "file:///q" },       [false, false, false, false, false, false]),
        (Invalidation::ResourcesListChanged,                       [false, true, true, false, false, false]),
        (Invalidation::PromptsListChanged,                         [false, false, false, true, false, false]),
        (Invalidation::ToolsListChanged,                           [false, false, false, false, true, false]),
        (Invalidation::CursorRejected { list: ListKind::ResourceTemplates }, [false, false, true, false, false, false]),
        (Invalidation::CursorRejected { list: ListKind::Tools },   [false, false, false, false, true, false]),
    ];
    for (inv, want) in rows {
        for (k, w) in keys.iter().zip(want) {
            assert_eq!(inv.matches(k), *w, "{inv:?} {k:?}");
        }
    }
    let n = Invalidation::from_notification;
    assert_eq!(
        n("notifications/resources/updated", Some("u")),
        Some(Invalidation::ResourceUpdated { uri: "u" })
    );
    assert_eq!(n("notifications/resources/updated", None), None);
    assert_eq!(
        n("notifications/resources/list_changed", None),
        Some(Invalidation::ResourcesListChanged)
    );
    assert_eq!(
        n("notifications/prompts/list_changed", None),
        Some(Invalidation::PromptsListChanged)
    );
    assert_eq!(
        n("notifications/tools/list_changed", None),
        Some(Invalidation::ToolsListChanged)
    );
    assert_eq!(n("notifications/subscriptions/acknowledged", None), None);
}

#[cfg(feature = "alloc")]
mod store;
