//! [`Otel`]: spans and metrics on the `opentelemetry` API, named by the semantic
//! conventions for MCP (`mcp_context::observe::attr`).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Mutex, PoisonError};

use mcp_context::observe::{Outcome, RequestObservation, TraceParent, attr};
use mcp_context::server::{StreamId, Transport};
use opentelemetry::global::{self, BoxedTracer};
use opentelemetry::metrics::{Counter, Gauge, Histogram, Meter};
use opentelemetry::trace::{
    Span, SpanContext, SpanId, SpanKind, Status, TraceContextExt, TraceFlags, TraceId, TraceState,
    Tracer,
};
use opentelemetry::{Context, KeyValue};

use super::{Finished, Refused, Sink};

/// The instrumentation scope's name.
pub const SCOPE: &str = "mcp-context";

/// A [`Sink`] that records one `SERVER` span per request (named `{method} {tool|prompt}`,
/// the parent taken from the request's `traceparent`) and the metrics of
/// docs/operations.md.
pub struct Otel {
    tracer: BoxedTracer,
    requests: Counter<u64>,
    duration: Histogram<f64>,
    refusals: Counter<u64>,
    listens: Gauge<u64>,
    sessions: Gauge<u64>,
    /// Where the metrics go (a broker started on the server reports there too).
    meter: Meter,
    /// Request spans opened at the gate, by stream and request id, until their observation.
    open: Mutex<HashMap<(StreamId, String), Context>>,
}

/// Spans opened at the gate kept at most (observations never drained: the table restarts).
const MAX_OPEN: usize = 4096;

impl std::fmt::Debug for Otel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Otel").finish_non_exhaustive()
    }
}

impl Otel {
    /// On the global tracer and meter providers (`opentelemetry::global`).
    #[must_use]
    pub fn global() -> Self {
        Self::with(global::tracer(SCOPE), &global::meter(SCOPE))
    }

    /// On this tracer and meter (e.g. an SDK provider's `tracer(SCOPE)`/`meter(SCOPE)`).
    pub fn new<T>(tracer: T, meter: &Meter) -> Self
    where
        T: Tracer + Send + Sync + 'static,
        T::Span: Send + Sync + 'static,
    {
        Self::with(BoxedTracer::new(Box::new(tracer)), meter)
    }

    fn with(tracer: BoxedTracer, meter: &Meter) -> Self {
        Self {
            tracer,
            requests: meter
                .u64_counter(attr::REQUESTS)
                .with_description("MCP requests by method and outcome")
                .build(),
            duration: meter
                .f64_histogram(attr::SERVER_OPERATION_DURATION)
                .with_unit("s")
                .with_description("MCP request duration, receipt to answer")
                .build(),
            refusals: meter
                .u64_counter(attr::REFUSALS)
                .with_description("Requests refused by a limit")
                .build(),
            listens: meter
                .u64_gauge(attr::OPEN_LISTENS)
                .with_description("Open listen subscriptions")
                .build(),
            sessions: meter
                .u64_gauge(attr::OPEN_SESSIONS)
                .with_description("Open 2025-11-25 HTTP sessions")
                .build(),
            open: Mutex::new(HashMap::new()),
            meter: meter.clone(),
        }
    }
}

/// The span's parent context: the request's `traceparent` (else the header's), remote.
fn parent_of(p: Option<TraceParent<'_>>, tracestate: Option<&str>) -> Context {
    p.map_or_else(Context::new, |p| {
        let state = tracestate
            .and_then(|s| TraceState::from_str(s).ok())
            .unwrap_or_default();
        Context::new().with_remote_span_context(SpanContext::new(
            TraceId::from_bytes(p.trace_id()),
            SpanId::from_bytes(p.span_id()),
            TraceFlags::new(p.flags()),
            true,
            state,
        ))
    })
}

fn transport(t: Transport) -> &'static str {
    match t {
        Transport::Stdio => "pipe",
        Transport::Http => "tcp",
    }
}

