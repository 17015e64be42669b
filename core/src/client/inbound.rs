//! Inputs from the transport: messages, timeouts, close (docs/rules.md §1, §12, §17.2).

use super::error::{CallError, ConnectError, PeerError};
use super::event::{EndReason, Era, Event, Notice};
use super::machine::{Client, Phase, Stage};
use super::pending::Purpose;
use super::wire;
use crate::cache::Invalidation;
use crate::json::RawJson;
use crate::jsonrpc::{ErrorObject, Message, Method, Notification, Request, RequestId};
use crate::messages::ServerNotification;

impl Client {
    /// One message from the server (a line on stdio, a body or SSE `data` on HTTP). Any
    /// bytes are accepted: garbage becomes [`Event::PeerError`], a response to no
    /// outstanding request [`Event::UnknownResponse`]; the machine keeps working.
    pub fn handle_message(&mut self, bytes: &[u8], now_ms: u64) {
        let message = match Message::decode(bytes) {
            Ok(m) => m,
            Err(e) => return self.emit(Event::PeerError(PeerError::Malformed(e))),
        };
        match message {
            Message::Response(r) => self.on_response(r.id, Ok(r.result), now_ms),
            Message::Error(e) => match e.id {
                Some(id) => self.on_response(id, Err(e.error), now_ms),
                None => self.emit(Event::PeerError(PeerError::ErrorWithoutId(e.error.code))),
            },
            Message::Notification(n) => self.on_notification(&n),
            Message::Request(r) => self.on_server_request(&r),
        }
    }

    /// Correlates a response with the request of the same id, type-exact: our ids are
    /// integers, so `"1"` never answers `1`.
    fn on_response(
        &mut self,
        id: RequestId<'_>,
        outcome: Result<RawJson<'_>, ErrorObject<'_>>,
        now_ms: u64,
    ) {
        let inflight = match id {
            RequestId::Int(n) => match self.pending.take(n) {
                Some(i) => Some((n, i)),
                None if self.pending.was_abandoned(n) => return,
                None => None,
            },
            RequestId::Str(_) | RequestId::BigInt(_) => None,
        };
        let Some((n, inflight)) = inflight else {
            return self.emit(Event::UnknownResponse {
                id: id.to_owned_id(),
            });
        };
        match inflight.purpose {
            Purpose::Probe => self.on_probe(outcome, now_ms),
            Purpose::Initialize => self.on_initialize(outcome, now_ms),
            Purpose::Subscribe { call, uri } => {
                self.on_legacy_subscribed(call, uri, outcome.is_ok())
            }
            Purpose::Unsubscribe => {}
            Purpose::Call(call) => self.on_call_response(call, n, inflight.auth, outcome, now_ms),
        }
    }

    fn on_notification(&mut self, n: &Notification<'_>) {
        let note = match ServerNotification::from_notification(n) {
            Ok(note) => note,
            Err(e) => return self.emit(Event::PeerError(PeerError::InvalidNotification(e))),
        };

        match note {
            ServerNotification::Acknowledged(p) => self.on_ack(&p),
            ServerNotification::ResourceUpdated(p) => {
                let uri = p.uri.to_cow().into_owned();
                self.deliver(
                    Notice::ResourceUpdated { uri },
                    p.meta.and_then(|m| m.subscription_id),
                );
            }
            ServerNotification::ResourceListChanged(p) => {
                self.deliver(
                    Notice::ResourcesListChanged,
                    p.0.meta.and_then(|m| m.subscription_id),
                );
            }
            ServerNotification::PromptListChanged(p) => {
                self.deliver(
                    Notice::PromptsListChanged,
                    p.0.meta.and_then(|m| m.subscription_id),
                );
            }
            ServerNotification::ToolListChanged(p) => {
                self.deliver(
                    Notice::ToolsListChanged,
                    p.0.meta.and_then(|m| m.subscription_id),
                );
            }
            ServerNotification::Cancelled(p) => self.on_server_cancelled(p.request_id),
            // Progress, log messages and unknown notifications carry nothing in scope.
            _ => {}
        }
    }

    /// Drops what a change notification makes stale (docs/rules.md §4, §16.4 rule 27).
    pub(crate) fn invalidate(&mut self, notice: &Notice) {
        let event = match notice {
            Notice::ResourceUpdated { uri } => Invalidation::ResourceUpdated { uri },
            Notice::ResourcesListChanged => Invalidation::ResourcesListChanged,
            Notice::PromptsListChanged => Invalidation::PromptsListChanged,
            Notice::ToolsListChanged => Invalidation::ToolsListChanged,
        };
        if let Some(cache) = self.cache.as_mut() {
            cache.invalidate(event);
        }
    }

