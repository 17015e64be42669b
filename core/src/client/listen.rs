//! Subscriptions (docs/rules.md §11, §12, §16.9): the acknowledgment compared with the request,
//! notifications routed by subscription id, and the legacy emulation with
//! `resources/subscribe` and method routing (docs/rules.md §17.2 item 4).

use alloc::string::String;
use alloc::vec::Vec;

use super::call::{CallId, Spec};
use super::error::PeerError;
use super::event::{Era, Event, Notice};
use super::machine::{Client, Internal, Listen, Phase, Stage};
use super::pending::Purpose;
use crate::cache::uri_related;
use crate::jsonrpc::RequestId;
use crate::messages::owned::OwnedSubscriptionFilter;
use crate::messages::{AcknowledgedParams, SubscriptionFilter};

fn owned(f: &SubscriptionFilter<'_>) -> OwnedSubscriptionFilter {
    OwnedSubscriptionFilter {
        tools_list_changed: f.tools_list_changed,
        prompts_list_changed: f.prompts_list_changed,
        resources_list_changed: f.resources_list_changed,
        resource_subscriptions: f
            .resource_subscriptions
            .map(|s| s.iter().map(|u| u.to_cow().into_owned()).collect()),
    }
}

fn on(flag: Option<bool>) -> bool {
    flag == Some(true)
}

fn set(v: bool) -> Option<bool> {
    v.then_some(true)
}

fn list(uris: Vec<String>) -> Option<Vec<String>> {
    (!uris.is_empty()).then_some(uris)
}

/// Splits `requested` into what `granted` honours and what it refuses; `true` when
/// `granted` holds something never requested (the server MUST NOT grant it, docs/rules.md §11.1).
fn compare(
    requested: &OwnedSubscriptionFilter,
    granted: &OwnedSubscriptionFilter,
) -> (OwnedSubscriptionFilter, OwnedSubscriptionFilter, bool) {
    let mut exceeded = false;
    let mut flag = |r: Option<bool>, g: Option<bool>| {
        exceeded |= on(g) && !on(r);
        (set(on(r) && on(g)), set(on(r) && !on(g)))
    };
    let tools = flag(requested.tools_list_changed, granted.tools_list_changed);
    let prompts = flag(requested.prompts_list_changed, granted.prompts_list_changed);
    let resources = flag(
        requested.resources_list_changed,
        granted.resources_list_changed,
    );
    let req_uris = requested.resource_subscriptions.as_deref().unwrap_or(&[]);
    let got_uris = granted.resource_subscriptions.as_deref().unwrap_or(&[]);
    exceeded |= got_uris.iter().any(|u| !req_uris.contains(u));
    let (mut kept, mut dropped): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for u in req_uris {
        let side = if got_uris.contains(u) {
            &mut kept
        } else {
            &mut dropped
        };
        if !side.contains(u) {
            side.push(u.clone());
        }
    }
    let honoured = OwnedSubscriptionFilter {
        tools_list_changed: tools.0,
        prompts_list_changed: prompts.0,
        resources_list_changed: resources.0,
        resource_subscriptions: list(kept),
    };
    let refused = OwnedSubscriptionFilter {
        tools_list_changed: tools.1,
        prompts_list_changed: prompts.1,
        resources_list_changed: resources.1,
        resource_subscriptions: list(dropped),
    };
    (honoured, refused, exceeded)
}

/// Whether a subscription with `filter` asked for `notice` (a resource update may name a
/// sub-resource of a subscribed URI, docs/rules.md §12).
fn accepts(filter: &OwnedSubscriptionFilter, notice: &Notice) -> bool {
    match notice {
        Notice::ResourceUpdated { uri } => filter
            .resource_subscriptions
            .iter()
            .flatten()
            .any(|s| uri_related(s, uri)),
        Notice::ResourcesListChanged => on(filter.resources_list_changed),
        Notice::PromptsListChanged => on(filter.prompts_list_changed),
        Notice::ToolsListChanged => on(filter.tools_list_changed),
    }
}

