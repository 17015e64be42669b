//! `ServerMachine`: the sans-IO MCP server (`mcp_context::server::Server`) behind a lock.
//! Contract: docs/server-machine.md. Bytes and `now_ms` in; `ServerOutput`s (transmits and
//! events) out; the host answers events by handle.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_context::messages::owned::{
    FromJsonText, OwnedGetPromptResult, OwnedInputRequest, OwnedPrompt, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    CacheHint as CoreHint, Ctx as CoreCtx, Failure as CoreFailure, Handle, InputRequired,
    PromptEntry, ResourceEntry, SealingKey as CoreKey, Server, ServerConfig as CoreConfig,
    StreamId, TemplateEntry, Transport as CoreTransport,
};

use crate::records::{
    self, CacheHint, Implementation, Prompt, Resource, ResourceContents, ResourceTemplate,
};
use crate::server_types::{RegisterError, RespondError, ServerConfigError, ServerOutput};

/// The transport a stream belongs to (statuses, framing, teardown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ServerTransport {
    /// Newline-delimited JSON-RPC on one channel.
    Stdio,
    /// Streamable HTTP: one response stream per POST.
    Http,
}

/// Where a message came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Record)]
pub struct MessageContext {
    /// The host's id of the stream the answers go to (one per POST; one per stdio link).
    pub stream: u64,
    /// Opaque caller-context id (the resolved authorization; 0 = anonymous).
    pub auth: u64,
    /// The transport of `stream`.
    pub transport: ServerTransport,
}

impl From<MessageContext> for CoreCtx {
    fn from(c: MessageContext) -> Self {
        Self {
            stream: StreamId(c.stream),
            auth: c.auth,
            transport: match c.transport {
                ServerTransport::Stdio => CoreTransport::Stdio,
                ServerTransport::Http => CoreTransport::Http,
            },
            // No Swift runner passes a peer address yet: no per-peer session bound.
            peer: None,
            scopes: None,
        }
    }
}

/// What `handleMessage` received. On HTTP answer a `.notification` POST with 202.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Received {
    /// A request: exactly one response follows (maybe after an event).
    Request,
    /// A notification: never answered.
    Notification,
    /// A JSON-RPC response from the client: ignored.
    Response,
    /// Not a valid message: an error response was queued.
    Invalid,
}

/// One `requestState` sealing key: the newest seals, every key opens.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct SealingKey {
    /// The key id written into tokens.
    pub id: u32,
    /// The secret (at least 32 bytes).
    pub secret: Vec<u8>,
}

