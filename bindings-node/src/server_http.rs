//! The transport's facts for `ServerMachine`: where a message came from
//! (`MessageContext`) and the head of a Streamable HTTP request (`HttpRequestHead`), as the
//! adapter's `Head`.

use mcp_context_node_adapter::server::Head;
use napi::bindgen_prelude::Either;
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int};

/// Where a message came from (`handleMessage`'s third argument). Defaults: stream 0,
/// anonymous (`auth` 0), stdio.
#[napi(object)]
pub struct MessageContext {
    /// The host's id of the channel the answers go to: one per HTTP POST, one for a whole
    /// stdio connection.
    #[napi(ts_type = "number | bigint")]
    pub stream: Option<Int>,
    /// An opaque caller-context id (the authorization the host resolved; 0 = anonymous).
    #[napi(ts_type = "number | bigint")]
    pub auth: Option<Int>,
    /// `'stdio'` (default) or `'http'`.
    #[napi(ts_type = "'stdio' | 'http'")]
    pub transport: Option<String>,
}

/// The facts of a Streamable HTTP request the core checks (`httpHead`, `handleHttp`):
/// header values as received (absent: `undefined`).
#[napi(object)]
pub struct HttpRequestHead {
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target's path.
    pub path: String,
    /// `Host`.
    pub host: Option<String>,
    /// `Origin`.
    pub origin: Option<String>,
    /// `Content-Type`.
    pub content_type: Option<String>,
    /// `Content-Length` (absent for a chunked body).
    pub content_length: Option<f64>,
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<String>,
    /// `Mcp-Method`.
    pub mcp_method: Option<String>,
    /// `Mcp-Name`.
    pub mcp_name: Option<String>,
    /// `Accept`.
    pub accept: Option<String>,
    /// `Mcp-Session-Id` (a 2025-11-25 session's requests).
    pub session_id: Option<String>,
}

/// A request head for the adapter (`contentLength` must be an exact integer).
pub(crate) fn head_of(env: &Env, h: HttpRequestHead) -> Result<Head> {
    let content_length = h
        .content_length
        .map(|n| convert::u64_in(env, &Either::A(n), "contentLength"))
        .transpose()?;
    Ok(Head {
        method: h.method,
        path: h.path,
        host: h.host,
        origin: h.origin,
        content_type: h.content_type,
        content_length,
        protocol_version: h.protocol_version,
        mcp_method: h.mcp_method,
        mcp_name: h.mcp_name,
        accept: h.accept,
        session_id: h.session_id,
    })
}
