//! Logging for 2025-11-25 clients (spec 2025-11-25, server/utilities/logging): the
//! `logging` capability, `logging/setLevel` answered per connection or session, and log
//! lines not tied to a request pushed to the connections and session event streams whose
//! level admits them. A log line tied to a request is `Server::log_for` (`server/log.rs`):
//! a legacy request carries its session's level as its `_meta.logLevel`
//! (`shape::modern_request`).

use alloc::vec::Vec;

use super::super::io::{Ctx, StreamId, Transport};
use super::super::log::admits;
use super::super::machine::Server;
use super::super::outbox;
use super::peer::Peer;
use crate::error_code::ErrorCode;
use crate::jsonrpc::{ErrorObject, Request};
use crate::messages::LoggingLevel;

impl Server {
    /// `logging/setLevel {level}` → `{}`; a level that is not one of the eight is -32602
    /// (spec 2025-11-25, server/utilities/logging "Error Handling": "Invalid log level:
    /// -32602").
    pub(super) fn legacy_set_level(&mut self, r: &Request<'_>, ctx: Ctx) {
        let level = r
            .params
            .and_then(|p| p.get("level"))
            .and_then(|l| l.as_str())
            .and_then(|l| LoggingLevel::from_name(&l.to_cow()));
        let Some(level) = level else {
            let err = ErrorObject::new(ErrorCode::INVALID_PARAMS, "Invalid params: level");
            return self.reply_error(ctx, r.id, &err, 200);
        };
        let peer = self.legacy_peer(ctx);
        match peer.and_then(|p| self.legacy.peers.get_mut(&p)) {
            Some(s) => s.level = Some(level),
            None => {
                let err = ErrorObject::new(ErrorCode::INVALID_REQUEST, "No session");
                return self.reply_error(ctx, r.id, &err, 200);
            }
        }
        self.legacy_empty_result(ctx, r);
    }

    /// Queues `bytes` (a `notifications/message` at `level`) on every legacy connection and
    /// session event stream whose level admits it; returns how many.
    pub(crate) fn legacy_log(&mut self, level: LoggingLevel, bytes: &[u8]) -> usize {
        let mut targets: Vec<(StreamId, Transport)> = Vec::new();
        for (peer, s) in self.legacy.peers.iter() {
            if !s.level.is_none_or(|min| admits(min, level)) {
                continue;
            }
            match peer {
                Peer::Stdio(stream) => targets.push((*stream, Transport::Stdio)),
                Peer::Session(id) => {
                    if let Some(g) = self
                        .legacy
                        .sessions
                        .iter()
                        .find(|(k, _)| *k == id)
                        .and_then(|(_, s)| s.get_stream)
                    {
                        targets.push((g, Transport::Http));
                    }
                }
            }
        }
        for (stream, transport) in &targets {
            let t = outbox::on_listen_stream(*stream, *transport, Vec::from(bytes), false);
            self.out.transmit(t, None);
        }
        targets.len()
    }
}
