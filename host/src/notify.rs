//! [`Notifier`]: change notifications and runtime changes to the machine, from anywhere.

use std::fmt;
use std::sync::Arc;

use mcp_context::server::Server;

use crate::engine::Engine;

/// A cloneable handle on a running server: tell listeners what changed, or change what is
/// registered. Every call drains the machine, so notifications leave at once.
#[derive(Clone)]
pub struct Notifier {
    engine: Arc<Engine>,
}

impl fmt::Debug for Notifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Notifier").finish_non_exhaustive()
    }
}

impl Notifier {
    pub(crate) fn new(engine: Arc<Engine>) -> Self {
        Self { engine }
    }

    /// `notifications/resources/updated` for `uri` to the subscriptions that listed it (or a
    /// URI it is a sub-resource of).
    pub fn resource_updated(&self, uri: &str) {
        self.engine.input(|st, _| st.server.resource_updated(uri));
    }

    /// `notifications/resources/list_changed` to the subscriptions that asked for it.
    pub fn resources_list_changed(&self) {
        self.engine
            .input(|st, _| st.server.resources_list_changed());
    }

    /// `notifications/prompts/list_changed` to the subscriptions that asked for it.
    pub fn prompts_list_changed(&self) {
        self.engine.input(|st, _| st.server.prompts_list_changed());
    }

    /// `notifications/tools/list_changed` to the subscriptions that asked for it.
    pub fn tools_list_changed(&self) {
        self.engine.input(|st, _| st.server.tools_list_changed());
    }

    /// Runs `f` on the machine (register or remove resources, templates, prompts; store
    /// new contents), then drains it.
    pub fn with_server<R>(&self, f: impl FnOnce(&mut Server) -> R) -> R {
        self.engine.input(|st, _| f(&mut st.server))
    }

    /// The meters of the server's sinks (an [`crate::telemetry::Otel`]'s), in order.
    #[cfg(feature = "redis")] // for the broker
    pub(crate) fn meters(&self) -> Vec<opentelemetry::metrics::Meter> {
        self.engine.meters()
    }

    /// Graceful close of every subscription: each listen gets its final result.
    pub fn shutdown(&self) {
        self.engine.input(|st, _| st.server.shutdown());
    }
}