impl Sink for Otel {
    fn traces(&self) -> bool {
        true
    }

    fn meter(&self) -> Option<Meter> {
        Some(self.meter.clone())
    }

    fn start(&self, r: &RequestObservation, header: Option<&str>) -> Option<Context> {
        let parent = parent_of(r.trace_parent(header), r.tracestate.as_deref());
        let span = self
            .tracer
            .span_builder(r.span_name())
            .with_kind(SpanKind::Server)
            .start_with_context(&self.tracer, &parent);
        let cx = parent.with_span(span);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.len() >= MAX_OPEN {
            open.clear();
        }
        open.insert((r.stream, r.request_id.clone()), cx.clone());
        Some(cx)
    }

    fn request(&self, f: &Finished<'_>) {
        let r = f.record;
        let mut buf = [0u8; 12];
        let error_type = r.outcome.error_type(&mut buf).map(str::to_owned);
        let method = KeyValue::new(attr::METHOD_NAME, r.method.clone());
        let mut attrs = vec![
            method.clone(),
            KeyValue::new(attr::REQUEST_ID, r.request_id.clone()),
            KeyValue::new(attr::NETWORK_TRANSPORT, transport(r.transport)),
            KeyValue::new(attr::CALLER, i64::try_from(r.caller).unwrap_or(i64::MAX)),
        ];
        if let (Some(k), Some(t)) = (r.target_attribute(), &r.target) {
            attrs.push(KeyValue::new(k, t.clone()));
        }
        if r.method == "tools/call" {
            attrs.push(KeyValue::new(attr::OPERATION_NAME, attr::EXECUTE_TOOL));
        }
        if let Some(v) = &r.protocol_version {
            attrs.push(KeyValue::new(attr::PROTOCOL_VERSION, v.clone()));
        }
        if let Some(s) = &r.session_id {
            attrs.push(KeyValue::new(attr::SESSION_ID, s.clone()));
        }
        if let Some(e) = &error_type {
            attrs.push(KeyValue::new(attr::ERROR_TYPE, e.clone()));
        }
        if let Outcome::Error(code) = r.outcome {
            attrs.push(KeyValue::new(attr::RESPONSE_STATUS_CODE, code.to_string()));
        }
        for (k, v) in &r.annotations {
            attrs.push(KeyValue::new(k.clone(), v.clone()));
        }
        let opened = self
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(r.stream, r.request_id.clone()));
        if let Some(cx) = opened {
            // Opened at the gate: its attributes now, ended at the answer.
            let span = cx.span();
            span.set_attributes(attrs);
            if let Some(e) = &error_type {
                span.set_status(Status::error(e.clone()));
            }
            span.end_with_timestamp(f.end);
        } else {
            let parent = parent_of(f.parent, r.tracestate.as_deref());
            let mut span = self
                .tracer
                .span_builder(r.span_name())
                .with_kind(SpanKind::Server)
                .with_start_time(f.start)
                .with_attributes(attrs)
                .start_with_context(&self.tracer, &parent);
            if let Some(e) = &error_type {
                span.set_status(Status::error(e.clone()));
            }
            span.end_with_timestamp(f.end);
        }

        let mut labels = vec![method, KeyValue::new("outcome", r.outcome.label())];
        if let Some(e) = error_type {
            labels.push(KeyValue::new(attr::ERROR_TYPE, e));
        }
        self.requests.add(1, &labels);
        labels.push(KeyValue::new(
            attr::NETWORK_TRANSPORT,
            transport(r.transport),
        ));
        self.duration.record(r.duration_s(), &labels);
    }

    fn refused(&self, r: &Refused) {
        self.refusals
            .add(1, &[KeyValue::new(attr::LIMIT, r.refusal.limit.as_str())]);
    }

    fn gauges(&self, open_listens: usize, open_sessions: usize) {
        self.listens.record(open_listens as u64, &[]);
        self.sessions.record(open_sessions as u64, &[]);
    }
}
