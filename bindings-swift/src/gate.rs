//! The gate (docs/rules.md §26.7): with `gate(on: true)`, `gateRequest` stops each request
//! before the machine acts on it, the ones the core answers itself included, so the Swift
//! host's middleware sees every request; then `gateAdmit` hands it to the machine unchanged, or
//! `gateRefuse` answers it with the error a handler's failure gets. Conversions only: what is
//! gated, what a refusal answers and what is observed are the core's.

use std::sync::{Mutex, MutexGuard};

use mcp_context::observe::Era;
use mcp_context::server::{GateRequest as CoreGate, Received as CoreReceived, Transport};

use crate::observe::{TraceParentInfo, trace_info};
use crate::server::{Failure, MessageContext, Received, ServerMachine};

/// What middleware sees of a gated request (the fields its observation has at receipt).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct GateInfo {
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
    /// The protocol version its `_meta` names.
    pub protocol_version: Option<String>,
    /// The 2025-11-25 HTTP session.
    pub session_id: Option<String>,
    /// `params._meta.traceparent`, when valid.
    pub parent: Option<TraceParentInfo>,
    /// `params._meta.tracestate` as received.
    pub tracestate: Option<String>,
    /// The host's clock (ms) at receipt.
    pub start_ms: u64,
}

/// A request stopped at the gate, until `gateAdmit` or `gateRefuse` takes it (once).
#[derive(uniffi::Object)]
pub struct GatedRequest {
    info: GateInfo,
    gate: Mutex<Option<CoreGate>>,
}

impl std::fmt::Debug for GatedRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatedRequest")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl GatedRequest {
    fn slot(&self) -> MutexGuard<'_, Option<CoreGate>> {
        self.gate
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn take(&self) -> Option<CoreGate> {
        self.slot().take()
    }
}

#[uniffi::export]
impl GatedRequest {
    /// The request's fields.
    pub fn info(&self) -> GateInfo {
        self.info.clone()
    }

    /// Adds `key = value` to the request's observation (span attributes, log line), whether
    /// it is then admitted or refused; ignored once decided.
    pub fn annotate(&self, key: String, value: String) {
        if let Some(g) = self.slot().as_mut() {
            g.annotate(key, value);
        }
    }

    /// Whether `gateAdmit` or `gateRefuse` took it already.
    pub fn decided(&self) -> bool {
        self.slot().is_none()
    }
}

fn gated(g: CoreGate) -> GatedRequest {
    let r = g.request();
    let info = GateInfo {
        method: r.method.clone(),
        request_id: r.request_id.clone(),
        target: r.target.clone(),
        caller: r.caller,
        stream: r.stream.0,
        http: r.transport == Transport::Http,
        era: match r.era {
            Era::Modern => "2026-07-28",
            Era::Legacy => "2025-11-25",
        }
        .to_owned(),
        protocol_version: r.protocol_version.clone(),
        session_id: r.session_id.clone(),
        parent: r.trace_parent(None).map(trace_info),
        tracestate: r.tracestate.clone(),
        start_ms: r.start_ms,
    };
    GatedRequest {
        info,
        gate: Mutex::new(Some(g)),
    }
}

#[uniffi::export]
impl ServerMachine {
    /// Turns the gate on (`true`) or off (the default: `gateRequest` is `nil`).
    pub fn gate(&self, on: bool) {
        self.lock().gate(on);
    }

    /// Whether the gate is on.
    pub fn gating(&self) -> bool {
        self.lock().gating()
    }

    /// The request in `bytes` (received at `nowMs` from `context`) stopped at the gate; `nil`
    /// when the gate is off or `bytes` is no request (hand it to `handleMessage` at once).
    pub fn gate_request(
        &self,
        bytes: Vec<u8>,
        now_ms: u64,
        context: MessageContext,
    ) -> Option<std::sync::Arc<GatedRequest>> {
        let g = self.lock().gate_request(&bytes, now_ms, context.into())?;
        Some(std::sync::Arc::new(gated(g)))
    }

