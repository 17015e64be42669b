//! `WasmServer`: the core's sans-IO server machine (`docs/server-machine.md`) behind a
//! JSON-text boundary, over the shared adapter's `ServerAdapter`. The glue (`engine.mjs`)
//! gives it the same JS face as the napi addon's `ServerMachine`, so one JS layer
//! (`mcp-context-primitives/server`) runs on either engine.

use std::sync::Arc;

use mcp_context::server::StreamId;
use mcp_context_node_adapter::Js;
use mcp_context_node_adapter::config::{cache_hint, server_config, value_sets};
use mcp_context_node_adapter::server::{Head, Polled, ServerAdapter, context, failure};

use wasm_bindgen::prelude::*;

use crate::flag::Flag;
use crate::json::{batch, int, opt_value, output, thrown, value};

/// The server machine for the JS glue. Every method mirrors the addon's `ServerMachine`.
#[wasm_bindgen]
pub struct WasmServer {
    inner: ServerAdapter,
    bytes: Vec<u8>,
    woken: Arc<Flag>,
}

fn hint(text: Option<String>) -> Result<Option<mcp_context::server::CacheHint>, JsValue> {
    cache_hint(opt_value(text.as_deref(), "cache")?.as_ref(), "cache").map_err(thrown)
}

fn sets(text: Option<String>) -> Result<Vec<(String, Vec<String>)>, JsValue> {
    value_sets(opt_value(text.as_deref(), "completions")?.as_ref()).map_err(thrown)
}

fn head(text: &str) -> Result<Head, JsValue> {
    Head::read(&value(text, "head")?).map_err(thrown)
}

impl WasmServer {
    pub(crate) fn inner_mut(&mut self) -> &mut ServerAdapter {
        &mut self.inner
    }

    pub(crate) const fn inner_ref(&self) -> &ServerAdapter {
        &self.inner
    }

    /// An input call's answer (`json::batch`): with `drain`, every output it queued and the
    /// next deadline ride along, and the output-ready flag is lowered (nothing to signal).
    pub(crate) fn done(&mut self, value: Js, bytes: Option<Vec<u8>>, drain: bool) -> String {
        let drained = drain.then(|| {
            let outputs = self.inner.drain();
            self.woken.take();
            (outputs, self.inner.machine_ref().poll_timeout())
        });
        batch(value, bytes, drained, &mut self.bytes)
    }

    /// A call that returns nothing: a failed one throws and drains nothing (its outputs
    /// wait for `pollOutput`, signalled as usual).
    pub(crate) fn done_unit(
        &mut self,
        r: mcp_context_node_adapter::Result<()>,
        drain: bool,
    ) -> Result<String, JsValue> {
        r.map_err(thrown)?;
        Ok(self.done(Js::Null, None, drain))
    }

    pub(crate) fn done_polled(&mut self, p: Polled, drain: bool) -> String {
        self.done(Js::Obj(p.shape), p.bytes, drain)
    }
}

