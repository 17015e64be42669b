//! `ServerMachine`'s gate (docs/rules.md §26.7): every request shown to the package's
//! middleware before the machine acts on it, core-answered ones included; then admitted
//! (the same bytes to ``handle_message``/``handle_http``) or refused with an error.

use mcp_context::observe::Era;
use mcp_context::server::{Ctx, Failure, StreamId, Transport};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::server::{ServerMachine, done};

/// A request stopped at the gate: the fields its observation has at receipt. Give it back
/// once, to ``gate_admit`` or ``gate_refuse``.
#[pyclass(module = "mcp_context", name = "GateRequest")]
pub(crate) struct GateRequest {
    inner: Option<mcp_context::server::GateRequest>,
}

impl GateRequest {
    fn req(&self) -> PyResult<&mcp_context::observe::RequestObservation> {
        self.inner
            .as_ref()
            .map(mcp_context::server::GateRequest::request)
            .ok_or_else(|| PyRuntimeError::new_err("GateRequest already admitted or refused"))
    }

    fn take(&mut self) -> PyResult<mcp_context::server::GateRequest> {
        self.inner
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("GateRequest already admitted or refused"))
    }
}

#[pymethods]
impl GateRequest {
    /// ``mcp.method.name``.
    #[getter]
    fn method(&self) -> PyResult<String> {
        Ok(self.req()?.method.clone())
    }
    /// The request id as text.
    #[getter]
    fn request_id(&self) -> PyResult<String> {
        Ok(self.req()?.request_id.clone())
    }
    /// The tool or prompt name, or the URI.
    #[getter]
    fn target(&self) -> PyResult<Option<String>> {
        Ok(self.req()?.target.clone())
    }
    /// The caller-context id (0 = anonymous).
    #[getter]
    fn caller(&self) -> PyResult<u64> {
        Ok(self.req()?.caller)
    }
    /// The stream it came on.
    #[getter]
    fn stream(&self) -> PyResult<u64> {
        Ok(self.req()?.stream.0)
    }
    /// ``"pipe"`` (stdio) or ``"tcp"`` (HTTP).
    #[getter]
    fn transport(&self) -> PyResult<&'static str> {
        Ok(match self.req()?.transport {
            Transport::Stdio => "pipe",
            Transport::Http => "tcp",
        })
    }
    /// ``"modern"`` or ``"legacy"``.
    #[getter]
    fn era(&self) -> PyResult<&'static str> {
        Ok(match self.req()?.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        })
    }
    /// The protocol version ``_meta`` names.
    #[getter]
    fn protocol_version(&self) -> PyResult<Option<String>> {
        Ok(self.req()?.protocol_version.clone())
    }
    /// The 2025-11-25 session.
    #[getter]
    fn session_id(&self) -> PyResult<Option<String>> {
        Ok(self.req()?.session_id.clone())
    }
    /// ``params._meta.traceparent`` as received.
    #[getter]
    fn traceparent(&self) -> PyResult<Option<String>> {
        Ok(self.req()?.traceparent.clone())
    }
    /// ``params._meta.tracestate`` as received.
    #[getter]
    fn tracestate(&self) -> PyResult<Option<String>> {
        Ok(self.req()?.tracestate.clone())
    }
    /// The span name (``{method} {tool|prompt}``).
    #[getter]
    fn span_name(&self) -> PyResult<String> {
        Ok(self.req()?.span_name())
    }
    /// The host's clock (ms) at receipt.
    #[getter]
    fn start_ms(&self) -> PyResult<u64> {
        Ok(self.req()?.start_ms)
    }
    /// Adds ``key = value`` to the request's observation.
    fn annotate(&mut self, key: String, value: String) -> PyResult<()> {
        self.inner
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("GateRequest already admitted or refused"))?
            .annotate(key, value);
        Ok(())
    }
}

#[pymethods]
impl ServerMachine {
    /// Turns the gate on (``True``) or off (the default): with it on, ``gate_request`` and
    /// ``http_gate_request`` stop every request for the middleware first.
    fn gate(&self, on: bool) -> PyResult<()> {
        self.lock()?.gate(on);
        Ok(())
    }

    /// The request in ``data`` as the gate shows it (a ``GateRequest``), or ``None`` when
    /// the gate is off or ``data`` is no request (hand it to ``handle_message`` at once).
    #[pyo3(signature = (data, now_ms, *, stream = 0, auth = 0, transport = "stdio"))]
    fn gate_request(
        &self,
        data: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
        transport: &str,
    ) -> PyResult<Option<GateRequest>> {
        let ctx = Ctx {
            stream: StreamId(stream),
            auth,
            transport: crate::server_config::transport(transport)?,
            peer: None,
            scopes: None,
        };
        let inner = self.lock()?.gate_request(data, now_ms, ctx);
        Ok(inner.map(|g| GateRequest { inner: Some(g) }))
    }

    /// ``gate_request`` for an HTTP request (a ``POST`` body; the session its headers name
    /// is the request's), after ``http_head`` and the body were read.
    #[pyo3(signature = (method, path, headers, body, now_ms, *, stream, auth = 0))]
    #[allow(clippy::too_many_arguments)]
    fn http_gate_request(
        &self,
        method: &str,
        path: &str,
        headers: &Bound<'_, PyAny>,
        body: &[u8],
        now_ms: u64,
        stream: u64,
        auth: u64,
    ) -> PyResult<Option<GateRequest>> {
        let headers = crate::http_entry::Headers::from_py(headers)?;
        let fields = headers.fields();
        let ctx = Ctx::http(StreamId(stream), auth);
        let inner = self
            .lock()?
            .http_gate_request(&fields.head(method, path), body, now_ms, ctx);
        Ok(inner.map(|g| GateRequest { inner: Some(g) }))
    }

    /// The middleware allowed ``gate``: its annotations go to the request's observation.
    /// Then hand the same bytes to ``handle_message``/``handle_http``.
    fn gate_admit(&self, gate: &mut GateRequest) -> PyResult<()> {
        let g = gate.take()?;
        self.lock()?.gate_admit(g);
        Ok(())
    }

    /// The middleware refused ``gate`` with ``code`` and ``message``: the machine queues the
    /// error a handler's ``McpError(code, message)`` gets (reserved codes -32603).
    #[pyo3(signature = (gate, code, message, *, drain = false))]
    fn gate_refuse<'py>(
        &self,
        py: Python<'py>,
        gate: &mut GateRequest,
        code: i32,
        message: String,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let g = gate.take()?;
        let mut server = self.lock()?;
        server.gate_refuse(g, Failure::from_code(code, message));
        done(py, &mut server, py.None().into_bound(py), drain)
    }

    /// ``gate_refuse`` for a request of ``http_gate_request``: the ``HttpResponse`` to write.
    #[pyo3(signature = (gate, code, message, *, drain = false))]
    fn http_gate_refuse<'py>(
        &self,
        py: Python<'py>,
        gate: &mut GateRequest,
        code: i32,
        message: String,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let g = gate.take()?;
        let mut server = self.lock()?;
        let response = match server.http_gate_refuse(g, Failure::from_code(code, message)) {
            mcp_context::http::HttpStart::Respond(r) => crate::http_entry::response(py, r)?,
            _ => py.None().into_bound(py),
        };
        done(py, &mut server, response, drain)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GateRequest>()
}
