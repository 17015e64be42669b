//! The host's calls: one builder per in-scope method (docs/rules.md §2–§11), plus
//! [`Client::cancel`]. Each returns at once with a [`CallId`]; the result arrives as an
//! [`Event`](super::Event).

use alloc::string::String;
use alloc::vec::Vec;

use super::call::{CachePolicy, CallId, CompletionRef, ListMode, Spec};
use super::error::ClientError;
use super::machine::{Client, Listen, Stage};
use super::reply::{self, Reply};
use super::tools;
use crate::cache::{CacheKey, ListKind, Lookup};
use crate::jsonrpc::Method;
use crate::messages::owned::{OwnedJson, OwnedSubscriptionFilter};

impl Client {
    /// `server/discover` (docs/rules.md §2); modern sessions only.
    pub fn discover(&mut self, policy: CachePolicy, now_ms: u64) -> CallId {
        self.start(Spec::Discover, policy, now_ms)
    }

    /// `resources/list` (docs/rules.md §5).
    pub fn list_resources(&mut self, mode: ListMode, policy: CachePolicy, now_ms: u64) -> CallId {
        self.start(list(ListKind::Resources, mode), policy, now_ms)
    }

    /// `resources/templates/list` (docs/rules.md §6).
    pub fn list_resource_templates(
        &mut self,
        mode: ListMode,
        policy: CachePolicy,
        now_ms: u64,
    ) -> CallId {
        self.start(list(ListKind::ResourceTemplates, mode), policy, now_ms)
    }

    /// `prompts/list` (docs/rules.md §8).
    pub fn list_prompts(&mut self, mode: ListMode, policy: CachePolicy, now_ms: u64) -> CallId {
        self.start(list(ListKind::Prompts, mode), policy, now_ms)
    }

    /// `tools/list`, paged like the other lists ([`Event::ToolsListed`](super::Event)). Each
    /// page is screened first: a tool whose `x-mcp-header` annotations are invalid is left
    /// out and refused by later calls (docs/rules.md §15.1); a walk from the first page
    /// forgets the tools seen before.
    pub fn list_tools(&mut self, mode: ListMode, policy: CachePolicy, now_ms: u64) -> CallId {
        self.start(list(ListKind::Tools, mode), policy, now_ms)
    }

    /// `resources/read` of `uri` (docs/rules.md §7).
    pub fn read_resource(&mut self, uri: &str, policy: CachePolicy, now_ms: u64) -> CallId {
        let uri = String::from(uri);
        self.start(Spec::Read { uri }, policy, now_ms)
    }

    /// A fresh cached `resources/read` result for `uri` visible to the current
    /// authorization context, without asking the server.
    pub fn read_cached(&mut self, uri: &str, now_ms: u64) -> Option<Reply<reply::Read>> {
        let cache = self.cache.as_mut()?;
        match cache.lookup(&CacheKey::Read { uri }, self.auth, now_ms) {
            Lookup::Fresh(bytes) => Reply::from_cached(bytes),
            Lookup::Stale(_) | Lookup::Miss => None,
        }
    }

    /// `prompts/get` of `name` with string `arguments` (docs/rules.md §9).
    pub fn get_prompt(&mut self, name: &str, arguments: &[(&str, &str)], now_ms: u64) -> CallId {
        let spec = Spec::GetPrompt {
            name: String::from(name),
            arguments: pairs(arguments),
        };
        self.start(spec, CachePolicy::Refresh, now_ms)
    }

    /// `completion/complete` of argument `name` at partial `value` (docs/rules.md §10);
    /// `context` holds already-resolved arguments.
    pub fn complete(
        &mut self,
        reference: CompletionRef,
        argument: (&str, &str),
        context: Option<&[(&str, &str)]>,
        now_ms: u64,
    ) -> CallId {
        let spec = Spec::Complete {
            reference,
            argument: (String::from(argument.0), String::from(argument.1)),
            context: context.map(pairs),
        };
        self.start(spec, CachePolicy::Refresh, now_ms)
    }

    /// `subscriptions/listen` with `filter` (docs/rules.md §11); on a legacy server, emulated with
    /// `resources/subscribe` and unsolicited list-changed notifications (docs/rules.md §17.2).
    pub fn listen(&mut self, filter: OwnedSubscriptionFilter, now_ms: u64) -> CallId {
        self.start(Spec::Listen { filter }, CachePolicy::Refresh, now_ms)
    }

