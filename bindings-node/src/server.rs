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

use std::collections::HashMap;

use mcp_context::http::{HeadCheck, HttpResponse, HttpStart, RequestHead};
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::{
    FromJsonText, OwnedGetPromptResult, OwnedImplementation, OwnedInputRequest, OwnedJson,
    OwnedPrompt, OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    BodyKind, CacheHint, CancelReason, CompletionTarget, Ctx, DeclaredCapabilities, Event, Failure,
    Handle, InputRequired, Output, PromptEntry, ReadTarget, Received, RegisterError, ResourceEntry,
    RespondError, Retry, SealingKey, Server, ServerConfig, StreamId, TemplateEntry, Transport,
};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, JsValue, Null, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int};
use crate::errors;

/// Decodes a wire-shaped JS value through the core (`FromJsonText`).
pub(crate) fn decode<T: FromJsonText>(env: &Env, value: Unknown<'_>, what: &str) -> Result<T> {
    let text = convert::stringify(env, value, what)?;
    T::from_json_text(&text)
        .map_err(|e| errors::mcp_error(env, format!("{what}: {e}"), e.error_code().0, None, 400))
}

fn register_error(env: &Env, what: &str, e: &RegisterError) -> napi::Error {
    let code = crate::ident::err_code(e.ident());
    errors::context_error(env, format!("{what}: {e}"), code)
}

fn respond_error(env: &Env, e: RespondError) -> napi::Error {
    let code = crate::ident::err_code(e.ident());
    errors::context_error(env, e.to_string(), code)
}

/// Where a message came from (`handleMessage`'s third argument). Defaults: stream 0,
/// anonymous (`auth` 0), stdio.
#[napi(object)]
pub struct MessageContext {
    /// The host's id of the channel the answers go to: one per HTTP POST, one for a whole
    /// stdio connection.
    #[napi(ts_type = "number | bigint")]
    pub stream: Option<Int>,
    /// An opaque caller-context id (the authorization the host resolved; 0 = anonymous).
    #[napi(ts_type = "number | bigint")]
    pub auth: Option<Int>,
    /// `'stdio'` (default) or `'http'`.
    #[napi(ts_type = "'stdio' | 'http'")]
    pub transport: Option<String>,
}

/// The facts of a Streamable HTTP request the core checks (`httpHead`, `handleHttp`):
/// header values as received (absent: `undefined`).
#[napi(object)]
pub struct HttpRequestHead {
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target's path.
    pub path: String,
    /// `Host`.
    pub host: Option<String>,
    /// `Origin`.
    pub origin: Option<String>,
    /// `Content-Type`.
    pub content_type: Option<String>,
    /// `Content-Length` (absent for a chunked body).
    pub content_length: Option<f64>,
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<String>,
    /// `Mcp-Method`.
    pub mcp_method: Option<String>,
    /// `Mcp-Name`.
    pub mcp_name: Option<String>,
    /// `Accept`.
    pub accept: Option<String>,
    /// `Mcp-Session-Id` (a 2025-11-25 session's requests).
    pub session_id: Option<String>,
}

fn head_length(env: &Env, head: &HttpRequestHead) -> Result<Option<u64>> {
    head.content_length
        .map(|n| convert::u64_in(env, &Either::A(n), "contentLength"))
        .transpose()
}

fn request_head(head: &HttpRequestHead, content_length: Option<u64>) -> RequestHead<'_> {
    RequestHead {
        method: &head.method,
        path: &head.path,
        host: head.host.as_deref(),
        origin: head.origin.as_deref(),
        content_type: head.content_type.as_deref(),
        content_length,
        protocol_version: head.protocol_version.as_deref(),
        mcp_method: head.mcp_method.as_deref(),
        mcp_name: head.mcp_name.as_deref(),
        accept: head.accept.as_deref(),
        session_id: head.session_id.as_deref(),
    }
}

fn header_pairs<'e, 'a>(
    env: &'e Env,
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<napi::bindgen_prelude::Array<'e>> {
    let mut out = env.create_array(0)?;
    for (k, v) in pairs {
        let mut pair = env.create_array(2)?;
        pair.set(0, k)?;
        pair.set(1, v)?;
        out.insert(pair)?;
    }
    Ok(out)
}

