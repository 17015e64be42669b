//! The output-ready signal shared by both machines (docs/server-machine.md §Run loop):
//! an output queue that wakes the host's [`Waker`] whenever an output is queued while the
//! queue was empty, so a host that answers an event later (after async work) drains at
//! once instead of on its next input or timer.

use alloc::collections::VecDeque;
use core::task::Waker;

/// A FIFO of outputs with an optional waker.
pub(crate) struct WakingQueue<T> {
    q: VecDeque<T>,
    waker: Option<Waker>,
}

impl<T> Default for WakingQueue<T> {
    fn default() -> Self {
        Self {
            q: VecDeque::new(),
            waker: None,
        }
    }
}

impl<T> core::fmt::Debug for WakingQueue<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WakingQueue")
            .field("len", &self.q.len())
            .field("waker", &self.waker.is_some())
            .finish()
    }
}

impl<T> WakingQueue<T> {
    /// Installs `waker` (replacing any earlier one). Output already queued and not yet
    /// drained wakes it at once, so nothing queued before the call is missed.
    pub(crate) fn set_waker(&mut self, waker: Waker) {
        if !self.q.is_empty() {
            waker.wake_by_ref();
        }
        self.waker = Some(waker);
    }

    /// Queues `item`; wakes the waker when the queue was empty.
    pub(crate) fn push_back(&mut self, item: T) {
        let was_empty = self.q.is_empty();
        self.q.push_back(item);
        if was_empty && let Some(w) = &self.waker {
            w.wake_by_ref();
        }
    }

    pub(crate) fn pop_front(&mut self) -> Option<T> {
        self.q.pop_front()
    }

    /// Removes the first item that `first` selects, if `take` accepts it (never wakes).
    pub(crate) fn take_first(
        &mut self,
        first: impl FnMut(&T) -> bool,
        take: impl FnOnce(&T) -> bool,
    ) -> Option<T> {
        let i = self.q.iter().position(first)?;
        if take(self.q.get(i)?) {
            self.q.remove(i)
        } else {
            None
        }
    }

    pub(crate) fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.q.retain(keep);
    }

    pub(crate) fn len(&self) -> usize {
        self.q.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
}
