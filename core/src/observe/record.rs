//! The observation records: one per finished request, one per refusal by a limit.

use alloc::string::String;
use alloc::vec::Vec;

use super::TraceParent;
use crate::server::{StreamId, Transport};

/// The protocol era a request was served in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2026-07-28: stateless, `_meta` on every request.
    Modern,
    /// 2025-11-25: `initialize`, a connection or an HTTP session.
    Legacy,
}

impl Era {
    /// `"2026-07-28"`-era or `"2025-11-25"`-era, as a label.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Modern => "modern",
            Self::Legacy => "legacy",
        }
    }
}

/// What a successful answer was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultKind {
    /// A complete result.
    Complete,
    /// A tool result with `isError: true` (the tool ran and failed).
    ToolError,
    /// `resultType: "input_required"`: the client must retry with input (docs/rules.md §13).
    InputRequired,
}

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A result.
    Result(ResultKind),
    /// A JSON-RPC error answer with this code.
    Error(i32),
    /// No answer: the client cancelled, or its stream closed (a listen ends this way).
    Cancelled,
}

impl Outcome {
    /// A result, not a tool error.
    #[must_use]
    pub const fn is_success(&self) -> bool {
        matches!(
            self,
            Self::Result(ResultKind::Complete | ResultKind::InputRequired)
        )
    }

    /// The JSON-RPC error code, on an error answer.
    #[must_use]
    pub const fn error_code(&self) -> Option<i32> {
        match self {
            Self::Error(c) => Some(*c),
            _ => None,
        }
    }

    /// The `error.type` value (docs/rules.md §26.2): the error code as decimal text,
    /// `tool_error`, or `cancelled`; `None` on success. Writes into `buf`, no allocation.
    #[must_use]
    pub fn error_type<'b>(&self, buf: &'b mut [u8; 12]) -> Option<&'b str> {
        match self {
            Self::Result(ResultKind::ToolError) => Some("tool_error"),
            Self::Cancelled => Some("cancelled"),
            Self::Error(code) => Some(decimal(buf, *code)),
            Self::Result(_) => None,
        }
    }

    /// A low-cardinality label for counters: `ok`, `input_required`, `tool_error`,
    /// `cancelled` or `error`.
    #[must_use]
    pub const fn label(&self) -> &'static str {
        match self {
            Self::Result(ResultKind::Complete) => "ok",
            Self::Result(ResultKind::InputRequired) => "input_required",
            Self::Result(ResultKind::ToolError) => "tool_error",
            Self::Cancelled => "cancelled",
            Self::Error(_) => "error",
        }
    }
}

/// `code` in decimal, written into `buf` (an `i32` needs at most 11 bytes).
fn decimal(buf: &mut [u8; 12], code: i32) -> &str {
    struct Cursor<'b>(&'b mut [u8], usize);
    impl core::fmt::Write for Cursor<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let end = self.1 + s.len();
            let dst = self.0.get_mut(self.1..end).ok_or(core::fmt::Error)?;
            dst.copy_from_slice(s.as_bytes());
            self.1 = end;
            Ok(())
        }
    }
    let mut c = Cursor(buf, 0);
    let n = match core::fmt::Write::write_fmt(&mut c, format_args!("{code}")) {
        Ok(()) => c.1,
        Err(_) => 0,
    };
    buf.get(..n)
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or_default()
}

/// One finished request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestObservation {
    /// `mcp.method.name`.
    pub method: String,
    /// `jsonrpc.request.id`: the id as text (a string id without its quotes).
    pub request_id: String,
    /// The target: the tool name (`tools/call`, `gen_ai.tool.name`), the prompt name
    /// (`prompts/get`, `gen_ai.prompt.name`) or the URI (`resources/read`,
    /// `resources/subscribe`, `resources/unsubscribe`, `mcp.resource.uri`).
    pub target: Option<String>,
    /// The caller-context id of the request's [`Ctx`](crate::server::Ctx) (`0` = anonymous).
    pub caller: u64,
    /// The stream it came on.
    pub stream: StreamId,
    /// The transport.
    pub transport: Transport,
    /// The era it was served in.
    pub era: Era,
    /// `mcp.protocol.version` when the request names it (2026-07-28 `_meta`).
    pub protocol_version: Option<String>,
    /// `mcp.session.id`: the 2025-11-25 HTTP session, when there is one.
    pub session_id: Option<String>,
    /// `params._meta.traceparent` as received (validate with [`RequestObservation::trace_parent`]).
    pub traceparent: Option<String>,
    /// `params._meta.tracestate` as received.
    pub tracestate: Option<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// What middleware added ([`Server::annotate`](crate::server::Server::annotate)), in order.
    pub annotations: Vec<(String, String)>,
    /// The host's clock (ms) when the request was received.
    pub start_ms: u64,
    /// The host's clock (ms) passed to the `poll_observation` that returned it.
    pub end_ms: u64,
}

