//! The stdio host loop around a [`Server`] machine: newline-delimited JSON-RPC on
//! stdin/stdout (DIGEST §15.2), the machine's timers, and an optional periodic tick.
//!
//! The machine does the protocol; this loop only moves bytes: a thread reads stdin lines, a
//! timer thread sends ticks, and the calling thread owns the server, hands every event to the
//! [`App`] and writes every transmit followed by `\n`.

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_context::server::{Ctx, Event, Output, Server, StreamId, Transmit};

/// What a stdio server adds to the machine: answers to its events, and an optional tick.
pub trait App {
    /// The machine.
    fn server(&mut self) -> &mut Server;
    /// Answers one event (read, prompt, completion, cancellation, overflow).
    fn answer(&mut self, event: Event);
    /// The periodic timer fired (see [`serve`]'s `tick_ms`).
    fn tick(&mut self) {}
}

/// Drains the machine: transmits go to `write`, events to the app (DIGEST drain rule:
/// `docs/server-machine.md`).
pub fn pump(app: &mut dyn App, write: &mut dyn FnMut(&Transmit)) {
    while let Some(out) = app.server().poll_output() {
        match out {
            Output::Transmit(t) => write(&t),
            Output::Event(e) => app.answer(e),
        }
    }
}

enum Input {
    Line(Vec<u8>),
    Tick,
    Eof,
}

/// Serves stdin/stdout until stdin closes, then shuts the machine down gracefully (open
/// listens get their final result). `tick_ms` = 0 disables the tick.
pub fn serve(app: &mut dyn App, tick_ms: u64) {
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
        let input = match app.server().poll_timeout() {
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
            None => app.server().handle_timeout(now()),
            Some(Input::Line(mut line)) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if !line.iter().all(u8::is_ascii_whitespace) {
                    app.server().handle_message(&line, now(), ctx);
                }
            }
            Some(Input::Tick) => app.tick(),
            Some(Input::Eof) => {
                app.server().shutdown();
                pump(app, &mut write);
                return;
            }
        }
        pump(app, &mut write);
    }
}
