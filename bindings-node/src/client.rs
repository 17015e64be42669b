//! `ClientMachine`: the core's sans-IO client machine (`mcp_context::client::Client`) with JS
//! types.
//!
//! Conversions only. Calls return a call id (`number`, or `bigint` beyond 2^53); results
//! arrive as events carrying the result object (the validated JSON text the core holds,
//! parsed with `JSON.parse`) and `fromCache`. Errors in events are `Error` objects: an
//! `McpError` (JSON-RPC code, `data`) for a server's error, an `McpContextError` with a
//! `code` string otherwise.

use mcp_context::cache::{AuthContext, CacheLimits};
use mcp_context::client::{
    CachePolicy, CallError, CallId, Client, ClientConfig, ClientError, CompletionRef, ConnectError,
    EndReason, Era, Event, ListMode, Notice, Output, ServerError, Transport,
};
use mcp_context::client::{Listing, Reply};
use mcp_context::messages::owned::{OwnedImplementation, OwnedJson, OwnedSubscriptionFilter};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, JsValue, Null, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int};
use crate::errors;
use crate::server::decode;

/// Options of a cacheable call.
#[napi(object)]
pub struct CallOptions {
    /// Always ask the server (the result still refreshes the cache). Default: a fresh cached
    /// result is served without a request.
    pub refresh: Option<bool>,
}

/// Options of a list call.
#[napi(object)]
pub struct ListOptions {
    /// Fetch one page only, starting at `cursor` (absent: the first page). Default: every
    /// page (following `nextCursor`, at most `maxPages`).
    pub page: Option<bool>,
    /// The cursor of the page to fetch (implies `page`).
    pub cursor: Option<String>,
    /// Always ask the server.
    pub refresh: Option<bool>,
}

fn policy(refresh: Option<bool>) -> CachePolicy {
    if refresh.unwrap_or(false) {
        CachePolicy::Refresh
    } else {
        CachePolicy::PreferCache
    }
}

fn list_mode(o: Option<&ListOptions>) -> ListMode {
    match o {
        Some(o) if o.page.unwrap_or(false) || o.cursor.is_some() => {
            ListMode::Page(o.cursor.clone())
        }
        _ => ListMode::All,
    }
}

fn client_error(env: &Env, e: ClientError) -> napi::Error {
    let code = crate::ident::err_code(e.ident());
    errors::context_error(env, e.to_string(), code)
}

fn connect_code(e: &ConnectError) -> String {
    crate::ident::err_code(e.ident())
}

/// A server's error as an `McpError` (not thrown: carried by a `failed` event).
fn server_error<'e>(env: &'e Env, e: &ServerError) -> Result<Unknown<'e>> {
    let mut data = Object::new(env)?;
    let has_data = match e {
        ServerError::ResourceNotFound { uri: Some(uri), .. } => {
            data.set_named_property("uri", uri.as_str())?;
            true
        }
        ServerError::UnsupportedProtocolVersion {
            supported,
            requested,
        } => {
            data.set_named_property("supported", supported.clone())?;
            data.set_named_property("requested", requested.as_str())?;
            true
        }
        ServerError::MissingRequiredClientCapability { required } => {
            data.set_named_property(
                "requiredCapabilities",
                convert::parse_json(env, required.as_raw().as_text())?,
            )?;
            true
        }
        ServerError::Other { data: Some(d), .. } => {
            let value = convert::parse_json(env, d.as_raw().as_text())?;
            let err = errors::mcp_error(env, e.to_string(), e.code().0, None, 200);
            return with_data(env, err, Some(value));
        }
        _ => false,
    };
    let err = errors::mcp_error(
        env,
        e.to_string(),
        e.code().0,
        None,
        mcp_context::http::status_for(e.code()),
    );
    with_data(env, err, has_data.then(|| data.to_unknown()))
}

fn with_data<'e>(env: &'e Env, err: napi::Error, data: Option<Unknown<'e>>) -> Result<Unknown<'e>> {
    let value = error_value(env, err)?;
    if let Some(d) = data {
        value.coerce_to_object()?.set_named_property("data", d)?;
    }
    Ok(value)
}

