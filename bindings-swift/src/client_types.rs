//! The client machine's outputs, events and errors as Swift enums and records. Conversions
//! only; `description` of every error is the core's `Display`.

use std::collections::HashMap;

use mcp_context::client::{
    self as core_client, CallError as CoreCallError, ClientError as CoreClientError,
    ConfigError as CoreConfigError, ConnectError as CoreConnectError, EndReason as CoreEndReason,
    Era as CoreEra, Event as CoreEvent, Notice as CoreNotice, Output as CoreOutput,
    PeerError as CorePeerError, ServerError as CoreServerError,
};
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::OwnedJson;

use crate::records::SubscriptionFilter;

fn json_text(j: &OwnedJson) -> String {
    j.as_raw().as_text().into()
}

/// A host mistake (or a configuration the client refuses); nothing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum ClientError {
    /// No such call (finished, cancelled, or never started).
    UnknownCall,
    /// The call is not waiting for input responses.
    NotAwaitingInput,
    /// A requested input has no response (docs/rules.md §13).
    MissingInputResponse,
    /// A response for an input the server did not request.
    UnexpectedInputResponse,
    /// An input response is not a JSON object.
    InputResponseNotObject,
    /// The request could not be encoded.
    Encode,
    /// `request`: a method the machine owns (it has its own call), a notification, a method
    /// only servers send, or an `rpc.` name.
    OwnedMethod,
    /// `request`: the method name is not a valid method name.
    InvalidMethodName,
    /// `request`: the params are not a JSON object.
    ParamsNotObject,
    /// `request`: a `tools/call` of a tool rejected for invalid `x-mcp-header` annotations.
    RejectedTool,
    /// Configuration: no modern protocol version.
    NoVersions,
    /// Configuration: an empty version string.
    EmptyVersion,
    /// Configuration: `capabilitiesJson` is not a `ClientCapabilities` object.
    InvalidCapabilities,
    /// Configuration: `maxPages` or `maxInputRounds` is 0.
    ZeroLimit,
    /// An error kind added to the core after this binding version.
    Other,
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownCall => CoreClientError::UnknownCall.fmt(f),
            Self::NotAwaitingInput => CoreClientError::NotAwaitingInput.fmt(f),
            Self::MissingInputResponse => CoreClientError::MissingInputResponse.fmt(f),
            Self::UnexpectedInputResponse => CoreClientError::UnexpectedInputResponse.fmt(f),
            Self::InputResponseNotObject => CoreClientError::InputResponseNotObject.fmt(f),
            Self::Encode => CoreClientError::Encode.fmt(f),
            Self::OwnedMethod => CoreClientError::OwnedMethod.fmt(f),
            Self::InvalidMethodName => CoreClientError::InvalidMethodName.fmt(f),
            Self::ParamsNotObject => CoreClientError::ParamsNotObject.fmt(f),
            Self::RejectedTool => CoreClientError::RejectedTool.fmt(f),
            Self::NoVersions => CoreConfigError::NoVersions.fmt(f),
            Self::EmptyVersion => CoreConfigError::EmptyVersion.fmt(f),
            Self::InvalidCapabilities => CoreConfigError::InvalidCapabilities.fmt(f),
            Self::ZeroLimit => CoreConfigError::ZeroLimit.fmt(f),
            Self::Other => f.write_str("client error"),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<CoreClientError> for ClientError {
    fn from(e: CoreClientError) -> Self {
        match e {
            CoreClientError::UnknownCall => Self::UnknownCall,
            CoreClientError::NotAwaitingInput => Self::NotAwaitingInput,
            CoreClientError::MissingInputResponse => Self::MissingInputResponse,
            CoreClientError::UnexpectedInputResponse => Self::UnexpectedInputResponse,
            CoreClientError::InputResponseNotObject => Self::InputResponseNotObject,
            CoreClientError::Encode => Self::Encode,
            CoreClientError::OwnedMethod => Self::OwnedMethod,
            CoreClientError::InvalidMethodName => Self::InvalidMethodName,
            CoreClientError::ParamsNotObject => Self::ParamsNotObject,
            CoreClientError::RejectedTool => Self::RejectedTool,
            _ => Self::Other,
        }
    }
}

