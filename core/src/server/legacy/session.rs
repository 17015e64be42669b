//! Streamable HTTP sessions for 2025-11-25 clients (spec 2025-11-25, basic/transports
//! "Session Management"): the id issued at `initialize`, the caller it is bound to, its
//! resource subscriptions and its GET stream; bounded in number, per peer, and in idle time,
//! with a short handshake bound for sessions no request followed (docs/server-machine.md
//! §"Legacy sessions", flood policy).

use super::super::vecmap::{VecMap, VecSet};
use alloc::string::String;
use core::net::{IpAddr, Ipv6Addr};

use crate::base64::{self, Alphabet};
use crate::server::StreamId;

/// One legacy session.
#[derive(Debug)]
pub(crate) struct Session {
    /// The `ctx.auth` that created it: requests under another `auth` do not see it.
    pub(crate) auth: u64,
    /// Last request, for the idle bound.
    pub(crate) last_used: u64,
    /// When the `initialize` created it, for the handshake bound and eviction order.
    pub(crate) created: u64,
    /// A request (any POST, a GET) named it after its `initialize`: never evicted to make
    /// room, only ended by `DELETE` or the idle bound.
    pub(crate) established: bool,
    /// The peer that created it ([`peer_key`]), for the per-peer bound.
    pub(crate) peer: Option<IpAddr>,
    /// The open GET stream, where notifications go.
    pub(crate) get_stream: Option<StreamId>,
    /// URIs from `resources/subscribe`.
    pub(crate) subs: VecSet<String>,
    /// The negotiated protocol version.
    pub(crate) version: &'static str,
    /// The `clientInfo` of the `initialize`, as compact JSON text (empty: none).
    pub(crate) client: String,
    /// The sequence number of the next event on the session's GET stream (`shared.rs`).
    pub(crate) next_event: u64,
}

/// The session table.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    pub(super) map: VecMap<String, Session>,
    counter: u64,
    /// Sessions shared with a fleet (`shared.rs`): record what changed.
    pub(super) track: bool,
    /// Ids whose state changed since the host last took them (`true`: still open).
    pub(super) changes: VecMap<String, bool>,
    /// Ids whose change the host took and has not reported stored yet (how many times).
    pub(super) unstored: VecMap<String, u32>,
    /// While the host loads the fleet's table: the ids whose change was unstored when the
    /// load began or taken since (newer than what the table holds).
    pub(super) loading: Option<VecSet<String>>,
    /// The instance's own bytes, mixed into every id: two instances of a fleet (same keys,
    /// same clock millisecond, same counter) never mint the same id.
    pub(super) instance: alloc::vec::Vec<u8>,
}

