//! 2025-11-25 sessions shared by a fleet (docs/scale-out.md §"2025-11-25 sessions across
//! instances"): the conversions of `ServerMachine.take_session_changes`, `import_session`,
//! `session_head` and `session_event`. The core decides what a session's state is and
//! encodes it; the Python store (`mcp_context._session_store`) only moves the bytes.

use mcp_context::server::{
    SESSION_ORIGIN_LEN, Server, SessionChange, SessionMessage, StreamId, session_event_seq,
};
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

/// The bytes of a session channel message (the core's `SessionMessage`): ``origin`` (the
/// instance's 16 bytes), the session ``id`` and its ``state``, or ``None`` when it ended.
#[pyfunction]
#[pyo3(signature = (origin, id, state))]
fn encode_session_message<'py>(
    py: Python<'py>,
    origin: &[u8],
    id: &str,
    state: Option<&[u8]>,
) -> PyResult<Bound<'py, PyBytes>> {
    let origin: &[u8; SESSION_ORIGIN_LEN] = origin
        .try_into()
        .map_err(|_| PyValueError::new_err("origin: 16 bytes"))?;
    Ok(PyBytes::new(
        py,
        &SessionMessage { origin, id, state }.encode(),
    ))
}

/// ``(origin, id, state | None)`` of a session channel message, or ``None`` for bytes that
/// are not one.
#[pyfunction]
fn decode_session_message<'py>(
    py: Python<'py>,
    data: &[u8],
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let Some(m) = SessionMessage::decode(data) else {
        return Ok(None);
    };
    let state = match m.state {
        Some(s) => PyBytes::new(py, s).into_any(),
        None => py.None().into_bound(py),
    };
    Ok(Some(PyTuple::new(
        py,
        [
            PyBytes::new(py, m.origin).into_any(),
            m.id.into_pyobject(py)?.into_any(),
            state,
        ],
    )?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_session_message, m)?)?;
    m.add_function(wrap_pyfunction!(decode_session_message, m)?)
}
