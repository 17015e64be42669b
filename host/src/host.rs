//! [`Host`]: a built [`App`](crate::App), ready to serve.

use std::fmt;
use std::sync::Arc;

use crate::engine::Engine;
use crate::notify::Notifier;

/// A server ready to serve: over stdio ([`Host::serve_stdio`], [`Host::serve`]) or
/// Streamable HTTP ([`Host::router`]). Cheap to clone; every clone drives the same
/// machine.
#[derive(Clone)]
pub struct Host {
    pub(crate) engine: Arc<Engine>,
}

impl fmt::Debug for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Host").finish_non_exhaustive()
    }
}

impl Host {
    pub(crate) fn new(engine: Arc<Engine>) -> Self {
        Self { engine }
    }

    /// Change notifications and runtime registration.
    #[must_use]
    pub fn notifier(&self) -> Notifier {
        Notifier::new(self.engine.clone())
    }
}