impl RequestObservation {
    /// The span name of the conventions: `{method} {target}` with a tool or prompt name,
    /// `{method}` otherwise (a URI is high-cardinality and stays an attribute).
    #[must_use]
    pub fn span_name(&self) -> String {
        match (&self.target, self.method.as_str()) {
            (Some(t), "tools/call" | "prompts/get") => {
                let mut s = String::with_capacity(self.method.len() + 1 + t.len());
                s.push_str(&self.method);
                s.push(' ');
                s.push_str(t);
                s
            }
            _ => self.method.clone(),
        }
    }

    /// The attribute key the target goes under: `gen_ai.tool.name`, `gen_ai.prompt.name`
    /// or `mcp.resource.uri`.
    #[must_use]
    pub fn target_attribute(&self) -> Option<&'static str> {
        self.target.as_ref()?;
        match self.method.as_str() {
            "tools/call" => Some(super::attr::TOOL_NAME),
            "prompts/get" => Some(super::attr::PROMPT_NAME),
            _ => Some(super::attr::RESOURCE_URI),
        }
    }

    /// The span's parent: the `_meta` `traceparent`, else the HTTP header's
    /// ([`TraceParent::choose`]).
    #[must_use]
    pub fn trace_parent<'a>(&'a self, header: Option<&'a str>) -> Option<TraceParent<'a>> {
        TraceParent::choose(self.traceparent.as_deref(), header)
    }

    /// `end_ms - start_ms`, in seconds (the duration histogram's unit).
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // durations in ms are far below 2^52
    pub fn duration_s(&self) -> f64 {
        self.end_ms.saturating_sub(self.start_ms) as f64 / 1000.0
    }
}

/// The limit that refused a request (docs/rules.md §26.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// `ServerConfig::max_pending_per_stream`.
    PendingPerStream,
    /// `ServerConfig::max_pending`.
    Pending,
    /// `ServerConfig::max_listens_per_stream`.
    ListensPerStream,
    /// `ServerConfig::max_listens`.
    Listens,
    /// `ServerConfig::max_sessions`.
    Sessions,
    /// `ServerConfig::max_sessions_per_peer`.
    SessionsPerPeer,
    /// `HttpConfig::max_body` (HTTP 413).
    Body,
    /// `ServerConfig::max_line` (a stdio line over the bound).
    Line,
    /// [`Server::limit_responses`](crate::server::Server::limit_responses): an answer over
    /// the cap, replaced by [`RESPONSE_TOO_LARGE`](super::RESPONSE_TOO_LARGE).
    Response,
    /// A runner's rate limit ([`RATE_LIMITED`](super::RATE_LIMITED)); the core never
    /// refuses with it, runners report their own.
    Rate,
}

impl Limit {
    /// The label of `mcp_context.limit`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::PendingPerStream => "pending_per_stream",
            Self::Pending => "pending",
            Self::ListensPerStream => "listens_per_stream",
            Self::Listens => "listens",
            Self::Sessions => "sessions",
            Self::SessionsPerPeer => "sessions_per_peer",
            Self::Body => "body",
            Self::Line => "line",
            Self::Response => "response",
            Self::Rate => "rate",
        }
    }
}

/// One refusal by a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// Which limit.
    pub limit: Limit,
    /// The caller-context id (`0` = anonymous).
    pub caller: u64,
    /// The stream of the refused request.
    pub stream: StreamId,
    /// The host's clock (ms) at the refusal.
    pub at_ms: u64,
}

/// What [`Server::poll_observation`](crate::server::Server::poll_observation) gives.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // moved once, from the machine to the host
pub enum Observation {
    /// A request finished.
    Request(RequestObservation),
    /// A limit refused a request (it is also reported as a finished request when it had an
    /// id and an answer).
    Refused(Refusal),
}
