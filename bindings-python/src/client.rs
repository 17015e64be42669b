//! `ClientMachine`: the core's sans-IO client machine (`client::Client`). Bytes and `now_ms`
//! in; `ClientTransmit`, `CloseStream` and event objects out. Results are the core's
//! validated JSON text, given to Python as `dict`s (`json.loads`) with `from_cache`.

use mcp_context::cache::CacheLimits;
use mcp_context::client::{
    CachePolicy, CallError, CallId, Client, ClientConfig, ClientError, CompletionRef, EndReason,
    Era, Event, ListMode, Listing, Notice, Output, Reply, ServerError, Transport,
};
use mcp_context::messages::owned::{OwnedJson, OwnedSubscriptionFilter};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::errors::{self, Exc};
use crate::pyjson;

/// One message to send to the server: on stdio write ``bytes`` and ``b"\n"``; on HTTP POST
/// ``bytes`` with the headers ``MCP-Protocol-Version`` (``protocol_version``), ``Mcp-Method``
/// (``method``) and ``Mcp-Name`` (``name``) when set.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct ClientTransmit {
    /// One compact JSON-RPC message (no newline inside).
    bytes: Py<PyBytes>,
    /// The JSON-RPC id of a request, else ``None``.
    id: Option<i64>,
    /// The method of a request or notification, ``None`` for a response.
    method: Option<String>,
    /// ``Mcp-Name``: the ``uri`` of ``resources/read``, the ``name`` of ``prompts/get``.
    name: Option<String>,
    /// ``MCP-Protocol-Version`` of a modern request.
    protocol_version: Option<String>,
    /// Every header of the HTTP POST for this message, values ready for the wire
    /// (``Content-Type``, ``Accept``, ``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name``
    /// encoded when it is not a safe plain value, ``Mcp-Param-*``).
    http_headers: Vec<(String, String)>,
}

/// HTTP only: close the response stream of request ``id`` (the cancellation on HTTP).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct CloseStream {
    /// The JSON-RPC id of the request whose stream to close.
    id: i64,
}

/// The era and version are settled; queued calls are being sent.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Connected {
    /// ``"modern"`` or ``"legacy"``.
    era: &'static str,
    /// The protocol version every request now carries.
    version: String,
    /// What the server declared: ``resources``, ``resources_subscribe``,
    /// ``resources_list_changed``, ``prompts``, ``prompts_list_changed``,
    /// ``tools_list_changed``, ``completions`` (each a ``bool``).
    features: Py<PyDict>,
    /// The handshake result (``DiscoverResult`` or legacy ``InitializeResult``) as a dict.
    handshake: Py<PyAny>,
}

/// A call's result: ``kind`` is ``"discover"``, ``"read"``, ``"prompt"`` or ``"completion"``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct ClientReply {
    /// Which method answered.
    kind: &'static str,
    /// The call id (as returned by the call).
    call: u64,
    /// The ``result`` object, validated against the spec by the core, as a dict.
    result: Py<PyAny>,
    /// Whether the client's cache answered instead of the server.
    from_cache: bool,
}

/// The pages of a list call: ``kind`` is ``"resources"``, ``"templates"`` or ``"prompts"``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Listed {
    /// Which list.
    kind: &'static str,
    /// The call id.
    call: u64,
    /// The result objects of the pages, in order.
    pages: Py<PyList>,
    /// Whether every page came from the client's cache.
    from_cache: bool,
    /// Where to continue (present, even ``""``, means more pages), else ``None``.
    next_cursor: Option<String>,
    /// Whether an ``all_pages`` walk stopped at the page limit.
    truncated: bool,
}

/// The server needs input before it answers (docs/rules.md §13): answer with
/// ``ClientMachine.respond_input`` (one response per key) or ``cancel``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct InputRequired {
    /// The call id.
    call: u64,
    /// 1 for the first round.
    round: u8,
    /// ``inputRequests``: key → ``{"method": ..., "params": ...}``.
    requests: Py<PyDict>,
}

/// A call ended without a result; ``error`` is an ``McpError`` (raise it, or read ``.code``).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Failed {
    /// The call id.
    call: u64,
    /// Why, as an ``McpError``.
    error: Py<PyAny>,
}

