//! The output-ready signal (docs/server-machine.md): the core wakes a `Waker` each time an
//! output is queued on an empty queue; here the waker schedules the host's JS callback
//! through a Node-API thread-safe function (non-blocking, on the next turn of the event
//! loop: never re-entering the machine from inside one of its own calls). One call is
//! pending at a time; draining the queue (`pollOutput` returning `null`) re-arms it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Wake, Waker};

use napi::Result;
use napi::bindgen_prelude::Function;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};

type Callback = ThreadsafeFunction<(), (), (), napi::Status, false, true, 0>;

/// A host callback as a core `Waker`.
pub(crate) struct JsWaker {
    callback: Callback,
    scheduled: AtomicBool,
}

impl JsWaker {
    /// Wraps `callback` (weak: it does not keep the event loop alive).
    pub(crate) fn new(callback: &Function<'_, (), ()>) -> Result<Arc<Self>> {
        let callback = callback
            .build_threadsafe_function::<()>()
            .callee_handled::<false>()
            .weak::<true>()
            .build()?;
        Ok(Arc::new(Self {
            callback,
            scheduled: AtomicBool::new(false),
        }))
    }

    /// Quiets the signal for a call that drains its own outputs (an outbox call): whether it
    /// was armed, and so must be re-armed with [`JsWaker::rearm`] after the call.
    pub(crate) fn hold(&self) -> bool {
        !self.scheduled.swap(true, Ordering::AcqRel)
    }

    /// The queue was drained: the next output schedules the callback again.
    pub(crate) fn rearm(&self) {
        self.scheduled.store(false, Ordering::Release);
    }

    /// Wraps `callback` and hands its waker to a machine with `set`; keep the result (its
    /// [`JsWaker::rearm`] runs when `pollOutput` drains the queue).
    pub(crate) fn install(
        callback: &Function<'_, (), ()>,
        set: impl FnOnce(Waker),
    ) -> Result<Arc<Self>> {
        let w = Self::new(callback)?;
        set(w.waker());
        Ok(w)
    }

    /// The waker to hand to the core.
    pub(crate) fn waker(self: &Arc<Self>) -> Waker {
        Waker::from(Arc::clone(self))
    }
}

impl Wake for JsWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if !self.scheduled.swap(true, Ordering::AcqRel) {
            let _ = self
                .callback
                .call((), ThreadsafeFunctionCallMode::NonBlocking);
        }
    }
}
