//! A tokio host for the `mcp-context` machines: MCP 2026-07-28 servers from async handlers,
//! served over stdio or Streamable HTTP (axum), and an async client.
//!
//! The core (`mcp_context`) holds every protocol rule and does no I/O; this crate moves
//! bytes, keeps time and runs handlers. It never parses JSON-RPC itself.
//!
//! ```no_run
//! use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
//! use mcp_context_host::{App, Context, ReadRequest, serve_stdio};
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     let mut app = App::named("notes", "1.0.0");
//!     app.template(OwnedResourceTemplate::new("notes://{id}", "note"), |req: ReadRequest, _cx: Context| async move {
//!         let id = req.var("id").unwrap_or_default().to_owned();
//!         Ok(OwnedResourceContents::text(&req.uri, Some("text/plain"), format!("note {id}")))
//!     });
//!     serve_stdio(app).await
//! }
//! ```
//!
//! # Modules
//!
//! | module | one job |
//! | --- | --- |
//! | `app` | [`App`]: configuration and handler registration |
//! | `handler` | what handlers receive and answer: [`ReadRequest`], [`Context`], [`ReadReply`]… |
//! | `error` | [`Error`] and the JSON-RPC error it maps to |
//! | `engine` | the machine behind a mutex: drain, dispatch, timer |
//! | `stdio` | [`serve_stdio`], [`Host::serve`] |
//! | [`http`] | Streamable HTTP on axum: [`Host::router`], [`Host::serve_http`] |
//! | `notify` | [`Notifier`]: change notifications from anywhere |
//! | [`protect`] | token verifiers for a protected endpoint: [`protect::JwtVerifier`], [`protect::IntrospectionVerifier`] |
//! | [`telemetry`] | spans, metrics, JSON request log, [`telemetry::Middleware`], rate limit |
//! | [`client`] | [`client::McpClient`]: the async client (stdio child, any pipe, HTTP) |

mod app;
pub mod client;
mod engine;
mod error;
#[cfg(feature = "redis")]
pub mod fleet;
mod handler;
mod host;
pub mod http;
mod ids;
mod notify;
pub mod protect;
#[cfg(feature = "redis")]
pub mod sessions_redis;
mod stdio;
pub mod telemetry;
mod timer;

pub use app::{App, BuildError};
pub use error::Error;
pub use handler::{
    CompleteRequest, Context, HandlerResult, ListPage, ListRequest, MethodReply, MethodRequest,
    PromptReply, PromptRequest, ReadReply, ReadRequest, ToolReply, ToolRequest,
};
pub use host::Host;
pub use notify::Notifier;
pub use stdio::serve_stdio;

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
