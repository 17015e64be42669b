//! `mcpc`: a command-line MCP client on the host crate's `McpClient` (either era: the machine
//! negotiates 2026-07-28 and falls back to a 2025-11-25 session by itself).
//!
//! ```text
//! mcpc [--json] TARGET COMMAND [ARGS…]
//!   TARGET   an http(s):// URL (Streamable HTTP), or a command line run over stdio ("node s.mjs",
//!            split into words as a POSIX shell does: 'quotes', "quotes", backslashes)
//!   list | templates | prompts | tools
//!   read URI
//!   prompt NAME [KEY=VALUE…]
//!   complete prompt:NAME|resource:TEMPLATE ARG [VALUE] [KEY=VALUE…]
//!   listen [URI…] [--list-changed] [--count N]   notices, one a line, until the stream ends
//!   call METHOD [PARAMS-JSON]                     any method; prints the result
//!   login | logout                                OAuth for an HTTP server; tokens kept in
//!                                                 the config directory (mode 0600)
//! ```
//!
//! `--json` prints each result as one line of JSON (what the server sent); the default is
//! for people. On HTTP, stored tokens are used and a 401 runs the OAuth flow (the core's
//! `Authorizer`) with a loopback redirect listener; renewed tokens are saved.

mod login;
mod output;
mod store;

use std::process::ExitCode;

use futures_util::StreamExt;
use mcp_context::auth::AuthConfig;
use mcp_context::client::CompletionRef;
use mcp_context::messages::owned::{OwnedJson, OwnedSubscriptionFilter};
use mcp_context_host::client::{McpClient, OAuth, default_config};

const USAGE: &str = "usage: mcpc [--json] TARGET (list|templates|prompts|tools|read URI|prompt NAME [K=V…]|complete REF ARG [VALUE] [K=V…]|listen [URI…] [--list-changed] [--count N]|call METHOD [PARAMS]|login|logout)";

struct Args {
    json: bool,
    target: String,
    command: String,
    rest: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut json = false;
    let mut positional = Vec::new();
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--json" if positional.len() < 2 => json = true,
            "-h" | "--help" => return Err(USAGE.into()),
            _ => positional.push(a),
        }
    }
    if positional.len() < 2 {
        return Err(USAGE.into());
    }
    let rest = positional.split_off(2);
    let command = positional.pop().unwrap_or_default();
    let target = positional.pop().unwrap_or_default();
    Ok(Args {
        json,
        target,
        command,
        rest,
    })
}

fn is_url(target: &str) -> bool {
    target.starts_with("http://") || target.starts_with("https://")
}

/// A stdio target's program and arguments, split as a POSIX shell splits words (quotes and
/// backslashes; no expansion).
fn command_words(target: &str) -> Result<Vec<String>, String> {
    shlex::split(target).ok_or_else(|| format!("unbalanced quotes in the command {target}"))
}

/// The client for `target`: HTTP with OAuth (stored tokens restored), or a spawned command.
async fn client(target: &str) -> Result<McpClient, String> {
    if is_url(target) {
        let (listener, redirect) = login::listener().await.map_err(|e| e.to_string())?;
        let oauth = OAuth {
            config: AuthConfig::new(target, &redirect, "mcpc"),
            user_agent: login::user_agent(listener),
        };
        let c = McpClient::http_with_auth(target, default_config(), oauth)
            .map_err(|e| e.to_string())?;
        let kept = store::load(target);
        if let Some(r) = kept.client {
            c.restore_registration(r).await;
        }
        if let Some(t) = kept.tokens {
            c.restore_tokens(t).await;
        }
        Ok(c)
    } else {
        let words = command_words(target)?;
        let (program, args) = words.split_first().ok_or("an empty command")?;
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(args);
        McpClient::spawn(cmd).map_err(|e| e.to_string())
    }
}

/// Saves renewed tokens, and the registration they came with, after an HTTP command.
async fn persist(c: &McpClient, target: &str) -> Result<(), String> {
    if !is_url(target) {
        return Ok(());
    }
    let kept = store::load(target);
    let Some(tokens) = c.tokens().await else {
        return Ok(());
    };
    let now = store::Kept {
        tokens: Some(tokens),
        client: c.registration().await.or(kept.client.clone()),
    };
    if now != kept {
        store::save(target, &now).map_err(|e| format!("saving tokens: {e}"))?;
    }
    Ok(())
}

fn pairs(args: &[String]) -> Result<Vec<(String, String)>, String> {
    args.iter()
        .map(|a| {
            a.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .ok_or_else(|| format!("expected KEY=VALUE, got {a}"))
        })
        .collect()
}

