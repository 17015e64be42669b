//! The client's half: an incremental `text/event-stream` parser following the WHATWG
//! "Interpreting an event stream" rules.

use alloc::string::String;
use alloc::vec::Vec;

use super::SseError;

/// The default event bound of [`SseDecoder::new`]: 16 MiB. A server's event carries one
/// result, and results carry resource contents that requests never do, so the bound is four
/// times the 4 MiB a server accepts in a request body
/// ([`DEFAULT_MAX_BODY`](crate::http::DEFAULT_MAX_BODY)).
pub const DEFAULT_MAX_EVENT: usize = 16 * 1024 * 1024;

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// One dispatched event, borrowed from the decoder until the callback returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseEvent<'a> {
    /// The event type: the last `event:` field of the event, `"message"` without one.
    pub event: &'a str,
    /// The `data:` lines joined by `\n` (bytes as received: the JSON parser checks UTF-8).
    pub data: &'a [u8],
    /// The last event ID at dispatch (the newest `id:` field of this or an earlier event;
    /// `""` when none was set).
    pub id: &'a str,
}

/// The incremental parser: feed chunks as they arrive, split anywhere (inside a line, a
/// `\r\n` pair or the byte order mark); complete events come out of [`SseDecoder::feed`].
///
/// The WHATWG rules: one leading UTF-8 BOM is skipped; lines end at `\r\n`, `\r` or `\n`;
/// a line starting with `:` is a comment (keepalives); `field: value` loses one space after
/// the colon, a line without a colon is a field with an empty value; `data` appends its value
/// and `\n`, `event` sets the type, `id` sets the last event ID unless it holds a NUL, `retry`
/// sets the reconnection time when it is all ASCII digits; other fields are ignored; a blank
/// line dispatches the event unless its data is empty (then only the type is reset). At the
/// end of the stream an event without its blank line is discarded: there is no `finish`.
///
/// The current event (its data and the line being read) is bounded: crossing the bound is
/// [`SseError::EventTooLarge`] at once, however the bytes are chunked, and the decoder stays
/// failed.
#[derive(Debug, Clone)]
pub struct SseDecoder {
    max_event: usize,
    line: Vec<u8>,
    data: Vec<u8>,
    event: String,
    last_id: String,
    retry: Option<u64>,
    /// The previous byte was a `\r` ending a line: a `\n` right after it belongs to it.
    after_cr: bool,
    /// At the stream's start: how many bytes of the BOM were seen; `None` once past it.
    bom: Option<u8>,
    failed: bool,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_EVENT)
    }
}

impl SseDecoder {
    /// A decoder refusing any event larger than `max_event` bytes (its data plus the line
    /// being read).
    #[must_use]
    pub fn new(max_event: usize) -> Self {
        Self {
            max_event,
            line: Vec::new(),
            data: Vec::new(),
            event: String::new(),
            last_id: String::new(),
            retry: None,
            after_cr: false,
            bom: Some(0),
            failed: false,
        }
    }

    /// The last event ID (`""` when none was set).
    #[must_use]
    pub fn last_event_id(&self) -> &str {
        &self.last_id
    }

