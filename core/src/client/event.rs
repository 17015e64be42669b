//! What the machine gives out: [`Output`] (bytes to send, a stream to close, or an
//! [`Event`] for the host).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::call::CallId;
use super::error::{CallError, ConnectError, PeerError};
use super::reply::{self, Listing, Reply};
use crate::jsonrpc::OwnedRequestId;
use crate::messages::owned::{OwnedInputRequest, OwnedJson, OwnedSubscriptionFilter};

/// One output of [`Client::poll_output`](super::Client::poll_output).
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // drained one at a time; boxing would only add a hop
pub enum Output {
    /// Send these bytes to the server.
    Transmit(Transmit),
    /// HTTP only: close the response stream of request `id`: that is the cancellation on
    /// Streamable HTTP (docs/rules.md §11.4, §12).
    CloseStream {
        /// The JSON-RPC id of the request whose stream to close.
        id: i64,
    },
    /// Something for the host.
    Event(Event),
}

/// One message to send. On stdio write `bytes` and a newline (docs/rules.md §15.2); on HTTP POST
/// them with the headers [`Transmit::http_headers`] gives (docs/rules.md §16.10 rule 60).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmit {
    /// One compact JSON-RPC message (no newline inside).
    pub bytes: Vec<u8>,
    /// The JSON-RPC id when the message is a request (`None` for notifications and
    /// responses).
    pub id: Option<i64>,
    /// The JSON-RPC method (`Mcp-Method`), or `None` for a response. Borrowed for the
    /// methods the core owns, owned for a host's method ([`Client::request`](super::Client::request)).
    pub method: Option<Cow<'static, str>>,
    /// `Mcp-Name`, as the body has it (not header-encoded): the `uri` of `resources/read`,
    /// the `name` of `prompts/get` and `tools/call`.
    pub name: Option<String>,
    /// `MCP-Protocol-Version` of a request once the version is settled (and of the
    /// `server/discover` probe).
    pub protocol_version: Option<String>,
    /// `Mcp-Param-{Name}` headers of a `tools/call` whose tool annotates parameters with
    /// `x-mcp-header` (header name, value already encoded); empty otherwise.
    pub param_headers: Vec<(String, String)>,
    /// `Mcp-Session-Id` of a 2025-11-25 HTTP session, once the server assigned one
    /// ([`Client::handle_http_response`](super::Client::handle_http_response)).
    pub session_id: Option<String>,
}

impl Transmit {
    /// Every header of the HTTP POST that carries this message, values ready for the wire:
    /// `Content-Type`, `Accept` (both JSON and SSE, which a client MUST support),
    /// `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (base64-sentinel encoded when it is
    /// not a safe plain value) and the `Mcp-Param-*` headers (spec: Transports › Streamable
    /// HTTP › Standard MCP request headers, Value encoding), and `Mcp-Session-Id` in a
    /// 2025-11-25 session (docs/rules.md §17.2 item 9).
    #[must_use]
    pub fn http_headers(&self) -> Vec<(&str, Cow<'_, str>)> {
        let mut h: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(5 + self.param_headers.len());
        h.push(("Content-Type", Cow::Borrowed("application/json")));
        h.push((
            "Accept",
            Cow::Borrowed("application/json, text/event-stream"),
        ));
        if let Some(v) = &self.protocol_version {
            h.push(("MCP-Protocol-Version", Cow::Borrowed(v)));
        }
        if let Some(m) = &self.method {
            h.push(("Mcp-Method", Cow::Borrowed(m)));
        }
        if let Some(n) = &self.name {
            h.push(("Mcp-Name", super::tools::header_value(n)));
        }
        for (k, v) in &self.param_headers {
            h.push((k, Cow::Borrowed(v)));
        }
        if let Some(s) = &self.session_id {
            h.push((super::SESSION_HEADER, Cow::Borrowed(s)));
        }
        h
    }
}

/// The protocol era of a session (docs/rules.md §17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2026-07-28 and later: per-request `_meta`, `server/discover`, `subscriptions/listen`.
    Modern,
    /// 2025-11-25 and earlier: `initialize` handshake, `resources/subscribe`.
    Legacy,
}

/// What the server declared (from `server/discover` or legacy `initialize`, docs/rules.md §1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerFeatures {
    /// `resources` is declared.
    pub resources: bool,
    /// `resources.subscribe`.
    pub resources_subscribe: bool,
    /// `resources.listChanged`.
    pub resources_list_changed: bool,
    /// `prompts` is declared.
    pub prompts: bool,
    /// `prompts.listChanged`.
    pub prompts_list_changed: bool,
    /// `tools.listChanged`.
    pub tools_list_changed: bool,
    /// `completions` is declared.
    pub completions: bool,
}

