//! A level-1 template router over stdio: `repo://{owner}/{repo}/issues/{number}` and its
//! siblings route `resources/read` to async markdown handlers (see
//! `mcp_context_examples::repo_router`), served by `mcp-context-primitives-host`.
//!
//! ```text
//! repo-router                 serve newline-delimited JSON-RPC on stdin/stdout
//! repo-router --transcript    print a scripted exchange, then an expand/match round trip
//! ```

use mcp_context::template::{Captures, OwnedPattern, OwnedTemplate, Value};
use mcp_context_examples::repo_router::{TEMPLATES, app};
use mcp_context_examples::wire::Wire;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn read(id: u32, uri: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{{META},"uri":"{uri}"}}}}"#
    )
}

async fn transcript() -> Result<(), String> {
    let host = app().build().map_err(|e| e.to_string())?;
    let mut wire = Wire::start(&host);
    let list = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/templates/list","params":{{{META}}}}}"#
    );
    let script = [
        ("The templates the router serves.", list),
        ("An issue.", read(2, "repo://acme/web/issues/812")),
        (
            "A comment on it.",
            read(3, "repo://acme/web/issues/812/comments/2"),
        ),
        (
            "A repository whose name has a space.",
            read(4, "repo://acme/web%20app"),
        ),
        (
            "No template matches pulls: -32602 with data.uri.",
            read(5, "repo://acme/web/pulls/5"),
        ),
        (
            "A template matches, but there is no such issue.",
            read(6, "repo://acme/web/issues/9"),
        ),
    ];
    for (say, msg) in script {
        println!("\n# {say}\n-> {msg}");
        for line in wire.exchange(&msg).await {
            println!("<- {line}");
        }
    }
    wire.close().await;

    println!("\n# Expand, then match the expansion: the decoded values come back.");
    let template = OwnedTemplate::parse(TEMPLATES[1]).map_err(|e| e.to_string())?;
    let vars = [
        ("owner", Value::Str("acme")),
        ("repo", Value::Str("web app")),
        ("number", Value::Str("812")),
    ];
    let uri = template.expand(&vars[..]).map_err(|e| e.to_string())?;
    println!(
        "{} + {{owner: acme, repo: \"web app\", number: 812}} = {uri}",
        TEMPLATES[1]
    );
    let pattern = OwnedPattern::parse(TEMPLATES[1]).map_err(|e| e.to_string())?;
    let mut caps = Captures::<4>::new();
    pattern
        .matches(&uri, &mut caps)
        .map_err(|e| e.to_string())?;
    for c in caps.iter() {
        let value = c.decode().map_err(|e| e.to_string())?;
        println!("  {} = {value:?}", c.name());
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    let result = match std::env::args().nth(1).as_deref() {
        None => mcp_context_host::serve_stdio(app())
            .await
            .map_err(|e| e.to_string()),
        Some("--transcript") => transcript().await,
        Some(_) => {
            eprintln!("usage: repo-router [--transcript]");
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("repo-router: {e}");
        std::process::exit(1);
    }
}
