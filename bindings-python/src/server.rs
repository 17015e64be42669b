//! `ServerMachine`: the core's sans-IO server machine (`server::Server`,
//! docs/server-machine.md). Bytes and `now_ms` in; `Transmit` and event objects out.
//! Resources, templates, prompts, contents and prompt results are dicts in the spec's shape,
//! decoded (and checked against the schema) by the core. The output classes live in
//! `server_events`, the argument conversions in `server_config`.

use std::sync::{Mutex, MutexGuard};

use mcp_context::http::{HeadCheck, HttpStart};
use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedInputRequest, OwnedPrompt, OwnedResource, OwnedResourceTemplate,
    OwnedTool,
};
use mcp_context::server::{
    AppCursor, Ctx, InputRequired, Output, PromptEntry, ResourceEntry, Server, StreamId,
    TemplateEntry, Transport,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::{self, Exc};
use crate::pyjson;
use crate::server_config::{Options, contents_of, hint, register_error, respond_error, value_sets};
use crate::server_events::{Handle, event_object, transmit_object};

/// The sans-IO MCP server machine (docs/server-machine.md): validation, ``server/discover``,
/// paginated lists, reads, prompts, completion, ``subscriptions/listen``, cache hints,
/// ``input_required``. It does no I/O and reads no clock.
///
/// Time: ``now_ms``, an ``int`` of milliseconds from a monotonic clock the host chooses.
///
/// Drain rule: after any input (``handle_message``, ``respond_*``, ``fail``,
/// ``handle_timeout``, ``resource_updated``, ``*_list_changed``, ``stream_closed``,
/// ``shutdown``) call ``poll_output()`` until ``None``, then ``poll_timeout()``; or
/// ``drain()`` for both at once; or pass ``drain=True`` to ``handle_message``,
/// ``handle_http``, ``respond_*`` and ``fail``, which then return ``(value, outputs,
/// deadline)``: an input and its outputs in one call.
///
/// Not thread-safe: serialise calls (one asyncio loop, or a lock). A call made while another
/// is running (e.g. from the visibility callback) raises ``RuntimeError``.
#[pyclass(module = "mcp_context", name = "ServerMachine")]
pub(crate) struct ServerMachine {
    inner: Mutex<Server>,
}

impl ServerMachine {
    /// What every answering call does: `answer` on the machine (a refusal raised as
    /// ``RespondError``), then ``None``, or with `drain` ``(None, outputs, deadline)``.
    fn answer<'py>(
        &self,
        py: Python<'py>,
        drain: bool,
        answer: impl FnOnce(&mut Server) -> Result<(), mcp_context::server::RespondError>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut server = self.lock()?;
        answer(&mut server).map_err(|e| respond_error(py, e))?;
        done(py, &mut server, py.None().into_bound(py), drain)
    }

    pub(crate) fn lock(&self) -> PyResult<MutexGuard<'_, Server>> {
        self.inner.try_lock().map_err(|_| {
            PyRuntimeError::new_err("ServerMachine is in use (re-entrant or concurrent call)")
        })
    }
}