impl Client {
    /// The listen call whose request id is `id`, if it is open.
    fn listen_call(&self, id: RequestId<'_>) -> Result<CallId, Option<PeerError>> {
        let RequestId::Int(n) = id else {
            return Err(Some(PeerError::UnknownSubscription));
        };
        match self.pending.get(n).map(|i| &i.purpose) {
            Some(Purpose::Call(call))
                if self
                    .calls
                    .get(call)
                    .is_some_and(|s| matches!(s.stage, Stage::Listening(_))) =>
            {
                Ok(*call)
            }
            // A subscription we ended: late messages are ignored (docs/rules.md §12).
            _ if self.pending.was_abandoned(n) => Err(None),
            _ => Err(Some(PeerError::UnknownSubscription)),
        }
    }

    /// `notifications/subscriptions/acknowledged` (docs/rules.md §11.2): "The client **SHOULD**
    /// check the acknowledged filter against what it requested".
    pub(crate) fn on_ack(&mut self, p: &AcknowledgedParams<'_>) {
        let Some(id) = p.meta.and_then(|m| m.subscription_id) else {
            return self.emit(Event::PeerError(PeerError::UnknownSubscription));
        };
        let call = match self.listen_call(id) {
            Ok(call) => call,
            Err(Some(e)) => return self.emit(Event::PeerError(e)),
            Err(None) => return,
        };
        let granted = owned(&p.notifications);
        self.acknowledge(call, &granted);
    }

    fn acknowledge(&mut self, call: CallId, granted: &OwnedSubscriptionFilter) {
        let Some(state) = self.calls.get_mut(&call) else {
            return;
        };
        let (Spec::Listen { filter }, Stage::Listening(listen)) = (&state.spec, &mut state.stage)
        else {
            return;
        };
        let (honoured, refused, exceeded) = compare(filter, granted);
        listen.honoured = Some(honoured.clone());
        if exceeded {
            self.emit(Event::PeerError(PeerError::AckExceedsRequest));
        }
        self.emit(Event::Acknowledged {
            call,
            honoured,
            refused,
        });
    }

    /// Routes a change notification: by subscription id when it carries one (docs/rules.md §11.3
    /// "clients **MUST** use this field to correlate"), otherwise by method to the
    /// subscriptions that asked for it (legacy delivery, docs/rules.md §17.2 item 4).
    pub(crate) fn deliver(&mut self, notice: Notice, subscription: Option<RequestId<'_>>) {
        self.invalidate(&notice);
        let Some(id) = subscription else {
            let targets: Vec<CallId> = self
                .calls
                .iter()
                .filter_map(|(call, s)| match &s.stage {
                    Stage::Listening(Listen {
                        id: None,
                        honoured: Some(f),
                        ..
                    }) if accepts(f, &notice) => Some(*call),
                    _ => None,
                })
                .collect();
            if targets.is_empty() {
                return self.emit(Event::Notified {
                    subscription: None,
                    notice,
                });
            }
            for call in targets {
                self.emit(Event::Notified {
                    subscription: Some(call),
                    notice: notice.clone(),
                });
            }
            return;
        };
        let call = match self.listen_call(id) {
            Ok(call) => call,
            Err(Some(e)) => return self.emit(Event::PeerError(e)),
            Err(None) => return,
        };
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        let (Spec::Listen { filter }, Stage::Listening(listen)) = (&state.spec, &state.stage)
        else {
            return;
        };
        let before_ack = listen.honoured.is_none();
        let allowed = accepts(listen.honoured.as_ref().unwrap_or(filter), &notice);
        if before_ack {
            self.emit(Event::PeerError(PeerError::NotificationBeforeAck));
        }
        if !allowed {
            return self.emit(Event::PeerError(PeerError::UnrequestedNotification));
        }
        self.emit(Event::Notified {
            subscription: Some(call),
            notice,
        });
    }

