//! `ClientMachine`: the core's sans-IO client machine (`client::Client`). Bytes and `now_ms`
//! in; `ClientTransmit`, `CloseStream` and event objects out. Results are the core's
//! validated JSON text, given to Python as `dict`s (`json.loads`) with `from_cache`.

use mcp_context::cache::CacheLimits;
use mcp_context::client::{CallId, Client, ClientConfig, CompletionRef, Transport};
use mcp_context::messages::owned::OwnedJson;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::client_convert::{as_refs, client_error, filter_from, mode, policy, str_pairs};
use crate::errors::{self, Exc};
use crate::pyjson;

/// The sans-IO MCP client machine: negotiation (``server/discover``, legacy fallback),
/// per-request ``_meta``, pagination, ``input_required`` retries, subscriptions, and a
/// scope-aware result cache. It does no I/O and reads no clock.
///
/// Time: every method that needs it takes ``now_ms``, an ``int`` of milliseconds from any
/// monotonic clock the host chooses (e.g. ``time.monotonic_ns() // 1_000_000``).
///
/// Drain rule: after every input (a call, ``handle_message``, ``handle_timeout``,
/// ``handle_close``, ``handle_request_failed``, ``cancel``, ``respond_input``) call
/// ``poll_output()`` until it returns ``None``, then arm a timer for ``poll_timeout()``.
#[pyclass(module = "mcp_context", name = "ClientMachine")]
pub(crate) struct ClientMachine {
    inner: Client,
}

