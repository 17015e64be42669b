//! Python bindings of `mcp-context`: the extension module `mcp_context._core`, re-exported by
//! the pure-Python package `mcp_context` (`python/mcp_context/`: `server.App`, `aio.Client`).
//!
//! Thin by rule (STYLE convention 15): each file converts one concept's types and errors and
//! holds no protocol logic; everything else lives in the core crate. One file per concept:
//!
//! * `errors.rs`: the exception hierarchy (`McpContextError` → `TemplateError`,
//!   `InvalidMessage`, `PathError`, `HttpError`, `RegisterError`, `ConfigError`,
//!   `RespondError`, `ClientError`, `McpError`) and the mapping from core error types.
//! * `error_code.rs`: `ErrorCode`, the JSON-RPC error codes as an `IntEnum`.
//! * `template.rs`: `UriTemplate` (RFC 6570 parse, expand, match) and the conversion of
//!   Python values to template variables.
//! * `router.rs`: `Router` (the core's indexed template router).
//! * `pyjson.rs`: JSON text ↔ Python objects; dicts in the spec's shape → the core's owned
//!   types through `FromJsonText` (the core validates).
//! * `server.rs`: `ServerMachine`, `Handle` and the server's output classes.
//! * `client.rs`: `ClientMachine` and the client's output classes.
//! * `cache.rs`: `Cache`; `context.rs`: `select_context`; `file_root.rs`: `FileRoot`;
//!   `http.rs`: `check_origin`, `check_headers`, `http_status`.
//! * `http_entry.rs`: `HttpResponse` and the request head of `ServerMachine.http_head` /
//!   `handle_http` (the core's HTTP entry point).
//! * `host_kit.rs`: `sse_event`, `SSE_KEEPALIVE`, `SSE_KEEPALIVE_INTERVAL_MS`, `SseDecoder`,
//!   `StdioLines`, `LineTooLong`: the runners' framing, from the core.
//! * `auth.rs`: `Authorizer` (the core's client-side OAuth flow) and its actions.
//! * `waker.rs`: the output-ready signal (`set_waker(callback)`) as a `Waker`.
//!
//! Time is `now_ms: int` (milliseconds) everywhere, as in the core.
//!
//! Panic policy: a panic is a bug, and input never causes one (the core is panic-free); pyo3
//! turns one that slips through into `pyo3_runtime.PanicException` at the boundary.
//!
//! Each concept has its own file and one `register` call below. The public surface is mirrored,
//! with docstrings, in `python/mcp_context/_core.pyi`; `tests/test_surface.py` keeps the two in
//! step.

use pyo3::prelude::*;

mod auth;
mod cache;
mod client;
mod client_convert;
mod client_events;
mod context;
mod error_code;
mod errors;
mod file_root;
mod fleet;
mod host_kit;
mod http;
mod http_entry;
mod observe;
mod protect;
mod pyjson;
mod router;
mod server;
mod server_access;
mod server_answer;
mod server_config;
mod server_events;
mod server_gate;
mod server_registry;
mod sessions;
mod template;
mod waker;

/// MCP 2026-07-28 context primitives on a sans-IO Rust core: RFC 6570 URI templates and
/// routing, the server and client machines, the result cache, context selection, the
/// ``file://`` root mapper and the Streamable HTTP checks. Time is ``now_ms`` (int
/// milliseconds). Bad input raises a subclass of ``McpContextError``; nothing panics.
#[pymodule(name = "_core")]
fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The core's identifier tables (`mcp_context::ident::TABLES`), for the binding's table
    // test (tests/test_idents.py): every spelling the binding exposes comes from them.
    let tables = pyo3::types::PyDict::new(m.py());
    for (name, idents) in mcp_context::ident::TABLES {
        tables.set_item(*name, idents.to_vec())?;
    }
    m.add("_IDENT_TABLES", tables)?;
    m.add(
        "PROTOCOL_VERSION",
        mcp_context::error_code::version::CURRENT,
    )?;
    errors::register(m)?;
    error_code::register(m)?;
    template::register(m)?;
    router::register(m)?;
    cache::register(m)?;
    context::register(m)?;
    file_root::register(m)?;
    http::register(m)?;
    http_entry::register(m)?;
    host_kit::register(m)?;
    client::register(m)?;
    server::register(m)?;
    observe::register(m)?;
    server_gate::register(m)?;
    auth::register(m)?;
    fleet::register(m)?;
    sessions::register(m)?;
    // `mcp_context/__init__.py` re-exports exactly these.
    m.add(
        "__all__",
        [
            "PROTOCOL_VERSION",
            "ErrorCode",
            "McpContextError",
            "TemplateError",
            "InvalidMessage",
            "PathError",
            "HttpError",
            "RegisterError",
            "ConfigError",
            "RespondError",
            "ClientError",
            "McpError",
            "UriTemplate",
            "Router",
            "Cache",
            "FileRoot",
            "select_context",
            "check_origin",
            "check_headers",
            "http_status",
            "HttpResponse",
            "sse_event",
            "SSE_KEEPALIVE",
            "SSE_KEEPALIVE_INTERVAL_MS",
            "SseDecoder",
            "StdioLines",
            "LineTooLong",
            "ClientMachine",
            "ClientTransmit",
            "CloseStream",
            "Connected",
            "ClientReply",
            "Listed",
            "InputRequired",
            "Failed",
            "Acknowledged",
            "Notified",
            "SubscriptionEnded",
            "ClientNotice",
            "ServerMachine",
            "Fleet",
            "decode_fleet_event",
            "Handle",
            "Transmit",
            "Retry",
            "ReadResource",
            "GetPrompt",
            "Complete",
            "Request",
            "CallTool",
            "ListResources",
            "Cancelled",
            "StreamOverflow",
            "app_cursor",
            "parse_app_cursor",
            "Authorizer",
            "AuthFetch",
            "AuthAuthorize",
            "AuthStore",
            "AuthRetry",
            "AuthFailed",
            "AUTH_ENTROPY_LEN",
        ],
    )?;
    Ok(())
}
