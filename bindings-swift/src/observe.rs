//! The core's observations (docs/operations.md): `observe(on:)`, `pollObservation(nowMs:)`
//! after the outputs, middleware annotations, the response cap, the open counts, and the
//! attribute names. Conversions only: the records, names and trace-parent rule are the core's.

use std::collections::HashMap;

use mcp_context::observe::{self as obs, Era, Observation as CoreObservation, TraceParent, attr};
use mcp_context::server::{Handle, Transport};

use crate::server::ServerMachine;

/// A valid W3C `traceparent`: the parent of a request's span.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct TraceParentInfo {
    /// 32 lowercase hex digits.
    pub trace_id: String,
    /// The parent span id, 16 lowercase hex digits.
    pub span_id: String,
    /// The trace flags (`1`: sampled).
    pub trace_flags: u8,
    /// The whole value.
    pub traceparent: String,
}

pub(crate) fn trace_info(t: TraceParent<'_>) -> TraceParentInfo {
    TraceParentInfo {
        trace_id: t.trace_id_hex().to_owned(),
        span_id: t.span_id_hex().to_owned(),
        trace_flags: t.flags(),
        traceparent: t.as_str().to_owned(),
    }
}

/// One finished request, as the core observed it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct RequestObservation {
    /// The span name: `tools/call echo`, `prompts/get p`, or the method.
    pub span_name: String,
    /// The span's attributes under the core's names (`mcp.method.name`, …), annotations
    /// included (values as text).
    pub attributes: HashMap<String, String>,
    /// The request's own `_meta.traceparent`, when valid (the HTTP header's comes second:
    /// `parseTraceParent`).
    pub parent: Option<TraceParentInfo>,
    /// `mcp.method.name`.
    pub method: String,
    /// `jsonrpc.request.id`, as text.
    pub request_id: String,
    /// The tool or prompt name, or the URI.
    pub target: Option<String>,
    /// The caller-context id (`0` = anonymous).
    pub caller: u64,
    /// The stream it came on.
    pub stream: u64,
    /// `true` over HTTP, `false` over stdio.
    pub http: bool,
    /// `2026-07-28` or `2025-11-25`.
    pub era: String,
    /// The 2025-11-25 HTTP session.
    pub session_id: Option<String>,
    /// `params._meta.tracestate` as received.
    pub tracestate: Option<String>,
    /// The counters' label: `ok`, `input_required`, `tool_error`, `cancelled` or `error`.
    pub outcome: String,
    /// `error.type`: the error code as text, `tool_error` or `cancelled`; `nil` on success.
    pub error_type: Option<String>,
    /// The JSON-RPC error code of an error answer.
    pub error_code: Option<i32>,
    /// What middleware added (`annotate`), in order.
    pub annotations: Vec<ObservationAnnotation>,
    /// The host's clock (ms) at receipt.
    pub start_ms: u64,
    /// The host's clock (ms) when it was drained (its answer had left).
    pub end_ms: u64,
}

/// A middleware's annotation.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ObservationAnnotation {
    /// Attribute key.
    pub key: String,
    /// Value.
    pub value: String,
}

/// What `pollObservation` gives.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
#[allow(clippy::large_enum_variant)] // a record by value across the FFI, moved once
pub enum ServerObservation {
    /// A request finished.
    Request {
        /// The record.
        request: RequestObservation,
    },
    /// A limit refused a request: `limit` is `pending`, `listens`, `sessions`, `body`,
    /// `line`, `response`, `rate`, ….
    Refused {
        /// The limit's label (`mcp_context.limit`).
        limit: String,
        /// The caller-context id.
        caller: u64,
        /// The stream of the refused request.
        stream: u64,
        /// The host's clock (ms) at the refusal.
        at_ms: u64,
    },
}

/// The open listen subscriptions and 2025-11-25 HTTP sessions (the gauges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct OpenCounts {
    /// Open listens.
    pub listens: u64,
    /// Open sessions.
    pub sessions: u64,
}

