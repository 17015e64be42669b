//! A stdio MCP 2026-07-28 server on `mcp-context-primitives-host`, with an embedded catalogue of notes.
//!
//! ```text
//! demo-server                 serve newline-delimited JSON-RPC on stdin/stdout
//! demo-server --transcript    drive a scripted exchange through the server and print it
//! demo-server --http PORT     serve Streamable HTTP on 127.0.0.1:PORT (0 = any free port);
//!                             prints `listening on http://127.0.0.1:PORT/mcp`, stops on Ctrl-C
//! options: --tick-ms N        how often the timer edits notes://acme/1 (default 5000; 0 = never)
//! ```
//!
//! The machine (`mcp_context::server::Server`) does the protocol, the host crate moves bytes
//! and runs the async handlers registered here, which answer from the catalogue; a timer
//! task edits a note on every tick (listeners get `notifications/resources/updated`).

mod catalogue;
mod transcript;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use catalogue::Catalogue;
use mcp_context::messages::owned::{
    FromJsonText, OwnedImplementation, OwnedPrompt, OwnedPromptArgument, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate, OwnedTool,
};
use mcp_context::server::{CacheHint, PromptEntry, ResourceEntry, ServerConfig, TemplateEntry};
use mcp_context_host::{
    App, CompleteRequest, Context, Error, Notifier, PromptRequest, ReadRequest, ToolReply,
    ToolRequest,
};

pub(crate) const NOTE_TEMPLATE: &str = "notes://{project}/{id}";
pub(crate) const README: &str = "notes://readme";

/// The catalogue, shared by the handlers and the timer.
pub(crate) type Shared = Arc<Mutex<Catalogue>>;

fn with<R>(c: &Shared, f: impl FnOnce(&Catalogue) -> R) -> R {
    f(&c.lock().unwrap_or_else(PoisonError::into_inner))
}

/// The server: the catalogue's resources, template and prompt, each with its handler.
pub(crate) fn app(catalogue: &Shared) -> App {
    let mut app = App::with_config(ServerConfig {
        server_info: Some(OwnedImplementation::new(
            "mcp-context-demo",
            env!("CARGO_PKG_VERSION"),
        )),
        instructions: Some(
            "Notes are resources (notes://{project}/{id}); review_note embeds one in a prompt; search_notes finds them."
                .into(),
        ),
        ..ServerConfig::default()
    });
    app.static_resource(
        OwnedResource {
            title: Some("About this server".into()),
            mime_type: Some("text/markdown".into()),
            ..OwnedResource::new(README, "readme")
        },
        vec![OwnedResourceContents::text(
            README,
            Some("text/markdown"),
            "Notes are served at notes://{project}/{id}; try the review_note prompt.",
        )],
        Some(CacheHint::public(3_600_000)),
    );
    let projects = with(catalogue, Catalogue::projects);
    let read = {
        let c = catalogue.clone();
        move |req: ReadRequest, _cx: Context| {
            let found = with(&c, |c| c.read(&req));
            async move { found.ok_or(Error::not_found()) }
        }
    };
    for project in &projects {
        let resource = OwnedResource {
            title: Some(format!("Project {project}")),
            mime_type: Some("text/markdown".into()),
            ..OwnedResource::new(format!("notes://{project}"), format!("{project}-index"))
        };
        app.resource_entry(
            ResourceEntry {
                resource,
                contents: None,
                cache: None,
            },
            read.clone(),
        );
    }
    let template = OwnedResourceTemplate {
        title: Some("Note".into()),
        mime_type: Some("text/markdown".into()),
        ..OwnedResourceTemplate::new(NOTE_TEMPLATE, "note")
    };
    app.template_entry(
        TemplateEntry {
            template,
            cache: Some(CacheHint::private(10_000)),
            completions: vec![("project".into(), projects.clone())],
        },
        read,
    );
    let arg = |name: &str, required: bool, description: &str| OwnedPromptArgument {
        name: name.into(),
        description: Some(description.into()),
        required: Some(required),
        ..Default::default()
    };
    let prompt = OwnedPrompt {
        name: "review_note".into(),
        title: Some("Review a note".into()),
        arguments: vec![
            arg("project", true, "The project"),
            arg("id", true, "The note id"),
            arg("focus", false, "What to look at"),
        ],
        ..Default::default()
    };
    let c = catalogue.clone();
    app.prompt_entry(
        PromptEntry {
            prompt,
            completions: vec![
                ("project".into(), projects),
                (
                    "focus".into(),
                    vec!["clarity".into(), "accuracy".into(), "tone".into()],
                ),
            ],
        },
        move |req: PromptRequest, _cx: Context| {
            let found = with(&c, |c| c.prompt(&req));
            async move { found.ok_or(Error::invalid_params("No such note")) }
        },
    );
    let ids = |c: Shared| {
        move |req: CompleteRequest, _cx: Context| {
            let values = with(&c, |c| c.complete(&req));
            async move { Ok(values) }
        }
    };
    app.complete_template(NOTE_TEMPLATE, ids(catalogue.clone()));
    app.complete_prompt("review_note", ids(catalogue.clone()));
    let c = catalogue.clone();
    app.tool(search_tool(), move |req: ToolRequest, _cx: Context| {
        let query = req
            .arg("query")
            .and_then(|q| q.as_str())
            .map(|q| q.to_cow().into_owned());
        let found = query.as_deref().map(|q| with(&c, |c| c.search(q)));
        async move {
            match found {
                // The machine checked that `query` is present; a non-string is the tool's error.
                None => Err(Error::tool("query must be a string")),
                Some(None) => Ok(ToolReply::text("No note matches.")),
                Some(Some(hits)) => Ok(ToolReply::text(&hits)),
            }
        }
    });
    app
}

