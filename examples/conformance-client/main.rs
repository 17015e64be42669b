//! A conformance client for the official MCP conformance suite's client scenarios
//! (`conformance client --command <this binary>`), built on the mcp-context client machine.
//!
//! The suite starts a scenario server, then runs this program with the server URL as its
//! last argument, the scenario in `MCP_CONFORMANCE_SCENARIO` and, for some scenarios, the
//! calls to make in `MCP_CONFORMANCE_CONTEXT` (JSON). Every message goes through
//! [`Client`]: the per-request `_meta`, ids, version negotiation, the `input_required` loop,
//! the `x-mcp-header` screening and the `Mcp-*` headers are the machine's; this program only
//! moves bytes ([`http`]) and decides what to call.
//!
//! A protected server's 401 or 403 goes to the core's authorization flow
//! ([`mcp_context::auth::Authorizer`]): this program carries its fetches, plays the user
//! agent (requests the authorization URL and hands the redirect's `Location` back, as the
//! suite's authorization servers answer at once), keeps the tokens in memory and re-sends the
//! request with the `Authorization` value the flow gives.
//!
//! Usage: `conformance-client <url>` (exit status 0 when the scenario's calls completed).

mod http;

use std::collections::VecDeque;
use std::process::ExitCode;
use std::time::Instant;

use mcp_context::auth::{Action, AuthConfig, Authorizer, ENTROPY_LEN, HttpMethod, PreRegistered};
use mcp_context::client::{
    CachePolicy, CallId, Client, ClientConfig, Event, ListMode, Output, Transmit, Transport,
};
use mcp_context::json::RawJson;
use mcp_context::messages::owned::{OwnedInputRequest, OwnedJson};
use serde_json::{Value, json};

/// Where the authorization server sends the user agent back (never served: the redirect's
/// `Location` is read, not followed).
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The Client ID Metadata Document URL the suite's scenarios expect.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
/// Authorization flows run for one request before it fails.
const MAX_FLOWS_PER_REQUEST: usize = 4;

/// The client machine plus its transport: every output is carried at once.
struct Session {
    client: Client,
    endpoint: http::Endpoint,
    url: String,
    auth: Authorizer,
    started: Instant,
    events: VecDeque<Event>,
}

