//! `ServerMachine`: the core's sans-IO server machine (`server::Server`,
//! docs/server-machine.md). Bytes and `now_ms` in; `Transmit` and event objects out.
//! Resources, templates, prompts, contents and prompt results are dicts in the spec's shape,
//! decoded (and checked against the schema) by the core.

use std::borrow::Cow;
use std::sync::{Mutex, MutexGuard};

use mcp_context::http::{HeadCheck, HttpStart};
use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedImplementation, OwnedInputRequest, OwnedPrompt, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    CacheHint, CompletionTarget, Ctx, DeclaredCapabilities, Event, Failure, Handle as CoreHandle,
    InputRequired, Listed, Output, PromptEntry, RegisterError, ResourceEntry, RespondError,
    Retry as CoreRetry, SealingKey, Server, ServerConfig, StreamId, TemplateEntry, Transport,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFrozenSet, PyString};

use crate::errors::{self, Exc};
use crate::pyjson;

/// The machine's name for one request the application must answer: pass it back to
/// ``respond_*``/``fail``. ``int(handle)`` is unique for the machine's lifetime.
#[pyclass(module = "mcp_context", frozen, eq, hash, from_py_object)]
#[derive(PartialEq, Eq, Hash, Clone, Copy)]
pub(crate) struct Handle {
    inner: CoreHandle,
}

#[pymethods]
impl Handle {
    fn __int__(&self) -> u64 {
        self.inner.get()
    }

    fn __repr__(&self) -> String {
        format!("Handle({})", self.inner.get())
    }
}

/// Bytes to write. stdio: ``bytes`` then ``b"\n"`` (ignore the rest). HTTP: the first
/// transmit of a ``stream`` decides the response status (``http_status``); ``kind`` ``"json"``
/// is the whole body, ``"sse"`` one ``data: ...\n\n`` event of a listen stream;
/// ``end_of_stream`` says the response is complete.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Transmit {
    /// The stream (the ``stream`` given to ``handle_message``).
    stream: u64,
    /// One compact JSON-RPC message, without a newline.
    bytes: Py<PyBytes>,
    /// HTTP: the POST's response status.
    http_status: u16,
    /// HTTP: ``"json"`` or ``"sse"``.
    kind: &'static str,
    /// HTTP: the response is complete.
    end_of_stream: bool,
    /// HTTP: the response headers when this is a stream's first transmit
    /// (``Content-Type``; ``Cache-Control: no-cache`` for SSE).
    http_headers: Vec<(&'static str, &'static str)>,
}

/// The verified inputs of an MRTR retry (docs/rules.md §13).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Retry {
    /// The application state given to ``respond_input_required``, verified (integrity,
    /// binding to method/params/auth, expiry); ``None`` when the retry carried none.
    state: Option<Py<PyBytes>>,
    /// ``inputResponses``: key → the client's result dict, as sent (validate before use).
    input_responses: Py<PyDict>,
}

/// ``resources/read`` needs contents: answer ``handle`` once with ``respond_read``,
/// ``respond_input_required`` or ``fail``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct ReadResource {
    /// Pass back to ``respond_*``/``fail``.
    handle: Handle,
    /// The URI, validated, exactly as requested.
    uri: String,
    /// ``"resource"`` (registered without contents), ``"template"`` or ``"unlisted"``.
    target: &'static str,
    /// The matched template's ``uriTemplate`` when ``target == "template"``.
    template: Option<String>,
    /// The template variables, percent-decoded (an exploded list joined with ``,``).
    variables: Py<PyDict>,
    /// The caller context (the ``auth`` given to ``handle_message``).
    auth: u64,
    /// The request carried ``_meta.progressToken`` (``progress`` sends notifications).
    progress: bool,
    /// Client capabilities declared on this request: ``"elicitation.form"``,
    /// ``"elicitation.url"``, ``"sampling"``, ``"roots"``.
    capabilities: Py<PyFrozenSet>,
    /// The verified retry inputs on an MRTR retry, else ``None``.
    retry: Option<Py<Retry>>,
}

