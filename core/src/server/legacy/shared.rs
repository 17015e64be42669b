//! 2025-11-25 HTTP sessions shared by the instances of a fleet (docs/scale-out.md §"2025-11-25
//! sessions across instances"): the core decides what a session's state is and encodes it;
//! a runner stores the bytes (Redis) and hands them to whichever instance a request lands on.
//! Also the event ids of a session's GET stream, which the core mints and parses, and the
//! replay rule of a resumed stream (`Last-Event-ID`, spec 2025-11-25, basic/transports
//! "Resumability and Redelivery").
//!
//! The state (format version 1, compact JSON): `auth`, `age`/`idle` (milliseconds since the
//! `initialize` and since the last request: instances' clocks are their own, so times travel
//! as durations), `est` (established), `peer`, `subs`, `caps` (the client capabilities in the
//! modern form), `level`, `version` (negotiated), `client` (`clientInfo`), `next` (the next
//! event sequence number). The open GET stream is not part of it: it lives on one instance.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::super::io::{Ctx, StreamId, Transport};
use super::super::machine::Server;
use super::super::vecmap::VecSet;
use super::peer::Peer;
use super::session::Session;
use super::{LEGACY_VERSIONS, MAX_SUBSCRIPTIONS, encode_with};
use crate::http::sse::encode_event;
use crate::json::RawJson;
use crate::messages::LoggingLevel;

/// The format version of an exported session.
const FORMAT: u64 = 1;

/// What changed in the session table since the host last asked
/// ([`Server::take_session_changes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChange {
    /// The session was created or used: store `state` under `id` (replacing what was there).
    Stored {
        /// The `Mcp-Session-Id`.
        id: String,
        /// [`Server::export_session`]'s bytes.
        state: Vec<u8>,
    },
    /// The session ended (`DELETE`, the idle or handshake bound, evicted to make room):
    /// remove it from the store, and its events.
    Ended {
        /// The `Mcp-Session-Id`.
        id: String,
    },
}

/// What [`Server::session_load_end`] did with the fleet's table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionLoad {
    /// States taken from the table.
    pub imported: usize,
    /// Ids whose state this core does not read ([`SessionImportError::Malformed`]): left as
    /// they were here.
    pub malformed: Vec<String>,
    /// Sessions forgotten here: the table lacks them.
    pub forgotten: usize,
    /// The GET streams of the forgotten sessions, for the host to close.
    pub closed: Vec<StreamId>,
}

/// Why [`Server::import_session`] refused a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionImportError {
    /// Not a session state this core encodes (another format version, a missing member).
    Malformed,
}

impl fmt::Display for SessionImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a session state of this format")
    }
}

impl core::error::Error for SessionImportError {}

/// One event of a session's GET stream, framed ([`Server::session_event`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionEvent {
    /// The session the stream belongs to.
    pub session: String,
    /// The event's sequence number in the session (its SSE `id`).
    pub seq: u64,
    /// The SSE event (`id: <seq>`, `data: <message>`, blank line): write it, and store it
    /// for a resumed stream.
    pub bytes: Vec<u8>,
}

/// The bytes of a session channel message's origin: the publishing instance's 16 bytes
/// (the ones it gave [`Server::share_sessions`]).
pub const SESSION_ORIGIN_LEN: usize = 16;

/// A message of the fleet's session channel (docs/scale-out.md §"2025-11-25 sessions across
/// instances"): the origin's [`SESSION_ORIGIN_LEN`] bytes, `\n`, the session id, and for a
/// stored session `\n` and its state. The origin is raw bytes (it may hold `\n`): it is
/// read by its length, never by searching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionMessage<'a> {
    /// The instance that published it (an instance skips its own).
    pub origin: &'a [u8; SESSION_ORIGIN_LEN],
    /// The `Mcp-Session-Id`.
    pub id: &'a str,
    /// The session's state ([`Server::import_session`]), or `None`: it ended.
    pub state: Option<&'a [u8]>,
}

impl SessionMessage<'_> {
    /// The message's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let extra = self.state.map_or(0, |s| s.len() + 1);
        let mut out = Vec::with_capacity(SESSION_ORIGIN_LEN + 1 + self.id.len() + extra);
        out.extend_from_slice(self.origin);
        out.push(b'\n');
        out.extend_from_slice(self.id.as_bytes());
        if let Some(state) = self.state {
            out.push(b'\n');
            out.extend_from_slice(state);
        }
        out
    }

    /// Reads a message; `None` for bytes that are not one (too short, no separator after
    /// the origin, an empty or non-UTF-8 id).
    #[must_use]
    pub fn decode(bytes: &[u8]) -> Option<SessionMessage<'_>> {
        let (origin, rest) = bytes.split_first_chunk::<SESSION_ORIGIN_LEN>()?;
        let rest = rest.strip_prefix(b"\n")?;
        let mut parts = rest.splitn(2, |b| *b == b'\n');
        let (id, state) = (parts.next()?, parts.next());
        let id = core::str::from_utf8(id).ok().filter(|id| !id.is_empty())?;
        Some(SessionMessage { origin, id, state })
    }
}

