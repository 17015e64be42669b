//! `f64` to and from JSON number text, in a few KiB of code: what `{:?}` and
//! `str::parse::<f64>` give, without linking core's float formatting (Grisu, Dragon, the
//! exact formatter, `core::fmt` padding) and parsing (Eisel–Lemire with its 10 KiB table)
//! machinery, about 14 KiB of `.text` and 11 KiB of `.rodata` on a microcontroller.
//!
//! * [`format`]: the shortest decimal that reads back to the same `f64`, closest to it
//!   among the shortest, laid out as `{:?}` lays it out (`0.1`, `123.5`, `1e16`, `1e-7`,
//!   `1.5e300`, `-2.5`), byte for byte.
//! * [`parse`]: the `f64` nearest to a decimal (ties to even), for the JSON number grammar.
//! * [`exact_i64`], [`order_key`]: integral-value and ordering tests on the bits, so callers
//!   need no float arithmetic (software routines on most microcontrollers).
//!
//! Both take an exact fast path when the value is a short decimal (at most 15 or so
//! significant digits, exponent within ±22: priorities, progress), where one correctly
//! rounded `f64` multiplication or division is exact (Clinger). Otherwise they run on a
//! small fixed-size big integer: free-format shortest digits (Steele & White, Burger &
//! Dybvig) to format, a long division with round-half-even to parse. Neither allocates or
//! panics.

#[path = "float_big.rs"]
mod big;
use big::Big;

/// Exact powers of ten as `f64` (every one up to 10^22 is representable).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Whether to take the `f64`-arithmetic fast paths: not on bare-metal targets, which
/// mostly emulate `f64` in software (some 3 KiB of flash) and prefer size to speed there;
/// the big-integer paths give the same answers.
const FAST: bool = cfg!(not(target_os = "none"));

/// Significant decimal digits [`parse`] keeps before folding the rest into one sticky
/// digit: more than the 767 a midpoint between two `f64` can have.
const MAX_DIGITS: usize = 780;

/// Longest text [`format`] writes: `-`, 17 digits, `.`, `e-324`; or `-0.000` and 17 digits.
pub(crate) const MAX_LEN: usize = 32;

/// Writes the shortest round-trip form of `value` as `{:?}` writes it into `out`; returns
/// the length. `None` for NaN and the infinities.
// Out of line: callers (generic encoders) stay small for their own inlining.
#[inline(never)]
pub(crate) fn format(value: f64, out: &mut [u8; MAX_LEN]) -> Option<usize> {
    if !value.is_finite() {
        return None;
    }
    let mut digits = [0u8; 17];
    let abs = value.abs();
    // Positive finite `f64`s order as their bits (no float arithmetic here): `{:?}` uses
    // plain decimals in [1e-4, 1e16) and for zero.
    let bits = abs.to_bits();
    let plain = bits == 0 || (bits >= 1e-4f64.to_bits() && bits < 1e16f64.to_bits());
    let (n, k) = if bits == 0 {
        digits[0] = b'0';
        (1, 1)
    } else {
        (plain && FAST)
            .then(|| shortest_fast(abs, &mut digits))
            .flatten()
            .unwrap_or_else(|| shortest(abs, &mut digits))
    };
    let digits = digits.get(..n)?;
    let mut w = Out { buf: out, len: 0 };
    if value.is_sign_negative() {
        w.put(b"-");
    }
    if plain {
        if k <= 0 {
            w.put(b"0.");
            for _ in 0..-k {
                w.put(b"0");
            }
            w.put(digits);
        } else if let (Some(int), Some(frac)) = (digits.get(..k as usize), digits.get(k as usize..))
            && !frac.is_empty()
        {
            w.put(int);
            w.put(b".");
            w.put(frac);
        } else {
            w.put(digits);
            for _ in n as i32..k {
                w.put(b"0");
            }
            w.put(b".0");
        }
    } else {
        let (first, rest) = digits.split_at(1);
        w.put(first);
        if !rest.is_empty() {
            w.put(b".");
            w.put(rest);
        }
        w.put(b"e");
        let e = k - 1;
        if e < 0 {
            w.put(b"-");
        }
        let mut buf = [0u8; 3];
        let len = decimal(e.unsigned_abs(), &mut buf);
        w.put(buf.get(3 - len..).unwrap_or_default());
    }
    Some(w.len)
}