/// `search_notes`: full-text search over the catalogue.
fn search_tool() -> OwnedTool {
    OwnedTool::from_json_text(
        r#"{"name":"search_notes","title":"Search notes","description":"Notes whose title or body contains the query (any case), as URI and title lines.","inputSchema":{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}}"#,
    )
    .unwrap_or_else(|e| unreachable!("the search_notes definition is valid: {e}"))
}

/// The timer's edit: a line appended to notes://acme/1, and listeners told.
pub(crate) fn tick(catalogue: &Shared, notifier: &Notifier, n: u64) {
    let uri = catalogue
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .touch(n);
    notifier.resource_updated(&uri);
}

async fn serve(tick_ms: u64, http: Option<u16>) -> Result<(), String> {
    let catalogue: Shared = Arc::new(Mutex::new(Catalogue::demo()));
    let host = app(&catalogue).build().map_err(|e| e.to_string())?;
    if tick_ms > 0 {
        let notifier = host.notifier();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_millis(tick_ms));
            every.tick().await;
            for n in 1.. {
                every.tick().await;
                tick(&catalogue, &notifier, n);
            }
        });
    }
    let Some(port) = http else {
        return host.serve_stdio().await.map_err(|e| e.to_string());
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on http://{addr}/mcp");
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    host.serve_http(listener, ctrl_c)
        .await
        .map_err(|e| e.to_string())
}

#[tokio::main]
async fn main() {
    let mut transcript_mode = false;
    let mut tick_ms = 5_000;
    let mut http = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--transcript" => transcript_mode = true,
            "--tick-ms" => match args.next().and_then(|v| v.parse().ok()) {
                Some(v) => tick_ms = v,
                None => {
                    eprintln!("--tick-ms needs a number of milliseconds");
                    std::process::exit(2);
                }
            },
            "--http" => match args.next().and_then(|v| v.parse().ok()) {
                Some(v) => http = Some(v),
                None => {
                    eprintln!("--http needs a port (0 = any free port)");
                    std::process::exit(2);
                }
            },
            "-h" | "--help" => {
                println!("usage: demo-server [--transcript] [--tick-ms N] [--http PORT]");
                return;
            }
            other => {
                eprintln!("unknown argument {other}; try --help");
                std::process::exit(2);
            }
        }
    }
    let result = if transcript_mode {
        transcript::run().await
    } else {
        serve(tick_ms, http).await
    };
    if let Err(e) = result {
        eprintln!("demo-server: {e}");
        std::process::exit(1);
    }
}