impl From<CoreConfigError> for ClientError {
    fn from(e: CoreConfigError) -> Self {
        match e {
            CoreConfigError::NoVersions => Self::NoVersions,
            CoreConfigError::EmptyVersion => Self::EmptyVersion,
            CoreConfigError::InvalidCapabilities => Self::InvalidCapabilities,
            CoreConfigError::ZeroLimit => Self::ZeroLimit,
            _ => Self::Other,
        }
    }
}

/// One result: the server's `result` object as validated JSON text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Reply {
    /// The `result` object, as the server sent it (decode it with `JSONDecoder`).
    pub json: String,
    /// Served from the client's cache instead of the server.
    pub from_cache: bool,
}

impl<K> From<core_client::Reply<K>> for Reply {
    fn from(r: core_client::Reply<K>) -> Self {
        Self {
            json: r.json().into(),
            from_cache: r.from_cache(),
        }
    }
}

/// The pages of one list call (docs/rules.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Listing {
    /// The pages, in order.
    pub pages: Vec<Reply>,
    /// Where to continue (present, even `""`, means more pages).
    pub next_cursor: Option<String>,
    /// An aggregated walk stopped at `maxPages`.
    pub truncated: bool,
}

impl<K> From<core_client::Listing<K>> for Listing {
    fn from(l: core_client::Listing<K>) -> Self {
        Self {
            pages: l.pages.into_iter().map(Reply::from).collect(),
            next_cursor: l.next_cursor,
            truncated: l.truncated,
        }
    }
}

/// The protocol era of a session (docs/rules.md §17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Era {
    /// 2026-07-28 and later.
    Modern,
    /// 2025-11-25 and earlier (`initialize`).
    Legacy,
}

/// What the server declared (docs/rules.md §1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ServerFeatures {
    /// `resources`
    pub resources: bool,
    /// `resources.subscribe`
    pub resources_subscribe: bool,
    /// `resources.listChanged`
    pub resources_list_changed: bool,
    /// `prompts`
    pub prompts: bool,
    /// `prompts.listChanged`
    pub prompts_list_changed: bool,
    /// `tools.listChanged`
    pub tools_list_changed: bool,
    /// `completions`
    pub completions: bool,
}

/// The negotiated session.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Session {
    /// Modern or legacy.
    pub era: Era,
    /// The protocol version every request carries.
    pub version: String,
    /// The server's declared features.
    pub features: ServerFeatures,
    /// The handshake result JSON (`DiscoverResult` or legacy `InitializeResult`).
    pub handshake_json: String,
}

impl From<core_client::Session> for Session {
    fn from(s: core_client::Session) -> Self {
        let f = s.features;
        Self {
            era: match s.era {
                CoreEra::Modern => Era::Modern,
                CoreEra::Legacy => Era::Legacy,
            },
            version: s.version,
            features: ServerFeatures {
                resources: f.resources,
                resources_subscribe: f.resources_subscribe,
                resources_list_changed: f.resources_list_changed,
                prompts: f.prompts,
                prompts_list_changed: f.prompts_list_changed,
                tools_list_changed: f.tools_list_changed,
                completions: f.completions,
            },
            handshake_json: s.handshake.json().into(),
        }
    }
}

/// A JSON-RPC error a server answered with, typed by what the spec fixes (docs/rules.md §1.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ServerError {
    /// Not found: -32602 with `data.uri`, or the legacy -32002.
    ResourceNotFound {
        /// `data.uri`
        uri: Option<String>,
        /// `message`
        message: String,
    },
    /// -32022 (the client already retried at the best common version).
    UnsupportedProtocolVersion {
        /// `data.supported`
        supported: Vec<String>,
        /// `data.requested`
        requested: String,
    },
    /// -32021: capabilities the request needs were not declared.
    MissingRequiredClientCapability {
        /// `data.requiredCapabilities` JSON.
        required_json: String,
    },
    /// -32601
    MethodNotFound {
        /// `message`
        message: String,
    },
    /// -32602 other than not found.
    InvalidParams {
        /// `message`
        message: String,
    },
    /// -32603
    Internal {
        /// `message`
        message: String,
    },
    /// Any other code.
    Other {
        /// `code`
        code: i32,
        /// `message`
        message: String,
        /// `data` JSON, as sent.
        data_json: Option<String>,
    },
}

