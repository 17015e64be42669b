//! The `mcp-context` core compiled to WebAssembly (wasm-bindgen): the engine behind the npm
//! package's `mcp-context-primitives/wasm` entry, for Node, Deno, browsers and Cloudflare Workers.
//!
//! The boundary speaks JSON text: structured inputs arrive as `JSON.stringify` output and go
//! through the core's own decoders (`FromJsonText`); outputs leave as JSON text the JS glue
//! (`bindings-node/wasm/engine.mjs`) hands to `JSON.parse`, so every key of an object built
//! from peer data is an own key. Numbers that cross as `f64` (handles, streams, times) are
//! integers below 2^53: the glue refuses anything else before calling in. Everything but
//! this FFI surface (conversions, configuration, events, errors) is the shared adapter's
//! (`mcp-context-node-adapter`, also under the napi addon).
#![forbid(unsafe_code)]

mod auth;
mod client;
mod flag;
mod gate;
mod json;
mod observe;
mod server;
mod template;

pub use auth::WasmAuthorizer;
pub use client::WasmClient;
pub use server::WasmServer;
pub use template::{WasmRouter, WasmTemplate};

use wasm_bindgen::prelude::*;

/// The protocol revision the core speaks.
#[wasm_bindgen(js_name = protocolVersion)]
#[must_use]
pub fn protocol_version() -> String {
    String::from(mcp_context::error_code::version::CURRENT)
}

/// One server-sent event carrying `message` (the core's framing).
#[wasm_bindgen(js_name = sseEvent)]
#[must_use]
pub fn sse_event(message: &[u8]) -> Vec<u8> {
    mcp_context::http::sse::data_event(message)
}

/// The keepalive comment an idle event stream gets.
#[wasm_bindgen(js_name = sseKeepalive)]
#[must_use]
pub fn sse_keepalive() -> Vec<u8> {
    mcp_context::http::sse::KEEPALIVE.to_vec()
}

/// How often an idle event stream gets the keepalive, in milliseconds.
#[wasm_bindgen(js_name = sseKeepaliveIntervalMs)]
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn sse_keepalive_interval_ms() -> f64 {
    mcp_context::http::sse::KEEPALIVE_INTERVAL_MS as f64
}

/// The core's cursor into a list the application assembles from several sources.
#[wasm_bindgen(js_name = encodeAppCursor)]
#[must_use]
pub fn encode_app_cursor(source: &str, offset: u32) -> String {
    mcp_context_node_adapter::server::app_cursor(source, u64::from(offset))
}

/// The `{"source","offset"}` (JSON text) an `encodeAppCursor` text names, or `undefined`.
#[wasm_bindgen(js_name = decodeAppCursor)]
#[must_use]
pub fn decode_app_cursor(text: &str) -> Option<String> {
    let (source, offset) = mcp_context_node_adapter::server::parse_app_cursor(text)?;
    let mut o = mcp_context_node_adapter::Obj::default();
    o.set("source", source).set("offset", offset);
    Some(mcp_context_node_adapter::Js::Obj(o).to_json())
}
