//! One Rust instance of the rate-limit fleet test (tests/rate-fleet, docs/operations.md "A
//! rate limit across instances"): a stdio server with an `echo` tool behind
//! `RedisRateLimit`, the core's bucket in Redis.
//!
//! `cargo run -p mcp-context-primitives-host --features redis --example rate_instance -- <redis-url> <prefix> <rate> <burst>`

use mcp_context::messages::owned::{FromJsonText, OwnedJson, OwnedTool};
use mcp_context_host::telemetry::RedisRateLimit;
use mcp_context_host::{App, Context, ToolRequest};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, prefix, rate, burst] = args.as_slice() else {
        eprintln!("usage: rate_instance <redis-url> <prefix> <rate> <burst>");
        std::process::exit(2);
    };
    let (Ok(rate), Ok(burst)) = (rate.parse::<f64>(), burst.parse::<f64>()) else {
        eprintln!("rate and burst are numbers");
        std::process::exit(2);
    };
    let mut app = App::named("rate", "1.0.0");
    app.tool(
        OwnedTool::from_json_text(r#"{"name":"echo","inputSchema":{"type":"object"}}"#)
            .map_err(|e| std::io::Error::other(e.to_string()))?,
        |_req: ToolRequest, _cx: Context| async move {
            OwnedJson::parse(r#"{"content":[{"type":"text","text":"rust"}]}"#.to_owned())
                .map_err(|e| mcp_context_host::Error::tool(e.to_string()))
        },
    );
    let limit = RedisRateLimit::per_caller(url, rate, burst)
        .map_err(|e| std::io::Error::other(e.to_string()))?
        .prefix(prefix);
    app.middleware(limit);
    let host = app
        .build()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    host.serve_stdio().await
}