/// ``prompts/get`` needs messages: answer ``handle`` once with ``respond_prompt``,
/// ``respond_input_required`` or ``fail``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct GetPrompt {
    /// Pass back to ``respond_*``/``fail``.
    handle: Handle,
    /// The prompt name (registered and visible to ``auth``).
    name: String,
    /// The string arguments; every required one is present.
    arguments: Py<PyDict>,
    /// The caller context.
    auth: u64,
    /// The request carried ``_meta.progressToken`` (``progress`` sends notifications).
    progress: bool,
    /// Client capabilities declared on this request.
    capabilities: Py<PyFrozenSet>,
    /// The verified retry inputs on an MRTR retry, else ``None``.
    retry: Option<Py<Retry>>,
}

/// A request for a method the host registered with ``add_method`` (``tools/list``,
/// ``tools/call``, vendor methods): answer ``handle`` once with ``respond_result``,
/// ``respond_input_required`` or ``fail``. The machine checked the envelope and ``_meta``
/// only: validate ``params`` yourself (``fail(handle, "invalid_params", ...)``).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Request {
    /// Pass back to ``respond_result``/``respond_input_required``/``fail``.
    handle: Handle,
    /// The method, as registered.
    method: String,
    /// The params object as received (``_meta`` included).
    params: Py<PyAny>,
    /// The request carried ``_meta.progressToken`` (``progress`` sends notifications).
    progress: bool,
    /// The caller context.
    auth: u64,
    /// Client capabilities declared on this request.
    capabilities: Py<PyFrozenSet>,
    /// The verified retry inputs on an MRTR retry, else ``None``.
    retry: Option<Py<Retry>>,
}

/// ``resources/list`` reached the host's own pages (``dynamic_resources=True``; the registered
/// resources come first, and the page that ends them carries the host's first page after
/// them): answer with ``respond_list`` or ``fail``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct ListResources {
    /// Pass back to ``respond_list``/``fail``.
    handle: Handle,
    /// The host's own cursor from its previous page's ``next_cursor``; ``None`` first.
    cursor: Option<String>,
    /// The caller context (lists may depend on it).
    auth: u64,
    /// The request carried ``_meta.progressToken``.
    progress: bool,
}

/// ``completion/complete`` without a registered value set: answer with
/// ``respond_completion`` or ``fail``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Complete {
    /// Pass back to ``respond_completion``/``fail``.
    handle: Handle,
    /// The prompt name for a ``ref/prompt``, else ``None``.
    prompt: Option<String>,
    /// The ``uriTemplate`` for a ``ref/resource``, else ``None``.
    template: Option<String>,
    /// The argument (or template variable) being completed.
    argument: String,
    /// What the user typed so far.
    value: String,
    /// ``context.arguments``: already-resolved arguments.
    context: Py<PyDict>,
    /// The caller context.
    auth: u64,
    /// The request carried ``_meta.progressToken`` (``progress`` sends notifications).
    progress: bool,
}

/// A handle is dead: stop working on it; later answers are refused.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Cancelled {
    /// The request.
    handle: Handle,
    /// ``"client"``, ``"stream_closed"`` or ``"timed_out"``.
    reason: &'static str,
}

/// A listen subscription's queue overflowed: it was torn down (the client re-listens).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct StreamOverflow {
    /// The stream.
    stream: u64,
    /// The listen request's id.
    subscription: Py<PyAny>,
}

pyjson::py_repr!(
    Transmit,
    ["stream", "http_status", "kind", "end_of_stream", "bytes"]
);
pyjson::py_repr!(Retry, ["state", "input_responses"]);
pyjson::py_repr!(
    ReadResource,
    [
        "handle",
        "uri",
        "target",
        "template",
        "variables",
        "auth",
        "capabilities",
        "retry"
    ]
);
pyjson::py_repr!(
    GetPrompt,
    [
        "handle",
        "name",
        "arguments",
        "auth",
        "capabilities",
        "retry"
    ]
);
pyjson::py_repr!(
    Complete,
    [
        "handle", "prompt", "template", "argument", "value", "context", "auth"
    ]
);
pyjson::py_repr!(Cancelled, ["handle", "reason"]);
pyjson::py_repr!(Request, ["handle", "method", "auth", "params"]);
pyjson::py_repr!(ListResources, ["handle", "cursor", "auth"]);
pyjson::py_repr!(StreamOverflow, ["stream", "subscription"]);