fn http_response<'e>(env: &'e Env, r: HttpResponse) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    o.set_named_property("status", u32::from(r.status))?;
    o.set_named_property(
        "headers",
        header_pairs(env, r.headers.iter().map(|(k, v)| (*k, v.as_str())))?,
    )?;
    o.set_named_property("body", Buffer::from(r.body))?;
    Ok(o)
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

fn cache_hint(env: &Env, value: Option<Unknown<'_>>, what: &str) -> Result<Option<CacheHint>> {
    match value {
        Some(v) if !is_nullish(&v)? => decode::<CacheHint>(env, v, what).map(Some),
        _ => Ok(None),
    }
}

fn is_nullish(v: &Unknown<'_>) -> Result<bool> {
    Ok(matches!(
        v.get_type()?,
        napi::ValueType::Null | napi::ValueType::Undefined
    ))
}

fn get<'e>(o: &Object<'e>, key: &str) -> Result<Option<Unknown<'e>>> {
    let v: Unknown<'e> = o.get_named_property(key)?;
    Ok(if is_nullish(&v)? { None } else { Some(v) })
}

fn get_u64(env: &Env, o: &Object<'_>, key: &str) -> Result<Option<u64>> {
    match o.get_named_property::<Option<Int>>(key)? {
        Some(v) => convert::u64_in(env, &v, key).map(Some),
        None => Ok(None),
    }
}

fn get_usize(env: &Env, o: &Object<'_>, key: &str) -> Result<Option<usize>> {
    Ok(get_u64(env, o, key)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// `{name: ['a', 'b'], …}` → value sets (`completions` of templates and prompts).
fn value_sets(env: &Env, value: Option<Unknown<'_>>) -> Result<Vec<(String, Vec<String>)>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    if is_nullish(&value)? {
        return Ok(Vec::new());
    }
    let o = value.coerce_to_object()?;
    let mut out = Vec::new();
    for key in Object::keys(&o)? {
        let values: Vec<String> = o.get_named_property(&key).map_err(|_| {
            errors::type_error(
                env,
                format!("completions.{key} must be an array of strings"),
            )
        })?;
        out.push((key, values));
    }
    Ok(out)
}

fn config_from(env: &Env, o: Option<Object<'_>>) -> Result<ServerConfig> {
    let mut c = ServerConfig::default();
    let Some(o) = o else { return Ok(c) };
    if let Some(v) = get(&o, "serverInfo")? {
        c.server_info = Some(decode::<OwnedImplementation>(env, v, "serverInfo")?);
    }
    c.instructions = o.get_named_property::<Option<String>>("instructions")?;
    if let Some(v) = o.get_named_property::<Option<Vec<String>>>("supportedVersions")? {
        c.supported_versions = v;
    }
    if let Some(n) = get_usize(env, &o, "pageSize")? {
        c.page_size = n;
    }
    if let Some(n) = get_u64(env, &o, "requestTimeoutMs")? {
        c.request_timeout_ms = n;
    }
    if let Some(n) = get_usize(env, &o, "streamQueue")? {
        c.stream_queue = n;
    }
    if let Some(n) = get_u64(env, &o, "stateTtlMs")? {
        c.state_ttl_ms = n;
    }
    for (key, slot) in [
        ("discoverCache", &mut c.discover_cache),
        ("resourcesListCache", &mut c.resources_list_cache),
        ("templatesListCache", &mut c.templates_list_cache),
        ("promptsListCache", &mut c.prompts_list_cache),
        ("readCache", &mut c.read_cache),
    ] {
        if let Some(h) = cache_hint(env, get(&o, key)?, key)? {
            *slot = h;
        }
    }
    for (key, slot) in [
        ("forwardUnlistedReads", &mut c.forward_unlisted_reads),
        ("declareResources", &mut c.declare_resources),
        ("declarePrompts", &mut c.declare_prompts),
        ("completionEvents", &mut c.completion_events),
        ("dynamicResources", &mut c.dynamic_resources),
    ] {
        if let Some(b) = o.get_named_property::<Option<bool>>(key)? {
            *slot = b;
        }
    }
    if let Some(h) = o.get_named_property::<Option<Object<'_>>>("http")? {
        let path: Unknown<'_> = h.get_named_property("path")?;
        match path.get_type()? {
            napi::ValueType::Undefined => {}
            napi::ValueType::Null => c.http.path = None,
            _ => c.http.path = Some(h.get_named_property::<String>("path")?),
        }
        if let Some(n) = get_usize(env, &h, "maxBody")? {
            c.http.max_body = n;
        }
        if let Some(v) = h.get_named_property::<Option<Vec<String>>>("allowedHosts")? {
            c.http.allowed_hosts = v;
        }
        if let Some(v) = h.get_named_property::<Option<Vec<String>>>("allowedOrigins")? {
            c.http.allowed_origins = v;
        }
    }
    if let Some(keys) = o.get_named_property::<Option<Vec<Object<'_>>>>("stateKeys")? {
        for k in keys {
            let id = get_u64(env, &k, "id")?.unwrap_or(0);
            let secret: Buffer = k.get_named_property("secret")?;
            c.state_keys.push(SealingKey {
                id: u32::try_from(id).unwrap_or(u32::MAX),
                secret: secret.to_vec(),
            });
        }
    }
    Ok(c)
}

