//! The host's own `resources/list` pages
//! ([`ServerConfig::dynamic_resources`](super::ServerConfig::dynamic_resources);
//! docs/server-machine.md §Registries and lists).
//!
//! The merge is deterministic: the registered resources first, in URI order, in pages of
//! `page_size`; then the host's pages, as the host cuts them. When the registered phase ends
//! inside a page with room left (fewer than `page_size` visible items, possibly none), that
//! same request asks the host for its first page ([`Event::ListResources`] with no cursor)
//! and answers with the registered tail followed by the host's items, in one result, so a
//! client that lists once sees both (as the official SDKs' servers answer). Such a page holds
//! at most `page_size - 1` registered items plus the host's page, whose size is the host's
//! choice ([`ListEvent`] carries no size hint). When the registered resources fill their
//! last page exactly, that page carries a cursor to the host's first page instead.
//!
//! A cursor into the host's phase wraps the host's own cursor (base64url, opaque to the
//! client), so the host sees exactly the cursor it gave. A host item whose URI is registered
//! is dropped (it was listed in the first phase); the visibility filter applies to host
//! items too.
//!
//! The pending request keeps only the key the registered tail starts after (the decoded
//! cursor it already owns): the tail is re-read from the registry when the host answers. If
//! the registry changed meanwhile the answer is still a valid page of the current set: the
//! tail is what is registered after that key now; if that no longer fits in one page, the
//! answer is that registered page with its key cursor (the host's items are not used, and
//! the host is asked again for its first page when the registered phase ends).

use alloc::string::String;
use alloc::vec::Vec;

use super::event::{Event, Handle, ListEvent};
use super::io::Ctx;
use super::machine::Server;
use super::page::{
    ListId, decode_cursor, decode_host_cursor, encode_cursor, encode_host_cursor, page,
};
use super::pending::Owed;
use super::registry::Listed;
use super::reply::RespondError;
use super::route::check_uri;
use crate::json::JsonStr;
use crate::jsonrpc::RequestId;
use crate::messages::RequestMeta;
use crate::messages::owned::{AsView, OwnedResource};

impl Server {
    /// `resources/list` with the host's phase after the registered one.
    pub(crate) fn list_resources_dynamic(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        cursor: Option<JsonStr<'_>>,
        meta: &RequestMeta<'_>,
    ) {
        let after = match cursor {
            None => None,
            Some(c) => {
                let c = c.to_cow();
                if let Some(host) = decode_host_cursor(&c) {
                    return self.ask_host_first(id, ctx, host, meta);
                }
                match decode_cursor(ListId::Resources, &c) {
                    Some(k) => Some(k),
                    None => return self.invalid_params(ctx, id, "Invalid cursor"),
                }
            }
        };
        let size = self.config.page_size;
        let (items, next) = page(&self.registry.resources, after.as_deref(), size, |e| {
            self.listed(&ctx, Listed::Resource(&e.resource))
        });
        let next = match next {
            Some(k) => encode_cursor(ListId::Resources, k),
            // The registered phase ends with room left: the host's first page joins it.
            None if items.len() < size => return self.ask_host_page(id, ctx, None, after, meta),
            None => encode_host_cursor(None),
        };
        let views: Vec<_> = items.iter().map(|e| e.resource.view()).collect();
        let hint = self.config.resources_list_cache;
        let encoded = self.page_bytes(id, &views, Some(&next), hint);
        self.send_encoded(ctx, id, encoded);
    }

    /// A page of the host's phase alone (a host-phase cursor).
    fn ask_host_first(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        cursor: Option<String>,
        meta: &RequestMeta<'_>,
    ) {
        // Not a merged page: the registered phase was answered in full before.
        let owed = Owed::List { tail: None };
        self.ask_host(id, ctx, cursor, owed, meta);
    }

