//! The user agent of a command-line client: a loopback listener on `127.0.0.1` catches the
//! authorization server's redirect (RFC 8252 §7.3); the authorization URL is printed on
//! stderr for the user to open (or `$MCPC_OPEN` is run with it, e.g. `xdg-open`).

use std::sync::Arc;

use mcp_context_host::client::{Redirect, UserAgent};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::Mutex;

/// A listener on a free loopback port and its `redirect_uri`.
pub(crate) async fn listener() -> std::io::Result<(TcpListener, String)> {
    let l = TcpListener::bind("127.0.0.1:0").await?;
    let uri = format!("http://127.0.0.1:{}/callback", l.local_addr()?.port());
    Ok((l, uri))
}

/// The user agent: shows the URL, then waits for the redirect to `/callback`.
pub(crate) fn user_agent(listener: TcpListener) -> UserAgent {
    let listener = Arc::new(Mutex::new(listener));
    Arc::new(move |url: String| -> Redirect {
        let listener = listener.clone();
        Box::pin(async move {
            eprintln!("Open this URL to authorize:\n{url}");
            if let Some(open) = std::env::var_os("MCPC_OPEN") {
                let _ = tokio::process::Command::new(open).arg(&url).spawn();
            }
            let l = listener.lock().await;
            loop {
                let (mut sock, _) = l.accept().await.map_err(|e| e.to_string())?;
                let mut buf = vec![0u8; 8192];
                let n = sock.read(&mut buf).await.map_err(|e| e.to_string())?;
                let head = String::from_utf8_lossy(&buf[..n]);
                let target = head
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("GET "))
                    .and_then(|l| l.split(' ').next())
                    .unwrap_or("");
                if !target.starts_with("/callback") {
                    let _ = sock
                        .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                        .await;
                    continue;
                }
                let body = "Authorization received; you can close this window.";
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(reply.as_bytes()).await;
                let port = l.local_addr().map_err(|e| e.to_string())?.port();
                return Ok(format!("http://127.0.0.1:{port}{target}"));
            }
        })
    })
}
