//! The engine's inputs, and the gate (docs/rules.md §26.7): with middleware, every request
//! meets the chain before the machine acts on it, the ones the core answers itself
//! (`server/discover`, lists, static reads) included. Admitted, the request goes to the
//! machine and the chain's [`Call`] follows it to its handler (whose answer runs the `after`
//! hooks); a request the core answered runs them at once. Refused, the machine answers the
//! middleware's error.

use std::sync::Arc;

use mcp_context::http::{HttpStart, RequestHead};
use mcp_context::server::{Ctx, GateRequest};

use super::{Engine, State};
use crate::telemetry::{Call, middleware};

impl Engine {
    /// [`Engine::input`], with the [`Call`] of the request `f` hands the machine when the
    /// gate admitted it: the first handler event takes it; none (the core answered), its
    /// `after` hooks run here.
    pub(crate) fn input_with<R>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut State, u64) -> R,
        mut gated: Option<Call>,
    ) -> R {
        let mut events = Vec::new();
        let mut observed = Vec::new();
        let layers = &self.handlers.layers;
        let (r, wake_timer, idle, gauges) = {
            let mut st = self.lock();
            let now = self.now();
            let r = f(&mut st, now);
            st.drain(&mut events);
            if !layers.sinks.is_empty() {
                st.observations(now, &mut observed);
            }
            let gauges = (st.server.subscriptions(), st.server.open_sessions());
            let deadline = st.server.poll_timeout();
            let wake = match (deadline, st.armed) {
                (Some(d), Some(a)) => d < a,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if wake {
                st.armed = deadline;
            }
            (r, wake, st.server.pending_requests() == 0, gauges)
        };
        if !observed.is_empty() {
            layers.deliver(&observed, std::time::UNIX_EPOCH, gauges); // the clock is wall ms
        }
        if wake_timer {
            self.timer.notify_one();
        }
        if idle {
            self.idle.notify_waiters();
        }
        for (event, token) in events {
            self.dispatch(event, token, &mut gated);
        }
        if let Some(call) = gated {
            middleware::after_all(&layers.middleware, &call, Ok(()));
        }
        r
    }

    /// One message from stdio (or any stream `ctx` names) through the gate.
    pub(crate) fn message(self: &Arc<Self>, bytes: &[u8], ctx: Ctx) {
        let gate = self.gate(|s, now| s.gate_request(bytes, now, ctx));
        match self.verdict(gate, None) {
            Verdict::Open => {
                self.input(|st, now| st.server.handle_message(bytes, now, ctx));
            }
            Verdict::Admit(g, call) => {
                let admit = |st: &mut State, now| {
                    st.server.gate_admit(g);
                    st.server.handle_message(bytes, now, ctx)
                };
                self.input_with(admit, Some(call));
            }
            Verdict::Refuse(g, failure) => self.input(|st, _| st.server.gate_refuse(g, failure)),
        }
    }

    /// One HTTP request through the gate (`traceparent`: its header): `prepare` readies
    /// the stream, then the machine answers (or the middleware's refusal does).
    pub(crate) fn http(
        self: &Arc<Self>,
        head: &RequestHead<'_>,
        body: &[u8],
        ctx: Ctx,
        traceparent: Option<&str>,
        prepare: impl FnOnce(&mut State),
    ) -> HttpStart {
        let gate = self.gate(|s, now| s.http_gate_request(head, body, now, ctx));
        match self.verdict(gate, traceparent) {
            Verdict::Open => self.input(|st, now| {
                prepare(st);
                st.server.handle_http(head, body, now, ctx)
            }),
            Verdict::Admit(g, call) => self.input_with(
                |st, now| {
                    prepare(st);
                    st.server.gate_admit(g);
                    st.server.handle_http(head, body, now, ctx)
                },
                Some(call),
            ),
            Verdict::Refuse(g, failure) => self.input(|st, _| {
                prepare(st);
                st.server.http_gate_refuse(g, failure)
            }),
        }
    }

    /// The request at the gate, when there is middleware.
    fn gate(
        &self,
        f: impl FnOnce(&mcp_context::server::Server, u64) -> Option<GateRequest>,
    ) -> Option<GateRequest> {
        let layers = &self.handlers.layers;
        if layers.middleware.is_empty() && !layers.tracing {
            return None;
        }
        let now = self.now();
        self.read(|s| f(s, now))
    }

    /// Opens the request span (tracing sinks), then runs the chain's `before` hooks on a
    /// gated request.
    fn verdict(self: &Arc<Self>, gate: Option<GateRequest>, header: Option<&str>) -> Verdict {
        let Some(mut g) = gate else {
            return Verdict::Open;
        };
        let layers = &self.handlers.layers;
        let chain = &layers.middleware;
        let r = g.request();
        let principal = (r.caller != 0).then(|| self.caller(r.caller)).flatten();
        let mut call = Call::new(&r.method, r.target.as_deref(), r.caller, principal);
        if layers.tracing {
            call.span = layers.start(r, header);
        }
        let verdict = middleware::before_all(chain, &mut call);
        for (k, v) in call.annotations() {
            g.annotate(k.clone(), v.clone());
        }
        match verdict {
            Ok(()) => Verdict::Admit(g, call),
            Err(e) => {
                let caller = g.request().caller;
                self.handlers
                    .layers
                    .refused_by(&e, caller, std::time::UNIX_EPOCH, self.now());
                middleware::after_all(chain, &call, Err(&e));
                Verdict::Refuse(g, e.into_failure())
            }
        }
    }
}

/// What the gate decided.
enum Verdict {
    /// No gate (no middleware), or no request: the machine as usual.
    Open,
    /// Allowed: the request and its chain's call.
    Admit(GateRequest, Call),
    /// Refused with this failure.
    Refuse(GateRequest, mcp_context::server::Failure),
}