impl From<CoreServerError> for ServerError {
    fn from(e: CoreServerError) -> Self {
        let code = e.code().code();
        match e {
            CoreServerError::ResourceNotFound { uri, message } => {
                Self::ResourceNotFound { uri, message }
            }
            CoreServerError::UnsupportedProtocolVersion {
                supported,
                requested,
            } => Self::UnsupportedProtocolVersion {
                supported,
                requested,
            },
            CoreServerError::MissingRequiredClientCapability { required } => {
                Self::MissingRequiredClientCapability {
                    required_json: json_text(&required),
                }
            }
            CoreServerError::MethodNotFound { message } => Self::MethodNotFound { message },
            CoreServerError::InvalidParams { message } => Self::InvalidParams { message },
            CoreServerError::Internal { message } => Self::Internal { message },
            CoreServerError::Other { message, data, .. } => Self::Other {
                code,
                message,
                data_json: data.as_ref().map(json_text),
            },
            other => Self::Other {
                code,
                message: other.to_string(),
                data_json: None,
            },
        }
    }
}

/// Why the version negotiation failed (docs/rules.md §2, §17.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ConnectError {
    /// No configured version is among the server's.
    NoCommonVersion,
    /// The server is legacy and the fallback is disabled.
    LegacyDisabled,
    /// The legacy `initialize` failed with this code.
    Rejected {
        /// The JSON-RPC code.
        code: i32,
    },
    /// The legacy `initialize` went unanswered.
    Timeout,
    /// The handshake result broke the schema.
    InvalidResult {
        /// The core's description.
        description: String,
    },
    /// The transport closed during the handshake.
    Closed,
    /// A kind added to the core after this binding version.
    Other {
        /// The core's description.
        description: String,
    },
}

impl From<CoreConnectError> for ConnectError {
    fn from(e: CoreConnectError) -> Self {
        match e {
            CoreConnectError::NoCommonVersion => Self::NoCommonVersion,
            CoreConnectError::LegacyDisabled => Self::LegacyDisabled,
            CoreConnectError::Rejected(code) => Self::Rejected { code: code.code() },
            CoreConnectError::Timeout => Self::Timeout,
            CoreConnectError::Closed => Self::Closed,
            CoreConnectError::InvalidResult(p) => Self::InvalidResult {
                description: p.to_string(),
            },
            other => Self::Other {
                description: other.to_string(),
            },
        }
    }
}

/// Why a call ended without a result (delivered in `ClientEvent.failed`; a Swift `Error`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CallError {
    /// The server answered with an error.
    Server {
        /// The typed error.
        error: ServerError,
    },
    /// No answer before the deadline.
    Timeout,
    /// The transport closed.
    Closed,
    /// The result broke the schema or a spec rule.
    InvalidResult {
        /// The core's description.
        description: String,
    },
    /// More `input_required` rounds than `maxInputRounds`.
    TooManyInputRounds,
    /// The negotiation failed, so the call was never sent.
    NotConnected {
        /// Why.
        error: ConnectError,
    },
    /// The method does not exist in the negotiated era.
    UnsupportedInEra,
    /// A legacy server cancelled the request.
    CancelledByServer,
    /// The request could not be encoded.
    Unencodable,
    /// The transport could not deliver the request.
    Undeliverable,
    /// A kind added to the core after this binding version.
    Other {
        /// The core's description.
        description: String,
    },
}

