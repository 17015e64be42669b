//! One handler per method, called after validation (docs/rules.md §2–§11).

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::complete::complete_from;
use super::config::CacheHint;
use super::event::{
    CompletionEvent, CompletionTarget, DeclaredCapabilities, Event, Handle, PromptEvent, ReadEvent,
    ReadTarget, Retry,
};
use super::io::Ctx;
use super::machine::Server;
use super::mrtr;
use super::outbox;
use super::page::{ListId, decode_cursor, encode_cursor, page};
use super::pending::{BindingData, Bound, Owed, Pending};
use super::registry::Listed;
use super::route::check_uri;
use super::subscriptions::{Honoured, Tag};
use crate::error_code::ErrorCode;
use crate::json::JsonStr;
use crate::jsonrpc::{ErrorData, ErrorObject, RequestId};
use crate::messages::owned::{AsView, OwnedAcknowledged, OwnedCompleteResult, OwnedJson};
use crate::messages::{
    Arguments, ClientRequest, CompleteParams, GetPromptParams, InputResponses, ListResult,
    ListenParams, ReadResourceParams, ReadResourceResult, Reference, RequestMeta, Seq, Tool,
};
use crate::observe::Limit;

fn pairs(args: Option<Arguments<'_>>) -> Vec<(String, String)> {
    args.map(|m| {
        m.iter()
            .map(|(k, v)| (k.to_cow().into_owned(), v.0.to_cow().into_owned()))
            .collect()
    })
    .unwrap_or_default()
}

