//! The gate (docs/rules.md §26.7) for both engines: a request stopped for the package's
//! middleware before the machine acts on it, kept here by id until the middleware admits or
//! refuses it; and stdio lines handed to the runner (instead of the machine) so that each
//! meets the gate.

use std::collections::HashMap;

use mcp_context::observe::Era;
use mcp_context::server::{Ctx, Failure, GateRequest, Transport};
use mcp_context::stdio::{Line, LineSplitter};

use crate::error::{Error, Result};
use crate::server::{Head, Polled, ServerAdapter, response};
use crate::value::Obj;

/// The requests at the gate, by id.
#[derive(Default)]
pub struct Gates {
    held: HashMap<u64, GateRequest>,
    next: u64,
}

fn unknown() -> Error {
    Error::Type("unknown gate id (already admitted or refused)".into())
}

impl ServerAdapter {
    /// The request in `message` as the gate shows it (`{gate, method, requestId, target,
    /// caller, stream, transport, era, protocolVersion, sessionId, traceparent, tracestate,
    /// spanName, startMs}`), or `None` when the gate is off or it is no request.
    pub fn gate_request(&mut self, message: &[u8], now: u64, ctx: Ctx) -> Option<Obj> {
        let g = self.machine_ref().gate_request(message, now, ctx)?;
        Some(self.hold(g))
    }

    /// [`ServerAdapter::gate_request`] for an HTTP `POST`.
    pub fn http_gate_request(
        &mut self,
        head: &Head,
        body: &[u8],
        now: u64,
        ctx: Ctx,
    ) -> Option<Obj> {
        let g = head.with(|h| self.machine_ref().http_gate_request(h, body, now, ctx))?;
        Some(self.hold(g))
    }

    fn hold(&mut self, g: GateRequest) -> Obj {
        self.gates.next += 1;
        let id = self.gates.next;
        let r = g.request();
        let mut o = Obj::default();
        o.set("gate", id)
            .set("method", r.method.clone())
            .set("requestId", r.request_id.clone())
            .set("target", r.target.clone())
            .set("caller", r.caller)
            .set("stream", r.stream.0)
            .set(
                "transport",
                match r.transport {
                    Transport::Stdio => "pipe",
                    Transport::Http => "tcp",
                },
            )
            .set(
                "era",
                match r.era {
                    Era::Modern => "2026-07-28",
                    Era::Legacy => "2025-11-25",
                },
            )
            .set("protocolVersion", r.protocol_version.clone())
            .set("sessionId", r.session_id.clone())
            .set("traceparent", r.traceparent.clone())
            .set("tracestate", r.tracestate.clone())
            .set("spanName", r.span_name())
            .set("startMs", r.start_ms);
        self.gates.held.insert(id, g);
        o
    }

    fn take_gate(&mut self, id: u64) -> Result<GateRequest> {
        self.gates.held.remove(&id).ok_or_else(unknown)
    }

    /// The middleware allowed gate `id` with these annotations; then the runner hands the
    /// same bytes to the machine.
    pub fn gate_admit(&mut self, id: u64, annotations: Vec<(String, String)>) -> Result<()> {
        let mut g = self.take_gate(id)?;
        for (k, v) in annotations {
            g.annotate(k, v);
        }
        self.machine().gate_admit(g);
        Ok(())
    }

    /// The middleware refused gate `id` with `code` and `message` (annotations kept): the
    /// error a handler's failure with that code gets, queued on the request's stream.
    pub fn gate_refuse(
        &mut self,
        id: u64,
        code: i32,
        message: String,
        annotations: Vec<(String, String)>,
    ) -> Result<()> {
        let mut g = self.take_gate(id)?;
        for (k, v) in annotations {
            g.annotate(k, v);
        }
        self.machine()
            .gate_refuse(g, Failure::from_code(code, message));
        Ok(())
    }

    /// [`ServerAdapter::gate_refuse`] for an HTTP request: the response to write.
    pub fn http_gate_refuse(
        &mut self,
        id: u64,
        code: i32,
        message: String,
        annotations: Vec<(String, String)>,
    ) -> Result<Polled> {
        let mut g = self.take_gate(id)?;
        for (k, v) in annotations {
            g.annotate(k, v);
        }
        match self
            .machine()
            .http_gate_refuse(g, Failure::from_code(code, message))
        {
            mcp_context::http::HttpStart::Respond(r) => Ok(response(r)),
            _ => Err(Error::Type("the refusal has no answer".into())),
        }
    }

    /// Bytes read from stdio stream `ctx.stream`, split by the core into lines (as
    /// `handle_stdio`): an over-long line is answered by the machine, the messages are
    /// returned for the runner to pass through the gate.
    pub fn split_stdio(&mut self, bytes: &[u8], end: bool, now: u64, ctx: Ctx) -> Vec<Vec<u8>> {
        let max = self.machine_ref().config().max_line;
        let mut lines = Vec::new();
        let mut too_long = Vec::new();
        let splitter = self
            .lines
            .entry(ctx.stream.0)
            .or_insert_with(|| LineSplitter::new(max));
        let mut on_line = |line: Line<'_>| match line {
            Line::Message(m) => lines.push(m.to_vec()),
            Line::TooLong { head } => too_long.push(head.to_vec()),
        };
        splitter.feed(bytes, &mut on_line);
        if end {
            splitter.finish(&mut on_line);
            self.lines.remove(&ctx.stream.0);
        }
        for head in too_long {
            self.machine().handle_line_too_long(&head, now, ctx);
        }
        lines
    }
}
