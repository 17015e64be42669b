//! `ServerMachine`: the core's sans-IO server machine (`mcp_context::server::Server`,
//! contract in `docs/server-machine.md`) with JS types.
//!
//! Conversions only: structured inputs (resources, templates, prompts, contents, prompt
//! results, input requests, cache hints, `serverInfo`) are plain JS objects in the spec's
//! wire shape; they go through `JSON.stringify` and the core's `FromJsonText` decoders, which
//! validate them (a bad one throws `McpError` with the JSON-RPC code, -32602 or -32700).
//! Bytes are `Buffer`s, times integer milliseconds, ids `number` or `bigint`.
//!
//! The core's `Handle` cannot be built outside the core, so the machine keeps the handles of
//! the events it handed out (by number) until they are answered or cancelled.
//!
//! Layout (one concept a file): `server_config.rs` reads the configuration and the other
//! structured inputs, `server_http.rs` the transport's facts (`MessageContext`, HTTP request
//! heads and responses), `server_events.rs` turns events into JS objects; the class's methods
//! are in two `#[napi] impl` blocks, this file's (construction, registration, messages in,
//! outputs out) and `server_answer.rs`'s (answers, HTTP, time, notifications). napi-rs writes
//! `index.d.ts`'s methods in the order the compiler expands the blocks (module order: this
//! file first), so moving a method between the blocks reorders the declarations.

use std::collections::HashMap;

use mcp_context::messages::owned::{
    OwnedJson, OwnedPrompt, OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    BodyKind, Ctx, Handle, Output, PromptEntry, Received, RegisterError, ResourceEntry, Server,
    StreamId, TemplateEntry, Transport,
};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, Null, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int, decode};
use crate::errors;
use crate::server_config::{cache_hint, config_from, is_nullish, value_sets};
use crate::server_http::{MessageContext, header_pairs};

