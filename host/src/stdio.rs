//! stdio: newline-delimited JSON-RPC on a reader and a writer (the MCP stdio transport).
//!
//! The reader splits bytes into lines with the core's `stdio::LineSplitter` (bounded by
//! `ServerConfig::max_line`; a longer line gets the machine's -32600 answer,
//! `Server::handle_line_too_long`) and hands each to the machine in place: a handler that is
//! ready at once is answered without a task or a channel. Every transmit is appended, with
//! its `\n`, to one output buffer ([`LineOut`]); the writer takes the whole buffer at once,
//! and is woken once per chunk of input (when the reader has handed every line of it to the
//! machine), so a chunk of pipelined requests costs one wake-up and one write, not one per
//! answer. On this process's
//! stdin and stdout ([`Host::serve_stdio`]) the reader and the writer are two threads doing
//! blocking reads and writes (no hop through tokio's blocking pool per read or write);
//! handlers that wait still run on the tokio runtime. At the end of input the host waits for
//! the requests in flight (bounded by the machine's request deadline), then closes every
//! subscription gracefully (`Server::shutdown`: each listen gets its result) and returns
//! once everything is written.

use std::io::{self, Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use mcp_context::server::{Ctx, StreamId};
use mcp_context::stdio::{Line, LineSplitter};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, oneshot};

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

/// The bytes waiting to be written on a stdio connection: every transmit and its `\n`,
/// appended under a lock; the writer swaps the whole buffer out at once.
///
/// While the reader hands a chunk of input to the machine it holds the buffer
/// ([`LineOut::hold`]): the answers of that chunk wake the writer once, when the chunk is
/// done ([`LineOut::release`]), and go out in one write, rather than waking it for the first
/// answer and leaving the rest for another write.
pub(crate) struct LineOut {
    pending: Mutex<Pending>,
    /// Wakes an async writer ([`Host::serve`]).
    ready: Notify,
    /// Wakes the blocking writer thread ([`Host::serve_stdio`]) when it is parked.
    parked: Condvar,
}

#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    closed: bool,
    /// The reader is handing a chunk to the machine: the writer waits until it is done.
    held: bool,
    /// The blocking writer waits on [`LineOut::parked`].
    writer_parked: bool,
}

/// A spare buffer that grew past this is given back to the allocator after a write.
const KEEP: usize = 1 << 20;

impl LineOut {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            pending: Mutex::new(Pending::default()),
            ready: Notify::new(),
            parked: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes whichever writer waits (`parked`: the blocking one, under the lock just let go).
    fn wake(&self, parked: bool) {
        if parked {
            self.parked.notify_one();
        } else {
            // `notify_one` leaves a permit when nobody waits: no wake-up is lost.
            self.ready.notify_one();
        }
    }

    /// Queues one message and its line end; wakes the writer if the buffer was empty and
    /// the reader does not hold it.
    pub(crate) fn push(&self, message: &[u8]) {
        let (wake, parked) = {
            let mut p = self.lock();
            let was_empty = p.bytes.is_empty();
            p.bytes.reserve(message.len() + 1);
            p.bytes.extend_from_slice(message);
            p.bytes.push(b'\n');
            (was_empty && !p.held, p.writer_parked)
        };
        if wake {
            self.wake(parked);
        }
    }

    /// The reader starts handing a chunk of input to the machine.
    fn hold(&self) {
        self.lock().held = true;
    }

    /// The chunk is done: the writer takes what it produced (one wake-up, one write).
    fn release(&self) {
        let (wake, parked) = {
            let mut p = self.lock();
            p.held = false;
            (!p.bytes.is_empty(), p.writer_parked)
        };
        if wake {
            self.wake(parked);
        }
    }

    /// No more messages: the writer ends once what is queued is written.
    fn close(&self) {
        let parked = {
            let mut p = self.lock();
            p.closed = true;
            p.held = false;
            p.writer_parked
        };
        self.wake(parked);
    }

    /// Drops `buf`'s old contents (and its memory if it grew past [`KEEP`]).
    fn recycle(buf: &mut Vec<u8>) {
        if buf.capacity() > KEEP {
            *buf = Vec::new();
        }
        buf.clear();
    }

    /// Waits for queued bytes that the reader does not hold and swaps them into `buf` (whose
    /// old contents are dropped); `false` once closed and everything was taken.
    async fn take(&self, buf: &mut Vec<u8>) -> bool {
        Self::recycle(buf);
        loop {
            let notified = self.ready.notified();
            {
                let mut p = self.lock();
                if !p.bytes.is_empty() && !p.held {
                    std::mem::swap(&mut p.bytes, buf);
                    return true;
                }
                if p.closed {
                    return false;
                }
            }
            notified.await;
        }
    }

    /// [`LineOut::take`] for a writer thread: parks on the condition variable.
    fn take_blocking(&self, buf: &mut Vec<u8>) -> bool {
        Self::recycle(buf);
        let mut p = self.lock();
        loop {
            if !p.bytes.is_empty() && !p.held {
                std::mem::swap(&mut p.bytes, buf);
                return true;
            }
            if p.closed {
                return false;
            }
            p.writer_parked = true;
            p = self.parked.wait(p).unwrap_or_else(PoisonError::into_inner);
            p.writer_parked = false;
        }
    }
}