/// The server's configuration; `serverConfig()` gives the core's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ServerConfig {
    /// `serverInfo` on every result (`nil`: none).
    pub server_info: Option<Implementation>,
    /// `server/discover` `instructions`.
    pub instructions: Option<String>,
    /// Protocol versions served.
    pub supported_versions: Vec<String>,
    /// Items per list page.
    pub page_size: u32,
    /// Hints on `server/discover`.
    pub discover_cache: CacheHint,
    /// Hints on `resources/list` pages.
    pub resources_list_cache: CacheHint,
    /// Hints on `resources/templates/list` pages.
    pub templates_list_cache: CacheHint,
    /// Hints on `prompts/list` pages.
    pub prompts_list_cache: CacheHint,
    /// Hints on `tools/list` pages.
    pub tools_list_cache: CacheHint,
    /// Default hints on `resources/read` results.
    pub read_cache: CacheHint,
    /// How long the application has to answer an event.
    pub request_timeout_ms: u64,
    /// Notifications a listen subscription may have queued.
    pub stream_queue: u32,
    /// `requestState` sealing keys, newest first (none: no `requestState`).
    pub state_keys: Vec<SealingKey>,
    /// Lifetime of a sealed `requestState`.
    pub state_ttl_ms: u64,
    /// Forward reads matching nothing as `ReadTarget.unlisted`.
    pub forward_unlisted_reads: bool,
    /// Declare `resources` with nothing registered.
    pub declare_resources: bool,
    /// Declare `prompts` with nothing registered.
    pub declare_prompts: bool,
    /// Forward completions without a value set as events.
    pub completion_events: bool,
    /// `resources/list` also pages through the host's own items after the registered ones
    /// (`ServerEvent.listResources`, answered with `respondList`).
    pub dynamic_resources: bool,
    /// Concurrent `subscriptions/listen` per stream; one more gets a JSON-RPC error.
    pub max_listens_per_stream: u32,
    /// Concurrent `subscriptions/listen` in total.
    pub max_listens: u32,
    /// Requests awaiting an answer per stream.
    pub max_pending_per_stream: u32,
    /// Requests awaiting an answer in total.
    pub max_pending: u32,
    /// The longest HTTP request body (bytes) `handleHttp` accepts; a longer one gets 413.
    /// Default: 4 MiB.
    pub max_body: u64,
    /// The longest stdio line (bytes before the `\n`) a runner accepts; a longer one is
    /// answered -32600 (`StdioLines`, `handleLineTooLong`) and never buffered. Default: 4 MiB.
    pub max_line: u64,
    /// Serve 2025-11-25 clients too (an `initialize` makes a stdio connection legacy, or
    /// opens an HTTP session). Default: true.
    pub legacy_sessions: bool,
    /// 2025-11-25 HTTP sessions open at once; when full, a new `initialize` replaces the
    /// oldest half-open one, or gets HTTP 503 with `Retry-After`. Default: 1024.
    pub max_sessions: u32,
    /// A 2025-11-25 HTTP session without a request for this long ends. Default: 30 min.
    pub session_idle_ms: u64,
    /// A 2025-11-25 HTTP session that has seen no request since its `initialize` ends after
    /// this long (such sessions are also evicted first when the table is full). Default: 10 s.
    pub session_handshake_ms: u64,
    /// 2025-11-25 HTTP sessions one peer (`MessageContext`'s peer, as the host passes it) may
    /// hold; at the bound its oldest half-open session makes room, otherwise HTTP 429.
    /// Default: 256.
    pub max_sessions_per_peer: u32,
}

fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn big(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The core's default server configuration.
#[uniffi::export]
pub fn server_config() -> ServerConfig {
    CoreConfig::default().into()
}

impl From<CoreConfig> for ServerConfig {
    fn from(c: CoreConfig) -> Self {
        Self {
            server_info: c.server_info.map(Into::into),
            instructions: c.instructions,
            supported_versions: c.supported_versions,
            page_size: small(c.page_size),
            discover_cache: c.discover_cache.into(),
            resources_list_cache: c.resources_list_cache.into(),
            templates_list_cache: c.templates_list_cache.into(),
            prompts_list_cache: c.prompts_list_cache.into(),
            tools_list_cache: c.tools_list_cache.into(),
            read_cache: c.read_cache.into(),
            request_timeout_ms: c.request_timeout_ms,
            stream_queue: small(c.stream_queue),
            state_keys: c
                .state_keys
                .into_iter()
                .map(|k| SealingKey {
                    id: k.id,
                    secret: k.secret,
                })
                .collect(),
            state_ttl_ms: c.state_ttl_ms,
            forward_unlisted_reads: c.forward_unlisted_reads,
            declare_resources: c.declare_resources,
            declare_prompts: c.declare_prompts,
            completion_events: c.completion_events,
            dynamic_resources: c.dynamic_resources,
            max_listens_per_stream: small(c.max_listens_per_stream),
            max_listens: small(c.max_listens),
            max_pending_per_stream: small(c.max_pending_per_stream),
            max_pending: small(c.max_pending),
            legacy_sessions: c.legacy_sessions,
            max_sessions: small(c.max_sessions),
            session_idle_ms: c.session_idle_ms,
            max_body: u64::try_from(c.http.max_body).unwrap_or(u64::MAX),
            max_line: u64::try_from(c.max_line).unwrap_or(u64::MAX),
            session_handshake_ms: c.session_handshake_ms,
            max_sessions_per_peer: small(c.max_sessions_per_peer),
        }
    }
}

impl From<ServerConfig> for CoreConfig {
    fn from(c: ServerConfig) -> Self {
        let defaults = Self::default();
        Self {
            server_info: c.server_info.map(Into::into),
            instructions: c.instructions,
            supported_versions: c.supported_versions,
            page_size: big(c.page_size),
            discover_cache: c.discover_cache.into(),
            resources_list_cache: c.resources_list_cache.into(),
            templates_list_cache: c.templates_list_cache.into(),
            prompts_list_cache: c.prompts_list_cache.into(),
            tools_list_cache: c.tools_list_cache.into(),
            read_cache: c.read_cache.into(),
            request_timeout_ms: c.request_timeout_ms,
            stream_queue: big(c.stream_queue),
            state_keys: c
                .state_keys
                .into_iter()
                .map(|k| CoreKey {
                    id: k.id,
                    secret: k.secret,
                })
                .collect(),
            state_ttl_ms: c.state_ttl_ms,
            forward_unlisted_reads: c.forward_unlisted_reads,
            declare_resources: c.declare_resources,
            declare_prompts: c.declare_prompts,
            completion_events: c.completion_events,
            dynamic_resources: c.dynamic_resources,
            max_listens_per_stream: big(c.max_listens_per_stream),
            max_listens: big(c.max_listens),
            max_pending_per_stream: big(c.max_pending_per_stream),
            max_pending: big(c.max_pending),
            legacy_sessions: c.legacy_sessions,
            max_sessions: big(c.max_sessions),
            session_idle_ms: c.session_idle_ms,
            max_line: usize::try_from(c.max_line).unwrap_or(usize::MAX),
            session_handshake_ms: c.session_handshake_ms,
            max_sessions_per_peer: big(c.max_sessions_per_peer),
            http: mcp_context::http::HttpConfig {
                max_body: usize::try_from(c.max_body).unwrap_or(usize::MAX),
                ..defaults.http
            },
            ..defaults
        }
    }
}

/// Why the application cannot answer an event (`fail`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Failure {
    /// Not found: -32602 (with `data.uri` on reads).
    NotFound,
    /// Bad arguments: -32602 with this message.
    InvalidParams {
        /// One concise sentence.
        message: String,
    },
    /// -32603.
    Internal,
    /// An application error: -32602 is invalid params, -32002 not found, other codes in
    /// -32768...-32000 are sent as -32603 (the core's `Failure::from_code`).
    Application {
        /// The code.
        code: i32,
        /// The message.
        message: String,
    },
    /// The handler failed in its own way (a thrown error that is none of the above): a
    /// `tools/call` is answered with a result, `isError: true` and `message` as its text (the
    /// model sees it); any other request gets -32603 without the message.
    Handler {
        /// What went wrong, for the model (tools only).
        message: String,
    },
}

impl From<Failure> for CoreFailure {
    fn from(f: Failure) -> Self {
        match f {
            Failure::NotFound => Self::NotFound,
            Failure::InvalidParams { message } => Self::InvalidParams(message.into()),
            Failure::Internal => Self::Internal,
            Failure::Handler { message } => Self::Handler(message.into()),
            // The core maps the code (-32602, -32002, reserved ranges, the host's own).
            Failure::Application { code, message } => Self::from_code(code, message),
        }
    }
}

fn register_json(description: String) -> RegisterError {
    RegisterError::InvalidJson { description }
}

fn respond_json(description: String) -> RespondError {
    RespondError::InvalidJson { description }
}

/// Decodes wire-shaped JSON text with the core's schema-checking decoders.
fn decode<T: FromJsonText, E>(text: &str, err: impl Fn(String) -> E) -> Result<T, E> {
    T::from_json_text(text).map_err(|e| err(e.to_string()))
}

fn value_sets(c: HashMap<String, Vec<String>>) -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = c.into_iter().collect();
    v.sort();
    v
}

/// The sans-IO MCP server. Drain rule: after every input call `pollOutput()` until `nil`,
/// then arm a timer for `pollTimeout()`. Thread-safe (one lock).
#[derive(uniffi::Object)]
pub struct ServerMachine {
    inner: Mutex<Server>,
}

