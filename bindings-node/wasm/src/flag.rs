//! The output-ready signal of both machines as a flag: the core raises it when an output is
//! queued on an empty queue; the glue reads and clears it (`takeWoken`) after each call
//! returns and then calls the host's callback, outside the machine (`engine.mjs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Wake, Waker};

/// The flag a machine's waker raises.
pub(crate) struct Flag(AtomicBool);

impl Flag {
    /// A lowered flag, and the waker to hand to the core that raises it.
    pub(crate) fn install() -> (Arc<Self>, Waker) {
        let flag = Arc::new(Self(AtomicBool::new(false)));
        let waker = Waker::from(Arc::clone(&flag));
        (flag, waker)
    }

    /// Whether it was raised since the last call (and lowers it).
    pub(crate) fn take(&self) -> bool {
        self.0.swap(false, Ordering::AcqRel)
    }
}

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::Release);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::Release);
    }
}