#[wasm_bindgen]
impl WasmServer {
    /// A machine from a JSON configuration (the addon's `ServerConfig` keys).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<WasmServer, JsValue> {
        let config = server_config(Some(&value(config, "config")?)).map_err(thrown)?;
        let mut inner = ServerAdapter::new(config).map_err(thrown)?;
        let (woken, waker) = Flag::install();
        inner.machine().set_waker(waker);
        Ok(Self {
            inner,
            bytes: Vec::new(),
            woken,
        })
    }

    /// Whether an output was queued on an empty queue since the last call (and clears it).
    #[wasm_bindgen(js_name = takeWoken)]
    pub fn take_woken(&mut self) -> bool {
        self.woken.take()
    }

    /// The value of a limit by its option name (`pageSize`, `maxLine`, …); `undefined`
    /// for a name that is not a limit.
    pub fn limit(&self, name: &str) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)] // limits are far below 2^53
        self.inner.limit(name).map(|v| v as f64)
    }

    /// Whether an output is queued.
    #[wasm_bindgen(getter, js_name = hasOutput)]
    pub fn has_output(&self) -> bool {
        self.inner.machine_ref().has_output()
    }

    /// Registers a static resource (JSON texts).
    #[wasm_bindgen(js_name = addResource)]
    pub fn add_resource(
        &mut self,
        resource: &str,
        contents: Option<String>,
        cache: Option<String>,
    ) -> Result<(), JsValue> {
        let cache = hint(cache)?;
        self.inner
            .add_resource(resource, contents.as_deref(), cache)
            .map_err(thrown)
    }

    /// Registers a resource template with optional cache hints and value sets.
    #[wasm_bindgen(js_name = addTemplate)]
    pub fn add_template(
        &mut self,
        template: &str,
        cache: Option<String>,
        completions: Option<String>,
    ) -> Result<(), JsValue> {
        let (cache, completions) = (hint(cache)?, sets(completions)?);
        self.inner
            .add_template(template, cache, completions)
            .map_err(thrown)
    }

    /// Registers a prompt with optional value sets per argument.
    #[wasm_bindgen(js_name = addPrompt)]
    pub fn add_prompt(&mut self, prompt: &str, completions: Option<String>) -> Result<(), JsValue> {
        let completions = sets(completions)?;
        self.inner.add_prompt(prompt, completions).map_err(thrown)
    }

    /// Removes a resource; whether it was registered.
    #[wasm_bindgen(js_name = removeResource)]
    pub fn remove_resource(&mut self, uri: &str) -> bool {
        self.inner.machine().remove_resource(uri)
    }

    /// Removes a template; whether it was registered.
    #[wasm_bindgen(js_name = removeTemplate)]
    pub fn remove_template(&mut self, uri_template: &str) -> bool {
        self.inner.machine().remove_template(uri_template)
    }

    /// Removes a prompt; whether it was registered.
    #[wasm_bindgen(js_name = removePrompt)]
    pub fn remove_prompt(&mut self, name: &str) -> bool {
        self.inner.machine().remove_prompt(name)
    }

    /// Replaces a registered resource's stored contents (JSON text; `undefined`: ask the
    /// application); whether it is registered.
    #[wasm_bindgen(js_name = setResourceContents)]
    pub fn set_resource_contents(
        &mut self,
        uri: &str,
        contents: Option<String>,
    ) -> Result<bool, JsValue> {
        self.inner
            .set_resource_contents(uri, contents.as_deref())
            .map_err(thrown)
    }

    /// Turns the application's own `resources/list` pages on or off.
    #[wasm_bindgen(js_name = setDynamicResources)]
    pub fn set_dynamic_resources(&mut self, on: bool) {
        self.inner.machine().set_dynamic_resources(on);
    }

    /// Handles one message: `{value}` is `request`, `notification`, `response` or `invalid`
    /// (`json::batch`; with `drain` the outputs ride along).
    #[wasm_bindgen(js_name = handleMessage)]
    pub fn handle_message(
        &mut self,
        message: &[u8],
        now_ms: f64,
        stream: f64,
        auth: f64,
        http: bool,
        drain: bool,
    ) -> Result<String, JsValue> {
        let transport = if http { "http" } else { "stdio" };
        let ctx = context(int(stream), int(auth), Some(transport), None).map_err(thrown)?;
        let kind = self.inner.handle_message(message, int(now_ms), ctx);
        Ok(self.done(Js::from(kind), None, drain))
    }

    /// Bytes read from a stdio stream: split into bounded lines by the core, each handled
    /// (an over-long one answered -32600 and skipped); `end`: the input ended.
    #[wasm_bindgen(js_name = handleStdio)]
    pub fn handle_stdio(
        &mut self,
        bytes: &[u8],
        end: bool,
        now_ms: f64,
        stream: f64,
        auth: f64,
        drain: bool,
    ) -> Result<String, JsValue> {
        let ctx = context(int(stream), int(auth), None, None).map_err(thrown)?;
        self.inner.handle_stdio(bytes, end, int(now_ms), ctx);
        Ok(self.done(Js::Null, None, drain))
    }

    /// The next output as JSON text, or `undefined`; a transmit's bytes lie in linear memory
    /// at `ptr` + `at` until the next call.
    #[wasm_bindgen(js_name = pollOutput)]
    pub fn poll_output(&mut self) -> Option<String> {
        let p = self.inner.poll()?;
        Some(output(p, &mut self.bytes))
    }

    /// Registers a tool (JSON text) in the core's registry.
    #[wasm_bindgen(js_name = addTool)]
    pub fn add_tool(&mut self, tool: &str) -> Result<(), JsValue> {
        self.inner.add_tool(tool).map_err(thrown)
    }

    /// Removes a tool; whether it was registered.
    #[wasm_bindgen(js_name = removeTool)]
    pub fn remove_tool(&mut self, name: &str) -> bool {
        self.inner.machine().remove_tool(name)
    }

    /// Queues `notifications/tools/list_changed`.
    #[wasm_bindgen(js_name = toolsListChanged)]
    pub fn tools_list_changed(&mut self) {
        self.inner.machine().tools_list_changed();
    }

    /// Answers a `callTool` event with a `CallToolResult` (JSON text).
    #[wasm_bindgen(js_name = respondTool)]
    pub fn respond_tool(
        &mut self,
        handle: f64,
        result: &str,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self.inner.respond_tool(int(handle), result);
        self.done_unit(r, drain)
    }

    /// Answers a `callTool` event whose tool failed (`isError: true`, `message`).
    #[wasm_bindgen(js_name = respondToolError)]
    pub fn respond_tool_error(
        &mut self,
        handle: f64,
        message: &str,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self.inner.respond_tool_error(int(handle), message);
        self.done_unit(r, drain)
    }

    /// Serves an extension method (`tools/list`, `tools/call`, vendor methods).
    #[wasm_bindgen(js_name = addMethod)]
    pub fn add_method(&mut self, method: &str) -> Result<(), JsValue> {
        self.inner.add_method(method).map_err(thrown)
    }

    /// Stops serving `method`; whether it was served.
    #[wasm_bindgen(js_name = removeMethod)]
    pub fn remove_method(&mut self, method: &str) -> bool {
        self.inner.machine().remove_method(method)
    }

    /// Announces `key: value` (JSON text of an object) in `server/discover`.
    #[wasm_bindgen(js_name = setCapability)]
    pub fn set_capability(&mut self, key: &str, value: &str) -> Result<(), JsValue> {
        self.inner.set_capability(key, value).map_err(thrown)
    }

    /// Withdraws a capability; whether one was set.
    #[wasm_bindgen(js_name = removeCapability)]
    pub fn remove_capability(&mut self, key: &str) -> bool {
        self.inner.machine().remove_capability(key)
    }

    /// Answers a `request` event with a result object (JSON text) and optional cache hints.
    #[wasm_bindgen(js_name = respondResult)]
    pub fn respond_result(
        &mut self,
        handle: f64,
        result: &str,
        cache: Option<String>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let cache = hint(cache)?;
        let r = self.inner.respond_result(int(handle), result, cache);
        self.done_unit(r, drain)
    }

    /// `notifications/progress` for an event's request; `false` when it carried no token.
    pub fn progress(
        &mut self,
        handle: f64,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let sent = self
            .inner
            .progress(int(handle), progress, total, message.as_deref())
            .map_err(thrown)?;
        Ok(self.done(Js::Bool(sent), None, drain))
    }

    /// `notifications/message` (`data` as JSON text) for an event's request when the request
    /// admits `level`; `false` (nothing sent) when it does not.
    #[wasm_bindgen(js_name = logFor)]
    pub fn log_for(
        &mut self,
        handle: f64,
        level: &str,
        logger: Option<String>,
        data: &str,
    ) -> Result<bool, JsValue> {
        self.inner
            .log_for(int(handle), level, logger.as_deref(), data)
            .map_err(thrown)
    }

    /// `notifications/message` to every 2025-11-25 connection and session event stream
    /// whose level admits `level`; how many.
    pub fn log(&mut self, level: &str, logger: Option<String>, data: &str) -> Result<u32, JsValue> {
        self.inner
            .log(level, logger.as_deref(), data)
            .map_err(thrown)
    }

    /// The head-only HTTP checks (`head` as JSON text): `{"readBody":true,"limit":n}`, or a
    /// response `{"status","headers"}` whose body lies at `ptr` + `at`.
    #[wasm_bindgen(js_name = httpHead)]
    pub fn http_head(&mut self, head_text: &str) -> Result<String, JsValue> {
        let h = head(head_text)?;
        let p = self.inner.http_head(&h);
        Ok(output(p, &mut self.bytes))
    }

    /// One HTTP request with its body: `{value}` is `{"stream": n}` (the answer comes as
    /// transmits), or a complete response `{"status","headers"}` whose body lies at `ptr` +
    /// `at`. The head's `peer`: the client's IP address, for the per-peer bound on
    /// 2025-11-25 sessions (text that is not an IP address: no bound); its `scopes`: the
    /// verified caller's scope bits as decimal text (`httpAdmit`).
    #[wasm_bindgen(js_name = handleHttp)]
    pub fn handle_http(
        &mut self,
        head_text: &str,
        body: &[u8],
        now_ms: f64,
        stream: f64,
        auth: f64,
        drain: bool,
    ) -> Result<String, JsValue> {
        let v = value(head_text, "head")?;
        let h = Head::read(&v).map_err(thrown)?;
        let peer = v.get("peer").and_then(serde_json::Value::as_str);
        let mut ctx = context(int(stream), int(auth), Some("http"), peer).map_err(thrown)?;
        ctx.scopes = v
            .get("scopes")
            .and_then(serde_json::Value::as_str)
            .and_then(|t| t.parse().ok())
            .map(mcp_context::auth::resource_server::ScopeSet);
        let p = self.inner.handle_http(&h, body, int(now_ms), ctx);
        Ok(self.done_polled(p, drain))
    }

    /// Sets (JSON text, the addon's `ResourceProtection`) or with `None` removes the
    /// endpoint's protection.
    #[wasm_bindgen(js_name = setProtection)]
    pub fn set_protection(&mut self, protection: Option<String>) -> Result<(), JsValue> {
        let p = match opt_value(protection.as_deref(), "protection")? {
            Some(v) => Some(mcp_context_node_adapter::protect::protection(&v).map_err(thrown)?),
            None => None,
        };
        self.inner.set_protection(p).map_err(thrown)
    }

    /// Requires `scopes` of every caller of the item `kind`/`key`.
    #[wasm_bindgen(js_name = requireScopes)]
    pub fn require_scopes(
        &mut self,
        kind: &str,
        key: &str,
        scopes: Vec<String>,
    ) -> Result<(), JsValue> {
        self.inner
            .require_scopes(kind, key, &scopes)
            .map_err(thrown)
    }

    /// The protected endpoint's door (`head` as JSON text): `{"proceed":true}`,
    /// `{"token"}`, or a response whose body lies at `ptr` + `at`.
    #[wasm_bindgen(js_name = httpAuthenticate)]
    pub fn http_authenticate(&mut self, head_text: &str) -> Result<String, JsValue> {
        let h = head(head_text)?;
        let p = self.inner.http_authenticate(&h);
        Ok(output(p, &mut self.bytes))
    }

    /// The core's checks on a verified caller (JSON text, the addon's `VerifiedCaller`):
    /// `{"scopes"}` or a 401/403 response whose body lies at `ptr` + `at`.
    #[wasm_bindgen(js_name = httpAdmit)]
    pub fn http_admit(&mut self, caller: &str, now_ms: f64) -> Result<String, JsValue> {
        let c =
            mcp_context_node_adapter::protect::caller(&value(caller, "caller")?).map_err(thrown)?;
        let p = self.inner.http_admit(&c, int(now_ms));
        Ok(output(p, &mut self.bytes))
    }

    /// The 401 `invalid_token` response for a refused token, its body at `ptr` + `at`.
    #[wasm_bindgen(js_name = httpReject)]
    pub fn http_reject(&mut self, why: &str) -> String {
        let p = self.inner.http_reject(why);
        output(p, &mut self.bytes)
    }

    /// Answers a read with contents (JSON text) and optional cache hints.
    #[wasm_bindgen(js_name = respondRead)]
    pub fn respond_read(
        &mut self,
        handle: f64,
        contents: &str,
        cache: Option<String>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let cache = hint(cache)?;
        let r = self.inner.respond_read(int(handle), contents, cache);
        self.done_unit(r, drain)
    }

    /// Answers a `listResources` event with one page of resources (JSON text) and the
    /// application's cursor for the next page.
    #[wasm_bindgen(js_name = respondList)]
    pub fn respond_list(
        &mut self,
        handle: f64,
        resources: &str,
        next_cursor: Option<String>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self.inner.respond_list(int(handle), resources, next_cursor);
        self.done_unit(r, drain)
    }

    /// Answers a prompt with a `GetPromptResult` (JSON text).
    #[wasm_bindgen(js_name = respondPrompt)]
    pub fn respond_prompt(
        &mut self,
        handle: f64,
        result: &str,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self.inner.respond_prompt(int(handle), result);
        self.done_unit(r, drain)
    }

    /// Answers a completion with candidate values.
    #[wasm_bindgen(js_name = respondCompletion)]
    pub fn respond_completion(
        &mut self,
        handle: f64,
        values: Vec<String>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self.inner.respond_completion(int(handle), values);
        self.done_unit(r, drain)
    }

    /// Answers with `input_required` (requests as JSON text, optional state bytes).
    #[wasm_bindgen(js_name = respondInputRequired)]
    pub fn respond_input_required(
        &mut self,
        handle: f64,
        requests: &str,
        state: Option<Vec<u8>>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self
            .inner
            .respond_input_required(int(handle), requests, state);
        self.done_unit(r, drain)
    }

    /// Fails a request: `kind` is `notFound`, `invalidParams`, `internal` or `application`.
    pub fn fail(
        &mut self,
        handle: f64,
        kind: &str,
        message: Option<String>,
        code: Option<i32>,
        drain: bool,
    ) -> Result<String, JsValue> {
        let f = failure(kind, message, code).map_err(thrown)?;
        let r = self.inner.fail(int(handle), f);
        self.done_unit(r, drain)
    }

    /// The earliest deadline (ms) at which `handleTimeout` has work.
    #[wasm_bindgen(js_name = pollTimeout)]
    #[allow(clippy::cast_precision_loss)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.machine_ref().poll_timeout().map(|t| t as f64)
    }

    /// Fails every request past its deadline.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now_ms: f64) {
        self.inner.machine().handle_timeout(int(now_ms));
    }

    /// The transport closed `stream`.
    #[wasm_bindgen(js_name = streamClosed)]
    pub fn stream_closed(&mut self, stream: f64) {
        self.inner.machine().stream_closed(StreamId(int(stream)));
    }

    /// Queues `notifications/resources/updated` for `uri`.
    #[wasm_bindgen(js_name = resourceUpdated)]
    pub fn resource_updated(&mut self, uri: &str) {
        self.inner.machine().resource_updated(uri);
    }

    /// Queues `notifications/resources/list_changed`.
    #[wasm_bindgen(js_name = resourcesListChanged)]
    pub fn resources_list_changed(&mut self) {
        self.inner.machine().resources_list_changed();
    }

    /// Queues `notifications/prompts/list_changed`.
    #[wasm_bindgen(js_name = promptsListChanged)]
    pub fn prompts_list_changed(&mut self) {
        self.inner.machine().prompts_list_changed();
    }

    /// Graceful close: every subscription gets its final result.
    pub fn shutdown(&mut self) {
        self.inner.machine().shutdown();
    }

    /// Requests waiting for the application.
    #[wasm_bindgen(getter, js_name = pendingRequests)]
    pub fn pending_requests(&self) -> u32 {
        u32::try_from(self.inner.machine_ref().pending_requests()).unwrap_or(u32::MAX)
    }

    /// Open `subscriptions/listen` streams.
    #[wasm_bindgen(getter)]
    pub fn subscriptions(&self) -> u32 {
        u32::try_from(self.inner.machine_ref().subscriptions()).unwrap_or(u32::MAX)
    }
}
