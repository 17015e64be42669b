//! The server machine's outputs, events and errors as Swift enums and records. Conversions
//! only; `description` of every error is the core's `Display` (kept as a field where the
//! core's error carries data the binding does not mirror).

use std::collections::HashMap;

use mcp_context::server::{
    BodyKind as CoreBodyKind, CancelReason as CoreCancel, CompletionTarget as CoreCompletion,
    ConfigError, DeclaredCapabilities as CoreCaps, Event, Output, ReadTarget as CoreTarget,
    RegisterError as CoreRegister, RespondError as CoreRespond, Retry as CoreRetry, Server,
};

use crate::client_types::id_json;
use crate::errors::TemplateParseErrorKind;

/// A configuration the server machine cannot run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum ServerConfigError {
    /// `supportedVersions` is empty.
    NoSupportedVersion,
    /// `pageSize` or `streamQueue` is 0.
    ZeroCapacity,
    /// A state key is shorter than 32 bytes.
    StateKeyTooShort,
    /// The resource-server protection is not valid (the core's `ServerConfig::protection`).
    InvalidProtection,
    /// A kind added to the core after this binding version.
    Other,
}

impl std::fmt::Display for ServerConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoSupportedVersion => ConfigError::NoSupportedVersion.fmt(f),
            Self::ZeroCapacity => ConfigError::ZeroCapacity.fmt(f),
            Self::StateKeyTooShort => ConfigError::StateKeyTooShort.fmt(f),
            Self::InvalidProtection => ConfigError::InvalidProtection.fmt(f),
            Self::Other => f.write_str("invalid server configuration"),
        }
    }
}

impl std::error::Error for ServerConfigError {}

impl From<ConfigError> for ServerConfigError {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::NoSupportedVersion => Self::NoSupportedVersion,
            ConfigError::ZeroCapacity => Self::ZeroCapacity,
            ConfigError::StateKeyTooShort => Self::StateKeyTooShort,
            ConfigError::InvalidProtection => Self::InvalidProtection,
            _ => Self::Other,
        }
    }
}

/// A registration the machine refused (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum RegisterError {
    /// The key (URI, template text or prompt name) is already registered.
    Duplicate,
    /// The resource URI is not a valid URI.
    InvalidUri {
        /// The core's description.
        description: String,
    },
    /// The template does not parse (RFC 6570).
    InvalidTemplate {
        /// What is wrong.
        kind: TemplateParseErrorKind,
        /// Where, in bytes.
        byte_offset: u64,
        /// The core's description.
        description: String,
    },
    /// The template router refused it (unmatchable, or conflicting with a registered one).
    Router {
        /// The core's description.
        description: String,
    },
    /// Completion values for an argument or variable the item does not declare.
    UnknownArgument,
    /// `addMethod`: the core owns this method.
    CoreMethod,
    /// `setCapability`: the machine derives this capability from what is registered.
    CoreCapability,
    /// `setCapability`: a capability is a JSON object.
    NotAnObject,
    /// `addTool` while the host serves `tools/list` or `tools/call` itself (`addMethod`, or its own `tools`
    /// capability), or those while a tool is registered: never both.
    ToolsByMethod,
    /// A scope the protected resource does not support (per-item scopes of an authorized
    /// server).
    UnknownScope,
    /// The JSON text is not the spec's shape for this item.
    InvalidJson {
        /// The decoder's description.
        description: String,
    },
    /// A kind added to the core after this binding version.
    Other {
        /// The core's description.
        description: String,
    },
}

impl std::fmt::Display for RegisterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Duplicate => CoreRegister::Duplicate.fmt(f),
            Self::UnknownArgument => CoreRegister::UnknownArgument.fmt(f),
            Self::CoreMethod => CoreRegister::CoreMethod.fmt(f),
            Self::CoreCapability => CoreRegister::CoreCapability.fmt(f),
            Self::NotAnObject => CoreRegister::NotAnObject.fmt(f),
            Self::ToolsByMethod => CoreRegister::ToolsByMethod.fmt(f),
            Self::UnknownScope => CoreRegister::UnknownScope.fmt(f),
            Self::InvalidUri { description }
            | Self::InvalidTemplate { description, .. }
            | Self::Router { description }
            | Self::Other { description } => f.write_str(description),
            Self::InvalidJson { description } => write!(f, "invalid JSON: {description}"),
        }
    }
}

impl std::error::Error for RegisterError {}