/// The JS error object inside a `napi::Error` built by `errors` (or a plain `Error`).
fn error_value<'e>(env: &'e Env, err: napi::Error) -> Result<Unknown<'e>> {
    let thrown = napi::JsError::from(err).into_unknown(*env);
    Ok(thrown)
}

fn call_error<'e>(env: &'e Env, e: &CallError) -> Result<Unknown<'e>> {
    if let CallError::Server(s) = e {
        return server_error(env, s);
    }
    let code = match e {
        CallError::NotConnected(c) => connect_code(c),
        other => crate::ident::err_code(other.ident()),
    };
    error_value(
        env,
        errors::context_error(env, e.to_string(), code.to_string()),
    )
}

fn filter_object<'e>(env: &'e Env, f: &OwnedSubscriptionFilter) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    if let Some(b) = f.tools_list_changed {
        o.set_named_property("toolsListChanged", b)?;
    }
    if let Some(b) = f.prompts_list_changed {
        o.set_named_property("promptsListChanged", b)?;
    }
    if let Some(b) = f.resources_list_changed {
        o.set_named_property("resourcesListChanged", b)?;
    }
    if let Some(uris) = &f.resource_subscriptions {
        o.set_named_property("resourceSubscriptions", uris.clone())?;
    }
    Ok(o)
}

fn reply_into<K>(env: &Env, o: &mut Object<'_>, reply: &Reply<K>) -> Result<()> {
    o.set_named_property("result", convert::parse_json(env, reply.json())?)?;
    o.set_named_property("fromCache", reply.from_cache())
}

fn listing_into<K>(env: &Env, o: &mut Object<'_>, listing: &Listing<K>) -> Result<()> {
    let mut pages = Vec::with_capacity(listing.pages.len());
    for page in &listing.pages {
        let mut p = Object::new(env)?;
        reply_into(env, &mut p, page)?;
        pages.push(p);
    }
    o.set_named_property("pages", pages)?;
    o.set_named_property("nextCursor", listing.next_cursor.as_deref())?;
    o.set_named_property("truncated", listing.truncated)
}

fn call_id(c: CallId) -> Int {
    convert::u64_out(c.0)
}

fn string_pairs(env: &Env, value: Option<Object<'_>>, what: &str) -> Result<Vec<(String, String)>> {
    let Some(o) = value else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for key in Object::keys(&o)? {
        let v: Unknown<'_> = o.get_named_property(&key)?;
        if v.get_type()? != napi::ValueType::String {
            return Err(errors::type_error(
                env,
                format!("{what}.{key} must be a string"),
            ));
        }
        out.push((key, v.coerce_to_string()?.into_utf8()?.into_owned()?));
    }
    Ok(out)
}