/// `value` as an `i64` when it is integral and within ±2^53 (`-0.0` is 0); decided on the
/// bits, with no float arithmetic (soft-float code on most microcontrollers).
pub(crate) fn exact_i64(value: f64) -> Option<i64> {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    if biased == 0 {
        return (frac == 0).then_some(0);
    }
    // value = ±mant × 2^exp
    let (mant, exp) = (frac | 1 << 52, biased - 1075);
    let abs = match exp {
        0 => mant,
        1 if mant == 1 << 52 => 1 << 53,
        -52..=-1 if mant & ((1 << -exp) - 1) == 0 => mant >> -exp,
        _ => return None,
    };
    let abs = abs as i64;
    Some(if bits >> 63 == 1 { -abs } else { abs })
}

/// An integer that orders finite `f64`s as `<` does, zeros equal (`-0.0 == 0.0`); NaNs sort
/// beyond the infinities. Compares without float arithmetic.
pub(crate) fn order_key(value: f64) -> i64 {
    let bits = value.to_bits();
    if bits << 1 == 0 {
        return 0;
    }
    let b = bits as i64;
    if b < 0 { -(b & i64::MAX) } else { b }
}

/// A bounded writer into the output array (it never overflows: [`MAX_LEN`] is enough).
struct Out<'a> {
    buf: &'a mut [u8; MAX_LEN],
    len: usize,
}

impl Out<'_> {
    fn put(&mut self, s: &[u8]) {
        if let Some(dst) = self.buf.get_mut(self.len..self.len + s.len()) {
            dst.copy_from_slice(s);
            self.len += s.len();
        }
    }
}

/// The decimal digits of `v` right-aligned in `buf`; returns how many. (`u32`: 32-bit
/// targets have no 64-bit divide instruction.)
fn decimal<const N: usize>(mut v: u32, buf: &mut [u8; N]) -> usize {
    let mut len = 0;
    for slot in buf.iter_mut().rev() {
        *slot = b'0' + (v % 10) as u8;
        v /= 10;
        len += 1;
        if v == 0 {
            break;
        }
    }
    len
}

/// The shortest digits of `abs` (positive) when some `D / 10^j` with `D < 2^49` and
/// `j <= 17` reads back to it: the product `abs * 10^j` then rounds to the right nearest
/// integer (its error is under 1/16), and the round trip is checked with one correctly
/// rounded division. `None` leaves it to [`shortest`].
fn shortest_fast(abs: f64, digits: &mut [u8; 17]) -> Option<(usize, i32)> {
    for (j, &p) in POW10.iter().enumerate().take(18).skip(1) {
        let t = abs * p;
        if t >= (1u64 << 49) as f64 {
            return None;
        }
        let trunc = t as u64;
        let frac = t - trunc as f64;
        if frac > 0.4 && frac < 0.6 {
            return None;
        }
        let (near, other) = if frac >= 0.5 {
            (trunc + 1, trunc)
        } else {
            (trunc, trunc + 1)
        };
        // The nearest first: the shortest digits closest to the value.
        for d in [near, other] {
            if d != 0 && d as f64 / p == abs {
                let mut d = d;
                let mut j = j as i32;
                while d % 10 == 0 {
                    d /= 10;
                    j -= 1;
                }
                let mut n = 0;
                for slot in digits.iter_mut().rev() {
                    *slot = b'0' + (d % 10) as u8;
                    d /= 10;
                    n += 1;
                    if d == 0 {
                        break;
                    }
                }
                digits.copy_within(17 - n.., 0);
                return Some((n, n as i32 - j));
            }
        }
    }
    None
}