impl std::fmt::Debug for ServerMachine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerMachine").finish_non_exhaustive()
    }
}

impl ServerMachine {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Server> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[uniffi::export]
impl ServerMachine {
    /// A server with `config`. Throws `ServerConfigError`.
    #[uniffi::constructor]
    pub fn new(config: ServerConfig) -> Result<Self, ServerConfigError> {
        Ok(Self {
            inner: Mutex::new(Server::new(config.into())?),
        })
    }

    // ---- registration ----

    /// Registers a static resource; `contents` `nil` asks the application on each read
    /// (`readResource` event), `[]` is an existing empty resource.
    pub fn add_resource(
        &self,
        resource: Resource,
        contents: Option<Vec<ResourceContents>>,
        cache: Option<CacheHint>,
    ) -> Result<(), RegisterError> {
        Ok(self.lock().add_resource(ResourceEntry {
            resource: resource.into(),
            contents: contents.map(records::contents),
            cache: cache.map(Into::into),
        })?)
    }

    /// Removes a static resource; `false` if it was not registered.
    pub fn remove_resource(&self, uri: String) -> bool {
        self.lock().remove_resource(&uri)
    }

    /// Replaces the stored contents of a static resource; `false` if not registered. Call
    /// `resourceUpdated` to tell listeners.
    pub fn set_resource_contents(
        &self,
        uri: String,
        contents: Option<Vec<ResourceContents>>,
    ) -> bool {
        self.lock()
            .set_resource_contents(&uri, contents.map(records::contents))
    }

    /// Registers a template (reads of URIs it matches become `readResource` events with
    /// `.template` targets); `completions`: variable → candidate values. Returns its id.
    pub fn add_template(
        &self,
        template: ResourceTemplate,
        cache: Option<CacheHint>,
        completions: HashMap<String, Vec<String>>,
    ) -> Result<u32, RegisterError> {
        let id = self.lock().add_template(TemplateEntry {
            template: template.into(),
            cache: cache.map(Into::into),
            completions: value_sets(completions),
        })?;
        Ok(id.get())
    }

    /// Removes a template by its `uriTemplate`; `false` if not registered.
    pub fn remove_template(&self, uri_template: String) -> bool {
        self.lock().remove_template(&uri_template)
    }

    /// Registers a prompt; `completions`: argument → candidate values.
    pub fn add_prompt(
        &self,
        prompt: Prompt,
        completions: HashMap<String, Vec<String>>,
    ) -> Result<(), RegisterError> {
        Ok(self.lock().add_prompt(PromptEntry {
            prompt: prompt.into(),
            completions: value_sets(completions),
        })?)
    }

    /// `addResource` with the resource (`Resource`), its contents (an array of
    /// `ResourceContents`) and cache hints (`{"ttlMs","cacheScope"}`) as JSON text in the
    /// spec's wire shape, annotations, icons and `_meta` included. Throws
    /// `RegisterError.InvalidJson` naming the first field that breaks the schema.
    pub fn add_resource_json(
        &self,
        resource_json: String,
        contents_json: Option<String>,
        cache_json: Option<String>,
    ) -> Result<(), RegisterError> {
        let resource = decode::<OwnedResource, _>(&resource_json, register_json)?;
        let contents = contents_json
            .map(|t| decode::<Vec<OwnedResourceContents>, _>(&t, register_json))
            .transpose()?;
        let cache = cache_json
            .map(|t| decode::<CoreHint, _>(&t, register_json))
            .transpose()?;
        Ok(self.lock().add_resource(ResourceEntry {
            resource,
            contents,
            cache,
        })?)
    }

