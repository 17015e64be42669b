//! The `mcp-context` core compiled to WebAssembly (wasm-bindgen): the engine behind the npm
//! package's `mcp-context/wasm` entry, for Node, Deno, browsers and Cloudflare Workers.
//!
//! The boundary speaks JSON text: structured inputs arrive as `JSON.stringify` output and go
//! through the core's own decoders (`FromJsonText`); outputs leave as JSON text the JS glue
//! (`bindings-node/wasm/engine.mjs`) hands to `JSON.parse`, so every key of an object built
//! from peer data is an own key. Numbers that cross as `f64` (handles, streams, times) are
//! integers below 2^53: the glue refuses anything else before calling in.
#![forbid(unsafe_code)]

mod client;
mod client_out;
mod flag;
mod json;
mod server;
mod server_config;
// The identifier spellings of the napi addon (`ERR_…` codes, lowerCamelCase values): one
// source for both engines.
#[path = "../../src/spell.rs"]
mod spell;
// The fast paths' buffer formats (positional values, match records), shared the same way.
#[path = "../../src/records.rs"]
mod records;
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
