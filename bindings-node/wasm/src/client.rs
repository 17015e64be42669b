//! `WasmClient`: the core's sans-IO client machine (`mcp_context::client::Client`) behind a
//! JSON-text boundary. The glue (`engine.mjs`) gives it the JS face of the napi addon's
//! `ClientMachine` (`bindings-node/src/client.rs`): same methods, same outputs.
//!
//! Integers cross as `u64` (a JS `bigint`; the glue converts and checks); structured inputs
//! as JSON text; outputs as JSON text (`client_out.rs`).

use std::sync::Arc;

use mcp_context::cache::AuthContext;
use mcp_context::client::{CallId, Client, CompletionRef};
use mcp_context::messages::owned::{OwnedJson, OwnedSubscriptionFilter};
use mcp_context_node_adapter::client::{client_error, poll, reply_into, session};
use mcp_context_node_adapter::config::{client_config, list_mode, policy, string_pairs};
use mcp_context_node_adapter::error::decode;
use mcp_context_node_adapter::{Error, Js, Obj};
use wasm_bindgen::prelude::*;

use crate::flag::Flag;
use crate::json::{output, thrown, value};

/// `{"k": "v", …}` (the glue checked every value is a string) as pairs, in order.
fn pairs(text: &str, what: &str) -> Result<Vec<(String, String)>, JsValue> {
    string_pairs(Some(&value(text, what)?), what).map_err(thrown)
}

