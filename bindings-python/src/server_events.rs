//! The `ServerMachine`'s output classes (`Handle`, `Transmit`, the event objects) and the
//! conversions from the core's `Output`/`Event` values to them.

use mcp_context::server::{
    CompletionTarget, DeclaredCapabilities, Event, Handle as CoreHandle, Retry as CoreRetry,
    Server, Transmit as CoreTransmit,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFrozenSet, PyString};

use crate::pyjson;

/// The machine's name for one request the application must answer: pass it back to
/// ``respond_*``/``fail``. ``int(handle)`` is unique for the machine's lifetime.
#[pyclass(module = "mcp_context", frozen, eq, hash, from_py_object)]
#[derive(PartialEq, Eq, Hash, Clone, Copy)]
pub(crate) struct Handle {
    pub(crate) inner: CoreHandle,
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

/// ``tools/call`` of a registered tool (``add_tool``), after the machine checked the name,
/// that ``arguments`` is an object with every required property, and any ``requestState``:
/// answer with ``respond_tool``, ``respond_tool_error`` (the tool failed: ``isError``),
/// ``respond_input_required`` or ``fail`` (a protocol error).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct CallTool {
    /// Pass back to ``respond_tool``/``respond_tool_error``/``respond_input_required``/``fail``.
    handle: Handle,
    /// The tool's name.
    name: String,
    /// ``arguments`` (a dict, ``{}`` when the request sent none).
    arguments: Py<PyAny>,
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
pyjson::py_repr!(CallTool, ["handle", "name", "auth", "arguments"]);
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

pub(crate) fn event_object<'py>(
    py: Python<'py>,
    server: &Server,
    ev: Event,
) -> PyResult<Bound<'py, PyAny>> {
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
        Event::CallTool(t) => Bound::new(
            py,
            CallTool {
                handle: Handle { inner: t.handle },
                name: t.name,
                arguments: pyjson::to_py(py, &t.arguments)?.unbind(),
                progress: t.progress,
                auth: t.auth,
                capabilities: caps(py, t.capabilities)?.unbind(),
                retry: retry(py, t.retry)?,
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

/// A core transmit as a ``Transmit`` object.
pub(crate) fn transmit_object<'py>(
    py: Python<'py>,
    t: CoreTransmit,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(
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
    .into_any())
}

/// Adds the machine's output classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Handle>()?;
    m.add_class::<Request>()?;
    m.add_class::<ListResources>()?;
    m.add_class::<CallTool>()?;
    m.add_class::<Transmit>()?;
    m.add_class::<Retry>()?;
    m.add_class::<ReadResource>()?;
    m.add_class::<GetPrompt>()?;
    m.add_class::<Complete>()?;
    m.add_class::<Cancelled>()?;
    m.add_class::<StreamOverflow>()
}
