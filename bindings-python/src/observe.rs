//! The core's observations (`mcp_context::observe`, docs/rules.md §26) for the Python
//! package's telemetry (`mcp_context.telemetry`): functions on a ``ServerMachine``.

use mcp_context::observe::{
    Era, Observation, Outcome, RATE_LIMITED, RESPONSE_TOO_LARGE, TraceParent,
};
use mcp_context::server::Transport;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::server::ServerMachine;
use crate::server_events::Handle;

/// Turns the machine's observations on or off (off by default, then free).
#[pyfunction]
fn observe(machine: &ServerMachine, on: bool) -> PyResult<()> {
    machine.lock()?.observe(on);
    Ok(())
}

/// Answers over ``max`` bytes become the error ``RESPONSE_TOO_LARGE`` (``None``: no cap).
#[pyfunction]
#[pyo3(signature = (machine, max))]
fn limit_responses(machine: &ServerMachine, max: Option<usize>) -> PyResult<()> {
    machine.lock()?.limit_responses(max);
    Ok(())
}

/// Adds ``key = value`` to the observation of the pending request ``handle``.
#[pyfunction]
fn annotate(machine: &ServerMachine, handle: Handle, key: &str, value: &str) -> PyResult<()> {
    machine.lock()?.annotate(handle.inner, key, value);
    Ok(())
}

/// Every waiting observation as dicts (``kind`` ``"request"`` or ``"refused"``); a
/// request's ``end_ms`` is ``now_ms``.
#[pyfunction]
fn poll_observations<'py>(
    py: Python<'py>,
    machine: &ServerMachine,
    now_ms: u64,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    let mut server = machine.lock()?;
    while let Some(o) = server.poll_observation(now_ms) {
        let d = PyDict::new(py);
        match o {
            Observation::Request(r) => {
                let mut buf = [0u8; 12];
                d.set_item("kind", "request")?;
                d.set_item("method", &r.method)?;
                d.set_item("request_id", &r.request_id)?;
                d.set_item("target", &r.target)?;
                d.set_item("target_attribute", r.target_attribute())?;
                d.set_item("span_name", r.span_name())?;
                d.set_item("caller", r.caller)?;
                d.set_item("stream", r.stream.0)?;
                d.set_item(
                    "transport",
                    match r.transport {
                        Transport::Stdio => "pipe",
                        Transport::Http => "tcp",
                    },
                )?;
                d.set_item(
                    "era",
                    match r.era {
                        Era::Modern => "modern",
                        Era::Legacy => "legacy",
                    },
                )?;
                d.set_item("protocol_version", &r.protocol_version)?;
                d.set_item("session_id", &r.session_id)?;
                d.set_item("traceparent", &r.traceparent)?;
                d.set_item("tracestate", &r.tracestate)?;
                d.set_item("outcome", r.outcome.label())?;
                d.set_item("error_type", r.outcome.error_type(&mut buf))?;
                d.set_item(
                    "error_code",
                    match r.outcome {
                        Outcome::Error(c) => Some(c),
                        _ => None,
                    },
                )?;
                d.set_item("annotations", r.annotations.clone())?;
                d.set_item("start_ms", r.start_ms)?;
                d.set_item("end_ms", r.end_ms)?;
            }
            Observation::Refused(r) => {
                d.set_item("kind", "refused")?;
                d.set_item("limit", r.limit.as_str())?;
                d.set_item("caller", r.caller)?;
                d.set_item("stream", r.stream.0)?;
                d.set_item("at_ms", r.at_ms)?;
            }
        }
        out.append(d)?;
    }
    Ok(out)
}

/// The span parent of a request (docs/rules.md §26.3): ``(trace_id_hex, span_id_hex,
/// flags)`` of the ``_meta`` ``traceparent`` when valid, else the header's, else ``None``.
#[pyfunction]
#[pyo3(signature = (meta, header = None))]
fn trace_parent(meta: Option<&str>, header: Option<&str>) -> Option<(String, String, u8)> {
    TraceParent::choose(meta, header).map(|t| {
        (
            t.trace_id_hex().to_owned(),
            t.span_id_hex().to_owned(),
            t.flags(),
        )
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(observe, m)?)?;
    m.add_function(wrap_pyfunction!(limit_responses, m)?)?;
    m.add_function(wrap_pyfunction!(annotate, m)?)?;
    m.add_function(wrap_pyfunction!(poll_observations, m)?)?;
    m.add_function(wrap_pyfunction!(trace_parent, m)?)?;
    m.add("RATE_LIMITED", RATE_LIMITED)?;
    m.add("RESPONSE_TOO_LARGE", RESPONSE_TOO_LARGE)?;
    Ok(())
}