fn refs(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The client machine for the JS glue. Every method mirrors the addon's `ClientMachine`.
#[wasm_bindgen]
pub struct WasmClient {
    inner: Client,
    bytes: Vec<u8>,
    woken: Arc<Flag>,
}

#[wasm_bindgen]
impl WasmClient {
    /// A machine from a JSON configuration (the addon's `ClientConfig` keys).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<WasmClient, JsValue> {
        let config = client_config(Some(&value(config, "config")?)).map_err(thrown)?;
        let mut inner =
            Client::new(config).map_err(|e| thrown(Error::context("ERR_CONFIG", e.to_string())))?;
        let (woken, waker) = Flag::install();
        inner.set_waker(waker);
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

    /// Whether an output is queued.
    #[wasm_bindgen(getter, js_name = hasOutput)]
    pub fn has_output(&self) -> bool {
        self.inner.has_output()
    }

    /// Starts the negotiation.
    pub fn connect(&mut self, now_ms: u64) {
        self.inner.connect(now_ms);
    }

    /// `server/discover`.
    pub fn discover(&mut self, now_ms: u64, refresh: bool) -> u64 {
        self.inner.discover(policy(refresh), now_ms).0
    }

    /// `resources/list`.
    #[wasm_bindgen(js_name = listResources)]
    pub fn list_resources(
        &mut self,
        now_ms: u64,
        page: bool,
        cursor: Option<String>,
        refresh: bool,
    ) -> u64 {
        let mode = list_mode(page, cursor);
        self.inner.list_resources(mode, policy(refresh), now_ms).0
    }

    /// `resources/templates/list`.
    #[wasm_bindgen(js_name = listResourceTemplates)]
    pub fn list_resource_templates(
        &mut self,
        now_ms: u64,
        page: bool,
        cursor: Option<String>,
        refresh: bool,
    ) -> u64 {
        let mode = list_mode(page, cursor);
        self.inner
            .list_resource_templates(mode, policy(refresh), now_ms)
            .0
    }

    /// `prompts/list`.
    #[wasm_bindgen(js_name = listPrompts)]
    pub fn list_prompts(
        &mut self,
        now_ms: u64,
        page: bool,
        cursor: Option<String>,
        refresh: bool,
    ) -> u64 {
        let mode = list_mode(page, cursor);
        self.inner.list_prompts(mode, policy(refresh), now_ms).0
    }

    /// `resources/read`.
    #[wasm_bindgen(js_name = readResource)]
    pub fn read_resource(&mut self, uri: &str, now_ms: u64, refresh: bool) -> u64 {
        self.inner.read_resource(uri, policy(refresh), now_ms).0
    }

    /// A fresh cached read as `{"result","fromCache"}` JSON text, or `undefined`.
    #[wasm_bindgen(js_name = readCached)]
    pub fn read_cached(&mut self, uri: &str, now_ms: u64) -> Option<String> {
        let reply = self.inner.read_cached(uri, now_ms)?;
        let mut o = Obj::default();
        reply_into(&mut o, &reply);
        Some(Js::Obj(o).to_json())
    }

    /// `prompts/get` with `args` (JSON text of an object of strings).
    #[wasm_bindgen(js_name = getPrompt)]
    pub fn get_prompt(&mut self, name: &str, args: &str, now_ms: u64) -> Result<u64, JsValue> {
        let pairs = pairs(args, "arguments")?;
        Ok(self.inner.get_prompt(name, &refs(&pairs), now_ms).0)
    }

    /// `completion/complete`: `prompt` is whether `target` names a prompt (else a template
    /// URI); `context` is JSON text of an object of strings.
    pub fn complete(
        &mut self,
        prompt: bool,
        target: String,
        name: &str,
        value: &str,
        context: Option<String>,
        now_ms: u64,
    ) -> Result<u64, JsValue> {
        let r = if prompt {
            CompletionRef::Prompt(target)
        } else {
            CompletionRef::Resource(target)
        };
        let ctx = context.map(|c| pairs(&c, "context")).transpose()?;
        let ctx_refs = ctx.as_deref().map(refs);
        Ok(self
            .inner
            .complete(r, (name, value), ctx_refs.as_deref(), now_ms)
            .0)
    }

    /// `subscriptions/listen` with `filter` (JSON text).
    pub fn listen(&mut self, filter: &str, now_ms: u64) -> Result<u64, JsValue> {
        let f = decode::<OwnedSubscriptionFilter>(filter, "filter").map_err(thrown)?;
        Ok(self.inner.listen(f, now_ms).0)
    }

    /// Gives up on `call`.
    pub fn cancel(
        &mut self,
        call: u64,
        reason: Option<String>,
        now_ms: u64,
    ) -> Result<(), JsValue> {
        self.inner
            .cancel(CallId(call), reason.as_deref(), now_ms)
            .map_err(|e| thrown(client_error(&e)))
    }

    /// Answers an `inputRequired` event: `keys[i]`'s response is the JSON text `values[i]`.
    #[wasm_bindgen(js_name = respondInput)]
    pub fn respond_input(
        &mut self,
        call: u64,
        keys: Vec<String>,
        values: Vec<String>,
        now_ms: u64,
    ) -> Result<(), JsValue> {
        let mut out = Vec::with_capacity(keys.len());
        for (key, text) in keys.into_iter().zip(values) {
            let json = OwnedJson::parse(&text)
                .map_err(|e| thrown(Error::Type(format!("responses.{key}: {e}"))))?;
            out.push((key, json));
        }
        self.inner
            .respond_input(CallId(call), out, now_ms)
            .map_err(|e| thrown(client_error(&e)))
    }

    /// Handles one message.
    #[wasm_bindgen(js_name = handleMessage)]
    pub fn handle_message(&mut self, message: &[u8], now_ms: u64) {
        self.inner.handle_message(message, now_ms);
    }

    /// Fails or retries what is overdue.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now_ms: u64) {
        self.inner.handle_timeout(now_ms);
    }

    /// HTTP: the request with JSON-RPC `id` failed without an answer.
    #[wasm_bindgen(js_name = handleRequestFailed)]
    pub fn handle_request_failed(&mut self, id: i64, now_ms: u64) {
        self.inner.handle_request_failed(id, now_ms);
    }

    /// The transport closed.
    #[wasm_bindgen(js_name = handleClose)]
    pub fn handle_close(&mut self, now_ms: u64) {
        self.inner.handle_close(now_ms);
    }

    /// Results cached as `private` from now on belong to `auth` (`undefined`: anonymous).
    #[wasm_bindgen(js_name = setAuthContext)]
    pub fn set_auth_context(&mut self, auth: Option<u64>) {
        self.inner.set_auth_context(auth.map(AuthContext));
    }

    /// Request `id` was answered under the authorization context `auth` (`undefined`: none).
    #[wasm_bindgen(js_name = setRequestAuthContext)]
    pub fn set_request_auth_context(&mut self, id: i64, auth: Option<u64>) {
        self.inner
            .set_request_auth_context(id, auth.map(AuthContext));
    }

    /// The earliest deadline (ms), or `undefined`.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> Option<u64> {
        self.inner.poll_timeout()
    }

    /// Requests sent and not yet answered.
    #[wasm_bindgen(getter)]
    pub fn outstanding(&self) -> u32 {
        u32::try_from(self.inner.outstanding()).unwrap_or(u32::MAX)
    }

    /// The negotiated session as JSON text, or `undefined`.
    #[wasm_bindgen(getter)]
    pub fn session(&self) -> Option<String> {
        self.inner.session().map(|s| Js::Obj(session(s)).to_json())
    }

    /// The next output as JSON text, or `undefined`; a transmit's bytes lie in linear memory
    /// at `ptr` + `at` until the next call.
    #[wasm_bindgen(js_name = pollOutput)]
    pub fn poll_output(&mut self) -> Option<String> {
        let p = poll(&mut self.inner)?;
        Some(output(p, &mut self.bytes))
    }
}