fn config_from(env: &Env, o: Option<Object<'_>>) -> Result<ClientConfig> {
    let Some(o) = o else {
        return Ok(ClientConfig::new(
            "mcp-context-node",
            env!("CARGO_PKG_VERSION"),
        ));
    };
    let mut c = ClientConfig::new("mcp-context-node", env!("CARGO_PKG_VERSION"));
    let info: Unknown<'_> = o.get_named_property("clientInfo")?;
    match info.get_type()? {
        napi::ValueType::Undefined => {}
        napi::ValueType::Null => c.client_info = None,
        _ => c.client_info = Some(decode::<OwnedImplementation>(env, info, "clientInfo")?),
    }
    let caps: Unknown<'_> = o.get_named_property("capabilities")?;
    if caps.get_type()? != napi::ValueType::Undefined {
        let text = convert::stringify(env, caps, "capabilities")?;
        c.capabilities = OwnedJson::parse(text)
            .map_err(|e| errors::type_error(env, format!("capabilities must be JSON: {e}")))?;
    }
    if let Some(v) = o.get_named_property::<Option<Vec<String>>>("versions")? {
        c.versions = v;
    }
    if let Some(v) = o.get_named_property::<Option<Vec<String>>>("legacyVersions")? {
        c.legacy_versions = v;
    }
    match o
        .get_named_property::<Option<String>>("transport")?
        .as_deref()
    {
        None | Some("stdio") => c.transport = Transport::Stdio,
        Some("http") => c.transport = Transport::Http,
        Some(other) => {
            return Err(errors::type_error(
                env,
                format!("transport must be 'stdio' or 'http', not '{other}'"),
            ));
        }
    }
    for (key, slot) in [
        ("requestTimeoutMs", &mut c.request_timeout_ms),
        ("probeTimeoutMs", &mut c.probe_timeout_ms),
    ] {
        if let Some(v) = o.get_named_property::<Option<Int>>(key)? {
            *slot = convert::u64_in(env, &v, key)?;
        }
    }
    if let Some(n) = o.get_named_property::<Option<u32>>("maxPages")? {
        c.max_pages = n as usize;
    }
    if let Some(n) = o.get_named_property::<Option<u32>>("maxInputRounds")? {
        c.max_input_rounds = u8::try_from(n).unwrap_or(u8::MAX);
    }
    let cache: Unknown<'_> = o.get_named_property("cache")?;
    match cache.get_type()? {
        napi::ValueType::Undefined => {}
        napi::ValueType::Null => c.cache = None,
        _ => {
            let co = cache.coerce_to_object()?;
            let mut limits = c.cache.unwrap_or(CacheLimits {
                max_entries: 256,
                max_bytes: 4 << 20,
            });
            if let Some(n) = co.get_named_property::<Option<u32>>("maxEntries")? {
                limits.max_entries = n as usize;
            }
            if let Some(n) = co.get_named_property::<Option<u32>>("maxBytes")? {
                limits.max_bytes = n as usize;
            }
            c.cache = Some(limits);
        }
    }
    Ok(c)
}

/// The MCP client machine: negotiation (`server/discover`, with the 2025-11-25 fallback),
/// per-request `_meta`, pagination, `input_required` rounds, subscriptions and a
/// scope-aware result cache. It does no I/O and reads no clock. Drain rule: after every
/// input call `pollOutput()` until it returns `null`, then `pollTimeout()`.
///
/// ```js
/// const client = new ClientMachine({ clientInfo: { name: 'host', version: '1.0.0' } })
/// const call = client.readResource('file:///a.txt', Date.now())
/// for (let out; (out = client.pollOutput()); ) {
///   if (out.type === 'transmit') child.stdin.write(Buffer.concat([out.bytes, Buffer.from('\n')]))
/// }
/// // each line the server writes: client.handleMessage(line, Date.now()), then drain again;
/// // the answer arrives as { type: 'resourceRead', call, result, fromCache }.
/// ```
#[napi]
pub struct ClientMachine {
    inner: Client,
    waker: Option<std::sync::Arc<crate::waker::JsWaker>>,
}

#[napi]
impl ClientMachine {
    /// A client with `config` (all optional): `clientInfo` (`{name, version}`; `null` leaves
    /// it out), `capabilities` (a `ClientCapabilities` object, `{}` by default),
    /// `versions`, `legacyVersions` (`[]`: no fallback), `transport` (`'stdio'` or
    /// `'http'`, for cancellation), `requestTimeoutMs`, `probeTimeoutMs`, `maxPages`,
    /// `maxInputRounds`, `cache` (`{maxEntries, maxBytes}`, `null`: no cache).
    ///
    /// @throws {McpContextError} `ERR_CONFIG`.
    #[napi(constructor, catch_unwind, ts_args_type = "config?: ClientConfig")]
    pub fn new(env: Env, config: Option<Object<'_>>) -> Result<Self> {
        let config = config_from(&env, config)?;
        Client::new(config)
            .map(|inner| Self { inner, waker: None })
            .map_err(|e| errors::context_error(&env, e.to_string(), String::from("ERR_CONFIG")))
    }