    /// The host's first page, after the registered tail that starts after `after`.
    fn ask_host_page(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        cursor: Option<String>,
        after: Option<String>,
        meta: &RequestMeta<'_>,
    ) {
        let owed = Owed::List { tail: Some(after) };
        self.ask_host(id, ctx, cursor, owed, meta);
    }

    fn ask_host(
        &mut self,
        id: RequestId<'_>,
        ctx: Ctx,
        cursor: Option<String>,
        owed: Owed,
        meta: &RequestMeta<'_>,
    ) {
        self.ask(ctx, id, owed, Some(meta), None, |handle, progress| {
            Event::ListResources(ListEvent {
                handle,
                cursor,
                auth: ctx.auth,
                progress,
            })
        });
    }

    /// Turns the host's own `resources/list` pages on or off after construction (what
    /// [`ServerConfig::dynamic_resources`](super::ServerConfig::dynamic_resources) sets up
    /// front), for a host that learns later whether it lists resources of its own (a
    /// package layer whose first template with a list callback is registered after the
    /// machine was built): while off, the last registered page carries no cursor into an
    /// empty host phase. A host-phase cursor given while on is invalid (-32602) once off.
    pub fn set_dynamic_resources(&mut self, on: bool) {
        self.config.dynamic_resources = on;
    }

    /// Answers a [`ListEvent`] with one page of the host's resources and the host's cursor
    /// for the next one (`None` = the last page). Items whose URI is registered are dropped
    /// (listed already), and so are items the visibility filter hides from the request's
    /// `auth`. When the request's registered phase ended in this page with room left, the
    /// answer is the registered tail (re-read now, see the module doc) followed by these
    /// items. The page carries [`ServerConfig::resources_list_cache`](super::ServerConfig)
    /// like every `resources/list` page.
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`],
    /// [`RespondError::InvalidResult`] (an item's URI is not a valid URI); the request gets -32603 unless the error [is late](RespondError::is_late).
    pub fn respond_list(
        &mut self,
        handle: Handle,
        resources: Vec<OwnedResource>,
        next_cursor: Option<String>,
    ) -> Result<(), RespondError> {
        let r = self.answer_list(handle, resources, next_cursor);
        self.settle(handle, r)
    }

    fn answer_list(
        &mut self,
        handle: Handle,
        resources: Vec<OwnedResource>,
        next_cursor: Option<String>,
    ) -> Result<(), RespondError> {
        let p = self
            .pending
            .get(handle)
            .ok_or(RespondError::UnknownHandle)?;
        if !matches!(p.owed, Owed::List { .. }) {
            return Err(RespondError::WrongKind);
        }
        if resources.iter().any(|r| check_uri(&r.uri).is_err()) {
            return Err(RespondError::InvalidResult);
        }
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let tail = match &p.owed {
            Owed::List { tail: Some(after) } => Some(after.as_deref()),
            _ => None,
        };
        let hint = self.config.resources_list_cache;
        let size = self.config.page_size;
        let (registered, more) = match tail {
            Some(after) => page(&self.registry.resources, after, size, |e| {
                self.listed(&p.ctx(), Listed::Resource(&e.resource))
            }),
            None => (Vec::new(), None),
        };
        let encoded = if let Some(k) = more {
            // The registry grew since the request: its page first, the host's later.
            let views: Vec<_> = registered.iter().map(|e| e.resource.view()).collect();
            let next = encode_cursor(ListId::Resources, k);
            self.page_bytes(p.id.as_ref(), &views, Some(&next), hint)
        } else {
            let mut views = Vec::with_capacity(registered.len() + resources.len());
            views.extend(registered.iter().map(|e| e.resource.view()));
            views.extend(
                resources
                    .iter()
                    .filter(|r| {
                        !self.registry.resources.contains_key(&r.uri)
                            && self.listed(&p.ctx(), Listed::Resource(r))
                    })
                    .map(AsView::view),
            );
            let next = next_cursor.as_deref().map(|c| encode_host_cursor(Some(c)));
            self.page_bytes(p.id.as_ref(), &views, next.as_deref(), hint)
        };
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }
}