impl Session {
    fn new(url: &str, context: &Value) -> Result<Self, String> {
        let mut config = ClientConfig::new("mcp-context-conformance-client", "0.1.0");
        config.transport = Transport::Http;
        config.capabilities = OwnedJson::parse(r#"{"elicitation":{"form":{}},"roots":{}}"#)
            .map_err(|e| e.to_string())?;
        let mut auth = AuthConfig::new(url, REDIRECT_URI, "mcp-context-conformance-client");
        auth.client_id_metadata_document = Some(CLIENT_METADATA_URL.into());
        if let (Some(issuer), Some(client_id)) =
            (context["issuer"].as_str(), context["client_id"].as_str())
        {
            auth.pre_registered.push(PreRegistered {
                issuer: issuer.into(),
                client_id: client_id.into(),
                client_secret: context["client_secret"].as_str().map(String::from),
            });
        }
        Ok(Self {
            client: Client::new(config).map_err(|e| e.to_string())?,
            endpoint: http::Endpoint::parse(url)?,
            url: url.to_string(),
            auth: Authorizer::new(auth).map_err(|e| e.to_string())?,
            started: Instant::now(),
            events: VecDeque::new(),
        })
    }

    /// Runs the authorization flow for a 401/403 answer until it gives the request back
    /// (`Ok`: re-send it) or gives up.
    fn authorize(&mut self, status: u16, www_authenticate: Option<&str>) -> Result<(), String> {
        let now = self.now();
        self.auth
            .handle_challenge(status, www_authenticate, &entropy()?, now);
        self.drive_auth()
    }

    /// Carries the flow's actions until it retries, fails or has nothing left to do.
    fn drive_auth(&mut self) -> Result<(), String> {
        while let Some(action) = self.auth.poll_action() {
            let now = self.now();
            match action {
                Action::Fetch(f) => {
                    let method = match f.method {
                        HttpMethod::Get => "GET",
                        HttpMethod::Post => "POST",
                    };
                    let headers: Vec<(&str, &str)> =
                        f.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    match http::request(method, &f.url, &headers, &f.body) {
                        Ok(r) => self.auth.handle_fetched(f.id, r.status, &r.body, now),
                        Err(e) => {
                            eprintln!("auth: {method} {} failed: {e}", f.url);
                            self.auth.handle_fetch_failed(f.id, now);
                        }
                    }
                }
                // The user agent: the suite's authorization endpoint redirects at once.
                Action::Authorize { url } => {
                    let r = http::request("GET", &url, &[], &[]).map_err(|e| e.to_string())?;
                    let location = r
                        .header("location")
                        .ok_or_else(|| {
                            format!("authorization: status {} without a redirect", r.status)
                        })?
                        .to_string();
                    self.auth.handle_redirect(&location, now);
                }
                // The token store is this process's memory: the flow keeps them.
                Action::StoreTokens(_) => {}
                Action::Retry { .. } => return Ok(()),
                Action::Failed(e) => return Err(format!("authorization: {e}")),
            }
        }
        Ok(())
    }

    fn now(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The drain rule: carries every output until the machine has nothing more to say.
    fn pump(&mut self) {
        while let Some(out) = self.client.poll_output() {
            match out {
                Output::Transmit(t) => self.post(&t),
                // Blocking one-shot POSTs: the stream is already closed.
                Output::CloseStream { .. } => {}
                Output::Event(e) => self.events.push_back(e),
            }
        }
        if self
            .client
            .poll_timeout()
            .is_some_and(|deadline| deadline <= self.now())
        {
            let now = self.now();
            self.client.handle_timeout(now);
            self.pump();
        }
    }

    /// POSTs one message with the headers the machine gives, and feeds back every JSON-RPC
    /// message of the answer (JSON or SSE, any status: a 400 carries a JSON-RPC error).
    fn post(&mut self, t: &Transmit) {
        let answers = |m: &[u8]| {
            let v: Value = serde_json::from_slice(m).unwrap_or(Value::Null);
            t.id.is_some_and(|id| v["id"] == json!(id))
                && (v.get("result").is_some() || v.get("error").is_some())
        };
        let mut flows = 0;
        let response = loop {
            let now = self.now();
            if self.auth.refresh_due(now) {
                self.auth.start_refresh(now);
                if let Err(e) = self.drive_auth() {
                    eprintln!("{e}");
                }
            }
            let authorization = self.auth.authorization_header(&self.url, self.now());
            let headers = t.http_headers();
            let mut headers: Vec<(&str, &str)> =
                headers.iter().map(|(k, v)| (*k, v.as_ref())).collect();
            if let Some(a) = &authorization {
                headers.push(("Authorization", a));
            }
            let response = http::post(&self.endpoint, &headers, &t.bytes, &|ms| {
                ms.iter().any(|m| answers(m))
            });
            match &response {
                Ok(r) if matches!(r.status, 401 | 403) && flows < MAX_FLOWS_PER_REQUEST => {
                    flows += 1;
                    let www = r.header("www-authenticate").map(String::from);
                    match self.authorize(r.status, www.as_deref()) {
                        Ok(()) => continue,
                        Err(e) => eprintln!("{e}"),
                    }
                }
                Ok(r) if (200..300).contains(&r.status) => self.auth.handle_success(),
                _ => {}
            }
            break response;
        };
        let now = self.now();
        match response {
            Ok(r) => {
                let messages = r.messages();
                // A refusal that does not answer this request by its id (an empty body, or
                // an error with a null id: the server could not read it) fails the request.
                if !(200..300).contains(&r.status)
                    && !messages.iter().any(|m| answers(m))
                    && let Some(id) = t.id
                {
                    self.client.handle_request_failed(id, now);
                }
                for m in messages {
                    self.client.handle_message(&m, now);
                }
            }
            Err(e) => {
                eprintln!("POST failed: {e}");
                if let Some(id) = t.id {
                    self.client.handle_request_failed(id, now);
                }
            }
        }
    }

    /// Runs until an event about `call` arrives (or nothing is left to wait for).
    fn wait(&mut self, call: CallId) -> Result<Event, String> {
        loop {
            self.pump();
            if let Some(i) = self.events.iter().position(|e| event_call(e) == Some(call)) {
                return Ok(self.events.remove(i).unwrap_or_else(|| unreachable!()));
            }
            while let Some(e) = self.events.pop_front() {
                match e {
                    Event::ConnectFailed(e) => return Err(format!("connect failed: {e}")),
                    other => eprintln!("event: {other:?}"),
                }
            }
            if self.client.outstanding() == 0 {
                return Err(format!("{call}: no answer"));
            }
        }
    }

    /// A method the machine does not own, `input_required` answered by [`fulfil`];
    /// `before_input` runs once before the first answer (used by the MRTR scenario).
    fn request(
        &mut self,
        method: &str,
        params: &str,
        before_input: &mut dyn FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<String, String> {
        let params = OwnedJson::parse(params).map_err(|e| format!("params: {e}"))?;
        let now = self.now();
        let call = self
            .client
            .request(method, params, now)
            .map_err(|e| format!("{method}: {e}"))?;
        loop {
            match self.wait(call)? {
                Event::Responded { result, .. } => return Ok(format!("{result:?}")),
                Event::InputRequired { requests, .. } => {
                    before_input(self)?;
                    let now = self.now();
                    self.client
                        .respond_input(call, fulfil(&requests), now)
                        .map_err(|e| format!("{method}: {e}"))?;
                }
                Event::Failed { error, .. } => return Err(format!("{method}: {error}")),
                other => return Err(format!("{method}: unexpected {other:?}")),
            }
        }
    }

    fn simple(&mut self, method: &str, params: &str) -> Result<String, String> {
        self.request(method, params, &mut |_| Ok(()))
    }
}

/// Fresh random bytes for the flow's PKCE verifier and `state`.
fn entropy() -> Result<[u8; ENTROPY_LEN], String> {
    use std::io::Read;
    let mut bytes = [0u8; ENTROPY_LEN];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("no random bytes: {e}"))?;
    Ok(bytes)
}

fn event_call(e: &Event) -> Option<CallId> {
    match e {
        Event::Responded { call, .. }
        | Event::InputRequired { call, .. }
        | Event::Failed { call, .. }
        | Event::ResourcesListed { call, .. }
        | Event::PromptsListed { call, .. }
        | Event::ResourceRead { call, .. }
        | Event::PromptFetched { call, .. } => Some(*call),
        _ => None,
    }
}

/// What a user would answer: accept elicitations (confirming), no roots, a canned sample.
fn fulfil(requests: &[(String, OwnedInputRequest)]) -> Vec<(String, OwnedJson)> {
    requests
        .iter()
        .map(|(key, r)| {
            let answer = match r.method.as_str() {
                "elicitation/create" => r#"{"action":"accept","content":{"confirmed":true}}"#,
                "roots/list" => r#"{"roots":[]}"#,
                _ => {
                    r#"{"role":"assistant","content":{"type":"text","text":"ok"},"model":"none","stopReason":"endTurn"}"#
                }
            };
            (
                key.clone(),
                OwnedJson::parse(answer).unwrap_or_else(|_| OwnedJson::empty_object()),
            )
        })
        .collect()
}

/// The tools of a `tools/list` result (the machine already left out rejected ones): name
/// and the raw `inputSchema` text, exactly as the server sent it.
fn tools(result: &str) -> Vec<(String, String)> {
    let Ok(v) = RawJson::parse(result.as_bytes()) else {
        return Vec::new();
    };
    v.get("tools")
        .and_then(|t| t.array())
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let name = t.get("name")?.as_str()?.to_cow().into_owned();
            let schema = t.get("inputSchema").map_or("{}", |s| s.as_text());
            Some((name, schema.to_string()))
        })
        .collect()
}

