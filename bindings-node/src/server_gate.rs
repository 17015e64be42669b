//! `ServerMachine`'s gate (docs/rules.md §26.7): every request stopped for the package's
//! middleware before the machine acts on it, core-answered ones included, then admitted
//! (the same bytes to `handleMessage`/`handleHttp`) or refused. Conversions only: the
//! adapter holds the gated requests (`mcp_context_node_adapter::gate`).

use napi::bindgen_prelude::{Buffer, Either, Null, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::{polled, render, thrower};
use crate::convert::{self, Int};
use crate::server::{ServerMachine, ctx_of};
use crate::server_http::{HttpRequestHead, MessageContext, head_of};

fn pairs(annotations: Option<Vec<Vec<String>>>) -> Vec<(String, String)> {
    annotations
        .unwrap_or_default()
        .into_iter()
        .filter_map(|kv| {
            let mut it = kv.into_iter();
            Some((it.next()?, it.next()?))
        })
        .collect()
}

#[napi]
impl ServerMachine {
    /// Turns the gate on (`true`) or off (the default).
    #[napi(catch_unwind)]
    pub fn gate(&mut self, on: bool) {
        self.inner.machine().gate(on);
    }

    /// The request in `message` as the gate shows it (`{gate, method, requestId, target,
    /// caller, stream, transport, era, protocolVersion, sessionId, traceparent, tracestate,
    /// spanName, startMs}`), or `null` (the gate is off, or it is no request: hand it to
    /// `handleMessage` at once).
    #[napi(
        catch_unwind,
        ts_args_type = "message: Buffer | string, nowMs: number | bigint, context?: MessageContext | null",
        ts_return_type = "GateRequest | null"
    )]
    pub fn gate_request<'e>(
        &mut self,
        env: &'e Env,
        message: Either<Buffer, String>,
        now_ms: Int,
        context: Option<MessageContext>,
    ) -> Result<Either<Unknown<'e>, Null>> {
        let now = convert::time_in(env, &now_ms)?;
        let ctx = ctx_of(env, context.as_ref(), false)?;
        let bytes: &[u8] = match &message {
            Either::A(b) => b,
            Either::B(s) => s.as_bytes(),
        };
        match self.inner.gate_request(bytes, now, ctx) {
            Some(o) => Ok(Either::A(render(env, o.into())?)),
            None => Ok(Either::B(Null)),
        }
    }

    /// `gateRequest` for an HTTP `POST` (after `httpHead` and the body were read).
    #[napi(
        catch_unwind,
        ts_args_type = "head: HttpRequestHead, body: Buffer, nowMs: number | bigint, context: MessageContext",
        ts_return_type = "GateRequest | null"
    )]
    pub fn http_gate_request<'e>(
        &mut self,
        env: &'e Env,
        head: HttpRequestHead,
        body: Buffer,
        now_ms: Int,
        context: MessageContext,
    ) -> Result<Either<Unknown<'e>, Null>> {
        let now = convert::time_in(env, &now_ms)?;
        let ctx = ctx_of(env, Some(&context), true)?;
        match self
            .inner
            .http_gate_request(&head_of(head), &body, now, ctx)
        {
            Some(o) => Ok(Either::A(render(env, o.into())?)),
            None => Ok(Either::B(Null)),
        }
    }

    /// The middleware allowed gate `gate` (`annotations`: `[key, value]` pairs for its
    /// observation); then hand the same bytes to the machine.
    #[napi(
        catch_unwind,
        ts_args_type = "gate: number | bigint, annotations?: [string, string][] | null"
    )]
    pub fn gate_admit(
        &mut self,
        env: Env,
        gate: Int,
        annotations: Option<Vec<Vec<String>>>,
    ) -> Result<()> {
        let id = convert::u64_in(&env, &gate, "gate")?;
        self.inner
            .gate_admit(id, pairs(annotations))
            .map_err(thrower(&env))
    }

    /// The middleware refused gate `gate` with `code` and `message`: the error a
    /// handler's `McpError(code, message)` gets, queued on the request's stream.
    #[napi(
        catch_unwind,
        ts_args_type = "gate: number | bigint, code: number, message: string, annotations?: [string, string][] | null, outbox?: Outbox | null"
    )]
    pub fn gate_refuse(
        &mut self,
        env: Env,
        gate: Int,
        code: i32,
        message: String,
        annotations: Option<Vec<Vec<String>>>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let id = convert::u64_in(&env, &gate, "gate")?;
        self.with_outbox(&env, outbox, |m| {
            m.inner
                .gate_refuse(id, code, message, pairs(annotations))
                .map_err(thrower(&env))
        })
    }

    /// `gateRefuse` for a request of `httpGateRequest`: the response to write.
    #[napi(
        catch_unwind,
        ts_args_type = "gate: number | bigint, code: number, message: string, annotations?: [string, string][] | null, outbox?: Outbox | null",
        ts_return_type = "HttpResponse"
    )]
    pub fn http_gate_refuse<'e>(
        &mut self,
        env: &'e Env,
        gate: Int,
        code: i32,
        message: String,
        annotations: Option<Vec<Vec<String>>>,
        outbox: Option<Object<'_>>,
    ) -> Result<Object<'e>> {
        let id = convert::u64_in(env, &gate, "gate")?;
        self.with_outbox(env, outbox, |m| {
            let p = m
                .inner
                .http_gate_refuse(id, code, message, pairs(annotations))
                .map_err(thrower(env))?;
            polled(env, p, "body")
        })
    }

    /// Bytes read from stdio stream `context.stream`, split into lines by the core (as
    /// `handleStdio`): an over-long line is answered by the machine, the messages come back
    /// for the gate (then `handleMessage`).
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Buffer, end: boolean, nowMs: number | bigint, context?: MessageContext | null, outbox?: Outbox | null"
    )]
    pub fn split_stdio(
        &mut self,
        env: Env,
        bytes: Buffer,
        end: bool,
        now_ms: Int,
        context: Option<MessageContext>,
        outbox: Option<Object<'_>>,
    ) -> Result<Vec<Buffer>> {
        let now = convert::time_in(&env, &now_ms)?;
        let ctx = ctx_of(&env, context.as_ref(), false)?;
        self.with_outbox(&env, outbox, |m| {
            Ok(m.inner
                .split_stdio(&bytes, end, now, ctx)
                .into_iter()
                .map(Buffer::from)
                .collect())
        })
    }
}
