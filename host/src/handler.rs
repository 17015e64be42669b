//! What a handler receives ([`ReadRequest`], [`PromptRequest`], [`ToolRequest`],
//! [`CompleteRequest`] and a [`Context`]) and what it may answer ([`ReadReply`],
//! [`ToolReply`]…).
//!
//! Every request type owns its data, so a handler is an ordinary `async move` block that
//! can await anything (a database, a file, another server) before it answers.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use mcp_context::json::RawJson;
use mcp_context::messages::owned::{OwnedGetPromptResult, OwnedJson, OwnedResourceContents};
use mcp_context::server::{CacheHint, DeclaredCapabilities, Handle, InputRequired, Retry};
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

use crate::engine::Engine;
use crate::error::Error;
use crate::notify::Notifier;

/// A boxed, sendable future: what every registered handler is turned into.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What a handler's future ends with.
pub type HandlerResult<T> = Result<T, Error>;

/// A `resources/read` the application answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRequest {
    /// The URI, validated by the core, exactly as requested.
    pub uri: String,
    /// The template that matched (its `uriTemplate`), or `None` for a registered resource
    /// or a forwarded unlisted read.
    pub template: Option<String>,
    /// The template's variables, percent-decoded, by name (empty without a template).
    pub variables: Vec<(String, String)>,
    /// The verified inputs of an `input_required` retry.
    pub retry: Option<Retry>,
}

impl ReadRequest {
    /// The decoded value of template variable `name`.
    #[must_use]
    pub fn var(&self, name: &str) -> Option<&str> {
        lookup(&self.variables, name)
    }
}

/// A `prompts/get` the application answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptRequest {
    /// The prompt's name (registered, visible to the caller).
    pub name: String,
    /// The arguments; every required one is present.
    pub arguments: Vec<(String, String)>,
    /// The verified inputs of an `input_required` retry.
    pub retry: Option<Retry>,
}

impl PromptRequest {
    /// Argument `name`.
    #[must_use]
    pub fn arg(&self, name: &str) -> Option<&str> {
        lookup(&self.arguments, name)
    }
}

/// A `tools/call` of a registered tool the caller may see: `arguments` is an object holding
/// every property the `inputSchema` requires (the core checked both; a missing one was
/// already answered as a tool error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRequest {
    /// The tool's name.
    pub name: String,
    /// `arguments`, a JSON object (`{}` when the request sent none).
    pub arguments: OwnedJson,
    /// The request carried a `progressToken` (see [`Context::progress`]).
    pub progress: bool,
    /// The verified inputs of an `input_required` retry.
    pub retry: Option<Retry>,
}

impl ToolRequest {
    /// Argument `name`, as raw JSON.
    #[must_use]
    pub fn arg(&self, name: &str) -> Option<RawJson<'_>> {
        self.arguments.as_raw().get(name)
    }
}

/// The answer to `tools/call`. A handler's `Err` is the core's rule (docs/rules.md §20.4):
/// [`crate::Error::tool`] (and `?` on any [`std::error::Error`]) is a result with
/// `isError: true` and the message as text, the other [`crate::Error`]s are protocol errors.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolReply {
    /// A `CallToolResult` object (`content` required; `structuredContent`, `isError`,
    /// `_meta` optional). The machine adds `resultType` and `_meta.serverInfo`.
    Result(OwnedJson),
    /// Ask the client first.
    InputRequired(InputRequired),
}

impl ToolReply {
    /// A result whose one content block is `text`.
    #[must_use]
    pub fn text(text: &str) -> Self {
        let quoted = mcp_context::json::to_string(text).unwrap_or_default();
        let json = OwnedJson::parse(
            ["{\"content\":[{\"type\":\"text\",\"text\":", &quoted, "}]}"].concat(),
        )
        .unwrap_or_else(|_| OwnedJson::empty_object());
        Self::Result(json)
    }
}

impl From<OwnedJson> for ToolReply {
    fn from(j: OwnedJson) -> Self {
        Self::Result(j)
    }
}

impl From<InputRequired> for ToolReply {
    fn from(i: InputRequired) -> Self {
        Self::InputRequired(i)
    }
}

/// A `completion/complete` for an argument with no built-in value set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompleteRequest {
    /// The argument (or template variable) being completed.
    pub argument: String,
    /// What the user typed so far.
    pub value: String,
    /// `context.arguments`: the arguments already resolved.
    pub context: Vec<(String, String)>,
}

impl CompleteRequest {
    /// The already-resolved argument `name`.
    #[must_use]
    pub fn context(&self, name: &str) -> Option<&str> {
        lookup(&self.context, name)
    }
}

fn lookup<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A request for an extension method the application registered (`tools/list`,
/// `tools/call`, a vendor method): validated by the core like its own methods (envelope,
/// `_meta`, version, headers on HTTP).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodRequest {
    /// The method, as registered.
    pub method: String,
    /// The params object as received (`_meta` included).
    pub params: OwnedJson,
    /// The request carried a `progressToken` (progress notifications can be sent).
    pub progress: bool,
    /// The verified inputs of an `input_required` retry.
    pub retry: Option<Retry>,
}

