//! `ServerMachine`'s third `#[napi] impl` block: 2025-11-25 sessions shared by a fleet
//! (docs/scale-out.md, "2025-11-25 sessions across instances"). The core decides what a
//! session's state is, which changes to store, the GET stream's event ids and the replay
//! rule; the package's store (`mcp-context-primitives/redis-sessions`) moves the bytes.

use mcp_context::server::StreamId;
use mcp_context_node_adapter::sessions;
use napi::bindgen_prelude::Buffer;
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::thrower;
use crate::convert::{self, Int};
use crate::server::ServerMachine;
use crate::server_http::{HttpRequestHead, head_of};

/// A change of the session table (`takeSessionChanges`): store `state` under `id`, or
/// (`state` null) the session ended: remove it and its events.
#[napi(object)]
pub struct SessionChange {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// The session's state (`exportSession`'s bytes), or `null`: the session ended.
    pub state: Option<Buffer>,
}

/// The session a request names (`sessionHead`).
#[napi(object)]
pub struct SessionHead {
    /// The `Mcp-Session-Id`, if any.
    pub session: Option<String>,
    /// A resumed GET stream (`Last-Event-ID` the core minted): replay the stored events with
    /// a greater sequence number. Absent: replay nothing.
    pub after: Option<f64>,
}

/// One event of a session's GET stream, framed by the core (`sessionEvent`).
#[napi(object)]
pub struct SessionEvent {
    /// The session the stream belongs to.
    pub session: String,
    /// The event's sequence number (its SSE `id`).
    pub seq: f64,
    /// The SSE event (`id: <seq>`, `data: …`, blank line): store it, then write it.
    pub bytes: Buffer,
}

/// One row of the fleet's session table (`sessionLoadEnd`).
#[napi(object)]
pub struct SessionRow {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// Its stored state.
    pub state: Buffer,
}

/// What `sessionLoadEnd` did with the fleet's table.
#[napi(object)]
pub struct SessionLoad {
    /// States taken from the table.
    pub imported: u32,
    /// Ids whose state this core does not read (left as they were here).
    pub malformed: Vec<String>,
    /// Sessions forgotten here (the table lacks them).
    pub forgotten: u32,
    /// Their GET streams open here: end those responses.
    pub streams: Vec<f64>,
}

/// A session channel message read (`decodeSessionMessage`).
#[napi(object)]
#[allow(unreachable_pub)]
pub struct SessionMessage {
    /// The publishing instance's 16 bytes (skip your own).
    pub origin: Buffer,
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// The session's state, or absent: the session ended.
    pub state: Option<Buffer>,
}

/// The bytes of a message on the fleet's session channel (`mcp-context:<fleet>:sessions`):
/// `origin` (the instance's 16 bytes, as given to `shareSessions`), the session id and its
/// state, or no state for an end. The core's format, read by every runtime's store.
///
/// @throws {McpContextError} `ERR_INVALID_ARG`: `origin` is not 16 bytes.
#[napi(catch_unwind)]
#[allow(unreachable_pub)]
pub fn encode_session_message(
    env: Env,
    origin: Buffer,
    id: String,
    state: Option<Buffer>,
) -> Result<Buffer> {
    sessions::encode_message(&origin, &id, state.as_deref())
        .map(Buffer::from)
        .map_err(thrower(&env))
}

/// A message of the fleet's session channel read (the origin by its length: it may hold a
/// newline), or `null` for bytes that are not one.
#[napi(catch_unwind)]
#[allow(unreachable_pub)]
pub fn decode_session_message(data: Buffer) -> Option<SessionMessage> {
    sessions::decode_message(&data).map(|(origin, id, state)| SessionMessage {
        origin: Buffer::from(origin),
        id,
        state: state.map(Buffer::from),
    })
}

#[napi]
impl ServerMachine {
    /// Shares this machine's 2025-11-25 sessions with a fleet: `instance` (bytes unique to
    /// this instance, e.g. 16 random ones) is mixed into every id it mints, and every session
    /// created, used or ended is recorded for `takeSessionChanges`. `null` stops sharing.
    #[napi(catch_unwind)]
    pub fn share_sessions(&mut self, instance: Option<Buffer>) {
        self.inner.machine().share_sessions(instance.as_deref());
    }

    /// The session changes since the last call (after `handleHttp`): store each before the
    /// answer is sent, so the client's next request finds the session on any instance.
    #[napi(catch_unwind)]
    pub fn take_session_changes(&mut self) -> Vec<SessionChange> {
        sessions::session_changes(self.inner.machine())
            .into_iter()
            .map(|(id, state)| SessionChange {
                id,
                state: state.map(Buffer::from),
            })
            .collect()
    }

    /// Whether this machine holds session `id` now.
    #[napi(catch_unwind)]
    pub fn has_session(&self, id: String) -> bool {
        self.inner.machine_ref().has_session(&id)
    }

