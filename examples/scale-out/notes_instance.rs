//! One Rust instance of the notes fleet (examples/scale-out, docs/scale-out.md): the same
//! catalogue as `examples/python/notes_instance.py` (seven notes, the project-note template,
//! the `review_note` prompt, the `write_note` and `delete_note` tools), the fleet's sealing keys
//! and page size, and the host crate's Redis broker (feature `redis`).
//!
//! ```text
//! cargo run -p mcp-context-examples --bin notes-instance -- --port 0 \
//!     --redis redis://127.0.0.1:6379/0 --fleet notes --keys 2:<64 hex>,1:<64 hex> \
//!     [--share-sessions] [--max-sessions N]
//! ```
//!
//! `--share-sessions`: 2025-11-25 sessions and their GET streams' events in Redis too
//! (`mcp_context_host::sessions_redis`), shared with the Python and Node instances.
//!
//! Note texts live in this process (the Python instance keeps them in a shared SQLite file):
//! what the fleet shares here is the catalogue, the keys and the change events.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use mcp_context::messages::owned::{
    FromJsonText, OwnedGetPromptResult, OwnedInputRequest, OwnedPrompt, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate, OwnedTool,
};
use mcp_context::server::{InputRequired, SealingKey};
use mcp_context_host::fleet::{RedisBroker, RedisOptions};
use mcp_context_host::http::HttpOptions;
use mcp_context_host::sessions_redis::RedisSessionStore;
use mcp_context_host::{App, Context, Error, PromptRequest, ReadRequest, ToolReply, ToolRequest};

const NOTES: [(&str, &str, &str, &str); 7] = [
    (
        "notes://note-1",
        "Welcome",
        "How these notes work",
        "# Welcome\nNotes are markdown.",
    ),
    (
        "notes://note-2",
        "Groceries",
        "Shopping list",
        "- milk\n- bread",
    ),
    (
        "notes://note-3",
        "Standup",
        "Daily standup log",
        "Shipped the parser.",
    ),
    (
        "notes://note-4",
        "Ideas",
        "Product ideas",
        "A notes server on a sans-IO core.",
    ),
    (
        "notes://note-5",
        "Reading",
        "Books to read",
        "RFC 6570, RFC 3986.",
    ),
    (
        "notes://note-6",
        "Alice's diary",
        "Private to alice",
        "Dear diary...",
    ),
    (
        "notes://note-7",
        "Payroll",
        "Never cached",
        "Salaries: confidential.",
    ),
];
const TEMPLATE: &str = "notes://projects/{project}/notes/{id}";

type Store = Arc<Mutex<HashMap<String, Option<String>>>>;

struct Args {
    port: u16,
    redis: Option<String>,
    fleet: String,
    keys: Vec<SealingKey>,
    page_size: usize,
    health_s: f64,
    /// `--share-sessions`: 2025-11-25 sessions in Redis too (`sessions_redis`).
    share_sessions: bool,
    max_sessions: Option<usize>,
}

fn parse_keys(text: &str) -> Result<Vec<SealingKey>, String> {
    text.split(',')
        .map(|part| {
            let (id, hex) = part.split_once(':').ok_or("keys: id:hex,...")?;
            let secret = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("x"), 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|e| e.to_string())?;
            Ok(SealingKey {
                id: id.parse().map_err(|_| "keys: a numeric id")?,
                secret,
            })
        })
        .collect()
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        port: 0,
        redis: None,
        fleet: "notes".into(),
        keys: Vec::new(),
        page_size: 3,
        health_s: 5.0,
        share_sessions: false,
        max_sessions: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--share-sessions" {
            a.share_sessions = true;
            continue;
        }
        let value = it.next().ok_or(format!("{flag}: a value"))?;
        match flag.as_str() {
            "--port" => a.port = value.parse().map_err(|_| "--port")?,
            "--redis" => a.redis = Some(value),
            "--fleet" => a.fleet = value,
            "--keys" => a.keys = parse_keys(&value)?,
            "--page-size" => a.page_size = value.parse().map_err(|_| "--page-size")?,
            "--health-s" => a.health_s = value.parse().map_err(|_| "--health-s")?,
            "--max-sessions" => {
                a.max_sessions = Some(value.parse().map_err(|_| "--max-sessions")?);
            }
            "--db" => {} // the Python instance's shared store; texts are in memory here
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(a)
}

