//! The server's one sort ([`sort_by`]): `requestState` bindings sort a few names (prompt
//! arguments, params members). One small heapsort shared by both instead of the standard
//! library's stable sort (1–2 KiB of flash per element type on a microcontroller).

/// Sorts `v` by `less` in place: heapsort, O(n log n) for any input (hostile params
/// included), no allocation, not stable (callers order ties themselves).
pub(crate) fn sort_by<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    // Moves `v[root]` down the heap `v[..end]`.
    let sift = |v: &mut [T], mut root: usize, end: usize| {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end
                && let (Some(a), Some(b)) = (v.get(child), v.get(child + 1))
                && less(a, b)
            {
                child += 1;
            }
            match (v.get(root), v.get(child)) {
                (Some(r), Some(c)) if less(r, c) => v.swap(root, child),
                _ => return,
            }
            root = child;
        }
    };
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift(v, i, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn sorts_like_the_standard_sort() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in 0..64 {
            let mut v: Vec<u32> = (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 16) as u32
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            sort_by(&mut v, |a, b| a < b);
            assert_eq!(v, want);
        }
    }
}