/// The replay rule of a resumed GET stream: `Last-Event-ID` `last` (an event id the core
/// minted: the decimal sequence number) asks for the stored events with a greater sequence
/// number, in order. `None` (no header, or an id this core did not mint) replays nothing:
/// the stream starts fresh.
#[must_use]
pub fn session_event_seq(last: &str) -> Option<u64> {
    if last.is_empty() || last.len() > 20 || !last.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    last.parse().ok()
}

impl Server {
    /// Shares this machine's 2025-11-25 sessions with a fleet (`Some(instance)`: bytes
    /// unique to this instance, e.g. 16 random ones, mixed into the ids it mints so that no
    /// two instances mint the same id): from now on every session created, used or ended
    /// is recorded for [`Server::take_session_changes`]. `None` stops sharing.
    pub fn share_sessions(&mut self, instance: Option<&[u8]>) {
        let sessions = &mut self.legacy.sessions;
        sessions.track = instance.is_some();
        sessions.instance = instance.map(Vec::from).unwrap_or_default();
        if instance.is_none() {
            sessions.changes = super::super::vecmap::VecMap::new();
        }
    }

    /// Appends the session changes since the last call (after `handle_http`): store each
    /// [`SessionChange::Stored`] before the answer is sent, so the client's next request
    /// finds the session on any instance.
    ///
    /// Each change taken is unstored until the host reports it settled
    /// ([`Server::session_change_settled`], once per change, stored or not): until then a
    /// load of the fleet's table ([`Server::session_load_end`]) keeps this machine's state
    /// of that session, which is newer than the table's.
    pub fn take_session_changes(&mut self, out: &mut Vec<SessionChange>) {
        let sessions = &mut self.legacy.sessions;
        let changes = core::mem::take(&mut sessions.changes);
        for (id, _) in changes.iter() {
            if let Some(n) = sessions.unstored.get_or_insert_with(id.clone(), || 0) {
                *n += 1;
            }
            if let Some(loading) = &mut sessions.loading {
                loading.add(id.clone());
            }
        }
        for (id, open) in changes.iter() {
            if !open {
                out.push(SessionChange::Ended { id: id.clone() });
            } else if let Some(state) = self.export_session(id) {
                out.push(SessionChange::Stored {
                    id: id.clone(),
                    state,
                });
            }
        }
    }

    /// Whether this machine holds session `id` now.
    #[must_use]
    pub fn has_session(&self, id: &str) -> bool {
        self.legacy.sessions.contains(id)
    }

    /// The state of session `id` (module docs), or `None` when this machine does not hold it.
    #[must_use]
    pub fn export_session(&self, id: &str) -> Option<Vec<u8>> {
        let s = self.legacy.sessions.map.get(id)?;
        let state = self.legacy.peers.get(&Peer::Session(String::from(id)));
        let now = self.now;
        encode_with(|w| {
            w.begin_object()?;
            w.key("v")?;
            w.u64(FORMAT)?;
            w.key("auth")?;
            w.u64(s.auth)?;
            w.key("age")?;
            w.u64(now.saturating_sub(s.created))?;
            w.key("idle")?;
            w.u64(now.saturating_sub(s.last_used))?;
            w.key("est")?;
            w.bool(s.established)?;
            if let Some(p) = s.peer {
                w.key("peer")?;
                w.str(&alloc::format!("{p}"))?;
            }
            w.key("subs")?;
            w.begin_array()?;
            for (uri, ()) in s.subs.iter() {
                w.str(uri)?;
            }
            w.end_array()?;
            if let Some(st) = state {
                if let Ok(caps) = RawJson::parse(st.caps.as_bytes()) {
                    w.key("caps")?;
                    w.raw(caps)?;
                }
                if let Some(l) = st.level {
                    w.key("level")?;
                    w.str(l.as_str())?;
                }
            }
            w.key("version")?;
            w.str(s.version)?;
            if let Ok(client) = RawJson::parse(s.client.as_bytes()) {
                w.key("client")?;
                w.raw(client)?;
            }
            w.key("next")?;
            w.u64(s.next_event)?;
            w.end_object()
        })
    }

