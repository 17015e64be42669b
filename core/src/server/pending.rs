//! Requests waiting for the application, by [`Handle`], with their deadlines.
//!
//! Deadlines are `now + request_timeout` with a clamped, never-decreasing `now`, and handles
//! increase, so the table is ordered by deadline too: the earliest deadline is the first
//! entry and expiry walks from the front.

use super::vecmap::VecMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::event::{DeclaredCapabilities, Handle};
use super::io::{StreamId, Transport};
use crate::jsonrpc::{OwnedRequestId, RequestId};
use crate::messages::owned::OwnedJson;

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
    /// A page of the host's resources (`resources/list`). `tail`: `Some(after)` when the
    /// answer starts with the registered resources after the key `after` (`None` = from the
    /// first), the registered phase having ended in this page with room left; they are
    /// re-read from the registry when the host answers (server/dynamic.rs).
    List { tail: Option<Option<String>> },
    /// A method the host registered ([`Server::add_method`](super::Server::add_method)).
    Method,
    /// `tools/call` of a registered tool ([`Server::add_tool`](super::Server::add_tool)).
    Tool,
}

/// What a sealed `requestState` is bound to (the public spec, "Multi Round-Trip Requests"):
/// the method and a digest of the identifying params.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BindingData<'a> {
    pub(crate) method: &'a str,
    pub(crate) digest: [u8; 32],
}

/// The inputs of a [`BindingData`], kept with the request so the digest (a SHA-256) is
/// computed only when a `requestState` is sealed for it (docs/server-machine.md §Cost).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Bound {
    /// `resources/read`: the URI of [`Owed::Read`].
    Read,
    /// `prompts/get`: the name and the arguments.
    Prompt {
        name: String,
        arguments: Vec<(String, String)>,
    },
    /// A registered method: its name and params as received.
    Method { method: String, params: OwnedJson },
}

#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub(crate) stream: StreamId,
    pub(crate) transport: Transport,
    pub(crate) id: OwnedRequestId,
    pub(crate) owed: Owed,
    pub(crate) deadline: u64,
    pub(crate) auth: u64,
    /// The caller's verified scopes (`Ctx::scopes`).
    pub(crate) scopes: Option<crate::auth::resource_server::ScopeSet>,
    pub(crate) caps: DeclaredCapabilities,
    pub(crate) binding: Option<Bound>,
    /// `_meta.progressToken` of the request, when it sent one.
    pub(crate) progress: Option<OwnedRequestId>,
    /// The last `progress` value sent (each must be greater).
    pub(crate) last_progress: Option<f64>,
    /// `_meta.io.modelcontextprotocol/logLevel`: the least severe `notifications/message`
    /// the request admits (`None`: none, docs/rules.md §1.1).
    pub(crate) log_level: Option<crate::messages::LoggingLevel>,
}

impl Pending {
    /// The context the request came with.
    pub(crate) fn ctx(&self) -> super::io::Ctx {
        super::io::Ctx {
            stream: self.stream,
            auth: self.auth,
            transport: self.transport,
            peer: None,
            scopes: self.scopes,
        }
    }

    /// The `requestState` binding of this request (computes the digest).
    pub(crate) fn binding_data(&self) -> Option<BindingData<'_>> {
        Some(match (self.binding.as_ref()?, &self.owed) {
            (Bound::Read, Owed::Read { uri, .. }) => super::mrtr::read_binding(uri),
            (Bound::Prompt { name, arguments }, _) => super::mrtr::prompt_binding(name, arguments),
            (Bound::Method { method, params }, _) => {
                super::mrtr::method_binding(method, params.as_raw())
            }
            (Bound::Read, _) => return None,
        })
    }
}

#[derive(Default)]
pub(crate) struct PendingTable {
    map: VecMap<u64, Pending>,
    /// Pending requests per stream (for the per-stream limit).
    per_stream: VecMap<StreamId, usize>,
    /// (stream, request id) → handle: a client cancellation finds its request in O(log n).
    index: VecMap<(StreamId, OwnedRequestId), u64>,
    next: u64,
}

impl PendingTable {
    pub(crate) fn insert(&mut self, p: Pending) -> Handle {
        let h = self.next;
        self.next = self.next.wrapping_add(1);
        if let Some(n) = self.per_stream.get_or_insert_with(p.stream, || 0) {
            *n += 1;
        }
        self.index.insert((p.stream, p.id.clone()), h);
        self.map.insert(h, p);
        Handle(h)
    }

    pub(crate) fn get(&self, h: Handle) -> Option<&Pending> {
        self.map.get(&h.0)
    }

    pub(crate) fn get_mut(&mut self, h: Handle) -> Option<&mut Pending> {
        self.map.get_mut(&h.0)
    }

    pub(crate) fn remove(&mut self, h: Handle) -> Option<Pending> {
        let p = self.map.remove(&h.0)?;
        let key = (p.stream, p.id);
        if self.index.get(&key) == Some(&h.0) {
            self.index.remove(&key);
        }
        let p = Pending {
            stream: key.0,
            id: key.1,
            ..p
        };
        if let Some(n) = self.per_stream.get_mut(&p.stream) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per_stream.remove(&p.stream);
            }
        }
        Some(p)
    }

    /// Requests waiting on `stream`.
    pub(crate) fn on_stream_count(&self, stream: StreamId) -> usize {
        self.per_stream.get(&stream).copied().unwrap_or(0)
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
        if !self.per_stream.contains_key(&stream) {
            return None;
        }
        self.index
            .get(&(stream, id.to_owned_id()))
            .map(|h| Handle(*h))
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
