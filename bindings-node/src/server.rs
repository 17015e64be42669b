//! `ServerMachine`: the core's sans-IO server machine (`mcp_context::server::Server`,
//! contract in `docs/server-machine.md`) with JS types.
//!
//! Conversions only: structured inputs (resources, templates, prompts, contents, prompt
//! results, input requests, cache hints, `serverInfo`) are plain JS objects in the spec's
//! wire shape; they go through `JSON.stringify` and the core's `FromJsonText` decoders, which
//! validate them (a bad one throws `McpError` with the JSON-RPC code, -32602 or -32700).
//! Bytes are `Buffer`s, times integer milliseconds, ids `number` or `bigint`.
//!
//! The machine itself, its handles, configuration, events and HTTP answers are the shared
//! adapter's (`ServerAdapter`, also under the wasm engine); this file and
//! `server_answer.rs` only read JS arguments and render the adapter's values.
//!
//! Layout: `server_http.rs` holds the transport's facts (`MessageContext`, HTTP request
//! heads); the class's methods
//! are in two `#[napi] impl` blocks, this file's (construction, registration, messages in,
//! outputs out) and `server_answer.rs`'s (answers, HTTP, time, notifications). napi-rs writes
//! `index.d.ts`'s methods in the order the compiler expands the blocks (module order: this
//! file first), so moving a method between the blocks reorders the declarations.