    /// Takes session `id` from the fleet's store (`state` from [`Server::export_session`] on
    /// any instance), at `now_ms`: replaces what this machine held, except its GET stream
    /// (local) and an event sequence already further on. Not recorded as a change.
    ///
    /// # Errors
    /// [`SessionImportError::Malformed`]: nothing was changed.
    pub fn import_session(
        &mut self,
        id: &str,
        state: &[u8],
        now_ms: u64,
    ) -> Result<(), SessionImportError> {
        let bad = SessionImportError::Malformed;
        let v = RawJson::parse_with(state, self.config.limits).map_err(|_| bad)?;
        let num = |k: &str| {
            v.get(k)
                .and_then(|n| n.as_number())
                .and_then(|n| n.as_u64())
        };
        if num("v") != Some(FORMAT) || id.is_empty() || id.len() > 64 {
            return Err(bad);
        }
        let text = |k: &str| v.get(k).and_then(|t| t.as_str()).map(|t| t.to_cow());
        let version = text("version")
            .and_then(|t| LEGACY_VERSIONS.iter().find(|v| **v == t.as_ref()).copied())
            .ok_or(bad)?;
        let peer = match text("peer") {
            Some(p) => Some(p.parse().map_err(|_| bad)?),
            None => None,
        };
        let mut subs = VecSet::new();
        for uri in v.get("subs").and_then(|a| a.array()).ok_or(bad)? {
            let uri = uri.as_str().ok_or(bad)?.to_cow();
            if subs.len() < MAX_SUBSCRIPTIONS {
                subs.add(String::from(uri.as_ref()));
            }
        }
        let level = match text("level") {
            Some(l) => Some(LoggingLevel::from_name(&l).ok_or(bad)?),
            None => None,
        };
        let caps = v
            .get("caps")
            .filter(|c| c.object().is_some())
            .map_or_else(|| String::from("{}"), |c| String::from(c.as_text()));
        let client = v
            .get("client")
            .filter(|c| c.object().is_some())
            .map_or_else(String::new, |c| String::from(c.as_text()));
        let (auth, age, idle) = (num("auth"), num("age"), num("idle"));
        let (Some(auth), Some(age), Some(idle)) = (auth, age, idle) else {
            return Err(bad);
        };
        let now = self.now.max(now_ms);
        let local = self.legacy.sessions.map.get(id);
        let get_stream = local.and_then(|s| s.get_stream);
        let next_event = num("next")
            .unwrap_or(1)
            .max(local.map_or(1, |s| s.next_event));
        let session = Session {
            auth,
            last_used: now.saturating_sub(idle),
            created: now.saturating_sub(age),
            established: v.get("est").and_then(|b| b.as_bool()).unwrap_or(false),
            peer,
            get_stream,
            subs,
            version,
            client,
            next_event,
        };
        self.legacy.sessions.map.insert(String::from(id), session);
        let ctx = Ctx {
            stream: StreamId(0),
            auth,
            transport: Transport::Http,
            peer,
            scopes: None,
        };
        let peer_id = Peer::Session(String::from(id));
        let outstanding = self.legacy.peers.get(&peer_id).map_or(0, |p| p.outstanding);
        self.legacy
            .peers
            .restore(peer_id, ctx, caps, level, outstanding);
        Ok(())
    }

    /// Forgets session `id` here only (the fleet's store no longer has it: it ended on
    /// another instance), without recording a change. Returns its GET stream, if one is
    /// open here, for the host to close (nothing more is sent on it).
    pub fn forget_session(&mut self, id: &str) -> Option<StreamId> {
        let s = self.legacy.sessions.map.remove(id)?;
        self.legacy.peers.remove(&Peer::Session(String::from(id)));
        if let Some(g) = s.get_stream {
            self.out.purge_stream(g);
        }
        s.get_stream
    }

    /// The fleet's table was (re)loaded: forgets here, as [`Server::forget_session`] does,
    /// every session `stored` says the table lacks (it ended on another instance while this
    /// one was not listening). A session with a change not yet taken by
    /// [`Server::take_session_changes`] is kept: its state is newer than any table. The host
    /// keeps, through `stored`, the sessions whose change it took but has not yet stored
    /// when it started loading, and those it took since. Appends the GET streams to close.
    pub fn retain_sessions(
        &mut self,
        mut stored: impl FnMut(&str) -> bool,
        closed: &mut Vec<StreamId>,
    ) -> usize {
        let legacy = &mut self.legacy;
        let (changes, peers, out) = (&legacy.sessions.changes, &mut legacy.peers, &mut self.out);
        let before = legacy.sessions.map.len();
        legacy.sessions.map.retain(|id, s| {
            if changes.contains_key(id.as_str()) || stored(id) {
                return true;
            }
            peers.remove(&Peer::Session(id.clone()));
            if let Some(g) = s.get_stream {
                out.purge_stream(g);
                closed.push(g);
            }
            false
        });
        before - legacy.sessions.map.len()
    }