    /// `addTemplate` with the `ResourceTemplate` and cache hints as wire-shaped JSON text.
    pub fn add_template_json(
        &self,
        template_json: String,
        cache_json: Option<String>,
        completions: HashMap<String, Vec<String>>,
    ) -> Result<u32, RegisterError> {
        let template = decode::<OwnedResourceTemplate, _>(&template_json, register_json)?;
        let cache = cache_json
            .map(|t| decode::<CoreHint, _>(&t, register_json))
            .transpose()?;
        let id = self.lock().add_template(TemplateEntry {
            template,
            cache,
            completions: value_sets(completions),
        })?;
        Ok(id.get())
    }

    /// `addPrompt` with the `Prompt` as wire-shaped JSON text.
    pub fn add_prompt_json(
        &self,
        prompt_json: String,
        completions: HashMap<String, Vec<String>>,
    ) -> Result<(), RegisterError> {
        let prompt = decode::<OwnedPrompt, _>(&prompt_json, register_json)?;
        Ok(self.lock().add_prompt(PromptEntry {
            prompt,
            completions: value_sets(completions),
        })?)
    }

    /// Installs a visibility filter (see `VisibilityFilter`): lists, reads, prompts and
    /// completion references then depend on the caller's `auth`, and every list page and
    /// static read is `cacheScope: "private"`.
    pub fn set_visibility(&self, filter: Arc<dyn crate::visibility::VisibilityFilter>) {
        self.lock().set_visibility(crate::visibility::boxed(filter));
    }

    /// Removes a prompt; `false` if not registered.
    pub fn remove_prompt(&self, name: String) -> bool {
        self.lock().remove_prompt(&name)
    }

    // ---- run loop ----

    /// One JSON-RPC message (a stdio line without its newline, or an HTTP POST body).
    pub fn handle_message(&self, bytes: Vec<u8>, now_ms: u64, context: MessageContext) -> Received {
        use mcp_context::server::Received as R;
        match self.lock().handle_message(&bytes, now_ms, context.into()) {
            R::Request => Received::Request,
            R::Notification => Received::Notification,
            R::Response => Received::Response,
            _ => Received::Invalid,
        }
    }

    /// The next output, in the order produced; `nil` when drained.
    pub fn poll_output(&self) -> Option<ServerOutput> {
        let mut server = self.lock();
        let out = server.poll_output()?;
        Some(crate::server_types::output(out, &server))
    }

    /// When `handleTimeout` must be called next.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.lock().poll_timeout()
    }

    /// Fails every request past its deadline (-32603).
    pub fn handle_timeout(&self, now_ms: u64) {
        self.lock().handle_timeout(now_ms);
    }

    /// The transport closed `stream`: its subscriptions end, its events are cancelled.
    pub fn stream_closed(&self, stream: u64) {
        self.lock().stream_closed(StreamId(stream));
    }

    // ---- answers ----

    /// Answers a `readResource` event with contents (configured cache hints).
    pub fn respond_read(
        &self,
        handle: u64,
        contents: Vec<ResourceContents>,
    ) -> Result<(), RespondError> {
        Ok(self
            .lock()
            .respond_read(Handle::from_raw(handle), records::contents(contents))?)
    }

    /// Answers a `readResource` event with contents and explicit cache hints.
    pub fn respond_read_cached(
        &self,
        handle: u64,
        contents: Vec<ResourceContents>,
        cache: CacheHint,
    ) -> Result<(), RespondError> {
        Ok(self.lock().respond_read_cached(
            Handle::from_raw(handle),
            records::contents(contents),
            cache.into(),
        )?)
    }

    /// `respondRead` with the contents as a wire-shaped JSON array of `ResourceContents`.
    pub fn respond_read_json(
        &self,
        handle: u64,
        contents_json: String,
    ) -> Result<(), RespondError> {
        let contents = decode::<Vec<OwnedResourceContents>, _>(&contents_json, respond_json)?;
        Ok(self
            .lock()
            .respond_read(Handle::from_raw(handle), contents)?)
    }

    /// Answers a `getPrompt` event with a `GetPromptResult` in wire-shaped JSON text
    /// (`{"description"?, "messages": [{"role", "content"}]}`); `serverInfo` is added.
    pub fn respond_prompt(&self, handle: u64, result_json: String) -> Result<(), RespondError> {
        let result = decode::<OwnedGetPromptResult, _>(&result_json, respond_json)?;
        Ok(self
            .lock()
            .respond_prompt(Handle::from_raw(handle), result)?)
    }