impl From<CoreCallError> for CallError {
    fn from(e: CoreCallError) -> Self {
        match e {
            CoreCallError::Server(error) => Self::Server {
                error: error.into(),
            },
            CoreCallError::Timeout => Self::Timeout,
            CoreCallError::Closed => Self::Closed,
            CoreCallError::InvalidResult(p) => Self::InvalidResult {
                description: p.to_string(),
            },
            CoreCallError::TooManyInputRounds => Self::TooManyInputRounds,
            CoreCallError::NotConnected(c) => Self::NotConnected { error: c.into() },
            CoreCallError::UnsupportedInEra => Self::UnsupportedInEra,
            CoreCallError::CancelledByServer => Self::CancelledByServer,
            CoreCallError::Unencodable => Self::Unencodable,
            CoreCallError::Undeliverable => Self::Undeliverable,
            other => Self::Other {
                description: other.to_string(),
            },
        }
    }
}

/// How the server broke the protocol (the machine keeps working).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum PeerErrorKind {
    /// Not a JSON-RPC message (or over the limits).
    Malformed,
    /// A notification's params break the schema.
    InvalidNotification,
    /// A modern server sent a request.
    UnexpectedRequest,
    /// A notification for an unknown subscription.
    UnknownSubscription,
    /// A notification before its subscription's acknowledgment.
    NotificationBeforeAck,
    /// A notification type the subscription did not ask for.
    UnrequestedNotification,
    /// Acknowledgment or result names another subscription id.
    SubscriptionIdMismatch,
    /// The acknowledgment grants more than requested.
    AckExceedsRequest,
    /// A server cancelled a request that is not a listen.
    InvalidCancellation,
    /// An error response without an id.
    ErrorWithoutId,
    /// A kind added to the core after this binding version.
    Other,
}

fn peer_kind(e: &CorePeerError) -> PeerErrorKind {
    match e {
        CorePeerError::Malformed(_) => PeerErrorKind::Malformed,
        CorePeerError::InvalidNotification(_) => PeerErrorKind::InvalidNotification,
        CorePeerError::UnexpectedRequest => PeerErrorKind::UnexpectedRequest,
        CorePeerError::UnknownSubscription => PeerErrorKind::UnknownSubscription,
        CorePeerError::NotificationBeforeAck => PeerErrorKind::NotificationBeforeAck,
        CorePeerError::UnrequestedNotification => PeerErrorKind::UnrequestedNotification,
        CorePeerError::SubscriptionIdMismatch => PeerErrorKind::SubscriptionIdMismatch,
        CorePeerError::AckExceedsRequest => PeerErrorKind::AckExceedsRequest,
        CorePeerError::InvalidCancellation => PeerErrorKind::InvalidCancellation,
        CorePeerError::ErrorWithoutId(_) => PeerErrorKind::ErrorWithoutId,
        _ => PeerErrorKind::Other,
    }
}

/// A change notification (docs/rules.md §12).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Notice {
    /// `notifications/resources/updated`
    ResourceUpdated {
        /// `params.uri`
        uri: String,
    },
    /// `notifications/resources/list_changed`
    ResourcesListChanged,
    /// `notifications/prompts/list_changed`
    PromptsListChanged,
    /// `notifications/tools/list_changed`
    ToolsListChanged,
}

impl From<CoreNotice> for Notice {
    fn from(n: CoreNotice) -> Self {
        match n {
            CoreNotice::ResourceUpdated { uri } => Self::ResourceUpdated { uri },
            CoreNotice::ResourcesListChanged => Self::ResourcesListChanged,
            CoreNotice::PromptsListChanged => Self::PromptsListChanged,
            CoreNotice::ToolsListChanged => Self::ToolsListChanged,
        }
    }
}

/// How a subscription ended (docs/rules.md §11.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum EndReason {
    /// The server answered the listen request.
    Graceful,
    /// The server cancelled the listen request.
    CancelledByServer,
    /// The transport closed without the listen result: re-listen with `filter`.
    UnexpectedClose {
        /// The filter to re-send.
        filter: SubscriptionFilter,
    },
}

/// One input request of an `input_required` result (docs/rules.md §13).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct InputRequest {
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// `params` JSON, when present.
    pub params_json: Option<String>,
}

