//! The server machine's inputs from the glue (`engine.mjs`) as JSON text: the configuration
//! (the napi addon's `ServerConfig` keys), cache hints, completion value sets and HTTP
//! request heads.

use mcp_context::http::RequestHead;
use mcp_context::messages::owned::OwnedImplementation;
use mcp_context::server::{CacheHint, SealingKey, ServerConfig};
use serde_json::Value;
use wasm_bindgen::JsValue;

use crate::json::{context_error, decode};

/// Optional cache hints (`{ttlMs, cacheScope}` as JSON text).
pub(crate) fn hint(text: Option<String>, what: &str) -> Result<Option<CacheHint>, JsValue> {
    text.map(|t| decode::<CacheHint>(&t, what)).transpose()
}

/// `{name: [values…], …}` (JSON text) as completion value sets.
pub(crate) fn value_sets(text: Option<String>) -> Result<Vec<(String, Vec<String>)>, JsValue> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let map: serde_json::Map<String, Value> = serde_json::from_str(&text)
        .map_err(|e| context_error("ERR_INVALID_ARG_TYPE", format!("completions: {e}")))?;
    map.into_iter()
        .map(|(k, v)| {
            let values: Vec<String> = serde_json::from_value(v).map_err(|_| {
                context_error(
                    "ERR_INVALID_ARG_TYPE",
                    format!("completions.{k} must be an array of strings"),
                )
            })?;
            Ok((k, values))
        })
        .collect()
}

/// The machine's configuration from JSON text.
pub(crate) fn config_from(text: &str) -> Result<ServerConfig, JsValue> {
    let mut c = ServerConfig::default();
    let v: Value = serde_json::from_str(text)
        .map_err(|e| context_error("ERR_CONFIG", format!("config: {e}")))?;
    if let Some(info) = v.get("serverInfo").filter(|i| !i.is_null()) {
        c.server_info = Some(decode::<OwnedImplementation>(
            &info.to_string(),
            "serverInfo",
        )?);
    }
    if let Some(s) = v.get("instructions").and_then(Value::as_str) {
        c.instructions = Some(s.to_owned());
    }
    if let Some(n) = v.get("pageSize").and_then(Value::as_u64) {
        c.page_size = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = v.get("requestTimeoutMs").and_then(Value::as_u64) {
        c.request_timeout_ms = n;
    }
    for (key, slot) in [
        ("forwardUnlistedReads", &mut c.forward_unlisted_reads),
        ("declareResources", &mut c.declare_resources),
        ("declarePrompts", &mut c.declare_prompts),
        ("completionEvents", &mut c.completion_events),
        ("dynamicResources", &mut c.dynamic_resources),
    ] {
        if let Some(b) = v.get(key).and_then(Value::as_bool) {
            *slot = b;
        }
    }
    for (key, slot) in [
        ("discoverCache", &mut c.discover_cache),
        ("resourcesListCache", &mut c.resources_list_cache),
        ("templatesListCache", &mut c.templates_list_cache),
        ("promptsListCache", &mut c.prompts_list_cache),
        ("readCache", &mut c.read_cache),
    ] {
        if let Some(h) = v.get(key).filter(|h| !h.is_null()) {
            *slot = decode::<CacheHint>(&h.to_string(), key)?;
        }
    }
    if let Some(h) = v.get("http").and_then(Value::as_object) {
        match h.get("path") {
            None => {}
            Some(Value::Null) => c.http.path = None,
            Some(p) => c.http.path = p.as_str().map(str::to_owned),
        }
        if let Some(n) = h.get("maxBody").and_then(Value::as_u64) {
            c.http.max_body = usize::try_from(n).unwrap_or(usize::MAX);
        }
        for (key, slot) in [
            ("allowedHosts", &mut c.http.allowed_hosts),
            ("allowedOrigins", &mut c.http.allowed_origins),
        ] {
            if let Some(list) = h
                .get(key)
                .and_then(|l| serde_json::from_value::<Vec<String>>(l.clone()).ok())
            {
                *slot = list;
            }
        }
    }
    if let Some(keys) = v.get("stateKeys").and_then(Value::as_array) {
        for k in keys {
            let id = k.get("id").and_then(Value::as_u64).unwrap_or(0);
            let secret: Vec<u8> = k
                .get("secret")
                .and_then(|s| serde_json::from_value(s.clone()).ok())
                .ok_or_else(|| context_error("ERR_CONFIG", "stateKeys[].secret must be bytes"))?;
            c.state_keys.push(SealingKey {
                id: u32::try_from(id).unwrap_or(u32::MAX),
                secret,
            });
        }
    }
    Ok(c)
}

/// A request head from the glue (JSON text with the `RequestHead` fields in camelCase).
pub(crate) struct Head(serde_json::Map<String, Value>);

impl Head {
    pub(crate) fn parse(text: &str) -> Result<Self, JsValue> {
        serde_json::from_str(text)
            .map(Head)
            .map_err(|e| context_error("ERR_INVALID_ARG_TYPE", format!("head: {e}")))
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    pub(crate) fn view(&self) -> RequestHead<'_> {
        RequestHead {
            method: self.get("method").unwrap_or(""),
            path: self.get("path").unwrap_or(""),
            host: self.get("host"),
            origin: self.get("origin"),
            content_type: self.get("contentType"),
            content_length: self.0.get("contentLength").and_then(Value::as_u64),
            protocol_version: self.get("protocolVersion"),
            mcp_method: self.get("mcpMethod"),
            mcp_name: self.get("mcpName"),
            accept: self.get("accept"),
            session_id: self.get("sessionId"),
        }
    }
}
