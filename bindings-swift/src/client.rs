//! `ClientMachine`: the sans-IO MCP client (`mcp_context::client::Client`) behind a lock.
//! Bytes and `now_ms` in, `ClientOutput`s out; results are the server's validated JSON text
//! (`Reply.json`) plus `fromCache`. Run loop and rules: the core's `client` module docs.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use mcp_context::cache::{AuthContext, CacheLimits};
use mcp_context::client::{
    CachePolicy as CoreCachePolicy, CallId, Client, ClientConfig as CoreConfig,
    CompletionRef as CoreRef, ListMode, Transport as CoreTransport,
};
use mcp_context::messages::owned::{OwnedImplementation, OwnedJson};

use crate::client_types::{ClientError, ClientOutput, HttpHeader, Reply, Session};
use crate::records::SubscriptionFilter;

/// How the host carries messages; decides how a cancellation is signalled (docs/rules.md §11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ClientTransport {
    /// stdio: cancelling sends `notifications/cancelled`.
    Stdio,
    /// Streamable HTTP: cancelling closes the request's stream (`ClientOutput.closeStream`).
    Http,
}

/// The client's configuration. `clientConfig(name:version:)` gives the core's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ClientConfig {
    /// `clientInfo.name` (`nil` with `client_version` `nil`: sent without clientInfo).
    pub client_name: Option<String>,
    /// `clientInfo.version`.
    pub client_version: Option<String>,
    /// `ClientCapabilities` JSON sent on every request (`"{}"` = none).
    pub capabilities_json: String,
    /// Modern versions, most preferred first (the first is probed).
    pub versions: Vec<String>,
    /// Legacy versions for the dual-era fallback; empty = modern only.
    pub legacy_versions: Vec<String>,
    /// The transport.
    pub transport: ClientTransport,
    /// How long a request may stay unanswered.
    pub request_timeout_ms: u64,
    /// How long the `server/discover` probe waits before the server is taken as legacy.
    pub probe_timeout_ms: u64,
    /// Pages one aggregated list call may fetch.
    pub max_pages: u32,
    /// `input_required` rounds per call.
    pub max_input_rounds: u8,
    /// Result cache entries (`nil`: no cache).
    pub cache_max_entries: Option<u64>,
    /// Result cache bytes.
    pub cache_max_bytes: u64,
}

/// The core's default client configuration for a client named `name` at `version`.
#[uniffi::export]
pub fn client_config(name: String, version: String) -> ClientConfig {
    let c = CoreConfig::new(&name, &version);
    let to_u64 = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    ClientConfig {
        client_name: c.client_info.as_ref().map(|i| i.name.clone()),
        client_version: c.client_info.as_ref().map(|i| i.version.clone()),
        capabilities_json: c.capabilities.as_raw().as_text().into(),
        versions: c.versions,
        legacy_versions: c.legacy_versions,
        transport: match c.transport {
            CoreTransport::Stdio => ClientTransport::Stdio,
            CoreTransport::Http => ClientTransport::Http,
        },
        request_timeout_ms: c.request_timeout_ms,
        probe_timeout_ms: c.probe_timeout_ms,
        max_pages: u32::try_from(c.max_pages).unwrap_or(u32::MAX),
        max_input_rounds: c.max_input_rounds,
        cache_max_entries: c.cache.map(|l| to_u64(l.max_entries)),
        cache_max_bytes: c.cache.map_or(0, |l| to_u64(l.max_bytes)),
    }
}

impl TryFrom<ClientConfig> for CoreConfig {
    type Error = ClientError;
    fn try_from(c: ClientConfig) -> Result<Self, ClientError> {
        let capabilities =
            OwnedJson::parse(c.capabilities_json).map_err(|_| ClientError::InvalidCapabilities)?;
        let to_usize = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Ok(Self {
            client_info: match (c.client_name, c.client_version) {
                (Some(n), Some(v)) => Some(OwnedImplementation::new(n, v)),
                _ => None,
            },
            capabilities,
            versions: c.versions,
            legacy_versions: c.legacy_versions,
            transport: match c.transport {
                ClientTransport::Stdio => CoreTransport::Stdio,
                ClientTransport::Http => CoreTransport::Http,
            },
            request_timeout_ms: c.request_timeout_ms,
            probe_timeout_ms: c.probe_timeout_ms,
            max_pages: usize::try_from(c.max_pages).unwrap_or(usize::MAX),
            max_input_rounds: c.max_input_rounds,
            cache: c.cache_max_entries.map(|e| CacheLimits {
                max_entries: to_usize(e),
                max_bytes: to_usize(c.cache_max_bytes),
            }),
        })
    }
}

/// Whether a cacheable call may be answered from the cache (docs/rules.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CachePolicy {
    /// Serve a fresh cached result without asking the server.
    PreferCache,
    /// Always ask the server (the result still refreshes the cache).
    Refresh,
}

impl From<CachePolicy> for CoreCachePolicy {
    fn from(p: CachePolicy) -> Self {
        match p {
            CachePolicy::PreferCache => Self::PreferCache,
            CachePolicy::Refresh => Self::Refresh,
        }
    }
}

