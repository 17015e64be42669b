//! The Redis-backed rate limit of the Rust host (feature `redis`; docs/operations.md "A rate
//! limit across instances", the core's `fleet::rate`): two instances on one real Redis
//! (`redis-server`, the Debian package, started here on a free port) take from one bucket
//! per caller; a caller over its rate is refused `RATE_LIMITED` on both, another caller is
//! not.
#![cfg(feature = "redis")]

mod redis_kit;

use std::sync::Arc;

use axum::http::request::Parts;
use mcp_context::messages::owned::{FromJsonText, OwnedJson, OwnedTool};
use mcp_context::observe::RATE_LIMITED;
use mcp_context_host::http::HttpOptions;
use mcp_context_host::telemetry::RedisRateLimit;
use mcp_context_host::{App, Context, ToolRequest};
use redis_kit::Redis;
use serde_json::{Value, json};
use tokio::sync::oneshot;

struct Instance {
    url: String,
    _stop: oneshot::Sender<()>,
}

// `HttpOptions::auth` refuses with a whole `Response`, as its signature says.
#[allow(clippy::result_large_err)]
async fn instance(redis: &str, prefix: &str) -> Instance {
    instance_with(redis, prefix, false).await
}

#[allow(clippy::result_large_err)]
async fn instance_with(redis: &str, prefix: &str, fail_closed: bool) -> Instance {
    let mut app = App::named("notes", "1.0.0");
    app.tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#).unwrap(),
        |_req: ToolRequest, _cx: Context| async move {
            Ok(
                OwnedJson::parse(json!({"content": [{"type": "text", "text": "ok"}]}).to_string())
                    .unwrap(),
            )
        },
    );
    app.middleware(
        RedisRateLimit::per_caller(redis, 0.001, 3.0)
            .unwrap()
            .prefix(prefix)
            .timeout(std::time::Duration::from_millis(300))
            .fail_closed(fail_closed),
    );
    let host = app.build().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    // The caller is the `x-caller` header (0 without one).
    let options = HttpOptions {
        auth: Some(Arc::new(|head: &Parts| {
            Ok(head
                .headers
                .get("x-caller")
                .and_then(|v| v.to_str().ok()?.parse().ok())
                .unwrap_or(0))
        })),
        ..HttpOptions::default()
    };
    let (tx, rx) = oneshot::channel::<()>();
    tokio::spawn(async move {
        host.serve_http_with(listener, options, async move {
            let _ = rx.await;
        })
        .await
    });
    Instance { url, _stop: tx }
}

async fn call(http: &reqwest::Client, at: &Instance, id: u32, caller: u32) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "name": "echo", "arguments": {}}});
    http.post(&at.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "echo")
        .header("x-caller", caller.to_string())
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_over_its_rate_is_refused_on_both_instances() {
    let redis = Redis::start();
    let a = instance(&redis.url(), "test:rate:").await;
    let b = instance(&redis.url(), "test:rate:").await;
    let http = reqwest::Client::new();
    let mut one = Vec::new();
    for (i, at) in [&a, &b, &a, &b, &a].into_iter().enumerate() {
        one.push(call(&http, at, u32::try_from(i).unwrap(), 7).await);
    }
    for ok in &one[..3] {
        assert!(ok["result"].is_object(), "{ok}");
    }
    for refused in &one[3..] {
        assert_eq!(refused["error"]["code"], RATE_LIMITED, "{refused}");
        let msg = refused["error"]["message"].as_str().unwrap();
        assert!(
            msg.starts_with("Rate limit exceeded: retry after "),
            "{msg}"
        );
        assert!(msg.ends_with(" ms"), "{msg}");
    }
    let other = call(&http, &b, 9, 8).await;
    assert!(
        other["result"].is_object(),
        "another caller has its own bucket: {other}"
    );

    // the bucket is the core's: its key and fields are in Redis
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let tokens: Option<String> = redis::cmd("HGET")
        .arg("test:rate:7")
        .arg("tokens")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(tokens.is_some_and(|t| t.parse::<f64>().unwrap() < 1.0));
}

// The core's failure policy (docs/rules.md §23.6): open by default, closed when told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_redis_refuses_requests_when_told_to_fail_closed() {
    let redis = Redis::start();
    let url = redis.url();
    drop(redis);
    let a = instance_with(&url, "test:rate:", true).await;
    let http = reqwest::Client::new();
    for i in 0..3 {
        let r = call(&http, &a, i, 7).await;
        assert_eq!(r["error"]["code"], RATE_LIMITED, "{r}");
        assert_eq!(
            r["error"]["message"],
            mcp_context::fleet::rate::RATE_UNAVAILABLE_MESSAGE,
            "{r}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_redis_admits_requests() {
    let redis = Redis::start();
    let url = redis.url();
    drop(redis);
    let a = instance(&url, "test:rate:").await;
    let http = reqwest::Client::new();
    for i in 0..5 {
        let r = call(&http, &a, i, 7).await;
        assert!(r["result"].is_object(), "{r}");
    }
}