fn register_error(env: &Env, what: &str, e: &RegisterError) -> napi::Error {
    let code = crate::ident::err_code(e.ident());
    errors::context_error(env, format!("{what}: {e}"), code)
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
    pub(crate) inner: Server,
    pub(crate) handles: HashMap<u64, Handle>,
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
        let config = config_from(&env, config)?;
        let inner = Server::new(config)
            .map_err(|e| errors::context_error(&env, e.to_string(), String::from("ERR_CONFIG")))?;
        Ok(Self {
            inner,
            handles: HashMap::new(),
            waker: None,
        })
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
        let w = crate::waker::JsWaker::install(&callback, |w| self.inner.set_waker(w))?;
        self.waker = Some(w);
        Ok(())
    }

    /// Whether an output is queued (`pollOutput()` would return one).
    #[napi(getter, catch_unwind)]
    pub fn has_output(&self) -> bool {
        self.inner.has_output()
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
        let resource = decode::<OwnedResource>(&env, resource, "resource")?;
        let contents = match contents {
            Some(c) if !is_nullish(&c)? => {
                Some(decode::<Vec<OwnedResourceContents>>(&env, c, "contents")?)
            }
            _ => None,
        };
        let cache = cache_hint(&env, cache, "cache")?;
        self.inner
            .add_resource(ResourceEntry {
                resource,
                contents,
                cache,
            })
            .map_err(|e| register_error(&env, "addResource", &e))
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
        let template = decode::<OwnedResourceTemplate>(&env, template, "template")?;
        let cache = cache_hint(&env, cache, "cache")?;
        let completions = value_sets(&env, completions)?;
        self.inner
            .add_template(TemplateEntry {
                template,
                cache,
                completions,
            })
            .map(|_| ())
            .map_err(|e| register_error(&env, "addTemplate", &e))
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
        let prompt = decode::<OwnedPrompt>(&env, prompt, "prompt")?;
        let completions = value_sets(&env, completions)?;
        self.inner
            .add_prompt(PromptEntry {
                prompt,
                completions,
            })
            .map_err(|e| register_error(&env, "addPrompt", &e))
    }

    /// Removes a resource; whether it was registered.
    #[napi(catch_unwind)]
    pub fn remove_resource(&mut self, uri: String) -> bool {
        self.inner.remove_resource(&uri)
    }

    /// Removes a template by its text; whether it was registered.
    #[napi(catch_unwind)]
    pub fn remove_template(&mut self, uri_template: String) -> bool {
        self.inner.remove_template(&uri_template)
    }

    /// Removes a prompt; whether it was registered.
    #[napi(catch_unwind)]
    pub fn remove_prompt(&mut self, name: String) -> bool {
        self.inner.remove_prompt(&name)
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
        let contents = match contents {
            Some(c) if !is_nullish(&c)? => {
                Some(decode::<Vec<OwnedResourceContents>>(&env, c, "contents")?)
            }
            _ => None,
        };
        Ok(self.inner.set_resource_contents(&uri, contents))
    }

    /// Turns the application's own `resources/list` pages (`dynamicResources`) on or off
    /// after construction.
    #[napi(catch_unwind)]
    pub fn set_dynamic_resources(&mut self, on: bool) {
        self.inner.set_dynamic_resources(on);
    }

    /// Handles one JSON-RPC message (a `Buffer` or a string) received at `nowMs`. Returns
    /// what it was: `'request'`, `'notification'` (on HTTP: answer 202 with no body),
    /// `'response'` or `'invalid'`. Then drain `pollOutput()`.
    #[napi(
        catch_unwind,
        ts_args_type = "message: Buffer | string, nowMs: number | bigint, context?: MessageContext",
        ts_return_type = "'request' | 'notification' | 'response' | 'invalid'"
    )]
    pub fn handle_message(
        &mut self,
        env: Env,
        message: Either<Buffer, String>,
        now_ms: Int,
        context: Option<MessageContext>,
    ) -> Result<&'static str> {
        let now = convert::time_in(&env, &now_ms)?;
        let ctx = match context {
            None => Ctx::stdio(StreamId(0)),
            Some(c) => {
                let stream = convert::u64_or_zero(&env, c.stream.as_ref(), "context.stream")?;
                let auth = convert::u64_or_zero(&env, c.auth.as_ref(), "context.auth")?;
                let transport = match c.transport.as_deref() {
                    None | Some("stdio") => Transport::Stdio,
                    Some("http") => Transport::Http,
                    Some(other) => {
                        return Err(errors::type_error(
                            &env,
                            format!("context.transport must be 'stdio' or 'http', not '{other}'"),
                        ));
                    }
                };
                Ctx {
                    stream: StreamId(stream),
                    auth,
                    transport,
                    peer: crate::server_http::peer(&c),
                }
            }
        };
        let bytes: &[u8] = match &message {
            Either::A(b) => b,
            Either::B(s) => s.as_bytes(),
        };
        Ok(match self.inner.handle_message(bytes, now, ctx) {
            Received::Request => "request",
            Received::Notification => "notification",
            Received::Response => "response",
            _ => "invalid",
        })
    }

    /// The next output, or `null`: a `transmit` (write `bytes` on `stream`: stdio adds a
    /// newline; HTTP uses `httpStatus`, `kind` `'json'` or `'sse'`, `endOfStream`) or an
    /// event: `readResource`, `getPrompt`, `complete`, `listResources` (answer its `handle`
    /// exactly once), `cancelled` (stop work on `handle`), `streamOverflow`.
    #[napi(catch_unwind, ts_return_type = "ServerOutput | null")]
    pub fn poll_output<'e>(&mut self, env: &'e Env) -> Result<Either<Object<'e>, Null>> {
        let Some(out) = self.inner.poll_output() else {
            if let Some(w) = &self.waker {
                w.rearm();
            }
            return Ok(Either::B(Null));
        };
        let mut o = Object::new(env)?;
        match out {
            Output::Transmit(t) => {
                o.set_named_property("type", "transmit")?;
                o.set_named_property(
                    "headers",
                    header_pairs(env, t.http_headers().iter().map(|(k, v)| (*k, *v)))?,
                )?;
                o.set_named_property("stream", convert::u64_out(t.stream.0))?;
                o.set_named_property("bytes", Buffer::from(t.bytes))?;
                o.set_named_property("httpStatus", u32::from(t.http_status))?;
                o.set_named_property(
                    "kind",
                    match t.kind {
                        BodyKind::Json => "json",
                        BodyKind::Sse => "sse",
                    },
                )?;
                o.set_named_property("endOfStream", t.end_of_stream)?;
            }
            Output::Event(event) => {
                crate::server_events::event_into(
                    env,
                    &mut o,
                    event,
                    &mut self.handles,
                    &self.inner,
                )?;
            }
        }
        Ok(Either::A(o))
    }

    /// Serves `method` (e.g. `tools/list`, `tools/call`, a vendor method): its requests are
    /// validated like the core's own and arrive as `request` events, answered with
    /// `respondResult`, `respondInputRequired` or `fail`.
    ///
    /// @throws {McpContextError} `ERR_CORE_METHOD`: the core owns the method.
    #[napi(catch_unwind)]
    pub fn add_method(&mut self, env: Env, method: String) -> Result<()> {
        self.inner
            .add_method(&method)
            .map_err(|e| register_error(&env, "addMethod", &e))
    }

    /// Stops serving `method`; whether it was served.
    #[napi(catch_unwind)]
    pub fn remove_method(&mut self, method: String) -> bool {
        self.inner.remove_method(&method)
    }

    /// Announces `key: value` (an object) in `server/discover`'s `capabilities`.
    ///
    /// @throws {McpContextError} `ERR_CORE_CAPABILITY`, `ERR_NOT_AN_OBJECT`.
    #[napi(
        catch_unwind,
        ts_args_type = "key: string, value: Record<string, unknown>"
    )]
    pub fn set_capability(&mut self, env: Env, key: String, value: Unknown<'_>) -> Result<()> {
        let value = decode::<OwnedJson>(&env, value, "value")?;
        self.inner
            .set_capability(&key, value)
            .map_err(|e| register_error(&env, "setCapability", &e))
    }

    /// Withdraws a capability set with `setCapability`; whether one was set.
    #[napi(catch_unwind)]
    pub fn remove_capability(&mut self, key: String) -> bool {
        self.inner.remove_capability(&key)
    }
}
