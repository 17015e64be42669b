//! Telemetry and middleware (docs/operations.md): the core's observations
//! (`mcp_context::observe`) turned into OpenTelemetry spans and metrics ([`Otel`]) and
//! one JSON line per request ([`JsonLog`]); a [`Middleware`] hook around every handler,
//! with ready pieces ([`RateLimit`], [`App::limit_responses`](crate::App::limit_responses)).
//!
//! Nothing here runs unless the application asks: without a [`Sink`] the machine records
//! no observation, without a [`Middleware`] a handler is called directly.
//!
//! ```
//! use mcp_context_host::App;
//! use mcp_context_host::telemetry::{JsonLog, Otel, RateLimit};
//!
//! let mut app = App::named("notes", "1.0.0");
//! app.sink(Otel::global())                  // spans and metrics on the global providers
//!     .sink(JsonLog::stderr())              // one JSON line per request
//!     .middleware(RateLimit::per_caller(10.0, 20.0)) // 10/s, bursts of 20, per caller
//!     .limit_responses(1 << 20);            // answers over 1 MiB become an error
//! # drop(app);
//! ```

mod log;
pub(crate) mod middleware;
mod otel;
mod rate;
#[cfg(feature = "redis")]
mod rate_redis;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

pub use log::JsonLog;
pub use mcp_context::observe::{
    Era, Limit, Observation, Outcome, RATE_LIMITED, RESPONSE_TOO_LARGE, Refusal,
    RequestObservation, ResultKind, TraceParent, attr,
};
pub use middleware::{Call, Middleware};
pub use otel::{Otel, SCOPE};
pub use rate::RateLimit;
#[cfg(feature = "redis")]
pub use rate_redis::RedisRateLimit;

/// A finished request, as a [`Sink`] gets it.
#[derive(Debug)]
pub struct Finished<'a> {
    /// The core's record.
    pub record: &'a RequestObservation,
    /// The span's parent: the request's `_meta.traceparent`, else the HTTP header's.
    pub parent: Option<TraceParent<'a>>,
    /// When it was received (wall clock).
    pub start: SystemTime,
    /// When its answer left (wall clock).
    pub end: SystemTime,
}

/// A refusal by a limit, as a [`Sink`] gets it.
#[derive(Debug)]
pub struct Refused {
    /// The core's record (or the host's, for [`Limit::Rate`]).
    pub refusal: Refusal,
    /// When (wall clock).
    pub at: SystemTime,
}

/// Where observations go. Called outside the machine's lock, in the order they happened.
pub trait Sink: Send + Sync + 'static {
    /// A request finished.
    fn request(&self, finished: &Finished<'_>) {
        let _ = finished;
    }
    /// A limit refused a request.
    fn refused(&self, refused: &Refused) {
        let _ = refused;
    }
    /// The open listens and 2025-11-25 sessions, after each input that produced
    /// observations.
    fn gauges(&self, open_listens: usize, open_sessions: usize) {
        let _ = (open_listens, open_sessions);
    }
    /// Whether this sink opens request spans at the gate ([`Sink::start`]): then every
    /// request stops at the core's gate (docs/rules.md §26.7).
    fn traces(&self) -> bool {
        false
    }
    /// A request reached the gate (`request`: its fields at receipt; `header`: the HTTP
    /// `traceparent`): the context of the span opened for it, made current while its handler
    /// runs (a span the handler opens is its child); [`Sink::request`] ends it.
    fn start(
        &self,
        request: &RequestObservation,
        header: Option<&str>,
    ) -> Option<opentelemetry::Context> {
        let _ = (request, header);
        None
    }
    /// The meter this sink records on, if any: a broker started on the server
    /// ([`crate::fleet::RedisBroker::start`]) reports its metrics there too.
    fn meter(&self) -> Option<opentelemetry::metrics::Meter> {
        None
    }
}