impl From<CoreRegister> for RegisterError {
    fn from(e: CoreRegister) -> Self {
        let description = e.to_string();
        match e {
            CoreRegister::Duplicate => Self::Duplicate,
            CoreRegister::UnknownArgument => Self::UnknownArgument,
            CoreRegister::InvalidUri(_) => Self::InvalidUri { description },
            CoreRegister::InvalidTemplate(p) => Self::InvalidTemplate {
                kind: p.kind.into(),
                byte_offset: u64::try_from(p.at).unwrap_or(u64::MAX),
                description,
            },
            CoreRegister::Router(_) => Self::Router { description },
            CoreRegister::CoreMethod => Self::CoreMethod,
            CoreRegister::CoreCapability => Self::CoreCapability,
            CoreRegister::NotAnObject => Self::NotAnObject,
            CoreRegister::ToolsByMethod => Self::ToolsByMethod,
            CoreRegister::UnknownScope => Self::UnknownScope,
            _ => Self::Other { description },
        }
    }
}

/// An answer the machine refused (the handle stays answerable, except
/// `clientLacksCapability`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum RespondError {
    /// No request waits for this handle (answered, cancelled or timed out).
    UnknownHandle,
    /// The answer does not fit the request.
    WrongKind,
    /// Input requests that are not elicitation/sampling/roots with object params, or repeat
    /// a key, or neither requests nor a state.
    InvalidInputRequests,
    /// Application state given but no sealing key configured.
    NoStateKey,
    /// The client did not declare the needed capability: it got -32021; the handle is
    /// consumed.
    ClientLacksCapability,
    /// `respondResult`: not a JSON object, a `resultType` other than `"complete"`, or a
    /// `_meta` that is not an object.
    InvalidResult,
    /// `progress`: a value that is not finite, or does not increase.
    InvalidProgress,
    /// The JSON text is not the spec's shape for this answer.
    InvalidJson {
        /// The decoder's description.
        description: String,
    },
    /// A kind added to the core after this binding version.
    Other,
}

impl std::fmt::Display for RespondError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownHandle => CoreRespond::UnknownHandle.fmt(f),
            Self::WrongKind => CoreRespond::WrongKind.fmt(f),
            Self::InvalidInputRequests => CoreRespond::InvalidInputRequests.fmt(f),
            Self::NoStateKey => CoreRespond::NoStateKey.fmt(f),
            Self::ClientLacksCapability => CoreRespond::ClientLacksCapability.fmt(f),
            Self::InvalidResult => CoreRespond::InvalidResult.fmt(f),
            Self::InvalidProgress => CoreRespond::InvalidProgress.fmt(f),
            Self::InvalidJson { description } => write!(f, "invalid JSON: {description}"),
            Self::Other => f.write_str("answer refused"),
        }
    }
}

impl std::error::Error for RespondError {}

impl From<CoreRespond> for RespondError {
    fn from(e: CoreRespond) -> Self {
        match e {
            CoreRespond::UnknownHandle => Self::UnknownHandle,
            CoreRespond::WrongKind => Self::WrongKind,
            CoreRespond::InvalidInputRequests => Self::InvalidInputRequests,
            CoreRespond::NoStateKey => Self::NoStateKey,
            CoreRespond::ClientLacksCapability => Self::ClientLacksCapability,
            CoreRespond::InvalidResult => Self::InvalidResult,
            CoreRespond::InvalidProgress => Self::InvalidProgress,
            _ => Self::Other,
        }
    }
}

/// How a transmit is framed on HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum BodyKind {
    /// `application/json`: the body is exactly the bytes.
    Json,
    /// `text/event-stream`: write `data: <bytes>\n\n`.
    Sse,
}

/// What a `resources/read` URI resolved to.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ReadTarget {
    /// A registered resource without stored contents.
    Resource,
    /// A registered template matched.
    Template {
        /// The template's id (from `addTemplate`).
        id: u32,
        /// Its `uriTemplate`.
        uri_template: String,
        /// The decoded variable values, by name.
        variables: HashMap<String, String>,
    },
    /// Nothing matched and unlisted reads are forwarded.
    Unlisted,
}

/// The client capabilities declared on the request itself (docs/rules.md §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Record)]
pub struct DeclaredCapabilities {
    /// `elicitation` in form mode.
    pub elicitation_form: bool,
    /// `elicitation.url`
    pub elicitation_url: bool,
    /// `sampling`
    pub sampling: bool,
    /// `roots`
    pub roots: bool,
}

impl From<CoreCaps> for DeclaredCapabilities {
    fn from(c: CoreCaps) -> Self {
        Self {
            elicitation_form: c.elicitation_form,
            elicitation_url: c.elicitation_url,
            sampling: c.sampling,
            roots: c.roots,
        }
    }
}