/// Arguments for a tool the scenario gives no arguments for: a plausible value for each
/// required property, by its declared type.
fn arguments_for(schema: &str) -> Value {
    let schema: Value = serde_json::from_str(schema).unwrap_or(Value::Null);
    let mut args = serde_json::Map::new();
    for name in schema["required"].as_array().into_iter().flatten() {
        let Some(name) = name.as_str() else { continue };
        let value = match schema["properties"][name]["type"].as_str() {
            Some("number" | "integer") => json!(2),
            Some("boolean") => json!(true),
            Some("object") => json!({}),
            Some("array") => json!([]),
            _ => json!("us-west1"),
        };
        args.insert(name.to_string(), value);
    }
    Value::Object(args)
}

fn call_tool(s: &mut Session, name: &str, arguments: &Value) -> Result<String, String> {
    let params = json!({"name": name, "arguments": arguments}).to_string();
    s.simple("tools/call", &params)
}

/// Lists the tools and calls each one: with the context's arguments when it names the tool,
/// else with arguments made up from its schema.
fn list_and_call_tools(s: &mut Session, context: &Value) -> Result<(), String> {
    let listed = tools(&s.simple("tools/list", "{}")?);
    let given = context["toolCalls"].as_array().cloned().unwrap_or_default();
    for (name, schema) in &listed {
        let from_context: Vec<&Value> = given.iter().filter(|c| c["name"] == **name).collect();
        if from_context.is_empty() {
            call_tool(s, name, &arguments_for(schema))?;
        }
        for c in from_context {
            call_tool(s, name, &c["arguments"])?;
        }
    }
    Ok(())
}

