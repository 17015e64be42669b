//! [`format`] against `{:?}` and [`parse`] against `str::parse::<f64>`, on edge values and
//! many random ones (bit patterns, short decimals, long and extreme literals).

use super::{MAX_LEN, exact_i64, format, order_key, parse, parse_slow, shortest, shortest_fast};
use proptest::prelude::*;
use std::format;
use std::string::String;

fn ours(v: f64) -> String {
    let mut buf = [0u8; MAX_LEN];
    let n = format(v, &mut buf).unwrap();
    String::from(core::str::from_utf8(&buf[..n]).unwrap())
}

fn check(v: f64) {
    if !v.is_finite() {
        return;
    }
    let core = format!("{v:?}");
    assert_eq!(ours(v), core, "bits {:#x}", v.to_bits());
    assert_eq!(parse(&core).map(f64::to_bits), Some(v.to_bits()), "{core}");
}

fn check_parse(text: &str) {
    let want: f64 = text.parse().unwrap();
    assert_eq!(
        parse(text).map(f64::to_bits),
        Some(want.to_bits()),
        "{text}"
    );
}

// Literals written as people write them (not clippy's shortest form).
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const EDGES: &[f64] = &[
    0.0,
    -0.0,
    0.1,
    0.2,
    0.3,
    0.5,
    0.6,
    0.8,
    1.0,
    -1.5,
    1e21,
    1e22,
    1e23,
    1e16,
    9007199254740993.0,
    9999999999999998.0,
    1e15 + 0.3,
    1e-4,
    0.00009999999999999999,
    1e-5,
    1e-7,
    123.456,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    f64::EPSILON,
    5e-324,
    1e-323,
    2.225_073_858_507_201e-308,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    0.30000000000000004,
    2.0 / 3.0,
    1.0 / 3.0,
    100.0 / 3.0,
];

#[test]
fn edges_format_as_debug_and_read_back() {
    for &v in EDGES {
        check(v);
        check(-v);
        check(f64::from_bits(v.to_bits() + 1));
        check(f64::from_bits(v.to_bits().saturating_sub(1)));
    }
    for e in -1074..=1023 {
        let p = 2f64.powi(e);
        check(p);
        check(f64::from_bits(p.to_bits().wrapping_sub(1)));
    }
    for e in -323..=308 {
        check(format!("1e{e}").parse().unwrap());
        check(format!("9.87654321e{e}").parse().unwrap());
    }
    assert_eq!(format(f64::NAN, &mut [0; MAX_LEN]), None);
    assert_eq!(format(f64::INFINITY, &mut [0; MAX_LEN]), None);
}

#[test]
fn edge_literals_parse_as_core() {
    let long = format!("0.{}1", "0".repeat(330));
    let many = format!("1.{}", "3".repeat(2000));
    // Exactly halfway between 1 and the next f64, then just above it by a far digit.
    let half = "1.00000000000000011102230246251565404236316680908203125";
    let above = format!("{half}{}1", "0".repeat(900));
    let below = "1.000000000000000111022302462515654042363166809082031249999999";
    let sub_half = "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324";
    for text in [
        "0",
        "-0",
        "0.0",
        "1",
        "-1",
        "0.5",
        "0.6",
        "0.8",
        "1e400",
        "-1e400",
        "1e-400",
        "1.5e+3",
        "6e4",
        "123456789012345678901234567890",
        "9007199254740993",
        "1e23",
        "8.5e-323",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "2.2250738585072011e-308",
        "4.9e-324",
        "2.5e-324",
        "2.4e-324",
        "0.000001",
        &long,
        &many,
        half,
        &above,
        below,
        sub_half,
        "3e-324",
        "1E5",
        "12.5E-1",
    ] {
        check_parse(text);
    }
    for bad in ["", "-", ".", "1e", "1e+", "abc", "1x", "--1"] {
        assert_eq!(parse(bad), None, "{bad}");
    }
}

/// What `exact_i64` replaces: the float-arithmetic test.
fn exact_i64_by_arithmetic(v: f64) -> Option<i64> {
    let i = v as i64;
    (i as f64 == v && i.unsigned_abs() <= 1 << 53).then_some(i)
}

#[test]
fn integers_and_order_on_edges() {
    let two53 = 9_007_199_254_740_992.0;
    for &v in EDGES
        .iter()
        .chain(&[two53, -two53, two53 + 2.0, 3.0, -7.0, 0.5, 1e300, 4096.0])
    {
        for v in [v, -v, f64::from_bits(v.to_bits() + 1)] {
            assert_eq!(exact_i64(v), exact_i64_by_arithmetic(v), "{v:?}");
        }
    }
    assert_eq!(exact_i64(f64::NAN), None);
    assert_eq!(exact_i64(f64::INFINITY), None);
    assert_eq!(order_key(-0.0), order_key(0.0));
    assert!(order_key(f64::NEG_INFINITY) < order_key(f64::MIN));
    assert!(order_key(f64::MAX) < order_key(f64::INFINITY));
    assert!(order_key(-5e-324) < order_key(0.0) && order_key(0.0) < order_key(5e-324));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8_000))]

    #[test]
    fn random_bits_format_as_debug(bits in any::<u64>()) {
        check(f64::from_bits(bits));
    }

    #[test]
    fn integers_and_order_as_arithmetic(a in any::<u64>(), b in any::<u64>(), i in -(1i64 << 54)..(1 << 54)) {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        prop_assert_eq!(exact_i64(x), exact_i64_by_arithmetic(x));
        prop_assert_eq!(exact_i64(i as f64), exact_i64_by_arithmetic(i as f64));
        if x.is_finite() && y.is_finite() {
            prop_assert_eq!(order_key(x) <= order_key(y), x <= y);
        }
    }

    #[test]
    fn short_decimals_round_trip(d in 0u64..100_000_000_000, e in -30i32..30) {
        let v: f64 = format!("{d}e{e}").parse().unwrap();
        check(v);
        check_parse(&format!("{d}e{e}"));
    }

    /// The big-integer paths (the only ones on bare-metal targets) agree with the fast ones
    /// on short decimals.
    #[test]
    fn slow_paths_agree_on_short_decimals(d in 1u64..100_000_000_000, e in -30i32..20) {
        let v: f64 = format!("{d}e{e}").parse().unwrap();
        let (mut a, mut b) = ([0u8; 17], [0u8; 17]);
        if let Some((n, k)) = shortest_fast(v, &mut a) {
            prop_assert_eq!((n, k), shortest(v, &mut b));
            prop_assert_eq!(&a[..n], &b[..n]);
        }
        prop_assert_eq!(parse_slow(format!("{d}").as_bytes(), i64::from(e)).to_bits(), v.to_bits());
    }

    #[test]
    fn long_literals_parse_as_core(
        int in "[0-9]{1,40}",
        frac in "[0-9]{0,40}",
        e in -400i32..400,
    ) {
        check_parse(&format!("{int}.{frac}e{e}").replace(".e", "e"));
    }
}
