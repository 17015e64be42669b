//! A two-peer harness for the client machine: a simulated clock, the client, and a scripted
//! fake server whose canned answers are built with `messages::owned`. Every message the
//! client transmits is parsed, kept for assertions, and recorded for schema validation
//! (`target/emitted/<Type>/` for 2026-07-28, `target/emitted-2025-11-25/<Type>/` for the
//! legacy era; `tests/schema/validate_emitted.py` checks both).
#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use mcp_context::client::{Client, ClientConfig, Event, Output, Transmit};
use mcp_context::json::{Encode, to_string};
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::CacheScope;
use mcp_context::messages::owned::{
    OwnedDiscoverResult, OwnedImplementation, OwnedResponse, OwnedServerCapabilities,
};
use serde_json::{Value, json};

/// `$defs` type of a client message by method, and whether it belongs to the legacy schema.
fn schema_type(method: Option<&str>, legacy: bool, is_error: bool) -> Option<&'static str> {
    Some(match method {
        Some("server/discover") => "DiscoverRequest",
        Some("resources/list") => "ListResourcesRequest",
        Some("resources/templates/list") => "ListResourceTemplatesRequest",
        Some("resources/read") => "ReadResourceRequest",
        Some("prompts/list") => "ListPromptsRequest",
        Some("prompts/get") => "GetPromptRequest",
        Some("completion/complete") => "CompleteRequest",
        Some("subscriptions/listen") => "SubscriptionsListenRequest",
        Some("tools/list") => "ListToolsRequest",
        Some("tools/call") => "CallToolRequest",
        Some("notifications/cancelled") => "CancelledNotification",
        Some("initialize") => "InitializeRequest",
        Some("notifications/initialized") => "InitializedNotification",
        Some("resources/subscribe") => "SubscribeRequest",
        Some("resources/unsubscribe") => "UnsubscribeRequest",
        None if legacy && is_error => "JSONRPCErrorResponse",
        None if legacy => "JSONRPCResultResponse",
        _ => return None,
    })
}