/// The shortest digits of `abs` (positive, finite) that read back to it, the closest to it
/// among those (ties away from zero), and the decimal exponent `k`: the value is
/// `0.d1d2… × 10^k`. The neighbours' midpoints bound the digits, inclusive when the
/// mantissa is even (round-half-even reading); a power of two has a closer lower neighbour.
#[inline(never)]
fn shortest(abs: f64, digits: &mut [u8; 17]) -> (usize, i32) {
    let bits = abs.to_bits();
    let frac = bits & ((1 << 52) - 1);
    let biased = ((bits >> 52) & 0x7ff) as i32;
    // `v = mant × 2^exp`, low = `(mant - minus) × 2^exp`, high = `(mant + plus) × 2^exp`.
    let (mant, minus, plus, exp) = if biased == 0 {
        (frac << 1, 1, 1, -1075)
    } else if frac == 0 {
        ((1u64 << 54), 1, 2, biased - 1077)
    } else {
        ((frac | 1 << 52) << 1, 1, 1, biased - 1076)
    };
    // Round-half-even reading: an even significand keeps its midpoints.
    let inclusive = biased == 0 || frac & 1 == 0;
    // "a is below b": `a < b`, or `a <= b` when the bounds are inclusive.
    let below = |a: &Big, b: &Big| match a.cmp(b) {
        core::cmp::Ordering::Less => true,
        core::cmp::Ordering::Equal => inclusive,
        core::cmp::Ordering::Greater => false,
    };
    // An estimate of k with 10^(k-1) < high <= 10^(k+1): floor(log10(2) × log2(high)).
    let nbits = 64 - i64::from((mant + plus - 1).leading_zeros());
    let mut k = (((nbits + i64::from(exp)) * 1_292_913_986) >> 32) as i32;

    let mut m = Big::from_u64(mant);
    let mut lo = Big::from_u64(minus);
    let mut hi = Big::from_u64(plus);
    let mut scale = Big::from_u64(1);
    if exp < 0 {
        scale.shl(exp.unsigned_abs() as usize);
    } else {
        for b in [&mut m, &mut lo, &mut hi] {
            b.shl(exp as usize);
        }
    }
    if k >= 0 {
        scale.mul_pow10(k as u32);
    } else {
        for b in [&mut m, &mut lo, &mut hi] {
            b.mul_pow10(k.unsigned_abs());
        }
    }
    let mut sum = m.clone();
    sum.add(&hi);
    if below(&scale, &sum) {
        k += 1;
    } else {
        for b in [&mut m, &mut lo, &mut hi] {
            b.mul_add_small(10, 0);
        }
    }
    let mut n = 0;
    let (mut down, mut up);
    loop {
        let mut d = 0u8;
        while m.cmp(&scale) != core::cmp::Ordering::Less {
            m.sub(&scale);
            d += 1;
        }
        if let Some(slot) = digits.get_mut(n) {
            *slot = b'0' + d;
        }
        n += 1;
        down = below(&m, &lo);
        let mut sum = m.clone();
        sum.add(&hi);
        up = below(&scale, &sum);
        if down || up || n == digits.len() {
            break;
        }
        for b in [&mut m, &mut lo, &mut hi] {
            b.mul_add_small(10, 0);
        }
    }
    if up
        && (!down || {
            m.shl(1);
            m.cmp(&scale) != core::cmp::Ordering::Less
        })
    {
        // Round the last digit up, carrying; all nines become 1 and a longer exponent.
        let mut carried = true;
        for c in digits.iter_mut().take(n).rev() {
            if *c == b'9' {
                *c = b'0';
            } else {
                *c += 1;
                carried = false;
                break;
            }
        }
        if carried {
            if let Some(c) = digits.first_mut() {
                *c = b'1';
            }
            if let Some(c) = digits.get_mut(n) {
                *c = b'0';
                n += 1;
            }
            k += 1;
        }
    }
    (n, k)
}

/// The `f64` nearest to the JSON number `text` (ties to even); an infinity when it is
/// beyond `f64::MAX`'s rounding bound. `None` when `text` is not a number.
// Out of line: callers (generic decoders) stay small for their own inlining.
#[inline(never)]
pub(crate) fn parse(text: &str) -> Option<f64> {
    let s = text.as_bytes();
    let (neg, s) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, s),
    };
    let sign = |v: f64| if neg { -v } else { v };
    let m = mantissa(s, None);
    if m.len == 0 {
        return None;
    }
    let exp = match s.get(m.len..).unwrap_or_default().split_first() {
        None => 0,
        Some((b'e' | b'E', tail)) => {
            let (eneg, digits) = match tail.split_first() {
                Some((b'-', t)) => (true, t),
                Some((b'+', t)) => (false, t),
                _ => (false, tail),
            };
            if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let e = digits
                .iter()
                .fold(0i64, |e, &c| (e * 10 + i64::from(c - b'0')).min(1 << 40));
            if eneg { -e } else { e }
        }
        Some(_) => return None,
    };
    if m.sig == 0 {
        return Some(sign(0.0));
    }
    let e10 = m.dexp + exp;
    let top = m.sig as i64 + e10; // value in [10^(top-1), 10^top)
    if top > 310 {
        return Some(sign(f64::INFINITY));
    }
    if top < -324 {
        return Some(sign(0.0));
    }
    if FAST && m.sig <= 19 && m.small < 1 << 53 && (-22..=22).contains(&e10) {
        let p = POW10
            .get(e10.unsigned_abs() as usize)
            .copied()
            .unwrap_or(1.0);
        let v = m.small as f64;
        return Some(sign(if e10 < 0 { v / p } else { v * p }));
    }
    Some(sign(parse_slow(s, e10)))
}

