//! [`Big`]: the fixed-size unsigned big integer under `float.rs`'s slow paths (shortest
//! digits and correctly rounded parsing of any `f64`), with just the operations they use.
//! Never allocates or panics; an operand beyond the capacity (which the callers' bounds
//! rule out) loses its top words instead.

/// Words of [`Big`]: the largest operand is `10^(MAX_DIGITS + 326)` shifted by 54 bits
/// (3,800 bits) in `parse`'s division (`MAX_DIGITS` = 780).
const WORDS: usize = 124;

/// Powers of ten that fit a `u32`.
const POW10_U32: [u32; 10] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// An unsigned big integer, little-endian 32-bit words; words at or above `n` are zero.
#[derive(Clone)]
pub(super) struct Big {
    n: usize,
    w: [u32; WORDS],
}

impl Big {
    pub(super) fn from_u64(v: u64) -> Self {
        let mut b = Big {
            n: 0,
            w: [0; WORDS],
        };
        for (i, x) in b.w.iter_mut().take(2).enumerate() {
            *x = (v >> (32 * i)) as u32;
        }
        b.n = 2;
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.n > 0 && self.w.get(self.n - 1).is_none_or(|&x| x == 0) {
            self.n -= 1;
        }
    }

    /// Appends a top word (dropped if the capacity is exceeded, which the callers' bounds
    /// rule out).
    fn push(&mut self, top: u32) {
        if top != 0
            && let Some(slot) = self.w.get_mut(self.n)
        {
            *slot = top;
            self.n += 1;
        }
    }

    /// `self = self * m + add`.
    pub(super) fn mul_add_small(&mut self, m: u32, add: u32) {
        let mut carry = u64::from(add);
        for x in self.w.iter_mut().take(self.n) {
            let t = u64::from(*x) * u64::from(m) + carry;
            *x = t as u32;
            carry = t >> 32;
        }
        self.push(carry as u32);
    }

    pub(super) fn mul_pow10(&mut self, mut k: u32) {
        while k >= 9 {
            self.mul_add_small(1_000_000_000, 0);
            k -= 9;
        }
        if let Some(&p) = POW10_U32.get(k as usize) {
            self.mul_add_small(p, 0);
        }
    }

    pub(super) fn add(&mut self, o: &Big) {
        let n = self.n.max(o.n);
        let mut carry = 0u64;
        for (x, y) in self.w.iter_mut().zip(o.w.iter()).take(n) {
            let t = u64::from(*x) + u64::from(*y) + carry;
            *x = t as u32;
            carry = t >> 32;
        }
        self.n = n;
        self.push(carry as u32);
    }

    /// `self -= o`, for `self >= o`.
    pub(super) fn sub(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for (x, y) in self.w.iter_mut().zip(o.w.iter()).take(self.n) {
            let t = i64::from(*x) - i64::from(*y) - borrow;
            *x = t as u32;
            borrow = i64::from(t < 0);
        }
        self.trim();
    }

    pub(super) fn cmp(&self, o: &Big) -> core::cmp::Ordering {
        let a = self.w.get(..self.n).unwrap_or_default().iter().rev();
        let b = o.w.get(..o.n).unwrap_or_default().iter().rev();
        self.n.cmp(&o.n).then_with(|| a.cmp(b))
    }

    /// `self <<= bits` (by multiplications: less code than a word shift).
    pub(super) fn shl(&mut self, mut bits: usize) {
        while bits >= 31 {
            self.mul_add_small(1 << 31, 0);
            bits -= 31;
        }
        self.mul_add_small(1 << bits, 0);
    }

    /// `self >>= 1`.
    pub(super) fn shr1(&mut self) {
        let mut carry = 0;
        for x in self.w.iter_mut().take(self.n).rev() {
            let next = *x << 31;
            *x = (*x >> 1) | carry;
            carry = next;
        }
        self.trim();
    }

    pub(super) fn bits(&self) -> usize {
        let top = self.w.get(self.n.wrapping_sub(1)).copied().unwrap_or(0);
        (self.n * 32).saturating_sub(top.leading_zeros() as usize)
    }
}
