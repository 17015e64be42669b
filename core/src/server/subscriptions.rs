//! `subscriptions/listen` state (docs/rules.md §11, §12; checklist §16.9): which streams asked for
//! which notification types, and how many of their notifications are queued.
//!
//! A subscription lives from its acknowledgment until the client cancels it, its stream
//! closes, its queue overflows, or the server shuts down. Its state is scoped to the listen
//! request (docs/rules.md §1.5), keyed by (stream, listen id).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::io::{StreamId, Transport};
use crate::cache::is_sub_resource;
use crate::jsonrpc::{OwnedRequestId, RequestId};
use crate::messages::SubscriptionFilter;
use crate::messages::owned::{ListKind, OwnedSubscriptionFilter};

/// The notification types a subscription was acknowledged for (docs/rules.md §11.2: "the subset
/// the server agreed to honor").
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Honoured {
    pub(crate) resources_list: bool,
    pub(crate) prompts_list: bool,
    /// Only when the host announced `tools` with `listChanged` (extension methods).
    pub(crate) tools_list: bool,
    /// `None` = not subscribed to updates at all.
    pub(crate) uris: Option<Vec<String>>,
    /// The listen request's context: updates go only to a caller that may read the URI
    /// (docs/rules.md §22.4).
    pub(crate) caller: Option<super::io::Ctx>,
}

impl Honoured {
    /// The honoured subset of `requested`, given what the server supports. `valid_uri`
    /// drops URIs the server will not watch (docs/rules.md §19.6 allows a per-URI subset).
    pub(crate) fn of(
        requested: &SubscriptionFilter<'_>,
        resources: bool,
        prompts: bool,
        tools: bool,
        valid_uri: impl Fn(&str) -> bool,
    ) -> Self {
        let uris = requested
            .resource_subscriptions
            .filter(|_| resources)
            .map(|seq| {
                let mut v: Vec<String> = Vec::new();
                for u in seq.iter() {
                    let u = u.to_cow();
                    if valid_uri(&u) && !v.iter().any(|x| *x == *u) {
                        v.push(u.into_owned());
                    }
                }
                v
            });
        Self {
            resources_list: resources && requested.resources_list_changed == Some(true),
            prompts_list: prompts && requested.prompts_list_changed == Some(true),
            tools_list: tools && requested.tools_list_changed == Some(true),
            uris,
            caller: None,
        }
    }

    /// The filter as acknowledged: only `true` flags, and `resourceSubscriptions` when
    /// updates are honoured.
    pub(crate) fn to_filter(&self) -> OwnedSubscriptionFilter {
        OwnedSubscriptionFilter {
            tools_list_changed: self.tools_list.then_some(true),
            prompts_list_changed: self.prompts_list.then_some(true),
            resources_list_changed: self.resources_list.then_some(true),
            resource_subscriptions: self.uris.clone(),
        }
    }

    /// Whether an update of `uri` is wanted: it is, or is a sub-resource of, a subscribed
    /// URI (docs/rules.md §12).
    pub(crate) fn wants_update(&self, uri: &str) -> bool {
        self.uris
            .as_ref()
            .is_some_and(|v| v.iter().any(|s| is_sub_resource(uri, s)))
    }

    pub(crate) fn wants_list(&self, kind: ListKind) -> bool {
        match kind {
            ListKind::Resources => self.resources_list,
            ListKind::Prompts => self.prompts_list,
            ListKind::Tools => self.tools_list,
        }
    }
}

/// A queued notification's identity, for coalescing (an equal one already queued and not
/// yet polled is not queued twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tag {
    List(ListKind),
    Updated(String),
    /// Never coalesced (acknowledgment, results, teardown).
    Other,
}

#[derive(Debug)]
pub(crate) struct Subscription {
    pub(crate) stream: StreamId,
    pub(crate) transport: Transport,
    pub(crate) id: OwnedRequestId,
    pub(crate) honoured: Honoured,
    queued: Vec<Tag>,
}

