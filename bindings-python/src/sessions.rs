//! 2025-11-25 sessions shared by a fleet (docs/scale-out.md §"2025-11-25 sessions across
//! instances"): the conversions of `ServerMachine.take_session_changes`, `import_session`,
//! `session_head` and `session_event`. The core decides what a session's state is and
//! encodes it; the Python store (`mcp_context._session_store`) only moves the bytes.

use mcp_context::server::{Server, SessionChange, StreamId, session_event_seq};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

/// `[(id, state | None)]`.
pub(crate) fn changes<'py>(py: Python<'py>, server: &mut Server) -> PyResult<Bound<'py, PyList>> {
    let mut out = Vec::new();
    server.take_session_changes(&mut out);
    let list = PyList::empty(py);
    for c in out {
        let item = match c {
            SessionChange::Stored { id, state } => PyTuple::new(
                py,
                [
                    id.into_pyobject(py)?.into_any(),
                    PyBytes::new(py, &state).into_any(),
                ],
            )?,
            SessionChange::Ended { id } => PyTuple::new(
                py,
                [id.into_pyobject(py)?.into_any(), py.None().into_bound(py)],
            )?,
        };
        list.append(item)?;
    }
    Ok(list)
}

pub(crate) fn import(server: &mut Server, id: &str, state: &[u8], now_ms: u64) -> PyResult<()> {
    server
        .import_session(id, state, now_ms)
        .map_err(|e| PyValueError::new_err(format!("{e}")))
}

/// The session a request names and, for a resumed GET stream, the replay point.
pub(crate) fn head(headers: &Bound<'_, PyAny>) -> PyResult<(Option<String>, Option<u64>)> {
    let headers = crate::http_entry::Headers::from_py(headers)?;
    let fields = headers.fields();
    let session = fields.head("GET", "/").session_id.map(String::from);
    let after = fields.last_event_id().and_then(session_event_seq);
    Ok((session, after))
}

/// `(session, seq, sse_bytes)`.
pub(crate) fn event<'py>(
    py: Python<'py>,
    server: &mut Server,
    stream: u64,
    data: &[u8],
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(e) = server.session_event(StreamId(stream), data) else {
        return Ok(None);
    };
    let t = PyTuple::new(
        py,
        [
            e.session.into_pyobject(py)?.into_any(),
            e.seq.into_pyobject(py)?.into_any(),
            PyBytes::new(py, &e.bytes).into_any(),
        ],
    )?;
    Ok(Some(t.into_any()))
}
