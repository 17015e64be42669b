//! The runner's half of the protocol, from the core (`mcp_context::http::sse`,
//! `mcp_context::stdio`): the SSE framing and keepalive the ASGI runner writes, the SSE
//! parser the HTTP client reads with, and the stdio line splitter the stdio runner feeds.

use mcp_context::http::sse::{self, SseError};
use mcp_context::stdio::{Line, LineSplitter};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

/// One SSE event carrying ``data`` (one JSON-RPC message): ``b"data: ...\n\n"``.
#[pyfunction]
fn sse_event<'py>(py: Python<'py>, data: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &sse::data_event(data))
}

/// The incremental ``text/event-stream`` parser (WHATWG rules: chunks split anywhere, any
/// line ending, BOM, comments, multi-line ``data``, ``event``, ``id``, ``retry``), with a
/// bound on one event (default 16 MiB).
#[pyclass(module = "mcp_context")]
pub(crate) struct SseDecoder(sse::SseDecoder);

#[pymethods]
impl SseDecoder {
    #[new]
    #[pyo3(signature = (max_event = sse::DEFAULT_MAX_EVENT))]
    fn new(max_event: usize) -> Self {
        Self(sse::SseDecoder::new(max_event))
    }

    /// Feeds a chunk; returns the events it completed as ``(event, data, id)`` tuples
    /// (``event`` is ``"message"`` without an ``event:`` field; ``id`` the last event id).
    /// Raises ``ValueError`` when an event grows past the bound (the stream is then broken).
    fn feed<'py>(&mut self, py: Python<'py>, chunk: &[u8]) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        let mut failed = None;
        let r = self.0.feed(chunk, |e| {
            let item = (e.event, PyBytes::new(py, e.data), e.id).into_pyobject(py);
            if let Err(err) = item.and_then(|t: Bound<'py, PyTuple>| out.append(t)) {
                failed.get_or_insert(err);
            }
        });
        if let Some(err) = failed {
            return Err(err);
        }
        r.map_err(|e: SseError| PyValueError::new_err(e.to_string()))?;
        Ok(out)
    }

    /// The reconnection time the stream set with ``retry:``, or ``None``.
    #[getter]
    fn retry_ms(&self) -> Option<u64> {
        self.0.retry_ms()
    }
}

/// A stdio line longer than the bound: its first bytes (``head``); answer it with
/// ``ServerMachine.handle_line_too_long(head, ...)``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct LineTooLong {
    head: Py<PyBytes>,
}

crate::pyjson::py_repr!(LineTooLong, ["head"]);

/// Splits bytes read from stdin into bounded lines: ``feed(data)`` returns the completed
/// lines, each ``bytes`` (one message) or a ``LineTooLong`` (reported once, the rest of the
/// line skipped, never buffered); ``finish()`` at end of input.
#[pyclass(module = "mcp_context")]
pub(crate) struct StdioLines(LineSplitter);

fn collect<'py>(
    py: Python<'py>,
    feed: impl FnOnce(&mut dyn FnMut(Line<'_>)),
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    let mut failed = None;
    feed(&mut |line| {
        let item = match line {
            Line::Message(m) => Ok(PyBytes::new(py, m).into_any()),
            Line::TooLong { head } => Bound::new(
                py,
                LineTooLong {
                    head: PyBytes::new(py, head).unbind(),
                },
            )
            .map(Bound::into_any),
        };
        if let Err(e) = item.and_then(|i| out.append(i)) {
            failed.get_or_insert(e);
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[pymethods]
impl StdioLines {
    /// A splitter refusing lines over ``max_line`` bytes (``ServerMachine.max_line``).
    #[new]
    fn new(max_line: usize) -> Self {
        Self(LineSplitter::new(max_line))
    }

    /// The lines ``data`` completes.
    fn feed<'py>(&mut self, py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyList>> {
        collect(py, |on| self.0.feed(data, on))
    }

    /// End of input: a last line without newline.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        collect(py, |on| self.0.finish(on))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sse_event, m)?)?;
    m.add("SSE_KEEPALIVE", PyBytes::new(m.py(), sse::KEEPALIVE))?;
    m.add("SSE_KEEPALIVE_INTERVAL_MS", sse::KEEPALIVE_INTERVAL_MS)?;
    m.add_class::<SseDecoder>()?;
    m.add_class::<LineTooLong>()?;
    m.add_class::<StdioLines>()
}
