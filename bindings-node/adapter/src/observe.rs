//! The core's observations (`mcp_context::observe`, docs/operations.md) as JS-shaped
//! objects, the same on both engines: one per finished request, one per refusal by a limit.

use mcp_context::observe::{Era, Observation, RequestObservation, TraceParent, attr};
use mcp_context::server::{Server, Transport};

use crate::value::{Js, Obj};

/// `{type: 'request', spanName, attributes, parent, method, requestId, target, caller,
/// stream, transport, era, protocolVersion, sessionId, traceparent, tracestate, outcome,
/// errorType, errorCode, annotations, startMs, endMs}` or `{type: 'refused', limit, caller, stream,
/// atMs}`. `outcome` is the counters' label (`ok`, `input_required`, `tool_error`,
/// `cancelled`, `error`); `errorType` the `error.type` attribute (`null` on success).
#[must_use]
pub fn observation(o: Observation) -> Js {
    match o {
        Observation::Request(r) => {
            let mut buf = [0u8; 12];
            let error_type = r.outcome.error_type(&mut buf).map(str::to_owned);
            let mut obj = Obj::typed("request");
            obj.set("spanName", r.span_name())
                .set("attributes", attributes(&r, error_type.as_deref()))
                .set("parent", r.trace_parent(None).map(parent))
                .set("method", r.method)
                .set("requestId", r.request_id)
                .set("target", r.target)
                .set("caller", r.caller)
                .set("stream", r.stream.0)
                .set("transport", transport(r.transport))
                .set(
                    "era",
                    match r.era {
                        Era::Modern => "2026-07-28",
                        Era::Legacy => "2025-11-25",
                    },
                )
                .set("protocolVersion", r.protocol_version)
                .set("sessionId", r.session_id)
                .set("traceparent", r.traceparent)
                .set("tracestate", r.tracestate)
                .set("outcome", r.outcome.label())
                .set("errorType", error_type)
                .set("errorCode", r.outcome.error_code().map(i32_js))
                .set("annotations", Obj::pairs(&r.annotations))
                .set("startMs", r.start_ms)
                .set("endMs", r.end_ms);
            obj.into()
        }
        Observation::Refused(r) => {
            let mut obj = Obj::typed("refused");
            obj.set("limit", r.limit.as_str())
                .set("caller", r.caller)
                .set("stream", r.stream.0)
                .set("atMs", r.at_ms);
            obj.into()
        }
    }
}

/// The span's attributes under the core's names (`observe::attr`, docs/operations.md),
/// annotations last.
fn attributes(r: &RequestObservation, error_type: Option<&str>) -> Obj {
    let mut a = Obj::default();
    a.set(attr::METHOD_NAME, r.method.clone())
        .set(attr::REQUEST_ID, r.request_id.clone())
        .set(
            attr::NETWORK_TRANSPORT,
            match r.transport {
                Transport::Stdio => "pipe",
                Transport::Http => "tcp",
            },
        )
        .set(attr::CALLER, r.caller);
    if let (Some(k), Some(t)) = (r.target_attribute(), &r.target) {
        a.set(k, t.clone());
    }
    if r.method == "tools/call" {
        a.set(attr::OPERATION_NAME, attr::EXECUTE_TOOL);
    }
    if let Some(v) = &r.protocol_version {
        a.set(attr::PROTOCOL_VERSION, v.clone());
    }
    if let Some(s) = &r.session_id {
        a.set(attr::SESSION_ID, s.clone());
    }
    if let Some(e) = error_type {
        a.set(attr::ERROR_TYPE, e.to_owned());
    }
    if let Some(code) = r.outcome.error_code() {
        a.set(attr::RESPONSE_STATUS_CODE, code.to_string());
    }
    if r.outcome
        == mcp_context::observe::Outcome::Result(mcp_context::observe::ResultKind::InputRequired)
    {
        a.set(attr::RESULT_TYPE, "input_required");
    }
    for (k, v) in &r.annotations {
        a.set(k.clone(), v.clone());
    }
    a
}

/// `{traceId, spanId, traceFlags, traceparent}` of a valid `traceparent`.
fn parent(t: TraceParent<'_>) -> Js {
    let mut o = Obj::default();
    o.set("traceId", t.trace_id_hex().to_owned())
        .set("spanId", t.span_id_hex().to_owned())
        .set("traceFlags", u64::from(t.flags()))
        .set("traceparent", t.as_str().to_owned());
    o.into()
}

/// The core's parse of a `traceparent` (an HTTP header's): `{traceId, spanId, traceFlags,
/// traceparent}`, or `null` when it is not valid. A request's own `_meta.traceparent`
/// (an observation's `parent`) comes first (docs/rules.md §26.3).
#[must_use]
pub fn trace_parent(text: &str) -> Js {
    TraceParent::parse(text).map_or(Js::Null, parent)
}

/// The attribute and metric names every runner uses (`observe::attr`), by role.
#[must_use]
pub fn names() -> Js {
    let mut o = Obj::default();
    for (k, v) in [
        ("methodName", attr::METHOD_NAME),
        ("sessionId", attr::SESSION_ID),
        ("resourceUri", attr::RESOURCE_URI),
        ("protocolVersion", attr::PROTOCOL_VERSION),
        ("requestId", attr::REQUEST_ID),
        ("responseStatusCode", attr::RESPONSE_STATUS_CODE),
        ("errorType", attr::ERROR_TYPE),
        ("toolName", attr::TOOL_NAME),
        ("promptName", attr::PROMPT_NAME),
        ("operationName", attr::OPERATION_NAME),
        ("networkTransport", attr::NETWORK_TRANSPORT),
        ("caller", attr::CALLER),
        ("limit", attr::LIMIT),
        ("resultType", attr::RESULT_TYPE),
        ("serverOperationDuration", attr::SERVER_OPERATION_DURATION),
        ("requests", attr::REQUESTS),
        ("refusals", attr::REFUSALS),
        ("openListens", attr::OPEN_LISTENS),
        ("openSessions", attr::OPEN_SESSIONS),
        ("brokerPublished", attr::BROKER_PUBLISHED),
        ("brokerDelivered", attr::BROKER_DELIVERED),
    ] {
        o.set(k, v);
    }
    o.set(
        "rateLimited",
        Js::Num(f64::from(mcp_context::observe::RATE_LIMITED)),
    )
    .set(
        "responseTooLarge",
        Js::Num(f64::from(mcp_context::observe::RESPONSE_TOO_LARGE)),
    );
    o.into()
}

fn i32_js(code: i32) -> Js {
    Js::Num(f64::from(code))
}

const fn transport(t: Transport) -> &'static str {
    match t {
        Transport::Stdio => "stdio",
        Transport::Http => "http",
    }
}

/// `{listens, sessions}`: the open listen subscriptions and 2025-11-25 HTTP sessions (the
/// up-down gauges of docs/operations.md).
#[must_use]
pub fn open_counts(server: &Server) -> Js {
    let mut obj = Obj::default();
    obj.set("listens", server.subscriptions() as u64)
        .set("sessions", server.open_sessions() as u64);
    obj.into()
}

impl crate::server::ServerAdapter {
    /// Adds `key = value` to the observation of `handle`'s request (middleware's
    /// annotations, docs/operations.md); ignored for a handle no longer pending.
    pub fn annotate(&mut self, handle: u64, key: &str, value: &str) {
        if let Ok(h) = self.handle(handle) {
            self.machine().annotate(h, key, value);
        }
    }
}
