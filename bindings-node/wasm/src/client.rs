//! `WasmClient`: the core's sans-IO client machine (`mcp_context::client::Client`) behind a
//! JSON-text boundary. The glue (`engine.mjs`) gives it the JS face of the napi addon's
//! `ClientMachine` (`bindings-node/src/client.rs`): same methods, same outputs.
//!
//! Integers cross as `u64` (a JS `bigint`; the glue converts and checks); structured inputs
//! as JSON text; outputs as JSON text (`client_out.rs`).

use std::sync::Arc;

use mcp_context::cache::AuthContext;
use mcp_context::client::{
    CachePolicy, CallId, Client, ClientConfig, ClientError, CompletionRef, ListMode, Output,
    Transport,
};
use mcp_context::messages::owned::{OwnedImplementation, OwnedJson, OwnedSubscriptionFilter};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::client_out::{event, reply_into, session};
use crate::flag::Flag;
use crate::json::{Obj, context_error, decode, type_error};
use crate::spell::err_code;

fn policy(refresh: bool) -> CachePolicy {
    if refresh {
        CachePolicy::Refresh
    } else {
        CachePolicy::PreferCache
    }
}

fn list_mode(page: bool, cursor: Option<String>) -> ListMode {
    if page || cursor.is_some() {
        ListMode::Page(cursor)
    } else {
        ListMode::All
    }
}

fn client_error(e: &ClientError) -> JsValue {
    context_error(&err_code(e.ident()), e.to_string())
}

fn config_from(text: &str) -> Result<ClientConfig, JsValue> {
    let mut c = ClientConfig::new("mcp-context-node", env!("CARGO_PKG_VERSION"));
    let v: serde_json::Map<String, Value> = serde_json::from_str(text)
        .map_err(|e| type_error(format!("config must be an object: {e}")))?;
    match v.get("clientInfo") {
        None => {}
        Some(Value::Null) => c.client_info = None,
        Some(info) => {
            c.client_info = Some(decode::<OwnedImplementation>(
                &info.to_string(),
                "clientInfo",
            )?);
        }
    }
    if let Some(caps) = v.get("capabilities") {
        c.capabilities = OwnedJson::parse(caps.to_string())
            .map_err(|e| type_error(format!("capabilities must be JSON: {e}")))?;
    }
    for (key, slot) in [
        ("versions", &mut c.versions),
        ("legacyVersions", &mut c.legacy_versions),
    ] {
        if let Some(list) = v.get(key).filter(|l| !l.is_null()) {
            *slot = serde_json::from_value(list.clone())
                .map_err(|_| type_error(format!("{key} must be an array of strings")))?;
        }
    }
    match v.get("transport").and_then(Value::as_str) {
        None | Some("stdio") => c.transport = Transport::Stdio,
        Some("http") => c.transport = Transport::Http,
        Some(other) => {
            return Err(type_error(format!(
                "transport must be 'stdio' or 'http', not '{other}'"
            )));
        }
    }
    // Checked by the glue and sent as decimal strings (they may be bigints).
    for (key, slot) in [
        ("requestTimeoutMs", &mut c.request_timeout_ms),
        ("probeTimeoutMs", &mut c.probe_timeout_ms),
    ] {
        if let Some(n) = v.get(key).and_then(Value::as_str) {
            *slot = n
                .parse()
                .map_err(|_| type_error(format!("{key} must be an integer in 0..2^64")))?;
        }
    }
    let small = |key: &str| {
        v.get(key)
            .and_then(Value::as_u64)
            .map(|n| n.min(u64::from(u32::MAX)))
    };
    if let Some(n) = small("maxPages") {
        c.max_pages = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = small("maxInputRounds") {
        c.max_input_rounds = u8::try_from(n).unwrap_or(u8::MAX);
    }
    match v.get("cache") {
        None => {}
        Some(Value::Null) => c.cache = None,
        Some(co) => {
            let mut limits = c.cache.unwrap_or_default();
            let get = |k: &str| {
                co.get(k)
                    .and_then(Value::as_u64)
                    .map(|n| n.min(u64::from(u32::MAX)))
            };
            if let Some(n) = get("maxEntries") {
                limits.max_entries = usize::try_from(n).unwrap_or(usize::MAX);
            }
            if let Some(n) = get("maxBytes") {
                limits.max_bytes = usize::try_from(n).unwrap_or(usize::MAX);
            }
            c.cache = Some(limits);
        }
    }
    Ok(c)
}

/// `{"k": "v", …}` (the glue checked every value is a string) as pairs, in order.
fn string_pairs(text: &str, what: &str) -> Result<Vec<(String, String)>, JsValue> {
    let map: serde_json::Map<String, Value> = serde_json::from_str(text)
        .map_err(|e| type_error(format!("{what} must be an object: {e}")))?;
    map.into_iter()
        .map(|(k, v)| match v {
            Value::String(s) => Ok((k, s)),
            _ => Err(type_error(format!("{what}.{k} must be a string"))),
        })
        .collect()
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
        let mut inner = Client::new(config_from(config)?)
            .map_err(|e| context_error("ERR_CONFIG", e.to_string()))?;
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
        let mut o = Obj::new();
        reply_into(&mut o, &reply);
        Some(o.finish())
    }

    /// `prompts/get` with `args` (JSON text of an object of strings).
    #[wasm_bindgen(js_name = getPrompt)]
    pub fn get_prompt(&mut self, name: &str, args: &str, now_ms: u64) -> Result<u64, JsValue> {
        let pairs = string_pairs(args, "arguments")?;
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
        let ctx = context.map(|c| string_pairs(&c, "context")).transpose()?;
        let ctx_refs = ctx.as_deref().map(refs);
        Ok(self
            .inner
            .complete(r, (name, value), ctx_refs.as_deref(), now_ms)
            .0)
    }

    /// `subscriptions/listen` with `filter` (JSON text).
    pub fn listen(&mut self, filter: &str, now_ms: u64) -> Result<u64, JsValue> {
        let f = decode::<OwnedSubscriptionFilter>(filter, "filter")?;
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
            .map_err(|e| client_error(&e))
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
            let json =
                OwnedJson::parse(&text).map_err(|e| type_error(format!("responses.{key}: {e}")))?;
            out.push((key, json));
        }
        self.inner
            .respond_input(CallId(call), out, now_ms)
            .map_err(|e| client_error(&e))
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
        self.inner.session().map(session)
    }

    /// The next output as JSON text, or `undefined`. A transmit's bytes are then taken with
    /// `takeBytes()`.
    #[wasm_bindgen(js_name = pollOutput)]
    pub fn poll_output(&mut self) -> Option<String> {
        Some(match self.inner.poll_output()? {
            Output::Transmit(t) => {
                self.bytes = t.bytes;
                let mut o = Obj::typed("transmit");
                match t.id {
                    Some(id) => o.raw("id", &id.to_string()),
                    None => o.raw("id", "null"),
                };
                o.opt_str("method", t.method.as_deref())
                    .opt_str("name", t.name.as_deref())
                    .opt_str("protocolVersion", t.protocol_version.as_deref());
                o.finish()
            }
            Output::CloseStream { id } => Obj::typed("closeStream")
                .raw("id", &id.to_string())
                .finish(),
            Output::Event(e) => event(&e),
        })
    }

    /// The bytes of the transmit `pollOutput` last returned.
    #[wasm_bindgen(js_name = takeBytes)]
    pub fn take_bytes(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.bytes)
    }
}