#[pymethods]
impl ServerMachine {
    /// Configuration (every argument optional): ``server_info`` (an ``Implementation`` dict,
    /// or ``False`` to send none; default ``mcp-context``), ``instructions``,
    /// ``supported_versions``, ``page_size`` (50), cache hints as ``{"ttlMs", "cacheScope"}``
    /// dicts (``discover_cache``, ``resources_list_cache``, ``templates_list_cache``,
    /// ``prompts_list_cache``, ``tools_list_cache``, ``read_cache``), ``state_keys``
    /// (``[(id, secret_bytes)]``, newest first: seal ``requestState``),
    /// ``forward_unlisted_reads``, ``declare_resources``, ``declare_prompts``,
    /// ``completion_events``, ``legacy_sessions`` (serve 2025-11-25 clients too: ``True``);
    /// the HTTP entry point: ``http_path`` (``"/mcp"``; ``http_any_path=True``: any path),
    /// ``allowed_hosts``/``allowed_origins`` (the localhost names); and the core's limits by
    /// name (``ServerMachine.limit``, docs/server-machine.md §Limits): ``page_size`` (50),
    /// ``request_timeout_ms`` (30 s), ``stream_queue`` (256), ``state_ttl_ms``,
    /// ``max_listens_per_stream``, ``max_listens``, ``max_pending_per_stream``,
    /// ``max_pending``, ``max_sessions``, ``max_sessions_per_peer``,
    /// ``session_handshake_ms``, ``session_idle_ms``, ``max_line`` and ``max_body`` (4 MiB
    /// each). Every value left out is the core's default. Raises ``ConfigError``,
    /// ``InvalidMessage``, or ``TypeError`` for an unknown keyword.
    #[new]
    #[pyo3(signature = (*, server_info = None, instructions = None, supported_versions = None,
        discover_cache = None, resources_list_cache = None,
        templates_list_cache = None, prompts_list_cache = None, read_cache = None,
        state_keys = None, forward_unlisted_reads = None, declare_resources = None,
        declare_prompts = None, completion_events = None, http_path = None,
        http_any_path = false, allowed_hosts = None, allowed_origins = None,
        dynamic_resources = None, tools_list_cache = None, legacy_sessions = None,
        **limits))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        server_info: Option<&Bound<'_, PyAny>>,
        instructions: Option<String>,
        supported_versions: Option<Vec<String>>,
        discover_cache: Option<&Bound<'_, PyAny>>,
        resources_list_cache: Option<&Bound<'_, PyAny>>,
        templates_list_cache: Option<&Bound<'_, PyAny>>,
        prompts_list_cache: Option<&Bound<'_, PyAny>>,
        read_cache: Option<&Bound<'_, PyAny>>,
        state_keys: Option<Vec<(u32, Vec<u8>)>>,
        forward_unlisted_reads: Option<bool>,
        declare_resources: Option<bool>,
        declare_prompts: Option<bool>,
        completion_events: Option<bool>,
        http_path: Option<String>,
        http_any_path: bool,
        allowed_hosts: Option<Vec<String>>,
        allowed_origins: Option<Vec<String>>,
        dynamic_resources: Option<bool>,
        tools_list_cache: Option<&Bound<'_, PyAny>>,
        legacy_sessions: Option<bool>,
        limits: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let config = Options {
            server_info,
            instructions,
            supported_versions,
            discover_cache,
            resources_list_cache,
            templates_list_cache,
            prompts_list_cache,
            read_cache,
            state_keys,
            forward_unlisted_reads,
            declare_resources,
            declare_prompts,
            completion_events,
            http_path,
            http_any_path,
            allowed_hosts,
            allowed_origins,
            dynamic_resources,
            tools_list_cache,
            legacy_sessions,
            limits,
        }
        .into_config()?;
        Server::new(config)
            .map(|s| Self {
                inner: Mutex::new(s),
            })
            .map_err(|e| errors::new_error(py, Exc::Config, e.to_string(), &[]))
    }

    /// Registers a static resource: ``resource`` is a ``Resource`` dict (``uri``, ``name``,
    /// ...); ``contents`` a list of ``ResourceContents`` dicts the machine answers reads with
    /// itself (``None``: ask the application with a ``ReadResource`` event); ``cache`` its
    /// read hints. Raises ``InvalidMessage`` or ``RegisterError``.
    #[pyo3(signature = (resource, contents = None, cache = None))]
    fn add_resource(
        &self,
        py: Python<'_>,
        resource: &Bound<'_, PyAny>,
        contents: Option<&Bound<'_, PyAny>>,
        cache: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let entry = ResourceEntry {
            resource: pyjson::decode::<OwnedResource>(resource, "resource")?,
            contents: contents
                .filter(|c| !c.is_none())
                .map(contents_of)
                .transpose()?,
            cache: hint(cache, "cache")?,
        };
        self.lock()?
            .add_resource(entry)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a static resource; ``False`` if it was not registered.
    fn remove_resource(&self, uri: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_resource(uri))
    }

    /// Replaces the stored contents of a static resource (``None``: ask the application);
    /// ``False`` if it is not registered. Call ``resource_updated`` to tell listeners.
    #[pyo3(signature = (uri, contents))]
    fn set_resource_contents(
        &self,
        uri: &str,
        contents: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let contents = contents
            .filter(|c| !c.is_none())
            .map(contents_of)
            .transpose()?;
        Ok(self.lock()?.set_resource_contents(uri, contents))
    }

    /// Registers a template: ``template`` is a ``ResourceTemplate`` dict (``uriTemplate``,
    /// ``name``, ...); ``cache`` the read hints of URIs it matches; ``completions`` maps a
    /// variable to its candidate values (built-in completion). Reads of matching URIs become
    /// ``ReadResource`` events with ``target == "template"``.
    #[pyo3(signature = (template, cache = None, completions = None))]
    fn add_template(
        &self,
        py: Python<'_>,
        template: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
        completions: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let entry = TemplateEntry {
            template: pyjson::decode::<OwnedResourceTemplate>(template, "template")?,
            cache: hint(cache, "cache")?,
            completions: value_sets(completions)?,
        };
        self.lock()?
            .add_template(entry)
            .map(|_| ())
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a template by its ``uriTemplate``; ``False`` if it was not registered.
    fn remove_template(&self, uri_template: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_template(uri_template))
    }

    /// Registers a prompt: ``prompt`` is a ``Prompt`` dict (``name``, ``arguments``, ...);
    /// ``completions`` maps an argument to its candidate values.
    #[pyo3(signature = (prompt, completions = None))]
    fn add_prompt(
        &self,
        py: Python<'_>,
        prompt: &Bound<'_, PyAny>,
        completions: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let entry = PromptEntry {
            prompt: pyjson::decode::<OwnedPrompt>(prompt, "prompt")?,
            completions: value_sets(completions)?,
        };
        self.lock()?
            .add_prompt(entry)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a prompt; ``False`` if it was not registered.
    fn remove_prompt(&self, name: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_prompt(name))
    }

    /// Installs a visibility filter: ``visible(auth, kind, key) -> bool`` with ``kind``
    /// ``"resource"`` (key: its URI), ``"template"`` (its ``uriTemplate``) or ``"prompt"``
    /// (its name). It decides lists, reads, ``prompts/get`` and completion references per
    /// caller (a hidden item is "not found") and makes every list and read private. An
    /// exception in the callback hides the item. The callback must not call the machine.
    fn set_visibility(&self, visible: Py<PyAny>) -> PyResult<()> {
        self.lock()?
            .set_visibility(crate::server_config::visibility(visible));
        Ok(())
    }

    /// One JSON-RPC message from a client. ``stream``: the host's id of the channel the
    /// answers go to (one per HTTP POST; one for a whole stdio connection); ``auth``: the
    /// caller context the host resolved (0 = anonymous); ``transport``: ``"stdio"`` or
    /// ``"http"``. Returns ``"request"``, ``"notification"`` (on HTTP: answer 202, no body),
    /// ``"response"`` (ignored) or ``"invalid"`` (an error response was queued).
    ///
    /// With ``drain=True`` it returns ``(received, outputs, deadline)``: every output the
    /// machine has queued (``drain()``) and ``poll_timeout()``, in the same call.
    #[pyo3(signature = (data, now_ms, *, stream = 0, auth = 0, transport = "stdio", drain = false))]
    #[allow(clippy::too_many_arguments)]
    fn handle_message<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
        transport: &str,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ctx = Ctx {
            stream: StreamId(stream),
            auth,
            transport: crate::server_config::transport(transport)?,
            peer: None,
            scopes: None,
        };
        let mut server = self.lock()?;
        let received = server.handle_message(data, now_ms, ctx).ident();
        let received = PyString::new(py, received).into_any();
        done(py, &mut server, received, drain)
    }

    /// A stdio line over ``max_line`` (``StdioLines`` gave ``LineTooLong(head)``): queues
    /// -32600 "Message too large" on ``stream``, with the request's id when ``head`` shows it
    /// (else ``null``); the next line is served as usual.
    #[pyo3(signature = (head, now_ms, *, stream = 0, auth = 0))]
    fn handle_line_too_long(
        &self,
        head: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
    ) -> PyResult<()> {
        let ctx = Ctx {
            auth,
            ..Ctx::stdio(StreamId(stream))
        };
        self.lock()?.handle_line_too_long(head, now_ms, ctx);
        Ok(())
    }

    /// The value of the core limit ``name`` (a keyword of the constructor's limits:
    /// ``"max_line"``, ``"session_handshake_ms"``, ...); ``None`` for another name.
    fn limit(&self, name: &str) -> PyResult<Option<u64>> {
        Ok(self.lock()?.config().limit(name))
    }

    /// The longest stdio line (bytes) a runner accepts (``ServerConfig::max_line``, 4 MiB).
    #[getter]
    fn max_line(&self) -> PyResult<usize> {
        Ok(self.lock()?.config().max_line)
    }

    /// The head-only checks of the HTTP entry point (path, ``Host``/``Origin``, method,
    /// ``Content-Type``, ``Accept``, ``Content-Length``), before any body byte is read:
    /// an ``int`` (read at most that many bytes, then ``handle_http``) or the
    /// ``HttpResponse`` to write without reading the body. ``headers``: a ``dict`` or the
    /// request's ``(name, value)`` lines (ASGI's list as is: repeats are the core's to join).
    fn http_head<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: &str,
        headers: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let headers = crate::http_entry::Headers::from_py(headers)?;
        let fields = headers.fields();
        match self.lock()?.http_head(&fields.head(method, path)) {
            HeadCheck::ReadBody { limit } => Ok(limit.into_pyobject(py)?.into_any()),
            HeadCheck::Respond(r) => crate::http_entry::response(py, r),
        }
    }

    /// One HTTP request with its body: the head checks again, the body limit (413), the
    /// headers against the body (-32020), then the machine. Returns the complete
    /// ``HttpResponse`` (refusals, errors, 202 for notifications, results produced at once;
    /// with ``event_stream`` set, a 2025-11-25 session's GET stream: write its head now and
    /// the stream's transmits as SSE events), or ``None``: the answer comes as transmits on
    /// ``stream`` (``poll_output``), the first giving the status and ``http_headers``; call
    /// ``stream_closed(stream)`` if the client goes away first. ``stream`` must not be in use; ``auth`` is the caller context.
    /// ``peer``: the client's IP address (ASGI ``scope["client"][0]``), for the per-peer
    /// bound on 2025-11-25 sessions; ``None`` or text that is not an IP address: no bound.
    /// With ``drain=True`` it returns ``(response, outputs, deadline)`` (see ``drain()``).
    #[pyo3(signature = (method, path, headers, body, now_ms, *, stream, auth = 0, peer = None, drain = false, scopes = None))]
    #[allow(clippy::too_many_arguments)]
    fn handle_http<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: &str,
        headers: &Bound<'py, PyAny>,
        body: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
        peer: Option<&str>,
        drain: bool,
        scopes: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let headers = crate::http_entry::Headers::from_py(headers)?;
        let fields = headers.fields();
        let ctx = Ctx {
            stream: StreamId(stream),
            auth,
            transport: Transport::Http,
            peer: crate::server_config::peer(peer),
            scopes: scopes.map(mcp_context::auth::resource_server::ScopeSet),
        };
        let mut server = self.lock()?;
        let start = server.handle_http(&fields.head(method, path), body, now_ms, ctx);
        let response = match start {
            HttpStart::Respond(r) => crate::http_entry::response(py, r)?,
            HttpStart::Stream(_) => py.None().into_bound(py),
            // A 2025-11-25 session's GET stream: its head (no body, `event_stream` set); the
            // session's notifications follow as transmits on `stream`.
            HttpStart::EventStream { response, .. } => {
                crate::http_entry::response_of(py, response, true)?
            }
        };
        done(py, &mut server, response, drain)
    }

    /// Installs the output-ready signal: ``callback()`` is called each time an output is
    /// queued while the queue was empty (by any call: ``respond_*``, ``fail``, pushes,
    /// ``handle_timeout``...), and at once when output is already waiting. It runs inside that
    /// call, so it must not call the machine: schedule a drain (``loop.call_soon(drain)``).
    /// Replaces any earlier callback.
    fn set_waker(&self, callback: &Bound<'_, PyAny>) -> PyResult<()> {
        let waker = crate::waker::from_callback(callback)?;
        self.lock()?.set_waker(waker);
        Ok(())
    }

    /// Whether ``poll_output`` has something to give.
    fn has_output(&self) -> PyResult<bool> {
        Ok(self.lock()?.has_output())
    }

    /// The next output: ``Transmit``, ``ReadResource``, ``GetPrompt``, ``Complete``,
    /// ``Cancelled``, ``StreamOverflow``, or ``None``.
    fn poll_output<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut server = self.lock()?;
        let Some(out) = server.poll_output() else {
            return Ok(None);
        };
        Ok(Some(match out {
            Output::Transmit(t) => transmit_object(py, t)?,
            Output::Event(ev) => event_object(py, &server, ev)?,
        }))
    }

    /// Every queued output at once, with the next deadline: ``(outputs, poll_timeout())``,
    /// ``outputs`` a list of what ``poll_output`` gives until ``None`` (the drain rule in one
    /// call).
    fn drain<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyList>, Option<u64>)> {
        let mut server = self.lock()?;
        let outs = drained(py, &mut server)?;
        Ok((outs, server.poll_timeout()))
    }

    /// When (``now_ms``) to call ``handle_timeout``, or ``None``.
    fn poll_timeout(&self) -> PyResult<Option<u64>> {
        Ok(self.lock()?.poll_timeout())
    }

    /// Fails every request past its deadline with -32603 (``Cancelled`` events follow).
    fn handle_timeout(&self, now_ms: u64) -> PyResult<()> {
        self.lock()?.handle_timeout(now_ms);
        Ok(())
    }

    /// The transport closed ``stream`` (HTTP cancellation): its subscriptions end, its
    /// events are cancelled, its queued transmits are dropped.
    fn stream_closed(&self, stream: u64) -> PyResult<()> {
        self.lock()?.stream_closed(StreamId(stream));
        Ok(())
    }

    /// Answers a ``ReadResource`` with a list of ``ResourceContents`` dicts, under the
    /// configured hints, or ``cache`` (``{"ttlMs", "cacheScope"}``) when given. Raises
    /// ``RespondError`` or ``InvalidMessage``.
    #[pyo3(signature = (handle, contents, cache = None, *, drain = false))]
    fn respond_read<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        contents: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let contents = contents_of(contents)?;
        let hint = hint(cache, "cache")?;
        self.answer(py, drain, |server| match hint {
            Some(h) => server.respond_read_cached(handle.inner, contents, h),
            None => server.respond_read(handle.inner, contents),
        })
    }

    /// Answers a ``GetPrompt`` with a ``GetPromptResult`` dict (``messages``,
    /// ``description``).
    #[pyo3(signature = (handle, result, *, drain = false))]
    fn respond_prompt<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = pyjson::decode::<OwnedGetPromptResult>(result, "result")?;
        self.answer(py, drain, |server| {
            server.respond_prompt(handle.inner, result)
        })
    }

    /// Answers a ``Request`` (an ``add_method`` method) with a result object: the machine
    /// adds ``resultType: "complete"``, ``_meta.serverInfo`` and, when ``cache`` is given,
    /// ``ttlMs``/``cacheScope``.
    ///
    /// Raises ``RespondError`` (``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_result"``:
    /// not an object, another ``resultType``, a ``_meta`` that is not an object) and
    /// ``InvalidMessage`` for a value JSON cannot carry.
    #[pyo3(signature = (handle, result, cache = None, *, drain = false))]
    fn respond_result<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = pyjson::owned(result, "result")?;
        let cache = hint(cache, "cache")?;
        self.answer(py, drain, |server| {
            server.respond_result(handle.inner, result, cache)
        })
    }

    /// Answers a ``CallTool`` with a ``CallToolResult`` dict (``content`` required,
    /// ``structuredContent``, ``isError``, ``_meta``): the machine checks it and adds
    /// ``resultType`` and ``_meta.serverInfo``. Raises ``RespondError`` (``"invalid_result"``
    /// for anything else) or ``InvalidMessage``.
    #[pyo3(signature = (handle, result, *, drain = false))]
    fn respond_tool<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = pyjson::owned(result, "result")?;
        self.answer(py, drain, |server| {
            server.respond_tool(handle.inner, result)
        })
    }

    /// Answers a ``CallTool`` whose tool failed: a result with ``isError: true`` and
    /// ``message`` as its text (the spec's tool errors; protocol errors go through ``fail``).
    #[pyo3(signature = (handle, message, *, drain = false))]
    fn respond_tool_error<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        message: &str,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.answer(py, drain, |server| {
            server.respond_tool_error(handle.inner, message)
        })
    }

    /// Answers a ``ListResources`` with one page of the host's ``Resource`` dicts and its
    /// cursor for the next page (``None``: the last). Items whose URI is registered, or
    /// hidden from the caller, are dropped. Raises ``RespondError`` (``"invalid_result"``
    /// for an invalid URI) or ``InvalidMessage``.
    #[pyo3(signature = (handle, resources, next_cursor = None, *, drain = false))]
    fn respond_list<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        resources: &Bound<'_, PyAny>,
        next_cursor: Option<String>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let resources = pyjson::decode::<Vec<OwnedResource>>(resources, "resources")?;
        self.answer(py, drain, |server| {
            server.respond_list(handle.inner, resources, next_cursor)
        })
    }

    /// Sends ``notifications/progress`` for a request that carried a ``progressToken``:
    /// ``True`` when sent, ``False`` when the request had no token. Raises ``RespondError``
    /// (``"unknown_handle"`` once answered, cancelled or timed out; ``"invalid_progress"``
    /// for a value that is not finite or does not increase).
    #[pyo3(signature = (handle, progress, total = None, message = None))]
    fn progress(
        &self,
        py: Python<'_>,
        handle: Handle,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> PyResult<bool> {
        self.lock()?
            .progress(handle.inner, progress, total, message)
            .map_err(|e| respond_error(py, e))
    }

    /// ``notifications/message`` for the request behind ``handle``, on its own stream before
    /// its answer, when the request admits ``level`` (a 2025-11-25 session's
    /// ``logging/setLevel``, a modern request's ``_meta`` log level): ``True`` when queued,
    /// ``False`` when the level filters it out. ``level``: ``"debug"`` … ``"emergency"``;
    /// ``data``: any JSON value. Raises ``RespondError`` (``"unknown_handle"``) once the
    /// request is answered, cancelled or timed out; ``ValueError`` for an unknown level.
    #[pyo3(signature = (handle, level, data, logger = None))]
    fn log_for(
        &self,
        py: Python<'_>,
        handle: Handle,
        level: &str,
        data: &Bound<'_, PyAny>,
        logger: Option<&str>,
    ) -> PyResult<bool> {
        let level = log_level(level)?;
        let data = pyjson::owned(data, "data")?;
        self.lock()?
            .log_for(handle.inner, level, logger, &data)
            .map_err(|e| respond_error(py, e))
    }

    /// ``notifications/message`` to every 2025-11-25 connection and session event stream
    /// whose ``logging/setLevel`` admits ``level`` (modern clients get log lines only on
    /// requests: ``log_for``); how many streams it was queued on.
    #[pyo3(signature = (level, data, logger = None))]
    fn log(&self, level: &str, data: &Bound<'_, PyAny>, logger: Option<&str>) -> PyResult<usize> {
        let level = log_level(level)?;
        let data = pyjson::owned(data, "data")?;
        Ok(self.lock()?.log(level, logger, &data))
    }

    /// Registers a method the core does not own (``tools/list``, ``tools/call``,
    /// ``logging/setLevel``, vendor methods): its requests become ``Request`` events.
    /// Raises ``RegisterError`` (``kind == "core_method"``) for a method the core owns.
    fn add_method(&self, py: Python<'_>, method: &str) -> PyResult<()> {
        self.lock()?
            .add_method(method)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a method (its requests are -32601 again); whether it was registered.
    fn remove_method(&self, method: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_method(method))
    }

    /// Announces ``capabilities[key] = value`` in ``server/discover`` (e.g. ``"tools"``,
    /// ``{"listChanged": True}``). Raises ``RegisterError`` for a key the core derives
    /// (``resources``, ``prompts``, ``completions``).
    fn set_capability(&self, py: Python<'_>, key: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = pyjson::owned(value, key)?;
        self.lock()?
            .set_capability(key, value)
            .map_err(|e| register_error(py, e))
    }

    /// Withdraws a capability ``set_capability`` announced; whether it was set.
    fn remove_capability(&self, key: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_capability(key))
    }

    /// Answers a ``Complete`` with candidate values (the first 100 are sent, with
    /// ``total``/``hasMore``).
    #[pyo3(signature = (handle, values, *, drain = false))]
    fn respond_completion<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        values: Vec<String>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.answer(py, drain, |server| {
            server.respond_completion(handle.inner, values)
        })
    }

    /// Answers a read or prompt event with ``resultType: "input_required"`` (docs/rules.md §13):
    /// ``requests`` maps keys to ``{"method": "elicitation/create" | "sampling/createMessage"
    /// | "roots/list", "params": {...}}``; ``state`` (bytes) comes back verified on the retry
    /// (needs ``state_keys``). Raises ``RespondError`` (``kind == "client_lacks_capability"``:
    /// the client got -32021 and the handle is consumed) or ``InvalidMessage``.
    #[pyo3(signature = (handle, requests, state = None, *, drain = false))]
    fn respond_input_required<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        requests: &Bound<'_, PyAny>,
        state: Option<Vec<u8>>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let requests = pyjson::decode::<Vec<(String, OwnedInputRequest)>>(requests, "requests")?;
        self.answer(py, drain, |server| {
            server.respond_input_required(handle.inner, InputRequired { requests, state })
        })
    }

    /// Fails an event's request. ``reason``: ``"not_found"`` (-32602, with ``data.uri`` on a
    /// read), ``"invalid_params"`` (-32602 with ``message``), ``"internal"`` (-32603) or
    /// ``"application"`` (``code`` and ``message``; codes in -32768..=-32000 are sent as
    /// -32603; -32602 is ``"invalid_params"``, -32002 ``"not_found"``: the core's
    /// ``Failure::from_code``) or ``"handler"`` (the handler's own failure: a ``CallTool``
    /// result with ``isError: true`` and ``message``; -32603 without it elsewhere).
    #[pyo3(signature = (handle, reason, message = None, *, code = None, drain = false))]
    fn fail<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        reason: &str,
        message: Option<String>,
        code: Option<i32>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let failure = crate::server_config::failure(reason, message, code)?;
        self.answer(py, drain, |server| server.fail(handle.inner, failure))
    }

    /// Queues ``notifications/resources/updated`` for ``uri`` on the listens that opted in
    /// (also those subscribed to a URI it is a sub-resource of).
    fn resource_updated(&self, uri: &str) -> PyResult<()> {
        self.lock()?.resource_updated(uri);
        Ok(())
    }

    /// Queues ``notifications/resources/list_changed`` on the listens that opted in.
    fn resources_list_changed(&self) -> PyResult<()> {
        self.lock()?.resources_list_changed();
        Ok(())
    }

    /// Registers a tool: a ``Tool`` dict (``name``, ``inputSchema`` with ``type: "object"``,
    /// ``title``, ``description``, ``outputSchema``, ``annotations``, ``icons``, ``_meta``),
    /// checked by the core; ``tools`` is then declared and ``tools/list``/``tools/call`` are
    /// the machine's (``CallTool`` events). Raises ``InvalidMessage`` or ``RegisterError``
    /// (``"duplicate"``, ``"tools_by_method"`` when ``tools/*`` were added as methods).
    fn add_tool(&self, py: Python<'_>, tool: &Bound<'_, PyAny>) -> PyResult<()> {
        let tool = pyjson::decode::<OwnedTool>(tool, "tool")?;
        self.lock()?
            .add_tool(tool)
            .map_err(|e| register_error(py, e))
    }

    /// Unregisters a tool; ``False`` if it was not registered.
    fn remove_tool(&self, name: &str) -> PyResult<bool> {
        Ok(self.lock()?.remove_tool(name))
    }

    /// Queues ``notifications/tools/list_changed`` on the listens that opted in.
    fn tools_list_changed(&self) -> PyResult<()> {
        self.lock()?.tools_list_changed();
        Ok(())
    }

    /// Queues ``notifications/prompts/list_changed`` on the listens that opted in.
    fn prompts_list_changed(&self) -> PyResult<()> {
        self.lock()?.prompts_list_changed();
        Ok(())
    }

    /// Graceful close of every subscription (each gets its listen result).
    fn shutdown(&self) -> PyResult<()> {
        self.lock()?.shutdown();
        Ok(())
    }

    /// Items per list page (``ServerConfig::page_size``): what an application that pages its
    /// own lists uses.
    #[getter]
    fn page_size(&self) -> PyResult<usize> {
        Ok(self.lock()?.config().page_size)
    }

    /// Open 2025-11-25 HTTP sessions (the `open_sessions` gauge).
    #[getter]
    fn open_sessions(&self) -> PyResult<usize> {
        Ok(self.lock()?.open_sessions())
    }

    /// Requests waiting for the application.
    #[getter]
    fn pending_requests(&self) -> PyResult<usize> {
        Ok(self.lock()?.pending_requests())
    }

    /// Open listen subscriptions.
    #[getter]
    fn subscriptions(&self) -> PyResult<usize> {
        Ok(self.lock()?.subscriptions())
    }

    /// Makes the HTTP endpoint an OAuth 2.1 protected resource (docs/rules.md §22):
    /// ``resource`` (the endpoint's canonical URL), ``authorization_servers``,
    /// ``scopes_supported``, ``required_scopes``, ``token_required``, ``resource_name``,
    /// ``resource_documentation``. Raises ``ConfigError``.
    #[pyo3(signature = (resource, authorization_servers, *, scopes_supported = None,
        required_scopes = None, token_required = true, resource_name = None,
        resource_documentation = None))]
    #[allow(clippy::too_many_arguments)]
    fn set_protection(
        &self,
        py: Python<'_>,
        resource: String,
        authorization_servers: Vec<String>,
        scopes_supported: Option<Vec<String>>,
        required_scopes: Option<Vec<String>>,
        token_required: bool,
        resource_name: Option<String>,
        resource_documentation: Option<String>,
    ) -> PyResult<()> {
        let p = mcp_context::auth::resource_server::ResourceServerConfig {
            resource,
            authorization_servers,
            scopes_supported: scopes_supported.unwrap_or_default(),
            required_scopes: required_scopes.unwrap_or_default(),
            token_required,
            resource_name,
            resource_documentation,
        };
        self.lock()?
            .set_protection(Some(p))
            .map_err(|e| errors::new_error(py, Exc::Config, e.to_string(), &[]))
    }

    /// Requires ``scopes`` of every caller of an item: ``kind`` is ``"resource"`` (``key``
    /// its URI), ``"template"`` (its URI template), ``"prompt"`` or ``"tool"`` (its name).
    /// Raises ``RegisterError`` (``unknown_scope``).
    fn require_scopes(
        &self,
        py: Python<'_>,
        kind: &str,
        key: &str,
        scopes: Vec<String>,
    ) -> PyResult<()> {
        let item = crate::protect::scoped(kind, key)?;
        let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
        self.lock()?
            .require_scopes(item, &scopes)
            .map_err(|e| register_error(py, e))
    }

    /// The protected endpoint's door, before ``http_head``: ``None`` (go on, anonymous),
    /// a ``str`` (the bearer token to verify, then ``http_admit``), or the ``HttpResponse``
    /// to write (the metadata document, a 401).
    fn http_authenticate<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: &str,
        headers: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let headers = crate::http_entry::Headers::from_py(headers)?;
        let fields = headers.fields();
        let server = self.lock()?;
        crate::protect::gate(
            py,
            server.http_authenticate(&fields.head(method, path), fields.authorization()),
        )
    }

    /// The core's checks on a verified caller (a dict: ``subject``, ``client_id``,
    /// ``scopes``, ``audience``, ``expires_at_ms``) at ``now_ms`` (Unix epoch): the scope
    /// bits (an ``int`` for ``handle_http(scopes=)``) or the 401/403 ``HttpResponse``.
    fn http_admit<'py>(
        &self,
        py: Python<'py>,
        caller: &Bound<'py, PyAny>,
        now_ms: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let caller = crate::protect::caller(caller)?;
        match self.lock()?.http_admit(&caller, now_ms) {
            Ok(scopes) => Ok(scopes.0.into_pyobject(py)?.into_any()),
            Err(r) => crate::http_entry::response(py, r),
        }
    }

    /// The 401 ``invalid_token`` ``HttpResponse`` for a token the verifier refused (``why``:
    /// its ``error_description``).
    fn http_reject<'py>(&self, py: Python<'py>, why: &str) -> PyResult<Bound<'py, PyAny>> {
        let r = self.lock()?.http_reject(why);
        crate::http_entry::response(py, r)
    }

    /// Shares the 2025-11-25 sessions with a fleet (docs/scale-out.md): ``instance`` (bytes
    /// unique to this instance) is mixed into the ids; ``None`` stops sharing.
    #[pyo3(signature = (instance))]
    fn share_sessions(&self, instance: Option<Vec<u8>>) -> PyResult<()> {
        self.lock()?.share_sessions(instance.as_deref());
        Ok(())
    }

    /// The sessions created, used or ended since the last call: ``[(id, state | None)]``,
    /// ``None`` for an ended one. Store them before sending the answer.
    fn take_session_changes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::sessions::changes(py, &mut *self.lock()?)
    }

    /// Takes session ``id``'s ``state`` (from the fleet's store) at ``now_ms``; raises
    /// ``ValueError`` for a state this core does not encode.
    fn import_session(&self, id: &str, state: &[u8], now_ms: u64) -> PyResult<()> {
        crate::sessions::import(&mut *self.lock()?, id, state, now_ms)
    }

    /// Whether this machine holds 2025-11-25 session ``id``.
    fn has_session(&self, id: &str) -> PyResult<bool> {
        Ok(self.lock()?.has_session(id))
    }

    /// Forgets session ``id`` here (it ended elsewhere); its GET stream, if open here.
    fn forget_session(&self, id: &str) -> PyResult<Option<u64>> {
        Ok(self.lock()?.forget_session(id).map(|s| s.0))
    }

    /// The fleet's table was loaded again: forgets every session not in ``stored`` (except
    /// those with a change not yet taken): ``(forgotten, GET streams to close)``.
    fn retain_sessions(
        &self,
        stored: std::collections::HashSet<String>,
    ) -> PyResult<(usize, Vec<u64>)> {
        let mut closed = Vec::new();
        let n = self
            .lock()?
            .retain_sessions(|id| stored.contains(id), &mut closed);
        Ok((n, closed.into_iter().map(|s| s.0).collect()))
    }

    /// ``(session_id, replay_after)`` of a request's headers: the session it names, and
    /// for a resumed GET stream the event number after which stored events are replayed.
    fn session_head(&self, headers: &Bound<'_, PyAny>) -> PyResult<(Option<String>, Option<u64>)> {
        crate::sessions::head(headers)
    }

    /// ``(session, seq, sse_bytes)`` for a transmit's ``data`` on a session's GET stream
    /// ``stream`` (write and store ``sse_bytes``), or ``None`` for another stream.
    fn session_event<'py>(
        &self,
        py: Python<'py>,
        stream: u64,
        data: &[u8],
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        crate::sessions::event(py, &mut *self.lock()?, stream, data)
    }

    /// The store holds events of ``stream``'s session up to ``stored_max``: number the
    /// next ones after them.
    fn session_stream_floor(&self, stream: u64, stored_max: u64) -> PyResult<()> {
        self.lock()?
            .session_stream_floor(StreamId(stream), stored_max);
        Ok(())
    }
}

