//! `WasmAuthorizer`: the core's client-side OAuth flow (`mcp_context::auth::Authorizer`)
//! behind the JSON-text boundary; the glue (`engine.mjs`) gives it the addon's `Authorizer`
//! face. Conversions are the shared adapter's (`auth`).

use mcp_context::auth::{ENTROPY_LEN, FetchId};
use mcp_context_node_adapter::auth::{action, auth_config, tokens, tokens_from};
use mcp_context_node_adapter::{Error, Js};
use wasm_bindgen::prelude::*;

use crate::json::{context_error, thrown, value};

/// The flow for the JS glue; every method mirrors the addon's `Authorizer`.
#[wasm_bindgen]
pub struct WasmAuthorizer {
    inner: mcp_context::auth::Authorizer,
}

#[wasm_bindgen]
impl WasmAuthorizer {
    /// A flow from a JSON configuration (the addon's `AuthConfig` keys).
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<WasmAuthorizer, JsValue> {
        let config = auth_config(&value(config, "config")?).map_err(thrown)?;
        mcp_context::auth::Authorizer::new(config)
            .map(|inner| Self { inner })
            .map_err(|e| context_error("ERR_CONFIG", e.to_string()))
    }

    /// Loads stored tokens (JSON text); `false` when they are for another resource.
    pub fn restore(&mut self, tokens: &str) -> Result<bool, JsValue> {
        let t = tokens_from(&value(tokens, "tokens")?).map_err(thrown)?;
        Ok(self.inner.restore(t))
    }

    /// The tokens held, as JSON text (`null`).
    pub fn tokens(&self) -> String {
        self.inner.tokens().map_or(Js::Null, tokens).to_json()
    }

    /// The authorization context of the tokens held (one per grant), or `undefined`.
    #[wasm_bindgen(js_name = authContext)]
    pub fn auth_context(&self) -> Option<u64> {
        self.inner.auth_context().map(|a| a.0)
    }

    /// The next action as JSON text (`null`).
    #[wasm_bindgen(js_name = pollAction)]
    pub fn poll_action(&mut self) -> String {
        self.inner.poll_action().map_or(Js::Null, action).to_json()
    }

    /// Whether a flow is running.
    #[wasm_bindgen(getter, js_name = isBusy)]
    pub fn is_busy(&self) -> bool {
        self.inner.is_busy()
    }

    /// The `Authorization` value for a request to `url`.
    #[wasm_bindgen(js_name = authorizationHeader)]
    pub fn authorization_header(&self, url: &str, now_ms: u64) -> Option<String> {
        self.inner.authorization_header(url, now_ms)
    }

    /// Whether a refresh is due.
    #[wasm_bindgen(js_name = refreshDue)]
    pub fn refresh_due(&self, now_ms: u64) -> bool {
        self.inner.refresh_due(now_ms)
    }

    /// Starts a refresh when one is due.
    #[wasm_bindgen(js_name = startRefresh)]
    pub fn start_refresh(&mut self, now_ms: u64) {
        self.inner.start_refresh(now_ms);
    }

    /// A request went through.
    #[wasm_bindgen(js_name = handleSuccess)]
    pub fn handle_success(&mut self) {
        self.inner.handle_success();
    }

    /// A challenge: status, `WWW-Authenticate`, 48 random bytes.
    #[wasm_bindgen(js_name = handleChallenge)]
    pub fn handle_challenge(
        &mut self,
        status: u16,
        www_authenticate: Option<String>,
        entropy: &[u8],
        now_ms: u64,
    ) -> Result<(), JsValue> {
        let entropy: &[u8; ENTROPY_LEN] = entropy
            .try_into()
            .map_err(|_| thrown(Error::Type(format!("entropy must be {ENTROPY_LEN} bytes"))))?;
        self.inner
            .handle_challenge(status, www_authenticate.as_deref(), entropy, now_ms);
        Ok(())
    }

    /// The response to fetch `id`.
    #[wasm_bindgen(js_name = handleFetched)]
    pub fn handle_fetched(&mut self, id: u64, status: u16, body: &[u8], now_ms: u64) {
        self.inner.handle_fetched(FetchId(id), status, body, now_ms);
    }

    /// Fetch `id` could not be carried.
    #[wasm_bindgen(js_name = handleFetchFailed)]
    pub fn handle_fetch_failed(&mut self, id: u64, now_ms: u64) {
        self.inner.handle_fetch_failed(FetchId(id), now_ms);
    }

    /// The URL the user agent came back to.
    #[wasm_bindgen(js_name = handleRedirect)]
    pub fn handle_redirect(&mut self, url: &str, now_ms: u64) {
        self.inner.handle_redirect(url, now_ms);
    }
}