fn emit(legacy: bool, type_name: &str, tag: &str, bytes: &[u8]) {
    let root = if legacy {
        "emitted-2025-11-25"
    } else {
        "emitted"
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target")
        .join(root)
        .join(type_name);
    std::fs::create_dir_all(&dir).expect("create emitted dir");
    std::fs::write(dir.join(format!("{tag}.json")), bytes).expect("write emitted message");
}

/// A sent message, parsed.
#[derive(Debug, Clone)]
pub struct Sent {
    pub transmit: Transmit,
    pub json: Value,
}

impl Sent {
    pub fn id(&self) -> i64 {
        self.transmit.id.expect("a request")
    }
    pub fn method(&self) -> &str {
        self.json["method"].as_str().unwrap_or("")
    }
    pub fn params(&self) -> &Value {
        &self.json["params"]
    }
}

pub struct Pair {
    pub client: Client,
    pub now: u64,
    pub sent: Vec<Sent>,
    pub events: Vec<Event>,
    pub closed_streams: Vec<i64>,
    tag: String,
    count: usize,
    legacy: bool,
}

impl Pair {
    pub fn new(tag: &str, config: ClientConfig) -> Self {
        Self {
            client: Client::new(config).expect("valid config"),
            now: 1_000,
            sent: Vec::new(),
            events: Vec::new(),
            closed_streams: Vec::new(),
            tag: tag.into(),
            count: 0,
            legacy: false,
        }
    }

    pub fn config() -> ClientConfig {
        ClientConfig::new("harness-client", "1.0.0")
    }

    /// A client connected to a modern server with `capabilities` (probe answered).
    pub fn modern(tag: &str) -> Self {
        Self::modern_with(tag, Self::config(), full_capabilities())
    }

    pub fn modern_with(
        tag: &str,
        config: ClientConfig,
        capabilities: OwnedServerCapabilities,
    ) -> Self {
        let mut p = Self::new(tag, config);
        p.client.connect(p.now);
        p.drain();
        let probe = p.take_sent().pop().expect("probe sent");
        assert_eq!(probe.method(), "server/discover");
        p.answer(probe.id(), discover_result(&["2026-07-28"], capabilities));
        let events = p.take_events();
        assert!(
            matches!(events.as_slice(), [Event::Connected(_)]),
            "{events:?}"
        );
        p
    }

    /// Drains every output (the drain rule), recording transmits and events.
    pub fn drain(&mut self) {
        while let Some(out) = self.client.poll_output() {
            match out {
                Output::Transmit(t) => self.record(t),
                Output::CloseStream { id } => self.closed_streams.push(id),
                Output::Event(e) => self.events.push(e),
            }
        }
    }

    fn record(&mut self, t: Transmit) {
        assert!(
            !t.bytes.contains(&b'\n'),
            "stdio messages MUST NOT contain newlines"
        );
        let json: Value = serde_json::from_slice(&t.bytes).expect("client emits JSON");
        let method = json["method"].as_str();
        if method == Some("initialize") {
            self.legacy = true;
        }
        let legacy = self.legacy && method != Some("server/discover");
        if let Some(ty) = schema_type(method, legacy, json.get("error").is_some()) {
            self.count += 1;
            emit(
                legacy,
                ty,
                &format!("client-{}-{}", self.tag, self.count),
                &t.bytes,
            );
        }
        self.sent.push(Sent { transmit: t, json });
    }

    pub fn take_sent(&mut self) -> Vec<Sent> {
        std::mem::take(&mut self.sent)
    }

    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The one message sent since the last take.
    pub fn one_sent(&mut self) -> Sent {
        let mut sent = self.take_sent();
        assert_eq!(sent.len(), 1, "{sent:#?}");
        sent.pop().expect("one")
    }

    /// The one event since the last take.
    pub fn one_event(&mut self) -> Event {
        let mut events = self.take_events();
        assert_eq!(events.len(), 1, "{events:#?}");
        events.pop().expect("one")
    }

    /// Feeds raw bytes from the server.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.client.handle_message(bytes, self.now);
        self.drain();
    }

    pub fn feed_json(&mut self, v: Value) {
        self.feed(v.to_string().as_bytes());
    }

    /// Answers request `id` with `result` (an owned result builder).
    pub fn answer<R: Encode>(&mut self, id: i64, result: R) {
        let response = OwnedResponse {
            id: OwnedRequestId::Int(id),
            result,
        };
        let text = to_string(&response).expect("encodes");
        self.feed(text.as_bytes());
    }

    /// Answers request `id` with a raw JSON `result`.
    pub fn answer_json(&mut self, id: i64, result: Value) {
        self.feed_json(json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    /// Answers request `id` with an error.
    pub fn error(&mut self, id: i64, code: i64, message: &str, data: Option<Value>) {
        let mut error = json!({"code": code, "message": message});
        if let Some(d) = data {
            error["data"] = d;
        }
        self.feed_json(json!({"jsonrpc": "2.0", "id": id, "error": error}));
    }

    /// Moves the clock and fires the timer if due.
    pub fn advance(&mut self, ms: u64) {
        self.now += ms;
        if self.client.poll_timeout().is_some_and(|t| t <= self.now) {
            self.client.handle_timeout(self.now);
        }
        self.drain();
    }

    pub fn close(&mut self) {
        self.client.handle_close(self.now);
        self.legacy = false;
        self.drain();
    }
}

pub fn full_capabilities() -> OwnedServerCapabilities {
    OwnedServerCapabilities {
        resources: Some(mcp_context::messages::ResourcesCapability {
            subscribe: Some(true),
            list_changed: Some(true),
        }),
        prompts: Some(mcp_context::messages::ListChangedCapability {
            list_changed: Some(true),
        }),
        completions: true,
        ..OwnedServerCapabilities::default()
    }
}

pub fn discover_result(
    versions: &[&str],
    capabilities: OwnedServerCapabilities,
) -> OwnedDiscoverResult {
    OwnedDiscoverResult {
        supported_versions: versions.iter().map(|v| (*v).to_string()).collect(),
        capabilities,
        instructions: None,
        ttl_ms: 60_000,
        cache_scope: CacheScope::Public,
        server_info: Some(OwnedImplementation::new("fake-server", "0.1.0")),
    }
}