/// An event for the host.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ClientEvent {
    /// The era and version are settled; queued calls are being sent.
    Connected {
        /// The session.
        session: Session,
    },
    /// The negotiation failed; queued calls failed.
    ConnectFailed {
        /// Why.
        error: ConnectError,
    },
    /// `server/discover` result.
    Discovered {
        /// The call.
        call: u64,
        /// The result.
        reply: Reply,
    },
    /// `resources/list` pages.
    ResourcesListed {
        /// The call.
        call: u64,
        /// The pages.
        listing: Listing,
    },
    /// `resources/templates/list` pages.
    TemplatesListed {
        /// The call.
        call: u64,
        /// The pages.
        listing: Listing,
    },
    /// `prompts/list` pages.
    PromptsListed {
        /// The call.
        call: u64,
        /// The pages.
        listing: Listing,
    },
    /// `resources/read` result.
    ResourceRead {
        /// The call.
        call: u64,
        /// The result.
        reply: Reply,
    },
    /// `prompts/get` result.
    PromptFetched {
        /// The call.
        call: u64,
        /// The result.
        reply: Reply,
    },
    /// `completion/complete` result.
    Completed {
        /// The call.
        call: u64,
        /// The result.
        reply: Reply,
    },
    /// The server needs input: answer with `respondInput` or `cancel`.
    InputRequired {
        /// The call.
        call: u64,
        /// 1 for the first round.
        round: u8,
        /// key → request.
        requests: HashMap<String, InputRequest>,
    },
    /// The result of a host's own method (`request`): the `result` object as sent.
    Responded {
        /// The call.
        call: u64,
        /// The `result` object, JSON text.
        result_json: String,
    },
    /// The call ended without a result.
    Failed {
        /// The call.
        call: u64,
        /// Why.
        error: CallError,
    },
    /// A subscription is acknowledged: what is honoured and what was refused.
    Acknowledged {
        /// The listen call.
        call: u64,
        /// The honoured filter.
        honoured: SubscriptionFilter,
        /// Requested but refused.
        refused: SubscriptionFilter,
    },
    /// A change notification; `subscription` is its listen call (`nil`: unsolicited).
    Notified {
        /// The listen call.
        subscription: Option<u64>,
        /// What changed.
        notice: Notice,
    },
    /// A subscription ended.
    SubscriptionEnded {
        /// The listen call.
        call: u64,
        /// How.
        reason: EndReason,
    },
    /// A response matching no outstanding request.
    UnknownResponse {
        /// The id as JSON text.
        id_json: String,
    },
    /// The server broke the protocol; nothing else changed.
    PeerError {
        /// What.
        kind: PeerErrorKind,
        /// The core's description.
        description: String,
    },
    /// An event added to the core after this binding version.
    Other {
        /// The core's identifier of its kind (`coreIdentifiers("client::Event")`).
        kind: String,
    },
}

pub(crate) fn id_json(id: &OwnedRequestId) -> String {
    match id {
        OwnedRequestId::Int(i) => i.to_string(),
        OwnedRequestId::BigInt(d) => d.clone(),
        OwnedRequestId::Str(_) => id.as_ref().to_string(),
    }
}