    /// Admits `gate` and hands its `bytes` to the machine as `handleMessage` does, under one
    /// lock (nothing comes between); `nil` when `gate` was decided already (nothing done).
    pub fn gate_admit(
        &self,
        gate: std::sync::Arc<GatedRequest>,
        bytes: Vec<u8>,
        now_ms: u64,
        context: MessageContext,
    ) -> Option<Received> {
        let g = gate.take()?;
        let mut server = self.lock();
        server.gate_admit(g);
        Some(
            match server.handle_message(&bytes, now_ms, context.into()) {
                CoreReceived::Request => Received::Request,
                CoreReceived::Notification => Received::Notification,
                CoreReceived::Response => Received::Response,
                _ => Received::Invalid,
            },
        )
    }

    /// Refuses `gate`: the machine queues the error the same `failure` from a handler gets
    /// (`.application` with a code and message, e.g. `rateLimitedCode()`); drain as usual.
    /// `false` when `gate` was decided already.
    pub fn gate_refuse(&self, gate: std::sync::Arc<GatedRequest>, failure: Failure) -> bool {
        let Some(g) = gate.take() else {
            return false;
        };
        self.lock().gate_refuse(g, failure.into());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::{ServerTransport, server_config};
    use crate::server_types::ServerOutput;

    const LIST: &[u8] = br#"{"jsonrpc":"2.0","id":7,"method":"resources/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}"#;

    fn ctx() -> MessageContext {
        MessageContext {
            stream: 3,
            auth: 9,
            transport: ServerTransport::Stdio,
        }
    }

    fn machine() -> ServerMachine {
        let mut config = server_config();
        config.declare_resources = true;
        ServerMachine::new(config).unwrap()
    }

    fn answer(m: &ServerMachine) -> String {
        match m.poll_output() {
            Some(ServerOutput::Transmit { bytes, .. }) => String::from_utf8(bytes).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    /// Off, nothing is gated; on, a core-answered list is, with its fields; admitted, it gets
    /// the machine's own answer; a decided gate cannot be decided again.
    #[test]
    fn a_core_answered_request_is_gated_then_admitted_once() {
        let m = machine();
        assert!(m.gate_request(LIST.to_vec(), 1, ctx()).is_none());
        m.gate(true);
        let g = m.gate_request(LIST.to_vec(), 1, ctx()).unwrap();
        let info = g.info();
        assert_eq!(
            (
                info.method.as_str(),
                info.request_id.as_str(),
                info.caller,
                info.stream
            ),
            ("resources/list", "7", 9, 3)
        );
        assert_eq!(
            info.parent.unwrap().trace_id,
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert!(m.poll_output().is_none());
        let got = m.gate_admit(g.clone(), LIST.to_vec(), 2, ctx());
        assert_eq!(got, Some(Received::Request));
        let text = answer(&m);
        assert!(
            text.contains(r#""id":7"#) && text.contains(r#""resources""#),
            "{text}"
        );
        assert!(g.decided());
        assert_eq!(m.gate_admit(g.clone(), LIST.to_vec(), 2, ctx()), None);
        assert!(!m.gate_refuse(g, Failure::Internal));
    }

    /// A refusal is the handler's error on the request's id, observed with its annotation.
    #[test]
    fn a_refusal_answers_the_error_and_is_observed() {
        let m = machine();
        m.gate(true);
        m.observe(true);
        let g = m.gate_request(LIST.to_vec(), 1, ctx()).unwrap();
        g.annotate("tenant".into(), "acme".into());
        let failure = Failure::Application {
            code: -31_429,
            message: "Rate limit exceeded: retry after 5 ms".into(),
        };
        assert!(m.gate_refuse(g, failure));
        let text = answer(&m);
        assert!(
            text.contains(r#""id":7"#) && text.contains("-31429"),
            "{text}"
        );
        let Some(crate::observe::ServerObservation::Request { request }) = m.poll_observation(4)
        else {
            panic!("no observation")
        };
        assert_eq!(request.error_type.as_deref(), Some("-31429"));
        assert_eq!(
            request.attributes.get("tenant").map(String::as_str),
            Some("acme")
        );
    }
}
