//! `ClientMachine`: the core's sans-IO client machine (`mcp_context::client::Client`) with JS
//! types.
//!
//! Conversions only. Calls return a call id (`number`, or `bigint` beyond 2^53); results
//! arrive as events carrying the result object (the validated JSON text the core holds,
//! parsed with `JSON.parse`) and `fromCache`. Errors in events are `Error` objects: an
//! `McpError` (JSON-RPC code, `data`) for a server's error, an `McpContextError` with a
//! `code` string otherwise.
//!
//! Layout: `client_config.rs` reads the inputs (call and list options; the configuration
//! through the shared adapter, which also builds the outputs: events, the errors they
//! carry, sessions); this file is the class.

use mcp_context::cache::AuthContext;
use mcp_context::client::{CallId, Client, ClientError, CompletionRef};
use mcp_context::messages::owned::{OwnedJson, OwnedSubscriptionFilter};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, Null, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::client_config::{
    CallOptions, ListOptions, config_from, list_mode, policy, string_pairs,
};
use mcp_context_node_adapter::Obj;
use mcp_context_node_adapter::client::{client_error as adapter_error, poll, reply_into, session};

use crate::adapt::{object, polled, throw};
use crate::convert::{self, Int, decode};
use crate::errors;

fn client_error(env: &Env, e: ClientError) -> napi::Error {
    throw(env, adapter_error(&e))
}

fn call_id(c: CallId) -> Int {
    convert::u64_out(c.0)
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
                let mut o = Obj::default();
                reply_into(&mut o, &reply);
                Ok(Either::A(object(env, o)?))
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

    /// Request `id` was answered under the authorization context `auth` (a 401 ran an
    /// authorization and it went again with the new token): call before feeding its answer,
    /// so its private result is cached for that context. No-op for an unknown id.
    #[napi(catch_unwind)]
    pub fn set_request_auth_context(
        &mut self,
        env: Env,
        id: i64,
        #[napi(ts_arg_type = "number | bigint | null")] auth: Option<Int>,
    ) -> Result<()> {
        let a = match auth {
            Some(a) => Some(AuthContext(convert::u64_in(&env, &a, "auth")?)),
            None => None,
        };
        self.inner.set_request_auth_context(id, a);
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
        Ok(Either::A(object(env, session(s))?))
    }

    /// The next output, or `null`: `transmit` (send `bytes`; on HTTP with the headers
    /// `method`, `name`, `protocolVersion`), `closeStream` (HTTP: close the response stream
    /// of request `id`), or an event (see `ClientOutput`).
    #[napi(catch_unwind, ts_return_type = "ClientOutput | null")]
    pub fn poll_output<'e>(&mut self, env: &'e Env) -> Result<Either<Object<'e>, Null>> {
        let Some(out) = poll(&mut self.inner) else {
            if let Some(w) = &self.waker {
                w.rearm();
            }
            return Ok(Either::B(Null));
        };
        Ok(Either::A(polled(env, out, "bytes")?))
    }
}
