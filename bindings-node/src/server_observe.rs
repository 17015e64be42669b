//! `ServerMachine`'s observations (docs/operations.md): turned on by `observe(true)`,
//! drained with `pollObservation(nowMs)` after the outputs; middleware annotations and the
//! response-size cap. Conversions only: the records are the core's, rendered by the adapter.

use mcp_context_node_adapter::observe::{observation, open_counts};
use napi::bindgen_prelude::{Either, Null, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::render;
use crate::convert::{Int, time_in, u64_in};
use crate::server::ServerMachine;

#[napi]
impl ServerMachine {
    /// Turns the core's observations on (`true`) or off (the default: nothing recorded).
    #[napi(catch_unwind)]
    pub fn observe(&mut self, on: bool) {
        self.inner.machine().observe(on);
    }

    /// The next observation, or `null`: `{type: 'request', spanName, attributes, parent,
    /// method, requestId, target, caller, stream, transport, era, protocolVersion, sessionId,
    /// traceparent, tracestate, outcome, errorType, errorCode, annotations, startMs, endMs}`
    /// (a finished request; `endMs` is `nowMs`) or `{type: 'refused', limit, caller, stream,
    /// atMs}`. Drain it after `pollOutput()`.
    #[napi(
        catch_unwind,
        ts_args_type = "nowMs: number | bigint",
        ts_return_type = "Observation | null"
    )]
    pub fn poll_observation<'e>(
        &mut self,
        env: &'e Env,
        now_ms: Int,
    ) -> Result<Either<Unknown<'e>, Null>> {
        let now = time_in(env, &now_ms)?;
        match self.inner.machine().poll_observation(now) {
            Some(o) => Ok(Either::A(render(env, observation(o))?)),
            None => Ok(Either::B(Null)),
        }
    }

    /// `{listens, sessions}`: open listen subscriptions and 2025-11-25 HTTP sessions.
    #[napi(catch_unwind, ts_return_type = "{ listens: number, sessions: number }")]
    pub fn open_counts<'e>(&self, env: &'e Env) -> Result<Unknown<'e>> {
        render(env, open_counts(self.inner.machine_ref()))
    }

    /// Adds `key = value` to the observation of the request behind `handle` (its span
    /// attributes and log line); ignored when observations are off or it was answered.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, key: string, value: string"
    )]
    pub fn annotate(&mut self, env: Env, handle: Int, key: String, value: String) -> Result<()> {
        let h = u64_in(&env, &handle, "handle")?;
        self.inner.annotate(h, &key, &value);
        Ok(())
    }

    /// Caps answers at `max` bytes (`null`: no cap): a bigger one becomes the error
    /// `RESPONSE_TOO_LARGE` (-31413), observed as a `response` refusal.
    #[napi(catch_unwind, ts_args_type = "max: number | null")]
    pub fn limit_responses(&mut self, env: Env, max: Option<Int>) -> Result<()> {
        let max = match max {
            Some(m) => Some(usize::try_from(u64_in(&env, &m, "max")?).unwrap_or(usize::MAX)),
            None => None,
        };
        self.inner.machine().limit_responses(max);
        Ok(())
    }
}

/// The attribute and metric names every runner uses (`observe::attr`: `methodName` →
/// `mcp.method.name`, …, `requests`, `serverOperationDuration`, …) and the error codes
/// `rateLimited` (-31429) and `responseTooLarge` (-31413).
#[napi(catch_unwind, ts_return_type = "Record<string, string | number>")]
#[allow(unreachable_pub)]
pub fn observe_names(env: &Env) -> Result<Unknown<'_>> {
    render(env, mcp_context_node_adapter::observe::names())
}

/// The core's parse of a `traceparent` (an HTTP header's): `{traceId, spanId, traceFlags,
/// traceparent}`, or `null` when it is not a valid one.
#[napi(
    catch_unwind,
    ts_return_type = "{ traceId: string, spanId: string, traceFlags: number, traceparent: string } | null"
)]
#[allow(unreachable_pub)]
pub fn parse_trace_parent(env: &Env, text: String) -> Result<Unknown<'_>> {
    render(env, mcp_context_node_adapter::observe::trace_parent(&text))
}