fn caps<'py>(py: Python<'py>, c: DeclaredCapabilities) -> PyResult<Bound<'py, PyFrozenSet>> {
    let mut names = Vec::new();
    for (on, name) in [
        (c.elicitation_form, "elicitation.form"),
        (c.elicitation_url, "elicitation.url"),
        (c.sampling, "sampling"),
        (c.roots, "roots"),
    ] {
        if on {
            names.push(name);
        }
    }
    PyFrozenSet::new(py, &names)
}

fn pairs_dict<'py>(py: Python<'py>, pairs: &[(String, String)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in pairs {
        d.set_item(k, v)?;
    }
    Ok(d)
}

fn retry(py: Python<'_>, r: Option<CoreRetry>) -> PyResult<Option<Py<Retry>>> {
    let Some(r) = r else { return Ok(None) };
    let responses = PyDict::new(py);
    for (k, v) in &r.input_responses {
        responses.set_item(k, pyjson::to_py(py, v)?)?;
    }
    Ok(Some(Py::new(
        py,
        Retry {
            state: r.state.map(|s| PyBytes::new(py, &s).unbind()),
            input_responses: responses.unbind(),
        },
    )?))
}

fn register_error(py: Python<'_>, e: RegisterError) -> PyErr {
    errors::kinded(py, Exc::Register, e.to_string(), e.ident())
}

fn respond_error(py: Python<'_>, e: RespondError) -> PyErr {
    errors::kinded(py, Exc::Respond, e.to_string(), e.ident())
}

fn hint(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<CacheHint>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| pyjson::decode::<CacheHint>(v, what))
        .transpose()
}

/// `{name: [values]}` → value sets.
fn value_sets(d: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Vec<String>)>> {
    let Some(d) = d else { return Ok(Vec::new()) };
    d.iter()
        .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
        .collect()
}

fn contents_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<OwnedResourceContents>> {
    pyjson::decode::<Vec<OwnedResourceContents>>(value, "contents")
}

/// The sans-IO MCP server machine (docs/server-machine.md): validation, ``server/discover``,
/// paginated lists, reads, prompts, completion, ``subscriptions/listen``, cache hints,
/// ``input_required``. It does no I/O and reads no clock.
///
/// Time: ``now_ms``, an ``int`` of milliseconds from a monotonic clock the host chooses.
///
/// Drain rule: after any input (``handle_message``, ``respond_*``, ``fail``,
/// ``handle_timeout``, ``resource_updated``, ``*_list_changed``, ``stream_closed``,
/// ``shutdown``) call ``poll_output()`` until ``None``, then ``poll_timeout()``.
///
/// Not thread-safe: serialise calls (one asyncio loop, or a lock). A call made while another
/// is running (e.g. from the visibility callback) raises ``RuntimeError``.
#[pyclass(module = "mcp_context", name = "ServerMachine")]
pub(crate) struct ServerMachine {
    inner: Mutex<Server>,
}

impl ServerMachine {
    fn lock(&self) -> PyResult<MutexGuard<'_, Server>> {
        self.inner.try_lock().map_err(|_| {
            PyRuntimeError::new_err("ServerMachine is in use (re-entrant or concurrent call)")
        })
    }
}

fn transport(name: &str) -> PyResult<Transport> {
    match name {
        "stdio" => Ok(Transport::Stdio),
        "http" => Ok(Transport::Http),
        _ => Err(PyValueError::new_err(
            "transport must be \"stdio\" or \"http\"",
        )),
    }
}