use mcp_context::auth::resource_server::ScopeSet;
use mcp_context::server::{CacheHint, Ctx, StreamId};
use mcp_context_node_adapter::config::{cache_hint, server_config, value_sets};
use mcp_context_node_adapter::server::{ServerAdapter, context};
use napi::bindgen_prelude::{Buffer, Either, JsValue, Null, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::{In, polled, thrower};
use crate::convert::{self, Int, opt_text, text};
use crate::server_http::MessageContext;
use napi::bindgen_prelude::JsObjectValue;

/// An optional cache hint argument.
pub(crate) fn hint(env: &Env, value: Option<Unknown<'_>>) -> Result<Option<CacheHint>> {
    cache_hint(In::opt(env, value)?.as_ref(), "cache").map_err(thrower(env))
}

/// An optional completion value sets argument.
fn sets(env: &Env, value: Option<Unknown<'_>>) -> Result<Vec<(String, Vec<String>)>> {
    value_sets(In::opt(env, value)?.as_ref()).map_err(thrower(env))
}

/// A `MessageContext` as the core's `Ctx` (`transport` forced for the HTTP entry point).
pub(crate) fn ctx_of(env: &Env, c: Option<&MessageContext>, http: bool) -> Result<Ctx> {
    let Some(c) = c else {
        return Ok(Ctx::stdio(StreamId(0)));
    };
    let stream = convert::u64_or_zero(env, c.stream.as_ref(), "context.stream")?;
    let auth = convert::u64_or_zero(env, c.auth.as_ref(), "context.auth")?;
    let transport = if http {
        Some("http")
    } else {
        c.transport.as_deref()
    };
    let mut ctx = context(stream, auth, transport, c.peer.as_deref()).map_err(thrower(env))?;
    if let Some(s) = &c.scopes {
        ctx.scopes = Some(ScopeSet(convert::u64_in(env, s, "context.scopes")?));
    }
    Ok(ctx)
}

/// The MCP server machine (docs/rules.md §1–§13): feed it messages, drain its outputs, answer its
/// events. It does no I/O and reads no clock. Drain rule: after every input call
/// `pollOutput()` until it returns `null`, then `pollTimeout()`.
///
/// ```js
/// const server = new ServerMachine({ serverInfo: { name: 'demo', version: '1.0.0' } })
/// server.addResource({ uri: 'notes://1', name: 'note 1' }, [{ uri: 'notes://1', text: 'hi' }])
/// server.handleMessage(Buffer.from(line), Date.now())
/// for (let out; (out = server.pollOutput()); ) {
///   if (out.type === 'transmit') process.stdout.write(Buffer.concat([out.bytes, Buffer.from('\n')]))
/// }
/// ```
#[napi]
pub struct ServerMachine {
    pub(crate) inner: ServerAdapter,
    pub(crate) waker: Option<std::sync::Arc<crate::waker::JsWaker>>,
}

#[napi]
impl ServerMachine {
    /// A machine with `config` (all optional): `serverInfo` (`{name, version, …}`),
    /// `instructions`, `supportedVersions`, `pageSize` (50), `requestTimeoutMs` (30 000),
    /// `streamQueue` (256), `stateKeys` (`[{id, secret: Buffer}]`, ≥ 32 bytes), `stateTtlMs`,
    /// cache hints `discoverCache`, `resourcesListCache`, `templatesListCache`,
    /// `promptsListCache`, `readCache` (`{ttlMs, cacheScope}`), and the flags
    /// `forwardUnlistedReads`, `declareResources`, `declarePrompts`, `completionEvents`,
    /// `dynamicResources` (`resources/list` continues with the application's own pages:
    /// `listResources` events).
    ///
    /// @throws {McpError} a structured field breaks the schema.
    /// @throws {McpContextError} `ERR_CONFIG`: an unusable configuration.
    #[napi(constructor, catch_unwind, ts_args_type = "config?: ServerConfig")]
    pub fn new(env: Env, config: Option<Object<'_>>) -> Result<Self> {
        let config = In::opt(&env, config.map(|c| c.to_unknown()))?;
        let config = server_config(config.as_ref()).map_err(thrower(&env))?;
        let inner = ServerAdapter::new(config).map_err(thrower(&env))?;
        Ok(Self { inner, waker: None })
    }

    /// The output-ready signal: `callback` is called (on a later turn of the event loop, never
    /// inside a machine call) when an output is queued while the queue was empty, by any call
    /// (`respond*`, `fail`, `resourceUpdated`, `handleTimeout`, …). Drain `pollOutput()` until
    /// `null` then; the next output calls it again.
    #[napi(catch_unwind, ts_args_type = "callback: () => void")]
    pub fn set_waker(
        &mut self,
        callback: napi::bindgen_prelude::Function<'_, (), ()>,
    ) -> Result<()> {
        let w = crate::waker::JsWaker::install(&callback, |w| self.inner.machine().set_waker(w))?;
        self.waker = Some(w);
        Ok(())
    }

    /// The value of a limit of the machine's configuration by its option name (`pageSize`,
    /// `maxLine`, `sessionHandshakeMs`, …); `null` for a name that is not a limit.
    #[napi(catch_unwind)]
    pub fn limit(&self, name: String) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)] // limits are far below 2^53
        self.inner.limit(&name).map(|v| v as f64)
    }

    /// Whether an output is queued (`pollOutput()` would return one).
    #[napi(getter, catch_unwind)]
    pub fn has_output(&self) -> bool {
        self.inner.machine_ref().has_output()
    }

    /// Registers a static resource: `resource` is its `resources/list` entry
    /// (`{uri, name, title?, description?, mimeType?, …}`); `contents`, when given, are
    /// answered by the machine itself (otherwise each read is a `readResource` event);
    /// `cache` (`{ttlMs, cacheScope}`) overrides `readCache` for it.
    ///
    /// @throws {McpError} a value breaks the schema.
    /// @throws {McpContextError} `ERR_DUPLICATE`, `ERR_INVALID_URI`.
    #[napi(
        catch_unwind,
        ts_args_type = "resource: Resource, contents?: ResourceContents[] | null, cache?: CacheHint | null"
    )]
    pub fn add_resource(
        &mut self,
        env: Env,
        resource: Unknown<'_>,
        contents: Option<Unknown<'_>>,
        cache: Option<Unknown<'_>>,
    ) -> Result<()> {
        let resource = text(&env, resource, "resource")?;
        let contents = opt_text(&env, contents, "contents")?;
        let cache = hint(&env, cache)?;
        self.inner
            .add_resource(&resource, contents.as_deref(), cache)
            .map_err(thrower(&env))
    }

    /// Registers a resource template (`{uriTemplate, name, …}`), with optional read cache
    /// hints and completion value sets (`{variable: ['a', 'b']}`, answered by prefix).
    ///
    /// @throws {McpError} a value breaks the schema.
    /// @throws {McpContextError} `ERR_DUPLICATE`, `ERR_INVALID_TEMPLATE`, `ERR_ROUTER`,
    /// `ERR_UNKNOWN_ARGUMENT`.
    #[napi(
        catch_unwind,
        ts_args_type = "template: ResourceTemplate, cache?: CacheHint | null, completions?: Record<string, string[]> | null"
    )]
    pub fn add_template(
        &mut self,
        env: Env,
        template: Unknown<'_>,
        cache: Option<Unknown<'_>>,
        completions: Option<Unknown<'_>>,
    ) -> Result<()> {
        let template = text(&env, template, "template")?;
        let cache = hint(&env, cache)?;
        let completions = sets(&env, completions)?;
        self.inner
            .add_template(&template, cache, completions)
            .map_err(thrower(&env))
    }

    /// Registers a prompt (`{name, title?, description?, arguments?: [{name, required?}]}`),
    /// with optional completion value sets per argument.
    ///
    /// @throws {McpError} a value breaks the schema.
    /// @throws {McpContextError} `ERR_DUPLICATE`, `ERR_UNKNOWN_ARGUMENT`.
    #[napi(
        catch_unwind,
        ts_args_type = "prompt: Prompt, completions?: Record<string, string[]> | null"
    )]
    pub fn add_prompt(
        &mut self,
        env: Env,
        prompt: Unknown<'_>,
        completions: Option<Unknown<'_>>,
    ) -> Result<()> {
        let prompt = text(&env, prompt, "prompt")?;
        let completions = sets(&env, completions)?;
        self.inner
            .add_prompt(&prompt, completions)
            .map_err(thrower(&env))
    }

    /// Removes a resource; whether it was registered.
    #[napi(catch_unwind)]
    pub fn remove_resource(&mut self, uri: String) -> bool {
        self.inner.machine().remove_resource(&uri)
    }

    /// Removes a template by its text; whether it was registered.
    #[napi(catch_unwind)]
    pub fn remove_template(&mut self, uri_template: String) -> bool {
        self.inner.machine().remove_template(&uri_template)
    }

    /// Removes a prompt; whether it was registered.
    #[napi(catch_unwind)]
    pub fn remove_prompt(&mut self, name: String) -> bool {
        self.inner.machine().remove_prompt(&name)
    }

    /// Replaces the stored contents of a registered resource (`null`: ask the application).
    /// Returns whether the resource is registered. Call `resourceUpdated(uri)` to notify.
    ///
    /// @throws {McpError} the contents break the schema.
    #[napi(
        catch_unwind,
        ts_args_type = "uri: string, contents: ResourceContents[] | null"
    )]
    pub fn set_resource_contents(
        &mut self,
        env: Env,
        uri: String,
        contents: Option<Unknown<'_>>,
    ) -> Result<bool> {
        let contents = opt_text(&env, contents, "contents")?;
        self.inner
            .set_resource_contents(&uri, contents.as_deref())
            .map_err(thrower(&env))
    }

    /// Turns the application's own `resources/list` pages (`dynamicResources`) on or off
    /// after construction.
    #[napi(catch_unwind)]
    pub fn set_dynamic_resources(&mut self, on: bool) {
        self.inner.machine().set_dynamic_resources(on);
    }

    /// Handles one JSON-RPC message (a `Buffer` or a string) received at `nowMs`. Returns
    /// what it was: `'request'`, `'notification'` (on HTTP: answer 202 with no body),
    /// `'response'` or `'invalid'`. Then drain `pollOutput()`, or pass an `outbox`: the
    /// call appends every output to it and sets `outbox.deadline` (`pollTimeout()`).
    #[napi(
        catch_unwind,
        ts_args_type = "message: Buffer | string, nowMs: number | bigint, context?: MessageContext | null, outbox?: Outbox | null",
        ts_return_type = "'request' | 'notification' | 'response' | 'invalid'"
    )]
    pub fn handle_message(
        &mut self,
        env: Env,
        message: Either<Buffer, String>,
        now_ms: Int,
        context: Option<MessageContext>,
        outbox: Option<Object<'_>>,
    ) -> Result<&'static str> {
        let now = convert::time_in(&env, &now_ms)?;
        let ctx = ctx_of(&env, context.as_ref(), false)?;
        let bytes: &[u8] = match &message {
            Either::A(b) => b,
            Either::B(s) => s.as_bytes(),
        };
        self.with_outbox(&env, outbox, |m| {
            Ok(m.inner.handle_message(bytes, now, ctx))
        })
    }

    /// Bytes read from a stdio stream (`context.stream`): the core splits them into lines
    /// (bounded by `maxLine`, the HTTP body limit by default), handles each line as a
    /// message, answers an over-long one with -32600 and its `id` and skips it; a line may
    /// span chunks. `end`: the input ended (a last line without a newline is handled).
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Buffer, end: boolean, nowMs: number | bigint, context?: MessageContext | null, outbox?: Outbox | null"
    )]
    pub fn handle_stdio(
        &mut self,
        env: Env,
        bytes: Buffer,
        end: bool,
        now_ms: Int,
        context: Option<MessageContext>,
        outbox: Option<Object<'_>>,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        let ctx = ctx_of(&env, context.as_ref(), false)?;
        self.with_outbox(&env, outbox, |m| {
            m.inner.handle_stdio(&bytes, end, now, ctx);
            Ok(())
        })
    }

    /// The next output, or `null`: a `transmit` (write `bytes` on `stream`: stdio adds a
    /// newline; HTTP uses `httpStatus`, `kind` `'json'` or `'sse'`, `endOfStream`) or an
    /// event: `readResource`, `getPrompt`, `complete`, `listResources` (answer its `handle`
    /// exactly once), `cancelled` (stop work on `handle`), `streamOverflow`.
    #[napi(catch_unwind, ts_return_type = "ServerOutput | null")]
    pub fn poll_output<'e>(&mut self, env: &'e Env) -> Result<Either<Object<'e>, Null>> {
        let Some(out) = self.inner.poll() else {
            if let Some(w) = &self.waker {
                w.rearm();
            }
            return Ok(Either::B(Null));
        };
        Ok(Either::A(polled(env, out, "bytes")?))
    }

    /// Registers a tool (`{name, title?, description?, inputSchema, outputSchema?,
    /// annotations?, …}`) in the core's registry: the core answers `tools/list` (paged,
    /// with `toolsListCache`) and checks `tools/call` (a known tool, object arguments, the
    /// schema's required ones), then a `callTool` event asks for the result
    /// (`respondTool`, `respondToolError`, `respondInputRequired` or `fail`).
    ///
    /// @throws {McpError} the tool breaks the schema.
    /// @throws {McpContextError} `ERR_DUPLICATE`, `ERR_TOOLS_BY_METHOD`.
    #[napi(catch_unwind, ts_args_type = "tool: Record<string, unknown>")]
    pub fn add_tool(&mut self, env: Env, tool: Unknown<'_>) -> Result<()> {
        let tool = text(&env, tool, "tool")?;
        self.inner.add_tool(&tool).map_err(thrower(&env))
    }

    /// Removes a tool; whether it was registered (call `toolsListChanged()` to tell
    /// listeners).
    #[napi(catch_unwind)]
    pub fn remove_tool(&mut self, name: String) -> bool {
        self.inner.machine().remove_tool(&name)
    }

    /// Queues `notifications/tools/list_changed` on the listens that opted in.
    #[napi(catch_unwind)]
    pub fn tools_list_changed(&mut self) {
        self.inner.machine().tools_list_changed();
    }

    /// Serves `method` (e.g. `tools/list`, `tools/call`, a vendor method): its requests are
    /// validated like the core's own and arrive as `request` events, answered with
    /// `respondResult`, `respondInputRequired` or `fail`.
    ///
    /// @throws {McpContextError} `ERR_CORE_METHOD`: the core owns the method.
    #[napi(catch_unwind)]
    pub fn add_method(&mut self, env: Env, method: String) -> Result<()> {
        self.inner.add_method(&method).map_err(thrower(&env))
    }

    /// Stops serving `method`; whether it was served.
    #[napi(catch_unwind)]
    pub fn remove_method(&mut self, method: String) -> bool {
        self.inner.machine().remove_method(&method)
    }

    /// Announces `key: value` (an object) in `server/discover`'s `capabilities`.
    ///
    /// @throws {McpContextError} `ERR_CORE_CAPABILITY`, `ERR_NOT_AN_OBJECT`.
    #[napi(
        catch_unwind,
        ts_args_type = "key: string, value: Record<string, unknown>"
    )]
    pub fn set_capability(&mut self, env: Env, key: String, value: Unknown<'_>) -> Result<()> {
        let value = text(&env, value, "value")?;
        self.inner
            .set_capability(&key, &value)
            .map_err(thrower(&env))
    }

    /// Withdraws a capability set with `setCapability`; whether one was set.
    #[napi(catch_unwind)]
    pub fn remove_capability(&mut self, key: String) -> bool {
        self.inner.machine().remove_capability(&key)
    }
}

