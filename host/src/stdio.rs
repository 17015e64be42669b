//! stdio: newline-delimited JSON-RPC on a reader and a writer (the MCP stdio transport).
//!
//! One task reads lines and hands each to the machine; one task writes transmits, each
//! followed by `\n`, flushing when nothing more is queued. At the end of input the host
//! waits for the requests in flight (bounded by the machine's request deadline), then
//! closes every subscription gracefully (`Server::shutdown`: each listen gets its result)
//! and returns once everything is written.

use std::io;

use bytes::{Buf, BytesMut};
use futures_util::StreamExt;
use mcp_context::server::{BodyKind, Ctx, Transmit};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc;
use tokio_util::codec::{Decoder, FramedRead};

use crate::app::App;
use crate::host::Host;

/// The longest line accepted (4 MiB, the limit the official SDKs put on a message).
pub const MAX_LINE: usize = 4 << 20;

/// The answer to a line longer than [`MAX_LINE`]: it cannot be read, so its id is unknown
/// (JSON-RPC 2.0 §5: `id` null).
const TOO_LARGE: &[u8] =
    br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Message too large"}}"#;

/// Builds `app` and serves it on this process's stdin and stdout until stdin closes.
///
/// # Errors
/// The app does not build ([`io::ErrorKind::InvalidInput`]), or stdin/stdout fail.
pub async fn serve_stdio(app: App) -> io::Result<()> {
    let host = app
        .build()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    host.serve_stdio().await
}

impl Host {
    /// Serves this process's stdin and stdout until stdin closes (see [`Host::serve`]).
    ///
    /// # Errors
    /// stdin or stdout fail.
    pub async fn serve_stdio(&self) -> io::Result<()> {
        self.serve(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one newline-delimited JSON-RPC connection on `reader`/`writer` until the
    /// reader ends, then answers what is in flight, closes every subscription gracefully
    /// and flushes. One connection per host: the final close is the machine's `shutdown`.
    ///
    /// # Errors
    /// Reading or writing fails.
    pub async fn serve<R, W>(&self, reader: R, writer: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let engine = &self.engine;
        engine.start_timer();
        let stream = engine.new_stream();
        let (tx, rx) = mpsc::unbounded_channel();
        engine.open_stream(stream, tx.clone());
        let ctx = Ctx::stdio(stream);
        let mut writer = tokio::spawn(write_loop(writer, rx));
        let mut lines = FramedRead::new(reader, Lines { discarding: false });
        let read = loop {
            tokio::select! {
                line = lines.next() => match line {
                    Some(Ok(Line::Message(bytes))) => {
                        engine.input(|st, now| st.server.handle_message(&bytes, now, ctx));
                    }
                    Some(Ok(Line::TooLong)) => {
                        let _ = tx.send(raw(stream, TOO_LARGE));
                    }
                    Some(Err(e)) => break Err(e),
                    None => break Ok(()),
                },
                w = &mut writer => {
                    engine.forget_stream(stream);
                    return w.map_err(io::Error::other)?;
                }
            }
        };
        engine.idle().await;
        engine.input(|st, _| st.server.shutdown());
        engine.forget_stream(stream);
        drop(tx);
        engine.stop();
        writer.await.map_err(io::Error::other)??;
        read
    }
}

fn raw(stream: mcp_context::server::StreamId, bytes: &[u8]) -> Transmit {
    Transmit {
        stream,
        bytes: bytes.to_vec(),
        http_status: 400,
        kind: BodyKind::Json,
        end_of_stream: false,
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(
    writer: W,
    mut rx: mpsc::UnboundedReceiver<Transmit>,
) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(64 * 1024, writer);
    while let Some(t) = rx.recv().await {
        w.write_all(&t.bytes).await?;
        w.write_all(b"\n").await?;
        while let Ok(t) = rx.try_recv() {
            w.write_all(&t.bytes).await?;
            w.write_all(b"\n").await?;
        }
        w.flush().await?;
    }
    w.flush().await?;
    w.into_inner().shutdown().await
}

/// One line of input.
enum Line {
    /// A line without its `\n` (and `\r`), not blank.
    Message(BytesMut),
    /// A line longer than [`MAX_LINE`] (skipped up to its `\n`).
    TooLong,
}

/// Splits input at `\n`, skipping blank lines and bounding each line.
struct Lines {
    discarding: bool,
}

impl Decoder for Lines {
    type Item = Line;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<Line>> {
        loop {
            let Some(nl) = buf.iter().position(|b| *b == b'\n') else {
                if buf.len() > MAX_LINE {
                    buf.clear();
                    if !self.discarding {
                        self.discarding = true;
                        return Ok(Some(Line::TooLong));
                    }
                }
                return Ok(None);
            };
            let mut line = buf.split_to(nl + 1);
            if std::mem::take(&mut self.discarding) {
                continue;
            }
            line.truncate(nl);
            if line.last() == Some(&b'\r') {
                line.truncate(nl - 1);
            }
            if line.len() > MAX_LINE {
                return Ok(Some(Line::TooLong));
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Ok(Some(Line::Message(line)));
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<Line>> {
        if let Some(line) = self.decode(buf)? {
            return Ok(Some(line));
        }
        // A last line without `\n`.
        if buf.is_empty() || self.discarding {
            buf.clear();
            return Ok(None);
        }
        let line = buf.split_to(buf.len());
        buf.advance(0);
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        Ok(Some(Line::Message(line)))
    }
}
