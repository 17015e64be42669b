//! The `ClientMachine`'s output classes (`ClientTransmit`, `CloseStream`, the event objects)
//! and the conversion of the core's client `Event`s to them.

use mcp_context::client::{CallId, EndReason, Era, Event, Listing, Notice, Output, Reply};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::client_convert::{call_error, filter_dict, pybool_dict};
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

pub(crate) fn reply<'py, K>(
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

pub(crate) fn listed<'py, K>(
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

pub(crate) fn notice<'py>(
    py: Python<'py>,
    kind: &'static str,
    message: String,
    id: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(Bound::new(py, ClientNotice { kind, message, id })?.into_any())
}

pub(crate) fn event<'py>(py: Python<'py>, ev: Event) -> PyResult<Bound<'py, PyAny>> {
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
        Event::ToolsListed { call, listing } => listed(py, "tools", call, listing)?,
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
pub(crate) fn call_of(ev: &Event) -> Option<CallId> {
    match ev {
        Event::Discovered { call, .. }
        | Event::ResourcesListed { call, .. }
        | Event::TemplatesListed { call, .. }
        | Event::PromptsListed { call, .. }
        | Event::ToolsListed { call, .. }
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
pub(crate) fn unconvertible<'py>(
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

/// One output of the machine as its Python object.
pub(crate) fn output<'py>(py: Python<'py>, out: Output) -> PyResult<Bound<'py, PyAny>> {
    Ok(match out {
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
    })
}

/// Adds the machine's output classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
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
