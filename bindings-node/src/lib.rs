//! Node bindings of `mcp-context`: the npm package `mcp-context` (napi-rs).
//!
//! Thin by rule (STYLE convention 15): each file converts one concept's types and errors and
//! holds no protocol logic; everything else lives in the core crate. One file per concept:
//!
//! * `errors.rs` (+ `errors.js`): the `Error` subclasses (`McpContextError` →
//!   `TemplateError`, …), their stable `code` strings, and the mapping from core errors.
//! * `error_code.rs`: the `ErrorCode` enum (JSON-RPC error codes).
//! * `template.rs` + `template.js` + `fast.rs`: `UriTemplate` and `Router` (RFC 6570 parse,
//!   expand, match, route); `template.js` extends the native classes with fast paths that pass
//!   one shared `Buffer` to the closures of `fast.rs` instead of JS objects.
//! * `server*.rs`: `ServerMachine` (class, answers, HTTP entry point);
//!   `client*.rs`: `ClientMachine` (class, options); `cache.rs`, `context.rs`,
//!   `http.rs`, `waker.rs`: the cache, request contexts, HTTP heads, output-ready signal;
//!   `auth.rs`: `Authorizer` (the client-side OAuth flow).
//! * `adapt.rs`: the shared adapter crate (`mcp-context-node-adapter`, also under the wasm
//!   engine) on this engine: its values rendered as JS, its errors thrown, JS values read by
//!   its readers. Configuration, events, identifier spellings and the fast paths' buffer
//!   formats are the adapter's.
//! * `shapes.rs` (+ `shapes.js`): the outbox's `readResource` events and transmits made by
//!   JS object literals (one call each instead of a property set per key).
//!
//! Panic policy: a panic is a bug, and input never causes one (the core is panic-free), but
//! every exported method still carries `catch_unwind`, so a bug surfaces as a JS `Error`
//! instead of aborting the process.
//!
//! Doc comments on exported items flow into the generated `index.d.ts`; names are
//! camelCased by napi-rs. The error classes are declared in `dts-header.d.ts`, which the CLI
//! puts at the top of `index.d.ts`.

mod adapt;
mod auth;
mod cache;
mod client;
mod client_config;
mod context;
mod convert;
mod error_code;
mod errors;
mod fast;
mod fleet;
mod http;
mod ident;
mod router;
mod server;
mod server_answer;
mod server_gate;
mod server_http;
mod server_observe;
mod server_protect;
mod server_sessions;
mod shapes;
mod template;
mod waker;

/// The MCP revision this package implements: `"2026-07-28"`.
#[napi_derive::napi]
pub const PROTOCOL_VERSION: &str = mcp_context::error_code::version::CURRENT;
