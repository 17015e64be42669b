//! `ServerMachine`: the core's sans-IO server machine (`server::Server`,
//! docs/server-machine.md). Bytes and `now_ms` in; `Transmit` and event objects out.
//! Resources, templates, prompts, contents and prompt results are dicts in the spec's shape,
//! decoded (and checked against the schema) by the core. The output classes live in
//! `server_events`, the argument conversions in `server_config`; the class's other methods
//! in `server_registry` (what it serves), `server_answer` (the application's answers) and
//! `server_access` (protection, shared sessions).

use std::sync::{Mutex, MutexGuard};

use mcp_context::http::{HeadCheck, HttpStart};
use mcp_context::server::{AppCursor, Ctx, Output, Server, StreamId, Transport};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::{self, Exc};
use crate::server_config::{Options, respond_error};
use crate::server_events::{event_object, transmit_object};

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
    pub(crate) fn answer<'py>(
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
pub(crate) fn done<'py>(
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
pub(crate) fn log_level(level: &str) -> PyResult<mcp_context::messages::LoggingLevel> {
    mcp_context::messages::LoggingLevel::from_name(level).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!("unknown log level {level:?}"))
    })
}
