//! The table of requests sent and not yet answered: id allocation, deadlines, and the ids
//! given up on (docs/rules.md §1.1: an id "**MUST NOT** match the ID of any other request the
//! sender has issued and not yet received a response for").

use alloc::collections::{BTreeMap, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

use super::call::CallId;
use crate::cache::AuthContext;

/// How many abandoned ids are remembered, so that their late responses are ignored
/// ("**SHOULD** ignore any response to the cancelled request that arrives afterward",
/// docs/rules.md §12) rather than reported as unknown.
const ABANDONED_MEMORY: usize = 256;

/// Why a request was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// An attempt of a host call.
    Call(CallId),
    /// The `server/discover` era probe (docs/rules.md §17.2).
    Probe,
    /// The legacy `initialize`.
    Initialize,
    /// A legacy `resources/subscribe` made for a listen call.
    Subscribe { call: CallId, uri: String },
    /// A legacy `resources/unsubscribe` (its answer only clears the entry).
    Unsubscribe,
}

/// One outstanding request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Inflight {
    pub(crate) purpose: Purpose,
    /// When it fails for lack of an answer; `None` for `subscriptions/listen`, which stays
    /// open as long as the subscription.
    pub(crate) deadline: Option<u64>,
    /// The authorization context in force when it was sent: its result is cached for it.
    pub(crate) auth: Option<AuthContext>,
}

/// Outstanding requests by integer id.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    next_id: i64,
    inflight: BTreeMap<i64, Inflight>,
    abandoned: VecDeque<i64>,
}

impl Pending {
    /// A fresh id: increasing, positive, never one that is outstanding.
    pub(crate) fn allocate(&mut self) -> i64 {
        loop {
            self.next_id = self.next_id.checked_add(1).unwrap_or(1);
            if !self.inflight.contains_key(&self.next_id) {
                return self.next_id;
            }
        }
    }

    pub(crate) fn insert(&mut self, id: i64, inflight: Inflight) {
        self.inflight.insert(id, inflight);
    }

    pub(crate) fn take(&mut self, id: i64) -> Option<Inflight> {
        self.inflight.remove(&id)
    }

    pub(crate) fn get_mut(&mut self, id: i64) -> Option<&mut Inflight> {
        self.inflight.get_mut(&id)
    }

    pub(crate) fn get(&self, id: i64) -> Option<&Inflight> {
        self.inflight.get(&id)
    }

    /// Forgets `id` (if outstanding) and remembers it as given up on.
    pub(crate) fn abandon(&mut self, id: i64) {
        self.inflight.remove(&id);
        if self.abandoned.len() >= ABANDONED_MEMORY {
            self.abandoned.pop_front();
        }
        self.abandoned.push_back(id);
    }

    pub(crate) fn was_abandoned(&self, id: i64) -> bool {
        self.abandoned.contains(&id)
    }

    /// The earliest deadline.
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.inflight.values().filter_map(|i| i.deadline).min()
    }

    /// Removes and returns every request whose deadline is at or before `now_ms`, as
    /// abandoned.
    pub(crate) fn expire(&mut self, now_ms: u64) -> Vec<(i64, Inflight)> {
        let ids: Vec<i64> = self
            .inflight
            .iter()
            .filter(|(_, i)| i.deadline.is_some_and(|d| d <= now_ms))
            .map(|(id, _)| *id)
            .collect();
        self.take_all(ids)
    }

    /// Removes and returns every outstanding request, as abandoned.
    pub(crate) fn drain(&mut self) -> Vec<(i64, Inflight)> {
        let ids: Vec<i64> = self.inflight.keys().copied().collect();
        self.take_all(ids)
    }

    fn take_all(&mut self, ids: Vec<i64>) -> Vec<(i64, Inflight)> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(i) = self.inflight.remove(&id) {
                self.abandon(id);
                out.push((id, i));
            }
        }
        out
    }

    /// The number of outstanding requests.
    pub(crate) fn len(&self) -> usize {
        self.inflight.len()
    }
}
