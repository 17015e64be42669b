//! The middleware hook: one shape that sees each request before its handler and each
//! answer after it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_context::auth::resource_server::Caller;

use crate::Error;

/// A request on its way to a handler, as middleware sees it.
#[derive(Debug)]
pub struct Call {
    /// `mcp.method.name`: any request's (`server/discover`, `resources/list`,
    /// `tools/call`, `resources/read`, a host method, …).
    pub method: String,
    /// The tool or prompt name, or the URI.
    pub target: Option<String>,
    /// The caller-context id (`0` = anonymous; [`crate::Context::caller`]).
    pub caller: u64,
    /// The verified caller of a protected endpoint.
    pub principal: Option<Arc<Caller>>,
    pub(crate) annotations: Vec<(String, String)>,
    pub(crate) started: Instant,
    /// The request span a tracing sink opened at the gate: current while the handler runs.
    pub(crate) span: Option<opentelemetry::Context>,
}

impl Call {
    pub(crate) fn new(
        method: &str,
        target: Option<&str>,
        caller: u64,
        principal: Option<Arc<Caller>>,
    ) -> Self {
        Self {
            method: method.to_owned(),
            target: target.map(str::to_owned),
            caller,
            principal,
            annotations: Vec::new(),
            started: Instant::now(),
            span: None,
        }
    }

    /// Adds `key = value` to the request's span attributes and log line.
    pub fn annotate(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.annotations.push((key.into(), value.into()));
    }

    /// The annotations so far.
    #[must_use]
    pub fn annotations(&self) -> &[(String, String)] {
        &self.annotations
    }

    /// Time since the request reached the first middleware.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Runs on every request, before the machine acts on it (the core's gate, docs/rules.md
/// §26.7): [`Middleware::before`] in the order added (any `Err` refuses the request with
/// that error and skips the machine, the handler and the later middleware),
/// [`Middleware::after`] in reverse order once the handler answered (or was refused), or
/// at once for a request the core answers itself (lists, `server/discover`, static
/// resources), which thus meets the same rate limit and audit as any other.
pub trait Middleware: Send + Sync + 'static {
    /// Before the handler: allow (`Ok`), refuse (`Err`, e.g.
    /// `Error::application(RATE_LIMITED, …)`), annotate ([`Call::annotate`]).
    ///
    /// # Errors
    /// The error the request is answered with instead of calling the handler.
    fn before(&self, call: &mut Call) -> Result<(), Error> {
        let _ = call;
        Ok(())
    }

    /// After the handler (or the refusal): `outcome` is the handler's error, if any.
    fn after(&self, call: &Call, outcome: Result<(), &Error>) {
        let _ = (call, outcome);
    }
}

/// Runs every `before` in order; the first refusal stops.
pub(crate) fn before_all(chain: &[Arc<dyn Middleware>], call: &mut Call) -> Result<(), Error> {
    for m in chain {
        m.before(call)?;
    }
    Ok(())
}

/// Runs every `after`, last added first.
pub(crate) fn after_all(chain: &[Arc<dyn Middleware>], call: &Call, outcome: Result<(), &Error>) {
    for m in chain.iter().rev() {
        m.after(call, outcome);
    }
}
