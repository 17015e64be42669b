//! The sans-IO MCP client machine (feature `alloc`): every client rule of the spec for the
//! context primitives, once, for any transport and any binding.
//!
//! [`Client`] takes bytes and time in and gives bytes and events out. It negotiates the era
//! and version (`server/discover` first; a legacy 2025-11-25 server gets `initialize`,
//! docs/rules.md §17.2), builds every request with the per-request `_meta` (docs/rules.md §1.1),
//! correlates responses by id, follows pagination, runs the `input_required` retry loop,
//! opens and routes subscriptions, and answers from a scope-aware result cache.
//!
//! # Run loop
//!
//! ```text
//! host                                   Client
//!  |-- read_resource(uri, policy, now) -->|  CallId; queued until negotiated
//!  |<-- poll_output() -------------------- |  Transmit { bytes: server/discover … }
//!  |-- handle_message(line, now) -------->|  DiscoverResult: version chosen
//!  |<-- poll_output() -------------------- |  Event::Connected, Transmit { resources/read … }
//!  |-- handle_message(line, now) -------->|
//!  |<-- poll_output() -------------------- |  Event::ResourceRead { call, reply }
//!  |-- handle_timeout(now) at poll_timeout()
//!  |-- handle_close(now) when the transport ends
//! ```
//!
//! **Drain rule**: after every input (a call, [`Client::handle_message`],
//! [`Client::handle_timeout`], [`Client::handle_close`],
//! [`Client::handle_request_failed`], [`Client::cancel`], [`Client::respond_input`]) call
//! [`Client::poll_output`] until it returns `None`, then arm
//! a timer for [`Client::poll_timeout`].
//!
//! ```
//! use mcp_context::client::{CachePolicy, Client, ClientConfig, Event, Output};
//! let mut client = Client::new(ClientConfig::new("example", "1.0.0")).unwrap();
//! let call = client.read_resource("file:///a.txt", CachePolicy::PreferCache, 0);
//! let Some(Output::Transmit(probe)) = client.poll_output() else { panic!() };
//! assert_eq!(probe.method.as_deref(), Some("server/discover"));
//! client.handle_message(br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",
//!   "supportedVersions":["2026-07-28"],"capabilities":{"resources":{}},"ttlMs":0,
//!   "cacheScope":"public"}}"#, 5);
//! assert!(matches!(client.poll_output(), Some(Output::Event(Event::Connected(_)))));
//! let Some(Output::Transmit(read)) = client.poll_output() else { panic!() };
//! assert_eq!((read.id, read.name.as_deref()), (Some(2), Some("file:///a.txt")));
//! client.handle_message(br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete",
//!   "contents":[{"uri":"file:///a.txt","text":"hi"}],"ttlMs":60000,"cacheScope":"private"}}"#, 9);
//! let Some(Output::Event(Event::ResourceRead { call: c, reply })) = client.poll_output() else { panic!() };
//! assert_eq!((c, reply.view().unwrap().contents.len()), (call, 1));
//! assert!(client.read_cached("file:///a.txt", 10).is_some());
//! ```
//!
//! # Rules, with their source
//!
//! * Ids are integers, increasing, never reused while outstanding (docs/rules.md §1.1); a response
//!   matches only the same JSON type (`"2"` never answers `2`). Unknown ids are
//!   [`Event::UnknownResponse`]; garbage is [`Event::PeerError`]; neither stops the machine.
//! * `resultType` absent reads as complete; an unrecognised one fails the call with
//!   [`CallError::InvalidResult`] (docs/rules.md §1.2, §16.1 rule 8).
//! * Errors are typed ([`ServerError`]): not found is `-32602` with `data.uri` or the legacy
//!   `-32002` (docs/rules.md §16.1 rule 10); `-32022` carries `supported`/`requested` and triggers
//!   one retry at the best common version; `-32021` carries `requiredCapabilities`.
//! * Pagination follows `nextCursor` until it is absent; `""` is a cursor (docs/rules.md §3,
//!   §16.3 rule 18); aggregated walks stop at [`ClientConfig::max_pages`].
//! * `input_required` (docs/rules.md §13, §16.8 rule 47): new id, original params,
//!   `inputResponses` under the requested keys, `requestState` echoed byte-exact or
//!   omitted; at most [`ClientConfig::max_input_rounds`] rounds; retried results are never
//!   cached.
//! * Subscriptions (docs/rules.md §11, §16.9): the ack is compared with the request
//!   ([`Event::Acknowledged`] lists what was refused); notifications are routed by
//!   `subscriptionId`; a close without the listen result is [`EndReason::UnexpectedClose`]
//!   with the filter to re-send; cancelling sends `notifications/cancelled` on stdio.
//! * Cache (docs/rules.md §4, §16.4): results of `server/discover`, the lists and
//!   `resources/read` are stored with their `ttlMs`/`cacheScope`, keyed by method + cursor
//!   or URI, private ones per [`AuthContext`](crate::cache::AuthContext); change
//!   notifications invalidate; a rejected cursor drops that list's pages.
//! * Dual era (docs/rules.md §17.2): any probe error other than a recognised modern one, or no
//!   answer within [`ClientConfig::probe_timeout_ms`], falls back to `initialize` +
//!   `notifications/initialized` (on HTTP, a probe the host reports with
//!   [`Client::handle_request_failed`], e.g. a 404 with an empty body, falls back too);
//!   listen is emulated with `resources/subscribe` /
//!   `unsubscribe` and unsolicited notifications are routed by method; `ping` is answered.
//!
//! * Methods the machine does not own (`tools/list`, `tools/call`, vendor methods):
//!   [`Client::request`] sends the host's params object with the machine's `_meta`, id,
//!   deadline, version retry and `input_required` loop; the result object arrives as
//!   [`Event::Responded`]. `tools/list` is best asked with [`Client::list_tools`], paged
//!   like the other lists ([`Event::ToolsListed`]); either way a `tools/list` result loses
//!   the tools whose `x-mcp-header` annotations are invalid ([`tool_headers`]; the client
//!   MUST reject them), and a
//!   `tools/call` of a listed tool carries its `Mcp-Param-*` headers
//!   ([`Transmit::param_headers`]). [`Transmit::http_headers`] gives every header of the
//!   POST, values encoded ([`header_value`]; docs/rules.md §15.1).
//!
//! # Not done here
//!
//! Transports (moving bytes; the framing pieces they share are [`crate::stdio`] and
//! [`crate::http::sse`], and a 2025-11-25 HTTP session is tracked here from the response
//! heads the host reports, [`Client::handle_http_response`]),
//! fulfilling input requests (the host answers them), and polling (clients SHOULD NOT poll
//! on TTL, docs/rules.md §16.4 rule 28): the machine never re-fetches by itself.

mod call;
mod config;
mod error;
mod event;
mod forget;
mod handshake;
mod inbound;
mod input;
mod listen;
mod machine;
mod pending;
pub mod reply;
mod requests;
mod results;
mod session;
mod tools;
mod wire;

pub use call::{CachePolicy, CallId, CompletionRef, ListMode};
pub use config::{ClientConfig, ConfigError, Transport};
pub use error::{CallError, ClientError, ConnectError, PeerError, ServerError};
pub use event::{EndReason, Era, Event, Notice, Output, ServerFeatures, Session, Transmit};
pub use machine::Client;
pub use reply::{Listing, Reply};
pub use session::SESSION_HEADER;
pub use tools::{ToolHeaderError, header_value, param_headers, tool_headers};
