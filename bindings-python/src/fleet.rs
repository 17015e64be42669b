//! `Fleet`: the core's fleet protocol (`mcp_context::fleet`, docs/rules.md §23) for the
//! Python broker (`mcp_context.broker`), which only moves its bytes through Redis.

use mcp_context::fleet::{Change, Fleet as CoreFleet, Receipt, Reject, metrics};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::server::ServerMachine;

/// One instance's end of the fleet protocol: ``Fleet(fleet, instance_id)``. Each method that
/// takes ``machine`` runs on the ``ServerMachine`` (drain it afterwards).
#[pyclass(module = "mcp_context", name = "Fleet")]
pub(crate) struct Fleet {
    inner: CoreFleet,
}

#[pymethods]
impl Fleet {
    #[new]
    fn new(fleet: &str, instance_id: &str) -> PyResult<Self> {
        CoreFleet::new(fleet, instance_id)
            .map(|inner| Self { inner })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// ``mcp-context:<fleet>:events``.
    #[getter]
    fn channel(&self) -> &str {
        self.inner.channel()
    }

    /// This instance's id.
    #[getter]
    fn instance_id(&self) -> &str {
        self.inner.origin()
    }

    /// Whether the link is up.
    #[getter]
    fn connected(&self) -> bool {
        self.inner.is_connected()
    }

    /// A change made here (``kind``: ``"resource_updated"`` with ``uri``,
    /// ``"resources_list_changed"``, ``"prompts_list_changed"``, ``"tools_list_changed"``):
    /// applied to ``machine``, then the event to publish, or ``None`` while the link is down.
    #[pyo3(signature = (machine, kind, uri=None))]
    fn local<'py>(
        &mut self,
        py: Python<'py>,
        machine: PyRef<'_, ServerMachine>,
        kind: &str,
        uri: Option<&str>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let change = Change::from_kind(kind, uri)
            .ok_or_else(|| PyValueError::new_err(format!("unknown event kind {kind:?}")))?;
        let mut server = machine.lock()?;
        Ok(self
            .inner
            .local(&mut server, &change)
            .map(|b| PyBytes::new(py, b)))
    }

    /// One event from the channel: ``"applied"``, ``"echo"`` (own, skipped), or
    /// ``"malformed"`` / ``"version"`` / ``"kind"`` (not applied).
    fn receive(
        &mut self,
        machine: PyRef<'_, ServerMachine>,
        event: &[u8],
    ) -> PyResult<&'static str> {
        let mut server = machine.lock()?;
        Ok(match self.inner.receive(&mut server, event) {
            Receipt::Applied => "applied",
            Receipt::Echo => "echo",
            Receipt::Rejected(Reject::Version) => "version",
            Receipt::Rejected(Reject::Kind) => "kind",
            Receipt::Rejected(_) => "malformed",
        })
    }

    /// The subscriber is subscribed; ``True`` when every listen was ended (not the first link).
    fn link_up(&mut self, machine: PyRef<'_, ServerMachine>) -> PyResult<bool> {
        Ok(self.inner.link_up(&mut *machine.lock()?))
    }

    /// The link is lost or an attempt failed; ``True`` when every listen was ended.
    fn link_down(&mut self, machine: PyRef<'_, ServerMachine>) -> PyResult<bool> {
        Ok(self.inner.link_down(&mut *machine.lock()?))
    }

    /// ``n`` events were handed to the broker.
    fn published(&mut self, n: u64) {
        self.inner.published(n);
    }

    /// ``n`` events from ``local`` were dropped by the runner (queue full or flushed).
    fn dropped(&mut self, n: u64) {
        self.inner.dropped(n);
    }

    /// The counters: ``connected``, ``published``, ``applied``, ``echoes``, ``dropped``,
    /// ``rejected``, ``signals``.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.stats();
        let d = PyDict::new(py);
        d.set_item("connected", s.connected)?;
        d.set_item("published", s.published)?;
        d.set_item("applied", s.applied)?;
        d.set_item("echoes", s.echoes)?;
        d.set_item("dropped", s.dropped)?;
        d.set_item("rejected", s.rejected)?;
        d.set_item("signals", s.signals)?;
        Ok(d)
    }

    /// The counters as broker metrics (the core's ``fleet::metrics``, docs/operations.md):
    /// ``(name, reason | None, value)``, the counters of ``BROKER_COUNTERS`` in their order.
    fn metrics(&self) -> Vec<(&'static str, Option<&'static str>, u64)> {
        let s = self.inner.stats();
        s.metrics()
            .iter()
            .map(|m| (m.name, m.reason, m.value))
            .collect()
    }
}

/// A fleet event (wire format of docs/rules.md §23.1) decoded:
/// ``(version, instance_id, kind, uri)``, or ``None`` when it cannot be applied. For tools
/// and benchmarks that watch the channel.
#[pyfunction]
fn decode_fleet_event(event: &[u8]) -> Option<(u64, String, &'static str, Option<String>)> {
    let m = mcp_context::fleet::decode(event).ok()?;
    let uri = m.change.uri().map(str::to_owned);
    Some((m.version, m.origin.into_owned(), m.change.kind(), uri))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Fleet>()?;
    m.add("BROKER_COUNTERS", metrics::COUNTERS.to_vec())?;
    m.add(
        "BROKER_CONNECTED",
        (metrics::CONNECTED, metrics::CONNECTED_DESCRIPTION),
    )?;
    m.add("BROKER_REASON", metrics::REASON)?;
    m.add(
        "REDIS_TOKEN_BUCKET",
        mcp_context::fleet::rate::REDIS_TOKEN_BUCKET,
    )?;
    m.add("RATE_KEY_PREFIX", mcp_context::fleet::rate::RATE_KEY_PREFIX)?;
    m.add(
        "RATE_FAIL_CLOSED",
        mcp_context::fleet::rate::FAIL_CLOSED_BY_DEFAULT,
    )?;
    m.add(
        "RATE_UNAVAILABLE_MESSAGE",
        mcp_context::fleet::rate::RATE_UNAVAILABLE_MESSAGE,
    )?;
    m.add(
        "RATE_FAILURE_ANNOTATION",
        mcp_context::fleet::rate::RATE_FAILURE_ANNOTATION,
    )?;
    m.add_function(wrap_pyfunction!(decode_fleet_event, m)?)
}