/// A subscription is acknowledged (docs/rules.md §11.2).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Acknowledged {
    /// The listen call id.
    call: u64,
    /// The honoured filter (a ``SubscriptionFilter`` dict).
    honoured: Py<PyDict>,
    /// What was requested and not honoured (empty dict: nothing refused).
    refused: Py<PyDict>,
}

/// A change notification of a subscription.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct Notified {
    /// The listen call id, or ``None`` for a notification no open subscription claims.
    subscription: Option<u64>,
    /// The notification method, e.g. ``"notifications/resources/updated"``.
    method: &'static str,
    /// ``params.uri`` of ``notifications/resources/updated``, else ``None``.
    uri: Option<String>,
}

/// A subscription ended.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct SubscriptionEnded {
    /// The listen call id.
    call: u64,
    /// ``"graceful"`` (the listen result), ``"cancelled_by_server"`` or ``"unexpected_close"``
    /// (re-send the listen with ``filter`` after reconnecting, docs/rules.md §11.4).
    reason: &'static str,
    /// The filter to re-send on ``"unexpected_close"``, else ``None``.
    filter: Option<Py<PyDict>>,
}

/// Something the host should know that is not a call's result: ``kind`` is
/// ``"connect_failed"``, ``"unknown_response"`` or ``"peer_error"``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct ClientNotice {
    /// What happened.
    kind: &'static str,
    /// A description.
    message: String,
    /// The response id for ``"unknown_response"``, else ``None``.
    id: Option<Py<PyAny>>,
}

pyjson::py_repr!(ClientTransmit, ["id", "method", "name", "bytes"]);
pyjson::py_repr!(CloseStream, ["id"]);
pyjson::py_repr!(Connected, ["era", "version", "features"]);
pyjson::py_repr!(ClientReply, ["kind", "call", "from_cache", "result"]);
pyjson::py_repr!(
    Listed,
    [
        "kind",
        "call",
        "from_cache",
        "next_cursor",
        "truncated",
        "pages"
    ]
);
pyjson::py_repr!(InputRequired, ["call", "round", "requests"]);
pyjson::py_repr!(Failed, ["call", "error"]);
pyjson::py_repr!(Acknowledged, ["call", "honoured", "refused"]);
pyjson::py_repr!(Notified, ["subscription", "method", "uri"]);
pyjson::py_repr!(SubscriptionEnded, ["call", "reason", "filter"]);
pyjson::py_repr!(ClientNotice, ["kind", "message", "id"]);

fn pybool_dict<'py>(py: Python<'py>, items: &[(&str, bool)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in items {
        d.set_item(*k, *v)?;
    }
    Ok(d)
}

/// An `OwnedSubscriptionFilter` as its wire dict (absent fields left out).
pub(crate) fn filter_dict<'py>(
    py: Python<'py>,
    f: &OwnedSubscriptionFilter,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in [
        ("toolsListChanged", f.tools_list_changed),
        ("promptsListChanged", f.prompts_list_changed),
        ("resourcesListChanged", f.resources_list_changed),
    ] {
        if let Some(v) = v {
            d.set_item(k, v)?;
        }
    }
    if let Some(uris) = &f.resource_subscriptions {
        d.set_item("resourceSubscriptions", uris.clone())?;
    }
    Ok(d)
}