/// What the engine holds: middleware in order, sinks, and the wall clock at its start.
#[derive(Default, Clone)]
pub(crate) struct Layers {
    pub(crate) middleware: Vec<Arc<dyn Middleware>>,
    pub(crate) sinks: Vec<Arc<dyn Sink>>,
    /// A sink opens request spans at the gate.
    pub(crate) tracing: bool,
}

impl Layers {
    /// The request span, opened at the gate by the tracing sinks (the first one's context).
    pub(crate) fn start(
        &self,
        request: &RequestObservation,
        header: Option<&str>,
    ) -> Option<opentelemetry::Context> {
        let mut first = None;
        for s in self.sinks.iter().filter(|s| s.traces()) {
            let cx = s.start(request, header);
            if first.is_none() {
                first = cx;
            }
        }
        first
    }

    /// A middleware refused a request from `auth` with `e`: a rate limit's refusal is a
    /// `rate` refusal for the sinks.
    pub(crate) fn refused_by(&self, e: &crate::Error, auth: u64, epoch: SystemTime, now: u64) {
        let rate = matches!(e.failure(),
            mcp_context::server::Failure::Application { code, .. } if *code == RATE_LIMITED);
        if rate && !self.sinks.is_empty() {
            let r = Observation::Refused(Refusal {
                limit: Limit::Rate,
                caller: auth,
                stream: mcp_context::server::StreamId(0),
                at_ms: now,
            });
            self.deliver(&[(r, None)], epoch, (usize::MAX, usize::MAX));
        }
    }

    /// Hands `obs` to every sink; `epoch` is the wall clock at the machine's time 0,
    /// `header` the HTTP `traceparent` of the observation's stream.
    pub(crate) fn deliver(
        &self,
        obs: &[(Observation, Option<String>)],
        epoch: SystemTime,
        gauges: (usize, usize),
    ) {
        let at = |ms: u64| epoch + Duration::from_millis(ms);
        for (o, header) in obs {
            match o {
                Observation::Request(r) => {
                    let f = Finished {
                        record: r,
                        parent: r.trace_parent(header.as_deref()),
                        start: at(r.start_ms),
                        end: at(r.end_ms),
                    };
                    for s in &self.sinks {
                        s.request(&f);
                    }
                }
                Observation::Refused(r) => {
                    let refused = Refused {
                        refusal: *r,
                        at: at(r.at_ms),
                    };
                    for s in &self.sinks {
                        s.refused(&refused);
                    }
                }
            }
        }
        if gauges != (usize::MAX, usize::MAX) {
            for s in &self.sinks {
                s.gauges(gauges.0, gauges.1);
            }
        }
    }
}

impl crate::App {
    /// Sends the core's observations to `sink` (turns them on; several sinks get the same).
    pub fn sink(&mut self, sink: impl Sink) -> &mut Self {
        let sink: Arc<dyn Sink> = Arc::new(sink);
        self.op(move |s, built| {
            s.observe(true);
            if sink.traces() {
                s.gate(true);
                built.handlers.layers.tracing = true;
            }
            built.handlers.layers.sinks.push(sink);
            Ok(())
        })
    }

    /// Runs `m` on every request, after the middleware added before it (the first added
    /// sees a request first and its answer last): at the core's gate (docs/rules.md
    /// §26.7), so the requests the core answers itself (`server/discover`, lists, static
    /// reads) meet it too; a handler's answer runs its `after` once the handler returns.
    pub fn middleware(&mut self, m: impl Middleware) -> &mut Self {
        let m: Arc<dyn Middleware> = Arc::new(m);
        self.op(move |s, built| {
            s.gate(true);
            built.handlers.layers.middleware.push(m);
            Ok(())
        })
    }

    /// Answers over `max` bytes become the error [`RESPONSE_TOO_LARGE`] (the core's
    /// `Server::limit_responses`), counted as a `response` refusal.
    pub fn limit_responses(&mut self, max: usize) -> &mut Self {
        self.op(move |s, _| {
            s.limit_responses(Some(max));
            Ok(())
        })
    }
}