fn refs(p: &[(String, String)]) -> Vec<(&str, &str)> {
    p.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

async fn run(a: Args) -> Result<(), String> {
    let out = output::Out { json: a.json };
    if a.command == "logout" {
        let had = store::remove(&a.target).map_err(|e| e.to_string())?;
        out.note(if had { "logged out" } else { "no tokens kept" });
        return Ok(());
    }
    let c = client(&a.target).await?;
    let e = |e: mcp_context_host::client::Error| e.to_string();
    let r: Result<(), String> = async {
        match (a.command.as_str(), a.rest.as_slice()) {
            ("login", []) => {
                // The handshake meets the 401 and runs the flow (a server that answers it
                // without a token needs none).
                c.connect().await.map_err(e)?;
                out.note(if c.tokens().await.is_some() {
                    "logged in"
                } else {
                    "the server asked for no authorization"
                });
            }
            ("list", []) => {
                let l = c.list_resources().await.map_err(e)?;
                out.pages(l.pages.iter().map(|p| p.json()), "resources")?;
            }
            ("templates", []) => {
                let l = c.list_resource_templates().await.map_err(e)?;
                out.pages(l.pages.iter().map(|p| p.json()), "resourceTemplates")?;
            }
            ("prompts", []) => {
                let l = c.list_prompts().await.map_err(e)?;
                out.pages(l.pages.iter().map(|p| p.json()), "prompts")?;
            }
            ("tools", []) => {
                let l = c.list_tools().await.map_err(e)?;
                out.pages(l.pages.iter().map(|p| p.json()), "tools")?;
            }
            ("read", [uri]) => {
                let r = c.read_resource(uri).await.map_err(e)?;
                out.read(r.json())?;
            }
            ("prompt", [name, kv @ ..]) => {
                let kv = pairs(kv)?;
                let r = c.get_prompt(name, &refs(&kv)).await.map_err(e)?;
                out.prompt(r.json())?;
            }
            ("complete", [reference, arg, rest @ ..]) => {
                let reference = if let Some(n) = reference.strip_prefix("prompt:") {
                    CompletionRef::Prompt(n.into())
                } else if let Some(t) = reference.strip_prefix("resource:") {
                    CompletionRef::Resource(t.into())
                } else {
                    return Err("the reference is prompt:NAME or resource:TEMPLATE".into());
                };
                let (value, ctx) = match rest.split_first() {
                    Some((v, ctx)) if !v.contains('=') => (v.as_str(), ctx),
                    _ => ("", rest),
                };
                let ctx = pairs(ctx)?;
                let ctx = refs(&ctx);
                let context = (!ctx.is_empty()).then_some(ctx.as_slice());
                let r = c
                    .complete(reference, (arg, value), context)
                    .await
                    .map_err(e)?;
                out.completion(r.json())?;
            }
            ("listen", rest) => {
                let mut filter = OwnedSubscriptionFilter::default();
                let mut count = None;
                let mut uris = Vec::new();
                let mut it = rest.iter();
                while let Some(x) = it.next() {
                    match x.as_str() {
                        "--list-changed" => {
                            filter.resources_list_changed = Some(true);
                            filter.prompts_list_changed = Some(true);
                            filter.tools_list_changed = Some(true);
                        }
                        "--count" => {
                            count = Some(
                                it.next()
                                    .and_then(|n| n.parse::<usize>().ok())
                                    .ok_or("--count takes a number")?,
                            );
                        }
                        _ => uris.push(x.clone()),
                    }
                }
                if !uris.is_empty() {
                    filter.resource_subscriptions = Some(uris);
                }
                let mut sub = c.listen(filter).await.map_err(e)?;
                out.note("listening");
                let mut seen = 0;
                while count.is_none_or(|n| seen < n) {
                    let Some(n) = sub.next().await else { break };
                    out.notice(&n);
                    seen += 1;
                }
            }
            ("call", [method, params @ ..]) => {
                let params = match params {
                    [] => "{}",
                    [p] => p.as_str(),
                    _ => return Err("call takes METHOD and one JSON object".into()),
                };
                let params = OwnedJson::parse(params).map_err(|e| format!("params: {e}"))?;
                let r = c.request(method, params).await.map_err(e)?;
                out.raw(r.as_raw().as_text())?;
            }
            _ => return Err(USAGE.into()),
        }
        Ok(())
    }
    .await;
    let saved = persist(&c, &a.target).await;
    c.close();
    r.and(saved)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcpc: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::command_words;

    #[test]
    fn stdio_commands_split_as_shell_words() {
        assert_eq!(
            command_words(r#"node "/my dir/s.mjs" --name 'a b' c\ d"#).unwrap(),
            ["node", "/my dir/s.mjs", "--name", "a b", "c d"]
        );
        assert_eq!(command_words("  node   s.mjs ").unwrap(), ["node", "s.mjs"]);
        assert!(command_words(r#"node "s.mjs"#).is_err());
        assert!(command_words("").unwrap().is_empty());
    }
}
