//! A scripted stdio connection to a [`Host`] in memory, for the `--transcript` modes and
//! the tests: the host serves one end of a pipe (`Host::serve`, the same loop as stdin and
//! stdout), the script writes lines on the other and reads what comes back.

use std::time::Duration;

use mcp_context_host::Host;
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tokio::task::JoinHandle;

/// The client end of an in-memory stdio connection.
#[derive(Debug)]
pub struct Wire {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    served: JoinHandle<std::io::Result<()>>,
}

impl Wire {
    /// Serves `host` on a new in-memory connection (needs a tokio runtime).
    #[must_use]
    pub fn start(host: &Host) -> Self {
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (r, w) = tokio::io::split(theirs);
        let host = host.clone();
        let served = tokio::spawn(async move { host.serve(r, w).await });
        let (r, write) = tokio::io::split(ours);
        Self {
            write,
            lines: BufReader::new(r).lines(),
            served,
        }
    }

    /// Writes one message (a line).
    ///
    /// # Panics
    /// The host stopped reading.
    pub async fn send(&mut self, line: &str) {
        self.write
            .write_all(line.as_bytes())
            .await
            .expect("host reads");
        self.write.write_all(b"\n").await.expect("host reads");
    }

    /// Sends `line` and returns what comes back: for a request, every line up to and
    /// including its response, then whatever follows within 20 ms (a request that stays
    /// open, like a listen, ends after 200 ms without a line); for a notification, every
    /// line until 50 ms pass without one.
    pub async fn exchange(&mut self, line: &str) -> Vec<String> {
        self.send(line).await;
        let id = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("method").and(v.get("id")).cloned());
        let Some(id) = id else {
            return self.quiet(50).await;
        };
        let mut out: Vec<String> = Vec::new();
        loop {
            let wait = if out.is_empty() { 10_000 } else { 200 };
            let Ok(Ok(Some(l))) =
                tokio::time::timeout(Duration::from_millis(wait), self.lines.next_line()).await
            else {
                break;
            };
            let done = serde_json::from_str::<serde_json::Value>(&l)
                .is_ok_and(|v| v.get("id") == Some(&id) && v.get("method").is_none());
            out.push(l);
            if done {
                out.extend(self.quiet(20).await);
                break;
            }
        }
        out
    }

    /// Every line that arrives until `ms` milliseconds pass without one.
    pub async fn quiet(&mut self, ms: u64) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(Ok(Some(l))) =
            tokio::time::timeout(Duration::from_millis(ms), self.lines.next_line()).await
        {
            out.push(l);
        }
        out
    }

    /// Closes the connection and returns what the host wrote after the end of input (the
    /// final results of open subscriptions).
    ///
    /// # Panics
    /// The host failed.
    pub async fn close(mut self) -> Vec<String> {
        self.write.shutdown().await.expect("shutdown");
        let mut out = Vec::new();
        while let Ok(Some(l)) = self.lines.next_line().await {
            out.push(l);
        }
        self.served.await.expect("join").expect("served");
        out
    }
}