    /// The state of session `id` (versioned JSON bytes), or `null` when this machine does not
    /// hold it.
    #[napi(catch_unwind)]
    pub fn export_session(&self, id: String) -> Option<Buffer> {
        self.inner
            .machine_ref()
            .export_session(&id)
            .map(Buffer::from)
    }

    /// Takes session `id` from the fleet's store (`state` from `exportSession` or
    /// `takeSessionChanges` on any instance) at `nowMs`; not recorded as a change.
    ///
    /// @throws {McpContextError} `ERR_SESSION_STATE`: not a state this core reads (nothing changed).
    #[napi(
        catch_unwind,
        ts_args_type = "id: string, state: Buffer, nowMs: number | bigint"
    )]
    pub fn import_session(
        &mut self,
        env: Env,
        id: String,
        state: Buffer,
        now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        sessions::import_session(self.inner.machine(), &id, &state, now).map_err(thrower(&env))
    }

    /// Forgets session `id` here only (the fleet's store no longer has it), without recording
    /// a change. Returns the stream id of its GET stream if one is open here: end that
    /// response (nothing more is sent on it).
    #[napi(catch_unwind)]
    pub fn forget_session(&mut self, id: String) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)] // stream ids are counters far below 2^53
        self.inner.machine().forget_session(&id).map(|s| s.0 as f64)
    }

    /// One change of session `id` taken by `takeSessionChanges` is settled (stored, or given
    /// up): a table load may replace this machine's state of it again.
    #[napi(catch_unwind)]
    pub fn session_change_settled(&mut self, id: String) {
        self.inner.machine().session_change_settled(&id);
    }

    /// A load of the fleet's table starts: the sessions whose change is in flight, or taken
    /// until `sessionLoadEnd`, keep this machine's (newer) state.
    #[napi(catch_unwind)]
    pub fn session_load_begin(&mut self) {
        self.inner.machine().session_load_begin();
    }

    /// The load failed: nothing is imported nor forgotten.
    #[napi(catch_unwind)]
    pub fn session_load_abort(&mut self) {
        self.inner.machine().session_load_abort();
    }

    /// The fleet's table (every row the store holds) read at `nowMs`: imports what is not
    /// newer here, forgets here every session the table lacks (ended elsewhere while this
    /// instance was not listening).
    #[napi(
        catch_unwind,
        ts_args_type = "table: Array<SessionRow>, nowMs: number | bigint"
    )]
    pub fn session_load_end(
        &mut self,
        env: Env,
        table: Vec<SessionRow>,
        now_ms: Int,
    ) -> Result<SessionLoad> {
        let now = convert::time_in(&env, &now_ms)?;
        let rows = table.iter().map(|r| (r.id.as_str(), &r.state[..]));
        let load = self.inner.machine().session_load_end(rows, now);
        #[allow(clippy::cast_precision_loss)] // stream ids are counters far below 2^53
        Ok(SessionLoad {
            imported: u32::try_from(load.imported).unwrap_or(u32::MAX),
            malformed: load.malformed,
            forgotten: u32::try_from(load.forgotten).unwrap_or(u32::MAX),
            streams: load.closed.into_iter().map(|s| s.0 as f64).collect(),
        })
    }

    /// The session `head` names and the replay point of a resumed GET stream.
    #[napi(catch_unwind)]
    pub fn session_head(&self, head: HttpRequestHead) -> SessionHead {
        let (session, after) = sessions::session_head(&head_of(head));
        #[allow(clippy::cast_precision_loss)] // event numbers far below 2^53
        SessionHead {
            session,
            after: after.map(|n| n as f64),
        }
    }

    /// Frames `data` (one transmit's bytes for `stream`) as the next event of the session
    /// whose GET stream `stream` is; `null` when it is no session's GET stream.
    #[napi(catch_unwind)]
    pub fn session_event(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] stream: Int,
        data: Buffer,
    ) -> Result<Option<SessionEvent>> {
        let s = convert::u64_in(&env, &stream, "stream")?;
        #[allow(clippy::cast_precision_loss)] // event numbers far below 2^53
        Ok(self
            .inner
            .machine()
            .session_event(StreamId(s), &data)
            .map(|e| SessionEvent {
                session: e.session,
                seq: e.seq as f64,
                bytes: Buffer::from(e.bytes),
            }))
    }

    /// The GET stream `stream` was opened (or resumed) while the fleet's store holds events
    /// of its session up to `storedMax`: its next event is numbered after them.
    #[napi(catch_unwind)]
    pub fn session_stream_floor(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] stream: Int,
        #[napi(ts_arg_type = "number | bigint")] stored_max: Int,
    ) -> Result<()> {
        let s = convert::u64_in(&env, &stream, "stream")?;
        let top = convert::u64_in(&env, &stored_max, "storedMax")?;
        self.inner.machine().session_stream_floor(StreamId(s), top);
        Ok(())
    }
}
