//! `WasmServer`: the core's sans-IO server machine (`docs/server-machine.md`) behind a
//! JSON-text boundary. The glue (`engine.mjs`) gives it the same JS face as the napi addon's
//! `ServerMachine`, so one JS layer (`mcp-context/server`) runs on either engine.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_context::http::{HeadCheck, HttpResponse, HttpStart};
use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedInputRequest, OwnedJson, OwnedPrompt, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    BodyKind, CancelReason, CompletionTarget, Ctx, DeclaredCapabilities, Event, Handle,
    InputRequired, Output, PromptEntry, ReadTarget, Received, RegisterError, ResourceEntry,
    RespondError, Retry, Server, StreamId, TemplateEntry, Transport,
};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

use crate::flag::Flag;
use crate::json::{context_error, decode, int, pairs};
use crate::server_config::{Head, config_from, hint, value_sets};
use crate::spell::{err_code, failure};

fn register_error(what: &str, e: &RegisterError) -> JsValue {
    context_error(&err_code(e.ident()), format!("{what}: {e}"))
}

fn log_level(level: &str) -> Result<mcp_context::messages::LoggingLevel, JsValue> {
    mcp_context::messages::LoggingLevel::from_name(level)
        .ok_or_else(|| crate::json::type_error(format!("level: unknown log level {level:?}")))
}

fn respond_error(e: RespondError) -> JsValue {
    context_error(&err_code(e.ident()), e.to_string())
}

fn capabilities(c: DeclaredCapabilities) -> Value {
    json!({
        "elicitationForm": c.elicitation_form,
        "elicitationUrl": c.elicitation_url,
        "sampling": c.sampling,
        "roots": c.roots,
    })
}

fn retry(r: Option<&Retry>) -> Value {
    let Some(r) = r else { return Value::Null };
    let mut responses = serde_json::Map::new();
    for (k, v) in &r.input_responses {
        // The client's JSON, parsed by serde (exact for every value the spec defines).
        let parsed = serde_json::from_str(v.as_raw().as_text()).unwrap_or(Value::Null);
        responses.insert(k.clone(), parsed);
    }
    json!({ "state": r.state, "inputResponses": responses })
}

/// The server machine for the JS glue. Every method mirrors the addon's `ServerMachine`.
#[wasm_bindgen]
pub struct WasmServer {
    inner: Server,
    handles: HashMap<u64, Handle>,
    bytes: Vec<u8>,
    woken: Arc<Flag>,
}

