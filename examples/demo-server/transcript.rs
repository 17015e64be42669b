//! `--transcript`: a scripted stdio exchange with the server on an in-memory connection
//! (the same loop as stdin/stdout), printed, with the timer replaced by explicit ticks.

use std::sync::{Arc, Mutex};

use mcp_context_examples::wire::Wire;

use crate::catalogue::Catalogue;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn request(id: &str, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{META}{sep}{params}}}}}"#)
}

enum Step {
    Say(&'static str),
    Send(String),
    Tick,
}

pub(crate) async fn run() -> Result<(), String> {
    let catalogue: crate::Shared = Arc::new(Mutex::new(Catalogue::demo()));
    let host = crate::app(&catalogue).build().map_err(|e| e.to_string())?;
    let notifier = host.notifier();
    let mut wire = Wire::start(&host);
    let mut ticks = 0;
    let steps = [
        Step::Say("Discover what the server offers (no handshake: every request carries _meta)."),
        Step::Send(request("1", "server/discover", "")),
        Step::Say("List resources and templates (cacheable: ttlMs and cacheScope on every page)."),
        Step::Send(request("2", "resources/list", "")),
        Step::Send(request("3", "resources/templates/list", "")),
        Step::Say("Read a stored resource, a project index, a templated note, and a missing note."),
        Step::Send(request("4", "resources/read", r#""uri":"notes://readme""#)),
        Step::Send(request("5", "resources/read", r#""uri":"notes://acme""#)),
        Step::Send(request("6", "resources/read", r#""uri":"notes://acme/2""#)),
        Step::Send(request("7", "resources/read", r#""uri":"notes://acme/99""#)),
        Step::Say("Prompts: list, then get review_note (it embeds the note)."),
        Step::Send(request("8", "prompts/list", "")),
        Step::Send(request(
            "9",
            "prompts/get",
            r#""name":"review_note","arguments":{"project":"apollo","id":"7","focus":"accuracy"}"#,
        )),
        Step::Send(request("10", "prompts/get", r#""name":"review_note","arguments":{"project":"acme"}"#)),
        Step::Say("Completion: a built-in value set, then ids that depend on context.arguments."),
        Step::Send(request(
            "11",
            "completion/complete",
            r#""ref":{"type":"ref/prompt","name":"review_note"},"argument":{"name":"project","value":"a"}"#,
        )),
        Step::Send(request(
            "12",
            "completion/complete",
            r#""ref":{"type":"ref/resource","uri":"notes://{project}/{id}"},"argument":{"name":"id","value":""},"context":{"arguments":{"project":"acme"}}"#,
        )),
        Step::Say("Listen for updates under notes://acme; the timer edits notes://acme/1."),
        Step::Send(request(
            r#""watch""#,
            "subscriptions/listen",
            r#""notifications":{"resourceSubscriptions":["notes://acme"],"promptsListChanged":true,"toolsListChanged":true}"#,
        )),
        Step::Tick,
        Step::Send(request("13", "resources/read", r#""uri":"notes://acme/1""#)),
        Step::Say("Removed methods and unsupported versions get the modern errors."),
        Step::Send(r#"{"jsonrpc":"2.0","id":14,"method":"ping"}"#.to_string()),
        Step::Send(
            r#"{"jsonrpc":"2.0","id":15,"method":"resources/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2024-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#
                .to_string(),
        ),
        Step::Say("Cancel the subscription (stdio): nothing more is sent for it."),
        Step::Send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"watch"}}"#.to_string()),
        Step::Tick,
    ];
    for step in steps {
        match step {
            Step::Say(s) => println!("\n# {s}"),
            Step::Send(msg) => {
                println!("-> {msg}");
                for line in wire.exchange(&msg).await {
                    println!("<- {line}");
                }
            }
            Step::Tick => {
                println!("   (timer: notes://acme/1 edited)");
                ticks += 1;
                crate::tick(&catalogue, &notifier, ticks);
                for line in wire.quiet(50).await {
                    println!("<- {line}");
                }
            }
        }
    }
    for line in wire.close().await {
        println!("<- {line}");
    }
    Ok(())
}
