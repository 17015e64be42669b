//! A stdio MCP 2026-07-28 server on the sans-IO machine (`mcp_context::server::Server`), with
//! an embedded catalogue of notes.
//!
//! ```text
//! demo-server                 serve newline-delimited JSON-RPC on stdin/stdout
//! demo-server --transcript    drive a scripted exchange through the machine and print it
//! options: --tick-ms N        how often the timer edits notes://acme/1 (default 5000; 0 = never)
//! ```
//!
//! The machine does the protocol; the shared stdio loop (`mcp_context_examples::stdio`)
//! moves bytes, and this file answers the machine's events from the catalogue and edits a
//! note on every tick (listeners get `notifications/resources/updated`).

mod catalogue;
mod transcript;

use catalogue::Catalogue;
use mcp_context::messages::owned::OwnedImplementation;
use mcp_context::server::{Event, Failure, Server, ServerConfig, Transmit};
use mcp_context_examples::stdio::{self, App};

/// The server and the data behind it.
pub(crate) struct Demo {
    pub(crate) server: Server,
    pub(crate) catalogue: Catalogue,
    ticks: u64,
}

impl Demo {
    pub(crate) fn new() -> Result<Self, String> {
        let config = ServerConfig {
            server_info: Some(OwnedImplementation::new(
                "mcp-context-demo",
                env!("CARGO_PKG_VERSION"),
            )),
            instructions: Some(
                "Notes are resources (notes://{project}/{id}); review_note embeds one in a prompt."
                    .into(),
            ),
            completion_events: true,
            ..ServerConfig::default()
        };
        let mut server = Server::new(config).map_err(|e| e.to_string())?;
        let catalogue = Catalogue::demo();
        catalogue.register(&mut server).map_err(|e| e.to_string())?;
        Ok(Self {
            server,
            catalogue,
            ticks: 0,
        })
    }

    /// Drains the machine: transmits go to `write`, events are answered from the catalogue.
    pub(crate) fn pump(&mut self, write: &mut dyn FnMut(&Transmit)) {
        stdio::pump(self, write);
    }
}

impl App for Demo {
    fn server(&mut self) -> &mut Server {
        &mut self.server
    }

    fn answer(&mut self, e: Event) {
        let r = match e {
            Event::ReadResource(e) => match self.catalogue.read(&e) {
                Some(contents) => self.server.respond_read(e.handle, contents),
                None => self.server.fail(e.handle, Failure::NotFound),
            },
            Event::GetPrompt(e) => match self.catalogue.prompt(&e) {
                Some(result) => self.server.respond_prompt(e.handle, result),
                None => self
                    .server
                    .fail(e.handle, Failure::InvalidParams("No such note".into())),
            },
            Event::Complete(e) => {
                let values = self.catalogue.complete(&e);
                self.server.respond_completion(e.handle, values)
            }
            Event::StreamOverflow { subscription, .. } => {
                eprintln!("demo-server: subscription {subscription:?} overflowed");
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(err) = r {
            eprintln!("demo-server: {err}");
        }
    }

    /// The timer fired: edit a note and tell listeners.
    fn tick(&mut self) {
        self.ticks += 1;
        let uri = self.catalogue.touch(self.ticks);
        self.server.resource_updated(&uri);
    }
}

fn serve(tick_ms: u64) -> Result<(), String> {
    let mut demo = Demo::new()?;
    stdio::serve(&mut demo, tick_ms);
    Ok(())
}

fn main() {
    let mut transcript_mode = false;
    let mut tick_ms = 5_000;
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
            "-h" | "--help" => {
                println!("usage: demo-server [--transcript] [--tick-ms N]");
                return;
            }
            other => {
                eprintln!("unknown argument {other}; try --help");
                std::process::exit(2);
            }
        }
    }
    let result = if transcript_mode {
        transcript::run()
    } else {
        serve(tick_ms)
    };
    if let Err(e) = result {
        eprintln!("demo-server: {e}");
        std::process::exit(1);
    }
}
