//! The engine's telemetry and middleware seams (`crate::telemetry`): the middleware
//! around a handler, and the observations drained with the outputs.

use std::sync::Arc;

use mcp_context::server::{Handle, StreamId};

use super::{Answer, Engine, State};
use crate::handler::HandlerResult;
use crate::telemetry::{Call, middleware};

impl Engine {
    /// The middleware's call for a request about to reach its handler: the one the gate
    /// admitted it with (`gated`), else (a request that met no gate) its `before` now:
    /// `Ok(None)` without middleware, `Ok(Some(call))` when allowed (its annotations given
    /// to the machine), `Err(())` when refused (answered with the middleware's error).
    pub(super) fn admit<T>(
        self: &Arc<Self>,
        gated: &mut Option<Call>,
        handle: Handle,
        auth: u64,
        method: &str,
        target: Option<&str>,
    ) -> Result<Option<Call>, ()> {
        let chain = &self.handlers.layers.middleware;
        if gated.is_some() || chain.is_empty() {
            return Ok(gated.take());
        }
        let principal = (auth != 0).then(|| self.caller(auth)).flatten();
        let mut call = Call::new(method, target, auth, principal);
        let verdict = middleware::before_all(chain, &mut call);
        if !call.annotations().is_empty() {
            let mut st = self.lock();
            for (k, v) in call.annotations() {
                st.server.annotate(handle, k, v);
            }
        }
        match verdict {
            Ok(()) => Ok(Some(call)),
            Err(e) => {
                self.handlers
                    .layers
                    .refused_by(&e, auth, std::time::UNIX_EPOCH, self.now());
                self.answered::<T>(handle, Err(e), |_, _, _| Ok(()), Some(&call));
                Err(())
            }
        }
    }

    /// The handler answered: the middleware's `after`, then the machine.
    pub(super) fn answered<T>(
        self: &Arc<Self>,
        handle: Handle,
        r: HandlerResult<T>,
        answer: Answer<T>,
        call: Option<&Call>,
    ) {
        if let Some(call) = call {
            middleware::after_all(
                &self.handlers.layers.middleware,
                call,
                r.as_ref().map(|_| ()),
            );
        }
        self.finish(handle, r, answer);
    }
}

impl State {
    /// The HTTP `traceparent` header of `stream`'s request, kept for its observation
    /// when observations are on.
    pub(crate) fn trace_header(&mut self, stream: StreamId, value: Option<&str>) {
        if let Some(v) = value.filter(|_| self.server.observing()) {
            if self.trace_headers.len() >= 4096 {
                self.trace_headers.clear();
            }
            self.trace_headers.insert(stream, v.to_owned());
        }
    }

    /// Every observation waiting, each request with its stream's HTTP `traceparent`.
    pub(super) fn observations(
        &mut self,
        now: u64,
        out: &mut Vec<(mcp_context::observe::Observation, Option<String>)>,
    ) {
        while let Some(o) = self.server.poll_observation(now) {
            let header = match &o {
                mcp_context::observe::Observation::Request(r) => {
                    self.trace_headers.remove(&r.stream)
                }
                mcp_context::observe::Observation::Refused(_) => None,
            };
            out.push((o, header));
        }
    }
}
