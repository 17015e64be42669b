//! The server without feature `legacy`: no 2025-11-25 era. `initialize`, `ping` and
//! `resources/subscribe` get the modern answer for a method the server does not serve
//! (-32601), as with [`ServerConfig::legacy_sessions`](super::ServerConfig) off; no HTTP
//! session is ever opened and every output goes out as the modern pipeline shaped it. The
//! hooks the machine calls are no-ops here (the full version: `legacy/mod.rs`).

use alloc::string::String;

use super::io::{Output, StreamId, Transmit};
use super::machine::Server;
use crate::jsonrpc::Request;
use crate::messages::owned::ListKind;

use super::io::Ctx;

/// Legacy state: always empty.
#[derive(Debug, Default)]
pub(crate) struct Legacy {
    pub(crate) sessions: Sessions,
    pub(crate) created: Option<String>,
    pub(crate) current: Option<String>,
    pub(crate) modern_header: bool,
    pub(crate) retry_after_s: Option<u64>,
}

impl Legacy {
    /// No stream is legacy without the feature.
    pub(crate) fn is_legacy(&self, _stream: StreamId) -> bool {
        false
    }
}

/// The session bounds (unused without the feature).
pub(crate) struct Bounds;

/// Never reached: no session exists without the feature.
pub(crate) fn session_speaks(_v: &str) -> bool {
    true
}

/// The session table: never holds a session.
#[derive(Debug, Default)]
pub(crate) struct Sessions;

/// A legacy HTTP session (never created without the feature).
pub(crate) struct Session {
    pub(crate) last_used: u64,
    pub(crate) established: bool,
    pub(crate) get_stream: Option<StreamId>,
}

impl Sessions {
    pub(crate) fn changed(&mut self, _id: &str, _open: bool) {}

    pub(crate) fn contains(&self, _id: &str) -> bool {
        false
    }

    pub(crate) fn prune(&mut self, _now: u64, _bounds: &Bounds) {}

    pub(crate) fn get_mut(&mut self, _id: &str, _auth: u64) -> Option<&mut Session> {
        None
    }

    pub(crate) fn remove(&mut self, _id: &str) -> Option<Session> {
        None
    }
}

impl Legacy {
    pub(crate) fn mark_post(&mut self, _stream: StreamId) {}

    pub(crate) fn forget_post(&mut self, _stream: StreamId) {}
}

impl Server {
    pub(crate) fn session_bounds(&self) -> Bounds {
        Bounds
    }

    /// Number of open 2025-11-25 HTTP sessions: none without feature `legacy`.
    #[must_use]
    pub fn open_sessions(&self) -> usize {
        0
    }

    pub(crate) fn legacy_request(&mut self, _r: &Request<'_>, _ctx: Ctx) -> bool {
        false
    }

    pub(crate) fn legacy_shape(&mut self, out: Output) -> Output {
        out
    }

    pub(crate) fn legacy_shape_transmit(&mut self, t: Transmit) -> Transmit {
        t
    }

    pub(crate) fn legacy_closed(&mut self, _stream: StreamId) {}

    pub(crate) fn legacy_updated(&mut self, _uri: &str) {}

    pub(crate) fn legacy_list_changed(&mut self, _kind: ListKind) {}

    pub(crate) fn legacy_ask_client(
        &mut self,
        _p: &super::pending::Pending,
        _requests: &[(String, crate::messages::owned::OwnedInputRequest)],
        _state: Option<&str>,
    ) -> bool {
        false
    }

    pub(crate) fn legacy_log(
        &mut self,
        _level: crate::messages::LoggingLevel,
        _bytes: &[u8],
    ) -> usize {
        0
    }

    pub(crate) fn legacy_client_answer(&mut self, _bytes: &[u8], _ctx: Ctx) {}

    pub(crate) fn legacy_next_deadline(&self) -> Option<u64> {
        None
    }

    pub(crate) fn legacy_timeout(&mut self, _now: u64) {}

    pub(crate) fn legacy_cancelled(
        &mut self,
        _ctx: Ctx,
        _id: &crate::jsonrpc::RequestId<'_>,
    ) -> bool {
        false
    }
}
