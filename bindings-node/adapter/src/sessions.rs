//! 2025-11-25 sessions shared by a fleet (docs/scale-out.md, "2025-11-25 sessions across
//! instances"), for both engines: the session a request names with its replay point, and the
//! core's session changes as plain values. The core decides what a session is and encodes it;
//! the package's store (`js/redis-sessions.mjs`) only moves the bytes.

use mcp_context::server::{
    SESSION_ORIGIN_LEN, Server, SessionChange, SessionMessage, session_event_seq,
};

use crate::server::Head;

/// The session `head` names (`Mcp-Session-Id`) and, for a resumed GET stream, the sequence
/// number after which the stored events are replayed (`Last-Event-ID`, the core's replay
/// rule: an id the core did not mint replays nothing).
#[must_use]
pub fn session_head(head: &Head) -> (Option<String>, Option<u64>) {
    let fields = mcp_context::http::HeadFields::new(
        head.lines.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    );
    let session = fields
        .head(&head.method, &head.path)
        .session_id
        .map(String::from);
    let after = fields.last_event_id().and_then(session_event_seq);
    (session, after)
}

/// The session changes since the last call: `(id, Some(state))` to store, `(id, None)` ended.
#[must_use]
pub fn session_changes(server: &mut Server) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    server.take_session_changes(&mut out);
    out.into_iter()
        .map(|c| match c {
            SessionChange::Stored { id, state } => (id, Some(state)),
            SessionChange::Ended { id } => (id, None),
        })
        .collect()
}

/// [`Server::import_session`], its refusal as `ERR_SESSION_STATE` (nothing was changed).
///
/// # Errors
/// Not a session state this core reads.
pub fn import_session(server: &mut Server, id: &str, state: &[u8], now: u64) -> crate::Result<()> {
    server
        .import_session(id, state, now)
        .map_err(|e| crate::Error::context("ERR_SESSION_STATE", e.to_string()))
}

/// A session channel message's bytes ([`SessionMessage::encode`]): `origin` must be the
/// instance's 16 bytes.
///
/// # Errors
/// `origin` is not 16 bytes (`ERR_INVALID_ARG`).
pub fn encode_message(origin: &[u8], id: &str, state: Option<&[u8]>) -> crate::Result<Vec<u8>> {
    let origin: &[u8; SESSION_ORIGIN_LEN] = origin
        .try_into()
        .map_err(|_| crate::Error::context("ERR_INVALID_ARG", "origin: 16 bytes"))?;
    Ok(SessionMessage { origin, id, state }.encode())
}

/// A session channel message read ([`SessionMessage::decode`]): `(origin, id, state)`, or
/// `None` for bytes that are not one.
#[must_use]
pub fn decode_message(bytes: &[u8]) -> Option<(Vec<u8>, String, Option<Vec<u8>>)> {
    let m = SessionMessage::decode(bytes)?;
    Some((
        m.origin.to_vec(),
        m.id.to_owned(),
        m.state.map(<[u8]>::to_vec),
    ))
}