impl From<CoreEvent> for ClientEvent {
    fn from(e: CoreEvent) -> Self {
        match e {
            CoreEvent::Connected(s) => Self::Connected { session: s.into() },
            CoreEvent::ConnectFailed(c) => Self::ConnectFailed { error: c.into() },
            CoreEvent::Discovered { call, reply } => Self::Discovered {
                call: call.0,
                reply: reply.into(),
            },
            CoreEvent::ResourcesListed { call, listing } => Self::ResourcesListed {
                call: call.0,
                listing: listing.into(),
            },
            CoreEvent::TemplatesListed { call, listing } => Self::TemplatesListed {
                call: call.0,
                listing: listing.into(),
            },
            CoreEvent::PromptsListed { call, listing } => Self::PromptsListed {
                call: call.0,
                listing: listing.into(),
            },
            CoreEvent::ResourceRead { call, reply } => Self::ResourceRead {
                call: call.0,
                reply: reply.into(),
            },
            CoreEvent::PromptFetched { call, reply } => Self::PromptFetched {
                call: call.0,
                reply: reply.into(),
            },
            CoreEvent::Completed { call, reply } => Self::Completed {
                call: call.0,
                reply: reply.into(),
            },
            CoreEvent::InputRequired {
                call,
                round,
                requests,
            } => Self::InputRequired {
                call: call.0,
                round,
                requests: requests
                    .into_iter()
                    .map(|(k, r)| {
                        let req = InputRequest {
                            method: r.method.as_str().into(),
                            params_json: r.params.as_ref().map(json_text),
                        };
                        (k, req)
                    })
                    .collect(),
            },
            CoreEvent::Failed { call, error } => Self::Failed {
                call: call.0,
                error: error.into(),
            },
            CoreEvent::Acknowledged {
                call,
                honoured,
                refused,
            } => Self::Acknowledged {
                call: call.0,
                honoured: honoured.into(),
                refused: refused.into(),
            },
            CoreEvent::Notified {
                subscription,
                notice,
            } => Self::Notified {
                subscription: subscription.map(|c| c.0),
                notice: notice.into(),
            },
            CoreEvent::SubscriptionEnded { call, reason } => Self::SubscriptionEnded {
                call: call.0,
                reason: match reason {
                    CoreEndReason::Graceful => EndReason::Graceful,
                    CoreEndReason::CancelledByServer => EndReason::CancelledByServer,
                    CoreEndReason::UnexpectedClose { filter } => EndReason::UnexpectedClose {
                        filter: filter.into(),
                    },
                },
            },
            CoreEvent::UnknownResponse { id } => Self::UnknownResponse {
                id_json: id_json(&id),
            },
            CoreEvent::Responded { call, result } => Self::Responded {
                call: call.0,
                result_json: json_text(&result),
            },
            CoreEvent::PeerError(p) => Self::PeerError {
                kind: peer_kind(&p),
                description: p.to_string(),
            },
            other => Self::Other {
                kind: other.ident().to_owned(),
            },
        }
    }
}

/// One HTTP header.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct HttpHeader {
    /// The name, e.g. `Mcp-Method`.
    pub name: String,
    /// The value, ready for the wire.
    pub value: String,
}

/// One output of `ClientMachine.pollOutput()`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ClientOutput {
    /// Send these bytes (stdio: followed by a newline; HTTP: POST with these headers).
    Transmit {
        /// One compact JSON-RPC message.
        bytes: Vec<u8>,
        /// The JSON-RPC id of a request.
        id: Option<i64>,
        /// `Mcp-Method` (`nil` for a response).
        method: Option<String>,
        /// `Mcp-Name`: the read's `uri`, the prompt's `name`.
        name: Option<String>,
        /// `MCP-Protocol-Version` of a modern request.
        protocol_version: Option<String>,
        /// Every header of the HTTP POST carrying it, values ready for the wire
        /// (`Content-Type`, `Accept`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`
        /// encoded when needed, `Mcp-Param-*`).
        http_headers: Vec<HttpHeader>,
    },
    /// HTTP only: close the response stream of request `id` (cancellation).
    CloseStream {
        /// The request id.
        id: i64,
    },
    /// Something for the host.
    Event {
        /// The event.
        event: ClientEvent,
    },
}

impl From<CoreOutput> for ClientOutput {
    fn from(o: CoreOutput) -> Self {
        match o {
            CoreOutput::Transmit(t) => Self::Transmit {
                http_headers: t
                    .http_headers()
                    .into_iter()
                    .map(|(name, value)| HttpHeader {
                        name: name.to_owned(),
                        value: value.into_owned(),
                    })
                    .collect(),
                bytes: t.bytes,
                id: t.id,
                method: t.method.map(String::from),
                name: t.name,
                protocol_version: t.protocol_version,
            },
            CoreOutput::CloseStream { id } => Self::CloseStream { id },
            CoreOutput::Event(e) => Self::Event { event: e.into() },
        }
    }
}
