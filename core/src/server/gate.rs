//! The gate (docs/rules.md §26.7): with [`Server::gate`] on, every request is shown to the
//! host's middleware before the machine acts on it, the ones the core answers itself
//! (`server/discover`, the lists, static reads, completion from registered values) included.
//!
//! The machine holds nothing while the middleware runs: the host asks
//! [`Server::gate_request`] (or [`Server::http_gate_request`]) for the request's fields,
//! runs its chain (async if it likes; the bytes stay the host's), then either admits it
//! ([`Server::gate_admit`], its annotations kept for the request's observation) and hands the
//! same bytes to [`Server::handle_message`] / [`Server::handle_http`] as it would without a
//! gate, or refuses it ([`Server::gate_refuse`], [`Server::http_gate_refuse`]): the JSON-RPC error the
//! machine would send for the same [`Failure`] from a handler, with its HTTP status. A
//! refused request never reaches the machine's tables, so no limit counts it.
//!
//! ```
//! use mcp_context::server::{Ctx, Failure, Output, Server, ServerConfig, StreamId};
//!
//! let mut server = Server::new(ServerConfig::default()).unwrap();
//! server.gate(true);
//! let list = br#"{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"_meta":{
//!   "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!   "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let ctx = Ctx::stdio(StreamId(0));
//! let gate = server.gate_request(list, 1_000, ctx).unwrap();
//! assert_eq!(gate.request().method, "resources/list");
//! server.gate_refuse(gate, Failure::from_code(-31_429, "Rate limit exceeded"));
//! let Some(Output::Transmit(t)) = server.poll_output() else { panic!() };
//! assert!(std::str::from_utf8(&t.bytes).unwrap().contains("-31429"));
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::Server;
use super::io::{Ctx, Received, Transport};
use super::reply::Failure;
use crate::error_code::ErrorCode;
use crate::http::{HttpStart, RequestHead, status_for};
use crate::jsonrpc::{ErrorObject, Message, OwnedRequestId};
use crate::observe::RequestObservation;

/// A request stopped at the gate: what middleware sees of it (the fields its
/// [`RequestObservation`] has at receipt) and what it added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateRequest {
    request: RequestObservation,
    id: OwnedRequestId,
}

impl GateRequest {
    /// The request as its observation starts: method, id, target, caller, stream,
    /// transport, era, protocol version, session, `traceparent`/`tracestate`, receipt time
    /// and the annotations so far (the outcome and end time are not known yet).
    #[must_use]
    pub fn request(&self) -> &RequestObservation {
        &self.request
    }

    /// Adds `key = value` to the request's observation (its span and log line), whether
    /// it is then admitted or refused.
    pub fn annotate(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.request.annotations.push((key.into(), value.into()));
    }
}

/// The annotations of an admitted request, waiting for its observation.
#[derive(Debug)]
pub(crate) struct Admitted {
    pub(crate) stream: super::StreamId,
    pub(crate) id: OwnedRequestId,
    pub(crate) annotations: Vec<(String, String)>,
}

impl Server {
    /// Turns the gate on (`true`) or off (the default). Off, [`Server::gate_request`] is
    /// `None` and nothing else changes: one branch.
    pub fn gate(&mut self, on: bool) {
        self.gate = on;
    }

    /// Whether the gate is on.
    #[must_use]
    pub fn gating(&self) -> bool {
        self.gate
    }

    /// The request in `bytes` received at `now_ms` from `ctx`, stopped at the gate; `None`
    /// when the gate is off
    /// or `bytes` is no request (a notification, a response or malformed input: hand it to
    /// [`Server::handle_message`] at once, the machine answers what needs an answer).
    #[must_use]
    pub fn gate_request(&self, bytes: &[u8], now_ms: u64, ctx: Ctx) -> Option<GateRequest> {
        self.gated(bytes, now_ms, ctx, self.legacy.current.as_deref())
    }

    /// [`Server::gate_request`] for an HTTP request: only a `POST` body holding a request
    /// is gated (a 2025-11-25 session's `GET` and `DELETE` are not requests); the session
    /// its head names is the request's. Call it after the head and the caller were
    /// admitted ([`Server::http_head`], [`Server::http_admit`]).
    #[must_use]
    pub fn http_gate_request(
        &self,
        head: &RequestHead<'_>,
        body: &[u8],
        now_ms: u64,
        ctx: Ctx,
    ) -> Option<GateRequest> {
        if !self.gate || head.method != "POST" {
            return None;
        }
        let ctx = Ctx {
            transport: Transport::Http,
            ..ctx
        };
        self.gated(body, now_ms, ctx, self.session_of(head))
    }

    fn gated(
        &self,
        bytes: &[u8],
        now_ms: u64,
        ctx: Ctx,
        session: Option<&str>,
    ) -> Option<GateRequest> {
        if !self.gate {
            return None;
        }
        let Ok(Message::Request(r)) = Message::decode_with(bytes, self.config.limits) else {
            return None;
        };
        let mut request = self.start_record(&r, ctx, session);
        request.start_ms = now_ms.max(self.now);
        request.end_ms = request.start_ms;
        Some(GateRequest {
            request,
            id: r.id.to_owned_id(),
        })
    }

    /// The middleware allowed `gate`: its annotations go to the request's observation.
    /// Then hand the request's bytes to the machine as usual, before any other input.
    pub fn gate_admit(&mut self, gate: GateRequest) {
        if self.observer.is_none() || gate.request.annotations.is_empty() {
            return;
        }
        self.admitted = Some(alloc::boxed::Box::new(Admitted {
            stream: gate.request.stream,
            id: gate.id,
            annotations: gate.request.annotations,
        }));
    }

    /// The middleware refused `gate` with `failure` ([`Failure::from_code`] for a code and
    /// message): the machine queues the error answer on the request's stream, the one the
    /// same failure from a handler gets (an application code as given, -32602 for invalid
    /// params, -32603 for a reserved code), with its HTTP status. With observations on, the
    /// request is observed with that error and its annotations. Drain as usual.
    pub fn gate_refuse(&mut self, gate: GateRequest, failure: Failure) {
        let GateRequest { request, id } = gate;
        let err = match &failure {
            Failure::InvalidParams(m) => ErrorObject::new(ErrorCode::INVALID_PARAMS, m.as_ref()),
            Failure::NotFound => ErrorObject::new(ErrorCode::INVALID_PARAMS, "Not found"),
            Failure::Application { code, message } if !super::reply::is_reserved(*code) => {
                ErrorObject::new(ErrorCode(*code), message.as_ref())
            }
            _ => ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error"),
        };
        let (stream, transport) = (request.stream, request.transport);
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.start(id.clone(), request);
        }
        let status = status_for(err.code);
        self.send_error(stream, transport, Some(id.as_ref()), &err, status);
    }

    /// [`Server::gate_refuse`] for a request from [`Server::http_gate_request`]: the HTTP
    /// answer to write, as [`Server::handle_http`] gives it ([`HttpStart::Respond`]: the
    /// JSON-RPC error with its status).
    pub fn http_gate_refuse(&mut self, gate: GateRequest, failure: Failure) -> HttpStart {
        let ctx = Ctx {
            transport: Transport::Http,
            ..Ctx::stdio(gate.request.stream)
        };
        self.gate_refuse(gate, failure);
        self.http_answer(Received::Request, ctx)
    }
}
