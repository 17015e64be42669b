//! Hashing a text by its canonical units (`%XX` as the byte it encodes), so that texts
//! that compare equal through normalisation hash alike: the router's index keys.

use super::{STOP, bits, unit_at};

/// Hashes the canonical bytes of a text (each `%XX` triplet as the byte it encodes, every
/// other byte as itself), eight at a time: a word is mixed once full. Texts that compare
/// equal have equal canonical bytes, so equal hashes; a raw reserved character and its
/// encoding hash alike, which the key comparison after the probe tells apart.
#[derive(Clone, Copy)]
struct Hasher {
    h: u64,
    /// Canonical bytes not yet mixed (little-endian), `k` of them.
    acc: u64,
    k: u32,
    n: u32,
}

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
const fn mix(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(0xA076_1D64_78BD_642F).rotate_left(29)
}

impl Hasher {
    const fn new() -> Self {
        Self {
            h: SEED,
            acc: 0,
            k: 0,
            n: 0,
        }
    }

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn byte(&mut self, b: u8) {
        self.acc |= u64::from(b) << (8 * self.k);
        self.k += 1;
        self.n += 1;
        if self.k == 8 {
            self.h = mix(self.h, self.acc);
            self.acc = 0;
            self.k = 0;
        }
    }

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn finish(self) -> u32 {
        let h = if self.k > 0 {
            mix(self.h, self.acc)
        } else {
            self.h
        };
        let h = (h ^ u64::from(self.n)).wrapping_mul(0xE703_7ED1_A0B4_28DB);
        (h >> 32) as u32 ^ h as u32
    }
}

/// A hash of the canonical units of `s`, equal for texts that compare equal.
#[inline]
pub(crate) fn hash(s: &[u8]) -> u32 {
    let mut h = Hasher::new();
    let mut i = 0;
    while let Some((u, w)) = unit_at(s, i) {
        h.byte(u.byte);
        i += w;
    }
    h.finish()
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// A mask whose lowest set bit marks the first byte of `w` (little-endian) that is `/`, `?`,
/// `#` or `%` (higher bits may be spurious).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn special(w: u64) -> u64 {
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    zero(w ^ (LO * u64::from(b'/')))
        | zero(w ^ (LO * u64::from(b'?')))
        | zero(w ^ (LO * u64::from(b'#')))
        | zero(w ^ (LO * u64::from(b'%')))
}

/// The end of the URI segment at `pos` (the next `/`, `?`, `#` or the end) and the hash of
/// its canonical units ([`hash`]): eight plain bytes per step, unit by unit from a `%` on.
#[inline]
pub(crate) fn scan_hash(s: &[u8], pos: usize) -> (usize, u32) {
    let mut st = Hasher::new();
    let mut i = pos;
    while let Some(chunk) = s.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        let m = special(w);
        if m == 0 {
            st.h = mix(st.h, w);
            st.n += 8;
            i += 8;
            continue;
        }
        let k = m.trailing_zeros() / 8;
        // The bytes before the special one are plain: they start the pending word.
        st.acc = w & ((1u64 << (8 * k)) - 1);
        st.k = k;
        st.n += k;
        i += k as usize;
        break;
    }
    while let Some((u, w)) = unit_at(s, i) {
        if u.raw && bits(u.byte) & STOP != 0 {
            break;
        }
        st.byte(u.byte);
        i += w;
    }
    (i, st.finish())
}
