//! Server-side pieces: the sans-IO server machine ([`Server`], feature `alloc`) and the
//! pure helpers it builds on ([`file_root`]).
//!
//! [`Server`] holds every MCP 2026-07-28 server rule for the context primitives once
//! (docs/rules.md §1–§13, checklist §16): per-request validation, `server/discover`, paginated
//! lists, `resources/read`, `prompts/get`, `completion/complete`, `subscriptions/listen` and
//! `input_required`. It is dual-era: 2025-11-25 clients (`initialize`, HTTP sessions) are
//! served by the same rules (`legacy`). Its Streamable HTTP entry point
//! ([`Server::handle_http`]) decides every status and header. It takes bytes and time in and
//! gives bytes and events out; the host only moves bytes. The contract is
//! `docs/server-machine.md`.
//!
//! # Run loop
//!
//! ```
//! use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
//! use mcp_context::server::{Ctx, Event, Output, ResourceEntry, Server, ServerConfig, StreamId};
//!
//! let mut server = Server::new(ServerConfig::default()).unwrap();
//! server.add_resource(ResourceEntry {
//!     resource: OwnedResource::new("notes://acme/1", "note 1"),
//!     contents: None, // ask the application
//!     cache: None,
//! }).unwrap();
//!
//! let ctx = Ctx::stdio(StreamId(0));
//! let read = br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{
//!   "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!   "io.modelcontextprotocol/clientCapabilities":{}},"uri":"notes://acme/1"}}"#;
//! server.handle_message(read, 1_000, ctx);
//!
//! // Drain rule: after every input, poll until `None`.
//! while let Some(out) = server.poll_output() {
//!     match out {
//!         Output::Transmit(t) => { /* write t.bytes + "\n" on stdout */ }
//!         Output::Event(Event::ReadResource(ev)) => {
//!             let text = OwnedResourceContents::text(&ev.uri, Some("text/plain"), "hello");
//!             server.respond_read(ev.handle, vec![text]).unwrap();
//!         }
//!         Output::Event(_) => {}
//!     }
//! }
//! if let Some(deadline) = server.poll_timeout() {
//!     // arm a timer; when it fires: server.handle_timeout(now)
//!     # let _ = deadline;
//! }
//! ```
//!
//! # Modules
//!
//! | module | one job |
//! | --- | --- |
//! | `io` | [`Ctx`], [`Received`], [`Output`], [`Transmit`] |
//! | `event` | [`Event`] and its payloads, [`Handle`] |
//! | `config` | [`ServerConfig`], [`CacheHint`] |
//! | `registry` | resources, templates, prompts, value sets, visibility |
//! | `route` | [`check_uri`] and the [`TemplateRouter`] seam |
//! | `page` | opaque keyset cursors, [`AppCursor`] |
//! | `machine` | the state, registration, validation pipeline |
//! | `legacy` | the 2025-11-25 era: `initialize`, `ping`, `resources/subscribe`, sessions, result shapes |
//! | `http` | the Streamable HTTP entry point: [`Server::http_head`], [`Server::handle_http`] |
//! | `protect` | the protected endpoint's door ([`Server::http_authenticate`]) and item scopes |
//! | `gate` | every request shown to the host's middleware first: [`Server::gate`] |
//! | `handlers` | one handler per method |
//! | `extension` | methods and capabilities the host adds |
//! | `tools` | the tool registry: `tools/list`, `tools/call`, tool results and errors |
//! | `dynamic` | the host's own `resources/list` pages |
//! | `reply` | `respond_*`, [`Server::fail`] |
//! | `notify` | listen fan-out, bounded queues, shutdown |
//! | `progress` | `notifications/progress` by handle |
//! | `log` | `notifications/message`: [`Server::log_for`], [`Server::log`] |
//! | `mrtr` | sealing and verifying `requestState` |
//! | `complete` | built-in completion |
//! | `pending`, `subscriptions`, `outbox` | internal tables |

