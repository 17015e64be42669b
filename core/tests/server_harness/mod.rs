//! Shared driver for the `server_*` transcript tests.
//!
//! [`H`] feeds messages to a [`Server`], drains every output, and checks each transmitted
//! message on the way out:
//! * it is one line of JSON that the crate's own decoder accepts, typed by the method of the
//!   request it answers;
//! * it is never a JSON-RPC request (docs/rules.md §16.1 rule 13) nor a notification type outside
//!   the listen vocabulary (rules 53, 55);
//! * results carry `resultType` (rule 6), `serverInfo` in `_meta` (rule 7), cache hints on
//!   complete cacheable results and none on `input_required` (rules 21, 23), and error codes
//!   are never -32002, -32042 or an undefined -32020…-32099 code (rule 9);
//! * it is recorded under `target/emitted/<SchemaType>/` for
//!   `tests/schema/validate_emitted.py`.
#![allow(dead_code, unreachable_pub)]

use std::collections::{BTreeMap, HashMap};

use mcp_context::jsonrpc::{Message, TypedResponse};
use mcp_context::messages as m;
use mcp_context::server::{
    Ctx, Event, Output, RouteInsertError, Server, ServerConfig, StreamId, TemplateId,
    TemplateRouter, Transmit,
};
use mcp_context::template::OwnedTemplate;
use serde_json::{Value, json};

pub const V: &str = "2026-07-28";
pub const STDIO: Ctx = Ctx::stdio(StreamId(0));

pub fn http(stream: u64) -> Ctx {
    Ctx::http(StreamId(stream), 0)
}

pub fn meta_with(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": caps,
    })
}

/// A request; `_meta` (no capabilities) is added to an object `params` that lacks it.
pub fn request(id: Value, method: &str, params: Value) -> Vec<u8> {
    let mut params = params;
    if let Value::Object(o) = &mut params
        && !o.contains_key("_meta")
    {
        o.insert("_meta".into(), meta_with(json!({})));
    }
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .unwrap()
}

pub fn notification(method: &str, params: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "method": method, "params": params})).unwrap()
}

pub fn json_of(t: &Transmit) -> Value {
    serde_json::from_slice(&t.bytes).unwrap()
}

pub fn transmits(outs: &[Output]) -> Vec<Transmit> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Transmit(t) => Some(t.clone()),
            Output::Event(_) => None,
        })
        .collect()
}

pub fn events(outs: &[Output]) -> Vec<Event> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Event(e) => Some(e.clone()),
            Output::Transmit(_) => None,
        })
        .collect()
}

/// The one transmit of `outs`, as JSON.
pub fn only(outs: &[Output]) -> Value {
    let t = transmits(outs);
    assert_eq!(t.len(), 1, "expected one transmit, got {outs:#?}");
    json_of(&t[0])
}

pub fn error_code(v: &Value) -> i64 {
    v["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {v}"))
}

const CACHEABLE: &[&str] = &[
    "server/discover",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "resources/read",
    "tools/list",
];

fn result_type_name(method: &str) -> Option<&'static str> {
    Some(match method {
        "server/discover" => "DiscoverResultResponse",
        "resources/list" => "ListResourcesResultResponse",
        "resources/templates/list" => "ListResourceTemplatesResultResponse",
        "resources/read" => "ReadResourceResultResponse",
        "prompts/list" => "ListPromptsResultResponse",
        "prompts/get" => "GetPromptResultResponse",
        "completion/complete" => "CompleteResultResponse",
        "subscriptions/listen" => "SubscriptionsListenResultResponse",
        "tools/list" => "ListToolsResultResponse",
        "tools/call" => "CallToolResultResponse",
        // Any other method with a result (the host's registered methods).
        "" => return None,
        _ => "JSONRPCResultResponse",
    })
}

fn notification_type_name(method: &str) -> &'static str {
    match method {
        "notifications/subscriptions/acknowledged" => "SubscriptionsAcknowledgedNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/cancelled" => "CancelledNotification",
        "notifications/progress" => "ProgressNotification",
        other => panic!("the server emitted a notification outside its vocabulary: {other}"),
    }
}

