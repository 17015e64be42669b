//! JSON text across the boundary: errors as JSON objects the glue turns into `Error`s, and
//! the core's decoders for structured inputs.

use mcp_context::messages::owned::FromJsonText;
use serde_json::{Value, json};
use wasm_bindgen::JsValue;

/// An error for the glue: `{"name", "code", "message", "httpStatus"?, "data"?}` as a string.
pub(crate) fn error(name: &str, code: Value, message: impl Into<String>) -> JsValue {
    JsValue::from_str(&json!({ "name": name, "code": code, "message": message.into() }).to_string())
}

/// A `McpContextError` with a stable `ERR_…` code.
pub(crate) fn context_error(code: &str, message: impl Into<String>) -> JsValue {
    error("McpContextError", Value::from(code), message)
}

/// A `McpError` with a JSON-RPC code, optional `data` and the HTTP status it maps to.
pub(crate) fn mcp_error(
    code: i32,
    message: impl Into<String>,
    data: Option<Value>,
    status: u16,
) -> JsValue {
    let mut v = json!({ "name": "McpError", "code": code, "message": message.into(), "httpStatus": status });
    if let Some(d) = data {
        v["data"] = d;
    }
    JsValue::from_str(&v.to_string())
}

/// Decodes wire-shaped JSON text through the core (`FromJsonText`); a bad value is
/// `McpError` with the core's code (-32602 or -32700).
pub(crate) fn decode<T: FromJsonText>(text: &str, what: &str) -> Result<T, JsValue> {
    T::from_json_text(text)
        .map_err(|e| mcp_error(e.error_code().0, format!("{what}: {e}"), None, 400))
}

/// `[(k, v), …]` as a JSON object (later duplicates win in `JSON.parse`, and `__proto__` is
/// an own key there).
pub(crate) fn pairs(pairs: &[(String, String)]) -> Value {
    let mut m = serde_json::Map::new();
    for (k, v) in pairs {
        m.insert(k.clone(), Value::from(v.as_str()));
    }
    Value::Object(m)
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
