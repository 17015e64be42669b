//! The stdio output path batches: the answers to a chunk of pipelined requests leave in one
//! write (the writer is woken once the reader has handed the whole chunk to the machine),
//! in request order, each on its own line.

use std::io::Cursor;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};

use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
use mcp_context::server::ServerConfig;
use mcp_context_host::{App, Context, ReadRequest};
use tokio::io::AsyncWrite;

/// Records every write it is given, whole.
#[derive(Clone, Default)]
struct Writes(Arc<Mutex<Vec<Vec<u8>>>>);

impl AsyncWrite for Writes {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut TaskContext<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0.lock().unwrap().push(buf.to_vec());
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut TaskContext<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

// Several workers: the writer task could run (and write) while the reader is still handing
// the chunk to the machine, which is what the batching prevents.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_answers_to_one_chunk_of_requests_leave_in_one_write() {
    for round in 0..20 {
        // One connection per host (its end is the machine's shutdown).
        let mut app = App::with_config(ServerConfig::default());
        app.template(
            OwnedResourceTemplate::new("note://{id}", "note"),
            |req: ReadRequest, _cx: Context| async move {
                let text = format!("note {}", req.var("id").unwrap_or_default());
                Ok(OwnedResourceContents::text(&req.uri, None, text))
            },
        );
        let host = app.build().unwrap();
        let mut input = String::new();
        for id in 1..=200 {
            input.push_str(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{{META},"uri":"note://{id}"}}}}"#
            ));
            input.push('\n');
        }
        assert!(input.len() < 64 * 1024, "one read of the host's buffer");
        let writes = Writes::default();
        host.serve(Cursor::new(input.into_bytes()), writes.clone())
            .await
            .unwrap();
        let writes = writes.0.lock().unwrap();
        assert_eq!(writes.len(), 1, "round {round}: {} writes", writes.len());
        let text = std::str::from_utf8(&writes[0]).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 200);
        for (k, line) in lines.iter().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["id"], k + 1);
            assert_eq!(
                v["result"]["contents"][0]["text"],
                format!("note {}", k + 1)
            );
        }
    }
}
