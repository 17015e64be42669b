//! Interop: the client machine drives real servers built with the official TypeScript SDKs
//! over stdio (`tests/interop/ts/`): `@modelcontextprotocol/server` 2.4.0 (2026-07-28) and
//! `@modelcontextprotocol/sdk` 1.32.2 (2025-11-25, through the dual-era fallback).
//!
//! Ignored by default: `./test.sh` installs the pinned packages and runs these with
//! `MCP_INTEROP_TS_DIR` pointing at a folder holding `node_modules` and the server scripts.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use mcp_context::client::{
    CachePolicy, CallError, CallId, Client, ClientConfig, CompletionRef, Era, Event, ListMode,
    Notice, Output, ServerError,
};
use mcp_context::messages::ResourceContents;
use mcp_context::messages::owned::OwnedSubscriptionFilter;

struct Host {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    client: Client,
    start: Instant,
    log: Vec<String>,
}

impl Host {
    fn spawn(script: &str, args: &[&str]) -> Self {
        let dir =
            std::env::var("MCP_INTEROP_TS_DIR").expect("MCP_INTEROP_TS_DIR is set by test.sh");
        let mut child = Command::new("node")
            .arg(format!("{dir}/{script}"))
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn node");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut config = ClientConfig::new("mcp-context-interop", "0.1.0");
        config.probe_timeout_ms = 10_000;
        Self {
            child,
            stdin,
            lines,
            client: Client::new(config).expect("config"),
            start: Instant::now(),
            log: Vec::new(),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Runs the loop until an event satisfies `want` (returned) or 15 s pass.
    fn until(&mut self, mut want: impl FnMut(&Event) -> bool) -> Event {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            while let Some(out) = self.client.poll_output() {
                match out {
                    Output::Transmit(t) => {
                        self.log
                            .push(format!("> {}", String::from_utf8_lossy(&t.bytes)));
                        self.stdin.write_all(&t.bytes).expect("write");
                        self.stdin.write_all(b"\n").expect("write");
                        self.stdin.flush().expect("flush");
                    }
                    Output::Event(e) => {
                        self.log.push(format!("! {e:?}"));
                        if want(&e) {
                            return e;
                        }
                    }
                    other => panic!("unexpected {other:?}"),
                }
            }
            let now = self.now();
            let wait = self
                .client
                .poll_timeout()
                .map_or(200, |t| t.saturating_sub(now).min(200));
            assert!(
                Instant::now() < deadline,
                "no matching event; transcript:\n{}",
                self.log.join("\n")
            );
            match self.lines.recv_timeout(Duration::from_millis(wait.max(1))) {
                Ok(line) => {
                    self.log.push(format!("< {line}"));
                    let now = self.now();
                    self.client.handle_message(line.as_bytes(), now);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let now = self.now();
                    if self.client.poll_timeout().is_some_and(|t| t <= now) {
                        self.client.handle_timeout(now);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let now = self.now();
                    self.client.handle_close(now);
                }
            }
        }
    }

    /// Runs the loop until no request is outstanding (at most 5 s).
    fn settle(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.client.outstanding() > 0 && Instant::now() < deadline {
            let _ = self.until_quiet(Duration::from_millis(100));
        }
        let _ = self.until_quiet(Duration::from_millis(100));
        assert_eq!(self.client.outstanding(), 0, "{}", self.log.join("\n"));
    }

    /// One turn of the loop: flush outputs, then wait up to `wait` for a line.
    fn until_quiet(&mut self, wait: Duration) -> Option<()> {
        while let Some(out) = self.client.poll_output() {
            match out {
                Output::Transmit(t) => {
                    self.log
                        .push(format!("> {}", String::from_utf8_lossy(&t.bytes)));
                    self.stdin.write_all(&t.bytes).ok()?;
                    self.stdin.write_all(b"\n").ok()?;
                    self.stdin.flush().ok()?;
                }
                Output::Event(e) => self.log.push(format!("! {e:?}")),
                other => panic!("unexpected {other:?}"),
            }
        }
        let line = self.lines.recv_timeout(wait).ok()?;
        self.log.push(format!("< {line}"));
        let now = self.now();
        self.client.handle_message(line.as_bytes(), now);
        Some(())
    }

    fn done(&mut self, call: CallId) -> Event {
        let e = self.until(|e| event_call(e) == Some(call));
        if let Event::Failed { error, .. } = &e {
            panic!(
                "{call} failed: {error}; transcript:\n{}",
                self.log.join("\n")
            );
        }
        e
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        if std::env::var_os("MCP_INTEROP_TRACE").is_some() {
            eprintln!("{}", self.log.join("\n"));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn event_call(e: &Event) -> Option<CallId> {
    Some(match e {
        Event::Discovered { call, .. }
        | Event::ResourcesListed { call, .. }
        | Event::TemplatesListed { call, .. }
        | Event::PromptsListed { call, .. }
        | Event::ResourceRead { call, .. }
        | Event::PromptFetched { call, .. }
        | Event::Completed { call, .. }
        | Event::Failed { call, .. }
        | Event::Acknowledged { call, .. }
        | Event::InputRequired { call, .. } => *call,
        _ => return None,
    })
}

fn read_text(host: &mut Host, uri: &str) -> String {
    let call = host
        .client
        .read_resource(uri, CachePolicy::Refresh, host.now());
    let Event::ResourceRead { reply, .. } = host.done(call) else {
        panic!()
    };
    let view = reply.view().expect("view");
    match view.contents.iter().next() {
        Some(ResourceContents::Text(t)) => t.text.to_string(),
        other => panic!("{other:?}"),
    }
}

/// The same scenario for both eras: list, templates, read, prompts, completion, then a
/// subscription that a read of `test://touch` fires.
fn scenario(host: &mut Host, era: Era) {
    let now = host.now();
    host.client.connect(now);
    let Event::Connected(session) =
        host.until(|e| matches!(e, Event::Connected(_) | Event::ConnectFailed(_)))
    else {
        panic!("negotiation failed:\n{}", host.log.join("\n"));
    };
    assert_eq!(session.era, era, "{}", host.log.join("\n"));
    assert_eq!(
        session.version,
        if era == Era::Modern {
            "2026-07-28"
        } else {
            "2025-11-25"
        }
    );
    assert!(session.features.resources_subscribe && session.features.completions);

    let call = host
        .client
        .list_resources(ListMode::All, CachePolicy::Refresh, host.now());
    let Event::ResourcesListed { listing, .. } = host.done(call) else {
        panic!()
    };
    let uris: Vec<String> = listing
        .pages
        .iter()
        .flat_map(|p| {
            p.view()
                .expect("view")
                .items
                .iter()
                .map(|r| r.uri.to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(uris.contains(&"test://static".to_string()), "{uris:?}");

    let call = host
        .client
        .list_resource_templates(ListMode::All, CachePolicy::Refresh, host.now());
    let Event::TemplatesListed { listing, .. } = host.done(call) else {
        panic!()
    };
    let page = listing.pages[0].view().expect("view");
    assert_eq!(
        page.items.iter().next().expect("a template").uri_template,
        "test://items/{id}"
    );

    assert_eq!(read_text(host, "test://static"), "static text");
    assert_eq!(read_text(host, "test://items/beta"), "item beta");

    let call = host
        .client
        .read_resource("test://nope", CachePolicy::Refresh, host.now());
    let Event::Failed {
        error: CallError::Server(e),
        ..
    } = host.until(|e| event_call(e) == Some(call))
    else {
        panic!()
    };
    match era {
        Era::Modern => assert_eq!(
            e,
            ServerError::ResourceNotFound {
                uri: Some("test://nope".into()),
                message: "Resource not found: test://nope".into()
            }
        ),
        // SDK 1.32.2 answers -32602 without data.uri: not recognisable as not-found.
        Era::Legacy => assert!(
            matches!(
                e,
                ServerError::InvalidParams { .. } | ServerError::ResourceNotFound { .. }
            ),
            "{e:?}"
        ),
    }

    let call = host
        .client
        .list_prompts(ListMode::All, CachePolicy::Refresh, host.now());
    let Event::PromptsListed { listing, .. } = host.done(call) else {
        panic!()
    };
    assert_eq!(
        listing.pages[0]
            .view()
            .expect("view")
            .items
            .iter()
            .next()
            .expect("a prompt")
            .name,
        "greet"
    );
    let call = host
        .client
        .get_prompt("greet", &[("name", "Ada")], host.now());
    let Event::PromptFetched { reply, .. } = host.done(call) else {
        panic!()
    };
    assert!(reply.json().contains("Hello, Ada!"), "{}", reply.json());

    let call = host.client.complete(
        CompletionRef::Prompt("greet".into()),
        ("name", "a"),
        None,
        host.now(),
    );
    let Event::Completed { reply, .. } = host.done(call) else {
        panic!()
    };
    let values: Vec<String> = reply
        .view()
        .expect("view")
        .values
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(values, ["alice"]);
    let call = host.client.complete(
        CompletionRef::Resource("test://items/{id}".into()),
        ("id", "b"),
        None,
        host.now(),
    );
    let Event::Completed { reply, .. } = host.done(call) else {
        panic!()
    };
    let values: Vec<String> = reply
        .view()
        .expect("view")
        .values
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(values, ["beta"]);

    let filter = OwnedSubscriptionFilter {
        resources_list_changed: Some(true),
        resource_subscriptions: Some(vec!["test://static".into()]),
        ..Default::default()
    };
    let listen = host.client.listen(filter, host.now());
    let Event::Acknowledged {
        honoured, refused, ..
    } = host.done(listen)
    else {
        panic!()
    };
    assert_eq!(
        honoured.resource_subscriptions,
        Some(vec!["test://static".to_string()]),
        "{refused:?}"
    );
    assert_eq!(honoured.resources_list_changed, Some(true));
    let touch = host
        .client
        .read_resource("test://touch", CachePolicy::Refresh, host.now());
    host.done(touch);
    let mut seen = (false, false);
    while seen != (true, true) {
        let e = host.until(|e| matches!(e, Event::Notified { .. }));
        let Event::Notified {
            subscription,
            notice,
        } = e
        else {
            unreachable!()
        };
        assert_eq!(subscription, Some(listen));
        match notice {
            Notice::ResourceUpdated { uri } => {
                assert_eq!(uri, "test://static");
                seen.0 = true;
            }
            Notice::ResourcesListChanged => seen.1 = true,
            other => panic!("{other:?}"),
        }
    }
    let now = host.now();
    host.client
        .cancel(listen, Some("interop done"), now)
        .expect("cancel");
    // Modern: `notifications/cancelled`; legacy: `resources/unsubscribe`, answered.
    host.settle();
    let sent_cancel = host
        .log
        .iter()
        .any(|l| l.contains("notifications/cancelled"));
    let sent_unsubscribe = host.log.iter().any(|l| l.contains("resources/unsubscribe"));
    assert_eq!(
        (sent_cancel, sent_unsubscribe),
        (era == Era::Modern, era == Era::Legacy)
    );
    assert!(
        !host.log.iter().any(|l| l.contains("PeerError")),
        "{}",
        host.log.join("\n")
    );
}

#[test]
#[ignore = "needs node and the pinned SDK packages: run by ./test.sh"]
fn modern_typescript_server_2026_07_28() {
    let mut host = Host::spawn("modern-server.mjs", &[]);
    scenario(&mut host, Era::Modern);
}

#[test]
#[ignore = "needs node and the pinned SDK packages: run by ./test.sh"]
fn legacy_typescript_server_2025_11_25() {
    let mut host = Host::spawn("legacy-server.mjs", &[]);
    scenario(&mut host, Era::Legacy);
}
