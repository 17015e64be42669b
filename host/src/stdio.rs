//! stdio: newline-delimited JSON-RPC on a reader and a writer (the MCP stdio transport).
//!
//! One task reads bytes, splits them into lines with the core's `stdio::LineSplitter`
//! (bounded by `ServerConfig::max_line`; a longer line gets the machine's -32600 answer,
//! `Server::handle_line_too_long`) and hands each to the machine; one task writes transmits, each
//! followed by `\n`, flushing when nothing more is queued. At the end of input the host
//! waits for the requests in flight (bounded by the machine's request deadline), then
//! closes every subscription gracefully (`Server::shutdown`: each listen gets its result)
//! and returns once everything is written.

use std::io;
use std::sync::Arc;

use mcp_context::server::Ctx;
use mcp_context::stdio::{Line, LineSplitter};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufWriter};

use crate::app::App;
use crate::engine::Engine;
use crate::host::Host;

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
        let (tx, rx) = crate::queue::channel();
        engine.open_stream(stream, tx);
        let ctx = Ctx::stdio(stream);
        let mut writer = tokio::spawn(write_loop(writer, rx));
        let max_line = engine.read(|s| s.config().max_line);
        let mut lines = LineSplitter::new(max_line);
        let mut reader = reader;
        let mut buf = vec![0u8; 64 * 1024];
        let read = loop {
            tokio::select! {
                n = reader.read(&mut buf) => match n {
                    Ok(0) => {
                        lines.finish(|line| handle(engine, line, ctx));
                        break Ok(());
                    }
                    Ok(n) => lines.feed(&buf[..n], |line| handle(engine, line, ctx)),
                    Err(e) => break Err(e),
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
        engine.stop();
        writer.await.map_err(io::Error::other)??;
        read
    }
}

/// One line to the machine: a message, or the core's answer to a line over the bound.
fn handle(engine: &Arc<Engine>, line: Line<'_>, ctx: Ctx) {
    match line {
        Line::Message(bytes) => {
            engine.input(|st, now| st.server.handle_message(bytes, now, ctx));
        }
        Line::TooLong { head } => {
            engine.input(|st, now| st.server.handle_line_too_long(head, now, ctx));
        }
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(
    writer: W,
    mut rx: crate::queue::Receiver,
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