/// Every queued output, converted.
fn drained<'py>(py: Python<'py>, server: &mut Server) -> PyResult<Bound<'py, PyList>> {
    let mut outs = Vec::new();
    server.drain(&mut outs);
    let list = PyList::empty(py);
    for out in outs {
        list.append(match out {
            Output::Transmit(t) => transmit_object(py, t)?,
            Output::Event(ev) => event_object(py, server, ev)?,
        })?;
    }
    Ok(list)
}

/// `value`, or with `drain` `(value, outputs, deadline)`: the outputs of the call (and any
/// queued before it) and the next deadline, in the same crossing.
fn done<'py>(
    py: Python<'py>,
    server: &mut Server,
    value: Bound<'py, PyAny>,
    drain: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if !drain {
        return Ok(value);
    }
    let outs = drained(py, server)?;
    let deadline = server.poll_timeout();
    Ok((value, outs, deadline).into_pyobject(py)?.into_any())
}

/// The core's application-list cursor (``AppCursor``): the text for a position (``source``,
/// ``offset``) in a list the application assembles from several sources.
#[pyfunction]
fn app_cursor(source: String, offset: u64) -> String {
    AppCursor { source, offset }.encode()
}

/// ``(source, offset)`` of an ``app_cursor`` text, or ``None`` for anything else.
#[pyfunction]
fn parse_app_cursor(text: &str) -> Option<(String, u64)> {
    AppCursor::decode(text).map(|c| (c.source, c.offset))
}

/// Adds `ServerMachine` and its output classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ServerMachine>()?;
    m.add_function(wrap_pyfunction!(app_cursor, m)?)?;
    m.add_function(wrap_pyfunction!(parse_app_cursor, m)?)?;
    crate::server_events::register(m)
}

/// A ``notifications/message`` level by its name (``"debug"`` … ``"emergency"``).
fn log_level(level: &str) -> PyResult<mcp_context::messages::LoggingLevel> {
    mcp_context::messages::LoggingLevel::from_name(level).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!("unknown log level {level:?}"))
    })
}