/// A `SubscriptionFilter` dict → the core's filter, field by field (the wire names).
fn filter_from(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<OwnedSubscriptionFilter> {
    let d = &pyjson::as_dict(d, "the filter (a SubscriptionFilter)")?;
    let mut f = OwnedSubscriptionFilter::default();
    for (k, v) in d.iter() {
        let key: String = k.extract()?;
        let flag = || -> PyResult<Option<bool>> {
            if v.is_none() {
                Ok(None)
            } else {
                v.extract::<bool>()
                    .map(Some)
                    .map_err(|_| pyjson::invalid(py, format!("filter field {key} must be a bool")))
            }
        };
        match key.as_str() {
            "toolsListChanged" => f.tools_list_changed = flag()?,
            "promptsListChanged" => f.prompts_list_changed = flag()?,
            "resourcesListChanged" => f.resources_list_changed = flag()?,
            "resourceSubscriptions" => {
                f.resource_subscriptions = if v.is_none() {
                    None
                } else {
                    Some(v.extract().map_err(|_| {
                        pyjson::invalid(py, "resourceSubscriptions must be a list of str".into())
                    })?)
                }
            }
            other => {
                return Err(pyjson::invalid(
                    py,
                    format!("unknown SubscriptionFilter field {other:?}"),
                ));
            }
        }
    }
    Ok(f)
}

fn server_error_parts<'py>(
    py: Python<'py>,
    e: &ServerError,
) -> PyResult<(i32, String, Bound<'py, PyAny>)> {
    let none = || py.None().into_bound(py);
    Ok(match e {
        ServerError::ResourceNotFound { uri, message } => {
            let data = match uri {
                Some(u) => {
                    let d = PyDict::new(py);
                    d.set_item("uri", u)?;
                    d.into_any()
                }
                None => none(),
            };
            (e.code().code(), message.clone(), data)
        }
        ServerError::UnsupportedProtocolVersion {
            supported,
            requested,
        } => {
            let d = PyDict::new(py);
            d.set_item("supported", supported.clone())?;
            d.set_item("requested", requested)?;
            (e.code().code(), e.to_string(), d.into_any())
        }
        ServerError::MissingRequiredClientCapability { required } => {
            let d = PyDict::new(py);
            d.set_item("requiredCapabilities", pyjson::to_py(py, required)?)?;
            (e.code().code(), e.to_string(), d.into_any())
        }
        ServerError::MethodNotFound { message }
        | ServerError::InvalidParams { message }
        | ServerError::Internal { message } => (e.code().code(), message.clone(), none()),
        ServerError::Other {
            code,
            message,
            data,
        } => (
            code.code(),
            message.clone(),
            match data {
                Some(d) => pyjson::to_py(py, d)?,
                None => none(),
            },
        ),
        other => (other.code().code(), other.to_string(), none()),
    })
}

/// A `CallError` as an `McpError` instance (not raised).
fn call_error<'py>(py: Python<'py>, e: &CallError) -> PyResult<Bound<'py, PyAny>> {
    let (kind, code, message, data) = match e {
        CallError::Server(s) => {
            let (code, message, data) = server_error_parts(py, s)?;
            ("server".to_owned(), Some(code), message, data)
        }
        other => (
            other.ident().to_owned(),
            None,
            other.to_string(),
            py.None().into_bound(py),
        ),
    };
    let err = errors::class(py, Exc::Mcp)?.call1((message.clone(),))?;
    err.setattr("kind", kind)?;
    err.setattr("code", code)?;
    err.setattr("message", message)?;
    err.setattr("data", data)?;
    Ok(err)
}

fn client_error(py: Python<'_>, e: ClientError) -> PyErr {
    errors::kinded(py, Exc::Client, e.to_string(), e.ident())
}

fn reply<'py, K>(
    py: Python<'py>,
    kind: &'static str,
    call: CallId,
    r: &Reply<K>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(
        py,
        ClientReply {
            kind,
            call: call.0,
            result: pyjson::loads(py, r.json())?.unbind(),
            from_cache: r.from_cache(),
        },
    )?
    .into_any())
}

fn listed<'py, K>(
    py: Python<'py>,
    kind: &'static str,
    call: CallId,
    l: Listing<K>,
) -> PyResult<Bound<'py, PyAny>> {
    let pages = PyList::empty(py);
    for p in &l.pages {
        pages.append(pyjson::loads(py, p.json())?)?;
    }
    Ok(Bound::new(
        py,
        Listed {
            kind,
            call: call.0,
            pages: pages.unbind(),
            from_cache: !l.pages.is_empty() && l.pages.iter().all(Reply::from_cache),
            next_cursor: l.next_cursor,
            truncated: l.truncated,
        },
    )?
    .into_any())
}

fn notice<'py>(
    py: Python<'py>,
    kind: &'static str,
    message: String,
    id: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(py, ClientNotice { kind, message, id })?.into_any())
}