fn convert(o: CoreObservation) -> ServerObservation {
    match o {
        CoreObservation::Request(r) => {
            let mut buf = [0u8; 12];
            let error_type = r.outcome.error_type(&mut buf).map(str::to_owned);
            let mut a = HashMap::new();
            a.insert(attr::METHOD_NAME.to_owned(), r.method.clone());
            a.insert(attr::REQUEST_ID.to_owned(), r.request_id.clone());
            let tcp = r.transport == Transport::Http;
            a.insert(
                attr::NETWORK_TRANSPORT.to_owned(),
                if tcp { "tcp" } else { "pipe" }.to_owned(),
            );
            a.insert(attr::CALLER.to_owned(), r.caller.to_string());
            if let (Some(k), Some(t)) = (r.target_attribute(), &r.target) {
                a.insert(k.to_owned(), t.clone());
            }
            if r.method == "tools/call" {
                a.insert(
                    attr::OPERATION_NAME.to_owned(),
                    attr::EXECUTE_TOOL.to_owned(),
                );
            }
            if let Some(v) = &r.protocol_version {
                a.insert(attr::PROTOCOL_VERSION.to_owned(), v.clone());
            }
            if let Some(s) = &r.session_id {
                a.insert(attr::SESSION_ID.to_owned(), s.clone());
            }
            if let Some(e) = &error_type {
                a.insert(attr::ERROR_TYPE.to_owned(), e.clone());
            }
            if let Some(c) = r.outcome.error_code() {
                a.insert(attr::RESPONSE_STATUS_CODE.to_owned(), c.to_string());
            }
            for (k, v) in &r.annotations {
                a.insert(k.clone(), v.clone());
            }
            ServerObservation::Request {
                request: RequestObservation {
                    span_name: r.span_name(),
                    attributes: a,
                    parent: r.trace_parent(None).map(trace_info),
                    target: r.target.clone(),
                    caller: r.caller,
                    stream: r.stream.0,
                    http: tcp,
                    era: match r.era {
                        Era::Modern => "2026-07-28",
                        Era::Legacy => "2025-11-25",
                    }
                    .to_owned(),
                    session_id: r.session_id.clone(),
                    tracestate: r.tracestate.clone(),
                    outcome: r.outcome.label().to_owned(),
                    error_type,
                    error_code: r.outcome.error_code(),
                    annotations: r
                        .annotations
                        .iter()
                        .map(|(key, value)| ObservationAnnotation {
                            key: key.clone(),
                            value: value.clone(),
                        })
                        .collect(),
                    start_ms: r.start_ms,
                    end_ms: r.end_ms,
                    method: r.method,
                    request_id: r.request_id,
                },
            }
        }
        CoreObservation::Refused(r) => ServerObservation::Refused {
            limit: r.limit.as_str().to_owned(),
            caller: r.caller,
            stream: r.stream.0,
            at_ms: r.at_ms,
        },
    }
}

#[uniffi::export]
impl ServerMachine {
    /// Turns the core's observations on (`true`) or off (the default: nothing recorded).
    pub fn observe(&self, on: bool) {
        self.lock().observe(on);
    }

    /// The next observation (drain after the outputs); `nil` when none or off.
    pub fn poll_observation(&self, now_ms: u64) -> Option<ServerObservation> {
        self.lock().poll_observation(now_ms).map(convert)
    }

    /// Adds `key = value` to the observation of `handle`'s request (span attributes, log
    /// line); ignored when off or answered.
    pub fn annotate(&self, handle: u64, key: String, value: String) {
        self.lock().annotate(Handle::from_raw(handle), &key, &value);
    }

    /// Caps answers at `max` bytes (`nil`: no cap): a bigger one becomes the error
    /// `responseTooLarge()` (-31413), observed as a `response` refusal.
    pub fn limit_responses(&self, max: Option<u64>) {
        let max = max.map(|m| usize::try_from(m).unwrap_or(usize::MAX));
        self.lock().limit_responses(max);
    }

    /// The open listens and sessions (the gauges).
    pub fn open_counts(&self) -> OpenCounts {
        let s = self.lock();
        OpenCounts {
            listens: s.subscriptions() as u64,
            sessions: s.open_sessions() as u64,
        }
    }
}

/// The core's parse of a `traceparent` (an HTTP header's); `nil` when not valid.
#[uniffi::export]
#[must_use]
pub fn parse_trace_parent(text: String) -> Option<TraceParentInfo> {
    TraceParent::parse(&text).map(trace_info)
}

/// The JSON-RPC error code a rate limit refuses with (-31429).
#[uniffi::export]
#[must_use]
pub const fn rate_limited_code() -> i32 {
    obs::RATE_LIMITED
}

/// The JSON-RPC error code of an answer over `limitResponses` (-31413).
#[uniffi::export]
#[must_use]
pub const fn response_too_large_code() -> i32 {
    obs::RESPONSE_TOO_LARGE
}

/// The message a rate limit refuses with after `waitMs` (`Rate limit exceeded: retry after
/// N ms`, the core's `fleet::rate` wording).
#[uniffi::export]
#[must_use]
pub fn rate_limited_message(wait_ms: u64) -> String {
    mcp_context::fleet::rate::rate_limited_message(wait_ms)
}
