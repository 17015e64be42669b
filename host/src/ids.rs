//! Maps keyed by the machine's own ids (`StreamId`, `Handle`, `TemplateId`): numbers this
//! process hands out, never chosen by a peer, so they need no keyed (DoS-resistant) hash.
//! One multiply per key instead of SipHash's rounds: these maps are looked up on every
//! message (the stream's sink, the request's token, the template's handler).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` keyed by an id of this process.
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Multiplicative hashing of integer keys: `K` is odd, so the low bits (the bucket index)
/// are a bijection of the key's low bits, and the top seven (the table's control bytes) mix
/// all of them.
#[derive(Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(26) ^ v).wrapping_mul(K);
    }
}

#[cfg(test)]
mod tests {
    use super::IdMap;
    use mcp_context::server::StreamId;

    #[test]
    fn sequential_ids_spread_and_are_found() {
        let mut m: IdMap<StreamId, u64> = IdMap::default();
        for i in 0..10_000 {
            m.insert(StreamId(i), i * 3);
        }
        for i in 0..10_000 {
            assert_eq!(m.get(&StreamId(i)), Some(&(i * 3)));
        }
        assert_eq!(m.get(&StreamId(10_000)), None);
        // Consecutive ids land in distinct top bits (what the table reads first).
        let top = |i: u64| {
            use std::hash::BuildHasher;
            m.hasher().hash_one(StreamId(i)) >> 57
        };
        let distinct: std::collections::HashSet<u64> = (0..64).map(top).collect();
        assert!(distinct.len() > 32, "{}", distinct.len());
    }
}
