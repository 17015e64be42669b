//! The server machine as both engines expose it (`ServerMachine`): the core's `Server`, the
//! handles of the events handed out (the core's `Handle` cannot be rebuilt from its number),
//! structured inputs as JSON text through the core's decoders, and outputs as JS-shaped
//! values. An engine adds only its FFI: reading JS arguments, rendering [`Polled`].

use std::collections::HashMap;

use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedInputRequest, OwnedJson, OwnedPrompt, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate, OwnedTool,
};
use mcp_context::server::{
    BodyKind, CacheHint, CancelReason, CompletionTarget, Ctx, DeclaredCapabilities, Event, Failure,
    Handle, InputRequired, Output, PromptEntry, ReadTarget, Received, RegisterError, ResourceEntry,
    RespondError, Retry, Server, ServerConfig, StreamId, TemplateEntry, Transport,
};

use mcp_context::messages::LoggingLevel;
use mcp_context::stdio::{Line, LineSplitter};

use crate::error::{Error, Result, decode};
use crate::value::{Js, Obj, header_pairs};

fn register_error(what: &str, e: &RegisterError) -> Error {
    Error::ident(e.ident(), format!("{what}: {e}"))
}

fn respond_error(e: &RespondError) -> Error {
    Error::Refused {
        code: crate::spell::err_code(e.ident()),
        message: e.to_string(),
        late: e.is_late(),
    }
}

/// An output or HTTP answer: its JS shape, and the bytes that go with it (a transmit's
/// `bytes`, a response's `body`), kept apart so an engine hands them over as it moves bytes.
#[derive(Debug)]
pub struct Polled {
    /// The object.
    pub shape: Obj,
    /// `bytes` (transmit) or `body` (response), when the output has them.
    pub bytes: Option<Vec<u8>>,
}

mod http;
mod raw;
pub use http::Head;
pub(crate) use http::response;
pub use raw::{Raw, ReadParts};

/// Where a message came from: `stream`, `auth`, `transport` (`'stdio'` or `'http'`), the
/// client's IP address `peer` (HTTP; text that is not an IP address is no peer: no
/// per-peer bound on 2025-11-25 sessions).
pub fn context(stream: u64, auth: u64, transport: Option<&str>, peer: Option<&str>) -> Result<Ctx> {
    let transport = match transport {
        None | Some("stdio") => Transport::Stdio,
        Some("http") => Transport::Http,
        Some(other) => {
            return Err(Error::Type(format!(
                "context.transport must be 'stdio' or 'http', not '{other}'"
            )));
        }
    };
    Ok(Ctx {
        stream: StreamId(stream),
        auth,
        transport,
        peer: peer.and_then(|p| p.parse().ok()),
        scopes: None,
    })
}

/// A `fail` call's `{kind, message, code}` as the core's `Failure` (`crate::spell::failure`;
/// another kind is a `TypeError`).
pub fn failure(kind: &str, message: Option<String>, code: Option<i32>) -> Result<Failure> {
    crate::spell::failure(kind, message, code).map_err(Error::Type)
}

/// The server machine with its handles.
pub struct ServerAdapter {
    inner: Server,
    handles: HashMap<u64, Handle>,
    pub(crate) lines: HashMap<u64, LineSplitter>,
    /// Requests stopped at the gate, by id (`crate::gate`).
    pub(crate) gates: crate::gate::Gates,
}

impl ServerAdapter {
    /// A machine with `config`.
    pub fn new(config: ServerConfig) -> Result<Self> {
        let inner = Server::new(config).map_err(|e| Error::context("ERR_CONFIG", e.to_string()))?;
        Ok(Self {
            inner,
            handles: HashMap::new(),
            lines: HashMap::new(),
            gates: crate::gate::Gates::default(),
        })
    }

    /// The core machine, for the calls that need no conversion.
    pub fn machine(&mut self) -> &mut Server {
        &mut self.inner
    }

    /// The core machine, read-only.
    #[must_use]
    pub fn machine_ref(&self) -> &Server {
        &self.inner
    }

