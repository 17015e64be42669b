//! `ServerMachine`'s answers to the application's events: `respond_*`, `fail`, progress
//! and log lines for a pending request.

use mcp_context::messages::owned::{OwnedGetPromptResult, OwnedInputRequest, OwnedResource};
use mcp_context::server::InputRequired;
use pyo3::prelude::*;

use crate::pyjson;
use crate::server::{ServerMachine, log_level};
use crate::server_config::{contents_of, hint, respond_error};
use crate::server_events::Handle;

#[pymethods]
impl ServerMachine {
    /// Answers a ``ReadResource`` with a list of ``ResourceContents`` dicts, under the
    /// configured hints, or ``cache`` (``{"ttlMs", "cacheScope"}``) when given. Raises
    /// ``RespondError`` or ``InvalidMessage``.
    #[pyo3(signature = (handle, contents, cache = None, *, drain = false))]
    fn respond_read<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        contents: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let contents = contents_of(contents)?;
        let hint = hint(cache, "cache")?;
        self.answer(py, drain, |server| match hint {
            Some(h) => server.respond_read_cached(handle.inner, contents, h),
            None => server.respond_read(handle.inner, contents),
        })
    }

    /// Answers a ``GetPrompt`` with a ``GetPromptResult`` dict (``messages``,
    /// ``description``).
    #[pyo3(signature = (handle, result, *, drain = false))]
    fn respond_prompt<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = pyjson::decode::<OwnedGetPromptResult>(result, "result")?;
        self.answer(py, drain, |server| {
            server.respond_prompt(handle.inner, result)
        })
    }

    /// Answers a ``Request`` (an ``add_method`` method) with a result object: the machine
    /// adds ``resultType: "complete"``, ``_meta.serverInfo`` and, when ``cache`` is given,
    /// ``ttlMs``/``cacheScope``.
    ///
    /// Raises ``RespondError`` (``"unknown_handle"``, ``"wrong_kind"``, ``"invalid_result"``:
    /// not an object, another ``resultType``, a ``_meta`` that is not an object) and
    /// ``InvalidMessage`` for a value JSON cannot carry.
    #[pyo3(signature = (handle, result, cache = None, *, drain = false))]
    fn respond_result<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        cache: Option<&Bound<'_, PyAny>>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = pyjson::owned(result, "result")?;
        let cache = hint(cache, "cache")?;
        self.answer(py, drain, |server| {
            server.respond_result(handle.inner, result, cache)
        })
    }

    /// Answers a ``CallTool`` with a ``CallToolResult`` dict (``content`` required,
    /// ``structuredContent``, ``isError``, ``_meta``): the machine checks it and adds
    /// ``resultType`` and ``_meta.serverInfo``. Raises ``RespondError`` (``"invalid_result"``
    /// for anything else) or ``InvalidMessage``.
    #[pyo3(signature = (handle, result, *, drain = false))]
    fn respond_tool<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        result: &Bound<'_, PyAny>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let result = pyjson::owned(result, "result")?;
        self.answer(py, drain, |server| {
            server.respond_tool(handle.inner, result)
        })
    }

    /// Answers a ``CallTool`` whose tool failed: a result with ``isError: true`` and
    /// ``message`` as its text (the spec's tool errors; protocol errors go through ``fail``).
    #[pyo3(signature = (handle, message, *, drain = false))]
    fn respond_tool_error<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        message: &str,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.answer(py, drain, |server| {
            server.respond_tool_error(handle.inner, message)
        })
    }

    /// Answers a ``ListResources`` with one page of the host's ``Resource`` dicts and its
    /// cursor for the next page (``None``: the last). Items whose URI is registered, or
    /// hidden from the caller, are dropped. Raises ``RespondError`` (``"invalid_result"``
    /// for an invalid URI) or ``InvalidMessage``.
    #[pyo3(signature = (handle, resources, next_cursor = None, *, drain = false))]
    fn respond_list<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        resources: &Bound<'_, PyAny>,
        next_cursor: Option<String>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let resources = pyjson::decode::<Vec<OwnedResource>>(resources, "resources")?;
        self.answer(py, drain, |server| {
            server.respond_list(handle.inner, resources, next_cursor)
        })
    }

    /// Sends ``notifications/progress`` for a request that carried a ``progressToken``:
    /// ``True`` when sent, ``False`` when the request had no token. Raises ``RespondError``
    /// (``"unknown_handle"`` once answered, cancelled or timed out; ``"invalid_progress"``
    /// for a value that is not finite or does not increase).
    #[pyo3(signature = (handle, progress, total = None, message = None))]
    fn progress(
        &self,
        py: Python<'_>,
        handle: Handle,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> PyResult<bool> {
        self.lock()?
            .progress(handle.inner, progress, total, message)
            .map_err(|e| respond_error(py, e))
    }

    /// ``notifications/message`` for the request behind ``handle``, on its own stream before
    /// its answer, when the request admits ``level`` (a 2025-11-25 session's
    /// ``logging/setLevel``, a modern request's ``_meta`` log level): ``True`` when queued,
    /// ``False`` when the level filters it out. ``level``: ``"debug"`` … ``"emergency"``;
    /// ``data``: any JSON value. Raises ``RespondError`` (``"unknown_handle"``) once the
    /// request is answered, cancelled or timed out; ``ValueError`` for an unknown level.
    #[pyo3(signature = (handle, level, data, logger = None))]
    fn log_for(
        &self,
        py: Python<'_>,
        handle: Handle,
        level: &str,
        data: &Bound<'_, PyAny>,
        logger: Option<&str>,
    ) -> PyResult<bool> {
        let level = log_level(level)?;
        let data = pyjson::owned(data, "data")?;
        self.lock()?
            .log_for(handle.inner, level, logger, &data)
            .map_err(|e| respond_error(py, e))
    }

    /// ``notifications/message`` to every 2025-11-25 connection and session event stream
    /// whose ``logging/setLevel`` admits ``level`` (modern clients get log lines only on
    /// requests: ``log_for``); how many streams it was queued on.
    #[pyo3(signature = (level, data, logger = None))]
    fn log(&self, level: &str, data: &Bound<'_, PyAny>, logger: Option<&str>) -> PyResult<usize> {
        let level = log_level(level)?;
        let data = pyjson::owned(data, "data")?;
        Ok(self.lock()?.log(level, logger, &data))
    }

    /// Answers a ``Complete`` with candidate values (the first 100 are sent, with
    /// ``total``/``hasMore``).
    #[pyo3(signature = (handle, values, *, drain = false))]
    fn respond_completion<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        values: Vec<String>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.answer(py, drain, |server| {
            server.respond_completion(handle.inner, values)
        })
    }

    /// Answers a read or prompt event with ``resultType: "input_required"`` (docs/rules.md §13):
    /// ``requests`` maps keys to ``{"method": "elicitation/create" | "sampling/createMessage"
    /// | "roots/list", "params": {...}}``; ``state`` (bytes) comes back verified on the retry
    /// (needs ``state_keys``). Raises ``RespondError`` (``kind == "client_lacks_capability"``:
    /// the client got -32021 and the handle is consumed) or ``InvalidMessage``.
    #[pyo3(signature = (handle, requests, state = None, *, drain = false))]
    fn respond_input_required<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        requests: &Bound<'_, PyAny>,
        state: Option<Vec<u8>>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let requests = pyjson::decode::<Vec<(String, OwnedInputRequest)>>(requests, "requests")?;
        self.answer(py, drain, |server| {
            server.respond_input_required(handle.inner, InputRequired { requests, state })
        })
    }

    /// Fails an event's request. ``reason``: ``"not_found"`` (-32602, with ``data.uri`` on a
    /// read), ``"invalid_params"`` (-32602 with ``message``), ``"internal"`` (-32603) or
    /// ``"application"`` (``code`` and ``message``; codes in -32768..=-32000 are sent as
    /// -32603; -32602 is ``"invalid_params"``, -32002 ``"not_found"``: the core's
    /// ``Failure::from_code``) or ``"handler"`` (the handler's own failure: a ``CallTool``
    /// result with ``isError: true`` and ``message``; -32603 without it elsewhere).
    #[pyo3(signature = (handle, reason, message = None, *, code = None, drain = false))]
    fn fail<'py>(
        &self,
        py: Python<'py>,
        handle: Handle,
        reason: &str,
        message: Option<String>,
        code: Option<i32>,
        drain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let failure = crate::server_config::failure(reason, message, code)?;
        self.answer(py, drain, |server| server.fail(handle.inner, failure))
    }
}
