//! Streamable HTTP sessions for 2025-11-25 clients (spec 2025-11-25, basic/transports
//! "Session Management"): the id issued at `initialize`, the caller it is bound to, its
//! resource subscriptions and its GET stream; bounded in number and idle time.

use super::super::vecmap::{VecMap, VecSet};
use alloc::string::String;

use crate::base64::{self, Alphabet};
use crate::server::StreamId;

/// One legacy session.
#[derive(Debug)]
pub(crate) struct Session {
    /// The `ctx.auth` that created it: requests under another `auth` do not see it.
    pub(crate) auth: u64,
    /// Last request, for the idle bound.
    pub(crate) last_used: u64,
    /// The open GET stream, where notifications go.
    pub(crate) get_stream: Option<StreamId>,
    /// URIs from `resources/subscribe`.
    pub(crate) subs: VecSet<String>,
}

/// The session table.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    map: VecMap<String, Session>,
    counter: u64,
}

impl Sessions {
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// The session `id` if it exists for `auth` (another caller's session is "not found").
    pub(crate) fn get_mut(&mut self, id: &str, auth: u64) -> Option<&mut Session> {
        self.map.get_mut(id).filter(|s| s.auth == auth)
    }

    pub(crate) fn contains(&self, id: &str) -> bool {
        self.map.contains_key(id)
    }

    pub(crate) fn remove(&mut self, id: &str) -> Option<Session> {
        self.map.remove(id)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &Session)> {
        self.map.iter()
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&String, &mut Session)> {
        self.map.iter_mut()
    }

    /// Ends sessions idle for `idle_ms` or more, except those holding a GET stream open.
    pub(crate) fn prune(&mut self, now: u64, idle_ms: u64) {
        self.map
            .retain(|_, s| s.get_stream.is_some() || now.saturating_sub(s.last_used) < idle_ms);
    }

    /// A new session for `auth`, or `None` when `max` sessions exist. The id is 22
    /// base64url characters of SHA-256 over a counter, the time and `secret` (the newest
    /// `requestState` key when configured, so ids are unguessable; without a key they are
    /// unique but predictable, and only the binding to `auth` protects them).
    pub(crate) fn create(
        &mut self,
        auth: u64,
        now: u64,
        secret: &[u8],
        max: usize,
    ) -> Option<String> {
        if self.map.len() >= max {
            return None;
        }
        loop {
            self.counter = self.counter.wrapping_add(1);
            let digest = crate::state::params_digest(&[
                b"mcp-context legacy session",
                &self.counter.to_le_bytes(),
                &now.to_le_bytes(),
                &auth.to_le_bytes(),
                secret,
            ]);
            let mut buf = [0u8; 24];
            let n = base64::encode(Alphabet::UrlSafeNoPad, digest.get(..16)?, &mut buf).ok()?;
            let id = String::from(core::str::from_utf8(buf.get(..n)?).ok()?);
            if self.map.contains_key(&id) {
                continue;
            }
            self.map.insert(
                id.clone(),
                Session {
                    auth,
                    last_used: now,
                    get_stream: None,
                    subs: VecSet::new(),
                },
            );
            return Some(id);
        }
    }
}