    /// The output-ready signal: `callback` is called (on a later turn of the event loop, never
    /// inside a machine call) when an output is queued while the queue was empty, by any call
    /// (requests, `handleMessage`, `handleTimeout`, …). Drain `pollOutput()` until `null`
    /// then; the next output calls it again.
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

    /// Starts the negotiation now (calls also start it).
    #[napi(catch_unwind)]
    pub fn connect(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.connect(now);
        Ok(())
    }

    /// `server/discover`. Answer: a `discovered` event.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn discover(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
        options: Option<CallOptions>,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let p = policy(options.and_then(|o| o.refresh));
        Ok(call_id(self.inner.discover(p, now)))
    }

    /// `resources/list` (every page by default). Answer: a `resourcesListed` event.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn list_resources(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
        options: Option<ListOptions>,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let p = policy(options.as_ref().and_then(|o| o.refresh));
        Ok(call_id(self.inner.list_resources(
            list_mode(options.as_ref()),
            p,
            now,
        )))
    }

    /// `resources/templates/list`. Answer: a `templatesListed` event.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn list_resource_templates(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
        options: Option<ListOptions>,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let p = policy(options.as_ref().and_then(|o| o.refresh));
        Ok(call_id(self.inner.list_resource_templates(
            list_mode(options.as_ref()),
            p,
            now,
        )))
    }

    /// `prompts/list`. Answer: a `promptsListed` event.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn list_prompts(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
        options: Option<ListOptions>,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let p = policy(options.as_ref().and_then(|o| o.refresh));
        Ok(call_id(self.inner.list_prompts(
            list_mode(options.as_ref()),
            p,
            now,
        )))
    }

    /// `resources/read`. Answer: a `resourceRead` event (at once from a fresh cached result).
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn read_resource(
        &mut self,
        env: Env,
        uri: String,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
        options: Option<CallOptions>,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let p = policy(options.and_then(|o| o.refresh));
        Ok(call_id(self.inner.read_resource(&uri, p, now)))
    }

    /// A fresh cached `resources/read` result for `uri`, without a request, or `null`.
    #[napi(
        catch_unwind,
        ts_return_type = "{ result: Record<string, unknown>; fromCache: boolean } | null"
    )]
    pub fn read_cached<'e>(
        &mut self,
        env: &'e Env,
        uri: String,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<Either<Object<'e>, Null>> {
        let now = convert::time_in(env, &now_ms)?;
        match self.inner.read_cached(&uri, now) {
            Some(reply) => {
                let mut o = Object::new(env)?;
                reply_into(env, &mut o, &reply)?;
                Ok(Either::A(o))
            }
            None => Ok(Either::B(Null)),
        }
    }

    /// `prompts/get` with string `args`. Answer: a `promptFetched` event.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn get_prompt(
        &mut self,
        env: Env,
        name: String,
        #[napi(ts_arg_type = "Record<string, string> | null | undefined")] args: Option<Object<'_>>,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let pairs = string_pairs(&env, args, "arguments")?;
        let refs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        Ok(call_id(self.inner.get_prompt(&name, &refs, now)))
    }

    /// `completion/complete` of `argument` (`{name, value}`) for `ref`
    /// (`{type: 'ref/prompt', name}` or `{type: 'ref/resource', uri}`), with already
    /// resolved `context` arguments. Answer: a `completed` event.
    ///
    /// @throws {TypeError} a malformed `ref` or `argument`.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn complete(
        &mut self,
        env: Env,
        #[napi(
            ts_arg_type = "{ type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }"
        )]
        reference: Object<'_>,
        #[napi(ts_arg_type = "{ name: string; value: string }")] argument: Object<'_>,
        #[napi(ts_arg_type = "Record<string, string> | null | undefined")] context: Option<
            Object<'_>,
        >,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let bad = |what: &str| errors::type_error(&env, format!("complete(): {what}"));
        let kind = reference.get_named_property::<Option<String>>("type")?;
        let r = match kind.as_deref() {
            Some("ref/prompt") => CompletionRef::Prompt(
                reference
                    .get_named_property::<Option<String>>("name")?
                    .ok_or_else(|| bad("ref.name must be a string"))?,
            ),
            Some("ref/resource") => CompletionRef::Resource(
                reference
                    .get_named_property::<Option<String>>("uri")?
                    .ok_or_else(|| bad("ref.uri must be a string"))?,
            ),
            _ => return Err(bad("ref.type must be 'ref/prompt' or 'ref/resource'")),
        };
        let name = argument
            .get_named_property::<Option<String>>("name")?
            .ok_or_else(|| bad("argument.name must be a string"))?;
        let value = argument
            .get_named_property::<Option<String>>("value")?
            .ok_or_else(|| bad("argument.value must be a string"))?;
        let ctx = match context {
            Some(c) => Some(string_pairs(&env, Some(c), "context")?),
            None => None,
        };
        let ctx_refs: Option<Vec<(&str, &str)>> = ctx
            .as_ref()
            .map(|c| c.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect());
        Ok(call_id(self.inner.complete(
            r,
            (&name, &value),
            ctx_refs.as_deref(),
            now,
        )))
    }

    /// `subscriptions/listen` with `filter` (`{resourceSubscriptions?, resourcesListChanged?,
    /// promptsListChanged?, toolsListChanged?}`). Events: `acknowledged`, then `notified`,
    /// and `subscriptionEnded`.
    ///
    /// @throws {McpError} the filter breaks the schema.
    #[napi(catch_unwind, ts_return_type = "number | bigint")]
    pub fn listen(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "SubscriptionFilter")] filter: Unknown<'_>,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<Int> {
        let now = convert::time_in(&env, &now_ms)?;
        let f = decode::<OwnedSubscriptionFilter>(&env, filter, "filter")?;
        Ok(call_id(self.inner.listen(f, now)))
    }

    /// Gives up on `call` (stdio: `notifications/cancelled`; HTTP: a `closeStream` output).
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_CALL`.
    #[napi(catch_unwind)]
    pub fn cancel(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] call: Int,
        reason: Option<String>,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let c = convert::u64_in(&env, &call, "call")?;
        let now = convert::time_in(&env, &now_ms)?;
        self.inner
            .cancel(CallId(c), reason.as_deref(), now)
            .map_err(|e| client_error(&env, e))
    }

    /// Answers an `inputRequired` event: one response object per requested key
    /// (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`); the request is retried.
    ///
    /// @throws {McpContextError} `ERR_NOT_AWAITING_INPUT`, `ERR_MISSING_INPUT_RESPONSE`,
    /// `ERR_UNEXPECTED_INPUT_RESPONSE`, `ERR_INPUT_RESPONSE_NOT_OBJECT`, `ERR_UNKNOWN_CALL`.
    #[napi(catch_unwind)]
    pub fn respond_input(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] call: Int,
        #[napi(ts_arg_type = "Record<string, Record<string, unknown>>")] responses: Object<'_>,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let c = convert::u64_in(&env, &call, "call")?;
        let now = convert::time_in(&env, &now_ms)?;
        let mut out = Vec::new();
        for key in Object::keys(&responses)? {
            let v: Unknown<'_> = responses.get_named_property(&key)?;
            let text = convert::stringify(&env, v, "responses[key]")?;
            let json = OwnedJson::parse(text)
                .map_err(|e| errors::type_error(&env, format!("responses.{key}: {e}")))?;
            out.push((key, json));
        }
        self.inner
            .respond_input(CallId(c), out, now)
            .map_err(|e| client_error(&env, e))
    }

    /// Handles one message (a line on stdio, a JSON body or one SSE `data` on HTTP).
    #[napi(catch_unwind)]
    pub fn handle_message(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "Buffer | string")] message: Either<Buffer, String>,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        let bytes: &[u8] = match &message {
            Either::A(b) => b,
            Either::B(s) => s.as_bytes(),
        };
        self.inner.handle_message(bytes, now);
        Ok(())
    }

    /// Fails or retries what is overdue at `nowMs`.
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

    /// HTTP: the request with JSON-RPC `id` failed without a JSON-RPC answer (a 404 with an
    /// empty body, a network error).
    #[napi(catch_unwind)]
    pub fn handle_request_failed(
        &mut self,
        env: Env,
        id: i64,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.handle_request_failed(id, now);
        Ok(())
    }

    /// The transport closed: outstanding calls fail; subscriptions end (`unexpectedClose`).
    #[napi(catch_unwind)]
    pub fn handle_close(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.handle_close(now);
        Ok(())
    }

    /// Results cached as `private` from now on belong to `auth` (`null`: anonymous).
    #[napi(catch_unwind)]
    pub fn set_auth_context(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint | null")] auth: Option<Int>,
    ) -> Result<()> {
        let a = match auth {
            Some(a) => Some(AuthContext(convert::u64_in(&env, &a, "auth")?)),
            None => None,
        };
        self.inner.set_auth_context(a);
        Ok(())
    }

    /// The earliest deadline (ms) at which `handleTimeout` has work, or `null`.
    #[napi(catch_unwind, ts_return_type = "number | bigint | null")]
    pub fn poll_timeout(&self) -> Option<Int> {
        self.inner.poll_timeout().map(convert::u64_out)
    }

    /// Requests sent and not yet answered.
    #[napi(getter, catch_unwind)]
    pub fn outstanding(&self) -> u32 {
        u32::try_from(self.inner.outstanding()).unwrap_or(u32::MAX)
    }

    /// The negotiated session (`{era, version, features}`), or `null` before it.
    #[napi(
        getter,
        catch_unwind,
        ts_return_type = "{ era: 'modern' | 'legacy'; version: string; features: ServerFeatures } | null"
    )]
    pub fn session<'e>(&self, env: &'e Env) -> Result<Either<Object<'e>, Null>> {
        let Some(s) = self.inner.session() else {
            return Ok(Either::B(Null));
        };
        Ok(Either::A(session_object(env, s)?))
    }

    /// The next output, or `null`: `transmit` (send `bytes`; on HTTP with the headers
    /// `method`, `name`, `protocolVersion`), `closeStream` (HTTP: close the response stream
    /// of request `id`), or an event (see `ClientOutput`).
    #[napi(catch_unwind, ts_return_type = "ClientOutput | null")]
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
                o.set_named_property("bytes", Buffer::from(t.bytes))?;
                o.set_named_property("id", t.id.map(|i| i as f64))?;
                o.set_named_property("method", t.method.as_deref())?;
                o.set_named_property("name", t.name.as_deref())?;
                o.set_named_property("protocolVersion", t.protocol_version.as_deref())?;
            }
            Output::CloseStream { id } => {
                o.set_named_property("type", "closeStream")?;
                o.set_named_property("id", id as f64)?;
            }
            Output::Event(e) => event_into(env, &mut o, &e)?,
        }
        Ok(Either::A(o))
    }
}

