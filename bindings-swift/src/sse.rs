//! The client's SSE parser from the core (`mcp_context::http::sse`): `SseDecoder`, for the
//! Swift HTTP transport's `text/event-stream` responses.

use std::sync::{Mutex, MutexGuard, PoisonError};

use mcp_context::http::sse;

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct SseEvent {
    /// The event type (`"message"` without an `event:` field).
    pub event: String,
    /// The `data:` lines joined by `\n` (one JSON-RPC message on Streamable HTTP).
    pub data: Vec<u8>,
    /// The last event id (`""` when none was set).
    pub id: String,
}

/// An event stream could not be parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum SseError {
    /// An event grew past the decoder's bound; the stream is broken (close it).
    EventTooLarge,
}

impl std::fmt::Display for SseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an SSE event is larger than the bound")
    }
}

impl std::error::Error for SseError {}

/// The incremental `text/event-stream` parser (WHATWG rules: chunks split anywhere, any line
/// ending, BOM, comments, multi-line `data`, `event`, `id`, `retry`), one per response.
#[derive(Debug, uniffi::Object)]
pub struct SseDecoder(Mutex<sse::SseDecoder>);

#[uniffi::export]
impl SseDecoder {
    /// A decoder refusing events over `max_event` bytes (`sseDefaultMaxEvent()`: 16 MiB).
    #[uniffi::constructor]
    pub fn new(max_event: u64) -> Self {
        let max = usize::try_from(max_event).unwrap_or(usize::MAX);
        Self(Mutex::new(sse::SseDecoder::new(max)))
    }

    /// The events `chunk` completes, in order.
    ///
    /// # Errors
    /// `EventTooLarge` when an event crosses the bound (also on every later call).
    pub fn feed(&self, chunk: Vec<u8>) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        self.lock()
            .feed(&chunk, |e| {
                out.push(SseEvent {
                    event: e.event.to_owned(),
                    data: e.data.to_vec(),
                    id: e.id.to_owned(),
                });
            })
            .map_err(|_| SseError::EventTooLarge)?;
        Ok(out)
    }
}

impl SseDecoder {
    fn lock(&self) -> MutexGuard<'_, sse::SseDecoder> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The default event bound of `SseDecoder`: 16 MiB.
#[uniffi::export]
pub fn sse_default_max_event() -> u64 {
    u64::try_from(sse::DEFAULT_MAX_EVENT).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_across_chunks_and_the_bound() {
        let d = SseDecoder::new(sse_default_max_event());
        assert!(d.feed(b": keepalive\n\nda".to_vec()).unwrap().is_empty());
        let events = d.feed(b"ta: {}\r\n\r\n".to_vec()).unwrap();
        assert_eq!(
            events,
            [SseEvent {
                event: "message".into(),
                data: b"{}".to_vec(),
                id: String::new()
            }]
        );
        let small = SseDecoder::new(4);
        assert_eq!(
            small.feed(b"data: 12345".to_vec()),
            Err(SseError::EventTooLarge)
        );
    }
}