fn capabilities<'e>(env: &'e Env, c: DeclaredCapabilities) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    o.set_named_property("elicitationForm", c.elicitation_form)?;
    o.set_named_property("elicitationUrl", c.elicitation_url)?;
    o.set_named_property("sampling", c.sampling)?;
    o.set_named_property("roots", c.roots)?;
    Ok(o)
}

fn retry<'e>(env: &'e Env, r: Option<&Retry>) -> Result<Either<Object<'e>, Null>> {
    let Some(r) = r else {
        return Ok(Either::B(Null));
    };
    let mut o = Object::new(env)?;
    match &r.state {
        Some(s) => o.set_named_property("state", Buffer::from(s.clone()))?,
        None => o.set_named_property("state", Null)?,
    }
    let mut responses = Object::new(env)?;
    for (k, v) in &r.input_responses {
        let v = convert::parse_json(env, v.as_raw().as_text())?;
        convert::set_own(env, &mut responses, k, v)?;
    }
    o.set_named_property("inputResponses", responses)?;
    Ok(Either::A(o))
}

/// A request id as JS, with its exact value and JSON type: a string for a string id; an
/// integer as a `number` while exact (|id| < 2^53), else as a `bigint` (any size).
pub(crate) fn request_id<'e>(env: &'e Env, id: &OwnedRequestId) -> Result<Unknown<'e>> {
    use napi::bindgen_prelude::{BigInt, ToNapiValue};
    const SAFE: i64 = (1 << 53) - 1;
    Ok(match id {
        OwnedRequestId::Str(s) => env.create_string(s)?.to_unknown(),
        #[allow(clippy::cast_precision_loss)]
        OwnedRequestId::Int(i) if (-SAFE..=SAFE).contains(i) => (*i as f64).into_unknown(env)?,
        OwnedRequestId::Int(i) => BigInt::from(*i).into_unknown(env)?,
        OwnedRequestId::BigInt(digits) => match convert::bigint_from_decimal(digits) {
            Some(b) => b.into_unknown(env)?,
            None => {
                return Err(errors::context_error(
                    env,
                    format!("request id {digits} is not an integer literal"),
                    String::from("ERR_INVALID_ID"),
                ));
            }
        },
    })
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
    inner: Server,
    handles: HashMap<u64, Handle>,
    waker: Option<std::sync::Arc<crate::waker::JsWaker>>,
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
            Output::Event(event) => self.event(env, &mut o, event)?,
        }
        Ok(Either::A(o))
    }

    fn event(&mut self, env: &Env, o: &mut Object<'_>, event: Event) -> Result<()> {
        match event {
            Event::ReadResource(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                o.set_named_property("type", "readResource")?;
                o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
                o.set_named_property("uri", e.uri.as_str())?;
                match &e.target {
                    ReadTarget::Template { id, variables } => {
                        o.set_named_property("target", "template")?;
                        o.set_named_property("template", self.inner.template(*id))?;
                        o.set_named_property("variables", convert::pairs_object(env, variables)?)?;
                    }
                    ReadTarget::Resource => o.set_named_property("target", "resource")?,
                    _ => o.set_named_property("target", "unlisted")?,
                }
                o.set_named_property("auth", convert::u64_out(e.auth))?;
                o.set_named_property("capabilities", capabilities(env, e.capabilities)?)?;
                o.set_named_property("retry", retry(env, e.retry.as_ref())?)?;
            }
            Event::GetPrompt(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                o.set_named_property("type", "getPrompt")?;
                o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
                o.set_named_property("name", e.name.as_str())?;
                o.set_named_property("arguments", convert::pairs_object(env, &e.arguments)?)?;
                o.set_named_property("auth", convert::u64_out(e.auth))?;
                o.set_named_property("capabilities", capabilities(env, e.capabilities)?)?;
                o.set_named_property("retry", retry(env, e.retry.as_ref())?)?;
            }
            Event::Complete(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                o.set_named_property("type", "complete")?;
                o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
                let mut r = Object::new(env)?;
                match &e.target {
                    CompletionTarget::Prompt(name) => {
                        r.set_named_property("type", "ref/prompt")?;
                        r.set_named_property("name", name.as_str())?;
                    }
                    CompletionTarget::Template(id) => {
                        r.set_named_property("type", "ref/resource")?;
                        r.set_named_property("uri", self.inner.template(*id))?;
                    }
                }
                o.set_named_property("ref", r)?;
                o.set_named_property("argument", e.argument.as_str())?;
                o.set_named_property("value", e.value.as_str())?;
                o.set_named_property("context", convert::pairs_object(env, &e.context)?)?;
                o.set_named_property("auth", convert::u64_out(e.auth))?;
            }
            Event::Request(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                o.set_named_property("type", "request")?;
                o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
                o.set_named_property("method", e.method.as_str())?;
                o.set_named_property(
                    "params",
                    convert::parse_json(env, e.params.as_raw().as_text())?,
                )?;
                o.set_named_property("progress", e.progress)?;
                o.set_named_property("auth", convert::u64_out(e.auth))?;
                o.set_named_property("capabilities", capabilities(env, e.capabilities)?)?;
                o.set_named_property("retry", retry(env, e.retry.as_ref())?)?;
            }
            Event::ListResources(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                o.set_named_property("type", "listResources")?;
                o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
                o.set_named_property("cursor", e.cursor.as_deref())?;
                o.set_named_property("progress", e.progress)?;
                o.set_named_property("auth", convert::u64_out(e.auth))?;
            }
            Event::Cancelled { handle, reason } => {
                self.handles.remove(&handle.get());
                o.set_named_property("type", "cancelled")?;
                o.set_named_property("handle", convert::u64_out(handle.get()))?;
                o.set_named_property(
                    "reason",
                    match reason {
                        CancelReason::Client => "client",
                        CancelReason::StreamClosed => "streamClosed",
                        _ => "timedOut",
                    },
                )?;
            }
            Event::StreamOverflow {
                stream,
                subscription,
            } => {
                o.set_named_property("type", "streamOverflow")?;
                o.set_named_property("stream", convert::u64_out(stream.0))?;
                o.set_named_property("subscription", request_id(env, &subscription)?)?;
            }
            _ => o.set_named_property("type", "unknown")?,
        }
        Ok(())
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
        let message = failure.message.unwrap_or_default();
        let f = match failure.kind.as_str() {
            "notFound" => Failure::NotFound,
            "invalidParams" => Failure::InvalidParams(message.into()),
            "internal" => Failure::Internal,
            "application" => Failure::Application {
                code: failure.code.unwrap_or(-32603),
                message: message.into(),
            },
            other => {
                return Err(errors::type_error(
                    &env,
                    format!(
                        "failure.kind must be notFound, invalidParams, internal or application, not '{other}'"
                    ),
                ));
            }
        };
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
}
