//! The boundary's plumbing: errors thrown as JSON text the glue turns into `Error`s
//! (the adapter's `Error::spec`), outputs as JSON text, inputs parsed for the adapter's
//! readers.

use mcp_context_node_adapter::server::Polled;
use mcp_context_node_adapter::source::parse;
use mcp_context_node_adapter::{Error, Js};
use serde_json::Value;
use wasm_bindgen::JsValue;

/// An adapter error as the thrown value (`{"name","code","message",…}` text).
#[allow(clippy::needless_pass_by_value)] // `map_err(thrown)`
pub(crate) fn thrown(e: Error) -> JsValue {
    JsValue::from_str(&e.spec().to_json())
}

/// A `McpContextError` with a stable `ERR_…` code, thrown.
pub(crate) fn context_error(code: &str, message: impl Into<String>) -> JsValue {
    thrown(Error::context(code, message))
}

/// The glue's JSON text (`JSON.stringify` output) as a value for the adapter's readers.
pub(crate) fn value(text: &str, what: &str) -> Result<Value, JsValue> {
    parse(text, what).map_err(thrown)
}

/// Optional JSON text as a value.
pub(crate) fn opt_value(text: Option<&str>, what: &str) -> Result<Option<Value>, JsValue> {
    text.map(|t| value(t, what)).transpose()
}

/// An output as JSON text; its bytes are kept in `bytes` for `takeBytes()`.
pub(crate) fn output(p: Polled, bytes: &mut Vec<u8>) -> String {
    if let Some(b) = p.bytes {
        *bytes = b;
    }
    Js::Obj(p.shape).to_json()
}

/// A `u64` that came in as an `f64`: the glue passes only integers below 2^53.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(crate) fn int(n: f64) -> u64 {
    if n.is_finite() && n >= 0.0 {
        n as u64
    } else {
        0
    }
}
