//! A server-sent events decoder (the `text/event-stream` format): bytes in, the `data` of
//! each event out. `event`, `id` and `retry` fields and comments are skipped; the MCP
//! Streamable HTTP transport carries one JSON-RPC message per event's data.

/// Incremental decoder: feed chunks, take complete events.
#[derive(Debug, Default)]
pub(crate) struct SseDecoder {
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    /// The previous chunk ended in `\r`: a `\n` starting the next one is part of it.
    after_cr: bool,
}

impl SseDecoder {
    /// Feeds `chunk`; calls `event` with the data of every event it completes.
    pub(crate) fn feed(&mut self, chunk: &[u8], mut event: impl FnMut(&[u8])) {
        for &b in chunk {
            if std::mem::take(&mut self.after_cr) && b == b'\n' {
                continue;
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    self.end_line(&mut event);
                }
                _ => self.line.push(b),
            }
        }
    }

    fn end_line(&mut self, event: &mut impl FnMut(&[u8])) {
        if self.line.is_empty() {
            if std::mem::take(&mut self.has_data) {
                event(&self.data);
            }
            self.data.clear();
            return;
        }
        let line = std::mem::take(&mut self.line);
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(0) => return, // a comment (keepalive)
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (&line[..], &[][..]),
        };
        if field == b"data" {
            if self.has_data {
                self.data.push(b'\n');
            }
            self.data.extend_from_slice(value);
            self.has_data = true;
        }
        self.line = line;
        self.line.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::SseDecoder;

    fn events(chunks: &[&[u8]]) -> Vec<String> {
        let mut d = SseDecoder::default();
        let mut out = Vec::new();
        for c in chunks {
            d.feed(c, |e| out.push(String::from_utf8_lossy(e).into_owned()));
        }
        out
    }

    #[test]
    fn events_split_anywhere_and_every_line_ending() {
        assert_eq!(events(&[b"data: {\"a\":1}\n\n"]), ["{\"a\":1}"]);
        assert_eq!(events(&[b"da", b"ta: x\r", b"\n\r\n"]), ["x"]);
        assert_eq!(
            events(&[b": keepalive\n\n", b"event: message\nid: 3\ndata:y\n\n"]),
            ["y"]
        );
        assert_eq!(events(&[b"data: a\ndata: b\n\n"]), ["a\nb"]);
        assert_eq!(events(&[b"data: unfinished\n"]), Vec::<String>::new());
    }
}