fn session_object<'e>(env: &'e Env, s: &mcp_context::client::Session) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    o.set_named_property(
        "era",
        match s.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        },
    )?;
    o.set_named_property("version", s.version.as_str())?;
    let f = s.features;
    let mut fo = Object::new(env)?;
    fo.set_named_property("resources", f.resources)?;
    fo.set_named_property("resourcesSubscribe", f.resources_subscribe)?;
    fo.set_named_property("resourcesListChanged", f.resources_list_changed)?;
    fo.set_named_property("prompts", f.prompts)?;
    fo.set_named_property("promptsListChanged", f.prompts_list_changed)?;
    fo.set_named_property("toolsListChanged", f.tools_list_changed)?;
    fo.set_named_property("completions", f.completions)?;
    o.set_named_property("features", fo)?;
    Ok(o)
}

fn event_into(env: &Env, o: &mut Object<'_>, e: &Event) -> Result<()> {
    match e {
        Event::Connected(s) => {
            o.set_named_property("type", "connected")?;
            o.set_named_property("session", session_object(env, s)?)?;
            o.set_named_property("handshake", convert::parse_json(env, s.handshake.json())?)?;
        }
        Event::ConnectFailed(c) => {
            o.set_named_property("type", "connectFailed")?;
            o.set_named_property(
                "error",
                error_value(
                    env,
                    errors::context_error(env, c.to_string(), connect_code(c).to_string()),
                )?,
            )?;
        }
        Event::Discovered { call, reply } => {
            o.set_named_property("type", "discovered")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::ResourcesListed { call, listing } => {
            o.set_named_property("type", "resourcesListed")?;
            o.set_named_property("call", call_id(*call))?;
            listing_into(env, o, listing)?;
        }
        Event::TemplatesListed { call, listing } => {
            o.set_named_property("type", "templatesListed")?;
            o.set_named_property("call", call_id(*call))?;
            listing_into(env, o, listing)?;
        }
        Event::PromptsListed { call, listing } => {
            o.set_named_property("type", "promptsListed")?;
            o.set_named_property("call", call_id(*call))?;
            listing_into(env, o, listing)?;
        }
        Event::ResourceRead { call, reply } => {
            o.set_named_property("type", "resourceRead")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::PromptFetched { call, reply } => {
            o.set_named_property("type", "promptFetched")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::Completed { call, reply } => {
            o.set_named_property("type", "completed")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::InputRequired {
            call,
            round,
            requests,
        } => {
            o.set_named_property("type", "inputRequired")?;
            o.set_named_property("call", call_id(*call))?;
            o.set_named_property("round", u32::from(*round))?;
            let mut r = Object::new(env)?;
            for (key, req) in requests {
                let mut one = Object::new(env)?;
                one.set_named_property("method", req.method.as_str())?;
                if let Some(p) = &req.params {
                    one.set_named_property(
                        "params",
                        convert::parse_json(env, p.as_raw().as_text())?,
                    )?;
                }
                convert::set_own(env, &mut r, key, one)?;
            }
            o.set_named_property("requests", r)?;
        }
        Event::Failed { call, error } => {
            o.set_named_property("type", "failed")?;
            o.set_named_property("call", call_id(*call))?;
            o.set_named_property("error", call_error(env, error)?)?;
        }
        Event::Acknowledged {
            call,
            honoured,
            refused,
        } => {
            o.set_named_property("type", "acknowledged")?;
            o.set_named_property("call", call_id(*call))?;
            o.set_named_property("honoured", filter_object(env, honoured)?)?;
            o.set_named_property("refused", filter_object(env, refused)?)?;
        }
        Event::Notified {
            subscription,
            notice,
        } => {
            o.set_named_property("type", "notified")?;
            o.set_named_property("subscription", subscription.map(call_id))?;
            match notice {
                Notice::ResourceUpdated { uri } => {
                    o.set_named_property("notice", "resourceUpdated")?;
                    o.set_named_property("uri", uri.as_str())?;
                }
                other => o.set_named_property("notice", crate::ident::camel(other.ident()))?,
            }
        }
        Event::SubscriptionEnded { call, reason } => {
            o.set_named_property("type", "subscriptionEnded")?;
            o.set_named_property("call", call_id(*call))?;
            match reason {
                EndReason::Graceful => o.set_named_property("reason", "graceful")?,
                EndReason::CancelledByServer => {
                    o.set_named_property("reason", "cancelledByServer")?
                }
                EndReason::UnexpectedClose { filter } => {
                    o.set_named_property("reason", "unexpectedClose")?;
                    o.set_named_property("filter", filter_object(env, filter)?)?;
                }
            }
        }
        Event::UnknownResponse { id } => {
            o.set_named_property("type", "unknownResponse")?;
            o.set_named_property("id", crate::server::request_id(env, id)?)?;
        }
        Event::PeerError(p) => {
            o.set_named_property("type", "peerError")?;
            o.set_named_property(
                "error",
                error_value(
                    env,
                    errors::context_error(env, p.to_string(), String::from("ERR_PEER")),
                )?,
            )?;
        }
        other => o.set_named_property("type", crate::ident::camel(other.ident()))?,
    }
    Ok(())
}
