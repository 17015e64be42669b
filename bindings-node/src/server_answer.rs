//! `ServerMachine`'s second `#[napi] impl` block: answering events (`respond*`, `fail`,
//! `progress`), the Streamable HTTP entry points (`httpHead`, `handleHttp`), time
//! (`pollTimeout`, `handleTimeout`), closed streams, notifications, shutdown and the
//! counters. The class and its first block are in `server.rs`; this block is expanded after
//! it (module order), which keeps the methods' order in `index.d.ts`.

use mcp_context::server::StreamId;
use mcp_context_node_adapter::{self as adapter, server};
use napi::bindgen_prelude::{Buffer, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::{polled, thrower};
use crate::convert::{self, Int, text};
use crate::server::{ServerMachine, ctx_of, hint};
use crate::server_http::{HttpRequestHead, MessageContext, head_of};

/// How the application fails a request (`fail`'s second argument).
#[napi(object)]
pub struct FailureSpec {
    /// `'notFound'` (-32602; reads carry `data.uri`), `'invalidParams'` (-32602 with
    /// `message`), `'internal'` (-32603) or `'application'` (`code`, `message`, sorted by
    /// the core: -32602 is `'invalidParams'`, -32002 `'notFound'`, other codes in
    /// -32768..=-32000 are sent as -32603) or `'handler'` (the handler threw something
    /// else: a `callTool` gets a result with `isError: true` and `message`, any other event
    /// -32603 without it).
    #[napi(ts_type = "'notFound' | 'invalidParams' | 'internal' | 'application' | 'handler'")]
    pub kind: String,
    /// The message for `'invalidParams'` and `'application'`.
    pub message: Option<String>,
    /// The code for `'application'`.
    pub code: Option<i32>,
}

#[napi]
impl ServerMachine {
    /// Answers a `request` event with `result` (an object in the method's result shape); the
    /// machine adds `resultType`, `_meta.serverInfo` and, with `cache`, `ttlMs`/`cacheScope`.
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`, `ERR_INVALID_RESULT`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, result: Record<string, unknown>, cache?: CacheHint | null, outbox?: Outbox | null"
    )]
    pub fn respond_result(
        &mut self,
        env: Env,
        handle: Int,
        result: Unknown<'_>,
        cache: Option<Unknown<'_>>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let result = text(&env, result, "result")?;
        let cache = hint(&env, cache)?;
        self.answer(&env, &handle, outbox, |m, h| {
            m.respond_result(h, &result, cache)
        })
    }

    /// Sends `notifications/progress` for an event's request (any kind) with the request's
    /// `progressToken`; `false` (nothing sent) when it carried none. `progress` must increase.
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE` (answered, cancelled or timed out),
    /// `ERR_INVALID_PROGRESS`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, progress: number, total?: number | null, message?: string | null, outbox?: Outbox | null"
    )]
    pub fn progress(
        &mut self,
        env: Env,
        handle: Int,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
        outbox: Option<Object<'_>>,
    ) -> Result<bool> {
        self.answer(&env, &handle, outbox, |m, h| {
            m.progress(h, progress, total, message.as_deref())
        })
    }

    /// Sends `notifications/message` (`level`, optional `logger`, any JSON `data`) for an
    /// event's request, on its own stream, when the request admits `level` (a 2025-11-25
    /// session's `logging/setLevel`, a modern request's `_meta` log level); `false` (nothing
    /// sent) when it does not.
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE` (answered, cancelled or timed out).
    /// @throws {TypeError} an unknown `level`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency', logger: string | null | undefined, data: unknown"
    )]
    pub fn log_for(
        &mut self,
        env: Env,
        handle: Int,
        level: String,
        logger: Option<String>,
        data: Unknown<'_>,
    ) -> Result<bool> {
        let h = convert::u64_in(&env, &handle, "handle")?;
        let data = text(&env, data, "data")?;
        self.inner
            .log_for(h, &level, logger.as_deref(), &data)
            .map_err(thrower(&env))
    }

    /// Sends `notifications/message` to every 2025-11-25 connection and session event
    /// stream whose level admits `level`; returns how many.
    ///
    /// @throws {TypeError} an unknown `level`.
    #[napi(
        catch_unwind,
        ts_args_type = "level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency', logger: string | null | undefined, data: unknown"
    )]
    pub fn log(
        &mut self,
        env: Env,
        level: String,
        logger: Option<String>,
        data: Unknown<'_>,
    ) -> Result<u32> {
        let data = text(&env, data, "data")?;
        self.inner
            .log(&level, logger.as_deref(), &data)
            .map_err(thrower(&env))
    }

    /// The head-only checks of a Streamable HTTP request (path, Host/Origin, method,
    /// Content-Type, Accept, Content-Length), before its body is read: `{readBody: true,
    /// limit}`, or the whole response (`{status, headers, body}`).
    #[napi(
        catch_unwind,
        ts_args_type = "head: HttpRequestHead",
        ts_return_type = "{ readBody: true; limit: number } | HttpResponse"
    )]
    pub fn http_head<'e>(&self, env: &'e Env, head: HttpRequestHead) -> Result<Object<'e>> {
        polled(env, self.inner.http_head(&head_of(head)), "body")
    }

    /// One Streamable HTTP request with its body: the whole validation, then the machine.
    /// Returns the complete response (`{status, headers, body}`: a refusal, an error, 202, or
    /// an answer produced at once), or `{stream}`: the answer comes as transmits on that
    /// stream (`context.stream`, one per request), or, for a 2025-11-25 session's GET
    /// stream, `{stream, eventStream: true, status, headers}`: write the head now and the
    /// stream's transmits as SSE events as they come.
    #[napi(
        catch_unwind,
        ts_args_type = "head: HttpRequestHead, body: Buffer, nowMs: number | bigint, context: MessageContext, outbox?: Outbox | null",
        ts_return_type = "HttpResponse | { stream: number } | (HttpResponse & { stream: number; eventStream: true })"
    )]
    pub fn handle_http<'e>(
        &mut self,
        env: &'e Env,
        head: HttpRequestHead,
        body: Buffer,
        now_ms: Int,
        context: MessageContext,
        outbox: Option<Object<'_>>,
    ) -> Result<Object<'e>> {
        let now = convert::time_in(env, &now_ms)?;
        let h = head_of(head);
        let ctx = ctx_of(env, Some(&context), true)?;
        self.with_outbox(env, outbox, |m| {
            polled(env, m.inner.handle_http(&h, &body, now, ctx), "body")
        })
    }

    /// Answers a `readResource` event with contents (`[{uri, mimeType?, text} | {uri,
    /// mimeType?, blob}]`), optionally with its own cache hints.
    ///
    /// @throws {McpError} the contents break the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, contents: ResourceContents[], cache?: CacheHint | null, outbox?: Outbox | null"
    )]
    pub fn respond_read(
        &mut self,
        env: Env,
        handle: Int,
        contents: Unknown<'_>,
        cache: Option<Unknown<'_>>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let contents = text(&env, contents, "contents")?;
        let cache = hint(&env, cache)?;
        self.answer(&env, &handle, outbox, |m, h| {
            m.respond_read(h, &contents, cache)
        })
    }

    /// Answers a `callTool` event with a `CallToolResult` (`{content, structuredContent?,
    /// isError?}`); the machine adds `resultType` and `_meta.serverInfo`.
    ///
    /// @throws {McpError} the result breaks the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`, `ERR_INVALID_RESULT`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, result: Record<string, unknown>, outbox?: Outbox | null"
    )]
    pub fn respond_tool(
        &mut self,
        env: Env,
        handle: Int,
        result: Unknown<'_>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let result = text(&env, result, "result")?;
        self.answer(&env, &handle, outbox, |m, h| m.respond_tool(h, &result))
    }

    /// Answers a `callTool` event whose tool failed: a result with `isError: true` and
    /// `message` as its one text content (the model sees it; protocol errors go
    /// through `fail`).
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, message: string, outbox?: Outbox | null"
    )]
    pub fn respond_tool_error(
        &mut self,
        env: Env,
        handle: Int,
        message: String,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        self.answer(&env, &handle, outbox, |m, h| {
            m.respond_tool_error(h, &message)
        })
    }

    /// Answers a `listResources` event with one page of the application's resources and
    /// its cursor for the next page (`null`: the last page). Items whose URI is registered
    /// are dropped (listed already).
    ///
    /// @throws {McpError} an item breaks the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`, `ERR_INVALID_RESULT`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, resources: Resource[], nextCursor?: string | null, outbox?: Outbox | null"
    )]
    pub fn respond_list(
        &mut self,
        env: Env,
        handle: Int,
        resources: Unknown<'_>,
        next_cursor: Option<String>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let resources = text(&env, resources, "resources")?;
        self.answer(&env, &handle, outbox, |m, h| {
            m.respond_list(h, &resources, next_cursor)
        })
    }

    /// Answers a `getPrompt` event with a `GetPromptResult` (`{description?, messages}`).
    ///
    /// @throws {McpError} the result breaks the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, result: GetPromptResult, outbox?: Outbox | null"
    )]
    pub fn respond_prompt(
        &mut self,
        env: Env,
        handle: Int,
        result: Unknown<'_>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let result = text(&env, result, "result")?;
        self.answer(&env, &handle, outbox, |m, h| m.respond_prompt(h, &result))
    }

    /// Answers a `complete` event with candidate values (the first 100 are sent, with
    /// `total` and `hasMore`).
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`.
    #[napi(catch_unwind)]
    pub fn respond_completion(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number")] handle: Int,
        values: Vec<String>,
        #[napi(ts_arg_type = "Outbox | null")] outbox: Option<Object<'_>>,
    ) -> Result<()> {
        self.answer(&env, &handle, outbox, |m, h| {
            m.respond_completion(h, values)
        })
    }

    /// Answers a read or prompt event with `resultType: "input_required"`: `inputRequests`
    /// (`{key: {method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list',
    /// params}}`) and optional application `state` that comes back, verified, in the retry's
    /// `retry.state` (needs `stateKeys`).
    ///
    /// @throws {McpError} the requests break the schema.
    /// @throws {McpContextError} `ERR_INVALID_INPUT_REQUESTS`, `ERR_NO_STATE_KEY`,
    /// `ERR_CLIENT_LACKS_CAPABILITY` (the client got -32021; the handle is consumed).
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, inputRequests: Record<string, InputRequest>, state?: Buffer | null, outbox?: Outbox | null"
    )]
    pub fn respond_input_required(
        &mut self,
        env: Env,
        handle: Int,
        input_requests: Unknown<'_>,
        state: Option<Buffer>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let requests = text(&env, input_requests, "inputRequests")?;
        self.answer(&env, &handle, outbox, |m, h| {
            m.respond_input_required(h, &requests, state.map(|b| b.to_vec()))
        })
    }

    /// Fails an event's request: `{kind: 'notFound'}` (-32602, reads carry `data.uri`),
    /// `{kind: 'invalidParams', message}`, `{kind: 'internal'}` (-32603),
    /// `{kind: 'application', code, message}` or `{kind: 'handler', message}` (a tool error
    /// on a `callTool`, -32603 elsewhere).
    ///
    /// @throws {TypeError} an unknown `kind`.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`.
    #[napi(catch_unwind)]
    pub fn fail(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number")] handle: Int,
        failure: FailureSpec,
        #[napi(ts_arg_type = "Outbox | null")] outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let f =
            server::failure(&failure.kind, failure.message, failure.code).map_err(thrower(&env))?;
        self.answer(&env, &handle, outbox, |m, h| m.fail(h, f))
    }

    /// The earliest deadline (ms) at which `handleTimeout` has work, or `null`.
    #[napi(catch_unwind, ts_return_type = "number | bigint | null")]
    pub fn poll_timeout(&self) -> Option<Int> {
        self.inner
            .machine_ref()
            .poll_timeout()
            .map(convert::u64_out)
    }

    /// Fails every request past its deadline with -32603 (each gets a `cancelled` event).
    #[napi(catch_unwind)]
    pub fn handle_timeout(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.machine().handle_timeout(now);
        Ok(())
    }

    /// The transport closed `stream` (HTTP client gone): its subscriptions end, its pending
    /// events are cancelled, its queued transmits dropped.
    #[napi(catch_unwind)]
    pub fn stream_closed(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] stream: Int,
    ) -> Result<()> {
        let s = convert::u64_in(&env, &stream, "stream")?;
        self.inner.machine().stream_closed(StreamId(s));
        Ok(())
    }

    /// Queues `notifications/resources/updated` for the listens subscribed to `uri` (or a
    /// URI it is a sub-resource of).
    #[napi(catch_unwind)]
    pub fn resource_updated(&mut self, uri: String) {
        self.inner.machine().resource_updated(&uri);
    }

    /// Queues `notifications/resources/list_changed` on the listens that opted in.
    #[napi(catch_unwind)]
    pub fn resources_list_changed(&mut self) {
        self.inner.machine().resources_list_changed();
    }

    /// Queues `notifications/prompts/list_changed` on the listens that opted in.
    #[napi(catch_unwind)]
    pub fn prompts_list_changed(&mut self) {
        self.inner.machine().prompts_list_changed();
    }

    /// Graceful close: every subscription gets its final `subscriptions/listen` result.
    #[napi(catch_unwind)]
    pub fn shutdown(&mut self) {
        self.inner.machine().shutdown();
    }

    /// Requests waiting for the application.
    #[napi(getter, catch_unwind)]
    pub fn pending_requests(&self) -> u32 {
        u32::try_from(self.inner.machine_ref().pending_requests()).unwrap_or(u32::MAX)
    }

    /// Open `subscriptions/listen` streams.
    #[napi(getter, catch_unwind)]
    pub fn subscriptions(&self) -> u32 {
        u32::try_from(self.inner.machine_ref().subscriptions()).unwrap_or(u32::MAX)
    }
}

impl ServerMachine {
    /// What every answering call does: reads `handle`, runs `answer` on the adapter (its
    /// error thrown as the core's), and hands the outputs back in `outbox` when one is given.
    fn answer<T>(
        &mut self,
        env: &Env,
        handle: &Int,
        outbox: Option<Object<'_>>,
        answer: impl FnOnce(&mut server::ServerAdapter, u64) -> adapter::Result<T>,
    ) -> Result<T> {
        let h = convert::u64_in(env, handle, "handle")?;
        self.with_outbox(env, outbox, |m| {
            answer(&mut m.inner, h).map_err(thrower(env))
        })
    }
}