/// The answer to an extension method: a result object (the machine adds `resultType`,
/// `_meta.serverInfo` and, with a hint, `ttlMs`/`cacheScope`), or `input_required`.
#[derive(Debug, Clone, PartialEq)]
pub enum MethodReply {
    /// The result object.
    Result(OwnedJson),
    /// The result object with cache hints.
    Cached(OwnedJson, CacheHint),
    /// Ask the client first.
    InputRequired(InputRequired),
}

impl From<OwnedJson> for MethodReply {
    fn from(j: OwnedJson) -> Self {
        Self::Result(j)
    }
}

impl From<InputRequired> for MethodReply {
    fn from(i: InputRequired) -> Self {
        Self::InputRequired(i)
    }
}

/// A page of `resources/list` the application lists on demand (after the registered
/// resources; see [`crate::App::list_resources`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListRequest {
    /// The application's own cursor from its previous page's `next_cursor`; `None` for its
    /// first page.
    pub cursor: Option<String>,
}

/// One page of dynamically listed resources.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListPage {
    /// The resources of this page.
    pub resources: Vec<mcp_context::messages::owned::OwnedResource>,
    /// The application's cursor for the next page; `None` on the last one. The machine
    /// wraps it in its own opaque cursor.
    pub next_cursor: Option<String>,
}

/// The answer to a read: contents (with the registered cache hint, or one of its own),
/// or `input_required`.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadReply {
    /// Contents, sent with the hint the resource or template was registered with.
    Contents(Vec<OwnedResourceContents>),
    /// Contents with this hint instead.
    Cached(Vec<OwnedResourceContents>, CacheHint),
    /// Ask the client first (`resultType: "input_required"`).
    InputRequired(InputRequired),
}

impl From<Vec<OwnedResourceContents>> for ReadReply {
    fn from(c: Vec<OwnedResourceContents>) -> Self {
        Self::Contents(c)
    }
}

impl From<OwnedResourceContents> for ReadReply {
    fn from(c: OwnedResourceContents) -> Self {
        Self::Contents(vec![c])
    }
}

impl From<InputRequired> for ReadReply {
    fn from(i: InputRequired) -> Self {
        Self::InputRequired(i)
    }
}

/// The answer to `prompts/get`: messages, or `input_required`.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptReply {
    /// The prompt's messages.
    Messages(OwnedGetPromptResult),
    /// Ask the client first.
    InputRequired(InputRequired),
}

impl From<OwnedGetPromptResult> for PromptReply {
    fn from(r: OwnedGetPromptResult) -> Self {
        Self::Messages(r)
    }
}

impl From<InputRequired> for PromptReply {
    fn from(i: InputRequired) -> Self {
        Self::InputRequired(i)
    }
}

/// What every handler gets besides its request: the caller, what the request declared,
/// cancellation, progress, and a [`Notifier`] for change notifications.
#[derive(Clone)]
pub struct Context {
    pub(crate) engine: Arc<Engine>,
    pub(crate) handle: Handle,
    pub(crate) auth: u64,
    pub(crate) capabilities: DeclaredCapabilities,
    pub(crate) cancel: CancellationToken,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("handle", &self.handle)
            .field("caller", &self.auth)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// The caller: the authorization id the transport resolved for this request (`0` =
    /// anonymous; see the HTTP options).
    #[must_use]
    pub fn caller(&self) -> u64 {
        self.auth
    }

    /// The verified caller of a protected endpoint (docs/rules.md §22.3): subject, client,
    /// scopes, audience, expiry as the verifier resolved them; `None` on an unprotected
    /// endpoint, for the anonymous caller, and on stdio. The token itself is never kept.
    #[must_use]
    pub fn principal(&self) -> Option<Arc<mcp_context::auth::resource_server::Caller>> {
        (self.auth != 0)
            .then(|| self.engine.caller(self.auth))
            .flatten()
    }

    /// The client capabilities the request declared (input requests may use only these).
    #[must_use]
    pub fn capabilities(&self) -> DeclaredCapabilities {
        self.capabilities
    }

    /// The request's handle in the machine.
    #[must_use]
    pub fn handle(&self) -> Handle {
        self.handle
    }

    /// The client cancelled, the stream closed or the deadline passed: whatever the handler
    /// answers now is dropped. The handler's future is also dropped at that point, so
    /// awaiting this is only needed for work spawned elsewhere.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Completes when the request is cancelled (see [`Context::is_cancelled`]).
    pub fn cancelled(&self) -> WaitForCancellationFuture<'_> {
        self.cancel.cancelled()
    }

    /// Sends `notifications/progress` for this request (`progress` increasing, `total` if
    /// known, an optional message). Returns `false` when nothing was sent: the request
    /// carried no `progressToken`, or it is already answered or cancelled. On HTTP the
    /// response becomes an event stream whose last event is the result.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        let handle = self.handle;
        self.engine
            .input(|st, _| st.server.progress(handle, progress, total, message))
            .unwrap_or(false)
    }

    /// Change notifications and runtime registration.
    #[must_use]
    pub fn notifier(&self) -> Notifier {
        Notifier::new(self.engine.clone())
    }
}