impl Server {
    pub(crate) fn dispatch(
        &mut self,
        req: ClientRequest<'_>,
        id: RequestId<'_>,
        ctx: Ctx,
        meta: &RequestMeta<'_>,
    ) {
        match req {
            ClientRequest::Discover(_) => self.discover(id, ctx),
            ClientRequest::ListResources(p) if self.config.dynamic_resources => {
                self.list_resources_dynamic(id, ctx, p.0.cursor, meta);
            }
            ClientRequest::ListResources(p) => self.list(ListId::Resources, id, ctx, p.0.cursor),
            ClientRequest::ListResourceTemplates(p) => {
                self.list(ListId::Templates, id, ctx, p.0.cursor);
            }
            ClientRequest::ListPrompts(p) => self.list(ListId::Prompts, id, ctx, p.0.cursor),
            ClientRequest::ReadResource(p) => self.read(id, ctx, &p, meta),
            ClientRequest::GetPrompt(p) => self.get_prompt(id, ctx, &p, meta),
            ClientRequest::Complete(p) => self.complete(id, ctx, &p, meta),
            ClientRequest::Listen(p) => self.listen(id, ctx, &p),
            _ => {
                let err = ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, "Method not found");
                self.reply_error(ctx, id, &err, 404);
            }
        }
    }

    /// The paginated lists of the registry (docs/rules.md §3, §5, §6, §8, §20.2).
    pub(crate) fn list(
        &mut self,
        list: ListId,
        id: RequestId<'_>,
        ctx: Ctx,
        cursor: Option<JsonStr<'_>>,
    ) {
        let after = match cursor {
            None => None,
            Some(c) => match decode_cursor(list, &c.to_cow()) {
                Some(k) => Some(k),
                None => return self.invalid_params(ctx, id, "Invalid cursor"),
            },
        };
        let after = after.as_deref();
        let size = self.config.page_size;
        let reg = &self.registry;
        let vis = |item: Listed<'_>| self.listed(&ctx, item);
        let encoded = match list {
            ListId::Resources => {
                let (items, next) = page(&reg.resources, after, size, |e| {
                    vis(Listed::Resource(&e.resource))
                });
                let views: Vec<_> = items.iter().map(|e| e.resource.view()).collect();
                let next = next.map(|k| encode_cursor(list, k));
                let hint = self.config.resources_list_cache;
                self.page_bytes(id, &views, next.as_deref(), hint)
            }
            ListId::Templates => {
                let (items, next) = page(&reg.templates, after, size, |t| {
                    vis(Listed::Template(&t.entry.template))
                });
                let views: Vec<_> = items.iter().map(|t| t.entry.template.view()).collect();
                let next = next.map(|k| encode_cursor(list, k));
                let hint = self.config.templates_list_cache;
                self.page_bytes(id, &views, next.as_deref(), hint)
            }
            ListId::Prompts => {
                let (items, next) = page(&reg.prompts, after, size, |p| {
                    vis(Listed::Prompt(&p.prompt))
                });
                let views: Vec<_> = items.iter().map(|p| p.prompt.view()).collect();
                let next = next.map(|k| encode_cursor(list, k));
                let hint = self.config.prompts_list_cache;
                self.page_bytes(id, &views, next.as_deref(), hint)
            }
            ListId::Tools => {
                let (items, next) = page(&reg.tools, after, size, |t| vis(Listed::Tool(t)));
                let views: Vec<_> = items.iter().map(|t| Tool(t.as_json().as_raw())).collect();
                let next = next.map(|k| encode_cursor(list, k));
                let hint = self.config.tools_list_cache;
                self.page_bytes(id, &views, next.as_deref(), hint)
            }
        };
        self.send_encoded(ctx, id, encoded);
    }

    pub(crate) fn page_bytes<'v, T: crate::messages::ListItem<'v>>(
        &'v self,
        id: RequestId<'_>,
        views: &'v [T],
        next: Option<&'v str>,
        hint: CacheHint,
    ) -> Result<Vec<u8>, crate::json::EncodeError> {
        let hint = self.scoped(hint);
        let mut result = ListResult::new(Seq::from_slice(views), hint.ttl_ms, hint.scope);
        result.next_cursor = next.map(JsonStr::new);
        result.meta = self.result_meta();
        outbox::encode(&crate::jsonrpc::TypedResponse { id, result })
    }

    pub(crate) fn send_encoded(
        &mut self,
        ctx: Ctx,
        id: RequestId<'_>,
        encoded: Result<Vec<u8>, crate::json::EncodeError>,
    ) {
        match encoded {
            Ok(bytes) => self.out.transmit(
                outbox::response(ctx.stream, ctx.transport, bytes, 200),
                None,
            ),
            Err(_) => {
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
                self.reply_error(ctx, id, &err, 200);
            }
        }
    }

    /// Verifies the MRTR inputs of a retry (docs/rules.md §13, §16.8 rule 45).
    pub(crate) fn retry_inputs<'b>(
        &self,
        state: Option<JsonStr<'_>>,
        responses: Option<InputResponses<'_>>,
        binding: impl FnOnce() -> BindingData<'b>,
        auth: u64,
    ) -> Result<Option<Retry>, crate::state::StateError> {
        if state.is_none() && responses.is_none() {
            return Ok(None);
        }
        let state = match state {
            Some(t) => Some(mrtr::open(
                &self.config.state_keys,
                &t.to_cow(),
                self.now,
                &binding(),
                auth,
            )?),
            None => None,
        };
        let input_responses = responses
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| {
                        let json = OwnedJson::parse(v.0.as_text().to_owned()).ok()?;
                        Some((k.to_cow().into_owned(), json))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Some(Retry {
            state,
            input_responses,
        }))
    }

    /// Parks the request and asks the application. `meta` gives the declared capabilities
    /// and the `progressToken` (the event's `progress` flag).
    pub(crate) fn ask(
        &mut self,
        ctx: Ctx,
        id: RequestId<'_>,
        owed: Owed,
        meta: Option<&RequestMeta<'_>>,
        binding: Option<Bound>,
        event: impl FnOnce(Handle, bool) -> Event,
    ) {
        if self.pending.on_stream_count(ctx.stream) >= self.config.max_pending_per_stream {
            return self.over_limit(
                ctx,
                id,
                "Too many pending requests on this stream",
                Limit::PendingPerStream,
            );
        }
        if self.pending.len() >= self.config.max_pending {
            return self.over_limit(ctx, id, "Too many pending requests", Limit::Pending);
        }
        let caps = meta.map_or_else(DeclaredCapabilities::default, |m| {
            DeclaredCapabilities::of(&m.client_capabilities)
        });
        let progress = meta.and_then(|m| m.progress_token).map(|t| t.to_owned_id());
        let h = self.pending.insert(Pending {
            stream: ctx.stream,
            transport: ctx.transport,
            id: id.to_owned_id(),
            owed,
            deadline: self.now.saturating_add(self.config.request_timeout_ms),
            auth: ctx.auth,
            scopes: ctx.scopes,
            caps,
            binding,
            progress,
            last_progress: None,
            log_level: meta.and_then(|m| m.log_level),
        });
        let has_progress = self.pending.get(h).is_some_and(|p| p.progress.is_some());
        self.out.event(event(h, has_progress));
    }

    /// A configured limit refuses one more (docs/server-machine.md §Limits): -32603 (the
    /// spec defines no code for it; -32020…-32099 are reserved), HTTP 200 like every
    /// -32603; nothing already accepted changes.
    fn over_limit(&mut self, ctx: Ctx, id: RequestId<'_>, message: &str, limit: Limit) {
        self.observe_refusal(limit, &ctx);
        let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, message);
        self.reply_error(ctx, id, &err, 200);
    }

    /// `resources/read` (docs/rules.md §7): validate, then static hit, template match, forward, or
    /// -32602 with `data.uri` (never empty contents, §16.5 rule 30).
    fn read(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        p: &ReadResourceParams<'_>,
        meta: &RequestMeta<'_>,
    ) {
        let uri = p.uri.to_cow();
        if check_uri(&uri).is_err() {
            let err = ErrorObject {
                code: ErrorCode::INVALID_PARAMS,
                message: JsonStr::new("Invalid resource URI"),
                data: ErrorData::ResourceNotFound { uri: p.uri },
            };
            return self.reply_error(ctx, id, &err, 200);
        }
        let binding = || mrtr::read_binding(&uri);
        let retry = match self.retry_inputs(p.request_state, p.input_responses, binding, ctx.auth) {
            Ok(r) => r,
            Err(e) => return self.invalid_params(ctx, id, &format!("{e}")),
        };
        let caps = DeclaredCapabilities::of(&meta.client_capabilities);
        let default = self.config.read_cache;
        let uri: String = uri.into_owned();
        let found = self
            .registry
            .resources
            .get(&uri)
            .filter(|e| self.visible(ctx.auth, Listed::Resource(&e.resource)));
        let (target, hint) = if let Some(entry) = found {
            let missing = self.scopes_missing(&ctx, Listed::Resource(&entry.resource).scoped());
            if !missing.is_empty() {
                return self.insufficient_scope(ctx, id, missing);
            }
            // The resource's own hint wins (it is more specific than a template); without
            // one, the hint of the template its URI matches; then the default.
            let own = entry.cache.or_else(|| self.template_hint(&uri));
            let hint = self.scoped(own.unwrap_or(default));
            if let Some(contents) = &entry.contents {
                let mut result =
                    ReadResourceResult::new(Seq::from_source(contents), hint.ttl_ms, hint.scope);
                result.meta = self.result_meta();
                let encoded = outbox::encode(&crate::jsonrpc::TypedResponse { id, result });
                return self.send_encoded(ctx, id, encoded);
            }
            (ReadTarget::Resource, hint)
        } else if let Some((tid, variables)) = self.router.route(&uri).filter(|(tid, _)| {
            self.registry
                .template_by_id(*tid)
                .is_some_and(|t| self.visible(ctx.auth, Listed::Template(&t.entry.template)))
        }) {
            let template = self.registry.template_by_id(tid);
            let needed = template.map(|t| Listed::Template(&t.entry.template).scoped());
            let missing = needed.map(|n| self.scopes_missing(&ctx, n));
            if let Some(m) = missing.filter(|m| !m.is_empty()) {
                return self.insufficient_scope(ctx, id, m);
            }
            let cache = template.and_then(|t| t.entry.cache);
            (
                ReadTarget::Template { id: tid, variables },
                self.scoped(cache.unwrap_or(default)),
            )
        } else if self.config.forward_unlisted_reads || self.config.dynamic_resources {
            (ReadTarget::Unlisted, default)
        } else {
            let err = ErrorObject::resource_not_found(p.uri);
            return self.reply_error(ctx, id, &err, 200);
        };
        let owed = Owed::Read {
            uri: uri.clone(),
            cache: hint,
        };
        self.ask(
            ctx,
            id,
            owed,
            Some(meta),
            Some(Bound::Read),
            |handle, progress| {
                Event::ReadResource(ReadEvent {
                    handle,
                    uri,
                    target,
                    auth: ctx.auth,
                    capabilities: caps,
                    retry,
                    progress,
                })
            },
        );
    }

    /// The cache hint of the template `uri` matches, if any (and it has one).
    fn template_hint(&self, uri: &str) -> Option<CacheHint> {
        if self.registry.templates.is_empty() {
            return None;
        }
        let (tid, _) = self.router.route(uri)?;
        self.registry.template_by_id(tid)?.entry.cache
    }

    /// `prompts/get` (docs/rules.md §9): unknown prompt or missing required argument → -32602.
    fn get_prompt(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        p: &GetPromptParams<'_>,
        meta: &RequestMeta<'_>,
    ) {
        let name = p.name.to_cow().into_owned();
        let Some(entry) = self
            .registry
            .prompts
            .get(&name)
            .filter(|e| self.visible(ctx.auth, Listed::Prompt(&e.prompt)))
        else {
            return self.invalid_params(ctx, id, &["Unknown prompt: ", name.as_str()].concat());
        };
        let missing = self.scopes_missing(&ctx, Listed::Prompt(&entry.prompt).scoped());
        if !missing.is_empty() {
            return self.insufficient_scope(ctx, id, missing);
        }
        let arguments = pairs(p.arguments);
        let missing = entry
            .prompt
            .arguments
            .iter()
            .find(|a| a.required == Some(true) && !arguments.iter().any(|(k, _)| *k == a.name));
        if let Some(a) = missing {
            let msg = ["Missing required argument: ", a.name.as_str()].concat();
            return self.invalid_params(ctx, id, &msg);
        }
        let binding = || mrtr::prompt_binding(&name, &arguments);
        let retry = match self.retry_inputs(p.request_state, p.input_responses, binding, ctx.auth) {
            Ok(r) => r,
            Err(e) => return self.invalid_params(ctx, id, &format!("{e}")),
        };
        let caps = DeclaredCapabilities::of(&meta.client_capabilities);
        let bound = Bound::Prompt {
            name: name.clone(),
            arguments: arguments.clone(),
        };
        self.ask(
            ctx,
            id,
            Owed::Prompt,
            Some(meta),
            Some(bound),
            |handle, progress| {
                Event::GetPrompt(PromptEvent {
                    handle,
                    name,
                    arguments,
                    auth: ctx.auth,
                    capabilities: caps,
                    retry,
                    progress,
                })
            },
        );
    }

    /// `completion/complete` (docs/rules.md §10): built-in value sets, else an event.
    fn complete(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        p: &CompleteParams<'_>,
        meta: &RequestMeta<'_>,
    ) {
        let argument = p.argument_name.to_cow().into_owned();
        let value = p.argument_value.to_cow().into_owned();
        let (target, set) = match p.reference {
            Reference::Prompt { name, .. } => {
                let name = name.to_cow().into_owned();
                let Some(e) = self
                    .registry
                    .prompts
                    .get(&name)
                    .filter(|e| self.visible(ctx.auth, Listed::Prompt(&e.prompt)))
                else {
                    return self.invalid_params(
                        ctx,
                        id,
                        &["Unknown prompt: ", name.as_str()].concat(),
                    );
                };
                let missing = self.scopes_missing(&ctx, Listed::Prompt(&e.prompt).scoped());
                if !missing.is_empty() {
                    return self.insufficient_scope(ctx, id, missing);
                }
                if !e.prompt.arguments.iter().any(|a| a.name == argument) {
                    return self.invalid_params(
                        ctx,
                        id,
                        &["Unknown argument: ", argument.as_str()].concat(),
                    );
                }
                let set = e.completions.iter().find(|(n, _)| *n == argument);
                (CompletionTarget::Prompt(name), set.map(|(_, v)| v))
            }
            Reference::Resource { uri } => {
                let Some(t) = self
                    .registry
                    .templates
                    .get(&*uri.to_cow())
                    .filter(|t| self.visible(ctx.auth, Listed::Template(&t.entry.template)))
                else {
                    return self.invalid_params(ctx, id, "Unknown resource template");
                };
                let missing =
                    self.scopes_missing(&ctx, Listed::Template(&t.entry.template).scoped());
                if !missing.is_empty() {
                    return self.insufficient_scope(ctx, id, missing);
                }
                if !t.variables.contains(&argument) {
                    return self.invalid_params(
                        ctx,
                        id,
                        &["Unknown argument: ", argument.as_str()].concat(),
                    );
                }
                let set = t.entry.completions.iter().find(|(n, _)| *n == argument);
                (CompletionTarget::Template(t.id), set.map(|(_, v)| v))
            }
        };
        let result = match set {
            Some(values) => complete_from(values, &value),
            None if self.config.completion_events => {
                let context = pairs(p.context.flatten());
                return self.ask(
                    ctx,
                    id,
                    Owed::Complete,
                    Some(meta),
                    None,
                    |handle, progress| {
                        Event::Complete(CompletionEvent {
                            handle,
                            target,
                            argument,
                            value,
                            context,
                            auth: ctx.auth,
                            progress,
                        })
                    },
                );
            }
            None => OwnedCompleteResult::from_candidates(core::iter::empty()),
        };
        let mut view = result.view();
        view.meta = self.result_meta();
        let encoded = outbox::encode(&crate::jsonrpc::TypedResponse { id, result: view });
        self.send_encoded(ctx, id, encoded);
    }

    /// `subscriptions/listen` (docs/rules.md §11): the acknowledgment, with the honoured subset,
    /// is the subscription's first message (§16.9 rules 49, 50).
    fn listen(&mut self, id: RequestId<'_>, ctx: Ctx, p: &ListenParams<'_>) {
        if self.subs.find(ctx.stream, &id).is_some() {
            let err = ErrorObject::new(ErrorCode::INVALID_REQUEST, "Request id already in use");
            return self.reply_error(ctx, id, &err, 400);
        }
        if self.subs.on_stream_count(ctx.stream) >= self.config.max_listens_per_stream {
            return self.over_limit(
                ctx,
                id,
                "Too many subscriptions on this stream",
                Limit::ListensPerStream,
            );
        }
        if self.subs.len() >= self.config.max_listens {
            return self.over_limit(ctx, id, "Too many subscriptions", Limit::Listens);
        }
        let mut honoured = Honoured::of(
            &p.notifications,
            self.serves_resources(),
            self.serves_prompts(),
            self.announces_tools_list_changed(),
            |u| check_uri(u).is_ok() && self.may_read(&ctx, u),
        );
        honoured.caller = Some(ctx);
        let ack = OwnedAcknowledged {
            subscription_id: id.to_owned_id(),
            notifications: honoured.to_filter(),
        };
        let Ok(bytes) = outbox::encode(&ack) else {
            let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
            return self.reply_error(ctx, id, &err, 200);
        };
        let k = self
            .subs
            .insert(ctx.stream, ctx.transport, id.to_owned_id(), honoured);
        self.subs.queued(k, Tag::Other);
        let t = outbox::on_listen_stream(ctx.stream, ctx.transport, bytes, false);
        self.out.transmit(t, Some((k, Tag::Other)));
    }
}
