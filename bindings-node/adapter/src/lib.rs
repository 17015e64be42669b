//! The shared adapter of the npm package `mcp-context-primitives`'s two engines: the napi addon
//! (`bindings-node/src`) and the WebAssembly build (`bindings-node/wasm`). Plain Rust, no FFI:
//! everything both engines do the same way lives here once, and each engine keeps only its
//! FFI surface (reading JS arguments, rendering [`value::Js`], throwing [`error::Error`]).
//!
//! * [`value`]: JS-shaped values (outputs), rendered by the addon as JS objects and by the
//!   wasm crate as JSON text.
//! * [`error`]: the errors both throw or carry, as data.
//! * [`source`], [`config`]: JSON-ish inputs read key by key (configurations, options).
//! * [`server`]: the server machine with its handles, events and HTTP answers.
//! * [`sessions`]: 2025-11-25 sessions shared by a fleet (the request's session, changes).
//! * [`client`]: the client machine's outputs.
//! * [`auth`]: the client-side OAuth flow's configuration, tokens and actions.
//! * [`protect`]: the resource-server side: protection, verified callers, item kinds.
//! * [`observe`]: the core's observations (telemetry) as JS-shaped objects.
//! * [`gate`]: requests stopped for the middleware before the machine (docs/rules.md §26.7).
//! * [`spell`], [`records`]: identifier spellings; the template fast paths' buffer formats.
#![forbid(unsafe_code)]

pub mod auth;
pub mod client;
pub mod config;
pub mod error;
pub mod gate;
pub mod observe;
pub mod protect;
pub mod records;
pub mod server;
pub mod sessions;
pub mod source;
pub mod spell;
pub mod value;

pub use error::{Error, Result};
pub use value::{Js, Obj};
