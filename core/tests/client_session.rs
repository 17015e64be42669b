//! The client machine keeps a 2025-11-25 HTTP session (docs/rules.md §17.2 items 9–11),
//! against our server machine's HTTP entry point: each client transmit is POSTed through
//! `http::HeadFields` and `Server::handle_http`, and each answer's status and
//! `Mcp-Session-Id` go back through `Client::handle_http_response`.
//!
//! The server is dual-era, so it would answer the `server/discover` probe; this test plays a
//! 2025-11-25-only server there (the probe's POST fails without a JSON-RPC answer, as the
//! TypeScript SDK 1.x answers a request without a session), and routes everything else to
//! the real machine.

use mcp_context::client::{
    CachePolicy, Client, ClientConfig, EndReason, Era, Event, Output, Transmit, Transport,
};
use mcp_context::http::{HeadFields, HttpStart};
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents, OwnedSubscriptionFilter};
use mcp_context::server::{Ctx, Output as SOut, ResourceEntry, Server, ServerConfig, StreamId};

struct Net {
    client: Client,
    server: Server,
    now: u64,
    streams: u64,
    events: Vec<Event>,
    /// (method, session id header) of every POST.
    posts: Vec<(String, Option<String>)>,
    statuses: Vec<u16>,
}

impl Net {
    fn new() -> Self {
        let mut config = ServerConfig {
            session_idle_ms: 1_000,
            ..ServerConfig::default()
        };
        config.http.path = Some("/mcp".into());
        let mut server = Server::new(config).unwrap();
        server
            .add_resource(ResourceEntry {
                resource: OwnedResource::new("notes://a", "a"),
                contents: Some(vec![OwnedResourceContents::text(
                    "notes://a",
                    None,
                    "hello",
                )]),
                cache: None,
            })
            .unwrap();
        let mut config = ClientConfig::new("session-test", "1.0.0");
        config.transport = Transport::Http;
        config.cache = None;
        Self {
            client: Client::new(config).unwrap(),
            server,
            now: 0,
            streams: 0,
            events: Vec::new(),
            posts: Vec::new(),
            statuses: Vec::new(),
        }
    }

    fn pump(&mut self) {
        while let Some(out) = self.client.poll_output() {
            match out {
                Output::Transmit(t) => self.post(&t),
                Output::Event(e) => self.events.push(e),
                Output::CloseStream { .. } => {}
            }
        }
    }

    fn post(&mut self, t: &Transmit) {
        let now = self.now;
        let method = t.method.as_deref().unwrap_or("").to_owned();
        self.posts.push((method.clone(), t.session_id.clone()));
        if method == "server/discover" {
            self.client.handle_http_response(t.id, 400, None, now);
            self.client.handle_request_failed(t.id.unwrap(), now);
            return;
        }
        let headers = t.http_headers();
        let mut lines: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_ref())).collect();
        lines.push(("Host", "localhost"));
        let fields = HeadFields::new(lines);
        let head = fields.head("POST", "/mcp");
        self.streams += 1;
        let ctx = Ctx::http(StreamId(self.streams), 0);
        let (status, session, body) = match self.server.handle_http(&head, &t.bytes, now, ctx) {
            HttpStart::Respond(r) => {
                let s = r.header("Mcp-Session-Id").map(str::to_owned);
                (r.status, s, r.body)
            }
            HttpStart::Stream(stream) => {
                let mut first = None;
                while let Some(o) = self.server.poll_output() {
                    if let SOut::Transmit(x) = o
                        && x.stream == stream
                    {
                        first.get_or_insert((x.http_status, None, x.bytes));
                    }
                }
                first.expect("an answer at once")
            }
            HttpStart::EventStream { .. } => unreachable!("no GET here"),
        };
        self.statuses.push(status);
        self.client
            .handle_http_response(t.id, status, session.as_deref(), now);
        if !body.is_empty() {
            self.client.handle_message(&body, now);
        } else if !(200..300).contains(&status)
            && let Some(id) = t.id
        {
            self.client.handle_request_failed(id, now);
        }
    }

    fn read(&mut self) -> Vec<Event> {
        self.client
            .read_resource("notes://a", CachePolicy::Refresh, self.now);
        self.pump();
        std::mem::take(&mut self.events)
    }
}

fn read_ok(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::ResourceRead { reply, .. } if reply.json().contains("hello")))
}

