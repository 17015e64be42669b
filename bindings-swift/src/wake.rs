//! `OutputReady`: the machines' output-ready signal as a Swift callback
//! (docs/server-machine.md §Run loop). The machine calls it each time it queues an output
//! while its queue was empty — from `respond*`, `fail`, `resourceUpdated`, `handleTimeout`,
//! `handleMessage`, … — so a host drains `pollOutput()` at once instead of on the next input.

use std::sync::Arc;
use std::task::{Wake, Waker};

use crate::client::ClientMachine;
use crate::server::ServerMachine;

/// Implemented in Swift: called when the machine has output to drain. It runs while the
/// machine is locked, inside the call that queued the output: it must not call back into the
/// machine; schedule the drain instead (resume a continuation, yield to an `AsyncStream`).
#[uniffi::export(with_foreign)]
pub trait OutputReady: Send + Sync {
    /// The machine's output queue went from empty to non-empty.
    fn output_ready(&self);
}

struct Bridge(Arc<dyn OutputReady>);

impl Wake for Bridge {
    fn wake(self: Arc<Self>) {
        self.0.output_ready();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.output_ready();
    }
}

fn waker(callback: Arc<dyn OutputReady>) -> Waker {
    Waker::from(Arc::new(Bridge(callback)))
}

#[uniffi::export]
impl ServerMachine {
    /// Installs the output-ready callback (replacing any earlier one); called at once if
    /// output is already queued.
    pub fn set_output_ready(&self, callback: Arc<dyn OutputReady>) {
        self.lock().set_waker(waker(callback));
    }

    /// Whether `pollOutput()` would return something.
    pub fn has_output(&self) -> bool {
        self.lock().has_output()
    }
}

#[uniffi::export]
impl ClientMachine {
    /// Installs the output-ready callback (replacing any earlier one); called at once if
    /// output is already queued.
    pub fn set_output_ready(&self, callback: Arc<dyn OutputReady>) {
        self.lock().set_waker(waker(callback));
    }

    /// Whether `pollOutput()` would return something.
    pub fn has_output(&self) -> bool {
        self.lock().has_output()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;
    use crate::server::{MessageContext, ServerTransport, server_config};

    struct Count(AtomicU32);
    impl OutputReady for Count {
        fn output_ready(&self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_queued_output_calls_back() {
        let server = ServerMachine::new(server_config()).unwrap();
        let count = Arc::new(Count(AtomicU32::new(0)));
        server.set_output_ready(count.clone());
        assert!(!server.has_output());
        let ctx = MessageContext {
            stream: 0,
            auth: 0,
            transport: ServerTransport::Stdio,
        };
        server.handle_message(b"{".to_vec(), 0, ctx);
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        assert!(server.has_output());
        while server.poll_output().is_some() {}
        assert!(!server.has_output());
    }
}
