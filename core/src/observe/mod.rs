//! Sans-IO observations: what a runner needs to emit traces, metrics and request logs with
//! the same names in every language (docs/operations.md, docs/rules.md §26).
//!
//! The server machine already knows every request's method, target, caller, era and outcome,
//! and every refusal by a limit. With [`Server::observe`](crate::server::Server::observe) on,
//! it records them; the host drains them with
//! [`Server::poll_observation`](crate::server::Server::poll_observation), passing its clock,
//! right after it drained [`Server::poll_output`](crate::server::Server::poll_output) (the
//! end of a request is when its answer left the machine). Off (the default), the machine
//! records nothing and allocates nothing for it: one branch per output.
//!
//! ```
//! use mcp_context::observe::{Observation, attr};
//! use mcp_context::server::{Ctx, Server, ServerConfig, StreamId};
//!
//! let mut server = Server::new(ServerConfig::default()).unwrap();
//! server.observe(true);
//! let ping = br#"{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":{
//!   "io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!   "io.modelcontextprotocol/clientCapabilities":{},
//!   "traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}"#;
//! server.handle_message(ping, 1_000, Ctx::stdio(StreamId(0)));
//! while server.poll_output().is_some() {}
//! let Some(Observation::Request(r)) = server.poll_observation(1_004) else { panic!() };
//! assert_eq!((r.method.as_str(), r.request_id.as_str()), ("server/discover", "7"));
//! assert_eq!((r.start_ms, r.end_ms), (1_000, 1_004));
//! assert!(r.outcome.is_success());
//! assert_eq!(r.trace_parent(None).unwrap().span_id_hex(), "00f067aa0ba902b7");
//! assert_eq!(attr::METHOD_NAME, "mcp.method.name");
//! ```

#[cfg(feature = "alloc")]
mod record;
mod trace;
#[cfg(feature = "alloc")]
pub(crate) mod track;

#[cfg(feature = "alloc")]
pub use record::{Era, Limit, Observation, Outcome, Refusal, RequestObservation, ResultKind};
pub use trace::TraceParent;

/// The JSON-RPC error code of an answer replaced because it was over
/// [`Server::limit_responses`](crate::server::Server::limit_responses) (outside the
/// reserved range, docs/rules.md §26.6).
pub const RESPONSE_TOO_LARGE: i32 = -31_413;

/// The JSON-RPC error code every runner's rate limit refuses with, message
/// `Rate limit exceeded: retry after N ms` (outside the reserved range, docs/rules.md §26.6).
pub const RATE_LIMITED: i32 = -31_429;

/// Attribute and metric names, from the OpenTelemetry semantic conventions for MCP and
/// GenAI (status: development). Every runner uses these constants (or their values, listed
/// in docs/operations.md) so traces read the same whatever served them.
pub mod attr {
    /// The JSON-RPC method (`tools/call`, `resources/read`, …).
    pub const METHOD_NAME: &str = "mcp.method.name";
    /// The 2025-11-25 HTTP session (`Mcp-Session-Id`); 2026-07-28 has no sessions.
    pub const SESSION_ID: &str = "mcp.session.id";
    /// The resource URI of `resources/read`, `resources/subscribe`, `resources/unsubscribe`.
    pub const RESOURCE_URI: &str = "mcp.resource.uri";
    /// The protocol revision the request was served in.
    pub const PROTOCOL_VERSION: &str = "mcp.protocol.version";
    /// The request id, as text (a string id without its quotes).
    pub const REQUEST_ID: &str = "jsonrpc.request.id";
    /// The JSON-RPC error code as text, on an error answer.
    pub const RESPONSE_STATUS_CODE: &str = "rpc.response.status_code";
    /// The error class: the JSON-RPC error code as text, `tool_error` for a tool result
    /// with `isError: true`, `cancelled` for a request that got no answer.
    pub const ERROR_TYPE: &str = "error.type";
    /// The tool of `tools/call`.
    pub const TOOL_NAME: &str = "gen_ai.tool.name";
    /// The prompt of `prompts/get`.
    pub const PROMPT_NAME: &str = "gen_ai.prompt.name";
    /// `execute_tool` on `tools/call`.
    pub const OPERATION_NAME: &str = "gen_ai.operation.name";
    /// `pipe` (stdio) or `tcp` (HTTP).
    pub const NETWORK_TRANSPORT: &str = "network.transport";
    /// This project's: the caller-context id the host resolved (`0` = anonymous).
    pub const CALLER: &str = "mcp_context.caller";
    /// This project's: the limit that refused a request ([`Limit::as_str`](super::Limit::as_str)).
    pub const LIMIT: &str = "mcp_context.limit";
    /// This project's: `input_required` when the answer asks the client for input.
    pub const RESULT_TYPE: &str = "mcp_context.result_type";

    /// Histogram (seconds): a request from receipt until its answer left the machine.
    pub const SERVER_OPERATION_DURATION: &str = "mcp.server.operation.duration";
    /// This project's counter: requests by method and outcome.
    pub const REQUESTS: &str = "mcp_context.server.requests";
    /// This project's counter: refusals by limit.
    pub const REFUSALS: &str = "mcp_context.server.refusals";
    /// This project's up-down counter: open listen subscriptions.
    pub const OPEN_LISTENS: &str = "mcp_context.server.open_listens";
    /// This project's up-down counter: open 2025-11-25 HTTP sessions.
    pub const OPEN_SESSIONS: &str = "mcp_context.server.open_sessions";
    /// This project's counters: broker messages published and delivered.
    pub const BROKER_PUBLISHED: &str = "mcp_context.broker.published";
    /// See [`BROKER_PUBLISHED`].
    pub const BROKER_DELIVERED: &str = "mcp_context.broker.delivered";

    /// The `execute_tool` value of [`OPERATION_NAME`].
    pub const EXECUTE_TOOL: &str = "execute_tool";
}