    /// Sends `method`, a method the machine does not own (`tools/list`, `tools/call`,
    /// vendor methods), with `params` (a JSON object; `{}` for none). The machine adds what
    /// it adds to its own requests: the id, the per-request `_meta` (its keys first, then the
    /// host's other `_meta` keys), the deadline, the one `-32022` version retry and the
    /// `input_required` loop ([`Event::InputRequired`](super::Event::InputRequired), then
    /// [`Client::respond_input`]); `inputResponses` and `requestState` in `params` are
    /// ignored (the machine writes them on a retry only). The answer is
    /// [`Event::Responded`](super::Event::Responded) with the result object, or
    /// [`Event::Failed`](super::Event::Failed).
    ///
    /// `tools/list` results go to the host without the tools whose `x-mcp-header`
    /// annotations are invalid; a `tools/call` of a listed tool carries the `Mcp-Param-*`
    /// headers its annotations name ([`Transmit::param_headers`](super::Transmit::param_headers)),
    /// and `Mcp-Name` is its `params.name`. Results are not cached.
    ///
    /// # Errors
    /// [`ClientError::OwnedMethod`] for a method the machine owns (use its call),
    /// a notification, a method only servers send, or an `rpc.` name;
    /// [`ClientError::InvalidMethodName`] for a name that cannot be an `Mcp-Method` header
    /// value (spaces, controls, non-ASCII); [`ClientError::ParamsNotObject`]; [`ClientError::RejectedTool`] for a `tools/call`
    /// of a tool rejected from a `tools/list` result. Nothing is sent then.
    pub fn request(
        &mut self,
        method: &str,
        params: OwnedJson,
        now_ms: u64,
    ) -> Result<CallId, ClientError> {
        if owned_by_core(method) {
            return Err(ClientError::OwnedMethod);
        }
        if !method.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
            return Err(ClientError::InvalidMethodName);
        }
        let raw = params.as_raw();
        if raw.object().is_none() {
            return Err(ClientError::ParamsNotObject);
        }
        let mut param_headers = Vec::new();
        if method == "tools/call"
            && let Some(name) = raw.get("name").and_then(|n| n.as_str())
        {
            match self.tools.get(name.to_cow().as_ref()) {
                Some(None) => return Err(ClientError::RejectedTool),
                Some(Some(headers)) => {
                    let args = raw
                        .get("arguments")
                        .unwrap_or(crate::json::RawJson::EMPTY_OBJECT);
                    param_headers = tools::param_headers(headers, args);
                }
                None => {}
            }
        }
        let spec = Spec::Custom {
            method: String::from(method),
            params,
            param_headers,
        };
        Ok(self.start(spec, CachePolicy::Refresh, now_ms))
    }

    /// Gives up on `call`. An outstanding request is cancelled (stdio:
    /// `notifications/cancelled`; HTTP: [`Output::CloseStream`](super::Output::CloseStream));
    /// a legacy subscription unsubscribes URIs no other subscription holds. Late answers are
    /// ignored.
    ///
    /// # Errors
    /// [`ClientError::UnknownCall`].
    pub fn cancel(
        &mut self,
        call: CallId,
        reason: Option<&str>,
        now_ms: u64,
    ) -> Result<(), ClientError> {
        let state = self.calls.remove(&call).ok_or(ClientError::UnknownCall)?;
        self.queued.retain(|c| *c != call);
        match state.stage {
            Stage::Sent(id) | Stage::Listening(Listen { id: Some(id), .. }) => {
                self.cancel_request(id, reason);
            }
            Stage::Listening(listen) => self.legacy_unlisten(call, listen, now_ms),
            Stage::Queued | Stage::AwaitingInput { .. } => {}
        }
        Ok(())
    }
}

/// Methods [`Client::request`] refuses: the ones the machine sends itself (each has its
/// call), the ones only a server sends, notifications, and JSON-RPC's reserved `rpc.` names.
fn owned_by_core(method: &str) -> bool {
    matches!(
        Method::from_name(method),
        Method::ServerDiscover
            | Method::ResourcesList
            | Method::ResourcesTemplatesList
            | Method::ResourcesRead
            | Method::PromptsList
            | Method::PromptsGet
            | Method::CompletionComplete
            | Method::SubscriptionsListen
            | Method::ElicitationCreate
            | Method::SamplingCreateMessage
            | Method::RootsList
            | Method::Initialize
            | Method::Ping
            | Method::ResourcesSubscribe
            | Method::ResourcesUnsubscribe
    ) || method.starts_with("notifications/")
        || method.starts_with("rpc.")
        || method.is_empty()
}

fn list(kind: ListKind, mode: ListMode) -> Spec {
    let (cursor, follow) = match mode {
        ListMode::Page(cursor) => (cursor, false),
        ListMode::All => (None, true),
    };
    Spec::List {
        kind,
        cursor,
        follow,
        pages: Vec::new(),
    }
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(k, v)| (String::from(*k), String::from(*v)))
        .collect()
}
