//! The Streamable HTTP entry point of `ServerMachine` (docs/server-machine.md, "The HTTP entry
//! point"): the request head from Python header lines, and `HttpResponse`, the complete
//! answers the core decides (refusals before the body, errors, 202, results produced at once).

use mcp_context::http::{HeadFields, HttpResponse as CoreResponse};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

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

/// A request's header lines, owned for the call: from a mapping (name → value) or a
/// sequence of ``(name, value)`` pairs (ASGI's list, repeats kept). The core maps them to
/// the request head (`mcp_context::http::HeadFields`: names case-insensitive, values
/// trimmed, repeats joined).
pub(crate) struct Headers(Vec<(String, String)>);

impl Headers {
    /// From a ``dict`` or an iterable of ``(name, value)`` pairs (``str`` or ``bytes``,
    /// bytes read as Latin-1, as ASGI servers give them).
    pub(crate) fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = |v: Bound<'_, PyAny>| -> PyResult<String> {
            match v.cast::<PyBytes>() {
                Ok(b) => Ok(b.as_bytes().iter().map(|&c| char::from(c)).collect()),
                Err(_) => v.extract(),
            }
        };
        let mut lines = Vec::new();
        if let Ok(d) = obj.cast::<PyDict>() {
            for (k, v) in d.iter() {
                lines.push((text(k)?, text(v)?));
            }
        } else {
            for item in obj.try_iter()? {
                let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
                lines.push((text(k)?, text(v)?));
            }
        }
        Ok(Self(lines))
    }

    /// The fields the core reads, to borrow a `RequestHead` from.
    pub(crate) fn fields(&self) -> HeadFields<'_> {
        HeadFields::new(self.0.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<HttpResponse>()
}
