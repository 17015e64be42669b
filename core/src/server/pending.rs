//! Requests waiting for the application, by [`Handle`], with their deadlines.
//!
//! Deadlines are `now + request_timeout` with a clamped, never-decreasing `now`, and handles
//! increase, so the table is ordered by deadline too: the earliest deadline is the first
//! entry and expiry walks from the front.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::event::{DeclaredCapabilities, Handle};
use super::io::{StreamId, Transport};
use crate::jsonrpc::{OwnedRequestId, RequestId};

/// What the application owes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Owed {
    /// `resources/read` of `uri`; cache hints to use.
    Read {
        uri: String,
        cache: super::config::CacheHint,
    },
    /// `prompts/get`.
    Prompt,
    /// `completion/complete`.
    Complete,
}

/// What a sealed `requestState` is bound to (DIGEST §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BindingData {
    pub(crate) method: &'static str,
    pub(crate) digest: [u8; 32],
}

#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub(crate) stream: StreamId,
    pub(crate) transport: Transport,
    pub(crate) id: OwnedRequestId,
    pub(crate) owed: Owed,
    pub(crate) deadline: u64,
    pub(crate) auth: u64,
    pub(crate) caps: DeclaredCapabilities,
    pub(crate) binding: Option<BindingData>,
}

#[derive(Default)]
pub(crate) struct PendingTable {
    map: BTreeMap<u64, Pending>,
    next: u64,
}

impl PendingTable {
    pub(crate) fn insert(&mut self, p: Pending) -> Handle {
        let h = self.next;
        self.next = self.next.wrapping_add(1);
        self.map.insert(h, p);
        Handle(h)
    }

    pub(crate) fn get(&self, h: Handle) -> Option<&Pending> {
        self.map.get(&h.0)
    }

    pub(crate) fn remove(&mut self, h: Handle) -> Option<Pending> {
        self.map.remove(&h.0)
    }

    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.map.first_key_value().map(|(_, p)| p.deadline)
    }

    /// Handles whose deadline is at or before `now`.
    pub(crate) fn expired(&self, now: u64) -> Vec<Handle> {
        self.map
            .iter()
            .take_while(|(_, p)| p.deadline <= now)
            .map(|(h, _)| Handle(*h))
            .collect()
    }

    /// The request `id` on `stream` (the target of a client `notifications/cancelled`).
    pub(crate) fn find(&self, stream: StreamId, id: &RequestId<'_>) -> Option<Handle> {
        self.map
            .iter()
            .find(|(_, p)| p.stream == stream && p.id.as_ref() == *id)
            .map(|(h, _)| Handle(*h))
    }

    pub(crate) fn on_stream(&self, stream: StreamId) -> Vec<Handle> {
        self.map
            .iter()
            .filter(|(_, p)| p.stream == stream)
            .map(|(h, _)| Handle(*h))
            .collect()
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}