/// The typed decoder of the crate accepts the response (the codec's own oracle).
fn typed_decode(method: &str, bytes: &[u8]) {
    let ok = match method {
        "server/discover" => m::DiscoverResultResponse::decode(bytes).is_ok(),
        "resources/list" => m::ListResourcesResultResponse::decode(bytes).is_ok(),
        "resources/templates/list" => m::ListResourceTemplatesResultResponse::decode(bytes).is_ok(),
        "resources/read" => m::ReadResourceResultResponse::decode(bytes).is_ok(),
        "prompts/list" => m::ListPromptsResultResponse::decode(bytes).is_ok(),
        "prompts/get" => m::GetPromptResultResponse::decode(bytes).is_ok(),
        "completion/complete" => m::CompleteResultResponse::decode(bytes).is_ok(),
        "subscriptions/listen" => m::SubscriptionsListenResultResponse::decode(bytes).is_ok(),
        _ => TypedResponse::<mcp_context::json::RawJson<'_>>::decode(bytes).is_ok(),
    };
    assert!(
        ok,
        "typed decode failed for {method}: {}",
        String::from_utf8_lossy(bytes)
    );
}

pub struct H {
    pub server: Server,
    pub now: u64,
    pub expect_server_info: bool,
    tag: String,
    n: usize,
    methods: HashMap<(u64, String), String>,
}

impl H {
    pub fn new(tag: &str, server: Server) -> Self {
        let expect_server_info = server.config().server_info.is_some();
        Self {
            server,
            now: 1_000,
            expect_server_info,
            tag: tag.into(),
            n: 0,
            methods: HashMap::new(),
        }
    }

    pub fn with(tag: &str, config: ServerConfig) -> Self {
        Self::new(tag, Server::new(config).unwrap())
    }

    /// Sends raw bytes and drains.
    pub fn send(&mut self, ctx: Ctx, bytes: &[u8]) -> Vec<Output> {
        if let Ok(v) = serde_json::from_slice::<Value>(bytes)
            && let (Some(id), Some(method)) = (v.get("id"), v.get("method").and_then(Value::as_str))
        {
            self.methods
                .insert((ctx.stream.0, id.to_string()), method.to_string());
        }
        self.server.handle_message(bytes, self.now, ctx);
        self.drain()
    }

    pub fn call(&mut self, ctx: Ctx, id: Value, method: &str, params: Value) -> Vec<Output> {
        self.send(ctx, &request(id, method, params))
    }

    /// One request on stdio whose answer is one transmit.
    pub fn ask(&mut self, method: &str, params: Value) -> Value {
        let outs = self.call(STDIO, json!(1), method, params);
        only(&outs)
    }

    /// Every output at once (`Server::drain`), each transmit checked.
    pub fn drain(&mut self) -> Vec<Output> {
        let mut outs = Vec::new();
        self.server.drain(&mut outs);
        for o in &outs {
            if let Output::Transmit(t) = o {
                self.check(t);
            }
        }
        outs
    }

    /// One HTTP request through the entry point (`Server::handle_http`) on stream `stream`,
    /// then a drain. A complete answer is checked like any transmit (and recorded); the
    /// outputs drained after it come second.
    pub fn http(
        &mut self,
        head: &mcp_context::http::RequestHead<'_>,
        body: &[u8],
        stream: u64,
    ) -> (mcp_context::http::HttpStart, Vec<Output>) {
        if let Ok(v) = serde_json::from_slice::<Value>(body)
            && let (Some(id), Some(method)) = (v.get("id"), v.get("method").and_then(Value::as_str))
        {
            self.methods
                .insert((stream, id.to_string()), method.to_string());
        }
        let start = self
            .server
            .handle_http(head, body, self.now, Ctx::http(StreamId(stream), 0));
        if let mcp_context::http::HttpStart::Respond(r) = &start
            && !r.body.is_empty()
        {
            self.check(&Transmit {
                stream: StreamId(stream),
                bytes: r.body.clone(),
                http_status: r.status,
                kind: mcp_context::server::BodyKind::Json,
                end_of_stream: true,
            });
        }
        (start, self.drain())
    }

