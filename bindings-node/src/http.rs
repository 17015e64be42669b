//! The Streamable HTTP request checks of the core's `http` module (docs/rules.md §15.1, §16.10):
//! `checkOrigin`, `checkHeaders`, `statusFor`. The host's HTTP server parses requests; these
//! decide.

#![allow(unreachable_pub)] // the #[napi] items are exported through the addon

use mcp_context::error_code::ErrorCode;
use mcp_context::http::{self, BodyFields, LOCALHOST, OriginError, RequestHeaders};
use napi::{Env, Result};
use napi_derive::napi;

use crate::errors;

/// The standard MCP request headers as received (absent ones left out or `null`).
#[napi(object)]
pub struct McpHeaders {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<String>,
    /// `Mcp-Method`.
    pub method: Option<String>,
    /// `Mcp-Name`.
    pub name: Option<String>,
}

/// What the JSON body says: `params._meta["io.modelcontextprotocol/protocolVersion"]`, the
/// JSON-RPC `method`, and the field `Mcp-Name` mirrors (`params.name` for `prompts/get` and
/// `tools/call`, `params.uri` for `resources/read`).
#[napi(object)]
pub struct McpBodyFields {
    /// The body's protocol version.
    pub protocol_version: String,
    /// The JSON-RPC method.
    pub method: String,
    /// `params.name` or `params.uri`, when the method has one.
    pub name: Option<String>,
}

fn origin_code(e: OriginError) -> String {
    crate::ident::err_code(e.ident())
}

/// Validates `Host` and `Origin` against `allowList` (entries `host` for any port or
/// `host:port`; default: `localhost`, `127.0.0.1`, `[::1]`, the list for a server bound to
/// loopback). This is the DNS-rebinding defence (docs/rules.md §15.1).
///
/// @throws {OriginError} `code` `ERR_MISSING_HOST` / `ERR_MALFORMED_HOST` (`httpStatus`
/// 400), `ERR_HOST_NOT_ALLOWED`, `ERR_NULL_ORIGIN`, `ERR_MALFORMED_ORIGIN`,
/// `ERR_ORIGIN_NOT_ALLOWED` (403).
#[napi(catch_unwind)]
pub fn check_origin(
    env: Env,
    host: Option<String>,
    origin: Option<String>,
    allow_list: Option<Vec<String>>,
) -> Result<()> {
    let owned: Vec<&str>;
    let list: &[&str] = match &allow_list {
        Some(l) => {
            owned = l.iter().map(String::as_str).collect();
            &owned
        }
        None => LOCALHOST,
    };
    http::check_origin(host.as_deref(), origin.as_deref(), list)
        .map_err(|e| errors::origin_error(&env, e.to_string(), origin_code(e), e.http_status()))
}

/// Checks `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` against the body (docs/rules.md
/// §15.1, rules 62–63), for requests (not notifications). Call it after checking the body's
/// `_meta` keys and before the machine checks the version (docs/server-machine.md).
///
/// @throws {McpError} `code` -32020 (`ErrorCode.HeaderMismatch`), `httpStatus` 400, `data`
/// `{header, problem}` (`problem`: `missing`, `invalidCharacters`, `malformedEncoding`,
/// `mismatch`).
#[napi(catch_unwind)]
pub fn check_headers(env: Env, headers: McpHeaders, body: McpBodyFields) -> Result<()> {
    let h = RequestHeaders {
        protocol_version: headers.protocol_version.as_deref(),
        method: headers.method.as_deref(),
        name: headers.name.as_deref(),
    };
    let b = BodyFields {
        protocol_version: &body.protocol_version,
        method: &body.method,
        name: body.name.as_deref(),
    };
    http::check_headers(&h, &b).map_err(|e| {
        let problem = crate::ident::camel(e.problem.ident());
        let data = format!(
            r#"{{"header":"{}","problem":"{problem}"}}"#,
            e.header.as_str()
        );
        errors::mcp_error(&env, e.to_string(), e.code().0, Some(data), e.http_status())
    })
}

/// The HTTP status for a JSON-RPC error response with `code`: 404 for -32601, 400 for
/// -32020/-32021/-32022, else 200 (docs/rules.md §15.1, §19.9).
#[napi(catch_unwind)]
pub fn status_for(code: i32) -> u32 {
    u32::from(http::status_for(ErrorCode(code)))
}

/// One server-sent event carrying `message` (`data: …` and the blank line): the core's
/// framing of a JSON-RPC message on a Streamable HTTP event stream.
#[napi(catch_unwind)]
pub fn sse_event(message: napi::bindgen_prelude::Buffer) -> napi::bindgen_prelude::Buffer {
    http::sse::data_event(&message).into()
}

/// The comment line an idle event stream gets (`: keepalive` and the blank line), every
/// `SSE_KEEPALIVE_INTERVAL_MS`.
#[napi(catch_unwind)]
pub fn sse_keepalive() -> napi::bindgen_prelude::Buffer {
    http::sse::KEEPALIVE.to_vec().into()
}

/// How often an idle event stream gets `sseKeepalive()`, in milliseconds.
#[napi]
#[allow(clippy::cast_possible_truncation)]
pub const SSE_KEEPALIVE_INTERVAL_MS: u32 = http::sse::KEEPALIVE_INTERVAL_MS as u32;