fn event_object<'py>(py: Python<'py>, server: &Server, ev: Event) -> PyResult<Bound<'py, PyAny>> {
    Ok(match ev {
        Event::ReadResource(r) => {
            let target = r.target.ident();
            let (template, vars) = match r.target {
                mcp_context::server::ReadTarget::Template { id, variables } => {
                    (server.template(id).map(str::to_owned), variables)
                }
                _ => (None, Vec::new()),
            };
            Bound::new(
                py,
                ReadResource {
                    handle: Handle { inner: r.handle },
                    uri: r.uri,
                    target,
                    template,
                    variables: pairs_dict(py, &vars)?.unbind(),
                    auth: r.auth,
                    progress: r.progress,
                    capabilities: caps(py, r.capabilities)?.unbind(),
                    retry: retry(py, r.retry)?,
                },
            )?
            .into_any()
        }
        Event::GetPrompt(p) => Bound::new(
            py,
            GetPrompt {
                handle: Handle { inner: p.handle },
                name: p.name,
                arguments: pairs_dict(py, &p.arguments)?.unbind(),
                auth: p.auth,
                progress: p.progress,
                capabilities: caps(py, p.capabilities)?.unbind(),
                retry: retry(py, p.retry)?,
            },
        )?
        .into_any(),
        Event::ListResources(l) => Bound::new(
            py,
            ListResources {
                handle: Handle { inner: l.handle },
                cursor: l.cursor,
                auth: l.auth,
                progress: l.progress,
            },
        )?
        .into_any(),
        Event::Request(r) => Bound::new(
            py,
            Request {
                handle: Handle { inner: r.handle },
                method: r.method,
                params: pyjson::to_py(py, &r.params)?.unbind(),
                progress: r.progress,
                auth: r.auth,
                capabilities: caps(py, r.capabilities)?.unbind(),
                retry: retry(py, r.retry)?,
            },
        )?
        .into_any(),
        Event::Complete(c) => {
            let (prompt, template) = match c.target {
                CompletionTarget::Prompt(name) => (Some(name), None),
                CompletionTarget::Template(id) => (None, server.template(id).map(str::to_owned)),
            };
            Bound::new(
                py,
                Complete {
                    handle: Handle { inner: c.handle },
                    prompt,
                    template,
                    argument: c.argument,
                    value: c.value,
                    context: pairs_dict(py, &c.context)?.unbind(),
                    auth: c.auth,
                    progress: c.progress,
                },
            )?
            .into_any()
        }
        Event::Cancelled { handle, reason } => Bound::new(
            py,
            Cancelled {
                handle: Handle { inner: handle },
                reason: reason.ident(),
            },
        )?
        .into_any(),
        Event::StreamOverflow {
            stream,
            subscription,
        } => Bound::new(
            py,
            StreamOverflow {
                stream: stream.0,
                subscription: pyjson::request_id(py, &subscription)?.unbind(),
            },
        )?
        .into_any(),
        // A variant this binding does not convert yet: its core identifier, never a guess.
        other => PyString::new(py, other.ident()).into_any(),
    })
}

