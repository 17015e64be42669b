//! The transport's facts for `ServerMachine`: where a message came from
//! (`MessageContext`) and the head of a Streamable HTTP request (`HttpRequestHead`), as the
//! adapter's `Head`.

use mcp_context_node_adapter::server::Head;
use napi_derive::napi;

use crate::convert::Int;

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
    /// The client's IP address (HTTP), for the per-peer bound on 2025-11-25 sessions;
    /// absent, or text that is not an IP address: no bound.
    pub peer: Option<String>,
    /// The verified caller's scope bits (`httpAdmit`'s `scopes`) on a protected endpoint;
    /// absent: no per-caller scopes.
    #[napi(ts_type = "number | bigint")]
    pub scopes: Option<Int>,
}

/// A Streamable HTTP request head as the runner has it (`httpHead`, `handleHttp`): the
/// core maps the header lines to what it checks (names case-insensitive, values trimmed,
/// repeats joined; HTTP/2's `:authority` stands for a missing `Host`).
#[napi(object)]
pub struct HttpRequestHead {
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target (a query string may stay on).
    pub path: String,
    /// The header lines, flat: `[name, value, name, value, …]` (node:http's `rawHeaders`).
    pub headers: Vec<String>,
}

/// A request head for the adapter.
pub(crate) fn head_of(h: HttpRequestHead) -> Head {
    Head::from_flat(h.method, h.path, h.headers)
}