    /// A listen call on a legacy server: `resources/subscribe` per URI (shared across
    /// calls), list changes from the declared `listChanged` capabilities.
    pub(crate) fn legacy_listen(&mut self, call: CallId, now_ms: u64) {
        let Phase::Ready(session) = &self.phase else {
            return;
        };
        let subscribe = session.era == Era::Legacy && session.features.resources_subscribe;
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        let Spec::Listen { filter } = &state.spec else {
            return;
        };
        let mut uris: Vec<String> = Vec::new();
        for u in filter.resource_subscriptions.iter().flatten() {
            if !uris.contains(u) {
                uris.push(u.clone());
            }
        }
        let mut listen = Listen::default();
        let deadline = now_ms.saturating_add(self.config.request_timeout_ms);
        for uri in uris {
            if !subscribe {
                listen.refused.push(uri);
            } else if let Some(count) = self.legacy_uris.get_mut(&uri) {
                *count += 1;
                listen.granted.push(uri);
            } else {
                let purpose = Purpose::Subscribe {
                    call,
                    uri: uri.clone(),
                };
                match self.send_internal(Internal::Subscribe(uri.clone()), purpose, Some(deadline))
                {
                    Some(_) => listen.outstanding += 1,
                    None => listen.refused.push(uri),
                }
            }
        }
        let done = listen.outstanding == 0;
        if let Some(state) = self.calls.get_mut(&call) {
            state.stage = Stage::Listening(listen);
        }
        if done {
            self.legacy_ack(call);
        }
    }

    /// The answer to one legacy `resources/subscribe`.
    pub(crate) fn on_legacy_subscribed(&mut self, call: CallId, uri: String, ok: bool) {
        let Some(Stage::Listening(listen)) = self.calls.get_mut(&call).map(|s| &mut s.stage) else {
            // The listen call is gone: release what the server granted.
            if ok && !self.legacy_uris.contains_key(&uri) {
                let deadline = None;
                let _ =
                    self.send_internal(Internal::Unsubscribe(uri), Purpose::Unsubscribe, deadline);
            }
            return;
        };
        listen.outstanding = listen.outstanding.saturating_sub(1);
        if ok {
            *self.legacy_uris.entry(uri.clone()).or_insert(0) += 1;
            listen.granted.push(uri);
        } else {
            listen.refused.push(uri);
        }
        if listen.outstanding == 0 {
            self.legacy_ack(call);
        }
    }

    /// The synthesized acknowledgment of a legacy listen: types the server declared
    /// `listChanged` for, and the URIs it accepted.
    fn legacy_ack(&mut self, call: CallId) {
        let Phase::Ready(session) = &self.phase else {
            return;
        };
        let f = session.features;
        let Some(state) = self.calls.get(&call) else {
            return;
        };
        let (Spec::Listen { filter }, Stage::Listening(listen)) = (&state.spec, &state.stage)
        else {
            return;
        };
        // What the session delivers anyway, limited to what this call asked for.
        let granted = OwnedSubscriptionFilter {
            tools_list_changed: set(f.tools_list_changed && on(filter.tools_list_changed)),
            prompts_list_changed: set(f.prompts_list_changed && on(filter.prompts_list_changed)),
            resources_list_changed: set(
                f.resources_list_changed && on(filter.resources_list_changed)
            ),
            resource_subscriptions: list(listen.granted.clone()),
        };
        self.acknowledge(call, &granted);
    }

    /// Ends a legacy listen call: unsubscribes the URIs no other call holds.
    pub(crate) fn legacy_unlisten(&mut self, _call: CallId, listen: Listen, now_ms: u64) {
        let deadline = Some(now_ms.saturating_add(self.config.request_timeout_ms));
        for uri in listen.granted {
            let last = match self.legacy_uris.get_mut(&uri) {
                Some(n) if *n > 1 => {
                    *n -= 1;
                    false
                }
                Some(_) => true,
                None => false,
            };
            if last {
                self.legacy_uris.remove(&uri);
                let _ =
                    self.send_internal(Internal::Unsubscribe(uri), Purpose::Unsubscribe, deadline);
            }
        }
    }
}