fn event<'py>(py: Python<'py>, ev: Event) -> PyResult<Bound<'py, PyAny>> {
    Ok(match ev {
        Event::Connected(s) => {
            let f = s.features;
            Bound::new(
                py,
                Connected {
                    era: match s.era {
                        Era::Modern => "modern",
                        Era::Legacy => "legacy",
                    },
                    version: s.version,
                    features: pybool_dict(
                        py,
                        &[
                            ("resources", f.resources),
                            ("resources_subscribe", f.resources_subscribe),
                            ("resources_list_changed", f.resources_list_changed),
                            ("prompts", f.prompts),
                            ("prompts_list_changed", f.prompts_list_changed),
                            ("tools_list_changed", f.tools_list_changed),
                            ("completions", f.completions),
                        ],
                    )?
                    .unbind(),
                    handshake: pyjson::loads(py, s.handshake.json())?.unbind(),
                },
            )?
            .into_any()
        }
        Event::ConnectFailed(e) => notice(py, "connect_failed", e.to_string(), None)?,
        Event::Discovered { call, reply: r } => reply(py, "discover", call, &r)?,
        Event::ResourceRead { call, reply: r } => reply(py, "read", call, &r)?,
        Event::PromptFetched { call, reply: r } => reply(py, "prompt", call, &r)?,
        Event::Completed { call, reply: r } => reply(py, "completion", call, &r)?,
        Event::Responded { call, result } => Bound::new(
            py,
            ClientReply {
                kind: "request",
                call: call.0,
                result: pyjson::to_py(py, &result)?.unbind(),
                from_cache: false,
            },
        )?
        .into_any(),
        Event::ResourcesListed { call, listing } => listed(py, "resources", call, listing)?,
        Event::TemplatesListed { call, listing } => listed(py, "templates", call, listing)?,
        Event::PromptsListed { call, listing } => listed(py, "prompts", call, listing)?,
        Event::InputRequired {
            call,
            round,
            requests,
        } => {
            let d = PyDict::new(py);
            for (key, req) in &requests {
                let r = PyDict::new(py);
                r.set_item("method", req.method.as_str())?;
                match &req.params {
                    Some(p) => r.set_item("params", pyjson::to_py(py, p)?)?,
                    None => r.set_item("params", py.None())?,
                }
                d.set_item(key, r)?;
            }
            Bound::new(
                py,
                InputRequired {
                    call: call.0,
                    round,
                    requests: d.unbind(),
                },
            )?
            .into_any()
        }
        Event::Failed { call, error } => Bound::new(
            py,
            Failed {
                call: call.0,
                error: call_error(py, &error)?.unbind(),
            },
        )?
        .into_any(),
        Event::Acknowledged {
            call,
            honoured,
            refused,
        } => Bound::new(
            py,
            Acknowledged {
                call: call.0,
                honoured: filter_dict(py, &honoured)?.unbind(),
                refused: filter_dict(py, &refused)?.unbind(),
            },
        )?
        .into_any(),
        Event::Notified {
            subscription,
            notice: n,
        } => {
            let (method, uri) = match n {
                Notice::ResourceUpdated { uri } => ("notifications/resources/updated", Some(uri)),
                Notice::ResourcesListChanged => ("notifications/resources/list_changed", None),
                Notice::PromptsListChanged => ("notifications/prompts/list_changed", None),
                Notice::ToolsListChanged => ("notifications/tools/list_changed", None),
            };
            Bound::new(
                py,
                Notified {
                    subscription: subscription.map(|c| c.0),
                    method,
                    uri,
                },
            )?
            .into_any()
        }
        Event::SubscriptionEnded { call, reason } => {
            let (reason, filter) = match reason {
                EndReason::Graceful => ("graceful", None),
                EndReason::CancelledByServer => ("cancelled_by_server", None),
                EndReason::UnexpectedClose { filter } => {
                    ("unexpected_close", Some(filter_dict(py, &filter)?.unbind()))
                }
            };
            Bound::new(
                py,
                SubscriptionEnded {
                    call: call.0,
                    reason,
                    filter,
                },
            )?
            .into_any()
        }
        Event::UnknownResponse { id } => notice(
            py,
            "unknown_response",
            "a response whose id matches no outstanding request".into(),
            Some(pyjson::request_id(py, &id)?.unbind()),
        )?,
        Event::PeerError(e) => notice(py, "peer_error", e.to_string(), None)?,
        // A variant this binding does not convert yet: a notice named by its core identifier.
        other => notice(py, other.ident(), format!("{other:?}"), None)?,
    })
}