#[pymethods]
impl ServerMachine {
    /// Configuration (every argument optional): ``server_info`` (an ``Implementation`` dict,
    /// or ``False`` to send none; default ``mcp-context``), ``instructions``,
    /// ``supported_versions``, ``page_size`` (50), cache hints as ``{"ttlMs", "cacheScope"}``
    /// dicts (``discover_cache``, ``resources_list_cache``, ``templates_list_cache``,
    /// ``prompts_list_cache``, ``read_cache``), ``request_timeout_ms`` (30 s),
    /// ``stream_queue`` (256), ``state_keys`` (``[(id, secret_bytes)]``, newest first: seal
    /// ``requestState``), ``state_ttl_ms``, ``forward_unlisted_reads``,
    /// ``declare_resources``, ``declare_prompts``, ``completion_events``; the HTTP entry
    /// point: ``http_path`` (``"/mcp"``; ``http_any_path=True``: any path), ``max_body``
    /// (4 MiB), ``allowed_hosts``/``allowed_origins`` (the localhost names). Every value left
    /// out is the core's default. Raises ``ConfigError`` or ``InvalidMessage``.
    #[new]
    #[pyo3(signature = (*, server_info = None, instructions = None, supported_versions = None,
        page_size = None, discover_cache = None, resources_list_cache = None,
        templates_list_cache = None, prompts_list_cache = None, read_cache = None,
        request_timeout_ms = None, stream_queue = None, state_keys = None,
        state_ttl_ms = None, forward_unlisted_reads = None, declare_resources = None,
        declare_prompts = None, completion_events = None, http_path = None,
        http_any_path = false, max_body = None, allowed_hosts = None, allowed_origins = None,
        dynamic_resources = None, max_listens_per_stream = None, max_listens = None,
        max_pending_per_stream = None, max_pending = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        server_info: Option<&Bound<'_, PyAny>>,
        instructions: Option<String>,
        supported_versions: Option<Vec<String>>,
        page_size: Option<usize>,
        discover_cache: Option<&Bound<'_, PyAny>>,
        resources_list_cache: Option<&Bound<'_, PyAny>>,
        templates_list_cache: Option<&Bound<'_, PyAny>>,
        prompts_list_cache: Option<&Bound<'_, PyAny>>,
        read_cache: Option<&Bound<'_, PyAny>>,
        request_timeout_ms: Option<u64>,
        stream_queue: Option<usize>,
        state_keys: Option<Vec<(u32, Vec<u8>)>>,
        state_ttl_ms: Option<u64>,
        forward_unlisted_reads: Option<bool>,
        declare_resources: Option<bool>,
        declare_prompts: Option<bool>,
        completion_events: Option<bool>,
        http_path: Option<String>,
        http_any_path: bool,
        max_body: Option<usize>,
        allowed_hosts: Option<Vec<String>>,
        allowed_origins: Option<Vec<String>>,
        dynamic_resources: Option<bool>,
        max_listens_per_stream: Option<usize>,
        max_listens: Option<usize>,
        max_pending_per_stream: Option<usize>,
        max_pending: Option<usize>,
    ) -> PyResult<Self> {
        let mut config = ServerConfig::default();
        if let Some(info) = server_info {
            if info.is_instance_of::<pyo3::types::PyBool>() {
                if !info.extract::<bool>()? {
                    config.server_info = None;
                }
            } else {
                config.server_info =
                    Some(pyjson::decode::<OwnedImplementation>(info, "server_info")?);
            }
        }
        config.instructions = instructions;
        if let Some(v) = supported_versions {
            config.supported_versions = v;
        }
        // Defaults are the core's (`ServerConfig::default()`): only what the caller gave is set.
        fn set<T>(slot: &mut T, value: Option<T>) {
            if let Some(v) = value {
                *slot = v;
            }
        }
        set(&mut config.page_size, page_size);
        for (slot, value, what) in [
            (&mut config.discover_cache, discover_cache, "discover_cache"),
            (
                &mut config.resources_list_cache,
                resources_list_cache,
                "resources_list_cache",
            ),
            (
                &mut config.templates_list_cache,
                templates_list_cache,
                "templates_list_cache",
            ),
            (
                &mut config.prompts_list_cache,
                prompts_list_cache,
                "prompts_list_cache",
            ),
            (&mut config.read_cache, read_cache, "read_cache"),
        ] {
            if let Some(h) = hint(value, what)? {
                *slot = h;
            }
        }
        set(&mut config.request_timeout_ms, request_timeout_ms);
        set(&mut config.stream_queue, stream_queue);
        if let Some(keys) = state_keys {
            config.state_keys = keys
                .into_iter()
                .map(|(id, secret)| SealingKey { id, secret })
                .collect();
        }
        set(&mut config.state_ttl_ms, state_ttl_ms);
        set(&mut config.forward_unlisted_reads, forward_unlisted_reads);
        set(&mut config.declare_resources, declare_resources);
        set(&mut config.declare_prompts, declare_prompts);
        set(&mut config.completion_events, completion_events);
        if http_any_path {
            config.http.path = None;
        } else if http_path.is_some() {
            config.http.path = http_path;
        }
        set(&mut config.http.max_body, max_body);
        set(&mut config.http.allowed_hosts, allowed_hosts);
        set(&mut config.http.allowed_origins, allowed_origins);
        set(&mut config.dynamic_resources, dynamic_resources);
        set(&mut config.max_listens_per_stream, max_listens_per_stream);
        set(&mut config.max_listens, max_listens);
        set(&mut config.max_pending_per_stream, max_pending_per_stream);
        set(&mut config.max_pending, max_pending);
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
        let filter = move |auth: u64, item: Listed<'_>| -> bool {
            let (kind, key) = match item {
                Listed::Resource(r) => ("resource", r.uri.as_str()),
                Listed::Template(t) => ("template", t.uri_template.as_str()),
                Listed::Prompt(p) => ("prompt", p.name.as_str()),
            };
            Python::attach(|py| {
                visible
                    .call1(py, (auth, kind, key))
                    .and_then(|r| r.is_truthy(py))
                    .unwrap_or(false)
            })
        };
        self.lock()?.set_visibility(Box::new(filter));
        Ok(())
    }

    /// One JSON-RPC message from a client. ``stream``: the host's id of the channel the
    /// answers go to (one per HTTP POST; one for a whole stdio connection); ``auth``: the
    /// caller context the host resolved (0 = anonymous); ``transport``: ``"stdio"`` or
    /// ``"http"``. Returns ``"request"``, ``"notification"`` (on HTTP: answer 202, no body),
    /// ``"response"`` (ignored) or ``"invalid"`` (an error response was queued).
    #[pyo3(signature = (data, now_ms, *, stream = 0, auth = 0, transport = "stdio"))]
    fn handle_message(
        &self,
        data: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
        transport: &str,
    ) -> PyResult<&'static str> {
        let ctx = Ctx {
            stream: StreamId(stream),
            auth,
            transport: self::transport(transport)?,
        };
        Ok(self.lock()?.handle_message(data, now_ms, ctx).ident())
    }

    /// The head-only checks of the HTTP entry point (path, ``Host``/``Origin``, method,
    /// ``Content-Type``, ``Accept``, ``Content-Length``), before any body byte is read:
    /// an ``int`` (read at most that many bytes, then ``handle_http``) or the
    /// ``HttpResponse`` to write without reading the body. ``headers``: lowercase names.
    fn http_head<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: &str,
        headers: std::collections::HashMap<String, String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let headers = crate::http_entry::Headers::new(headers);
        match self.lock()?.http_head(&headers.head(method, path)) {
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
    #[pyo3(signature = (method, path, headers, body, now_ms, *, stream, auth = 0))]
    #[allow(clippy::too_many_arguments)]
    fn handle_http<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: &str,
        headers: std::collections::HashMap<String, String>,
        body: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let headers = crate::http_entry::Headers::new(headers);
        let ctx = Ctx {
            stream: StreamId(stream),
            auth,
            transport: Transport::Http,
        };
        let start = self
            .lock()?
            .handle_http(&headers.head(method, path), body, now_ms, ctx);
        match start {
            HttpStart::Respond(r) => crate::http_entry::response(py, r).map(Some),
            HttpStart::Stream(_) => Ok(None),
            // A 2025-11-25 session's GET stream: its head (no body, `event_stream` set); the
            // session's notifications follow as transmits on `stream`.
            HttpStart::EventStream { response, .. } => {
                crate::http_entry::response_of(py, response, true).map(Some)
            }
        }
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
            Output::Transmit(t) => Bound::new(
                py,
                Transmit {
                    stream: t.stream.0,
                    bytes: PyBytes::new(py, &t.bytes).unbind(),
                    http_status: t.http_status,
                    kind: t.kind.ident(),
                    end_of_stream: t.end_of_stream,
                    http_headers: t.http_headers().to_vec(),
                },
            )?
            .into_any(),
            Output::Event(ev) => event_object(py, &server, ev)?,
        }))
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
    #[pyo3(signature = (handle, contents, cache = None))]
    fn respond_read(
        &self,
        py: Python<'_>,
        handle: Handle,
        contents: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let contents = contents_of(contents)?;
        let hint = hint(cache, "cache")?;
        let mut server = self.lock()?;
        match hint {
            Some(h) => server.respond_read_cached(handle.inner, contents, h),
            None => server.respond_read(handle.inner, contents),
        }
        .map_err(|e| respond_error(py, e))
    }

    /// Answers a ``GetPrompt`` with a ``GetPromptResult`` dict (``messages``,
    /// ``description``).
    fn respond_prompt(
        &self,
        py: Python<'_>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let result = pyjson::decode::<OwnedGetPromptResult>(result, "result")?;
        self.lock()?
            .respond_prompt(handle.inner, result)
            .map_err(|e| respond_error(py, e))
    }

    /// Answers a ``Request`` (an ``add_method`` method) with a result object: the machine
    /// adds ``resultType: "complete"``, ``_meta.serverInfo`` and, when ``cache`` is given,
    /// ``ttlMs``/``cacheScope``.
    ///
    /// Raises ``RespondError`` (``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_result"``:
    /// not an object, another ``resultType``, a ``_meta`` that is not an object) and
    /// ``InvalidMessage`` for a value JSON cannot carry.
    #[pyo3(signature = (handle, result, cache = None))]
    fn respond_result(
        &self,
        py: Python<'_>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let result = pyjson::owned(result, "result")?;
        let cache = hint(cache, "cache")?;
        self.lock()?
            .respond_result(handle.inner, result, cache)
            .map_err(|e| respond_error(py, e))
    }

    /// Answers a ``ListResources`` with one page of the host's ``Resource`` dicts and its
    /// cursor for the next page (``None``: the last). Items whose URI is registered, or
    /// hidden from the caller, are dropped. Raises ``RespondError`` (``"invalid_result"``
    /// for an invalid URI) or ``InvalidMessage``.
    #[pyo3(signature = (handle, resources, next_cursor = None))]
    fn respond_list(
        &self,
        py: Python<'_>,
        handle: Handle,
        resources: &Bound<'_, PyAny>,
        next_cursor: Option<String>,
    ) -> PyResult<()> {
        let resources = pyjson::decode::<Vec<OwnedResource>>(resources, "resources")?;
        self.lock()?
            .respond_list(handle.inner, resources, next_cursor)
            .map_err(|e| respond_error(py, e))
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
    fn respond_completion(
        &self,
        py: Python<'_>,
        handle: Handle,
        values: Vec<String>,
    ) -> PyResult<()> {
        self.lock()?
            .respond_completion(handle.inner, values)
            .map_err(|e| respond_error(py, e))
    }

    /// Answers a read or prompt event with ``resultType: "input_required"`` (docs/rules.md §13):
    /// ``requests`` maps keys to ``{"method": "elicitation/create" | "sampling/createMessage"
    /// | "roots/list", "params": {...}}``; ``state`` (bytes) comes back verified on the retry
    /// (needs ``state_keys``). Raises ``RespondError`` (``kind == "client_lacks_capability"``:
    /// the client got -32021 and the handle is consumed) or ``InvalidMessage``.
    #[pyo3(signature = (handle, requests, state = None))]
    fn respond_input_required(
        &self,
        py: Python<'_>,
        handle: Handle,
        requests: &Bound<'_, PyAny>,
        state: Option<Vec<u8>>,
    ) -> PyResult<()> {
        let requests = pyjson::decode::<Vec<(String, OwnedInputRequest)>>(requests, "requests")?;
        self.lock()?
            .respond_input_required(handle.inner, InputRequired { requests, state })
            .map_err(|e| respond_error(py, e))
    }

    /// Fails an event's request. ``reason``: ``"not_found"`` (-32602, with ``data.uri`` on a
    /// read), ``"invalid_params"`` (-32602 with ``message``), ``"internal"`` (-32603) or
    /// ``"application"`` (``code`` and ``message``; codes in -32768..=-32000 are sent as
    /// -32603).
    #[pyo3(signature = (handle, reason, message = None, *, code = None))]
    fn fail(
        &self,
        py: Python<'_>,
        handle: Handle,
        reason: &str,
        message: Option<String>,
        code: Option<i32>,
    ) -> PyResult<()> {
        let failure = match (reason, code) {
            ("not_found", None) => Failure::NotFound,
            ("invalid_params", None) => Failure::InvalidParams(Cow::Owned(
                message.unwrap_or_else(|| "Invalid params".to_owned()),
            )),
            ("internal", None) => Failure::Internal,
            ("application", Some(code)) => Failure::Application {
                code,
                message: Cow::Owned(message.unwrap_or_default()),
            },
            ("application", None) => {
                return Err(PyTypeError::new_err("reason \"application\" needs a code"));
            }
            _ => {
                return Err(PyValueError::new_err(
                    "reason must be \"not_found\", \"invalid_params\", \"internal\" or \
                     \"application\" (code only with \"application\")",
                ));
            }
        };
        self.lock()?
            .fail(handle.inner, failure)
            .map_err(|e| respond_error(py, e))
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

/// Adds `ServerMachine` and its output classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ServerMachine>()?;
    m.add_class::<Handle>()?;
    m.add_class::<Request>()?;
    m.add_class::<ListResources>()?;
    m.add_class::<Transmit>()?;
    m.add_class::<Retry>()?;
    m.add_class::<ReadResource>()?;
    m.add_class::<GetPrompt>()?;
    m.add_class::<Complete>()?;
    m.add_class::<Cancelled>()?;
    m.add_class::<StreamOverflow>()
}
