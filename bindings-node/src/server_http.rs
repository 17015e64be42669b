//! The transport's facts for `ServerMachine`: where a message came from
//! (`MessageContext`), the head of a Streamable HTTP request (`HttpRequestHead`) as the
//! core's `RequestHead`, and the core's HTTP responses and header lists as JS values.

use mcp_context::http::{HttpResponse, RequestHead};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, Object};
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
    /// The client's IP address (HTTP), for the per-peer bound on 2025-11-25 sessions;
    /// absent, or text that is not an IP address: no bound.
    pub peer: Option<String>,
}

/// `MessageContext.peer` as the core's `Ctx::peer`.
pub(crate) fn peer(context: &MessageContext) -> Option<std::net::IpAddr> {
    context.peer.as_deref().and_then(|p| p.parse().ok())
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

pub(crate) fn head_length(env: &Env, head: &HttpRequestHead) -> Result<Option<u64>> {
    head.content_length
        .map(|n| convert::u64_in(env, &Either::A(n), "contentLength"))
        .transpose()
}

pub(crate) fn request_head(head: &HttpRequestHead, content_length: Option<u64>) -> RequestHead<'_> {
    RequestHead {
        method: &head.method,
        path: &head.path,
        host: head.host.as_deref(),
        origin: head.origin.as_deref(),
        content_type: head.content_type.as_deref(),
        content_length,
        protocol_version: head.protocol_version.as_deref(),
        mcp_method: head.mcp_method.as_deref(),
        mcp_name: head.mcp_name.as_deref(),
        accept: head.accept.as_deref(),
        session_id: head.session_id.as_deref(),
    }
}

pub(crate) fn header_pairs<'e, 'a>(
    env: &'e Env,
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<napi::bindgen_prelude::Array<'e>> {
    let mut out = env.create_array(0)?;
    for (k, v) in pairs {
        let mut pair = env.create_array(2)?;
        pair.set(0, k)?;
        pair.set(1, v)?;
        out.insert(pair)?;
    }
    Ok(out)
}

pub(crate) fn http_response<'e>(env: &'e Env, r: HttpResponse) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    o.set_named_property("status", u32::from(r.status))?;
    o.set_named_property(
        "headers",
        header_pairs(env, r.headers.iter().map(|(k, v)| (*k, v.as_str())))?,
    )?;
    o.set_named_property("body", Buffer::from(r.body))?;
    Ok(o)
}
