//! The server's half: one event's bytes, and the keepalive comment.

use alloc::vec::Vec;

use super::SseError;

/// The comment line an idle event stream gets, so that proxies and clients do not time it
/// out (Streamable HTTP encourages periodically emitting an SSE comment line); a client
/// ignores it (docs/rules.md §15.3).
pub const KEEPALIVE: &[u8] = b": keepalive\n\n";

/// How often an idle event stream gets [`KEEPALIVE`], in milliseconds: 15 s, under the 30 s
/// or 60 s idle timeouts common in proxies and load balancers. Every runner uses this one
/// value.
pub const KEEPALIVE_INTERVAL_MS: u64 = 15_000;

/// Appends one event to `out`: `id: …` and `event: …` when given, then one `data: …` line
/// per line of `data` (split at `\r\n`, `\r` and `\n`, so a decoder gives the lines back
/// joined by `\n`), then the blank line that dispatches it. Empty `data` is one empty `data:`
/// line (the event is still dispatched, with empty data).
///
/// # Errors
/// [`SseError::InvalidField`] when `id` or `event` holds `\r` or `\n` (or `id` a NUL, which
/// decoders ignore); `out` is left unchanged.
pub fn encode_event(
    out: &mut Vec<u8>,
    id: Option<&str>,
    event: Option<&str>,
    data: &[u8],
) -> Result<(), SseError> {
    let breaks = |s: &str| s.bytes().any(|b| b == b'\r' || b == b'\n');
    if id.is_some_and(|s| breaks(s) || s.contains('\0')) || event.is_some_and(breaks) {
        return Err(SseError::InvalidField);
    }
    out.reserve(data.len() + 8);
    if let Some(id) = id {
        field(out, b"id", id.as_bytes());
    }
    if let Some(event) = event {
        field(out, b"event", event.as_bytes());
    }
    let mut rest = data;
    loop {
        match rest.iter().position(|b| *b == b'\r' || *b == b'\n') {
            Some(i) => {
                let (line, tail) = rest.split_at(i);
                field(out, b"data", line);
                let skip = if tail.starts_with(b"\r\n") { 2 } else { 1 };
                rest = tail.get(skip..).unwrap_or_default();
            }
            None => {
                field(out, b"data", rest);
                break;
            }
        }
    }
    out.push(b'\n');
    Ok(())
}

/// One event carrying `data` only, the form Streamable HTTP uses for a JSON-RPC message
/// (which never holds a raw line break): `data: {data}\n\n`.
#[must_use]
pub fn data_event(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 8);
    // Cannot fail: no id, no event.
    let _ = encode_event(&mut out, None, None, data);
    out
}

fn field(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_framed_per_line() {
        let mut out = Vec::new();
        encode_event(&mut out, Some("7"), Some("message"), b"a\r\nb\rc\nd").unwrap();
        assert_eq!(
            out,
            b"id: 7\nevent: message\ndata: a\ndata: b\ndata: c\ndata: d\n\n"
        );
        assert_eq!(data_event(br#"{"a":1}"#), b"data: {\"a\":1}\n\n");
        assert_eq!(data_event(b""), b"data: \n\n");
        assert_eq!(data_event(b"x\n"), b"data: x\ndata: \n\n");
        let mut out = Vec::new();
        for (id, event) in [
            (Some("a\nb"), None),
            (Some("a\0"), None),
            (None, Some("x\ry")),
        ] {
            assert_eq!(
                encode_event(&mut out, id, event, b"d"),
                Err(SseError::InvalidField)
            );
        }
        assert!(out.is_empty());
        assert!(KEEPALIVE.starts_with(b":") && KEEPALIVE.ends_with(b"\n\n"));
    }
}
