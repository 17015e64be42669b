//! Answers to host calls: typed replies per method, the server's errors, the cache, and the
//! pagination walk (docs/rules.md §3, §4, §16.3, §16.4).

use alloc::string::String;
use alloc::vec::Vec;

use super::call::{CallId, Spec};
use super::error::{CallError, ServerError};
use super::event::{EndReason, Event};
use super::machine::{Client, Stage, cache_key};
use super::reply::{self, Listing, Reply, ReplyKind};
use super::tools;
use crate::cache::{Attempt, AuthContext, CacheHints, Invalidation, ListKind};
use crate::error_code::ErrorCode;
use crate::json::RawJson;
use crate::jsonrpc::{ErrorObject, FromJson, ParamsError, ParamsErrorKind, RequestId};
use crate::messages::owned::OwnedJson;
use crate::messages::{self, GetPromptResult, ListenResult, Outcome, ReadResourceResult};

/// How many tools the machine remembers from `tools/list` results (a hostile server cannot
/// grow the client without bound). Past it, further tools are still screened out of the
/// result the host sees, but a `tools/call` of them carries no `Mcp-Param-*` headers and is
/// not refused by the machine.
const MAX_TOOLS: usize = 4096;

/// The caching hints of a result (docs/rules.md §4): absent `ttlMs` is 0, absent scope private.
pub(crate) fn hints(ttl_ms: Option<u64>, scope: Option<messages::CacheScope>) -> CacheHints {
    CacheHints {
        ttl_ms: ttl_ms.map(|t| i64::try_from(t).unwrap_or(i64::MAX)),
        scope,
    }
}

