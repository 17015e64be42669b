//! Integers in decimal: the digit count and digits of a `u64`, with 32-bit divisions only
//! on 32-bit targets without a native 64-bit divide.

/// The number of decimal digits of `v` (1 to 20; `SliceSink::put_u64` on wide targets).
#[cfg_attr(
    not(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    )),
    allow(dead_code)
)]
#[inline]
pub(super) fn decimal_len(v: u64) -> usize {
    let (mut n, mut p) = (1, 10u64);
    while n < 20 && v >= p {
        n += 1;
        p = p.saturating_mul(10);
    }
    n
}

pub(super) fn format_u64(mut v: u64, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        let (q, digit) = div10(v);
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + digit;
        }
        v = q;
        if v == 0 || i == 0 {
            break;
        }
    }
    buf.get(i..)
        .and_then(|s| core::str::from_utf8(s).ok())
        .unwrap_or("0")
}

/// `(v / 10, v % 10)`. On 64-bit targets the compiler turns the `u64` division into a
/// multiplication, and wasm has a native 64-bit division; other 32-bit targets would link
/// the soft 64-bit divider (about 1 KiB of flash on a Cortex-M), so those take
/// [`div10_narrow`].
#[inline]
pub(super) const fn div10(v: u64) -> (u64, u8) {
    if cfg!(any(target_pointer_width = "64", target_family = "wasm")) {
        (v / 10, (v % 10) as u8)
    } else {
        div10_narrow(v)
    }
}

/// `(v / 10, v % 10)` with 32-bit divisions only: long division by 10 in 16-bit steps keeps
/// every intermediate below `10 * 2^16`.
#[inline]
const fn div10_narrow(v: u64) -> (u64, u8) {
    let hi = (v >> 32) as u32;
    let lo = v as u32;
    if hi == 0 {
        return ((lo / 10) as u64, (lo % 10) as u8);
    }
    let (qh, r) = (hi / 10, hi % 10);
    let mid = (r << 16) | (lo >> 16);
    let (qm, r) = (mid / 10, mid % 10);
    let low = (r << 16) | (lo & 0xFFFF);
    let (ql, r) = (low / 10, low % 10);
    (
        ((qh as u64) << 32) | ((qm as u64) << 16) | ql as u64,
        r as u8,
    )
}

#[cfg(test)]
mod tests {
    fn check(p: u64) {
        assert_eq!(super::div10_narrow(p), (p / 10, (p % 10) as u8), "{p}");
    }

    #[test]
    fn integers_are_written_in_decimal_into_any_sink() {
        use super::super::{FmtSink, JsonSink, SliceSink};
        let mut v: u64 = 1;
        let mut values = std::vec![
            0,
            9,
            10,
            99,
            100,
            u64::MAX,
            u64::MAX / 10,
            10_000_000_000_000_000_000
        ];
        for _ in 0..2_000 {
            v = v
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            values.extend([v, v >> 17, v >> 40, v >> 60]);
        }
        for value in values {
            let expect = std::format!("{value}");
            assert_eq!(super::decimal_len(value), expect.len());
            let mut s = std::string::String::new();
            FmtSink(&mut s).put_u64(value).unwrap();
            assert_eq!(s, expect);
            let mut buf = [0u8; 24];
            let mut sink = SliceSink::new(&mut buf);
            sink.put_u64(value).unwrap();
            let n = sink.finish().unwrap();
            assert_eq!(&buf[..n], expect.as_bytes());
            let mut small = [0u8; 1];
            let mut sink = SliceSink::new(&mut small);
            sink.put_u64(value).unwrap();
            assert_eq!(
                sink.finish().map_err(|_| ()).err().is_some(),
                expect.len() > 1
            );
        }
    }

    #[test]
    fn narrow_division_by_ten_is_exact() {
        let edges = [
            0,
            9,
            10,
            u64::from(u32::MAX),
            u64::from(u32::MAX) + 1,
            u64::MAX - 9,
        ];
        edges.into_iter().chain([u64::MAX]).for_each(check);
        let mut v: u64 = 1;
        for _ in 0..20_000 {
            v = v
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            check(v);
            check(v >> 23);
        }
    }
}