/// The verified inputs of an MRTR retry (docs/rules.md §13).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Retry {
    /// The application state sealed on the previous round (verified).
    pub state: Option<Vec<u8>>,
    /// `inputResponses`: key → the client's result object JSON (validate before use).
    pub input_responses: HashMap<String, String>,
}

impl From<CoreRetry> for Retry {
    fn from(r: CoreRetry) -> Self {
        Self {
            state: r.state,
            input_responses: r
                .input_responses
                .into_iter()
                .map(|(k, v)| (k, v.as_raw().as_text().to_owned()))
                .collect(),
        }
    }
}

/// What a completion request refers to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CompletionTarget {
    /// An argument of a prompt.
    Prompt {
        /// The prompt name.
        name: String,
    },
    /// A variable of a template.
    Template {
        /// The template's id.
        id: u32,
        /// Its `uriTemplate`.
        uri_template: String,
    },
}

/// Why a handle will not be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CancelReason {
    /// The client cancelled the request.
    Client,
    /// The host reported the stream closed.
    StreamClosed,
    /// The deadline passed; the client got -32603.
    TimedOut,
    /// A reason added to the core after this binding version.
    Other,
}

/// An event for the application: answer read/prompt/complete events by `handle`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ServerEvent {
    /// `resources/read` needs contents: `respondRead`, `respondInputRequired` or `fail`.
    ReadResource {
        /// The handle.
        handle: u64,
        /// The URI, validated, as requested.
        uri: String,
        /// What it resolved to.
        target: ReadTarget,
        /// The caller context.
        auth: u64,
        /// The request's declared client capabilities.
        capabilities: DeclaredCapabilities,
        /// The verified retry inputs, on an MRTR retry.
        retry: Option<Retry>,
    },
    /// `prompts/get` needs messages: `respondPrompt`, `respondInputRequired` or `fail`.
    GetPrompt {
        /// The handle.
        handle: u64,
        /// The prompt.
        name: String,
        /// The string arguments (required ones present).
        arguments: HashMap<String, String>,
        /// The caller context.
        auth: u64,
        /// The request's declared client capabilities.
        capabilities: DeclaredCapabilities,
        /// The verified retry inputs, on an MRTR retry.
        retry: Option<Retry>,
    },
    /// `completion/complete` needs values: `respondCompletion` or `fail`.
    Complete {
        /// The handle.
        handle: u64,
        /// The prompt or template.
        target: CompletionTarget,
        /// The argument being completed.
        argument: String,
        /// What the user typed so far.
        value: String,
        /// `context.arguments`.
        context: HashMap<String, String>,
        /// The caller context.
        auth: u64,
    },
    /// A request for a method registered with `addMethod`: `respondResult`,
    /// `respondInputRequired` or `fail`.
    Request {
        /// The handle.
        handle: u64,
        /// The method, e.g. `tools/call`.
        method: String,
        /// The `params` object as received (`_meta` included), JSON text.
        params_json: String,
        /// The request carried a `progressToken`.
        progress: bool,
        /// The caller context.
        auth: u64,
        /// The request's declared client capabilities.
        capabilities: DeclaredCapabilities,
        /// The verified retry inputs, on an MRTR retry.
        retry: Option<Retry>,
    },
    /// `tools/call` of a tool registered with `addTool` (name, arguments and any
    /// `requestState` checked): `respondTool`, `respondToolError` (the tool failed),
    /// `respondInputRequired` or `fail`.
    CallTool {
        /// The handle.
        handle: u64,
        /// The tool's name.
        name: String,
        /// `arguments`, a JSON object as text (`{}` when absent).
        arguments_json: String,
        /// The request carried a `progressToken`.
        progress: bool,
        /// The caller context.
        auth: u64,
        /// The request's declared client capabilities.
        capabilities: DeclaredCapabilities,
        /// The verified retry inputs, on an MRTR retry.
        retry: Option<Retry>,
    },
    /// `resources/list` reached the host's own items (`dynamicResources`): `respondList`
    /// with one page and the host's cursor for the next, or `fail`.
    ListResources {
        /// The handle.
        handle: u64,
        /// The host's cursor from its previous page (`nil`: its first page).
        cursor: Option<String>,
        /// The caller context.
        auth: u64,
    },
    /// A handle is dead: stop working on it.
    Cancelled {
        /// The handle.
        handle: u64,
        /// Why.
        reason: CancelReason,
    },
    /// A subscription's queue overflowed; it was torn down.
    StreamOverflow {
        /// The stream.
        stream: u64,
        /// The listen request's id as JSON text.
        subscription_id_json: String,
    },
    /// An event added to the core after this binding version.
    Other {
        /// The core's identifier of its kind (`coreIdentifiers("server::Event")`).
        kind: String,
    },
}