#[test]
fn the_session_id_from_initialize_is_sent_on_every_later_request() {
    let mut n = Net::new();
    let events = n.read();
    assert!(matches!(&events[0], Event::Connected(s) if s.era == Era::Legacy));
    assert!(read_ok(&events), "{events:?}");
    let sid = n.client.http_session_id().expect("a session").to_owned();
    assert_eq!(sid.len(), 22);
    let posts: Vec<(&str, Option<&str>)> = n
        .posts
        .iter()
        .map(|(m, s)| (m.as_str(), s.as_deref()))
        .collect();
    assert_eq!(
        posts,
        [
            ("server/discover", None),
            ("initialize", None),
            ("notifications/initialized", Some(sid.as_str())),
            ("resources/read", Some(sid.as_str())),
        ]
    );
    // The header is on the wire form too.
    n.client
        .read_resource("notes://a", CachePolicy::Refresh, n.now);
    let Some(Output::Transmit(t)) = n.client.poll_output() else {
        panic!()
    };
    assert!(
        t.http_headers()
            .iter()
            .any(|(k, v)| *k == "Mcp-Session-Id" && v == &sid)
    );
}

#[test]
fn a_404_on_the_session_starts_a_new_one_and_the_call_is_sent_again() {
    let mut n = Net::new();
    assert!(read_ok(&n.read()));
    let first = n.client.http_session_id().unwrap().to_owned();
    // A legacy subscription on the old session.
    let filter = OwnedSubscriptionFilter {
        resource_subscriptions: Some(vec!["notes://a".into()]),
        ..OwnedSubscriptionFilter::default()
    };
    let listen = n.client.listen(filter.clone(), n.now);
    n.pump();
    n.events.clear();
    // The server forgets the idle session; the next read gets 404.
    n.now += 5_000;
    n.posts.clear();
    let events = n.read();
    assert!(n.statuses.contains(&404));
    let second = n.client.http_session_id().unwrap().to_owned();
    assert_ne!(first, second);
    let posts: Vec<(&str, Option<&str>)> = n
        .posts
        .iter()
        .map(|(m, s)| (m.as_str(), s.as_deref()))
        .collect();
    assert_eq!(
        posts,
        [
            ("resources/read", Some(first.as_str())),
            ("initialize", None),
            ("notifications/initialized", Some(second.as_str())),
            ("resources/read", Some(second.as_str())),
        ]
    );
    assert!(
        read_ok(&events),
        "the call is answered on the new session: {events:?}"
    );
    assert!(events.iter().any(|e| matches!(e,
        Event::SubscriptionEnded { call, reason: EndReason::UnexpectedClose { filter: f } }
            if *call == listen && *f == filter)));
    // A 404 to a request of an older session changes nothing.
    n.client.handle_http_response(Some(1), 404, None, n.now);
    assert_eq!(n.client.http_session_id(), Some(second.as_str()));
}

#[test]
fn end_session_gives_the_delete_and_the_server_ends_it() {
    let mut n = Net::new();
    assert!(read_ok(&n.read()));
    let sid = n.client.http_session_id().unwrap().to_owned();
    let headers = n.client.end_session().expect("a session to end");
    assert_eq!(n.client.http_session_id(), None);
    assert_eq!(n.client.end_session(), None);
    let mut lines: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert!(lines.contains(&("Mcp-Session-Id", sid.as_str())));
    assert!(lines.contains(&("MCP-Protocol-Version", "2025-11-25")));
    lines.push(("Host", "localhost"));
    let fields = HeadFields::new(lines);
    let ctx = Ctx::http(StreamId(99), 0);
    let HttpStart::Respond(r) = n
        .server
        .handle_http(&fields.head("DELETE", "/mcp"), b"", 0, ctx)
    else {
        panic!()
    };
    assert_eq!(r.status, 200);
    // The ended id is now unknown to the server.
    let again = HeadFields::new([("Host", "localhost"), ("Mcp-Session-Id", sid.as_str())]);
    let HttpStart::Respond(r) = n
        .server
        .handle_http(&again.head("DELETE", "/mcp"), b"", 0, ctx)
    else {
        panic!()
    };
    assert_eq!(r.status, 404);
    // After a close the machine forgets the session too.
    let mut m = Net::new();
    assert!(read_ok(&m.read()));
    m.client.handle_close(m.now);
    assert_eq!(m.client.http_session_id(), None);
}
