//! The 2025-11-25 HTTP session, client side (docs/rules.md §17.2 items 9–11): the
//! `Mcp-Session-Id` a server assigns in its `initialize` response is kept and sent on every
//! later request ([`Transmit::http_headers`](super::Transmit::http_headers)); a 404 to a
//! request carrying it means the session ended, and the machine starts a new one with
//! `initialize`; at close the host sends the `DELETE` [`Client::end_session`] describes.
//!
//! The host reports each HTTP response's head with [`Client::handle_http_response`]: that
//! is the only input this needs, so every runner tracks sessions the same way.

use alloc::string::String;
use alloc::vec::Vec;

use super::call::CallId;
use super::event::{EndReason, Era, Event};
use super::machine::{Client, Phase, Stage};
use super::pending::Purpose;

/// The `Mcp-Session-Id` header's name, as the 2025-11-25 transport spells it.
pub const SESSION_HEADER: &str = "Mcp-Session-Id";

/// A session the server assigned.
#[derive(Debug, Clone)]
pub(crate) struct HttpSession {
    /// The id, as received.
    pub(crate) id: String,
    /// The `initialize` request's id: requests with a larger id carried the session.
    pub(crate) since: i64,
}

impl Client {
    /// HTTP only: the response to the POST of request `id` (`None` for a notification's or
    /// a response's POST) arrived with `status` and its `Mcp-Session-Id` header
    /// (`session_id`, `None` when absent). Call it with the response head, before handing
    /// its body to [`Client::handle_message`] (or reporting
    /// [`Client::handle_request_failed`]).
    ///
    /// * A 2xx answer to the legacy `initialize` carrying a session id starts the session:
    ///   every later request carries it. An id with characters outside visible ASCII
    ///   (`0x21..=0x7E`, as the transport requires) is ignored.
    /// * A 404 to a request that carried the session means the server ended it: the machine
    ///   forgets it and sends a new `initialize` without it; the calls in flight are sent
    ///   again once it succeeds (their answers on the old session are ignored), and legacy
    ///   subscriptions end with [`EndReason::UnexpectedClose`], to be opened again.
    /// * Anything else changes nothing here.
    pub fn handle_http_response(
        &mut self,
        id: Option<i64>,
        status: u16,
        session_id: Option<&str>,
        now_ms: u64,
    ) {
        let initialize = id.and_then(|n| self.pending.get(n).map(|i| (n, &i.purpose)));
        if let Some((n, Purpose::Initialize)) = initialize {
            if (200..300).contains(&status)
                && let Some(s) = session_id.filter(|s| is_session_id(s))
            {
                self.http_session = Some(HttpSession {
                    id: String::from(s),
                    since: n,
                });
            }
            return;
        }
        let carried = match (&self.http_session, id) {
            (Some(s), Some(n)) => n > s.since,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if status == 404 && carried {
            self.session_ended(now_ms);
        }
    }

    /// The session id in force (a 2025-11-25 server over HTTP), for a host that opens the
    /// session's GET stream itself.
    #[must_use]
    pub fn http_session_id(&self) -> Option<&str> {
        self.http_session.as_ref().map(|s| s.id.as_str())
    }

    /// Ends the HTTP session, if any: returns the headers of the `DELETE` the host sends to
    /// the endpoint (`Mcp-Session-Id`, `MCP-Protocol-Version`; clients that no longer need
    /// a session SHOULD send it), and forgets the session. Call it at close, before
    /// [`Client::handle_close`]. A 405 answer only means the server keeps sessions until
    /// they expire.
    pub fn end_session(&mut self) -> Option<Vec<(&'static str, String)>> {
        let session = self.http_session.take()?;
        let mut headers = alloc::vec![(SESSION_HEADER, session.id)];
        if let Phase::Ready(s) = &self.phase {
            headers.push(("MCP-Protocol-Version", s.version.clone()));
        }
        Some(headers)
    }

    /// The server ended the session (a 404 to a request that carried it).
    fn session_ended(&mut self, now_ms: u64) {
        self.http_session = None;
        let version = match &self.phase {
            Phase::Ready(s) if s.era == Era::Legacy => s.version.clone(),
            _ => return,
        };
        // Everything in flight belonged to the old session: its answers are ignored.
        let mut resend: Vec<CallId> = Vec::new();
        for (_, inflight) in self.pending.drain() {
            if let Purpose::Call(call) = inflight.purpose {
                resend.push(call);
            }
        }
        self.legacy_uris.clear();
        let listening: Vec<CallId> = self
            .calls
            .iter()
            .filter(|(_, s)| matches!(s.stage, Stage::Listening(_)))
            .map(|(c, _)| *c)
            .collect();
        for call in listening {
            if let Some(state) = self.calls.remove(&call)
                && let super::call::Spec::Listen { filter } = state.spec
            {
                self.emit(Event::SubscriptionEnded {
                    call,
                    reason: EndReason::UnexpectedClose { filter },
                });
            }
        }
        for call in resend {
            if let Some(state) = self.calls.get_mut(&call) {
                state.stage = Stage::Queued;
                self.queued.push_back(call);
            }
        }
        self.initialize(version, false, now_ms);
    }
}

/// Visible ASCII only, not empty (the 2025-11-25 transport's session id syntax).
fn is_session_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| (0x21..=0x7E).contains(&b))
}