impl ServerMachine {
    /// Runs an input call. With an `outbox` (an array), every output the call queued is
    /// appended to it (as `pollOutput` returns them) and `outbox.deadline` is set to
    /// `pollTimeout()`: one crossing instead of the call, `pollOutput` until `null` and
    /// `pollTimeout`. The output-ready signal stays quiet for what the call drained.
    pub(crate) fn with_outbox<T>(
        &mut self,
        env: &Env,
        outbox: Option<Object<'_>>,
        call: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let Some(mut outbox) = outbox else {
            return call(self);
        };
        let held = self.waker.as_ref().is_some_and(|w| w.hold());
        let r = call(self);
        let drained = self.drain_into(env, &mut outbox);
        if let Some(w) = self.waker.as_ref().filter(|_| held) {
            w.rearm();
        }
        let v = r?;
        drained?;
        Ok(v)
    }

    fn drain_into(&mut self, env: &Env, outbox: &mut Object<'_>) -> Result<()> {
        let make = crate::shapes::Maker::new(env)?;
        for (n, p) in (outbox.get_array_length()?..).zip(self.inner.drain_raw()) {
            make.push(outbox, n, p)?;
        }
        let deadline = self
            .inner
            .machine_ref()
            .poll_timeout()
            .map(convert::u64_out);
        outbox.set_named_property("deadline", deadline)
    }
}

/// The core's cursor into a list the application assembles from several sources (e.g. a
/// `listResources` page built from several templates' lists): `source` is the key of the
/// source the next page starts in, `offset` how many of its items come before it.
#[napi(catch_unwind)]
#[allow(unreachable_pub)]
pub fn encode_app_cursor(source: String, offset: u32) -> String {
    mcp_context_node_adapter::server::app_cursor(&source, u64::from(offset))
}

/// The `{source, offset}` an `encodeAppCursor` text names, or `null` for any other text.
#[napi(
    catch_unwind,
    ts_return_type = "{ source: string; offset: number } | null"
)]
#[allow(unreachable_pub)]
pub fn decode_app_cursor(env: &Env, text: String) -> Result<Either<Object<'_>, Null>> {
    let Some((source, offset)) = mcp_context_node_adapter::server::parse_app_cursor(&text) else {
        return Ok(Either::B(Null));
    };
    let mut o = Object::new(env)?;
    o.set_named_property("source", source)?;
    o.set_named_property("offset", convert::u64_out(offset))?;
    Ok(Either::A(o))
}
