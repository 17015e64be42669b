//! Server-sent events (the `text/event-stream` format, WHATWG HTML § "Server-sent events"),
//! both halves, once for every runner: the server's framing ([`encode_event`],
//! [`KEEPALIVE`], [`KEEPALIVE_INTERVAL_MS`]) and the client's incremental parser
//! ([`SseDecoder`]). Streamable HTTP carries one JSON-RPC message per event's `data`
//! (docs/rules.md §15.3).

mod decode;
mod encode;

pub use decode::{DEFAULT_MAX_EVENT, SseDecoder, SseEvent};
pub use encode::{KEEPALIVE, KEEPALIVE_INTERVAL_MS, data_event, encode_event};

use core::fmt;

/// Why an event could not be encoded or decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SseError {
    /// Encoding: an `id` or `event` value holds a line break (or `id` a NUL), which would
    /// end the field early; nothing was written.
    InvalidField,
    /// Decoding: the event being read grew past the decoder's bound. Refused as soon as the
    /// bound is crossed, without waiting for the event's end; the decoder stays failed (the
    /// stream cannot be resynchronised), so the host closes the stream.
    EventTooLarge,
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidField => "an SSE id or event value holds a line break or NUL",
            Self::EventTooLarge => "an SSE event is larger than the bound",
        })
    }
}

impl core::error::Error for SseError {}
