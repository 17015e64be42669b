//! `notifications/message` from the core (`Server::log`, `Server::log_for`; the public spec,
//! server/utilities/logging, 2025-11-25): a host's log line, sent only where a client asked
//! for its level (docs/rules.md §16.9).

use mcp_context::messages::LoggingLevel as CoreLevel;
use mcp_context::messages::owned::OwnedJson;
use mcp_context::server::Handle;

use crate::server::ServerMachine;
use crate::server_types::RespondError;

/// A log line's severity (RFC 5424 order, `debug` the least severe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum LoggingLevel {
    /// Debug.
    Debug,
    /// Info.
    Info,
    /// Notice.
    Notice,
    /// Warning.
    Warning,
    /// Error.
    Error,
    /// Critical.
    Critical,
    /// Alert.
    Alert,
    /// Emergency.
    Emergency,
}

impl From<LoggingLevel> for CoreLevel {
    fn from(l: LoggingLevel) -> Self {
        match l {
            LoggingLevel::Debug => Self::Debug,
            LoggingLevel::Info => Self::Info,
            LoggingLevel::Notice => Self::Notice,
            LoggingLevel::Warning => Self::Warning,
            LoggingLevel::Error => Self::Error,
            LoggingLevel::Critical => Self::Critical,
            LoggingLevel::Alert => Self::Alert,
            LoggingLevel::Emergency => Self::Emergency,
        }
    }
}

fn data(data_json: String) -> Result<OwnedJson, RespondError> {
    OwnedJson::parse(data_json).map_err(|e| RespondError::InvalidJson {
        description: e.to_string(),
    })
}

#[uniffi::export]
impl ServerMachine {
    /// Logs `data_json` (any JSON value) at `level` from `logger` for the request of
    /// `handle`: `notifications/message` on the request's own stream, before its answer, when
    /// the request admits `level` (a modern request's `_meta` log level, a 2025-11-25
    /// session's `logging/setLevel`); `false` when it does not (nothing sent). Throws
    /// `RespondError.unknownHandle` once the request is answered, `.invalidJson`.
    pub fn log_for(
        &self,
        handle: u64,
        level: LoggingLevel,
        logger: Option<String>,
        data_json: String,
    ) -> Result<bool, RespondError> {
        let data = data(data_json)?;
        Ok(self.lock().log_for(
            Handle::from_raw(handle),
            level.into(),
            logger.as_deref(),
            &data,
        )?)
    }

    /// Logs `data_json` at `level` from `logger` to every 2025-11-25 connection and session
    /// event stream whose level admits it (modern clients get log lines only on requests);
    /// how many streams it was queued on. Throws `RespondError.invalidJson`.
    pub fn log(
        &self,
        level: LoggingLevel,
        logger: Option<String>,
        data_json: String,
    ) -> Result<u64, RespondError> {
        let data = data(data_json)?;
        let n = self.lock().log(level.into(), logger.as_deref(), &data);
        Ok(u64::try_from(n).unwrap_or(u64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::{MessageContext, ServerTransport, server_config};
    use crate::server_types::ServerOutput;

    fn drain(m: &ServerMachine) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(o) = m.poll_output() {
            if let ServerOutput::Transmit { bytes, .. } = o {
                out.push(String::from_utf8(bytes).unwrap());
            }
        }
        out
    }

    /// A 2025-11-25 stdio connection gets `log` lines at or above its `logging/setLevel`.
    #[test]
    fn log_reaches_a_legacy_connection_at_its_level() {
        let m = ServerMachine::new(server_config()).unwrap();
        let ctx = MessageContext {
            stream: 1,
            auth: 0,
            transport: ServerTransport::Stdio,
        };
        let send = |line: &str| {
            m.handle_message(line.as_bytes().to_vec(), 1, ctx);
        };
        send(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        );
        send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        send(
            r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}"#,
        );
        drain(&m);
        assert_eq!(m.log(LoggingLevel::Info, None, "1".into()).unwrap(), 0);
        assert_eq!(
            m.log(LoggingLevel::Error, Some("db".into()), r#"{"a":1}"#.into())
                .unwrap(),
            1
        );
        assert_eq!(
            drain(&m),
            [
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":{"a":1}}}"#
            ]
        );
        assert!(matches!(
            m.log(LoggingLevel::Error, None, "{".into()),
            Err(RespondError::InvalidJson { .. })
        ));
        assert!(matches!(
            m.log_for(99, LoggingLevel::Error, None, "1".into()),
            Err(RespondError::UnknownHandle)
        ));
    }
}