    fn emit(&mut self, type_name: &str, bytes: &[u8]) {
        self.n += 1;
        crate::common::emit(type_name, &format!("server-{}-{}", self.tag, self.n), bytes);
    }

    fn check(&mut self, t: &Transmit) {
        assert!(!t.bytes.contains(&b'\n'), "embedded newline");
        let v: Value = serde_json::from_slice(&t.bytes).expect("transmit is JSON");
        let msg = Message::decode(&t.bytes).expect("transmit decodes");
        if let Some(method) = v.get("method").and_then(Value::as_str) {
            assert!(v.get("id").is_none(), "the server sent a request: {v}");
            assert!(matches!(msg, Message::Notification(_)));
            let name = notification_type_name(method);
            self.emit(name, &t.bytes);
            return;
        }
        let method = v
            .get("id")
            .and_then(|id| self.methods.get(&(t.stream.0, id.to_string())))
            .cloned()
            .unwrap_or_default();
        if let Some(e) = v.get("error") {
            let code = e["code"].as_i64().unwrap();
            assert!(code != -32002 && code != -32042, "legacy code {code}");
            assert!(
                !(-32099..=-32020).contains(&code) || (-32022..=-32020).contains(&code),
                "undefined reserved code {code}"
            );
            self.emit("JSONRPCErrorResponse", &t.bytes);
            let specific = match code {
                -32022 => Some("UnsupportedProtocolVersionError"),
                -32021 => Some("MissingRequiredClientCapabilityError"),
                _ => None,
            };
            if let Some(name) = specific {
                self.emit(name, &t.bytes);
            }
            return;
        }
        let r = &v["result"];
        let rt = r["resultType"]
            .as_str()
            .expect("resultType on every result");
        if self.expect_server_info {
            assert!(
                r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].is_string(),
                "serverInfo missing: {v}"
            );
        }
        match rt {
            "complete" if CACHEABLE.contains(&method.as_str()) => {
                assert!(r["ttlMs"].as_u64().is_some(), "ttlMs missing: {v}");
                assert!(
                    matches!(r["cacheScope"].as_str(), Some("public" | "private")),
                    "cacheScope missing: {v}"
                );
            }
            "complete" => {}
            "input_required" => {
                // Never on the core's lists, discover, completion or listen (the public
                // spec, "Multi Round-Trip Requests"); registered methods may ask.
                assert!(
                    !CACHEABLE.contains(&method.as_str()) || method == "resources/read",
                    "input_required on {method}"
                );
                assert!(!matches!(
                    method.as_str(),
                    "completion/complete" | "subscriptions/listen"
                ));
                assert!(r.get("ttlMs").is_none() && r.get("cacheScope").is_none());
                assert!(r.get("inputRequests").is_some() || r.get("requestState").is_some());
            }
            other => panic!("unknown resultType {other}"),
        }
        typed_decode(&method, &t.bytes);
        if let Some(name) = result_type_name(&method) {
            self.emit(name, &t.bytes);
        }
    }
}

/// A router for tests and examples that knows a finite set of URIs, built by EXPANDING each
/// template with listed variable values (the crate's RFC 6570 expander). It is a lookup
/// table, not a matcher; the real router replaces it.
type Vars = Vec<(String, String)>;

#[derive(Default)]
pub struct ExpansionRouter {
    values: Vec<(String, Vec<Vars>)>,
    table: BTreeMap<String, (TemplateId, Vec<(String, String)>)>,
    ids: BTreeMap<TemplateId, Vec<String>>,
}

