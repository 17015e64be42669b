//! `ServerMachine`'s second `#[napi] impl` block: answering events (`respond*`, `fail`,
//! `progress`), the Streamable HTTP entry points (`httpHead`, `handleHttp`), time
//! (`pollTimeout`, `handleTimeout`), closed streams, notifications, shutdown and the
//! counters. The class and its first block are in `server.rs`; this block is expanded after
//! it (module order), which keeps the methods' order in `index.d.ts`.

use mcp_context::http::{HeadCheck, HttpStart};
use mcp_context::messages::LoggingLevel;
use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedInputRequest, OwnedJson, OwnedResource, OwnedResourceContents,
};
use mcp_context::server::{Ctx, Handle, InputRequired, RespondError, StreamId, Transport};
use napi::bindgen_prelude::{Buffer, JsObjectValue, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int, decode};
use crate::errors;
use crate::server::ServerMachine;
use crate::server_config::cache_hint;
use crate::server_http::{
    HttpRequestHead, MessageContext, head_length, http_response, request_head,
};

fn respond_error(env: &Env, e: RespondError) -> napi::Error {
    let code = crate::ident::err_code(e.ident());
    errors::context_error(env, e.to_string(), code)
}

fn log_level(env: &Env, level: &str) -> Result<LoggingLevel> {
    LoggingLevel::from_name(level)
        .ok_or_else(|| errors::type_error(env, format!("level: unknown log level {level:?}")))
}