impl Sessions {
    /// Records that session `id` changed (`open`) or ended, when sessions are shared.
    pub(crate) fn changed(&mut self, id: &str, open: bool) {
        if self.track {
            self.changes.insert(String::from(id), open);
        }
    }

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
        self.changed(id, false);
        self.map.remove(id)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &Session)> {
        self.map.iter()
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&String, &mut Session)> {
        self.map.iter_mut()
    }

    /// Ends sessions idle for `bounds.idle_ms` or more, except those holding a GET stream
    /// open, and half-open ones older than `bounds.handshake_ms`.
    pub(crate) fn prune(&mut self, now: u64, bounds: &Bounds) {
        let (track, changes) = (self.track, &mut self.changes);
        self.map.retain(|id, s| {
            let keep = (s.established || now.saturating_sub(s.created) < bounds.handshake_ms)
                && (s.get_stream.is_some() || now.saturating_sub(s.last_used) < bounds.idle_ms);
            if !keep && track {
                changes.insert(id.clone(), false);
            }
            keep
        });
    }

    /// Makes room for one more session of `peer`: at the per-peer bound the peer's oldest
    /// half-open session goes, in a full table the oldest half-open one. Established
    /// sessions never go; when only they hold the places, the answer is [`Full`].
    fn make_room(&mut self, peer: Option<IpAddr>, now: u64, bounds: &Bounds) -> Result<(), Full> {
        if let Some(p) = peer {
            let held = self.map.values().filter(|s| s.peer == Some(p)).count();
            if held >= bounds.per_peer && !self.evict_half_open(|s| s.peer == Some(p)) {
                return Err(Full::Peer {
                    retry_after_s: self.retry_after_s(now, bounds, |s| s.peer == Some(p)),
                });
            }
        }
        if self.map.len() >= bounds.max && !self.evict_half_open(|_| true) {
            return Err(Full::Table {
                retry_after_s: self.retry_after_s(now, bounds, |_| true),
            });
        }
        Ok(())
    }

    /// Removes the oldest half-open session among those `of` selects; `false` if none.
    fn evict_half_open(&mut self, of: impl Fn(&Session) -> bool) -> bool {
        let oldest = self
            .map
            .iter()
            .filter(|(_, s)| !s.established && of(s))
            .min_by_key(|(_, s)| s.created)
            .map(|(id, _)| id.clone());
        oldest.is_some_and(|id| self.remove(&id).is_some())
    }

    /// Seconds until the first of the sessions `of` selects can end by the idle bound
    /// (one without a GET stream), between 1 and [`MAX_RETRY_AFTER_S`]: clients also end
    /// sessions with `DELETE` at any time, so a client is never told to wait longer.
    fn retry_after_s(&self, now: u64, bounds: &Bounds, of: impl Fn(&Session) -> bool) -> u64 {
        let soonest = self
            .map
            .values()
            .filter(|s| of(s) && s.get_stream.is_none())
            .map(|s| {
                s.last_used
                    .saturating_add(bounds.idle_ms)
                    .saturating_sub(now)
            })
            .min()
            .unwrap_or(u64::MAX);
        soonest.div_ceil(1000).clamp(1, MAX_RETRY_AFTER_S)
    }

    /// A new session for `auth` from `peer` (after [`Sessions::make_room`]), or [`Full`].
    /// The id is 22 base64url characters of SHA-256 over a counter, the time and `secret`
    /// (the newest `requestState` key when configured, so ids are unguessable; without a
    /// key they are unique but predictable, and only the binding to `auth` protects them).
    pub(crate) fn create(
        &mut self,
        auth: u64,
        peer: Option<IpAddr>,
        now: u64,
        secret: &[u8],
        bounds: &Bounds,
    ) -> Result<String, Full> {
        let peer = peer.map(peer_key);
        self.make_room(peer, now, bounds)?;
        loop {
            self.counter = self.counter.wrapping_add(1);
            let digest = crate::state::params_digest(&[
                b"mcp-context legacy session",
                &self.counter.to_le_bytes(),
                &now.to_le_bytes(),
                &auth.to_le_bytes(),
                secret,
                &self.instance,
            ]);
            let mut buf = [0u8; 24];
            let id = digest
                .get(..16)
                .and_then(|d| base64::encode(Alphabet::UrlSafeNoPad, d, &mut buf).ok())
                .and_then(|n| core::str::from_utf8(buf.get(..n)?).ok())
                .map(String::from)
                .ok_or(Full::Table { retry_after_s: 1 })?;
            if self.map.contains_key(&id) {
                continue;
            }
            self.map.insert(
                id.clone(),
                Session {
                    auth,
                    last_used: now,
                    created: now,
                    established: false,
                    peer,
                    get_stream: None,
                    subs: VecSet::new(),
                    version: "2025-11-25",
                    client: String::new(),
                    next_event: 1,
                },
            );
            self.changed(&id, true);
            return Ok(id);
        }
    }
}

/// The version `initialize` negotiates for a requested one: the requested one when served,
/// else the newest (spec 2025-11-25, basic/lifecycle "Version Negotiation").
pub(super) fn negotiated(requested: &str) -> &'static str {
    super::LEGACY_VERSIONS
        .iter()
        .find(|v| **v == requested)
        .or(super::LEGACY_VERSIONS.first())
        .copied()
        .unwrap_or("2025-11-25")
}

/// The longest `Retry-After` the machine sends, in seconds.
pub(crate) const MAX_RETRY_AFTER_S: u64 = 60;

/// The session bounds, from [`ServerConfig`](crate::server::ServerConfig).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// `max_sessions`.
    pub(crate) max: usize,
    /// `max_sessions_per_peer`.
    pub(crate) per_peer: usize,
    /// `session_idle_ms`.
    pub(crate) idle_ms: u64,
    /// `session_handshake_ms`.
    pub(crate) handshake_ms: u64,
}

/// Why no session was created: every place is held by an established session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// The peer holds `max_sessions_per_peer` established sessions: HTTP 429.
    Peer { retry_after_s: u64 },
    /// The table holds `max_sessions` established sessions: HTTP 503.
    Table { retry_after_s: u64 },
}

impl Full {
    /// The HTTP status and the `Retry-After` seconds.
    pub(crate) const fn status_and_retry(self) -> (u16, u64) {
        match self {
            Self::Peer { retry_after_s } => (429, retry_after_s),
            Self::Table { retry_after_s } => (503, retry_after_s),
        }
    }
}

/// The peer a session is counted against: an IPv4 address (an IPv4-mapped IPv6 one as
/// IPv4), or an IPv6 address's /64 prefix (one host commonly owns a whole /64).
fn peer_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::net::Ipv4Addr;

    #[test]
    fn peers_group_ipv6_by_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(peer_key(a), peer_key(b));
        assert_ne!(peer_key(a), peer_key(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(peer_key(mapped), IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7)));
    }
}