    /// Registers a static resource (JSON texts: the resource, its contents, a cache hint).
    pub fn add_resource(
        &mut self,
        resource: &str,
        contents: Option<&str>,
        cache: Option<CacheHint>,
    ) -> Result<()> {
        let resource = decode::<OwnedResource>(resource, "resource")?;
        let contents = contents
            .map(|c| decode::<Vec<OwnedResourceContents>>(c, "contents"))
            .transpose()?;
        self.inner
            .add_resource(ResourceEntry {
                resource,
                contents,
                cache,
            })
            .map_err(|e| register_error("addResource", &e))
    }

    /// Registers a resource template (JSON text) with a cache hint and value sets.
    pub fn add_template(
        &mut self,
        template: &str,
        cache: Option<CacheHint>,
        completions: Vec<(String, Vec<String>)>,
    ) -> Result<()> {
        let template = decode::<OwnedResourceTemplate>(template, "template")?;
        self.inner
            .add_template(TemplateEntry {
                template,
                cache,
                completions,
            })
            .map(|_| ())
            .map_err(|e| register_error("addTemplate", &e))
    }

    /// Registers a prompt (JSON text) with value sets per argument.
    pub fn add_prompt(
        &mut self,
        prompt: &str,
        completions: Vec<(String, Vec<String>)>,
    ) -> Result<()> {
        let prompt = decode::<OwnedPrompt>(prompt, "prompt")?;
        self.inner
            .add_prompt(PromptEntry {
                prompt,
                completions,
            })
            .map_err(|e| register_error("addPrompt", &e))
    }

    /// Replaces a resource's stored contents (JSON text; `None`: ask the application).
    pub fn set_resource_contents(&mut self, uri: &str, contents: Option<&str>) -> Result<bool> {
        let contents = contents
            .map(|c| decode::<Vec<OwnedResourceContents>>(c, "contents"))
            .transpose()?;
        Ok(self.inner.set_resource_contents(uri, contents))
    }

    /// Registers a tool (JSON text of a `Tool`) in the core's registry: `tools/list` and
    /// `tools/call` are the core's, each call a `callTool` event.
    pub fn add_tool(&mut self, tool: &str) -> Result<()> {
        let tool = decode::<OwnedTool>(tool, "tool")?;
        self.inner
            .add_tool(tool)
            .map_err(|e| register_error("addTool", &e))
    }

    /// Answers a `callTool` event with a `CallToolResult` (JSON text).
    pub fn respond_tool(&mut self, handle: u64, result: &str) -> Result<()> {
        let result = decode::<OwnedJson>(result, "result")?;
        self.answer(handle, |s, h| s.respond_tool(h, result))
    }

    /// Answers a `callTool` event whose tool failed: a result with `isError: true` and
    /// `message` as its text.
    pub fn respond_tool_error(&mut self, handle: u64, message: &str) -> Result<()> {
        self.answer(handle, |s, h| s.respond_tool_error(h, message))
    }

    /// Serves an extension method.
    pub fn add_method(&mut self, method: &str) -> Result<()> {
        self.inner
            .add_method(method)
            .map_err(|e| register_error("addMethod", &e))
    }

    /// Announces `key: value` (JSON text of an object) in `server/discover`.
    pub fn set_capability(&mut self, key: &str, value: &str) -> Result<()> {
        let value = decode::<OwnedJson>(value, "value")?;
        self.inner
            .set_capability(key, value)
            .map_err(|e| register_error("setCapability", &e))
    }