impl ExpansionRouter {
    /// Every URI `template` expands to with one of `assignments` will route to it.
    pub fn values(mut self, template: &str, assignments: &[&[(&str, &str)]]) -> Self {
        let list = assignments
            .iter()
            .map(|a| {
                a.iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            })
            .collect();
        self.values.push((template.into(), list));
        self
    }
}

impl TemplateRouter for ExpansionRouter {
    fn insert(&mut self, id: TemplateId, template: &str) -> Result<(), RouteInsertError> {
        let t = OwnedTemplate::parse(template).map_err(|_| RouteInsertError::Unsupported)?;
        let mut uris = Vec::new();
        for (src, list) in &self.values {
            if src != template {
                continue;
            }
            for vars in list {
                let pairs: Vec<(&str, &str)> =
                    vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                let uri = t
                    .expand(&pairs[..])
                    .map_err(|_| RouteInsertError::Unsupported)?;
                self.table.insert(uri.clone(), (id, vars.clone()));
                uris.push(uri);
            }
        }
        self.ids.insert(id, uris);
        Ok(())
    }

    fn remove(&mut self, id: TemplateId) {
        for uri in self.ids.remove(&id).unwrap_or_default() {
            self.table.remove(&uri);
        }
    }

    fn route(&self, uri: &str) -> Option<(TemplateId, Vec<(String, String)>)> {
        self.table.get(uri).cloned()
    }
}

// ---- a small catalogue --------------------------------------------------------------------

use mcp_context::messages::owned::{
    OwnedPrompt, OwnedPromptArgument, OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{CacheHint, PromptEntry, ResourceEntry, TemplateEntry};

pub const NOTE_TEMPLATE: &str = "notes://{project}/{id}";

pub fn arg(name: &str, required: bool) -> OwnedPromptArgument {
    OwnedPromptArgument {
        name: name.into(),
        required: Some(required),
        ..Default::default()
    }
}

pub fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Static text and binary resources answered by the machine, one resource answered by the
/// application, the notes template (routable for acme/1, acme/2, zeta/9) and the
/// `review_note` prompt, with value sets for `project` and `tone`.
pub fn catalogue(config: ServerConfig) -> Server {
    let mut s = Server::new(config).unwrap();
    let router = ExpansionRouter::default().values(
        NOTE_TEMPLATE,
        &[
            &[("project", "acme"), ("id", "1")],
            &[("project", "acme"), ("id", "2")],
            &[("project", "zeta"), ("id", "9")],
        ],
    );
    s.set_router(Box::new(router)).unwrap();
    s.add_resource(ResourceEntry {
        resource: OwnedResource {
            mime_type: Some("text/plain".into()),
            ..OwnedResource::new("test://static-text", "static-text")
        },
        contents: Some(vec![OwnedResourceContents::text(
            "test://static-text",
            Some("text/plain"),
            "hello",
        )]),
        cache: Some(CacheHint::public(60_000)),
    })
    .unwrap();
    s.add_resource(ResourceEntry {
        resource: OwnedResource::new("test://static-binary", "static-binary"),
        contents: Some(vec![OwnedResourceContents::blob(
            "test://static-binary",
            Some("application/octet-stream"),
            &[0, 1, 2, 250, 255],
        )]),
        cache: None,
    })
    .unwrap();
    s.add_resource(ResourceEntry {
        resource: OwnedResource::new("notes://acme/index", "acme index"),
        contents: None,
        cache: None,
    })
    .unwrap();
    s.add_template(TemplateEntry {
        template: OwnedResourceTemplate::new(NOTE_TEMPLATE, "note"),
        cache: Some(CacheHint::private(5_000)),
        completions: vec![("project".into(), strings(&["acme", "apollo", "zeta"]))],
    })
    .unwrap();
    s.add_prompt(PromptEntry {
        prompt: OwnedPrompt {
            name: "review_note".into(),
            arguments: vec![arg("project", true), arg("id", true), arg("tone", false)],
            ..Default::default()
        },
        completions: vec![("tone".into(), strings(&["brief", "blunt", "detailed"]))],
    })
    .unwrap();
    s
}