/// SEP-2322: a tool answers `input_required`; an unrelated call happens before the retry,
/// and carries none of the first call's MRTR state.
fn request_state(s: &mut Session) -> Result<(), String> {
    let listed = tools(&s.simple("tools/list", "{}")?);
    let has = |n: &str| listed.iter().any(|(name, _)| name == n);
    let mut unrelated_once = |s: &mut Session| -> Result<(), String> {
        if has("test_mrtr_unrelated") {
            call_tool(s, "test_mrtr_unrelated", &json!({}))?;
        }
        Ok(())
    };
    for (name, _) in &listed {
        if name == "test_mrtr_unrelated" {
            continue;
        }
        let params = json!({"name": name, "arguments": {}}).to_string();
        s.request("tools/call", &params, &mut unrelated_once)?;
    }
    Ok(())
}

/// Tools, then every resource read and every prompt fetched: each method's standard headers.
fn standard_headers(s: &mut Session, context: &Value) -> Result<(), String> {
    list_and_call_tools(s, context)?;
    let now = s.now();
    let call = s
        .client
        .list_resources(ListMode::All, CachePolicy::Refresh, now);
    if let Event::ResourcesListed { listing, .. } = s.wait(call)? {
        for page in &listing.pages {
            let uris: Vec<String> = page
                .view()
                .map(|v| {
                    v.items
                        .iter()
                        .map(|r| r.uri.to_cow().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            for uri in uris {
                let now = s.now();
                let call = s.client.read_resource(&uri, CachePolicy::Refresh, now);
                s.wait(call)?;
            }
        }
    }
    let now = s.now();
    let call = s
        .client
        .list_prompts(ListMode::All, CachePolicy::Refresh, now);
    if let Event::PromptsListed { listing, .. } = s.wait(call)? {
        for page in &listing.pages {
            let prompts: Vec<(String, Vec<String>)> = page
                .view()
                .map(|v| {
                    v.items
                        .iter()
                        .map(|p| {
                            let required = p
                                .arguments
                                .iter()
                                .flat_map(|a| a.iter())
                                .filter(|a| a.required == Some(true))
                                .map(|a| a.name.to_cow().into_owned())
                                .collect();
                            (p.name.to_cow().into_owned(), required)
                        })
                        .collect()
                })
                .unwrap_or_default();
            for (name, required) in prompts {
                let args: Vec<(&str, &str)> = required.iter().map(|a| (a.as_str(), "x")).collect();
                let now = s.now();
                let call = s.client.get_prompt(&name, &args, now);
                s.wait(call)?;
            }
        }
    }
    Ok(())
}

/// SEP-1613: the focal tool's `inputSchema` goes back verbatim to the echo tool.
fn schema_preservation(s: &mut Session) -> Result<(), String> {
    let listed = tools(&s.simple("tools/list", "{}")?);
    let (_, schema) = listed
        .iter()
        .find(|(n, _)| n == "json_schema_2020_12_tool")
        .ok_or("focal tool not listed")?;
    let params = format!(r#"{{"name":"json_schema_echo","arguments":{{"schema":{schema}}}}}"#);
    s.simple("tools/call", &params).map(drop)
}

fn run(s: &mut Session, scenario: &str, context: &Value) -> Result<(), String> {
    match scenario {
        "request-metadata" => {
            // The probe is `server/discover`; then a request of the session.
            s.simple("tools/list", "{}").map(drop)
        }
        "sep-2322-client-request-state" => request_state(s),
        "http-standard-headers" => standard_headers(s, context),
        "json-schema-2020-12-preservation" => schema_preservation(s),
        "json-schema-ref-no-deref" => s.simple("tools/list", "{}").map(drop),
        // tools_call, http-custom-headers, http-invalid-tool-headers and anything else.
        _ => list_and_call_tools(s, context),
    }
}

fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: conformance-client <server-url>");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let result = Session::new(&url, &context).and_then(|mut s| run(&mut s, &scenario, &context));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{scenario}: {e}");
            ExitCode::FAILURE
        }
    }
}