    /// Handles one message: `'request'`, `'notification'`, `'response'` or `'invalid'`.
    pub fn handle_message(&mut self, message: &[u8], now: u64, ctx: Ctx) -> &'static str {
        match self.inner.handle_message(message, now, ctx) {
            Received::Request => "request",
            Received::Notification => "notification",
            Received::Response => "response",
            _ => "invalid",
        }
    }

    /// The next output, or `None`.
    pub fn poll(&mut self) -> Option<Polled> {
        let o = self.inner.poll_output()?;
        Some(self.polled(o))
    }

    fn polled(&mut self, o: Output) -> Polled {
        match o {
            Output::Transmit(t) => {
                let mut o = Obj::typed("transmit");
                o.set(
                    "headers",
                    header_pairs(t.http_headers().iter().map(|(k, v)| (*k, *v))),
                )
                .set("stream", t.stream.0)
                .set("httpStatus", t.http_status)
                .set(
                    "kind",
                    match t.kind {
                        BodyKind::Json => "json",
                        BodyKind::Sse => "sse",
                    },
                )
                .set("endOfStream", t.end_of_stream);
                Polled {
                    shape: o,
                    bytes: Some(t.bytes),
                }
            }
            Output::Event(e) => Polled {
                shape: self.event(e),
                bytes: None,
            },
        }
    }

    /// Every queued output, in order (the core's `drain`).
    pub fn drain(&mut self) -> Vec<Polled> {
        let mut out = Vec::new();
        self.inner.drain(&mut out);
        out.into_iter().map(|o| self.polled(o)).collect()
    }

    /// The core limit `key` names, in camelCase (`pageSize`, `maxLine`, …: one of
    /// `ServerConfig::LIMITS`); `None` for another name.
    #[must_use]
    pub fn limit(&self, key: &str) -> Option<u64> {
        let config = self.inner.config();
        mcp_context::server::ServerConfig::LIMITS
            .iter()
            .find(|name| crate::spell::camel(name) == key)
            .and_then(|name| config.limit(name))
    }

    /// Bytes read from a stdio stream: split into lines by the core's `LineSplitter` (one
    /// per stream, bounded by `max_line`), each line handled as a message, an over-long one
    /// answered -32600 with its id (`handle_line_too_long`) and skipped. `end`: the input
    /// ended (a last line without a newline is handled; the stream's splitter is dropped).
    pub fn handle_stdio(&mut self, bytes: &[u8], end: bool, now: u64, ctx: Ctx) {
        let max = self.inner.config().max_line;
        let splitter = self
            .lines
            .entry(ctx.stream.0)
            .or_insert_with(|| LineSplitter::new(max));
        let inner = &mut self.inner;
        let mut on_line = |line: Line<'_>| match line {
            Line::Message(m) => {
                inner.handle_message(m, now, ctx);
            }
            Line::TooLong { head } => inner.handle_line_too_long(head, now, ctx),
        };
        splitter.feed(bytes, &mut on_line);
        if end {
            splitter.finish(&mut on_line);
            self.lines.remove(&ctx.stream.0);
        }
    }

    fn keep(&mut self, h: Handle) -> u64 {
        self.handles.insert(h.get(), h);
        h.get()
    }

    fn event(&mut self, event: Event) -> Obj {
        match event {
            Event::ReadResource(e) => {
                let mut o = Obj::typed("readResource");
                o.set("handle", self.keep(e.handle)).set("uri", e.uri);
                match &e.target {
                    ReadTarget::Template { id, variables } => {
                        let template = self.inner.template(*id).map(str::to_owned);
                        o.set("target", "template")
                            .set("template", template)
                            .set("variables", Obj::pairs(variables));
                    }
                    ReadTarget::Resource => {
                        o.set("target", "resource");
                    }
                    _ => {
                        o.set("target", "unlisted");
                    }
                }
                o.set("auth", e.auth)
                    .set("capabilities", capabilities(e.capabilities))
                    .set("retry", retry(e.retry.as_ref()));
                o
            }
            Event::GetPrompt(e) => {
                let mut o = Obj::typed("getPrompt");
                o.set("handle", self.keep(e.handle))
                    .set("name", e.name)
                    .set("arguments", Obj::pairs(&e.arguments))
                    .set("auth", e.auth)
                    .set("capabilities", capabilities(e.capabilities))
                    .set("retry", retry(e.retry.as_ref()));
                o
            }
            Event::Complete(e) => {
                let mut o = Obj::typed("complete");
                o.set("handle", self.keep(e.handle));
                let r = match &e.target {
                    CompletionTarget::Prompt(name) => {
                        let mut r = Obj::typed("ref/prompt");
                        r.set("name", name.clone());
                        r
                    }
                    CompletionTarget::Template(id) => {
                        let mut r = Obj::typed("ref/resource");
                        r.set("uri", self.inner.template(*id).map(str::to_owned));
                        r
                    }
                };
                o.set("ref", r)
                    .set("argument", e.argument)
                    .set("value", e.value)
                    .set("context", Obj::pairs(&e.context))
                    .set("auth", e.auth);
                o
            }
            Event::Request(e) => {
                let mut o = Obj::typed("request");
                o.set("handle", self.keep(e.handle))
                    .set("method", e.method)
                    .set("params", Js::Json(e.params.as_raw().as_text().to_owned()))
                    .set("progress", e.progress)
                    .set("auth", e.auth)
                    .set("capabilities", capabilities(e.capabilities))
                    .set("retry", retry(e.retry.as_ref()));
                o
            }
            Event::CallTool(e) => {
                let mut o = Obj::typed("callTool");
                o.set("handle", self.keep(e.handle))
                    .set("name", e.name)
                    .set(
                        "arguments",
                        Js::Json(e.arguments.as_raw().as_text().to_owned()),
                    )
                    .set("progress", e.progress)
                    .set("auth", e.auth)
                    .set("capabilities", capabilities(e.capabilities))
                    .set("retry", retry(e.retry.as_ref()));
                o
            }
            Event::ListResources(e) => {
                let mut o = Obj::typed("listResources");
                o.set("handle", self.keep(e.handle))
                    .set("cursor", e.cursor)
                    .set("progress", e.progress)
                    .set("auth", e.auth);
                o
            }
            Event::Cancelled { handle, reason } => {
                self.handles.remove(&handle.get());
                let mut o = Obj::typed("cancelled");
                o.set("handle", handle.get()).set(
                    "reason",
                    match reason {
                        CancelReason::Client => "client",
                        CancelReason::StreamClosed => "streamClosed",
                        _ => "timedOut",
                    },
                );
                o
            }
            Event::StreamOverflow {
                stream,
                subscription,
            } => {
                let mut o = Obj::typed("streamOverflow");
                o.set("stream", stream.0)
                    .set("subscription", Js::Id(subscription));
                o
            }
            _ => Obj::typed("unknown"),
        }
    }

    pub(crate) fn handle(&self, handle: u64) -> Result<Handle> {
        self.handles
            .get(&handle)
            .copied()
            .ok_or_else(|| respond_error(&RespondError::UnknownHandle))
    }

    /// Runs an answer on `handle`'s request; the handle is consumed either way: the answer
    /// went out, or the machine refused it and answered itself (-32603, or -32021 when the
    /// client lacked a capability), or the request was gone (docs/rules.md §20.4).
    fn answer(
        &mut self,
        handle: u64,
        f: impl FnOnce(&mut Server, Handle) -> core::result::Result<(), RespondError>,
    ) -> Result<()> {
        let h = self.handle(handle)?;
        let r = f(&mut self.inner, h);
        self.handles.remove(&handle);
        r.map_err(|e| respond_error(&e))
    }

    /// Answers a `request` event with a result object (JSON text).
    pub fn respond_result(
        &mut self,
        handle: u64,
        result: &str,
        cache: Option<CacheHint>,
    ) -> Result<()> {
        let result = decode::<OwnedJson>(result, "result")?;
        self.answer(handle, |s, h| s.respond_result(h, result, cache))
    }

    /// `notifications/progress` for an event's request; `false` when it carried no token.
    pub fn progress(
        &mut self,
        handle: u64,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<bool> {
        let h = self.handle(handle)?;
        self.inner
            .progress(h, progress, total, message)
            .map_err(|e| respond_error(&e))
    }

    /// `notifications/message` (`data` JSON text) for an event's request, when the request
    /// admits `level` (a 2025-11-25 session's `logging/setLevel`, a modern request's `_meta`
    /// log level); `false` when it does not.
    pub fn log_for(
        &mut self,
        handle: u64,
        level: &str,
        logger: Option<&str>,
        data: &str,
    ) -> Result<bool> {
        let h = self.handle(handle)?;
        let level = log_level(level)?;
        let data = decode::<OwnedJson>(data, "data")?;
        self.inner
            .log_for(h, level, logger, &data)
            .map_err(|e| respond_error(&e))
    }

    /// `notifications/message` to every 2025-11-25 connection and session event stream whose
    /// level admits `level`; how many.
    pub fn log(&mut self, level: &str, logger: Option<&str>, data: &str) -> Result<u32> {
        let level = log_level(level)?;
        let data = decode::<OwnedJson>(data, "data")?;
        let n = self.inner.log(level, logger, &data);
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Answers a read with contents (JSON text) and an optional cache hint.
    pub fn respond_read(
        &mut self,
        handle: u64,
        contents: &str,
        cache: Option<CacheHint>,
    ) -> Result<()> {
        // Checked by the core, then written from the text: no owned items (docs/rules.md §14.2).
        let contents = mcp_context::server::ReadContents::parse(contents)
            .map_err(|e| crate::error::decode_error(&e, "contents"))?;
        self.answer(handle, |s, h| s.respond_read_json(h, contents, cache))
    }

    /// Answers a `listResources` event with a page (JSON text) and the next cursor.
    pub fn respond_list(
        &mut self,
        handle: u64,
        resources: &str,
        next_cursor: Option<String>,
    ) -> Result<()> {
        let resources = decode::<Vec<OwnedResource>>(resources, "resources")?;
        self.answer(handle, |s, h| s.respond_list(h, resources, next_cursor))
    }

    /// Answers a prompt with a `GetPromptResult` (JSON text).
    pub fn respond_prompt(&mut self, handle: u64, result: &str) -> Result<()> {
        let result = decode::<OwnedGetPromptResult>(result, "result")?;
        self.answer(handle, |s, h| s.respond_prompt(h, result))
    }

    /// Answers a completion with candidate values.
    pub fn respond_completion(&mut self, handle: u64, values: Vec<String>) -> Result<()> {
        self.answer(handle, |s, h| s.respond_completion(h, values))
    }

    /// Answers with `input_required`: requests (JSON text) and optional state bytes.
    pub fn respond_input_required(
        &mut self,
        handle: u64,
        requests: &str,
        state: Option<Vec<u8>>,
    ) -> Result<()> {
        let requests = decode::<Vec<(String, OwnedInputRequest)>>(requests, "inputRequests")?;
        self.answer(handle, |s, h| {
            s.respond_input_required(h, InputRequired { requests, state })
        })
    }

    /// Fails an event's request.
    pub fn fail(&mut self, handle: u64, failure: Failure) -> Result<()> {
        self.answer(handle, |s, h| s.fail(h, failure))
    }
}

/// A log level by its name (`debug` … `emergency`); another name is a `TypeError`.
fn log_level(level: &str) -> Result<LoggingLevel> {
    LoggingLevel::from_name(level)
        .ok_or_else(|| Error::Type(format!("level: unknown log level {level:?}")))
}

fn capabilities(c: DeclaredCapabilities) -> Obj {
    let mut o = Obj::default();
    o.set("elicitationForm", c.elicitation_form)
        .set("elicitationUrl", c.elicitation_url)
        .set("sampling", c.sampling)
        .set("roots", c.roots);
    o
}

fn retry(r: Option<&Retry>) -> Js {
    let Some(r) = r else { return Js::Null };
    let mut responses = Obj::default();
    for (k, v) in &r.input_responses {
        responses.set(k.clone(), Js::Json(v.as_raw().as_text().to_owned()));
    }
    let mut o = Obj::default();
    o.set("state", r.state.clone().map_or(Js::Null, Js::Bytes))
        .set("inputResponses", responses);
    Js::Obj(o)
}

/// A position in a list the application assembles from several sources (the core's
/// `AppCursor`: one format for every binding): its text.
#[must_use]
pub fn app_cursor(source: &str, offset: u64) -> String {
    mcp_context::server::AppCursor {
        source: source.to_owned(),
        offset,
    }
    .encode()
}

/// The `(source, offset)` an [`app_cursor`] text names; `None` for any other text.
#[must_use]
pub fn parse_app_cursor(text: &str) -> Option<(String, u64)> {
    mcp_context::server::AppCursor::decode(text).map(|c| (c.source, c.offset))
}
