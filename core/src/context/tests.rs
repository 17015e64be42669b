use super::*;
use proptest::prelude::*;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// `select` into a `Vec` (works without the `alloc` feature, unlike `select_vec`).
fn chosen(cands: &[Candidate<'_>], budget: Budget, target: Option<Role>) -> Vec<usize> {
    let mut out = vec![0; cands.len()];
    let n = select(cands, budget, target, &mut out).unwrap().count;
    out.truncate(n);
    out
}

fn c(uri: &'static str, size: u64) -> Candidate<'static> {
    Candidate {
        uri,
        size: Some(size),
        ..Candidate::default()
    }
}

fn uris(cands: &[Candidate<'static>], budget: Budget, target: Option<Role>) -> Vec<&'static str> {
    chosen(cands, budget, target)
        .into_iter()
        .map(|i| cands[i].uri)
        .collect()
}

type Row = (
    &'static str,
    Vec<Candidate<'static>>,
    Budget,
    Option<Role>,
    &'static [&'static str],
);

#[test]
fn table() {
    let p = |uri, size, prio| Candidate {
        priority: Some(prio),
        ..c(uri, size)
    };
    let t = |uri, size, lm| Candidate {
        last_modified: Some(lm),
        ..c(uri, size)
    };
    let aud = |uri, size, a| Candidate {
        audience: Some(a),
        ..c(uri, size)
    };
    #[rustfmt::skip]
    let rows: &[Row] = &[
        ("priority desc", vec![p("a", 1, 0.2), p("b", 1, 0.9), p("c", 1, 0.5)], Budget::Bytes(10), None, &["b", "c", "a"]),
        ("absent priority = 0.5", vec![p("a", 1, 0.4), c("b", 1), p("c", 1, 0.6)], Budget::Bytes(10), None, &["c", "b", "a"]),
        ("NaN priority = 0.5", vec![p("a", 1, f64::NAN), p("b", 1, 0.49)], Budget::Bytes(10), None, &["a", "b"]),
        ("clamped priority ties, uri breaks", vec![p("b", 1, 7.0), p("a", 1, 1.0), p("c", 1, -3.0), p("d", 1, 0.0)], Budget::Bytes(10), None, &["a", "b", "c", "d"]),
        ("greedy skip and continue", vec![p("big", 8, 0.9), p("mid", 5, 0.8), p("small", 2, 0.7)], Budget::Bytes(10), None, &["big", "small"]),
        ("exact fit", vec![c("a", 4), c("b", 6)], Budget::Bytes(10), None, &["a", "b"]),
        ("zero budget takes only free items", vec![c("a", 1), c("b", 0)], Budget::Bytes(0), None, &["b"]),
        ("nothing fits", vec![c("a", 11)], Budget::Bytes(10), None, &[]),
        ("no size: never chosen", vec![Candidate { uri: "a", ..Candidate::default() }, c("b", 1)], Budget::Bytes(10), None, &["b"]),
        ("newest first", vec![t("old", 1, "2024-01-01T00:00:00Z"), t("new", 1, "2025-01-01T00:00:00Z")], Budget::Bytes(10), None, &["new", "old"]),
        ("offsets compare as instants", vec![t("a", 1, "2025-01-12T10:00:00+02:00"), t("b", 1, "2025-01-12T09:00:00Z")], Budget::Bytes(10), None, &["b", "a"]),
        ("fraction ordering", vec![t("a", 1, "2025-01-12T09:00:00Z"), t("b", 1, "2025-01-12T09:00:00.001Z")], Budget::Bytes(10), None, &["b", "a"]),
        ("invalid and absent last", vec![t("bad", 1, "yesterday"), c("none", 1), t("ok", 1, "1999-12-31T23:59:59Z")], Budget::Bytes(10), None, &["ok", "bad", "none"]),
        ("priority beats recency", vec![Candidate { priority: Some(0.1), ..t("new", 1, "2030-01-01T00:00:00Z") }, p("old", 1, 0.9)], Budget::Bytes(10), None, &["old", "new"]),
        ("audience filter: assistant", vec![aud("u", 1, Audience::USER), aud("a", 1, Audience::ASSISTANT), aud("both", 1, Audience::BOTH), c("any", 1), aud("none", 1, Audience::NONE)], Budget::Bytes(10), Some(Role::Assistant), &["a", "any", "both"]),
        ("audience filter: user", vec![aud("u", 1, Audience::USER), aud("a", 1, Audience::ASSISTANT), c("any", 1)], Budget::Bytes(10), Some(Role::User), &["any", "u"]),
        ("no target: no filter", vec![aud("u", 1, Audience::USER), aud("none", 1, Audience::NONE)], Budget::Bytes(10), None, &["none", "u"]),
        ("tokens from estimate", vec![Candidate { tokens: Some(3), ..c("a", 1000) }, c("b", 9)], Budget::Tokens(6), None, &["a", "b"]),
        ("size/4 rounds up", vec![c("a", 9)], Budget::Tokens(2), None, &[]),
        ("size/4 rounds up, fits", vec![c("a", 9)], Budget::Tokens(3), None, &["a"]),
        ("tokens without size", vec![Candidate { uri: "a", tokens: Some(1), ..Candidate::default() }], Budget::Tokens(1), None, &["a"]),
        ("tokens ignored for bytes", vec![Candidate { uri: "a", tokens: Some(1), ..Candidate::default() }], Budget::Bytes(100), None, &[]),
        ("huge sizes do not overflow", vec![c("a", u64::MAX), c("b", u64::MAX)], Budget::Bytes(u64::MAX), None, &["a"]),
        ("empty", vec![], Budget::Bytes(10), None, &[]),
    ];
    for (name, cands, budget, target, want) in rows {
        assert_eq!(uris(cands, *budget, *target), *want, "{name}");
    }
}

#[test]
fn buffer_and_selection() {
    let cands = [c("a", 3), c("b", 4)];
    let mut small = [0usize; 1];
    assert_eq!(
        select(&cands, Budget::Bytes(10), None, &mut small),
        Err(ContextError::BufferTooSmall { needed: 2 })
    );
    let mut out = [99usize; 3];
    assert_eq!(
        select(&cands, Budget::Bytes(10), None, &mut out),
        Ok(Selection { count: 2, used: 7 })
    );
    assert_eq!(&out[..2], &[0, 1]);
    #[cfg(feature = "alloc")]
    assert_eq!(select_vec(&cands, Budget::Bytes(4), None), vec![0]);
    assert_eq!(Audience::from_roles(["user", "robot"]), Audience::USER);
    assert_eq!(Audience::from_roles(["robot"]), Audience::NONE);
    assert_eq!(Audience::from_roles(["assistant", "user"]), Audience::BOTH);
}

prop_compose! {
    fn candidate()(
        uri in proptest::sample::select(&["a", "b", "c", "d", "e"][..]),
        size in proptest::option::weighted(0.9, 0u64..50),
        tokens in proptest::option::of(0u64..20),
        audience in proptest::option::of(proptest::sample::select(&[Audience::NONE, Audience::USER, Audience::ASSISTANT, Audience::BOTH][..])),
        priority in proptest::option::of(proptest::sample::select(&[0.0, 0.25, 0.5, 1.0, f64::NAN, 2.0][..])),
        last_modified in proptest::option::of(proptest::sample::select(&["2025-01-01T00:00:00Z", "2025-01-01T02:00:00+02:00", "2024-06-01T00:00:00Z", "nope"][..])),
    ) -> Candidate<'static> {
        Candidate { uri, size, tokens, audience, priority, last_modified }
    }
}

fn budget() -> impl Strategy<Value = Budget> {
    prop_oneof![
        (0u64..120).prop_map(Budget::Bytes),
        (0u64..40).prop_map(Budget::Tokens)
    ]
}

fn target() -> impl Strategy<Value = Option<Role>> {
    proptest::option::of(prop_oneof![Just(Role::User), Just(Role::Assistant)])
}

type Key = (
    String,
    Option<u64>,
    Option<u64>,
    Option<Audience>,
    Option<u64>,
    Option<String>,
);

/// A comparable image of a candidate (f64 NaN breaks `==`, so priorities go through bits).
fn key(c: &Candidate<'_>) -> Key {
    (
        c.uri.into(),
        c.size,
        c.tokens,
        c.audience,
        c.priority.map(f64::to_bits),
        c.last_modified.map(Into::into),
    )
}

proptest! {
    #[test]
    fn never_exceeds_budget_and_is_maximal(cands in proptest::collection::vec(candidate(), 0..12), b in budget(), t in target()) {
        let picked = chosen(&cands, b, t);
        let limit = match b { Budget::Bytes(n) | Budget::Tokens(n) => n };
        let used: u64 = picked.iter().map(|&i| cands[i].cost(b).unwrap()).sum();
        prop_assert!(used <= limit);
        for (i, cand) in cands.iter().enumerate() {
            if picked.contains(&i) {
                prop_assert!(cand.suits(t));
            } else if cand.suits(t) && let Some(cost) = cand.cost(b) {
                // Skip-and-continue: nothing left out would still fit.
                prop_assert!(cost > limit - used);
            }
        }
    }

    #[test]
    fn deterministic_under_permutation(cands in proptest::collection::vec(candidate(), 0..12), b in budget(), t in target(), seed in any::<u64>()) {
        let mut shuffled = cands.clone();
        // Fisher–Yates with a small LCG: any permutation, reproducible from the seed.
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        let a: Vec<_> = chosen(&cands, b, t).into_iter().map(|i| key(&cands[i])).collect();
        let z: Vec<_> = chosen(&shuffled, b, t).into_iter().map(|i| key(&shuffled[i])).collect();
        prop_assert_eq!(a, z);
    }
}
