//! A stdio MCP 2026-07-28 server on the sans-IO machine (`mcp_context::server::Server`), with
//! an embedded catalogue of notes.
//!
//! ```text
//! demo-server                 serve newline-delimited JSON-RPC on stdin/stdout
//! demo-server --transcript    drive a scripted exchange through the machine and print it
//! options: --tick-ms N        how often the timer edits notes://acme/1 (default 5000; 0 = never)
//! ```
//!
//! The machine does the protocol; this file only moves bytes: a thread reads stdin lines, a
//! timer thread edits a note (listeners get `notifications/resources/updated`), and the main
//! thread owns the server, answers its events from the catalogue and writes its transmits.

mod catalogue;
mod transcript;

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use catalogue::Catalogue;
use mcp_context::messages::owned::OwnedImplementation;
use mcp_context::server::{Ctx, Event, Failure, Output, Server, ServerConfig, StreamId, Transmit};

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
        while let Some(out) = self.server.poll_output() {
            match out {
                Output::Transmit(t) => write(&t),
                Output::Event(e) => self.answer(e),
            }
        }
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
    pub(crate) fn tick(&mut self) {
        self.ticks += 1;
        let uri = self.catalogue.touch(self.ticks);
        self.server.resource_updated(&uri);
    }
}

enum Input {
    Line(Vec<u8>),
    Tick,
    Eof,
}

fn serve(tick_ms: u64) -> Result<(), String> {
    let mut demo = Demo::new()?;
    let ctx = Ctx::stdio(StreamId(0));
    let start = Instant::now();
    let now = || u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (tx, rx) = mpsc::channel();
    let lines = tx.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().split(b'\n') {
            match line {
                Ok(l) => {
                    if lines.send(Input::Line(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = lines.send(Input::Eof);
    });
    if tick_ms > 0 {
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(tick_ms));
                if tx.send(Input::Tick).is_err() {
                    return;
                }
            }
        });
    }
    let stdout = std::io::stdout();
    let mut write = |t: &Transmit| {
        let mut out = stdout.lock();
        let _ = out.write_all(&t.bytes);
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    };
    loop {
        let input = match demo.server.poll_timeout() {
            Some(deadline) => {
                let wait = Duration::from_millis(deadline.saturating_sub(now()));
                match rx.recv_timeout(wait) {
                    Ok(i) => Some(i),
                    Err(mpsc::RecvTimeoutError::Timeout) => None,
                    Err(mpsc::RecvTimeoutError::Disconnected) => Some(Input::Eof),
                }
            }
            None => Some(rx.recv().unwrap_or(Input::Eof)),
        };
        match input {
            None => demo.server.handle_timeout(now()),
            Some(Input::Line(mut line)) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if !line.iter().all(u8::is_ascii_whitespace) {
                    demo.server.handle_message(&line, now(), ctx);
                }
            }
            Some(Input::Tick) => demo.tick(),
            Some(Input::Eof) => {
                demo.server.shutdown();
                demo.pump(&mut write);
                return Ok(());
            }
        }
        demo.pump(&mut write);
    }
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