/// How a list call pages (docs/rules.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ListPaging {
    /// One page from `cursor` (`nil`: the first).
    Page {
        /// `params.cursor`
        cursor: Option<String>,
    },
    /// Every page, following `nextCursor`.
    All,
}

impl From<ListPaging> for ListMode {
    fn from(p: ListPaging) -> Self {
        match p {
            ListPaging::Page { cursor } => Self::Page(cursor),
            ListPaging::All => Self::All,
        }
    }
}

/// `ref` of a `completion/complete` call (docs/rules.md §10).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CompletionRef {
    /// `ref/prompt` by name.
    Prompt {
        /// The prompt name.
        name: String,
    },
    /// `ref/resource` by template.
    Resource {
        /// The `uriTemplate`.
        uri_template: String,
    },
}

/// The sans-IO MCP client. Drain rule: after every input, call `pollOutput()` until `nil`,
/// then arm a timer for `pollTimeout()`. Thread-safe (one lock).
#[derive(Debug, uniffi::Object)]
pub struct ClientMachine {
    inner: Mutex<Client>,
}

fn call(c: CallId) -> u64 {
    c.0
}

impl ClientMachine {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Client> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[uniffi::export]
impl ClientMachine {
    /// A client with `config`. Throws `ClientError.invalidConfig…`.
    #[uniffi::constructor]
    pub fn new(config: ClientConfig) -> Result<Self, ClientError> {
        let client = Client::new(config.try_into()?).map_err(ClientError::from)?;
        Ok(Self {
            inner: Mutex::new(client),
        })
    }

    /// Starts the negotiation (`server/discover` first) if not connected; calls connect by
    /// themselves.
    pub fn connect(&self, now_ms: u64) {
        self.lock().connect(now_ms);
    }

    /// `server/discover`; returns the call id.
    pub fn discover(&self, policy: CachePolicy, now_ms: u64) -> u64 {
        call(self.lock().discover(policy.into(), now_ms))
    }

    /// `resources/list`.
    pub fn list_resources(&self, paging: ListPaging, policy: CachePolicy, now_ms: u64) -> u64 {
        call(
            self.lock()
                .list_resources(paging.into(), policy.into(), now_ms),
        )
    }

    /// `resources/templates/list`.
    pub fn list_resource_templates(
        &self,
        paging: ListPaging,
        policy: CachePolicy,
        now_ms: u64,
    ) -> u64 {
        call(
            self.lock()
                .list_resource_templates(paging.into(), policy.into(), now_ms),
        )
    }

    /// `prompts/list`.
    pub fn list_prompts(&self, paging: ListPaging, policy: CachePolicy, now_ms: u64) -> u64 {
        call(
            self.lock()
                .list_prompts(paging.into(), policy.into(), now_ms),
        )
    }

    /// `resources/read` of `uri`.
    pub fn read_resource(&self, uri: String, policy: CachePolicy, now_ms: u64) -> u64 {
        call(self.lock().read_resource(&uri, policy.into(), now_ms))
    }

    /// A fresh cached `resources/read` result for `uri`, without a call.
    pub fn read_cached(&self, uri: String, now_ms: u64) -> Option<Reply> {
        self.lock().read_cached(&uri, now_ms).map(Reply::from)
    }

    /// `prompts/get` of `name` with string `arguments`.
    pub fn get_prompt(&self, name: String, arguments: HashMap<String, String>, now_ms: u64) -> u64 {
        let pairs = crate::records::sorted_pairs(arguments);
        let borrowed: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        call(self.lock().get_prompt(&name, &borrowed, now_ms))
    }

    /// `completion/complete` of `argument` at partial `value`; `context` holds resolved
    /// arguments.
    pub fn complete(
        &self,
        reference: CompletionRef,
        argument: String,
        value: String,
        context: Option<HashMap<String, String>>,
        now_ms: u64,
    ) -> u64 {
        let reference = match reference {
            CompletionRef::Prompt { name } => CoreRef::Prompt(name),
            CompletionRef::Resource { uri_template } => CoreRef::Resource(uri_template),
        };
        let context = context.map(crate::records::sorted_pairs);
        let borrowed: Option<Vec<(&str, &str)>> = context
            .as_ref()
            .map(|c| c.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect());
        call(
            self.lock()
                .complete(reference, (&argument, &value), borrowed.as_deref(), now_ms),
        )
    }

    /// `subscriptions/listen` with `filter` (legacy servers: emulated).
    pub fn listen(&self, filter: SubscriptionFilter, now_ms: u64) -> u64 {
        call(self.lock().listen(filter.into(), now_ms))
    }

    /// Gives up on `call` (stdio: `notifications/cancelled`; HTTP: `closeStream`).
    /// Throws `ClientError.unknownCall`.
    pub fn cancel(
        &self,
        call: u64,
        reason: Option<String>,
        now_ms: u64,
    ) -> Result<(), ClientError> {
        Ok(self
            .lock()
            .cancel(CallId(call), reason.as_deref(), now_ms)?)
    }