#[wasm_bindgen]
impl WasmServer {
    /// A machine from a JSON configuration (the addon's `ServerConfig` keys).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<WasmServer, JsValue> {
        let mut inner = Server::new(config_from(config)?)
            .map_err(|e| context_error("ERR_CONFIG", e.to_string()))?;
        let (woken, waker) = Flag::install();
        inner.set_waker(waker);
        Ok(Self {
            inner,
            handles: HashMap::new(),
            bytes: Vec::new(),
            woken,
        })
    }

    /// Whether an output was queued on an empty queue since the last call (and clears it).
    #[wasm_bindgen(js_name = takeWoken)]
    pub fn take_woken(&mut self) -> bool {
        self.woken.take()
    }

    /// Whether an output is queued.
    #[wasm_bindgen(getter, js_name = hasOutput)]
    pub fn has_output(&self) -> bool {
        self.inner.has_output()
    }

    /// Registers a static resource (JSON texts).
    #[wasm_bindgen(js_name = addResource)]
    pub fn add_resource(
        &mut self,
        resource: &str,
        contents: Option<String>,
        cache: Option<String>,
    ) -> Result<(), JsValue> {
        let resource = decode::<OwnedResource>(resource, "resource")?;
        let contents = contents
            .map(|c| decode::<Vec<OwnedResourceContents>>(&c, "contents"))
            .transpose()?;
        let cache = hint(cache, "cache")?;
        self.inner
            .add_resource(ResourceEntry {
                resource,
                contents,
                cache,
            })
            .map_err(|e| register_error("addResource", &e))
    }

    /// Registers a resource template with optional cache hints and value sets.
    #[wasm_bindgen(js_name = addTemplate)]
    pub fn add_template(
        &mut self,
        template: &str,
        cache: Option<String>,
        completions: Option<String>,
    ) -> Result<(), JsValue> {
        let template = decode::<OwnedResourceTemplate>(template, "template")?;
        let cache = hint(cache, "cache")?;
        let completions = value_sets(completions)?;
        self.inner
            .add_template(TemplateEntry {
                template,
                cache,
                completions,
            })
            .map(|_| ())
            .map_err(|e| register_error("addTemplate", &e))
    }

    /// Registers a prompt with optional value sets per argument.
    #[wasm_bindgen(js_name = addPrompt)]
    pub fn add_prompt(&mut self, prompt: &str, completions: Option<String>) -> Result<(), JsValue> {
        let prompt = decode::<OwnedPrompt>(prompt, "prompt")?;
        let completions = value_sets(completions)?;
        self.inner
            .add_prompt(PromptEntry {
                prompt,
                completions,
            })
            .map_err(|e| register_error("addPrompt", &e))
    }

    /// Removes a resource; whether it was registered.
    #[wasm_bindgen(js_name = removeResource)]
    pub fn remove_resource(&mut self, uri: &str) -> bool {
        self.inner.remove_resource(uri)
    }

    /// Removes a template; whether it was registered.
    #[wasm_bindgen(js_name = removeTemplate)]
    pub fn remove_template(&mut self, uri_template: &str) -> bool {
        self.inner.remove_template(uri_template)
    }

    /// Removes a prompt; whether it was registered.
    #[wasm_bindgen(js_name = removePrompt)]
    pub fn remove_prompt(&mut self, name: &str) -> bool {
        self.inner.remove_prompt(name)
    }

    /// Replaces a registered resource's stored contents (JSON text; `undefined`: ask the
    /// application); whether it is registered.
    #[wasm_bindgen(js_name = setResourceContents)]
    pub fn set_resource_contents(
        &mut self,
        uri: &str,
        contents: Option<String>,
    ) -> Result<bool, JsValue> {
        let contents = contents
            .map(|c| decode::<Vec<OwnedResourceContents>>(&c, "contents"))
            .transpose()?;
        Ok(self.inner.set_resource_contents(uri, contents))
    }

    /// Turns the application's own `resources/list` pages on or off.
    #[wasm_bindgen(js_name = setDynamicResources)]
    pub fn set_dynamic_resources(&mut self, on: bool) {
        self.inner.set_dynamic_resources(on);
    }

    /// Handles one message; returns `request`, `notification`, `response` or `invalid`.
    #[wasm_bindgen(js_name = handleMessage)]
    pub fn handle_message(
        &mut self,
        message: &[u8],
        now_ms: f64,
        stream: f64,
        auth: f64,
        http: bool,
    ) -> String {
        let ctx = Ctx {
            stream: StreamId(int(stream)),
            auth: int(auth),
            transport: if http {
                Transport::Http
            } else {
                Transport::Stdio
            },
            peer: None,
        };
        String::from(match self.inner.handle_message(message, int(now_ms), ctx) {
            Received::Request => "request",
            Received::Notification => "notification",
            Received::Response => "response",
            _ => "invalid",
        })
    }

    /// The next output as JSON text, or `undefined`. A transmit's bytes are then taken with
    /// `takeBytes()`.
    #[wasm_bindgen(js_name = pollOutput)]
    pub fn poll_output(&mut self) -> Option<String> {
        let out = self.inner.poll_output()?;
        let v = match out {
            Output::Transmit(t) => {
                let headers: Vec<[&str; 2]> =
                    t.http_headers().iter().map(|(k, v)| [*k, *v]).collect();
                self.bytes = t.bytes;
                json!({
                    "type": "transmit",
                    "stream": t.stream.0,
                    "httpStatus": t.http_status,
                    "kind": match t.kind { BodyKind::Json => "json", BodyKind::Sse => "sse" },
                    "endOfStream": t.end_of_stream,
                    "headers": headers,
                })
            }
            Output::Event(e) => {
                let (v, params) = self.event(e);
                if let Some(params) = params {
                    // The params go in as received (exact numbers): spliced in as JSON text.
                    let text = v.to_string();
                    return Some(format!(
                        "{{\"params\":{},{}",
                        params.as_raw().as_text(),
                        &text[1..]
                    ));
                }
                v
            }
        };
        Some(v.to_string())
    }

    /// The bytes of the transmit `pollOutput` last returned.
    #[wasm_bindgen(js_name = takeBytes)]
    pub fn take_bytes(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.bytes)
    }

    fn event(&mut self, event: Event) -> (Value, Option<OwnedJson>) {
        let v = match event {
            Event::ReadResource(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                let mut v = json!({
                    "type": "readResource", "handle": e.handle.get(), "uri": e.uri,
                    "auth": e.auth, "capabilities": capabilities(e.capabilities),
                    "retry": retry(e.retry.as_ref()),
                });
                match &e.target {
                    ReadTarget::Template { id, variables } => {
                        v["target"] = "template".into();
                        v["template"] = self.inner.template(*id).map_or(Value::Null, Value::from);
                        v["variables"] = pairs(variables);
                    }
                    ReadTarget::Resource => v["target"] = "resource".into(),
                    _ => v["target"] = "unlisted".into(),
                }
                v
            }
            Event::GetPrompt(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                json!({
                    "type": "getPrompt", "handle": e.handle.get(), "name": e.name,
                    "arguments": pairs(&e.arguments), "auth": e.auth,
                    "capabilities": capabilities(e.capabilities), "retry": retry(e.retry.as_ref()),
                })
            }
            Event::Complete(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                let r = match &e.target {
                    CompletionTarget::Prompt(name) => json!({ "type": "ref/prompt", "name": name }),
                    CompletionTarget::Template(id) => {
                        json!({ "type": "ref/resource", "uri": self.inner.template(*id) })
                    }
                };
                json!({
                    "type": "complete", "handle": e.handle.get(), "ref": r, "argument": e.argument,
                    "value": e.value, "context": pairs(&e.context), "auth": e.auth,
                })
            }
            Event::Request(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                let v = json!({
                    "type": "request", "handle": e.handle.get(), "method": e.method,
                    "progress": e.progress, "auth": e.auth,
                    "capabilities": capabilities(e.capabilities), "retry": retry(e.retry.as_ref()),
                });
                return (v, Some(e.params));
            }
            Event::ListResources(e) => {
                self.handles.insert(e.handle.get(), e.handle);
                json!({
                    "type": "listResources", "handle": e.handle.get(), "cursor": e.cursor,
                    "progress": e.progress, "auth": e.auth,
                })
            }
            Event::Cancelled { handle, reason } => {
                self.handles.remove(&handle.get());
                let reason = match reason {
                    CancelReason::Client => "client",
                    CancelReason::StreamClosed => "streamClosed",
                    _ => "timedOut",
                };
                json!({ "type": "cancelled", "handle": handle.get(), "reason": reason })
            }
            Event::StreamOverflow { stream, .. } => {
                json!({ "type": "streamOverflow", "stream": stream.0 })
            }
            _ => json!({ "type": "unknown" }),
        };
        (v, None)
    }

    fn handle(&self, handle: f64) -> Result<Handle, JsValue> {
        self.handles
            .get(&int(handle))
            .copied()
            .ok_or_else(|| respond_error(RespondError::UnknownHandle))
    }

    fn answered(&mut self, h: Handle, r: Result<(), RespondError>) -> Result<(), JsValue> {
        match r {
            Ok(()) | Err(RespondError::ClientLacksCapability) => {
                self.handles.remove(&h.get());
                r.map_err(respond_error)
            }
            Err(e) => Err(respond_error(e)),
        }
    }

    /// Serves an extension method (`tools/list`, `tools/call`, vendor methods).
    #[wasm_bindgen(js_name = addMethod)]
    pub fn add_method(&mut self, method: &str) -> Result<(), JsValue> {
        self.inner
            .add_method(method)
            .map_err(|e| register_error("addMethod", &e))
    }

    /// Stops serving `method`; whether it was served.
    #[wasm_bindgen(js_name = removeMethod)]
    pub fn remove_method(&mut self, method: &str) -> bool {
        self.inner.remove_method(method)
    }

    /// Announces `key: value` (JSON text of an object) in `server/discover`.
    #[wasm_bindgen(js_name = setCapability)]
    pub fn set_capability(&mut self, key: &str, value: &str) -> Result<(), JsValue> {
        let value = decode::<OwnedJson>(value, "value")?;
        self.inner
            .set_capability(key, value)
            .map_err(|e| register_error("setCapability", &e))
    }

    /// Withdraws a capability; whether one was set.
    #[wasm_bindgen(js_name = removeCapability)]
    pub fn remove_capability(&mut self, key: &str) -> bool {
        self.inner.remove_capability(key)
    }

    /// Answers a `request` event with a result object (JSON text) and optional cache hints.
    #[wasm_bindgen(js_name = respondResult)]
    pub fn respond_result(
        &mut self,
        handle: f64,
        result: &str,
        cache: Option<String>,
    ) -> Result<(), JsValue> {
        let h = self.handle(handle)?;
        let result = decode::<OwnedJson>(result, "result")?;
        let r = self.inner.respond_result(h, result, hint(cache, "cache")?);
        self.answered(h, r)
    }

    /// `notifications/progress` for an event's request; `false` when it carried no token.
    pub fn progress(
        &mut self,
        handle: f64,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Result<bool, JsValue> {
        let h = self.handle(handle)?;
        self.inner
            .progress(h, progress, total, message.as_deref())
            .map_err(respond_error)
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
        let h = self.handle(handle)?;
        let level = log_level(level)?;
        let data = decode::<OwnedJson>(data, "data")?;
        self.inner
            .log_for(h, level, logger.as_deref(), &data)
            .map_err(respond_error)
    }

    /// `notifications/message` to every 2025-11-25 connection and session event stream
    /// whose level admits `level`; how many.
    pub fn log(&mut self, level: &str, logger: Option<String>, data: &str) -> Result<u32, JsValue> {
        let level = log_level(level)?;
        let data = decode::<OwnedJson>(data, "data")?;
        let n = self.inner.log(level, logger.as_deref(), &data);
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// The head-only HTTP checks (`head` as JSON text): `{"readBody":true,"limit":n}`, or a
    /// response `{"status","headers"}` whose body is then taken with `takeBytes()`.
    #[wasm_bindgen(js_name = httpHead)]
    pub fn http_head(&mut self, head: &str) -> Result<String, JsValue> {
        let head = Head::parse(head)?;
        match self.inner.http_head(&head.view()) {
            HeadCheck::ReadBody { limit } => {
                Ok(json!({ "readBody": true, "limit": limit }).to_string())
            }
            HeadCheck::Respond(r) => Ok(self.response(r)),
        }
    }

    /// One HTTP request with its body: `{"stream": n}` (the answer comes as transmits), or a
    /// complete response `{"status","headers"}` whose body is taken with `takeBytes()`.
    /// `peer`: the client's IP address, for the per-peer bound on 2025-11-25 sessions (text
    /// that is not an IP address: no bound).
    #[wasm_bindgen(js_name = handleHttp)]
    pub fn handle_http(
        &mut self,
        head: &str,
        body: &[u8],
        now_ms: f64,
        stream: f64,
        auth: f64,
        peer: Option<String>,
    ) -> Result<String, JsValue> {
        let head = Head::parse(head)?;
        let ctx = Ctx {
            stream: StreamId(int(stream)),
            auth: int(auth),
            transport: Transport::Http,
            peer: peer.and_then(|p| p.parse().ok()),
        };
        match self.inner.handle_http(&head.view(), body, int(now_ms), ctx) {
            HttpStart::Respond(r) => Ok(self.response(r)),
            HttpStart::Stream(s) => Ok(json!({ "stream": s.0 }).to_string()),
            HttpStart::EventStream { stream, response } => {
                self.bytes = Vec::new();
                let headers: Vec<[&str; 2]> = response
                    .headers
                    .iter()
                    .map(|(k, v)| [*k, v.as_str()])
                    .collect();
                Ok(json!({ "stream": stream.0, "eventStream": true, "status": response.status, "headers": headers }).to_string())
            }
        }
    }

    fn response(&mut self, r: HttpResponse) -> String {
        self.bytes = r.body;
        let headers: Vec<[&str; 2]> = r.headers.iter().map(|(k, v)| [*k, v.as_str()]).collect();
        json!({ "status": r.status, "headers": headers }).to_string()
    }

    /// Answers a read with contents (JSON text) and optional cache hints.
    #[wasm_bindgen(js_name = respondRead)]
    pub fn respond_read(
        &mut self,
        handle: f64,
        contents: &str,
        cache: Option<String>,
    ) -> Result<(), JsValue> {
        let h = self.handle(handle)?;
        let contents = decode::<Vec<OwnedResourceContents>>(contents, "contents")?;
        let r = match hint(cache, "cache")? {
            Some(hint) => self.inner.respond_read_cached(h, contents, hint),
            None => self.inner.respond_read(h, contents),
        };
        self.answered(h, r)
    }

    /// Answers a `listResources` event with one page of resources (JSON text) and the
    /// application's cursor for the next page.
    #[wasm_bindgen(js_name = respondList)]
    pub fn respond_list(
        &mut self,
        handle: f64,
        resources: &str,
        next_cursor: Option<String>,
    ) -> Result<(), JsValue> {
        let h = self.handle(handle)?;
        let resources = decode::<Vec<OwnedResource>>(resources, "resources")?;
        let r = self.inner.respond_list(h, resources, next_cursor);
        self.answered(h, r)
    }

    /// Answers a prompt with a `GetPromptResult` (JSON text).
    #[wasm_bindgen(js_name = respondPrompt)]
    pub fn respond_prompt(&mut self, handle: f64, result: &str) -> Result<(), JsValue> {
        let h = self.handle(handle)?;
        let result = decode::<OwnedGetPromptResult>(result, "result")?;
        let r = self.inner.respond_prompt(h, result);
        self.answered(h, r)
    }

    /// Answers a completion with candidate values.
    #[wasm_bindgen(js_name = respondCompletion)]
    pub fn respond_completion(&mut self, handle: f64, values: Vec<String>) -> Result<(), JsValue> {
        let h = self.handle(handle)?;
        let r = self.inner.respond_completion(h, values);
        self.answered(h, r)
    }

    /// Answers with `input_required` (requests as JSON text, optional state bytes).
    #[wasm_bindgen(js_name = respondInputRequired)]
    pub fn respond_input_required(
        &mut self,
        handle: f64,
        requests: &str,
        state: Option<Vec<u8>>,
    ) -> Result<(), JsValue> {
        let h = self.handle(handle)?;
        let requests = decode::<Vec<(String, OwnedInputRequest)>>(requests, "inputRequests")?;
        let r = self
            .inner
            .respond_input_required(h, InputRequired { requests, state });
        self.answered(h, r)
    }

    /// Fails a request: `kind` is `notFound`, `invalidParams`, `internal` or `application`.
    pub fn fail(
        &mut self,
        handle: f64,
        kind: &str,
        message: Option<String>,
        code: Option<i32>,
    ) -> Result<(), JsValue> {
        let f =
            failure(kind, message, code).map_err(|m| context_error("ERR_INVALID_ARG_TYPE", m))?;
        let h = self.handle(handle)?;
        let r = self.inner.fail(h, f);
        self.answered(h, r)
    }

    /// The earliest deadline (ms) at which `handleTimeout` has work.
    #[wasm_bindgen(js_name = pollTimeout)]
    #[allow(clippy::cast_precision_loss)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(|t| t as f64)
    }

    /// Fails every request past its deadline.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now_ms: f64) {
        self.inner.handle_timeout(int(now_ms));
    }

    /// The transport closed `stream`.
    #[wasm_bindgen(js_name = streamClosed)]
    pub fn stream_closed(&mut self, stream: f64) {
        self.inner.stream_closed(StreamId(int(stream)));
    }

    /// Queues `notifications/resources/updated` for `uri`.
    #[wasm_bindgen(js_name = resourceUpdated)]
    pub fn resource_updated(&mut self, uri: &str) {
        self.inner.resource_updated(uri);
    }

    /// Queues `notifications/resources/list_changed`.
    #[wasm_bindgen(js_name = resourcesListChanged)]
    pub fn resources_list_changed(&mut self) {
        self.inner.resources_list_changed();
    }

    /// Queues `notifications/prompts/list_changed`.
    #[wasm_bindgen(js_name = promptsListChanged)]
    pub fn prompts_list_changed(&mut self) {
        self.inner.prompts_list_changed();
    }

    /// Graceful close: every subscription gets its final result.
    pub fn shutdown(&mut self) {
        self.inner.shutdown();
    }

    /// Requests waiting for the application.
    #[wasm_bindgen(getter, js_name = pendingRequests)]
    pub fn pending_requests(&self) -> u32 {
        u32::try_from(self.inner.pending_requests()).unwrap_or(u32::MAX)
    }

    /// Open `subscriptions/listen` streams.
    #[wasm_bindgen(getter)]
    pub fn subscriptions(&self) -> u32 {
        u32::try_from(self.inner.subscriptions()).unwrap_or(u32::MAX)
    }
}