    /// The reconnection time the stream set with `retry:`, in milliseconds.
    #[must_use]
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry
    }

    /// Feeds `chunk`; calls `on_event` for every event it completes, in order.
    ///
    /// # Errors
    /// [`SseError::EventTooLarge`] when the current event crosses the bound (the events
    /// completed before it in this chunk were delivered), and on every call after that.
    pub fn feed(
        &mut self,
        chunk: &[u8],
        mut on_event: impl FnMut(SseEvent<'_>),
    ) -> Result<(), SseError> {
        if self.failed {
            return Err(SseError::EventTooLarge);
        }
        let mut rest = self.skip_bom(chunk);
        while !rest.is_empty() {
            if core::mem::take(&mut self.after_cr) && rest.first() == Some(&b'\n') {
                rest = rest.get(1..).unwrap_or_default();
                continue;
            }
            match rest.iter().position(|b| *b == b'\n' || *b == b'\r') {
                Some(i) => {
                    let (text, tail) = rest.split_at(i);
                    self.extend_line(text)?;
                    self.after_cr = tail.first() == Some(&b'\r');
                    rest = tail.get(1..).unwrap_or_default();
                    self.end_line(&mut on_event);
                }
                None => {
                    self.extend_line(rest)?;
                    rest = &[];
                }
            }
        }
        Ok(())
    }

    /// The chunk past the stream's leading BOM; bytes of a partial BOM that turn out not to
    /// be one go into the line.
    fn skip_bom<'c>(&mut self, chunk: &'c [u8]) -> &'c [u8] {
        let Some(mut seen) = self.bom else {
            return chunk;
        };
        let mut rest = chunk;
        while let Some((&b, tail)) = rest.split_first() {
            if BOM.get(usize::from(seen)) != Some(&b) {
                // Not a BOM: the bytes matched so far are text (at most two; the bound
                // cannot be crossed by them).
                self.line
                    .extend_from_slice(BOM.get(..usize::from(seen)).unwrap_or_default());
                self.bom = None;
                return rest;
            }
            seen += 1;
            rest = tail;
            if usize::from(seen) == BOM.len() {
                self.bom = None;
                return rest;
            }
        }
        self.bom = Some(seen);
        rest
    }

    fn extend_line(&mut self, text: &[u8]) -> Result<(), SseError> {
        let size = self.data.len() + self.line.len() + text.len();
        if size > self.max_event {
            self.failed = true;
            self.line = Vec::new();
            self.data = Vec::new();
            return Err(SseError::EventTooLarge);
        }
        if !text.is_empty() {
            // The stream has begun: a BOM can no longer come.
            self.bom = None;
        }
        self.line.extend_from_slice(text);
        Ok(())
    }

    fn end_line(&mut self, on_event: &mut impl FnMut(SseEvent<'_>)) {
        self.bom = None;
        if self.line.is_empty() {
            return self.dispatch(on_event);
        }
        let line = core::mem::take(&mut self.line);
        let (name, value) = match line.iter().position(|b| *b == b':') {
            Some(0) => (&b""[..], None), // a comment
            Some(i) => {
                let value = line.get(i + 1..).unwrap_or_default();
                let name = line.get(..i).unwrap_or_default();
                (name, Some(value.strip_prefix(b" ").unwrap_or(value)))
            }
            None => (&line[..], Some(&b""[..])),
        };
        match (name, value) {
            (b"data", Some(v)) => {
                self.data.extend_from_slice(v);
                self.data.push(b'\n');
            }
            (b"event", Some(v)) => self.event = String::from_utf8_lossy(v).into_owned(),
            (b"id", Some(v)) if !v.contains(&0) => {
                self.last_id = String::from_utf8_lossy(v).into_owned();
            }
            (b"retry", Some(v)) if !v.is_empty() && v.iter().all(u8::is_ascii_digit) => {
                let ms = v.iter().fold(0u64, |n, d| {
                    n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                self.retry = Some(ms);
            }
            _ => {}
        }
        // Keep the line's allocation for the next line.
        self.line = line;
        self.line.clear();
    }

    fn dispatch(&mut self, on_event: &mut impl FnMut(SseEvent<'_>)) {
        if self.data.is_empty() {
            self.event.clear();
            return;
        }
        self.data.pop(); // the last `\n`
        let event = if self.event.is_empty() {
            "message"
        } else {
            &self.event
        };
        on_event(SseEvent {
            event,
            data: &self.data,
            id: &self.last_id,
        });
        self.data.clear();
        self.event.clear();
    }
}

#[cfg(test)]
mod tests {
    use alloc::borrow::ToOwned;
    use alloc::string::ToString;
    use alloc::vec;

    use super::super::{data_event, encode_event};
    use super::*;

    type Owned = (String, Vec<u8>, String);

    fn decode_with(d: &mut SseDecoder, chunks: &[&[u8]]) -> Result<Vec<Owned>, SseError> {
        let mut out = Vec::new();
        for c in chunks {
            d.feed(c, |e| {
                out.push((e.event.to_owned(), e.data.to_vec(), e.id.to_owned()));
            })?;
        }
        Ok(out)
    }

    fn decode(chunks: &[&[u8]]) -> Vec<Owned> {
        decode_with(&mut SseDecoder::default(), chunks).unwrap()
    }

    fn ev(event: &str, data: &str, id: &str) -> Owned {
        (event.to_string(), data.as_bytes().to_vec(), id.to_string())
    }

    #[test]
    fn whatwg_parsing_rules() {
        // Every line ending, split across chunks, the `\r\n` pair split too.
        assert_eq!(
            decode(&[b"data: {\"a\":1}\n\n"]),
            [ev("message", "{\"a\":1}", "")]
        );
        assert_eq!(
            decode(&[b"da", b"ta: x\r", b"\n\r", b"\n"]),
            [ev("message", "x", "")]
        );
        assert_eq!(
            decode(&[b"data: x\r\rdata: y\r\r"]),
            [ev("message", "x", ""), ev("message", "y", "")]
        );
        // Multi-line data, comments, event type, id kept across events.
        assert_eq!(
            decode(&[b": keepalive\n\nevent: note\nid: 3\ndata: a\ndata:b\n\ndata: c\n\n"]),
            [ev("note", "a\nb", "3"), ev("message", "c", "3")]
        );
        // Only one space is stripped; a field without a colon has an empty value.
        assert_eq!(
            decode(&[b"data:  two\ndata\n\n"]),
            [ev("message", " two\n", "")]
        );
        // Empty data does not dispatch, and resets the type.
        assert_eq!(
            decode(&[b"event: x\n\ndata: y\n\n"]),
            [ev("message", "y", "")]
        );
        // `data:` with an empty value does dispatch (data is "").
        assert_eq!(decode(&[b"data:\n\n"]), [ev("message", "", "")]);
        // An id holding NUL is ignored; an empty id clears it.
        assert_eq!(
            decode(&[b"id: 1\ndata: a\n\nid: 2\0\ndata: b\n\nid\ndata: c\n\n"]),
            [
                ev("message", "a", "1"),
                ev("message", "b", "1"),
                ev("message", "c", "")
            ]
        );
        // Unknown fields are ignored; an unfinished event is never dispatched.
        assert_eq!(
            decode(&[b"foo: bar\ndata: a\n\ndata: unfinished\n"]),
            [ev("message", "a", "")]
        );
    }

    #[test]
    fn retry_and_bom() {
        let mut d = SseDecoder::default();
        decode_with(&mut d, &[b"retry: 2500\n", b"retry: 1x\n", b"retry:\n\n"]).unwrap();
        assert_eq!(d.retry_ms(), Some(2500));
        assert_eq!(d.last_event_id(), "");
        // One BOM is skipped, even split byte by byte; a second one is text.
        let bom_twice = b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n";
        for split in 0..bom_twice.len() {
            let (a, b) = bom_twice.split_at(split);
            assert_eq!(decode(&[a, b]), [ev("message", "b", "")], "split {split}");
        }
        let one: Vec<&[u8]> = b"\xEF\xBB\xBFdata: a\n\n".chunks(1).collect();
        assert_eq!(decode(&one), [ev("message", "a", "")]);
        // Two BOM bytes then something else: the bytes are kept (a line that is no field).
        assert_eq!(
            decode(&[b"\xEF\xBB", b"data: a\n\ndata: b\n\n"]),
            [ev("message", "b", "")]
        );
    }

    #[test]
    fn an_event_over_the_bound_is_refused_before_its_end() {
        let mut d = SseDecoder::new(16);
        // Exactly at the bound: 10 data bytes + "\n" + the next line's 5 bytes.
        let ok = decode_with(&mut d, &[b"data: 0123456789\n", b"data:\n\n"]).unwrap();
        assert_eq!(ok, [ev("message", "0123456789\n", "")]);
        // A long line with no line break yet: refused without waiting for it to end.
        let mut d = SseDecoder::new(16);
        assert_eq!(
            decode_with(&mut d, &[b"data: 01234", b"56789abcdef"]),
            Err(SseError::EventTooLarge)
        );
        assert_eq!(d.feed(b"\n\n", |_| {}), Err(SseError::EventTooLarge));
        // Data accumulated over many lines counts too.
        let mut d = SseDecoder::new(16);
        let mut got = 0;
        let r = d.feed(
            b"data: a\n\ndata: 0123\ndata: 4567\ndata: 89ab\ndata: cdef\n\n",
            |_| got += 1,
        );
        assert_eq!((r, got), (Err(SseError::EventTooLarge), 1));
    }

    proptest::proptest! {
        /// Encode → decode gives back every event, whatever the chunking.
        #[test]
        fn round_trip_under_any_chunking(
            events in proptest::collection::vec(
                (proptest::option::of("[a-z0-9 ]{0,6}"), proptest::option::of("[a-z]{1,6}"),
                 proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)),
                1..6),
            cuts in proptest::collection::vec(0usize..400, 0..12),
            bom in proptest::prelude::any::<bool>(),
        ) {
            let mut wire = if bom { BOM.to_vec() } else { Vec::new() };
            let mut want = Vec::new();
            let mut last_id = String::new();
            for (i, (id, event, data)) in events.iter().enumerate() {
                if i % 2 == 1 {
                    wire.extend_from_slice(super::super::KEEPALIVE);
                }
                encode_event(&mut wire, id.as_deref(), event.as_deref(), data).unwrap();
                if let Some(id) = id {
                    last_id.clone_from(id);
                }
                // The decoder gives lines back joined by `\n`.
                let mut norm = Vec::new();
                let mut j = 0;
                while let Some(&b) = data.get(j) {
                    if b == b'\r' {
                        norm.push(b'\n');
                        if data.get(j + 1) == Some(&b'\n') { j += 1; }
                    } else {
                        norm.push(b);
                    }
                    j += 1;
                }
                let event = event.clone().unwrap_or_else(|| "message".to_string());
                want.push((event, norm, last_id.clone()));
            }
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (wire.len() + 1)).collect();
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut at = 0;
            for c in cuts {
                chunks.push(&wire[at..c]);
                at = c;
            }
            chunks.push(&wire[at..]);
            proptest::prop_assert_eq!(decode(&chunks), want);
            let single = data_event(b"{}");
            proptest::prop_assert_eq!(decode(&[&single]), vec![ev("message", "{}", "")]);
        }
    }
}