impl Host {
    /// Serves this process's stdin and stdout until stdin closes (see [`Host::serve`]):
    /// blocking reads and writes on two threads of their own.
    ///
    /// # Errors
    /// stdin or stdout fail.
    pub async fn serve_stdio(&self) -> io::Result<()> {
        let (engine, stream, ctx, out, max_line) = self.open_stdio();
        let rt = tokio::runtime::Handle::current();
        let (read_done, read_rx) = oneshot::channel();
        let (write_done, write_rx) = oneshot::channel();
        {
            let (engine, out) = (engine.clone(), out.clone());
            std::thread::Builder::new()
                .name("mcp-stdin".to_owned())
                .spawn(move || {
                    let _rt = rt.enter();
                    let r = read_blocking(&engine, &out, ctx, max_line);
                    let _ = read_done.send(r);
                })?;
        }
        {
            let out = out.clone();
            std::thread::Builder::new()
                .name("mcp-stdout".to_owned())
                .spawn(move || {
                    let _ = write_done.send(write_blocking(&out));
                })?;
        }
        let mut write_rx = write_rx;
        let read = tokio::select! {
            r = read_rx => r.unwrap_or(Ok(())),
            w = &mut write_rx => {
                engine.forget_stream(stream);
                return w.unwrap_or(Ok(()));
            }
        };
        let written = async { write_rx.await.unwrap_or(Ok(())) };
        self.close_stdio(stream, &out, written).await?;
        read
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
        let (engine, stream, ctx, out, max_line) = self.open_stdio();
        let mut writer = tokio::spawn(write_loop(writer, out.clone()));
        let mut lines = LineSplitter::new(max_line);
        let mut reader = reader;
        let mut buf = vec![0u8; 64 * 1024];
        let read = loop {
            tokio::select! {
                n = reader.read(&mut buf) => match n {
                    Ok(0) => {
                        lines.finish(|line| handle(&engine, line, ctx));
                        break Ok(());
                    }
                    Ok(n) => {
                        out.hold();
                        lines.feed(&buf[..n], |line| handle(&engine, line, ctx));
                        out.release();
                    }
                    Err(e) => break Err(e),
                },
                w = &mut writer => {
                    engine.forget_stream(stream);
                    return w.map_err(io::Error::other)?;
                }
            }
        };
        let written = async { writer.await.map_err(io::Error::other)? };
        self.close_stdio(stream, &out, written).await?;
        read
    }

    /// The connection's stream, routed to a fresh [`LineOut`], and the machine's timer.
    fn open_stdio(&self) -> (Arc<Engine>, StreamId, Ctx, Arc<LineOut>, usize) {
        let engine = self.engine.clone();
        engine.start_timer();
        let stream = engine.new_stream();
        let out = LineOut::new();
        engine.open_stream(stream, crate::engine::Sink::Lines(out.clone()));
        let max_line = engine.read(|s| s.config().max_line);
        (engine, stream, Ctx::stdio(stream), out, max_line)
    }

    /// End of input: waits for the requests in flight, closes every subscription, then lets
    /// the writer finish what is queued.
    async fn close_stdio(
        &self,
        stream: StreamId,
        out: &LineOut,
        written: impl std::future::Future<Output = io::Result<()>>,
    ) -> io::Result<()> {
        let engine = &self.engine;
        engine.idle().await;
        engine.input(|st, _| st.server.shutdown());
        engine.forget_stream(stream);
        engine.stop();
        out.close();
        written.await
    }
}

/// The reader thread: blocking reads of stdin, every line to the machine in place.
fn read_blocking(engine: &Arc<Engine>, out: &LineOut, ctx: Ctx, max_line: usize) -> io::Result<()> {
    let mut stdin = io::stdin().lock();
    let mut lines = LineSplitter::new(max_line);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => {
                lines.finish(|line| handle(engine, line, ctx));
                return Ok(());
            }
            Ok(n) => {
                // The chunk's answers go out together once it is done.
                out.hold();
                lines.feed(&buf[..n], |line| handle(engine, line, ctx));
                out.release();
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The writer thread: each batch of queued lines in one write to stdout.
fn write_blocking(out: &LineOut) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    let mut buf = Vec::new();
    while out.take_blocking(&mut buf) {
        stdout.write_all(&buf)?;
        stdout.flush()?;
    }
    stdout.flush()
}

/// One line to the machine: a message, or the core's answer to a line over the bound.
fn handle(engine: &Arc<Engine>, line: Line<'_>, ctx: Ctx) {
    match line {
        Line::Message(bytes) => {
            engine.message(bytes, ctx);
        }
        Line::TooLong { head } => {
            engine.input(|st, now| st.server.handle_line_too_long(head, now, ctx));
        }
    }
}

async fn write_loop<W: AsyncWrite + Unpin>(mut writer: W, out: Arc<LineOut>) -> io::Result<()> {
    let mut buf = Vec::new();
    while out.take(&mut buf).await {
        writer.write_all(&buf).await?;
        writer.flush().await?;
    }
    writer.flush().await?;
    writer.shutdown().await
}
