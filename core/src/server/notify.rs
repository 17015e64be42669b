//! Change notifications on listen streams (docs/rules.md §12, checklist §16.9): fan-out to the
//! subscriptions that asked, stamped with their listen id, through bounded queues; and the
//! ends of a subscription (graceful close, overflow teardown).

use alloc::string::String;

use super::event::Event;
use super::io::Transport;
use super::machine::Server;
use super::outbox;
use super::subscriptions::{SubKey, Tag};
use crate::jsonrpc::TypedResponse;
use crate::messages::owned::{
    AsView, ListKind, OwnedCancelled, OwnedListChanged, OwnedResourceUpdated,
};
use crate::messages::{ListenResult, ResultMeta, ResultType};

impl Server {
    /// `uri` changed: `notifications/resources/updated` on every subscription whose
    /// `resourceSubscriptions` holds `uri` or a URI it is a sub-resource of (docs/rules.md §12).
    pub fn resource_updated(&mut self, uri: &str) {
        self.legacy_updated(uri);
        let keys = self
            .subs
            .wanting(|h| h.wants_update(uri) && h.caller.is_none_or(|c| self.may_read(&c, uri)));
        for k in keys {
            let Some(s) = self.subs.get(k) else { continue };
            let tag = Tag::Updated(String::from(uri));
            if s.is_queued(&tag) {
                continue;
            }
            let n = OwnedResourceUpdated {
                subscription_id: Some(s.id.clone()),
                uri: String::from(uri),
            };
            if let Ok(bytes) = outbox::encode(&n) {
                self.queue_notification(k, tag, bytes);
            }
        }
    }

    /// The resource (or template) list changed: `notifications/resources/list_changed` on
    /// every subscription acknowledged with `resourcesListChanged`.
    pub fn resources_list_changed(&mut self) {
        self.list_changed(ListKind::Resources);
    }

    /// The prompt list changed: `notifications/prompts/list_changed` on every subscription
    /// acknowledged with `promptsListChanged`.
    pub fn prompts_list_changed(&mut self) {
        self.list_changed(ListKind::Prompts);
    }

    /// The tool list changed: `notifications/tools/list_changed` on every subscription
    /// acknowledged with `toolsListChanged`. Those exist only when the host serves tools
    /// itself and announced `tools: {"listChanged": true}` with
    /// [`Server::set_capability`].
    pub fn tools_list_changed(&mut self) {
        self.list_changed(ListKind::Tools);
    }

    fn list_changed(&mut self, kind: ListKind) {
        self.legacy_list_changed(kind);
        for k in self.subs.wanting(|h| h.wants_list(kind)) {
            let Some(s) = self.subs.get(k) else { continue };
            let tag = Tag::List(kind);
            if s.is_queued(&tag) {
                continue;
            }
            let n = OwnedListChanged {
                kind,
                subscription_id: Some(s.id.clone()),
            };
            if let Ok(bytes) = outbox::encode(&n) {
                self.queue_notification(k, tag, bytes);
            }
        }
    }

    fn queue_notification(&mut self, k: SubKey, tag: Tag, bytes: alloc::vec::Vec<u8>) {
        let Some(s) = self.subs.get(k) else { return };
        if s.queued_len() >= self.config.stream_queue {
            return self.overflow(k);
        }
        let t = outbox::on_listen_stream(s.stream, s.transport, bytes, false);
        self.subs.queued(k, tag.clone());
        self.out.transmit(t, Some((k, tag)));
    }

    /// The queue of `k` is full: report it and tear the subscription down, so the client
    /// knows it missed notifications (never a silent drop).
    fn overflow(&mut self, k: SubKey) {
        let Some(s) = self.subs.remove(k) else { return };
        self.out.event(Event::StreamOverflow {
            stream: s.stream,
            subscription: s.id.clone(),
        });
        let n = OwnedCancelled {
            subscription_id: Some(s.id.clone()),
            request_id: s.id,
            reason: Some(String::from("Notification queue overflow")),
        };
        if let Ok(bytes) = outbox::encode(&n) {
            let t = outbox::on_listen_stream(s.stream, s.transport, bytes, true);
            self.out.transmit(t, None);
        }
    }

    /// Graceful shutdown of every subscription (docs/rules.md §11.4, §19.2): each gets its
    /// `subscriptions/listen` result (`_meta.subscriptionId` = its id, §16.9 rule 52), which
    /// ends the stream on HTTP; on stdio `notifications/cancelled` referencing the listen id
    /// follows (docs/rules.md §11.4: the server MUST send it when it tears a stream down).
    pub fn shutdown(&mut self) {
        for k in self.subs.keys() {
            let Some(s) = self.subs.remove(k) else {
                continue;
            };
            let result = ListenResult {
                result_type: Some(ResultType::Complete),
                meta: ResultMeta {
                    server_info: self.config.server_info.as_ref().map(AsView::view),
                    subscription_id: Some(s.id.as_ref()),
                    extra: None,
                },
            };
            let Ok(bytes) = outbox::encode(&TypedResponse {
                id: s.id.as_ref(),
                result,
            }) else {
                continue;
            };
            let stdio = s.transport == Transport::Stdio;
            let t = outbox::on_listen_stream(s.stream, s.transport, bytes, !stdio);
            self.out.transmit(t, None);
            if stdio {
                let n = OwnedCancelled {
                    subscription_id: Some(s.id.clone()),
                    request_id: s.id,
                    reason: Some(String::from("Server shutting down")),
                };
                if let Ok(bytes) = outbox::encode(&n) {
                    let t = outbox::on_listen_stream(s.stream, s.transport, bytes, false);
                    self.out.transmit(t, None);
                }
            }
        }
    }
}