    /// The server's `notifications/cancelled` (docs/rules.md §11.4, §12): the end of a listen
    /// stream; in a legacy session also of any request.
    fn on_server_cancelled(&mut self, id: RequestId<'_>) {
        let RequestId::Int(n) = id else { return };
        let Some(Purpose::Call(call)) = self.pending.get(n).map(|i| i.purpose.clone()) else {
            // Unknown or finished: "Invalid cancellation notifications SHOULD be ignored".
            return;
        };
        let listening = self
            .calls
            .get(&call)
            .is_some_and(|s| matches!(s.stage, Stage::Listening(_)));
        let legacy = matches!(&self.phase, Phase::Ready(s) if s.era == Era::Legacy);
        if listening {
            self.pending.abandon(n);
            self.calls.remove(&call);
            self.emit(Event::SubscriptionEnded {
                call,
                reason: EndReason::CancelledByServer,
            });
        } else if legacy {
            self.pending.abandon(n);
            self.fail(call, CallError::CancelledByServer);
        } else {
            self.emit(Event::PeerError(PeerError::InvalidCancellation));
        }
    }

    /// A request from the server. Modern servers MUST NOT send any (docs/rules.md §1.3); a legacy
    /// session answers `ping` and refuses the rest with `-32601` (docs/rules.md §17.2 item 6).
    fn on_server_request(&mut self, r: &Request<'_>) {
        let legacy = match &self.phase {
            Phase::Ready(s) => s.era == Era::Legacy,
            Phase::Initializing { .. } => true,
            Phase::Idle | Phase::Probing { .. } => false,
        };
        if !legacy {
            return self.emit(Event::PeerError(PeerError::UnexpectedRequest));
        }
        let bytes = if r.method == Method::Ping {
            wire::empty_result(r.id)
        } else {
            wire::method_not_found(r.id)
        };
        if let Ok(bytes) = bytes {
            self.transmit(bytes, None, None, None);
        }
    }

    /// Fails every request whose deadline is at or before `now_ms`. An unanswered probe
    /// means a legacy server (docs/rules.md §17.2); an unanswered call is cancelled and fails with
    /// [`CallError::Timeout`].
    pub fn handle_timeout(&mut self, now_ms: u64) {
        for (id, inflight) in self.pending.expire(now_ms) {
            match inflight.purpose {
                Purpose::Probe => {
                    if matches!(self.phase, Phase::Probing { .. }) {
                        self.fall_back(now_ms);
                    }
                }
                Purpose::Initialize => {
                    if matches!(self.phase, Phase::Initializing { .. }) {
                        self.connect_failed(ConnectError::Timeout);
                    }
                }
                Purpose::Subscribe { call, uri } => self.on_legacy_subscribed(call, uri, false),
                Purpose::Unsubscribe => {}
                Purpose::Call(call) => {
                    self.cancel_request(id, Some("timeout"));
                    self.fail(call, CallError::Timeout);
                }
            }
        }
    }

    /// The transport could not deliver request `id`, or answered it with something that is
    /// not a JSON-RPC message (e.g. HTTP 404 or 405 with an empty body). For the
    /// `server/discover` probe that means a legacy server (docs/rules.md §17.2, HTTP era
    /// detection); any other request fails with [`CallError::Undeliverable`].
    pub fn handle_request_failed(&mut self, id: i64, now_ms: u64) {
        let Some(inflight) = self.pending.take(id) else {
            return;
        };
        self.pending.abandon(id);
        match inflight.purpose {
            Purpose::Probe => self.fall_back(now_ms),
            Purpose::Initialize => self.connect_failed(ConnectError::Rejected(
                crate::error_code::ErrorCode::INVALID_REQUEST,
            )),
            Purpose::Subscribe { call, uri } => self.on_legacy_subscribed(call, uri, false),
            Purpose::Unsubscribe => {}
            Purpose::Call(call) => self.fail(call, CallError::Undeliverable),
        }
    }

    /// The transport closed. Outstanding calls fail with [`CallError::Closed`]; every open
    /// subscription ends with [`EndReason::UnexpectedClose`] carrying its filter, to be
    /// re-sent after reconnecting (docs/rules.md §11.4, §16.9 rule 57). The next call negotiates
    /// again (a legacy session must `initialize` anew).
    pub fn handle_close(&mut self, _now_ms: u64) {
        drop(self.pending.drain());
        self.legacy_uris.clear();
        self.http_session = None;
        self.tools.clear();
        match core::mem::replace(&mut self.phase, Phase::Idle) {
            Phase::Probing { .. } | Phase::Initializing { .. } => {
                self.connect_failed(ConnectError::Closed);
            }
            Phase::Idle | Phase::Ready(_) => {}
        }
        for (call, state) in core::mem::take(&mut self.calls) {
            let event = match (state.stage, state.spec) {
                (Stage::Listening(_), super::call::Spec::Listen { filter }) => {
                    Event::SubscriptionEnded {
                        call,
                        reason: EndReason::UnexpectedClose { filter },
                    }
                }
                _ => Event::Failed {
                    call,
                    error: CallError::Closed,
                },
            };
            self.emit(event);
        }
        self.queued.clear();
    }
}