/// The significant digits of a literal's mantissa (sign removed).
struct Mantissa {
    /// Bytes of the mantissa (digits and the point); 0 when it has no digit.
    len: usize,
    /// Significant digits kept (leading zeros skipped; one more for the sticky digit).
    sig: usize,
    /// The value is `digits × 10^dexp` (before the literal's exponent).
    dexp: i64,
    /// The first 19 significant digits.
    small: u64,
}

/// Scans the mantissa at the start of `s`; with `big`, accumulates its significant digits
/// there (at most [`MAX_DIGITS`], then one sticky digit `1` if any dropped one is not 0).
fn mantissa(s: &[u8], mut big: Option<&mut Big>) -> Mantissa {
    let mut m = Mantissa {
        len: 0,
        sig: 0,
        dexp: 0,
        small: 0,
    };
    let (mut point, mut any, mut sticky) = (false, false, false);
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'.' if !point => point = true,
            b'0'..=b'9' => {
                any = true;
                let d = u32::from(c - b'0');
                if m.sig == 0 && d == 0 {
                    m.dexp -= i64::from(point);
                } else if m.sig < MAX_DIGITS {
                    if m.sig < 19 {
                        m.small = m.small * 10 + u64::from(d);
                    }
                    if let Some(b) = big.as_deref_mut() {
                        b.mul_add_small(10, d);
                    }
                    m.sig += 1;
                    m.dexp -= i64::from(point);
                } else {
                    sticky |= d != 0;
                    m.dexp += i64::from(!point);
                }
            }
            _ => break,
        }
        m.len = i + 1;
    }
    if !any {
        m.len = 0;
    }
    if sticky {
        if let Some(b) = big {
            b.mul_add_small(10, 1);
        }
        m.sig += 1;
        m.dexp -= 1;
    }
    m
}

/// The mantissa of `s` times `10^e10` rounded to the nearest `f64` (ties to even), by long division:
/// `q = floor(N / S)` with 53 significant bits, then the remainder decides the rounding.
#[inline(never)]
fn parse_slow(s: &[u8], e10: i64) -> f64 {
    let mut num = Big::from_u64(0);
    mantissa(s, Some(&mut num));
    let mut den = Big::from_u64(1);
    if e10 >= 0 {
        num.mul_pow10(e10 as u32);
    } else {
        den.mul_pow10(e10.unsigned_abs() as u32);
    }
    // value = num / den × 2^e2 with num / den in [2^52, 2^53) (or e2 = -1074: subnormal).
    let mut e2 = (num.bits() as i64 - den.bits() as i64 - 53).max(-1074);
    if e2 >= 0 {
        den.shl(e2 as usize);
    } else {
        num.shl(e2.unsigned_abs() as usize);
    }
    let mut limit = den.clone();
    limit.shl(53);
    while num.cmp(&limit) != core::cmp::Ordering::Less {
        den.shl(1);
        limit.shl(1);
        e2 += 1;
    }
    limit.shr1();
    while e2 > -1074 && num.cmp(&limit) == core::cmp::Ordering::Less {
        num.shl(1);
        e2 -= 1;
    }
    // q < 2^53: restoring division, one bit at a time.
    let mut q = 0u64;
    let mut t = den.clone();
    t.shl(52);
    for _ in 0..53 {
        q <<= 1;
        if num.cmp(&t) != core::cmp::Ordering::Less {
            num.sub(&t);
            q |= 1;
        }
        t.shr1();
    }
    num.shl(1);
    let half = num.cmp(&den);
    if half == core::cmp::Ordering::Greater || (half == core::cmp::Ordering::Equal && q & 1 == 1) {
        q += 1;
        if q == 1 << 53 {
            q >>= 1;
            e2 += 1;
        }
    }
    if e2 + 52 > 1023 {
        return f64::INFINITY;
    }
    let bits = if q < 1 << 52 {
        q
    } else {
        ((e2 + 1075) as u64) << 52 | (q & ((1 << 52) - 1))
    };
    f64::from_bits(bits)
}

#[cfg(test)]
#[path = "float_tests.rs"]
mod tests;
