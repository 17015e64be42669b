//! The Streamable HTTP checks the runner needs before the machine (Host/Origin; the
//! `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` headers against the body).

use mcp_context::http::{self, BodyFields, HeaderProblem, RequestHeaders};
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::json::{error, mcp_error};

const LOCALHOST: &[&str] = &["localhost", "127.0.0.1", "[::1]"];

/// Checks `Host` and `Origin` against `allow` (default: localhost); throws an
/// `OriginError` (`httpStatus` 400 or 403).
#[wasm_bindgen(js_name = checkOrigin)]
pub fn check_origin(
    host: Option<String>,
    origin: Option<String>,
    allow: Option<Vec<String>>,
) -> Result<(), JsValue> {
    let owned: Vec<&str>;
    let list: &[&str] = match &allow {
        Some(l) => {
            owned = l.iter().map(String::as_str).collect();
            &owned
        }
        None => LOCALHOST,
    };
    http::check_origin(host.as_deref(), origin.as_deref(), list).map_err(|e| {
        let mut v = error("OriginError", json!("ERR_ORIGIN"), e.to_string());
        if let Some(s) = v.as_string() {
            let mut o: serde_json::Value = serde_json::from_str(&s).unwrap_or_default();
            o["httpStatus"] = json!(e.http_status());
            v = JsValue::from_str(&o.to_string());
        }
        v
    })
}

/// Checks the MCP headers against the body fields of a request (-32020, HTTP 400).
#[wasm_bindgen(js_name = checkHeaders)]
pub fn check_headers(
    protocol_version: Option<String>,
    method: Option<String>,
    name: Option<String>,
    body_version: &str,
    body_method: &str,
    body_name: Option<String>,
) -> Result<(), JsValue> {
    let h = RequestHeaders {
        protocol_version: protocol_version.as_deref(),
        method: method.as_deref(),
        name: name.as_deref(),
    };
    let b = BodyFields {
        protocol_version: body_version,
        method: body_method,
        name: body_name.as_deref(),
    };
    http::check_headers(&h, &b).map_err(|e| {
        let problem = match e.problem {
            HeaderProblem::Missing => "missing",
            HeaderProblem::InvalidCharacters => "invalidCharacters",
            HeaderProblem::MalformedEncoding => "malformedEncoding",
            _ => "mismatch",
        };
        mcp_error(
            e.code().0,
            e.to_string(),
            Some(json!({ "header": e.header.as_str(), "problem": problem })),
            e.http_status(),
        )
    })
}