pub mod file_root;

#[cfg(feature = "alloc")]
mod complete;
#[cfg(feature = "alloc")]
mod config;
#[cfg(feature = "alloc")]
mod discover;
#[cfg(feature = "alloc")]
mod dynamic;
#[cfg(feature = "alloc")]
mod event;
#[cfg(feature = "alloc")]
mod extension;
#[cfg(feature = "alloc")]
mod gate;
#[cfg(feature = "alloc")]
mod handlers;
#[cfg(feature = "alloc")]
mod http;
#[cfg(feature = "alloc")]
mod io;
#[cfg(all(feature = "alloc", feature = "legacy"))]
mod legacy;
#[cfg(all(feature = "alloc", not(feature = "legacy")))]
#[path = "legacy_off.rs"]
mod legacy;
#[cfg(feature = "alloc")]
mod line;
#[cfg(feature = "alloc")]
mod log;
#[cfg(feature = "alloc")]
mod machine;
#[cfg(feature = "alloc")]
mod mrtr;
#[cfg(feature = "alloc")]
mod notify;
#[cfg(feature = "alloc")]
mod observe;
#[cfg(feature = "alloc")]
mod outbox;
#[cfg(feature = "alloc")]
mod page;
#[cfg(feature = "alloc")]
mod pending;
#[cfg(feature = "alloc")]
mod progress;
#[cfg(feature = "alloc")]
mod protect;
#[cfg(feature = "alloc")]
mod raw_ids;
#[cfg(feature = "alloc")]
mod read_json;
#[cfg(feature = "alloc")]
mod register;
#[cfg(feature = "alloc")]
mod registry;
#[cfg(feature = "alloc")]
mod reply;
mod route;
#[cfg(feature = "alloc")]
mod sort;
#[cfg(feature = "alloc")]
mod subscriptions;
#[cfg(feature = "alloc")]
mod tools;
#[cfg(feature = "alloc")]
mod vecmap;

#[cfg(feature = "alloc")]
pub use complete::complete_from;
#[cfg(feature = "alloc")]
pub use config::{CacheHint, ConfigError, SealingKey, ServerConfig, UnknownLimit};
#[cfg(feature = "alloc")]
pub use event::{
    CancelReason, CompletionEvent, CompletionTarget, DeclaredCapabilities, Event, Handle,
    ListEvent, PromptEvent, ReadEvent, ReadTarget, RequestEvent, Retry, ToolEvent,
};
#[cfg(feature = "alloc")]
pub use gate::GateRequest;
#[cfg(feature = "alloc")]
pub use io::{BodyKind, Ctx, Output, Received, StreamId, Transmit, Transport};
#[cfg(all(feature = "alloc", feature = "legacy"))]
pub use legacy::LEGACY_VERSIONS;
#[cfg(all(feature = "alloc", feature = "legacy"))]
pub use legacy::{
    SESSION_ORIGIN_LEN, SessionChange, SessionEvent, SessionImportError, SessionLoad,
    SessionMessage, session_event_seq,
};
#[cfg(feature = "alloc")]
pub use machine::Server;
#[cfg(feature = "alloc")]
pub use mrtr::InputRequired;
#[cfg(feature = "alloc")]
pub use page::AppCursor;
#[cfg(feature = "alloc")]
pub use protect::{Gate, Scoped};
#[cfg(feature = "alloc")]
pub use read_json::ReadContents;
#[cfg(feature = "alloc")]
pub use registry::{
    Listed, PromptEntry, RegisterError, ResourceEntry, TemplateEntry, TemplateId, ValueSet,
    VisibilityFilter,
};
#[cfg(feature = "alloc")]
pub use reply::{Failure, RespondError};
#[cfg(feature = "alloc")]
pub use route::{IndexedRouter, NoRouter, RouteInsertError, TemplateRouter};
pub use route::{MAX_URI_LEN, UriError, check_uri};
