//! The compact targets' forms of `norm` (`crate::WIDE`) against the wide ones.

use super::norm::{eq_same_len, match_units, units_eq, units_eq_by_match};
use std::vec::Vec;

/// Byte strings made of units that compare equal through normalisation or almost do.
fn samples() -> Vec<Vec<u8>> {
    let alphabet: &[&[u8]] = &[
        b"a",
        b"b",
        b"~",
        b"%7E",
        b"%7e",
        b"%2F",
        b"/",
        b"%",
        b"%4",
        b"%41",
        b"A",
        b"\xC3\xA9",
        b"%C3%A9",
        b"%c3%a9",
        b":",
        b"%3A",
    ];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    for len in 0..24 {
        for _ in 0..24 {
            let mut s = Vec::new();
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.extend_from_slice(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            out.push(s);
        }
    }
    out
}

/// `eq_same_len`'s word loads answer as `==` (the compact form), at every length.
#[test]
fn eq_same_len_is_slice_equality() {
    let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
    for n in 0..base.len() {
        let a = &base[..n];
        assert!(eq_same_len(a, a));
        for d in 0..n {
            let mut b = a.to_vec();
            b[d] ^= 0x20;
            assert_eq!(eq_same_len(a, &b), a == &b[..], "{n} {d}");
        }
    }
    for a in samples().iter().take(200) {
        for b in samples().iter().skip(100).take(200) {
            if a.len() == b.len() {
                assert_eq!(eq_same_len(a, b), a == b);
            }
        }
    }
}

/// The quick rejection of `match_forward_slow` changes no answer.
#[test]
fn match_units_quick_check_agrees() {
    let all = samples();
    let mut equal = 0;
    for (k, lit) in all.iter().enumerate().step_by(3) {
        for uri in all.iter().skip(k % 7).step_by(5) {
            for pos in [0, uri.len() / 3, uri.len()] {
                // Called only where the bytes differ (`match_forward`).
                if uri[pos..].starts_with(lit) {
                    continue;
                }
                let (quick, full) = (
                    match_units(lit, uri, pos, true),
                    match_units(lit, uri, pos, false),
                );
                assert_eq!(quick, full, "{lit:?} {uri:?} {pos}");
                equal += usize::from(full.is_some() && !lit.is_empty());
            }
        }
        // Its upper-case form (triplets in either case are the same units).
        let upper: Vec<u8> = lit.to_ascii_uppercase();
        if !upper.starts_with(lit) {
            assert_eq!(
                match_units(lit, &upper, 0, true),
                match_units(lit, &upper, 0, false)
            );
        }
    }
    assert!(equal > 0);
}

/// `units_eq`'s compact form (a match of one text against the other) answers as its unit
/// walk, on texts equal through normalisation and not.
#[test]
fn units_eq_by_match_agrees() {
    let all = samples();
    let mut equal = 0;
    for (k, a) in all.iter().enumerate().step_by(2) {
        let upper = a.to_ascii_uppercase();
        let others = all.iter().skip(k % 5).step_by(7);
        for b in others.chain([a, &upper]) {
            let want = units_eq(a, b);
            assert_eq!(units_eq_by_match(a, b), want, "{a:?} {b:?}");
            assert_eq!(units_eq_by_match(b, a), want, "{b:?} {a:?}");
            equal += usize::from(want && a != b);
        }
    }
    assert!(equal > 0);
}