    /// Answers an `inputRequired` event: one result object (JSON text) per requested key;
    /// the call is retried with them.
    pub fn respond_input(
        &self,
        call: u64,
        responses: HashMap<String, String>,
        now_ms: u64,
    ) -> Result<(), ClientError> {
        let mut parsed = Vec::with_capacity(responses.len());
        for (k, v) in crate::records::sorted_pairs(responses) {
            let json = OwnedJson::parse(v).map_err(|_| ClientError::InputResponseNotObject)?;
            parsed.push((k, json));
        }
        Ok(self.lock().respond_input(CallId(call), parsed, now_ms)?)
    }

    /// Any other request (`tools/list`, `tools/call`, vendor methods) with the machine's
    /// `_meta`, id, deadline, version retry and `input_required` loop; `params_json` is the
    /// params object. The answer is `ClientEvent.responded` (or `.failed`). Throws
    /// `ClientError.ownedMethod`, `.paramsNotObject` or `.rejectedTool`.
    pub fn request(
        &self,
        method: String,
        params_json: String,
        now_ms: u64,
    ) -> Result<u64, ClientError> {
        let params = OwnedJson::parse(params_json).map_err(|_| ClientError::ParamsNotObject)?;
        Ok(self.lock().request(&method, params, now_ms)?.0)
    }

    /// One message from the server (one stdio line, or one HTTP/SSE body).
    pub fn handle_message(&self, bytes: Vec<u8>, now_ms: u64) {
        self.lock().handle_message(&bytes, now_ms);
    }

    /// Fails requests past their deadline; call at `pollTimeout()`.
    pub fn handle_timeout(&self, now_ms: u64) {
        self.lock().handle_timeout(now_ms);
    }

    /// HTTP: request `id` got no JSON-RPC answer (e.g. 404 with an empty body).
    pub fn handle_request_failed(&self, id: i64, now_ms: u64) {
        self.lock().handle_request_failed(id, now_ms);
    }

    /// HTTP: the response head of request `id` (`nil`: a notification's POST): `status` and
    /// its `Mcp-Session-Id` header; call before handing its body over. A 2025-11-25
    /// `initialize` answer starts the session (later `httpHeaders` carry it); a 404 on the
    /// session starts a new one and sends the calls in flight again.
    pub fn handle_http_response(
        &self,
        id: Option<i64>,
        status: u16,
        session_id: Option<String>,
        now_ms: u64,
    ) {
        self.lock()
            .handle_http_response(id, status, session_id.as_deref(), now_ms);
    }

    /// Ends the 2025-11-25 HTTP session, if any: the headers of the `DELETE` to send to the
    /// endpoint. Call at close, before `handleClose`.
    pub fn end_session(&self) -> Option<Vec<HttpHeader>> {
        self.lock().end_session().map(|headers| {
            headers
                .into_iter()
                .map(|(name, value)| HttpHeader {
                    name: name.to_owned(),
                    value,
                })
                .collect()
        })
    }

    /// The 2025-11-25 HTTP session id in force.
    pub fn http_session_id(&self) -> Option<String> {
        self.lock().http_session_id().map(String::from)
    }

    /// The transport closed.
    pub fn handle_close(&self, now_ms: u64) {
        self.lock().handle_close(now_ms);
    }

    /// The next output, `nil` when drained.
    pub fn poll_output(&self) -> Option<ClientOutput> {
        self.lock().poll_output().map(ClientOutput::from)
    }

    /// When `handleTimeout` must be called next.
    pub fn poll_timeout(&self) -> Option<u64> {
        self.lock().poll_timeout()
    }

    /// The negotiated session, once connected.
    pub fn session(&self) -> Option<Session> {
        self.lock().session().cloned().map(Session::from)
    }

    /// Requests outstanding.
    pub fn outstanding(&self) -> u64 {
        u64::try_from(self.lock().outstanding()).unwrap_or(u64::MAX)
    }

    /// The authorization context of the requests that follow (`nil` = anonymous); private
    /// results are cached per context.
    pub fn set_auth_context(&self, auth_context: Option<u64>) {
        self.lock().set_auth_context(auth_context.map(AuthContext));
    }

    /// Request `id` was answered under the authorization context `auth_context` (a 401 ran
    /// an authorization and it went again with the new token): call before handing its answer
    /// over, so its private result is cached for that context. No-op for an unknown id.
    pub fn set_request_auth_context(&self, id: i64, auth_context: Option<u64>) {
        self.lock()
            .set_request_auth_context(id, auth_context.map(AuthContext));
    }
}

#[cfg(test)]
mod tests {
    use super::{ClientConfig, CoreConfig, client_config};
    use crate::client_types::ClientError;

    #[test]
    fn config_round_trips_to_the_core_defaults() {
        let core = CoreConfig::try_from(client_config("n".into(), "1".into())).unwrap();
        assert_eq!(core, CoreConfig::new("n", "1"));
        let bad = ClientConfig {
            capabilities_json: "{".into(),
            ..client_config("n".into(), "1".into())
        };
        assert_eq!(
            CoreConfig::try_from(bad).unwrap_err(),
            ClientError::InvalidCapabilities
        );
    }
}
