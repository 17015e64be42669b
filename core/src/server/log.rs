//! `notifications/message` (the public spec, server/utilities/logging; 2025-11-25 the same
//! page): a host's log line, sent only where a client asked for that level
//! (docs/rules.md §16.9 rule 54, §17.3 item 13).
//!
//! * [`Server::log_for`]: tied to a request, on that request's own stream (on HTTP the
//!   response becomes SSE), when the request's level admits it: `_meta.logLevel` for a
//!   modern request, the session's `logging/setLevel` for a 2025-11-25 one (every level
//!   before the client sets one).
//! * [`Server::log`]: not tied to a request: to every 2025-11-25 connection and session
//!   event stream whose level admits it. Modern clients get log lines only on requests.

use alloc::vec::Vec;

use super::event::Handle;
use super::machine::Server;
use super::reply::RespondError;
use crate::json::Writer;
use crate::messages::LoggingLevel;
use crate::messages::owned::OwnedJson;

/// Whether a message at `level` passes the threshold `min` (debug < info < … < emergency).
pub(crate) fn admits(min: LoggingLevel, level: LoggingLevel) -> bool {
    let rank = |l: LoggingLevel| LoggingLevel::ALL.iter().position(|x| *x == l);
    rank(level) >= rank(min)
}

/// The `notifications/message` bytes.
pub(crate) fn message(
    level: LoggingLevel,
    logger: Option<&str>,
    data: &OwnedJson,
) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(64 + data.as_raw().as_text().len());
    let mut w = Writer::new(&mut out);
    let r: Result<(), crate::json::EncodeError> = (|| {
        w.begin_object()?;
        w.key("jsonrpc")?;
        w.str("2.0")?;
        w.key("method")?;
        w.str("notifications/message")?;
        w.key("params")?;
        w.begin_object()?;
        w.key("level")?;
        w.str(level.as_str())?;
        if let Some(l) = logger {
            w.key("logger")?;
            w.str(l)?;
        }
        w.key("data")?;
        w.raw(data.as_raw())?;
        w.end_object()?;
        w.end_object()
    })();
    r.ok().map(|()| out)
}

impl Server {
    /// Logs `data` (any JSON value) at `level` from `logger` for the request behind
    /// `handle`: `notifications/message` on the request's own stream, before its answer,
    /// when the request admits `level` (see the module docs). `Ok(false)` when it does not
    /// (nothing is sent).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`] once the request is answered, cancelled or timed
    /// out (nothing is sent after the final response).
    pub fn log_for(
        &mut self,
        handle: Handle,
        level: LoggingLevel,
        logger: Option<&str>,
        data: &OwnedJson,
    ) -> Result<bool, RespondError> {
        let p = self
            .pending
            .get(handle)
            .ok_or(RespondError::UnknownHandle)?;
        if !p.log_level.is_some_and(|min| admits(min, level)) {
            return Ok(false);
        }
        let (stream, transport) = (p.stream, p.transport);
        let Some(bytes) = message(level, logger, data) else {
            return Ok(false);
        };
        self.request_scoped(stream, transport, bytes);
        Ok(true)
    }

    /// Logs `data` at `level` from `logger` to every 2025-11-25 connection and session
    /// event stream whose level admits it; returns how many streams it was queued on.
    pub fn log(&mut self, level: LoggingLevel, logger: Option<&str>, data: &OwnedJson) -> usize {
        match message(level, logger, data) {
            Some(bytes) => self.legacy_log(level, &bytes),
            None => 0,
        }
    }

    /// A message related to a request, on the request's own stream (on HTTP the response
    /// becomes SSE, the final response its last event).
    pub(crate) fn request_scoped(
        &mut self,
        stream: super::io::StreamId,
        transport: super::io::Transport,
        bytes: Vec<u8>,
    ) {
        let t = super::io::Transmit {
            stream,
            bytes,
            http_status: 200,
            kind: super::io::BodyKind::Sse,
            end_of_stream: false,
        };
        self.out.transmit_request_scoped(t, transport);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_admit_their_own_and_more_severe() {
        assert!(admits(LoggingLevel::Debug, LoggingLevel::Debug));
        assert!(admits(LoggingLevel::Error, LoggingLevel::Emergency));
        assert!(!admits(LoggingLevel::Error, LoggingLevel::Warning));
        assert!(!admits(LoggingLevel::Emergency, LoggingLevel::Alert));
    }

    #[test]
    fn message_shape() {
        let data = OwnedJson::parse(r#"{"a":1}"#).unwrap();
        let b = message(LoggingLevel::Info, Some("db"), &data).unwrap();
        assert_eq!(
            core::str::from_utf8(&b).unwrap(),
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"db","data":{"a":1}}}"#
        );
    }
}
