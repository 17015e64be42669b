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

/// A `TypeError` for the glue (a wrong JS type, as the napi addon throws).
pub(crate) fn type_error(message: impl Into<String>) -> JsValue {
    error("TypeError", Value::Null, message)
}

/// The largest integer a JS `number` holds exactly.
pub(crate) const MAX_SAFE: u64 = (1 << 53) - 1;

/// A JSON object written as text, so that JSON the core holds as text (results, params)
/// goes in verbatim: `JSON.parse` in the glue then sees exactly what the napi addon hands
/// to `JSON.parse`.
pub(crate) struct Obj(String);

impl Obj {
    /// `{"type": ty`.
    pub(crate) fn typed(ty: &str) -> Self {
        let mut o = Self(String::from("{"));
        o.str("type", ty);
        o
    }

    /// `{` (no key yet).
    pub(crate) fn new() -> Self {
        Self(String::from("{"))
    }

    fn key(&mut self, k: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        push_string(&mut self.0, k);
        self.0.push(':');
    }

    /// `k: <JSON text>` (the text must be one JSON value).
    pub(crate) fn raw(&mut self, k: &str, text: &str) -> &mut Self {
        self.key(k);
        self.0.push_str(text);
        self
    }

    /// `k: "v"`.
    pub(crate) fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        push_string(&mut self.0, v);
        self
    }

    /// `k: "v"` or `k: null`.
    pub(crate) fn opt_str(&mut self, k: &str, v: Option<&str>) -> &mut Self {
        match v {
            Some(v) => self.str(k, v),
            None => self.raw(k, "null"),
        }
    }

    /// `k: v` for a serde value.
    pub(crate) fn val(&mut self, k: &str, v: &Value) -> &mut Self {
        self.raw(k, &v.to_string())
    }

    /// `k: n` while `n` is exact as a JS `number`, else `k: "n"` (the glue makes it a
    /// `bigint`: such keys never hold strings otherwise).
    pub(crate) fn int(&mut self, k: &str, n: u64) -> &mut Self {
        if n <= MAX_SAFE {
            self.raw(k, &n.to_string())
        } else {
            self.str(k, &n.to_string())
        }
    }

    /// The text, closed.
    pub(crate) fn finish(&mut self) -> String {
        let mut s = core::mem::take(&mut self.0);
        s.push('}');
        s
    }
}

/// Appends `s` as a JSON string literal.
pub(crate) fn push_string(out: &mut String, s: &str) {
    out.push_str(&Value::from(s).to_string());
}
