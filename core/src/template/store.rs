//! Storage for the router index: growable `Vec`s with `alloc`, fixed arrays without.
//! One generic index is written against [`Buf`]; [`Storage`] picks the buffer kind.

/// A buffer of `Copy` items that may be full.
pub(crate) trait Buf<E: Copy + Default> {
    /// The items.
    fn items(&self) -> &[E];
    /// The items, mutably.
    fn items_mut(&mut self) -> &mut [E];
    /// Appends; `false` when full.
    fn push(&mut self, e: E) -> bool;
    /// Drops the items from `len` on.
    fn truncate(&mut self, len: usize);
    /// Makes the buffer hold exactly `len` copies of `fill`; `false` when that does not fit.
    fn reset(&mut self, len: usize, fill: E) -> bool;
    /// The most items it can hold, if bounded.
    fn capacity_limit(&self) -> Option<usize>;
    /// The number of items.
    fn len(&self) -> usize {
        self.items().len()
    }
}

/// Picks the buffer type of an index.
pub(crate) trait Storage {
    /// The buffer of `E`.
    type Buf<E: Copy + Default>: Buf<E>;
    /// An empty buffer.
    fn buf<E: Copy + Default>() -> Self::Buf<E>;
}

/// A fixed-capacity buffer of `N` items.
#[derive(Debug, Clone)]
pub(crate) struct ArrayBuf<E, const N: usize> {
    items: [E; N],
    len: usize,
}

impl<E: Copy + Default, const N: usize> Buf<E> for ArrayBuf<E, N> {
    fn items(&self) -> &[E] {
        self.items.get(..self.len).unwrap_or_default()
    }
    fn items_mut(&mut self) -> &mut [E] {
        self.items.get_mut(..self.len).unwrap_or_default()
    }
    fn push(&mut self, e: E) -> bool {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = e;
                self.len += 1;
                true
            }
            None => false,
        }
    }
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
    fn reset(&mut self, len: usize, fill: E) -> bool {
        let Some(dst) = self.items.get_mut(..len) else {
            return false;
        };
        dst.fill(fill);
        self.len = len;
        true
    }
    fn capacity_limit(&self) -> Option<usize> {
        Some(N)
    }
}

/// Fixed arrays of `N` items each (no allocation).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ArrayStorage<const N: usize>;

impl<const N: usize> Storage for ArrayStorage<N> {
    type Buf<E: Copy + Default> = ArrayBuf<E, N>;
    fn buf<E: Copy + Default>() -> ArrayBuf<E, N> {
        ArrayBuf {
            items: [E::default(); N],
            len: 0,
        }
    }
}

#[cfg(feature = "alloc")]
mod vec {
    use super::{Buf, Storage};
    use alloc::vec::Vec;

    impl<E: Copy + Default> Buf<E> for Vec<E> {
        fn items(&self) -> &[E] {
            self
        }
        fn items_mut(&mut self) -> &mut [E] {
            self
        }
        fn push(&mut self, e: E) -> bool {
            Vec::push(self, e);
            true
        }
        fn truncate(&mut self, len: usize) {
            Vec::truncate(self, len);
        }
        fn reset(&mut self, len: usize, fill: E) -> bool {
            self.clear();
            self.resize(len, fill);
            true
        }
        fn capacity_limit(&self) -> Option<usize> {
            None
        }
    }

    /// Growable vectors (feature `alloc`).
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct VecStorage;

    impl Storage for VecStorage {
        type Buf<E: Copy + Default> = Vec<E>;
        fn buf<E: Copy + Default>() -> Vec<E> {
            Vec::new()
        }
    }
}

#[cfg(feature = "alloc")]
pub(crate) use vec::VecStorage;
