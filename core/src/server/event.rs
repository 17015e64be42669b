//! Events: what the application must supply or know (docs/server-machine.md §Outputs).
//!
//! Every event that carries a [`Handle`] is answered exactly once, with one of the
//! `respond_*` calls or [`Server::fail`](super::Server::fail), unless a
//! [`Event::Cancelled`] for that handle comes first (client cancellation, stream close, or
//! the request deadline).

use alloc::string::String;
use alloc::vec::Vec;

use super::io::StreamId;
use super::registry::TemplateId;
use crate::jsonrpc::OwnedRequestId;
use crate::messages::ClientCapabilities;
use crate::messages::owned::OwnedJson;

/// The machine's name for one request the application must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Handle(pub(crate) u64);

impl Handle {
    /// The handle as a number (unique for the machine's lifetime).
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }
}

/// The client capabilities declared on the request itself (docs/rules.md §1.1: never inferred from
/// earlier requests). Input requests are allowed only for these (docs/rules.md §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DeclaredCapabilities {
    /// `elicitation` in form mode (explicit `form`, or no mode named).
    pub elicitation_form: bool,
    /// `elicitation.url`.
    pub elicitation_url: bool,
    /// `sampling`.
    pub sampling: bool,
    /// `roots`.
    pub roots: bool,
}

impl DeclaredCapabilities {
    pub(crate) fn of(c: &ClientCapabilities<'_>) -> Self {
        Self {
            elicitation_form: c.elicitation_form(),
            elicitation_url: c.elicitation_url(),
            sampling: c.sampling(),
            roots: c.roots(),
        }
    }
}

/// The verified inputs of an MRTR retry (docs/rules.md §13).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Retry {
    /// The application state sealed into the `requestState` this retry echoed, after the
    /// machine verified its integrity, binding (method, params, `auth`) and expiry. `None`
    /// when the retry carried no `requestState`.
    pub state: Option<Vec<u8>>,
    /// `inputResponses`, key → the client's result object, as sent (unverified: validate
    /// before use, docs/rules.md §13).
    pub input_responses: Vec<(String, OwnedJson)>,
}

/// What a `resources/read` URI resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadTarget {
    /// A registered resource without stored contents.
    Resource,
    /// A registered template matched; `variables` are the decoded values, by name.
    Template {
        /// The template.
        id: TemplateId,
        /// The decoded variable values.
        variables: Vec<(String, String)>,
    },
    /// Nothing registered matched, and the configuration forwards such reads
    /// ([`ServerConfig::forward_unlisted_reads`](super::ServerConfig::forward_unlisted_reads)).
    /// Answer [`Failure::NotFound`](super::Failure::NotFound) when it does not exist.
    Unlisted,
}

/// `resources/read` needs contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadEvent {
    /// Answer with [`Server::respond_read`](super::Server::respond_read),
    /// [`Server::respond_input_required`](super::Server::respond_input_required) or
    /// [`Server::fail`](super::Server::fail).
    pub handle: Handle,
    /// The URI, validated, exactly as requested.
    pub uri: String,
    /// What it resolved to.
    pub target: ReadTarget,
    /// The caller context of the request.
    pub auth: u64,
    /// The request's declared client capabilities.
    pub capabilities: DeclaredCapabilities,
    /// The verified retry inputs, on an MRTR retry.
    pub retry: Option<Retry>,
    /// The request carried `_meta.progressToken`: [`Server::progress`](super::Server::progress)
    /// sends `notifications/progress` for it (without a token it sends nothing).
    pub progress: bool,
}

/// `prompts/get` needs messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptEvent {
    /// Answer with [`Server::respond_prompt`](super::Server::respond_prompt),
    /// [`Server::respond_input_required`](super::Server::respond_input_required) or
    /// [`Server::fail`](super::Server::fail).
    pub handle: Handle,
    /// A registered (and, for this `auth`, visible) prompt.
    pub name: String,
    /// The arguments (strings, docs/rules.md §9); every required argument is present.
    pub arguments: Vec<(String, String)>,
    /// The caller context of the request.
    pub auth: u64,
    /// The request's declared client capabilities.
    pub capabilities: DeclaredCapabilities,
    /// The verified retry inputs, on an MRTR retry.
    pub retry: Option<Retry>,
    /// The request carried `_meta.progressToken`: [`Server::progress`](super::Server::progress)
    /// sends `notifications/progress` for it (without a token it sends nothing).
    pub progress: bool,
}

/// What a completion request refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionTarget {
    /// An argument of a registered prompt (`ref/prompt`).
    Prompt(String),
    /// A variable of a registered template (`ref/resource` by template URI).
    Template(TemplateId),
}