fn json<T: FromJsonText>(text: &str) -> T {
    T::from_json_text(text).unwrap_or_else(|e| unreachable!("a valid definition: {e} {text}"))
}

fn text_arg(req: &ToolRequest, name: &str) -> Option<String> {
    req.arg(name)
        .and_then(|v| v.as_str())
        .map(|s| s.to_cow().into_owned())
}

fn app(a: &Args, store: &Store, broker: Option<RedisBroker>) -> App {
    let mut app = App::named("notes-server", "0.1.0");
    app.config_mut().page_size = a.page_size;
    if let Some(n) = a.max_sessions {
        app.config_mut().max_sessions = n;
    }
    app.config_mut().state_keys = a
        .keys
        .iter()
        .map(|k| SealingKey {
            id: k.id,
            secret: k.secret.clone(),
        })
        .collect();
    for (uri, title, description, _) in NOTES {
        let mut r = OwnedResource::new(uri, title);
        r.description = Some(description.into());
        r.mime_type = Some("text/markdown".into());
        let s = store.clone();
        app.resource(r, move |req: ReadRequest, cx: Context| {
            let text = read(&s, cx.caller(), &req.uri);
            async move {
                let text = text.ok_or_else(Error::not_found)?;
                Ok(vec![OwnedResourceContents::text(
                    &req.uri,
                    Some("text/markdown"),
                    text,
                )])
            }
        });
    }
    let mut t = OwnedResourceTemplate::new(TEMPLATE, "project-note");
    t.description = Some("A note of a project".into());
    t.mime_type = Some("text/markdown".into());
    app.template(t, |req: ReadRequest, _cx: Context| async move {
        let text = match (req.var("project"), req.var("id")) {
            (Some("apollo"), Some("1")) => "# Apollo 1\nLaunch checklist.",
            (Some("apollo"), Some("2")) => "# Apollo 2\nPost-mortem.",
            _ => return Err(Error::not_found()),
        };
        Ok(vec![OwnedResourceContents::text(
            &req.uri,
            Some("text/markdown"),
            text,
        )])
    });
    let prompt: OwnedPrompt = json(
        r#"{"name":"review_note","description":"Review one note","arguments":[{"name":"uri","description":"The note's URI","required":true}]}"#,
    );
    let s = store.clone();
    app.prompt(prompt, move |req: PromptRequest, cx: Context| {
        let uri = req.arg("uri").unwrap_or_default().to_owned();
        let text = read(&s, cx.caller(), &uri);
        async move {
            let text = text.ok_or_else(|| Error::invalid_params(format!("no readable note {uri}")))?;
            let body = serde_json::json!({
                "description": format!("Review of {uri}"),
                "messages": [
                    {"role": "user", "content": {"type": "text", "text": "Review this note for clarity and accuracy:"}},
                    {"role": "user", "content": {"type": "resource", "resource": {"uri": uri, "mimeType": "text/markdown", "text": text}}},
                ],
            });
            Ok(json::<OwnedGetPromptResult>(&body.to_string()))
        }
    });
    let (s, b) = (store.clone(), broker.clone());
    app.tool(
        json::<OwnedTool>(
            r#"{"name":"write_note","description":"Replace a note's text; every listen of the fleet on it is told","inputSchema":{"type":"object","properties":{"uri":{"type":"string"},"text":{"type":"string"}},"required":["uri","text"]}}"#,
        ),
        move |req: ToolRequest, cx: Context| {
            let (uri, text) = (text_arg(&req, "uri"), text_arg(&req, "text"));
            let done = match (uri, text) {
                (Some(uri), Some(text)) if read(&s, cx.caller(), &uri).is_some() => {
                    s.lock().unwrap_or_else(PoisonError::into_inner).insert(uri.clone(), Some(text));
                    match &b {
                        Some(b) => b.resource_updated(&uri),
                        None => cx.notifier().resource_updated(&uri),
                    }
                    Ok(ToolReply::text("written"))
                }
                _ => Err(Error::invalid_params("uri: a readable note; text: a string")),
            };
            async move { done }
        },
    );
    let (s, b) = (store.clone(), broker);
    app.tool(
        json::<OwnedTool>(
            r#"{"name":"delete_note","description":"Delete a note, after the user confirms (input_required)","inputSchema":{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}}"#,
        ),
        move |req: ToolRequest, cx: Context| {
            let uri = text_arg(&req, "uri").unwrap_or_default();
            let answer = delete(&s, b.as_ref(), &cx, &req, &uri);
            async move { answer }
        },
    );
    app
}