    /// The host is done with one change of session `id` it took
    /// ([`Server::take_session_changes`]): stored in the fleet's store, or given up (the
    /// store failed). Once every change taken of `id` is settled, a table load may replace
    /// or forget this machine's state of it again.
    pub fn session_change_settled(&mut self, id: &str) {
        let unstored = &mut self.legacy.sessions.unstored;
        if let Some(n) = unstored.get_mut(id) {
            *n -= 1;
            if *n == 0 {
                unstored.remove(id);
            }
        }
    }

    /// The host starts loading the fleet's whole table (after its change channel was
    /// (re)subscribed): from now until [`Server::session_load_end`] (or
    /// [`Server::session_load_abort`]), the sessions with an unstored change and those whose
    /// change is taken meanwhile keep this machine's state. A second call starts over.
    pub fn session_load_begin(&mut self) {
        let sessions = &mut self.legacy.sessions;
        let mut loading = VecSet::new();
        for (id, _) in sessions.unstored.iter() {
            loading.add(id.clone());
        }
        sessions.loading = Some(loading);
    }

    /// The load failed (the store did not answer): nothing is imported nor forgotten.
    pub fn session_load_abort(&mut self) {
        self.legacy.sessions.loading = None;
    }

    /// The fleet's table (`table`: every id and state the store holds) was read at `now_ms`
    /// after [`Server::session_load_begin`]: imports each state ([`Server::import_session`])
    /// except for the sessions whose change is newer here (module docs), then forgets the
    /// sessions the table lacks ([`Server::retain_sessions`]: they ended on another instance
    /// while this one was not listening). Without a load begun, only imports.
    pub fn session_load_end<'t>(
        &mut self,
        table: impl IntoIterator<Item = (&'t str, &'t [u8])>,
        now_ms: u64,
    ) -> SessionLoad {
        let newer = self.legacy.sessions.loading.take();
        let is_newer = |id: &str| newer.as_ref().is_some_and(|n| n.contains_key(id));
        let mut load = SessionLoad::default();
        let mut stored = VecSet::new();
        for (id, state) in table {
            stored.add(String::from(id));
            if is_newer(id) {
                continue;
            }
            match self.import_session(id, state, now_ms) {
                Ok(()) => load.imported += 1,
                Err(SessionImportError::Malformed) => load.malformed.push(String::from(id)),
            }
        }
        if newer.is_some() {
            let keep = |id: &str| stored.contains_key(id) || is_newer(id);
            load.forgotten = self.retain_sessions(keep, &mut load.closed);
        }
        load
    }

    /// Frames `data` (one transmit's bytes for `stream`) as the next event of the session
    /// whose GET stream `stream` is: `id: <seq>` then the data. `None` when `stream` is no
    /// session's GET stream (frame it as usual).
    pub fn session_event(&mut self, stream: StreamId, data: &[u8]) -> Option<SessionEvent> {
        let (id, s) = self
            .legacy
            .sessions
            .map
            .iter_mut()
            .find(|(_, s)| s.get_stream == Some(stream))?;
        let seq = s.next_event;
        s.next_event = seq.saturating_add(1);
        let mut bytes = Vec::with_capacity(data.len() + 32);
        let mut digits = [0u8; 20];
        encode_event(&mut bytes, Some(decimal(seq, &mut digits)), None, data).ok()?;
        Some(SessionEvent {
            session: id.clone(),
            seq,
            bytes,
        })
    }

    /// The GET stream `stream` was opened (or resumed) while the fleet's store holds events
    /// of its session up to `stored_max`: its next event is numbered after them, so ids
    /// never repeat across instances.
    pub fn session_stream_floor(&mut self, stream: StreamId, stored_max: u64) {
        if let Some((_, s)) = self
            .legacy
            .sessions
            .map
            .iter_mut()
            .find(|(_, s)| s.get_stream == Some(stream))
        {
            s.next_event = s.next_event.max(stored_max.saturating_add(1));
        }
    }
}

/// `n` in decimal, in `buf`.
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        if let Some(d) = buf.get_mut(i) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    buf.get(i..)
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or("0")
}
