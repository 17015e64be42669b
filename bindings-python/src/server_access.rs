//! `ServerMachine`'s protected-resource door (OAuth 2.1, docs/rules.md §22) and its shared
//! 2025-11-25 sessions (docs/scale-out.md).

use mcp_context::server::StreamId;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::errors::{self, Exc};
use crate::server::ServerMachine;
use crate::server_config::register_error;

#[pymethods]
impl ServerMachine {
    /// Makes the HTTP endpoint an OAuth 2.1 protected resource (docs/rules.md §22):
    /// ``resource`` (the endpoint's canonical URL), ``authorization_servers``,
    /// ``scopes_supported``, ``required_scopes``, ``token_required``, ``resource_name``,
    /// ``resource_documentation``. Raises ``ConfigError``.
    #[pyo3(signature = (resource, authorization_servers, *, scopes_supported = None,
        required_scopes = None, token_required = true, resource_name = None,
        resource_documentation = None))]
    #[allow(clippy::too_many_arguments)]
    fn set_protection(
        &self,
        py: Python<'_>,
        resource: String,
        authorization_servers: Vec<String>,
        scopes_supported: Option<Vec<String>>,
        required_scopes: Option<Vec<String>>,
        token_required: bool,
        resource_name: Option<String>,
        resource_documentation: Option<String>,
    ) -> PyResult<()> {
        let p = mcp_context::auth::resource_server::ResourceServerConfig {
            resource,
            authorization_servers,
            scopes_supported: scopes_supported.unwrap_or_default(),
            required_scopes: required_scopes.unwrap_or_default(),
            token_required,
            resource_name,
            resource_documentation,
        };
        self.lock()?
            .set_protection(Some(p))
            .map_err(|e| errors::new_error(py, Exc::Config, e.to_string(), &[]))
    }

    /// Requires ``scopes`` of every caller of an item: ``kind`` is ``"resource"`` (``key``
    /// its URI), ``"template"`` (its URI template), ``"prompt"`` or ``"tool"`` (its name).
    /// Raises ``RegisterError`` (``unknown_scope``).
    fn require_scopes(
        &self,
        py: Python<'_>,
        kind: &str,
        key: &str,
        scopes: Vec<String>,
    ) -> PyResult<()> {
        let item = crate::protect::scoped(kind, key)?;
        let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
        self.lock()?
            .require_scopes(item, &scopes)
            .map_err(|e| register_error(py, e))
    }

    /// The protected endpoint's door, before ``http_head``: ``None`` (go on, anonymous),
    /// a ``str`` (the bearer token to verify, then ``http_admit``), or the ``HttpResponse``
    /// to write (the metadata document, a 401).
    fn http_authenticate<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: &str,
        headers: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let headers = crate::http_entry::Headers::from_py(headers)?;
        let fields = headers.fields();
        let server = self.lock()?;
        crate::protect::gate(
            py,
            server.http_authenticate(&fields.head(method, path), fields.authorization()),
        )
    }

    /// The core's checks on a verified caller (a dict: ``subject``, ``client_id``,
    /// ``scopes``, ``audience``, ``expires_at_ms``) at ``now_ms`` (Unix epoch): the scope
    /// bits (an ``int`` for ``handle_http(scopes=)``) or the 401/403 ``HttpResponse``.
    fn http_admit<'py>(
        &self,
        py: Python<'py>,
        caller: &Bound<'py, PyAny>,
        now_ms: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let caller = crate::protect::caller(caller)?;
        match self.lock()?.http_admit(&caller, now_ms) {
            Ok(scopes) => Ok(scopes.0.into_pyobject(py)?.into_any()),
            Err(r) => crate::http_entry::response(py, r),
        }
    }

    /// The 401 ``invalid_token`` ``HttpResponse`` for a token the verifier refused (``why``:
    /// its ``error_description``).
    fn http_reject<'py>(&self, py: Python<'py>, why: &str) -> PyResult<Bound<'py, PyAny>> {
        let r = self.lock()?.http_reject(why);
        crate::http_entry::response(py, r)
    }

    /// Shares the 2025-11-25 sessions with a fleet (docs/scale-out.md): ``instance`` (bytes
    /// unique to this instance) is mixed into the ids; ``None`` stops sharing.
    #[pyo3(signature = (instance))]
    fn share_sessions(&self, instance: Option<Vec<u8>>) -> PyResult<()> {
        self.lock()?.share_sessions(instance.as_deref());
        Ok(())
    }

    /// The sessions created, used or ended since the last call: ``[(id, state | None)]``,
    /// ``None`` for an ended one. Store them before sending the answer.
    fn take_session_changes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::sessions::changes(py, &mut *self.lock()?)
    }

    /// Takes session ``id``'s ``state`` (from the fleet's store) at ``now_ms``; raises
    /// ``ValueError`` for a state this core does not encode.
    fn import_session(&self, id: &str, state: &[u8], now_ms: u64) -> PyResult<()> {
        crate::sessions::import(&mut *self.lock()?, id, state, now_ms)
    }

    /// Whether this machine holds 2025-11-25 session ``id``.
    fn has_session(&self, id: &str) -> PyResult<bool> {
        Ok(self.lock()?.has_session(id))
    }

    /// Forgets session ``id`` here (it ended elsewhere); its GET stream, if open here.
    fn forget_session(&self, id: &str) -> PyResult<Option<u64>> {
        Ok(self.lock()?.forget_session(id).map(|s| s.0))
    }

    /// One change of session ``id`` taken by ``take_session_changes`` is settled (stored, or
    /// given up): a table load may replace this machine's state of it again.
    fn session_change_settled(&self, id: &str) -> PyResult<()> {
        self.lock()?.session_change_settled(id);
        Ok(())
    }

    /// A load of the fleet's table starts: the sessions whose change is in flight, or taken
    /// until ``session_load_end``, keep this machine's (newer) state.
    fn session_load_begin(&self) -> PyResult<()> {
        self.lock()?.session_load_begin();
        Ok(())
    }

    /// The load failed: nothing is imported nor forgotten.
    fn session_load_abort(&self) -> PyResult<()> {
        self.lock()?.session_load_abort();
        Ok(())
    }

    /// The fleet's table (``{id: state}``) read at ``now_ms``: imports what is not newer
    /// here, forgets what the table lacks. ``(imported, malformed ids, forgotten, GET
    /// streams to close)``.
    fn session_load_end(
        &self,
        table: std::collections::HashMap<String, Vec<u8>>,
        now_ms: u64,
    ) -> PyResult<(usize, Vec<String>, usize, Vec<u64>)> {
        let rows = table.iter().map(|(id, s)| (id.as_str(), s.as_slice()));
        let load = self.lock()?.session_load_end(rows, now_ms);
        let closed = load.closed.into_iter().map(|s| s.0).collect();
        Ok((load.imported, load.malformed, load.forgotten, closed))
    }

    /// ``(session_id, replay_after)`` of a request's headers: the session it names, and
    /// for a resumed GET stream the event number after which stored events are replayed.
    fn session_head(&self, headers: &Bound<'_, PyAny>) -> PyResult<(Option<String>, Option<u64>)> {
        crate::sessions::head(headers)
    }

    /// ``(session, seq, sse_bytes)`` for a transmit's ``data`` on a session's GET stream
    /// ``stream`` (write and store ``sse_bytes``), or ``None`` for another stream.
    fn session_event<'py>(
        &self,
        py: Python<'py>,
        stream: u64,
        data: &[u8],
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        crate::sessions::event(py, &mut *self.lock()?, stream, data)
    }

    /// The store holds events of ``stream``'s session up to ``stored_max``: number the
    /// next ones after them.
    fn session_stream_floor(&self, stream: u64, stored_max: u64) -> PyResult<()> {
        self.lock()?
            .session_stream_floor(StreamId(stream), stored_max);
        Ok(())
    }
}