fn delete(
    s: &Store,
    b: Option<&RedisBroker>,
    cx: &Context,
    req: &ToolRequest,
    uri: &str,
) -> Result<ToolReply, Error> {
    if read(s, cx.caller(), uri).is_none() {
        return Err(Error::not_found());
    }
    let Some(retry) = &req.retry else {
        let ask = serde_json::json!({"method": "elicitation/create", "params": {"mode": "form", "message": format!("Delete {uri}?"),
            "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}});
        return Ok(ToolReply::InputRequired(InputRequired {
            requests: vec![(
                "confirm".into(),
                json::<OwnedInputRequest>(&ask.to_string()),
            )],
            state: Some(uri.as_bytes().to_vec()),
        }));
    };
    if retry.state.as_deref() != Some(uri.as_bytes()) {
        return Err(Error::invalid_params(
            "the confirmation is for another note",
        ));
    }
    let confirmed = retry.input_responses.iter().any(|(k, v)| {
        let v = v.as_raw();
        k == "confirm"
            && v.get("action")
                .and_then(|a| a.as_str())
                .is_some_and(|a| a.eq_str("accept"))
            && v.get("content")
                .and_then(|c| c.get("ok"))
                .and_then(|o| o.as_bool())
                == Some(true)
    });
    if !confirmed {
        return Ok(ToolReply::text("kept"));
    }
    s.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(uri.to_owned(), None);
    if let Some(b) = b {
        b.resource_updated(uri);
        b.resources_list_changed();
    }
    Ok(ToolReply::text(&format!(
        "deleted by rust {}",
        std::process::id()
    )))
}

/// The note's text if `caller` may read it (note-6 is alice's: nobody's here, as anonymous).
fn read(s: &Store, caller: u64, uri: &str) -> Option<String> {
    let (_, _, _, text) = NOTES.iter().find(|n| n.0 == uri)?;
    if uri == "notes://note-6" && caller != 1 {
        return None;
    }
    match s.lock().unwrap_or_else(PoisonError::into_inner).get(uri) {
        Some(Some(t)) => Some(t.clone()),
        Some(None) => None,
        None => Some((*text).to_owned()),
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let a = args()?;
    let store: Store = Arc::default();
    let broker = match &a.redis {
        Some(url) => {
            let options = RedisOptions {
                health: Duration::from_secs_f64(a.health_s),
                ..RedisOptions::default()
            };
            Some(RedisBroker::new(url, &a.fleet, options).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let host = app(&a, &store, broker.clone())
        .build()
        .map_err(|e| e.to_string())?;
    if let Some(b) = &broker {
        b.start(host.notifier());
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", a.port))
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on http://{addr}/mcp");
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let mut options = HttpOptions::default();
    if let (true, Some(url)) = (a.share_sessions, &a.redis) {
        options.sessions = Some(RedisSessionStore::new(url, &a.fleet).map_err(|e| e.to_string())?);
    }
    host.serve_http_with(listener, options, stop)
        .await
        .map_err(|e| e.to_string())
}