/// How the application fails a request (`fail`'s second argument).
#[napi(object)]
pub struct FailureSpec {
    /// `'notFound'` (-32602; reads carry `data.uri`), `'invalidParams'` (-32602 with
    /// `message`), `'internal'` (-32603) or `'application'` (`code`, `message`; codes in
    /// -32768..=-32000 are sent as -32603).
    #[napi(ts_type = "'notFound' | 'invalidParams' | 'internal' | 'application'")]
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
        ts_args_type = "handle: number, result: Record<string, unknown>, cache?: CacheHint | null"
    )]
    pub fn respond_result(
        &mut self,
        env: Env,
        handle: Int,
        result: Unknown<'_>,
        cache: Option<Unknown<'_>>,
    ) -> Result<()> {
        let h = self.handle(&env, &handle)?;
        let result = decode::<OwnedJson>(&env, result, "result")?;
        let cache = cache_hint(&env, cache, "cache")?;
        let r = self.inner.respond_result(h, result, cache);
        self.answered(&env, h, r)
    }

    /// Sends `notifications/progress` for an event's request (any kind) with the request's
    /// `progressToken`; `false` (nothing sent) when it carried none. `progress` must increase.
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE` (answered, cancelled or timed out),
    /// `ERR_INVALID_PROGRESS`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, progress: number, total?: number | null, message?: string | null"
    )]
    pub fn progress(
        &mut self,
        env: Env,
        handle: Int,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Result<bool> {
        let h = self.handle(&env, &handle)?;
        self.inner
            .progress(h, progress, total, message.as_deref())
            .map_err(|e| respond_error(&env, e))
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
        let h = self.handle(&env, &handle)?;
        let level = log_level(&env, &level)?;
        let data = decode::<OwnedJson>(&env, data, "data")?;
        self.inner
            .log_for(h, level, logger.as_deref(), &data)
            .map_err(|e| respond_error(&env, e))
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
        let level = log_level(&env, &level)?;
        let data = decode::<OwnedJson>(&env, data, "data")?;
        let n = self.inner.log(level, logger.as_deref(), &data);
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
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
        let content_length = head_length(env, &head)?;
        let h = request_head(&head, content_length);
        match self.inner.http_head(&h) {
            HeadCheck::ReadBody { limit } => {
                let mut o = Object::new(env)?;
                o.set_named_property("readBody", true)?;
                o.set_named_property("limit", convert::u64_out(limit as u64))?;
                Ok(o)
            }
            HeadCheck::Respond(r) => http_response(env, r),
        }
    }

    /// One Streamable HTTP request with its body: the whole validation, then the machine.
    /// Returns the complete response (`{status, headers, body}`: a refusal, an error, 202, or
    /// an answer produced at once), or `{stream}`: the answer comes as transmits on that
    /// stream (`context.stream`, one per request), or, for a 2025-11-25 session's GET
    /// stream, `{stream, eventStream: true, status, headers}`: write the head now and the
    /// stream's transmits as SSE events as they come.
    #[napi(
        catch_unwind,
        ts_args_type = "head: HttpRequestHead, body: Buffer, nowMs: number | bigint, context: MessageContext",
        ts_return_type = "HttpResponse | { stream: number } | (HttpResponse & { stream: number; eventStream: true })"
    )]
    pub fn handle_http<'e>(
        &mut self,
        env: &'e Env,
        head: HttpRequestHead,
        body: Buffer,
        now_ms: Int,
        context: MessageContext,
    ) -> Result<Object<'e>> {
        let now = convert::time_in(env, &now_ms)?;
        let content_length = head_length(env, &head)?;
        let h = request_head(&head, content_length);
        let ctx = Ctx {
            stream: StreamId(convert::u64_or_zero(
                env,
                context.stream.as_ref(),
                "context.stream",
            )?),
            auth: convert::u64_or_zero(env, context.auth.as_ref(), "context.auth")?,
            transport: Transport::Http,
            peer: crate::server_http::peer(&context),
        };
        match self.inner.handle_http(&h, &body, now, ctx) {
            HttpStart::Respond(r) => http_response(env, r),
            HttpStart::Stream(s) => {
                let mut o = Object::new(env)?;
                o.set_named_property("stream", convert::u64_out(s.0))?;
                Ok(o)
            }
            HttpStart::EventStream { stream, response } => {
                let mut o = http_response(env, response)?;
                o.set_named_property("stream", convert::u64_out(stream.0))?;
                o.set_named_property("eventStream", true)?;
                Ok(o)
            }
        }
    }

    /// Answers a `readResource` event with contents (`[{uri, mimeType?, text} | {uri,
    /// mimeType?, blob}]`), optionally with its own cache hints.
    ///
    /// @throws {McpError} the contents break the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, contents: ResourceContents[], cache?: CacheHint | null"
    )]
    pub fn respond_read(
        &mut self,
        env: Env,
        handle: Int,
        contents: Unknown<'_>,
        cache: Option<Unknown<'_>>,
    ) -> Result<()> {
        let h = self.handle(&env, &handle)?;
        let contents = decode::<Vec<OwnedResourceContents>>(&env, contents, "contents")?;
        let r = match cache_hint(&env, cache, "cache")? {
            Some(hint) => self.inner.respond_read_cached(h, contents, hint),
            None => self.inner.respond_read(h, contents),
        };
        self.answered(&env, h, r)
    }

    /// Answers a `listResources` event with one page of the application's resources and
    /// its cursor for the next page (`null`: the last page). Items whose URI is registered
    /// are dropped (listed already).
    ///
    /// @throws {McpError} an item breaks the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`, `ERR_INVALID_RESULT`.
    #[napi(
        catch_unwind,
        ts_args_type = "handle: number, resources: Resource[], nextCursor?: string | null"
    )]
    pub fn respond_list(
        &mut self,
        env: Env,
        handle: Int,
        resources: Unknown<'_>,
        next_cursor: Option<String>,
    ) -> Result<()> {
        let h = self.handle(&env, &handle)?;
        let resources = decode::<Vec<OwnedResource>>(&env, resources, "resources")?;
        let r = self.inner.respond_list(h, resources, next_cursor);
        self.answered(&env, h, r)
    }

    /// Answers a `getPrompt` event with a `GetPromptResult` (`{description?, messages}`).
    ///
    /// @throws {McpError} the result breaks the schema.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`, `ERR_WRONG_KIND`.
    #[napi(catch_unwind, ts_args_type = "handle: number, result: GetPromptResult")]
    pub fn respond_prompt(&mut self, env: Env, handle: Int, result: Unknown<'_>) -> Result<()> {
        let h = self.handle(&env, &handle)?;
        let result = decode::<OwnedGetPromptResult>(&env, result, "result")?;
        let r = self.inner.respond_prompt(h, result);
        self.answered(&env, h, r)
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
    ) -> Result<()> {
        let h = self.handle(&env, &handle)?;
        let r = self.inner.respond_completion(h, values);
        self.answered(&env, h, r)
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
        ts_args_type = "handle: number, inputRequests: Record<string, InputRequest>, state?: Buffer | null"
    )]
    pub fn respond_input_required(
        &mut self,
        env: Env,
        handle: Int,
        input_requests: Unknown<'_>,
        state: Option<Buffer>,
    ) -> Result<()> {
        let h = self.handle(&env, &handle)?;
        let requests =
            decode::<Vec<(String, OwnedInputRequest)>>(&env, input_requests, "inputRequests")?;
        let r = self.inner.respond_input_required(
            h,
            InputRequired {
                requests,
                state: state.map(|b| b.to_vec()),
            },
        );
        self.answered(&env, h, r)
    }

    /// Fails an event's request: `{kind: 'notFound'}` (-32602, reads carry `data.uri`),
    /// `{kind: 'invalidParams', message}`, `{kind: 'internal'}` (-32603) or
    /// `{kind: 'application', code, message}`.
    ///
    /// @throws {TypeError} an unknown `kind`.
    /// @throws {McpContextError} `ERR_UNKNOWN_HANDLE`.
    #[napi(catch_unwind)]
    pub fn fail(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number")] handle: Int,
        failure: FailureSpec,
    ) -> Result<()> {
        let f = crate::spell::failure(&failure.kind, failure.message, failure.code)
            .map_err(|m| errors::type_error(&env, m))?;
        let h = self.handle(&env, &handle)?;
        let r = self.inner.fail(h, f);
        self.answered(&env, h, r)
    }

    /// The earliest deadline (ms) at which `handleTimeout` has work, or `null`.
    #[napi(catch_unwind, ts_return_type = "number | bigint | null")]
    pub fn poll_timeout(&self) -> Option<Int> {
        self.inner.poll_timeout().map(convert::u64_out)
    }

    /// Fails every request past its deadline with -32603 (each gets a `cancelled` event).
    #[napi(catch_unwind)]
    pub fn handle_timeout(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.handle_timeout(now);
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
        self.inner.stream_closed(StreamId(s));
        Ok(())
    }

    /// Queues `notifications/resources/updated` for the listens subscribed to `uri` (or a
    /// URI it is a sub-resource of).
    #[napi(catch_unwind)]
    pub fn resource_updated(&mut self, uri: String) {
        self.inner.resource_updated(&uri);
    }

    /// Queues `notifications/resources/list_changed` on the listens that opted in.
    #[napi(catch_unwind)]
    pub fn resources_list_changed(&mut self) {
        self.inner.resources_list_changed();
    }

    /// Queues `notifications/prompts/list_changed` on the listens that opted in.
    #[napi(catch_unwind)]
    pub fn prompts_list_changed(&mut self) {
        self.inner.prompts_list_changed();
    }

    /// Graceful close: every subscription gets its final `subscriptions/listen` result.
    #[napi(catch_unwind)]
    pub fn shutdown(&mut self) {
        self.inner.shutdown();
    }

    /// Requests waiting for the application.
    #[napi(getter, catch_unwind)]
    pub fn pending_requests(&self) -> u32 {
        u32::try_from(self.inner.pending_requests()).unwrap_or(u32::MAX)
    }

    /// Open `subscriptions/listen` streams.
    #[napi(getter, catch_unwind)]
    pub fn subscriptions(&self) -> u32 {
        u32::try_from(self.inner.subscriptions()).unwrap_or(u32::MAX)
    }

    fn handle(&self, env: &Env, handle: &Int) -> Result<Handle> {
        let n = convert::u64_in(env, handle, "handle")?;
        self.handles
            .get(&n)
            .copied()
            .ok_or_else(|| respond_error(env, RespondError::UnknownHandle))
    }

    fn answered(
        &mut self,
        env: &Env,
        h: Handle,
        r: std::result::Result<(), RespondError>,
    ) -> Result<()> {
        match r {
            Ok(()) | Err(RespondError::ClientLacksCapability) => {
                self.handles.remove(&h.get());
                r.map_err(|e| respond_error(env, e))
            }
            Err(e) => Err(respond_error(env, e)),
        }
    }
}