    /// Answers a read or prompt event with `input_required` (docs/rules.md §13): `input_requests_json`
    /// is the `inputRequests` object (key → `{"method", "params"}`); `state` is sealed into
    /// `requestState` (needs a sealing key) and comes back, verified, in the retry's event.
    pub fn respond_input_required(
        &self,
        handle: u64,
        input_requests_json: String,
        state: Option<Vec<u8>>,
    ) -> Result<(), RespondError> {
        let requests =
            decode::<Vec<(String, OwnedInputRequest)>, _>(&input_requests_json, respond_json)?;
        Ok(self
            .lock()
            .respond_input_required(Handle::from_raw(handle), InputRequired { requests, state })?)
    }

    /// Answers a `complete` event with candidates in relevance order (first 100 sent).
    pub fn respond_completion(&self, handle: u64, values: Vec<String>) -> Result<(), RespondError> {
        Ok(self
            .lock()
            .respond_completion(Handle::from_raw(handle), values)?)
    }

    /// Answers an event with an error.
    pub fn fail(&self, handle: u64, failure: Failure) -> Result<(), RespondError> {
        Ok(self.lock().fail(Handle::from_raw(handle), failure.into())?)
    }

    // ---- notifications ----

    /// `notifications/resources/updated` to the subscriptions that listed `uri` (or a
    /// URI it is a sub-resource of).
    pub fn resource_updated(&self, uri: String) {
        self.lock().resource_updated(&uri);
    }

    /// `notifications/resources/list_changed` to the subscriptions that opted in.
    pub fn resources_list_changed(&self) {
        self.lock().resources_list_changed();
    }

    /// `notifications/prompts/list_changed` to the subscriptions that opted in.
    pub fn prompts_list_changed(&self) {
        self.lock().prompts_list_changed();
    }

    /// Graceful close of every subscription.
    pub fn shutdown(&self) {
        self.lock().shutdown();
    }

    /// Events not yet answered.
    pub fn pending_requests(&self) -> u64 {
        u64::try_from(self.lock().pending_requests()).unwrap_or(u64::MAX)
    }

    /// Open listen subscriptions.
    pub fn subscriptions(&self) -> u64 {
        u64::try_from(self.lock().subscriptions()).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::{CoreConfig, server_config};

    /// The record carries every setting it names unchanged, both ways: the Swift defaults are
    /// the core's.
    #[test]
    fn config_round_trips_to_the_core_defaults() {
        let core: CoreConfig = server_config().into();
        assert_eq!(format!("{core:?}"), format!("{:?}", CoreConfig::default()));
    }

    /// Every limit the core names (`ServerConfig::LIMITS`, the set every binding offers)
    /// goes through the Swift record both ways.
    #[test]
    fn every_named_limit_round_trips() {
        let mut core = CoreConfig::default();
        for (i, name) in (1000..).zip(CoreConfig::LIMITS) {
            core.set_limit(name, i).unwrap();
        }
        let back: CoreConfig = super::ServerConfig::from(core).into();
        for (i, name) in (1000..).zip(CoreConfig::LIMITS) {
            assert_eq!(back.limit(name), Some(i), "{name}");
        }
    }

    /// The limits set in Swift are the machine's.
    #[test]
    fn limits_reach_the_core() {
        let mut c = server_config();
        c.max_line = 10;
        c.session_handshake_ms = 5;
        c.max_sessions_per_peer = 3;
        c.max_sessions = 7;
        c.session_idle_ms = 9;
        c.legacy_sessions = false;
        let core: CoreConfig = c.into();
        assert_eq!(
            (
                core.max_line,
                core.session_handshake_ms,
                core.max_sessions_per_peer,
                core.max_sessions,
                core.session_idle_ms,
                core.legacy_sessions
            ),
            (10, 5, 3, 7, 9, false)
        );
    }
}