/// `completion/complete` with no built-in value set for the argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionEvent {
    /// Answer with [`Server::respond_completion`](super::Server::respond_completion) or
    /// [`Server::fail`](super::Server::fail).
    pub handle: Handle,
    /// The prompt or template.
    pub target: CompletionTarget,
    /// The argument (or template variable) being completed; declared by the target.
    pub argument: String,
    /// What the user typed so far.
    pub value: String,
    /// `context.arguments`: already-resolved arguments (docs/rules.md §10).
    pub context: Vec<(String, String)>,
    /// The caller context of the request.
    pub auth: u64,
    /// The request carried `_meta.progressToken` (see [`ReadEvent::progress`]).
    pub progress: bool,
}

/// A request for a method the host registered
/// ([`Server::add_method`](super::Server::add_method)), after the machine validated the
/// envelope, `_meta` and the protocol version, and verified any `requestState`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestEvent {
    /// Answer with [`Server::respond_result`](super::Server::respond_result),
    /// [`Server::respond_input_required`](super::Server::respond_input_required) or
    /// [`Server::fail`](super::Server::fail).
    pub handle: Handle,
    /// The method, as registered.
    pub method: String,
    /// The params object as received, `_meta` (and, on a retry, `requestState` and
    /// `inputResponses`) included. The machine checked only the envelope and `_meta`: the
    /// rest is the host's to validate (answer [`Failure::InvalidParams`](super::Failure)).
    pub params: OwnedJson,
    /// The request carried `_meta.progressToken` (see [`ReadEvent::progress`]).
    pub progress: bool,
    /// The caller context of the request.
    pub auth: u64,
    /// The request's declared client capabilities.
    pub capabilities: DeclaredCapabilities,
    /// The verified retry inputs, on an MRTR retry.
    pub retry: Option<Retry>,
}

/// `tools/call` of a registered tool ([`Server::add_tool`](super::Server::add_tool)), after the
/// machine validated the envelope, the tool's name (registered and visible to `auth`), that
/// `arguments` is an object holding every top-level `required` property of the tool's
/// `inputSchema`, and any `requestState`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolEvent {
    /// Answer with [`Server::respond_tool`](super::Server::respond_tool),
    /// [`Server::respond_tool_error`](super::Server::respond_tool_error) (the tool failed:
    /// a result with `isError: true`),
    /// [`Server::respond_input_required`](super::Server::respond_input_required) or
    /// [`Server::fail`](super::Server::fail) (a protocol error).
    pub handle: Handle,
    /// The tool's name.
    pub name: String,
    /// `arguments`, a JSON object (`{}` when the request sent none). Checking them against
    /// the rest of the `inputSchema` is the host's.
    pub arguments: OwnedJson,
    /// The caller context of the request.
    pub auth: u64,
    /// The request's declared client capabilities.
    pub capabilities: DeclaredCapabilities,
    /// The verified retry inputs, on an MRTR retry.
    pub retry: Option<Retry>,
    /// The request carried `_meta.progressToken` (see [`ReadEvent::progress`]).
    pub progress: bool,
}

/// `resources/list` reached the host's own pages
/// ([`ServerConfig::dynamic_resources`](super::ServerConfig::dynamic_resources)): the
/// registered resources were listed first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEvent {
    /// Answer with [`Server::respond_list`](super::Server::respond_list) or
    /// [`Server::fail`](super::Server::fail).
    pub handle: Handle,
    /// The host's own cursor, as it gave it in its previous page's `next_cursor`; `None`
    /// for its first page.
    pub cursor: Option<String>,
    /// The caller context of the request (lists may depend on it, never on the connection).
    pub auth: u64,
    /// The request carried `_meta.progressToken` (see [`ReadEvent::progress`]).
    pub progress: bool,
}

/// Why a handle will not be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CancelReason {
    /// The client sent `notifications/cancelled` for the request.
    Client,
    /// The host reported the stream closed (HTTP cancellation, docs/rules.md §16.10 rule 65).
    StreamClosed,
    /// The request deadline passed; the client got -32603.
    TimedOut,
}

/// An event for the application.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A `resources/read` needs contents.
    ReadResource(ReadEvent),
    /// A `prompts/get` needs messages.
    GetPrompt(PromptEvent),
    /// A `completion/complete` needs values.
    Complete(CompletionEvent),
    /// A request for a registered method needs a result.
    Request(RequestEvent),
    /// `resources/list` needs a page of the host's resources.
    ListResources(ListEvent),
    /// A `tools/call` of a registered tool needs a result.
    CallTool(ToolEvent),
    /// A handle is dead: stop working on it; any later answer is refused.
    Cancelled {
        /// The request.
        handle: Handle,
        /// Why.
        reason: CancelReason,
    },
    /// A listen subscription's bounded queue was full: the notification was not queued and
    /// the subscription was torn down (`notifications/cancelled` referencing the listen id,
    /// docs/rules.md §11.4), so the client knows to re-listen and refetch.
    StreamOverflow {
        /// The stream.
        stream: StreamId,
        /// The listen request's id.
        subscription: OwnedRequestId,
    },
}