/// One output of `ServerMachine.pollOutput()`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ServerOutput {
    /// Write `bytes` on `stream` (stdio: followed by `\n`).
    Transmit {
        /// The stream.
        stream: u64,
        /// One compact JSON-RPC message, no newline inside.
        bytes: Vec<u8>,
        /// HTTP: the POST's status.
        http_status: u16,
        /// HTTP: JSON body or SSE event.
        kind: BodyKind,
        /// HTTP: the response is complete.
        end_of_stream: bool,
    },
    /// The application must act.
    Event {
        /// The event.
        event: ServerEvent,
    },
}

fn template_text(server: &Server, id: mcp_context::server::TemplateId) -> String {
    server.template(id).unwrap_or_default().to_owned()
}

fn dict(pairs: Vec<(String, String)>) -> HashMap<String, String> {
    crate::records::dict(pairs)
}

/// Converts one output; `server` names template ids.
pub(crate) fn output(out: Output, server: &Server) -> ServerOutput {
    match out {
        Output::Transmit(t) => ServerOutput::Transmit {
            stream: t.stream.0,
            bytes: t.bytes,
            http_status: t.http_status,
            kind: match t.kind {
                CoreBodyKind::Json => BodyKind::Json,
                CoreBodyKind::Sse => BodyKind::Sse,
            },
            end_of_stream: t.end_of_stream,
        },
        Output::Event(e) => ServerOutput::Event {
            event: event(e, server),
        },
    }
}

fn event(e: Event, server: &Server) -> ServerEvent {
    match e {
        Event::ReadResource(r) => ServerEvent::ReadResource {
            handle: r.handle.get(),
            uri: r.uri,
            target: match r.target {
                CoreTarget::Resource => ReadTarget::Resource,
                CoreTarget::Template { id, variables } => ReadTarget::Template {
                    id: id.get(),
                    uri_template: template_text(server, id),
                    variables: dict(variables),
                },
                CoreTarget::Unlisted => ReadTarget::Unlisted,
            },
            auth: r.auth,
            capabilities: r.capabilities.into(),
            retry: r.retry.map(Into::into),
        },
        Event::GetPrompt(p) => ServerEvent::GetPrompt {
            handle: p.handle.get(),
            name: p.name,
            arguments: dict(p.arguments),
            auth: p.auth,
            capabilities: p.capabilities.into(),
            retry: p.retry.map(Into::into),
        },
        Event::Complete(c) => ServerEvent::Complete {
            handle: c.handle.get(),
            target: match c.target {
                CoreCompletion::Prompt(name) => CompletionTarget::Prompt { name },
                CoreCompletion::Template(id) => CompletionTarget::Template {
                    id: id.get(),
                    uri_template: template_text(server, id),
                },
            },
            argument: c.argument,
            value: c.value,
            context: dict(c.context),
            auth: c.auth,
        },
        Event::Request(r) => ServerEvent::Request {
            handle: r.handle.get(),
            method: r.method,
            params_json: r.params.as_raw().as_text().into(),
            progress: r.progress,
            auth: r.auth,
            capabilities: r.capabilities.into(),
            retry: r.retry.map(Into::into),
        },
        Event::CallTool(t) => ServerEvent::CallTool {
            handle: t.handle.get(),
            name: t.name,
            arguments_json: t.arguments.as_raw().as_text().into(),
            progress: t.progress,
            auth: t.auth,
            capabilities: t.capabilities.into(),
            retry: t.retry.map(Into::into),
        },
        Event::ListResources(l) => ServerEvent::ListResources {
            handle: l.handle.get(),
            cursor: l.cursor,
            auth: l.auth,
        },
        Event::Cancelled { handle, reason } => ServerEvent::Cancelled {
            handle: handle.get(),
            reason: match reason {
                CoreCancel::Client => CancelReason::Client,
                CoreCancel::StreamClosed => CancelReason::StreamClosed,
                CoreCancel::TimedOut => CancelReason::TimedOut,
                _ => CancelReason::Other,
            },
        },
        Event::StreamOverflow {
            stream,
            subscription,
        } => ServerEvent::StreamOverflow {
            stream: stream.0,
            subscription_id_json: id_json(&subscription),
        },
        other => ServerEvent::Other {
            kind: other.ident().to_owned(),
        },
    }
}