/// The hints of a cacheable result, read from its JSON.
fn hints_of(spec: &Spec, result: RawJson<'_>) -> Option<CacheHints> {
    macro_rules! read {
        ($view:ty) => {{
            let v = <$view>::from_json(result).ok()?;
            Some(hints(v.ttl_ms, v.cache_scope))
        }};
    }
    match spec {
        Spec::Discover => read!(messages::DiscoverResult<'_>),
        Spec::List {
            kind: ListKind::Resources,
            ..
        } => read!(messages::ListResourcesResult<'_>),
        Spec::List {
            kind: ListKind::ResourceTemplates,
            ..
        } => {
            read!(messages::ListResourceTemplatesResult<'_>)
        }
        Spec::List {
            kind: ListKind::Prompts,
            ..
        } => read!(messages::ListPromptsResult<'_>),
        Spec::List {
            kind: ListKind::Tools,
            ..
        } => read!(messages::ListToolsResult<'_>),
        // `input_required` does not decode as a complete result: never stored.
        Spec::Read { .. } => read!(ReadResourceResult<'_>),
        _ => None,
    }
}

impl Client {
    /// The answer to an attempt of `call` (request `id`, sent under `auth`).
    pub(crate) fn on_call_response(
        &mut self,
        call: CallId,
        id: i64,
        auth: Option<AuthContext>,
        outcome: Result<RawJson<'_>, ErrorObject<'_>>,
        now_ms: u64,
    ) {
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        match outcome {
            Err(e) => self.on_call_error(call, &e, now_ms),
            Ok(result) => {
                if matches!(state.spec, Spec::Listen { .. }) {
                    return self.on_listen_result(call, id, result);
                }
                let attempt = if state.retry.is_some() {
                    Attempt::Retry
                } else {
                    Attempt::Original
                };
                self.store(call, auth, attempt, result, now_ms);
                if self.accept(call, result, false, now_ms) {
                    self.advance(call, now_ms);
                }
            }
        }
    }

    fn on_call_error(&mut self, call: CallId, e: &ErrorObject<'_>, now_ms: u64) {
        if e.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION && self.version_retry(call, e, now_ms)
        {
            return;
        }
        if let Some(state) = self.calls.get(&call)
            && let Spec::List {
                kind,
                cursor: Some(_),
                ..
            } = state.spec
            && e.code == ErrorCode::INVALID_PARAMS
        {
            // "After a cursor is rejected, the client SHOULD drop every cached page"
            // (docs/rules.md §4).
            if let Some(cache) = self.cache.as_mut() {
                cache.invalidate(Invalidation::CursorRejected { list: kind });
            }
        }
        self.fail(call, CallError::Server(ServerError::from_object(e)));
    }

    /// Stores a complete cacheable result (never a retry's, docs/rules.md §4, §16.4 rule 25).
    fn store(
        &mut self,
        call: CallId,
        auth: Option<AuthContext>,
        attempt: Attempt,
        result: RawJson<'_>,
        now_ms: u64,
    ) {
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        let Some(cache) = self.cache.as_mut() else {
            return;
        };
        let (Some(key), Some(hints)) = (cache_key(&state.spec), hints_of(&state.spec, result))
        else {
            return;
        };
        let _ = cache.insert(
            &key,
            auth,
            hints,
            attempt,
            result.as_text().as_bytes(),
            now_ms,
        );
    }

    /// A result served from the cache; `true` if the call goes on (another page).
    pub(crate) fn accept_cached(&mut self, call: CallId, bytes: &[u8], now_ms: u64) -> bool {
        match RawJson::parse(bytes) {
            Ok(result) => self.accept(call, result, true, now_ms),
            Err(_) => false,
        }
    }

    /// Turns a result into the call's event. Returns `true` when the call needs another
    /// request (the next page of an aggregated list, or an immediate MRTR retry).
    fn accept(&mut self, call: CallId, result: RawJson<'_>, from_cache: bool, now_ms: u64) -> bool {
        let Some(state) = self.calls.get(&call) else {
            return false;
        };
        let first_page = matches!(&state.spec, Spec::List { cursor: None, .. });
        match &state.spec {
            Spec::Discover => {
                let r = Reply::<reply::Discover>::decode(result, from_cache);
                self.finish(call, r, |call, reply| Event::Discovered { call, reply })
            }
            Spec::List { kind, .. } => match kind {
                ListKind::Resources => {
                    self.page::<reply::ResourceList>(call, result, from_cache, |call, listing| {
                        Event::ResourcesListed { call, listing }
                    })
                }
                ListKind::ResourceTemplates => {
                    self.page::<reply::TemplateList>(call, result, from_cache, |call, listing| {
                        Event::TemplatesListed { call, listing }
                    })
                }
                ListKind::Prompts => {
                    self.page::<reply::PromptList>(call, result, from_cache, |call, listing| {
                        Event::PromptsListed { call, listing }
                    })
                }
                ListKind::Tools => {
                    if first_page {
                        // A walk from the start: the server's tools may have changed since.
                        self.tools.clear();
                    }
                    let screened = self.screen_tools(result);
                    let result = match screened.as_deref().map(|t| RawJson::parse(t.as_bytes())) {
                        Some(Ok(kept)) => kept,
                        _ => result,
                    };
                    self.page::<reply::ToolList>(call, result, from_cache, |call, listing| {
                        Event::ToolsListed { call, listing }
                    })
                }
            },
            Spec::Read { .. } => match Outcome::<ReadResourceResult<'_>>::from_json(result) {
                Ok(Outcome::InputRequired(ir)) => self.on_input_required(call, &ir, now_ms),
                Ok(Outcome::Complete(_)) => {
                    let r = Reply::<reply::Read>::decode(result, from_cache);
                    self.finish(call, r, |call, reply| Event::ResourceRead { call, reply })
                }
                Err(e) => self.finish::<reply::Read>(call, Err(e), |call, reply| {
                    Event::ResourceRead { call, reply }
                }),
            },
            Spec::GetPrompt { .. } => match Outcome::<GetPromptResult<'_>>::from_json(result) {
                Ok(Outcome::InputRequired(ir)) => self.on_input_required(call, &ir, now_ms),
                Ok(Outcome::Complete(_)) => {
                    let r = Reply::<reply::Prompt>::decode(result, from_cache);
                    self.finish(call, r, |call, reply| Event::PromptFetched { call, reply })
                }
                Err(e) => self.finish::<reply::Prompt>(call, Err(e), |call, reply| {
                    Event::PromptFetched { call, reply }
                }),
            },
            Spec::Complete { .. } => {
                let r = Reply::<reply::Completion>::decode(result, from_cache);
                self.finish(call, r, |call, reply| Event::Completed { call, reply })
            }
            Spec::Listen { .. } => false,
            Spec::Custom { .. } => match Outcome::<RawJson<'_>>::from_json(result) {
                Ok(Outcome::InputRequired(ir)) => self.on_input_required(call, &ir, now_ms),
                Ok(Outcome::Complete(_)) if result.object().is_some() => {
                    self.on_custom_result(call, result);
                    false
                }
                Ok(Outcome::Complete(_)) => {
                    let e = ParamsError::new(ParamsErrorKind::WrongType, "result");
                    self.fail(call, CallError::InvalidResult(e));
                    false
                }
                Err(e) => {
                    self.fail(call, CallError::InvalidResult(e));
                    false
                }
            },
        }
    }

    /// The complete result of a host's own method. A `tools/list` result is screened first:
    /// tools whose `x-mcp-header` annotations are invalid are remembered as rejected and
    /// left out; the others' annotations are kept for the `Mcp-Param-*` headers of later
    /// calls.
    fn on_custom_result(&mut self, call: CallId, result: RawJson<'_>) {
        let tools_list = match self.calls.get(&call).map(|s| &s.spec) {
            Some(Spec::Custom { method, params, .. }) if method == "tools/list" => {
                Some(params.as_raw().get("cursor").is_none())
            }
            _ => None,
        };
        let text = match tools_list {
            Some(first_page) => {
                if first_page {
                    // A walk from the start: the server's tools may have changed since.
                    self.tools.clear();
                }
                self.screen_tools(result)
            }
            None => None,
        };
        let json = match text {
            Some(t) => OwnedJson::parse(t),
            None => OwnedJson::parse(result.as_text()),
        };
        match json {
            Ok(result) => {
                self.calls.remove(&call);
                self.emit(Event::Responded { call, result });
            }
            Err(_) => {
                let e = ParamsError::new(ParamsErrorKind::WrongType, "result");
                self.fail(call, CallError::InvalidResult(e));
            }
        }
    }

    /// Records the tools of a `tools/list` result; returns the result without the rejected
    /// ones when there are any.
    fn screen_tools(&mut self, result: RawJson<'_>) -> Option<String> {
        let tools = result.get("tools")?.array()?;
        let mut rejected = false;
        let mut kept: Vec<RawJson<'_>> = Vec::new();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(|n| n.as_str()) else {
                kept.push(tool);
                continue;
            };
            let headers = tool
                .get("inputSchema")
                .map_or(Ok(Vec::new()), tools::tool_headers);
            let ok = headers.is_ok();
            if self.tools.len() < MAX_TOOLS {
                self.tools.insert(name.to_cow().into_owned(), headers.ok());
            }
            if ok {
                kept.push(tool);
            } else {
                rejected = true;
            }
        }
        if !rejected {
            return None;
        }
        let mut out = String::with_capacity(result.as_text().len());
        out.push('{');
        let mut first = true;
        for (k, v) in result.object()? {
            if !first {
                out.push(',');
            }
            first = false;
            out.push('"');
            out.push_str(k.source());
            out.push_str("\":");
            if k.eq_str("tools") {
                out.push('[');
                for (i, t) in kept.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(t.as_text());
                }
                out.push(']');
            } else {
                out.push_str(v.as_text());
            }
        }
        out.push('}');
        Some(out)
    }

    fn finish<K: ReplyKind>(
        &mut self,
        call: CallId,
        reply: Result<Reply<K>, ParamsError>,
        event: impl FnOnce(CallId, Reply<K>) -> Event,
    ) -> bool {
        match reply {
            Ok(reply) => {
                self.calls.remove(&call);
                self.emit(event(call, reply));
            }
            Err(e) => self.fail(call, CallError::InvalidResult(e)),
        }
        false
    }

    /// One page of a list. Page mode ends the call; aggregated mode follows `nextCursor`
    /// ("an empty string is a valid cursor", docs/rules.md §3) up to `max_pages`.
    fn page<K: ReplyKind>(
        &mut self,
        call: CallId,
        result: RawJson<'_>,
        from_cache: bool,
        event: impl FnOnce(CallId, Listing<K>) -> Event,
    ) -> bool {
        if let Err(e) = Reply::<K>::decode(result, from_cache) {
            self.fail(call, CallError::InvalidResult(e));
            return false;
        }
        let next = result
            .get("nextCursor")
            .and_then(|c| c.as_str())
            .map(|c| c.to_cow().into_owned());
        let max_pages = self.config.max_pages;
        let Some(state) = self.calls.get_mut(&call) else {
            return false;
        };
        let Spec::List {
            cursor,
            follow,
            pages,
            ..
        } = &mut state.spec
        else {
            return false;
        };
        pages.push((String::from(result.as_text()), from_cache));
        if *follow && next.is_some() && pages.len() < max_pages {
            *cursor = next;
            state.stage = Stage::Queued;
            return true;
        }
        let truncated = *follow && next.is_some();
        let pages: Vec<Reply<K>> = core::mem::take(pages)
            .into_iter()
            .filter_map(|(json, cached)| {
                RawJson::parse(json.as_bytes())
                    .ok()
                    .and_then(|v| Reply::decode(v, cached).ok())
            })
            .collect();
        self.calls.remove(&call);
        self.emit(event(
            call,
            Listing {
                pages,
                next_cursor: next,
                truncated,
            },
        ));
        false
    }

    /// The result of a `subscriptions/listen`: the subscription closed cleanly
    /// (docs/rules.md §11.4); its `_meta.subscriptionId` must be the listen id (§16.9 rule 52).
    fn on_listen_result(&mut self, call: CallId, id: i64, result: RawJson<'_>) {
        self.calls.remove(&call);
        match ListenResult::from_json(result) {
            Ok(r) if r.meta.subscription_id == Some(RequestId::Int(id)) => {}
            Ok(_) => self.emit(Event::PeerError(
                super::error::PeerError::SubscriptionIdMismatch,
            )),
            Err(e) => self.emit(Event::PeerError(
                super::error::PeerError::InvalidNotification(e),
            )),
        }
        self.emit(Event::SubscriptionEnded {
            call,
            reason: EndReason::Graceful,
        });
    }
}
