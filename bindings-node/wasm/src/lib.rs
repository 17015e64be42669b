//! The `mcp-context` core compiled to WebAssembly (wasm-bindgen): the engine behind the npm
//! package's `mcp-context/wasm` entry, for Node, Deno, browsers and Cloudflare Workers.
//!
//! The boundary speaks JSON text: structured inputs arrive as `JSON.stringify` output and go
//! through the core's own decoders (`FromJsonText`); outputs leave as JSON text the JS glue
//! (`bindings-node/wasm/engine.mjs`) hands to `JSON.parse`, so every key of an object built
//! from peer data is an own key. Numbers that cross as `f64` (handles, streams, times) are
//! integers below 2^53: the glue refuses anything else before calling in. Everything but
//! this FFI surface (conversions, configuration, events, errors) is the shared adapter's
//! (`mcp-context-node-adapter`, also under the napi addon).
#![forbid(unsafe_code)]

mod client;
mod flag;
mod json;
mod server;
mod template;

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