impl Subscription {
    pub(crate) fn is_queued(&self, tag: &Tag) -> bool {
        *tag != Tag::Other && self.queued.contains(tag)
    }

    pub(crate) fn queued_len(&self) -> usize {
        self.queued.len()
    }
}

/// Serial number of a subscription (never reused).
pub(crate) type SubKey = u64;

/// B-trees, not the server's sorted-`Vec` map: a process holds listens by the hundred
/// thousand, and removing one from a sorted `Vec` moves every entry after it (closing 100,000
/// listens oldest first would move terabytes); here every insert and removal is O(log n).
#[derive(Default)]
pub(crate) struct Subscriptions {
    map: BTreeMap<SubKey, Subscription>,
    /// (stream, listen id) → subscription: lookups and per-stream walks in O(log n).
    index: BTreeMap<(StreamId, OwnedRequestId), SubKey>,
    /// Live subscriptions per stream (for the per-stream limit).
    per_stream: BTreeMap<StreamId, usize>,
    next: SubKey,
}

impl Subscriptions {
    pub(crate) fn find(&self, stream: StreamId, id: &RequestId<'_>) -> Option<SubKey> {
        self.index.get(&(stream, id.to_owned_id())).copied()
    }

    /// Live subscriptions on `stream`.
    pub(crate) fn on_stream_count(&self, stream: StreamId) -> usize {
        self.per_stream.get(&stream).copied().unwrap_or(0)
    }

    pub(crate) fn insert(
        &mut self,
        stream: StreamId,
        transport: Transport,
        id: OwnedRequestId,
        honoured: Honoured,
    ) -> SubKey {
        let k = self.next;
        self.next = self.next.wrapping_add(1);
        self.index.insert((stream, id.clone()), k);
        *self.per_stream.entry(stream).or_insert(0) += 1;
        self.map.insert(
            k,
            Subscription {
                stream,
                transport,
                id,
                honoured,
                queued: Vec::new(),
            },
        );
        k
    }

    pub(crate) fn get(&self, k: SubKey) -> Option<&Subscription> {
        self.map.get(&k)
    }

    pub(crate) fn remove(&mut self, k: SubKey) -> Option<Subscription> {
        let s = self.map.remove(&k)?;
        self.index.remove(&(s.stream, s.id.clone()));
        if let Some(n) = self.per_stream.get_mut(&s.stream) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per_stream.remove(&s.stream);
            }
        }
        Some(s)
    }

    pub(crate) fn keys(&self) -> Vec<SubKey> {
        self.map.keys().copied().collect()
    }

    pub(crate) fn on_stream(&self, stream: StreamId) -> Vec<SubKey> {
        // `Str("")` is the least id (derived order: Str < Int < BigInt).
        let from = (stream, OwnedRequestId::Str(String::new()));
        self.index
            .range(from..)
            .take_while(|((s, _), _)| *s == stream)
            .map(|(_, k)| *k)
            .collect()
    }

    /// Subscriptions that want a notification, in subscription order.
    pub(crate) fn wanting(&self, pred: impl Fn(&Honoured) -> bool) -> Vec<SubKey> {
        self.map
            .iter()
            .filter(|(_, s)| pred(&s.honoured))
            .map(|(k, _)| *k)
            .collect()
    }

    pub(crate) fn queued(&mut self, k: SubKey, tag: Tag) {
        if let Some(s) = self.map.get_mut(&k) {
            s.queued.push(tag);
        }
    }

    /// A queued notification of `k` was polled.
    pub(crate) fn dequeued(&mut self, k: SubKey, tag: &Tag) {
        if let Some(s) = self.map.get_mut(&k)
            && let Some(i) = s.queued.iter().position(|t| t == tag)
        {
            s.queued.remove(i);
            if s.queued.is_empty() {
                // An idle listen holds no queue buffer (it is allocated again on the next
                // notification): memory per open listen is what the server scales by.
                s.queued = Vec::new();
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}
