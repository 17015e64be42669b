//! The Streamable HTTP entry point of `ServerMachine` (docs/server-machine.md, "The HTTP entry
//! point"): the request head from a Python header mapping, and `HttpResponse`, the complete
//! answers the core decides (refusals before the body, errors, 202, results produced at once).

use std::collections::HashMap;

use mcp_context::http::{HttpResponse as CoreResponse, RequestHead};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

/// A complete HTTP answer decided by the core: write ``status``, ``headers`` and ``body``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct HttpResponse {
    /// The status code.
    status: u16,
    /// ``(name, value)`` pairs (``Content-Type`` whenever there is a body, ``Allow`` on 405).
    headers: Py<PyList>,
    /// The body (empty for 202).
    body: Py<PyBytes>,
    /// A 2025-11-25 session's GET stream: write the status and headers now, keep the
    /// connection open and write the stream's transmits as SSE events as they come;
    /// ``stream_closed(stream)`` when it closes.
    event_stream: bool,
}

crate::pyjson::py_repr!(HttpResponse, ["status", "headers", "body", "event_stream"]);

/// A core response as a Python `HttpResponse`.
pub(crate) fn response<'py>(py: Python<'py>, r: CoreResponse) -> PyResult<Bound<'py, PyAny>> {
    response_of(py, r, false)
}

/// A core response as a Python `HttpResponse`, `event_stream` for a session's GET stream.
pub(crate) fn response_of<'py>(
    py: Python<'py>,
    r: CoreResponse,
    event_stream: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let headers = PyList::empty(py);
    for (name, value) in &r.headers {
        headers.append(PyTuple::new(py, [*name, value.as_str()])?)?;
    }
    Ok(Bound::new(
        py,
        HttpResponse {
            status: r.status,
            headers: headers.unbind(),
            body: PyBytes::new(py, &r.body).unbind(),
            event_stream,
        },
    )?
    .into_any())
}

/// The header values a `RequestHead` needs, by lowercase name, owned for the call.
pub(crate) struct Headers(HashMap<String, String>);

impl Headers {
    /// From a mapping of lowercase header names to values (repeated headers joined by ", ").
    pub(crate) fn new(map: HashMap<String, String>) -> Self {
        Self(map)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|v| v.trim())
    }

    /// The head of a request `method path` with these headers. An unparsable
    /// `Content-Length` counts as absent: the body is then bounded while read.
    pub(crate) fn head<'a>(&'a self, method: &'a str, path: &'a str) -> RequestHead<'a> {
        RequestHead {
            method,
            path,
            host: self.get("host"),
            origin: self.get("origin"),
            content_type: self.get("content-type"),
            content_length: self.get("content-length").and_then(|v| v.parse().ok()),
            protocol_version: self.get("mcp-protocol-version"),
            mcp_method: self.get("mcp-method"),
            mcp_name: self.get("mcp-name"),
            accept: self.get("accept"),
            session_id: self.get("mcp-session-id"),
        }
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<HttpResponse>()
}
