//! Interop: the async client (`McpClient::spawn`) against servers built with the official
//! TypeScript SDKs over stdio (`tests/interop/ts/`): `@modelcontextprotocol/server` 2.4.0
//! (2026-07-28) and `@modelcontextprotocol/sdk` 1.32.2 (2025-11-25, through the client
//! machine's dual-era fallback).
//!
//! Over Streamable HTTP, the async client keeps a 2025-11-25 session with the SDK 1.x
//! server (`legacy-server.mjs --http`): the session id from `initialize` on every request,
//! a new session after the server ends one (404), and the `DELETE` at close.
//!
//! Ignored by default: `./test.sh` installs the pinned packages and runs these with
//! `MCP_INTEROP_TS_DIR` pointing at a folder holding `node_modules` and the server scripts.

use std::time::Duration;

use futures_util::StreamExt;
use mcp_context::client::{CompletionRef, Era, Notice};
use mcp_context::messages::ResourceContents;
use mcp_context::messages::owned::OwnedSubscriptionFilter;
use mcp_context_host::client::{McpClient, default_config};
use tokio::process::Command;

fn spawn(script: &str) -> McpClient {
    let dir = std::env::var("MCP_INTEROP_TS_DIR").expect("MCP_INTEROP_TS_DIR is set by test.sh");
    let mut cmd = Command::new("node");
    cmd.arg(format!("{dir}/{script}")).current_dir(&dir);
    let mut config = default_config();
    config.probe_timeout_ms = 10_000;
    McpClient::spawn_with(cmd, config).expect("spawn node")
}

async fn text(client: &McpClient, uri: &str) -> String {
    let reply = client.read_resource(uri).await.expect("read");
    let view = reply.view().expect("view");
    match view.contents.iter().next().expect("contents") {
        ResourceContents::Text(t) => t.text.to_cow().into_owned(),
        other => panic!("{other:?}"),
    }
}

async fn scenario(client: McpClient, era: Era) {
    let session = client.connect().await.expect("connect");
    assert_eq!(session.era, era);
    assert!(session.features.resources && session.features.prompts);

    assert_eq!(text(&client, "test://static").await, "static text");
    assert_eq!(text(&client, "test://items/beta").await, "item beta");

    let listed = client.list_resources().await.expect("list");
    assert!(format!("{listed:?}").contains("test://static"));
    let templates = client.list_resource_templates().await.expect("templates");
    assert!(format!("{templates:?}").contains("test://items/{id}"));

    let prompt = client
        .get_prompt("greet", &[("name", "Ada")])
        .await
        .expect("prompt");
    assert!(prompt.json().contains("Hello, Ada!"), "{}", prompt.json());

    let done = client
        .complete(
            CompletionRef::Resource("test://items/{id}".into()),
            ("id", "a"),
            None,
        )
        .await
        .expect("complete");
    assert!(done.json().contains("alpha"), "{}", done.json());

    // Concurrent reads share the connection.
    let reads = (0..20).map(|i| {
        let c = client.clone();
        async move { text(&c, &format!("test://items/n{i}")).await }
    });
    let texts = futures_util::future::join_all(reads).await;
    for (i, t) in texts.iter().enumerate() {
        assert_eq!(t, &format!("item n{i}"));
    }

    let filter = OwnedSubscriptionFilter {
        resources_list_changed: Some(true),
        resource_subscriptions: Some(vec!["test://static".into()]),
        ..Default::default()
    };
    let mut sub = client.listen(filter).await.expect("listen");
    assert_eq!(text(&client, "test://touch").await, "touched");
    let mut got = Vec::new();
    while got.len() < 2 {
        let n = tokio::time::timeout(Duration::from_secs(10), sub.next())
            .await
            .expect("a notice within 10 s")
            .expect("subscription open");
        got.push(n);
    }
    assert!(got.contains(&Notice::ResourceUpdated {
        uri: "test://static".into()
    }));
    assert!(got.contains(&Notice::ResourcesListChanged));
    drop(sub);
    // Still usable after the subscription is cancelled.
    assert_eq!(text(&client, "test://static").await, "static text");
    client.close();
}

#[tokio::test]
#[ignore = "needs the pinned TypeScript SDK servers (test.sh sets MCP_INTEROP_TS_DIR)"]
async fn async_client_against_the_modern_typescript_server() {
    scenario(spawn("modern-server.mjs"), Era::Modern).await;
}

#[tokio::test]
#[ignore = "needs the pinned TypeScript SDK servers (test.sh sets MCP_INTEROP_TS_DIR)"]
async fn async_client_against_the_legacy_typescript_server() {
    scenario(spawn("legacy-server.mjs"), Era::Legacy).await;
}

/// The legacy server over Streamable HTTP with sessions; returns the child and the URL.
async fn spawn_http() -> (tokio::process::Child, String) {
    use tokio::io::AsyncBufReadExt;
    let dir = std::env::var("MCP_INTEROP_TS_DIR").expect("MCP_INTEROP_TS_DIR is set by test.sh");
    let mut child = Command::new("node")
        .arg(format!("{dir}/legacy-server.mjs"))
        .arg("--http")
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn node");
    let stdout = child.stdout.take().unwrap();
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .expect("the server listens within 10 s")
        .unwrap()
        .expect("a line");
    let port = line.strip_prefix("listening ").expect("listening PORT");
    (child, format!("http://127.0.0.1:{port}/mcp"))
}

fn http_client(url: &str) -> McpClient {
    let mut config = default_config();
    config.probe_timeout_ms = 10_000;
    McpClient::http_with(url, config).expect("client")
}

#[tokio::test]
#[ignore = "needs the pinned TypeScript SDK servers (test.sh sets MCP_INTEROP_TS_DIR)"]
async fn async_client_keeps_a_session_with_the_legacy_typescript_server_over_http() {
    let (_server, url) = spawn_http().await;
    let client = http_client(&url);
    let session = tokio::time::timeout(Duration::from_secs(5), client.connect())
        .await
        .expect("connects without waiting for the probe timeout")
        .expect("connect");
    assert_eq!(session.era, Era::Legacy);
    // The server refuses any request without its session id (400): these need it.
    assert_eq!(text(&client, "test://static").await, "static text");
    assert_eq!(text(&client, "test://items/beta").await, "item beta");
    assert_eq!(text(&client, "test://sessions").await, "1");
    // The server ends the session: the next request gets 404, the client initializes a new
    // session and sends the read again.
    assert_eq!(text(&client, "test://end-session").await, "ending");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(text(&client, "test://static").await, "static text");
    assert_eq!(text(&client, "test://sessions").await, "1");
    // Closing sends the DELETE: the server forgets the session.
    client.close();
    let other = http_client(&url);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let live = text(&other, "test://sessions").await;
        if live == "1" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{live} sessions left after close"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