/// The call an event belongs to, if any.
fn call_of(ev: &Event) -> Option<CallId> {
    match ev {
        Event::Discovered { call, .. }
        | Event::ResourcesListed { call, .. }
        | Event::TemplatesListed { call, .. }
        | Event::PromptsListed { call, .. }
        | Event::ResourceRead { call, .. }
        | Event::PromptFetched { call, .. }
        | Event::Completed { call, .. }
        | Event::Responded { call, .. }
        | Event::InputRequired { call, .. }
        | Event::Failed { call, .. }
        | Event::Acknowledged { call, .. }
        | Event::SubscriptionEnded { call, .. } => Some(*call),
        Event::Notified { subscription, .. } => *subscription,
        _ => None,
    }
}

/// What a host gets for an event whose JSON Python cannot represent: `Failed` with an
/// `McpError` of kind `"invalid_result"` for a call, else a `"peer_error"` notice. Never raises
/// anything but pyo3's own allocation errors.
fn unconvertible<'py>(
    py: Python<'py>,
    call: Option<CallId>,
    cause: &PyErr,
) -> PyResult<Bound<'py, PyAny>> {
    let message = format!("the server's JSON cannot be represented in Python: {cause}");
    match call {
        Some(call) => {
            let err = errors::class(py, Exc::Mcp)?.call1((message.clone(),))?;
            err.setattr("kind", "invalid_result")?;
            err.setattr("code", py.None())?;
            err.setattr("message", message)?;
            err.setattr("data", py.None())?;
            Ok(Bound::new(
                py,
                Failed {
                    call: call.0,
                    error: err.unbind(),
                },
            )?
            .into_any())
        }
        None => notice(py, "peer_error", message, None),
    }
}

fn policy(refresh: bool) -> CachePolicy {
    if refresh {
        CachePolicy::Refresh
    } else {
        CachePolicy::PreferCache
    }
}

fn mode(cursor: Option<String>, all_pages: bool) -> ListMode {
    if all_pages {
        ListMode::All
    } else {
        ListMode::Page(cursor)
    }
}

fn str_pairs(d: Option<&Bound<'_, PyDict>>, what: &str) -> PyResult<Vec<(String, String)>> {
    let Some(d) = d else { return Ok(Vec::new()) };
    d.iter()
        .map(|(k, v)| {
            Ok((
                k.extract()
                    .map_err(|_| PyTypeError::new_err(format!("{what} names must be str")))?,
                v.extract()
                    .map_err(|_| PyTypeError::new_err(format!("{what} values must be str")))?,
            ))
        })
        .collect()
}

fn as_refs(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

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
        let Some(out) = self.inner.poll_output() else {
            return Ok(None);
        };
        Ok(Some(match out {
            Output::Transmit(t) => Bound::new(
                py,
                ClientTransmit {
                    http_headers: t
                        .http_headers()
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v.into_owned()))
                        .collect(),
                    bytes: PyBytes::new(py, &t.bytes).unbind(),
                    id: t.id,
                    method: t.method.map(String::from),
                    name: t.name,
                    protocol_version: t.protocol_version,
                },
            )?
            .into_any(),
            Output::CloseStream { id } => Bound::new(py, CloseStream { id })?.into_any(),
            Output::Event(ev) => {
                // Converting server JSON to Python can fail (an integer beyond Python's digit
                // limit, nesting beyond the recursion limit): the call then fails with a typed
                // error instead of the event being lost.
                let call = call_of(&ev);
                match event(py, ev) {
                    Ok(o) => o,
                    Err(e) => unconvertible(py, call, &e)?,
                }
            }
        }))
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
    m.add_class::<ClientTransmit>()?;
    m.add_class::<CloseStream>()?;
    m.add_class::<Connected>()?;
    m.add_class::<ClientReply>()?;
    m.add_class::<Listed>()?;
    m.add_class::<InputRequired>()?;
    m.add_class::<Failed>()?;
    m.add_class::<Acknowledged>()?;
    m.add_class::<Notified>()?;
    m.add_class::<SubscriptionEnded>()?;
    m.add_class::<ClientNotice>()
}
