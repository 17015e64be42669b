//! The client over newline-delimited JSON-RPC: a child process's stdin/stdout, or any
//! reader/writer pair.

use std::io;
use std::process::Stdio;

use mcp_context::client::{ClientConfig, Transport};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::process::Command;
use tokio::sync::mpsc;

use super::{Error, McpClient, Wire, default_config};

impl McpClient {
    /// Spawns `command` and talks to it over its stdin/stdout (stderr is inherited). The
    /// child is killed when the last clone of the client is dropped.
    ///
    /// # Errors
    /// The process could not be spawned.
    pub fn spawn(command: Command) -> Result<Self, Error> {
        Self::spawn_with(command, default_config())
    }

    /// [`McpClient::spawn`] with a configuration (its transport is set to stdio).
    ///
    /// # Errors
    /// The process could not be spawned, or the configuration was refused.
    pub fn spawn_with(mut command: Command, config: ClientConfig) -> Result<Self, Error> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(Error::Io)?;
        let stdin = child.stdin.take().ok_or(Error::Closed)?;
        let stdout = child.stdout.take().ok_or(Error::Closed)?;
        let client = Self::over_io(stdout, stdin, config)?;
        let stop = client.inner().stop.clone();
        tokio::spawn(async move {
            // Keeps the child until the client stops, then kills it.
            stop.cancelled().await;
            let _ = child.kill().await;
        });
        Ok(client)
    }

    /// A client on newline-delimited JSON-RPC over `reader`/`writer` (a pipe, a socket,
    /// an in-memory duplex).
    ///
    /// # Errors
    /// The configuration was refused.
    pub fn over_io<R, W>(reader: R, writer: W, mut config: ClientConfig) -> Result<Self, Error>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        config.transport = Transport::Stdio;
        let (tx, rx) = mpsc::unbounded_channel();
        let client = Self::start(config, Wire::Lines(tx))?;
        let stop = client.inner().stop.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = write_lines(writer, rx) => {}
                () = stop.cancelled() => {}
            }
        });
        let inner = client.inner().clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(reader).lines();
            loop {
                tokio::select! {
                    line = lines.next_line() => match line {
                        Ok(Some(line)) if line.trim().is_empty() => {}
                        Ok(Some(line)) => inner.input(|c, now| c.handle_message(line.as_bytes(), now)),
                        Ok(None) | Err(_) => break,
                    },
                    () = inner.stop.cancelled() => return,
                }
            }
            inner.transport_closed();
        });
        Ok(client)
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(
    writer: W,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
) -> io::Result<()> {
    let mut w = BufWriter::new(writer);
    while let Some(bytes) = rx.recv().await {
        w.write_all(&bytes).await?;
        w.write_all(b"\n").await?;
        while let Ok(bytes) = rx.try_recv() {
            w.write_all(&bytes).await?;
            w.write_all(b"\n").await?;
        }
        w.flush().await?;
    }
    w.shutdown().await
}