/// The negotiated session.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// Modern or legacy.
    pub era: Era,
    /// The protocol version every request now carries.
    pub version: String,
    /// The server's declared features.
    pub features: ServerFeatures,
    /// The handshake result: the `DiscoverResult` (modern) or `InitializeResult` (legacy).
    pub handshake: Reply<reply::Raw>,
}

/// A notification delivered to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// `notifications/resources/updated` for `uri` (possibly a sub-resource of a subscribed
    /// URI, docs/rules.md §12).
    ResourceUpdated {
        /// `params.uri`
        uri: String,
    },
    /// `notifications/resources/list_changed`.
    ResourcesListChanged,
    /// `notifications/prompts/list_changed`.
    PromptsListChanged,
    /// `notifications/tools/list_changed`.
    ToolsListChanged,
}

/// How a subscription ended (docs/rules.md §11.4, §19 item 2).
#[derive(Debug, Clone, PartialEq)]
pub enum EndReason {
    /// The server answered the listen request: a clean close.
    Graceful,
    /// The server sent `notifications/cancelled` for the listen request.
    CancelledByServer,
    /// The transport closed without the listen result: an unexpected disconnect. After
    /// reconnecting, the client MUST re-send `subscriptions/listen` (docs/rules.md §11.4) with this
    /// filter.
    UnexpectedClose {
        /// The filter the subscription was opened with.
        filter: OwnedSubscriptionFilter,
    },
}

/// An event for the host.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The era and version are settled; queued calls are being sent.
    Connected(Session),
    /// The negotiation failed; queued calls failed with [`CallError::NotConnected`].
    ConnectFailed(ConnectError),
    /// `server/discover` result.
    Discovered {
        /// The call.
        call: CallId,
        /// The result.
        reply: Reply<reply::Discover>,
    },
    /// `resources/list` pages.
    ResourcesListed {
        /// The call.
        call: CallId,
        /// The pages.
        listing: Listing<reply::ResourceList>,
    },
    /// `resources/templates/list` pages.
    TemplatesListed {
        /// The call.
        call: CallId,
        /// The pages.
        listing: Listing<reply::TemplateList>,
    },
    /// `prompts/list` pages.
    PromptsListed {
        /// The call.
        call: CallId,
        /// The pages.
        listing: Listing<reply::PromptList>,
    },
    /// `tools/list` pages ([`Client::list_tools`](super::Client::list_tools)), without the
    /// tools the machine rejected.
    ToolsListed {
        /// The call.
        call: CallId,
        /// The pages.
        listing: Listing<reply::ToolList>,
    },
    /// `resources/read` result.
    ResourceRead {
        /// The call.
        call: CallId,
        /// The result.
        reply: Reply<reply::Read>,
    },
    /// `prompts/get` result.
    PromptFetched {
        /// The call.
        call: CallId,
        /// The result.
        reply: Reply<reply::Prompt>,
    },
    /// `completion/complete` result.
    Completed {
        /// The call.
        call: CallId,
        /// The result.
        reply: Reply<reply::Completion>,
    },
    /// The server needs input before it answers (docs/rules.md §13). Answer with
    /// [`Client::respond_input`](super::Client::respond_input) (one response per key) or
    /// give up with [`Client::cancel`](super::Client::cancel).
    InputRequired {
        /// The call.
        call: CallId,
        /// 1 for the first round.
        round: u8,
        /// `inputRequests`: key → request (method and raw params).
        requests: Vec<(String, OwnedInputRequest)>,
    },
    /// The result of a host's own method ([`Client::request`](super::Client::request)):
    /// the `result` object as the server sent it (`resultType` absent or `complete`).
    Responded {
        /// The call.
        call: CallId,
        /// The `result` object.
        result: OwnedJson,
    },
    /// The call ended without a result.
    Failed {
        /// The call.
        call: CallId,
        /// Why.
        error: CallError,
    },
    /// A subscription is acknowledged (docs/rules.md §11.2): what the server honours, and what it
    /// refused of the request (types and URIs).
    Acknowledged {
        /// The listen call.
        call: CallId,
        /// The honoured filter.
        honoured: OwnedSubscriptionFilter,
        /// Requested but not honoured (empty filter: nothing refused).
        refused: OwnedSubscriptionFilter,
    },
    /// A change notification. `subscription` is the listen call it belongs to, or `None` for
    /// a notification no open subscription claims (legacy unsolicited delivery).
    Notified {
        /// The listen call.
        subscription: Option<CallId>,
        /// What changed.
        notice: Notice,
    },
    /// A subscription ended.
    SubscriptionEnded {
        /// The listen call.
        call: CallId,
        /// How.
        reason: EndReason,
    },
    /// A response whose id matches no outstanding request (nor a recently abandoned one).
    UnknownResponse {
        /// The id, in its JSON type.
        id: OwnedRequestId,
    },
    /// The server broke the protocol; nothing else changed.
    PeerError(PeerError),
}
