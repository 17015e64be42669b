//! The stdio transport's line policy from the core (`mcp_context::stdio`, docs/rules.md
//! §15.2): `StdioLines` splits the bytes a runner reads into bounded lines; an over-long line
//! is reported once (`StdioLine.tooLong`, its first bytes) and answered by the machine
//! (`ServerMachine.handleLineTooLong`: -32600 with the request's id), never buffered.

use std::sync::{Mutex, MutexGuard, PoisonError};

use mcp_context::stdio::{Line, LineSplitter};

use crate::server::{MessageContext, ServerMachine};

/// One line out of `StdioLines`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum StdioLine {
    /// A line without its newline (nor a `\r` before it), not blank: give it to
    /// `handleMessage`.
    Message {
        /// The message's bytes.
        bytes: Vec<u8>,
    },
    /// A line over the bound: its first bytes (at most 1 KiB); the rest is skipped. Give
    /// them to `handleLineTooLong`.
    TooLong {
        /// The line's first bytes.
        head: Vec<u8>,
    },
}

/// Splits a byte stream at `\n` into lines of at most `maxLine` bytes (blank lines
/// skipped), one per stdio connection. Thread-safe (one lock).
#[derive(Debug, uniffi::Object)]
pub struct StdioLines(Mutex<LineSplitter>);

fn collect(feed: impl FnOnce(&mut dyn FnMut(Line<'_>))) -> Vec<StdioLine> {
    let mut out = Vec::new();
    feed(&mut |line| {
        out.push(match line {
            Line::Message(m) => StdioLine::Message { bytes: m.to_vec() },
            Line::TooLong { head } => StdioLine::TooLong {
                head: head.to_vec(),
            },
        });
    });
    out
}

#[uniffi::export]
impl StdioLines {
    /// A splitter refusing lines over `max_line` bytes (`ServerMachine.maxLine()`).
    #[uniffi::constructor]
    pub fn new(max_line: u64) -> Self {
        let max = usize::try_from(max_line).unwrap_or(usize::MAX);
        Self(Mutex::new(LineSplitter::new(max)))
    }

    /// The lines `chunk` completes, in order.
    pub fn feed(&self, chunk: Vec<u8>) -> Vec<StdioLine> {
        collect(|on| self.lock().feed(&chunk, on))
    }

    /// End of input: a last line without its newline (if it fits and is not blank).
    pub fn finish(&self) -> Vec<StdioLine> {
        collect(|on| self.lock().finish(on))
    }
}

impl StdioLines {
    fn lock(&self) -> MutexGuard<'_, LineSplitter> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[uniffi::export]
impl ServerMachine {
    /// A stdio line over `maxLine()` was read (`StdioLine.tooLong`): queues -32600 "Message
    /// too large" on `context.stream`, with the request's `id` when `head` shows it (`null`
    /// otherwise). The next line is served as usual.
    pub fn handle_line_too_long(&self, head: Vec<u8>, now_ms: u64, context: MessageContext) {
        self.lock()
            .handle_line_too_long(&head, now_ms, context.into());
    }

    /// The longest stdio line (bytes) a runner accepts (`ServerConfig.maxLine`, 4 MiB).
    pub fn max_line(&self) -> u64 {
        u64::try_from(self.lock().config().max_line).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::{ServerTransport, server_config};
    use crate::server_types::ServerOutput;

    #[test]
    fn lines_are_bounded_and_the_long_one_answered_with_its_id() {
        let mut config = server_config();
        config.max_line = 64;
        let m = ServerMachine::new(config).unwrap();
        assert_eq!(m.max_line(), 64);
        let lines = StdioLines::new(m.max_line());
        let long = format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"x","params":"{}"}}"#,
            "a".repeat(100)
        );
        let mut got = lines.feed(format!("{{}}\r\n\n{long}\n[1,").into_bytes());
        got.extend(lines.feed(b"2]".to_vec()));
        got.extend(lines.finish());
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0],
            StdioLine::Message {
                bytes: b"{}".to_vec()
            }
        );
        assert_eq!(
            got[2],
            StdioLine::Message {
                bytes: b"[1,2]".to_vec()
            }
        );
        let StdioLine::TooLong { head } = &got[1] else {
            panic!("{got:?}")
        };
        let ctx = MessageContext {
            stream: 0,
            auth: 0,
            transport: ServerTransport::Stdio,
        };
        m.handle_line_too_long(head.clone(), 1, ctx);
        let Some(ServerOutput::Transmit { bytes, .. }) = m.poll_output() else {
            panic!("no answer")
        };
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            text.contains(r#""id":7"#) && text.contains("-32600"),
            "{text}"
        );
    }
}