#[pymethods]
impl ClientMachine {
    /// ``name``/``version``: ``clientInfo``. ``capabilities``: the ``ClientCapabilities`` dict
    /// sent on every request (declare ``elicitation``/``sampling``/``roots`` only if the host
    /// answers those input requests). ``transport``: ``"stdio"`` or ``"http"``. ``cache``:
    /// ``(max_entries, max_bytes)`` or ``None`` to disable. ``legacy_fallback=False`` speaks
    /// 2026-07-28 only. Raises ``ConfigError``.
    #[new]
    #[pyo3(signature = (name, version, *, capabilities = None, transport = "stdio",
        request_timeout_ms = 30_000, probe_timeout_ms = 5_000, max_pages = 64,
        max_input_rounds = 8, cache = Some((256, 4 << 20)), legacy_fallback = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: &str,
        version: &str,
        capabilities: Option<&Bound<'_, PyAny>>,
        transport: &str,
        request_timeout_ms: u64,
        probe_timeout_ms: u64,
        max_pages: usize,
        max_input_rounds: u8,
        cache: Option<(usize, usize)>,
        legacy_fallback: bool,
    ) -> PyResult<Self> {
        let mut config = ClientConfig::new(name, version);
        if let Some(c) = capabilities {
            config.capabilities = pyjson::owned(c, "capabilities")?;
        }
        config.transport = match transport {
            "stdio" => Transport::Stdio,
            "http" => Transport::Http,
            _ => {
                return Err(PyValueError::new_err(
                    "transport must be \"stdio\" or \"http\"",
                ));
            }
        };
        config.request_timeout_ms = request_timeout_ms;
        config.probe_timeout_ms = probe_timeout_ms;
        config.max_pages = max_pages;
        config.max_input_rounds = max_input_rounds;
        config.cache = cache.map(|(max_entries, max_bytes)| CacheLimits {
            max_entries,
            max_bytes,
        });
        if !legacy_fallback {
            config.legacy_versions.clear();
        }
        Client::new(config)
            .map(|inner| Self { inner })
            .map_err(|e| errors::new_error(py, Exc::Config, e.to_string(), &[]))
    }

    /// Starts the negotiation if not connected (a call connects by itself).
    fn connect(&mut self, now_ms: u64) {
        self.inner.connect(now_ms);
    }

    /// ``server/discover``; returns the call id.
    #[pyo3(signature = (now_ms, *, refresh = false))]
    fn discover(&mut self, now_ms: u64, refresh: bool) -> u64 {
        self.inner.discover(policy(refresh), now_ms).0
    }

    /// ``resources/list``: one page from ``cursor`` (``None``: the first), or every page with
    /// ``all_pages=True``. ``refresh=True`` skips the cache. Returns the call id.
    #[pyo3(signature = (now_ms, *, cursor = None, all_pages = false, refresh = false))]
    fn list_resources(
        &mut self,
        now_ms: u64,
        cursor: Option<String>,
        all_pages: bool,
        refresh: bool,
    ) -> u64 {
        self.inner
            .list_resources(mode(cursor, all_pages), policy(refresh), now_ms)
            .0
    }

    /// ``resources/templates/list`` (see ``list_resources``).
    #[pyo3(signature = (now_ms, *, cursor = None, all_pages = false, refresh = false))]
    fn list_resource_templates(
        &mut self,
        now_ms: u64,
        cursor: Option<String>,
        all_pages: bool,
        refresh: bool,
    ) -> u64 {
        self.inner
            .list_resource_templates(mode(cursor, all_pages), policy(refresh), now_ms)
            .0
    }

    /// ``tools/list`` (see ``list_resources``): pages without the tools whose
    /// ``x-mcp-header`` annotations are invalid (the machine refuses to call them).
    #[pyo3(signature = (now_ms, *, cursor = None, all_pages = false, refresh = false))]
    fn list_tools(
        &mut self,
        now_ms: u64,
        cursor: Option<String>,
        all_pages: bool,
        refresh: bool,
    ) -> u64 {
        self.inner
            .list_tools(mode(cursor, all_pages), policy(refresh), now_ms)
            .0
    }

    /// ``prompts/list`` (see ``list_resources``).
    #[pyo3(signature = (now_ms, *, cursor = None, all_pages = false, refresh = false))]
    fn list_prompts(
        &mut self,
        now_ms: u64,
        cursor: Option<String>,
        all_pages: bool,
        refresh: bool,
    ) -> u64 {
        self.inner
            .list_prompts(mode(cursor, all_pages), policy(refresh), now_ms)
            .0
    }

    /// A request for a method the machine does not own (``tools/list``, ``tools/call``,
    /// vendor methods) with ``params`` (a dict; the machine adds ``_meta``, the id, the
    /// deadline, the version retry and the ``input_required`` loop). The answer is a
    /// ``ClientReply`` of kind ``"request"`` (never cached) or ``Failed``. Raises
    /// ``ClientError`` (``"owned_method"``, ``"params_not_object"``, ``"rejected_tool"``).
    #[pyo3(signature = (method, params = None, now_ms = 0))]
    fn request(
        &mut self,
        py: Python<'_>,
        method: &str,
        params: Option<&Bound<'_, PyAny>>,
        now_ms: u64,
    ) -> PyResult<u64> {
        let params = match params.filter(|p| !p.is_none()) {
            Some(p) => pyjson::owned(p, "params")?,
            None => {
                OwnedJson::parse("{}".to_owned()).map_err(|e| pyjson::invalid(py, e.to_string()))?
            }
        };
        self.inner
            .request(method, params, now_ms)
            .map(|c| c.0)
            .map_err(|e| client_error(py, e))
    }

    /// ``resources/read`` of ``uri``; a fresh cached result answers without asking unless
    /// ``refresh=True``. Returns the call id.
    #[pyo3(signature = (uri, now_ms, *, refresh = false))]
    fn read_resource(&mut self, uri: &str, now_ms: u64, refresh: bool) -> u64 {
        self.inner.read_resource(uri, policy(refresh), now_ms).0
    }

    /// The fresh cached ``ReadResourceResult`` of ``uri`` for the current authorization
    /// context, as a dict, or ``None``. Sends nothing.
    fn read_cached<'py>(
        &mut self,
        py: Python<'py>,
        uri: &str,
        now_ms: u64,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .read_cached(uri, now_ms)
            .map(|r| pyjson::loads(py, r.json()))
            .transpose()
    }

    /// Drops every cached read result of ``uri`` (and of related sub-/super-resources) in
    /// every authorization context; returns how many entries. A host's own no-store policy:
    /// the server's hints bound what the cache may keep, the host may keep less.
    fn forget_read(&mut self, uri: &str) -> usize {
        self.inner.forget_read(uri)
    }

    /// ``prompts/get`` of ``name`` with string ``arguments``; returns the call id.
    #[pyo3(signature = (name, now_ms, arguments = None))]
    fn get_prompt(
        &mut self,
        name: &str,
        now_ms: u64,
        arguments: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<u64> {
        let args = str_pairs(arguments, "prompt argument")?;
        Ok(self.inner.get_prompt(name, &as_refs(&args), now_ms).0)
    }

    /// ``completion/complete``. ``ref``: ``{"type": "ref/prompt", "name": ...}`` or
    /// ``{"type": "ref/resource", "uri": <template>}``; ``argument``: ``{"name", "value"}``;
    /// ``context``: ``{"arguments": {...}}`` or ``None``. Returns the call id.
    #[pyo3(signature = (r#ref, argument, now_ms, context = None))]
    fn complete(
        &mut self,
        py: Python<'_>,
        r#ref: &Bound<'_, PyAny>,
        argument: &Bound<'_, PyAny>,
        now_ms: u64,
        context: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let r#ref = &pyjson::as_dict(r#ref, "ref")?;
        let argument = &pyjson::as_dict(argument, "argument")?;
        let context = context
            .filter(|c| !c.is_none())
            .map(|c| pyjson::as_dict(c, "context"))
            .transpose()?;
        let context = context.as_ref();
        let field = |d: &Bound<'_, PyDict>, k: &str| -> PyResult<String> {
            d.get_item(k)?
                .ok_or_else(|| pyjson::invalid(py, format!("missing {k:?}")))?
                .extract()
                .map_err(|_| pyjson::invalid(py, format!("{k:?} must be a str")))
        };
        let reference = match field(r#ref, "type")?.as_str() {
            "ref/prompt" => CompletionRef::Prompt(field(r#ref, "name")?),
            "ref/resource" => CompletionRef::Resource(field(r#ref, "uri")?),
            other => return Err(pyjson::invalid(py, format!("unknown ref type {other:?}"))),
        };
        let (name, value) = (field(argument, "name")?, field(argument, "value")?);
        let ctx = match context {
            Some(c) => match c.get_item("arguments")? {
                Some(a) => Some(str_pairs(Some(a.cast::<PyDict>()?), "context argument")?),
                None => Some(Vec::new()),
            },
            None => None,
        };
        let ctx_refs = ctx.as_deref().map(as_refs);
        Ok(self
            .inner
            .complete(reference, (&name, &value), ctx_refs.as_deref(), now_ms)
            .0)
    }

    /// ``subscriptions/listen`` with a ``SubscriptionFilter`` dict (``resourcesListChanged``,
    /// ``promptsListChanged``, ``toolsListChanged``, ``resourceSubscriptions``); returns the
    /// call id. Events: ``Acknowledged``, then ``Notified``, then ``SubscriptionEnded``.
    fn listen(&mut self, py: Python<'_>, filter: &Bound<'_, PyAny>, now_ms: u64) -> PyResult<u64> {
        let f = filter_from(py, filter)?;
        Ok(self.inner.listen(f, now_ms).0)
    }

    /// Gives up on ``call`` (stdio: ``notifications/cancelled``; HTTP: ``CloseStream``).
    /// Raises ``ClientError`` for an unknown call.
    #[pyo3(signature = (call, now_ms, reason = None))]
    fn cancel(
        &mut self,
        py: Python<'_>,
        call: u64,
        now_ms: u64,
        reason: Option<&str>,
    ) -> PyResult<()> {
        self.inner
            .cancel(CallId(call), reason, now_ms)
            .map_err(|e| client_error(py, e))
    }

    /// Answers an ``InputRequired`` event: ``responses`` maps each requested key to its
    /// result dict (``ElicitResult``, ``CreateMessageResult``, ``ListRootsResult``); the
    /// request is retried. Raises ``ClientError`` (wrong keys, not waiting) or
    /// ``InvalidMessage``.
    fn respond_input(
        &mut self,
        py: Python<'_>,
        call: u64,
        responses: &Bound<'_, PyDict>,
        now_ms: u64,
    ) -> PyResult<()> {
        let mut owned: Vec<(String, OwnedJson)> = Vec::new();
        for (k, v) in responses.iter() {
            let key: String = k.extract()?;
            let json = pyjson::owned(&v, &key)?;
            owned.push((key, json));
        }
        self.inner
            .respond_input(CallId(call), owned, now_ms)
            .map_err(|e| client_error(py, e))
    }

    /// One message from the server (a line on stdio; a JSON body or one SSE ``data`` on HTTP).
    fn handle_message(&mut self, data: &[u8], now_ms: u64) {
        self.inner.handle_message(data, now_ms);
    }

    /// Fails requests past their deadline; call at ``poll_timeout()``.
    fn handle_timeout(&mut self, now_ms: u64) {
        self.inner.handle_timeout(now_ms);
    }

    /// HTTP: request ``id`` got no JSON-RPC answer (e.g. 404/405 with an empty body); for
    /// the ``server/discover`` probe that means a legacy server.
    fn handle_request_failed(&mut self, id: i64, now_ms: u64) {
        self.inner.handle_request_failed(id, now_ms);
    }

    /// HTTP: the response head of request ``id`` (``None`` for a notification's POST):
    /// ``status`` and its ``Mcp-Session-Id`` header. Call before handing its body over. A
    /// 2025-11-25 ``initialize`` answer starts the session (later ``http_headers`` carry
    /// it); a 404 on the session starts a new one and sends the calls in flight again.
    #[pyo3(signature = (id, status, session_id, now_ms))]
    fn handle_http_response(
        &mut self,
        id: Option<i64>,
        status: u16,
        session_id: Option<&str>,
        now_ms: u64,
    ) {
        self.inner
            .handle_http_response(id, status, session_id, now_ms);
    }

    /// Ends the 2025-11-25 HTTP session, if any: the headers of the ``DELETE`` to send to
    /// the endpoint, as ``(name, value)`` pairs, or ``None``. Call at close, before
    /// ``handle_close``.
    fn end_session(&mut self) -> Option<Vec<(&'static str, String)>> {
        self.inner.end_session()
    }

    /// The 2025-11-25 HTTP session id in force, or ``None``.
    #[getter]
    fn http_session_id(&self) -> Option<String> {
        self.inner.http_session_id().map(String::from)
    }

    /// The transport closed: outstanding calls fail, subscriptions end ``unexpected_close``.
    fn handle_close(&mut self, now_ms: u64) {
        self.inner.handle_close(now_ms);
    }

    /// Installs the output-ready signal: ``callback()`` is called each time an output is
    /// queued while the queue was empty, and at once when output is already waiting. It runs
    /// inside the machine call that queued, so it must not call the machine: schedule a drain.
    fn set_waker(&mut self, callback: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_waker(crate::waker::from_callback(callback)?);
        Ok(())
    }

    /// Whether ``poll_output`` has something to give.
    fn has_output(&self) -> bool {
        self.inner.has_output()
    }

    /// The next output: ``ClientTransmit``, ``CloseStream``, an event object, or ``None``.
    fn poll_output<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .poll_output()
            .map(|out| crate::client_events::output(py, out))
            .transpose()
    }

    /// When (``now_ms``) to call ``handle_timeout``, or ``None``.
    fn poll_timeout(&self) -> Option<u64> {
        self.inner.poll_timeout()
    }

    /// The authorization context (an ``int`` the host derives from the credentials, or
    /// ``None``) for the cache: private results are only served to the same context.
    fn set_auth_context(&mut self, auth: Option<u64>) {
        self.inner
            .set_auth_context(auth.map(mcp_context::cache::AuthContext));
    }

    /// Re-keys request ``id`` to the authorization context ``auth`` it was answered under
    /// (a 401 ran an authorization and it went again with the new token), before its answer
    /// is fed, so its private result is cached for that context. No-op for an unknown id.
    fn set_request_auth_context(&mut self, id: i64, auth: Option<u64>) {
        self.inner
            .set_request_auth_context(id, auth.map(mcp_context::cache::AuthContext));
    }

    /// The negotiated protocol version, or ``None`` before ``Connected``.
    #[getter]
    fn protocol_version(&self) -> Option<String> {
        self.inner.session().map(|s| s.version.clone())
    }

    /// Requests sent and not yet answered.
    #[getter]
    fn outstanding(&self) -> usize {
        self.inner.outstanding()
    }
}

/// Adds `ClientMachine` and its output classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ClientMachine>()?;
    crate::client_events::register(m)
}
