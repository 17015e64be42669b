//! The `ServerMachine`'s arguments: the constructor's options as a `ServerConfig`, cache hints,
//! contents, value sets, transports, failure reasons, the visibility callback, and the core's
//! registration/answer errors as Python exceptions.

use std::borrow::Cow;

use mcp_context::messages::owned::{OwnedImplementation, OwnedResourceContents};
use mcp_context::server::{
    CacheHint, Failure, Listed, RegisterError, RespondError, SealingKey, ServerConfig, Transport,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, Exc};
use crate::pyjson;

/// The keyword arguments of ``ServerMachine(...)``; `None`/unset: the core's default.
pub(crate) struct Options<'a, 'py> {
    pub(crate) server_info: Option<&'a Bound<'py, PyAny>>,
    pub(crate) instructions: Option<String>,
    pub(crate) supported_versions: Option<Vec<String>>,
    pub(crate) discover_cache: Option<&'a Bound<'py, PyAny>>,
    pub(crate) resources_list_cache: Option<&'a Bound<'py, PyAny>>,
    pub(crate) templates_list_cache: Option<&'a Bound<'py, PyAny>>,
    pub(crate) prompts_list_cache: Option<&'a Bound<'py, PyAny>>,
    pub(crate) read_cache: Option<&'a Bound<'py, PyAny>>,
    pub(crate) state_keys: Option<Vec<(u32, Vec<u8>)>>,
    pub(crate) forward_unlisted_reads: Option<bool>,
    pub(crate) declare_resources: Option<bool>,
    pub(crate) declare_prompts: Option<bool>,
    pub(crate) completion_events: Option<bool>,
    pub(crate) http_path: Option<String>,
    pub(crate) http_any_path: bool,
    pub(crate) allowed_hosts: Option<Vec<String>>,
    pub(crate) allowed_origins: Option<Vec<String>>,
    pub(crate) dynamic_resources: Option<bool>,
    pub(crate) tools_list_cache: Option<&'a Bound<'py, PyAny>>,
    pub(crate) legacy_sessions: Option<bool>,
    /// The core's limits by name (`ServerConfig::LIMITS`): ``{name: int}``.
    pub(crate) limits: Option<&'a Bound<'py, PyDict>>,
}

impl Options<'_, '_> {
    /// The `ServerConfig` these options describe. Raises ``InvalidMessage`` for a bad dict.
    pub(crate) fn into_config(self) -> PyResult<ServerConfig> {
        let Self {
            server_info,
            instructions,
            supported_versions,
            discover_cache,
            resources_list_cache,
            templates_list_cache,
            prompts_list_cache,
            read_cache,
            state_keys,
            forward_unlisted_reads,
            declare_resources,
            declare_prompts,
            completion_events,
            http_path,
            http_any_path,
            allowed_hosts,
            allowed_origins,
            dynamic_resources,
            tools_list_cache,
            legacy_sessions,
            limits,
        } = self;
        let mut config = ServerConfig::default();
        if let Some(info) = server_info {
            if info.is_instance_of::<pyo3::types::PyBool>() {
                if !info.extract::<bool>()? {
                    config.server_info = None;
                }
            } else {
                config.server_info =
                    Some(pyjson::decode::<OwnedImplementation>(info, "server_info")?);
            }
        }
        config.instructions = instructions;
        if let Some(v) = supported_versions {
            config.supported_versions = v;
        }
        // Defaults are the core's (`ServerConfig::default()`): only what the caller gave is set.
        fn set<T>(slot: &mut T, value: Option<T>) {
            if let Some(v) = value {
                *slot = v;
            }
        }
        for (slot, value, what) in [
            (&mut config.discover_cache, discover_cache, "discover_cache"),
            (
                &mut config.resources_list_cache,
                resources_list_cache,
                "resources_list_cache",
            ),
            (
                &mut config.templates_list_cache,
                templates_list_cache,
                "templates_list_cache",
            ),
            (
                &mut config.prompts_list_cache,
                prompts_list_cache,
                "prompts_list_cache",
            ),
            (
                &mut config.tools_list_cache,
                tools_list_cache,
                "tools_list_cache",
            ),
            (&mut config.read_cache, read_cache, "read_cache"),
        ] {
            if let Some(h) = hint(value, what)? {
                *slot = h;
            }
        }
        if let Some(keys) = state_keys {
            config.state_keys = keys
                .into_iter()
                .map(|(id, secret)| SealingKey { id, secret })
                .collect();
        }
        set(&mut config.forward_unlisted_reads, forward_unlisted_reads);
        set(&mut config.declare_resources, declare_resources);
        set(&mut config.declare_prompts, declare_prompts);
        set(&mut config.completion_events, completion_events);
        if http_any_path {
            config.http.path = None;
        } else if http_path.is_some() {
            config.http.path = http_path;
        }
        set(&mut config.http.allowed_hosts, allowed_hosts);
        set(&mut config.http.allowed_origins, allowed_origins);
        set(&mut config.dynamic_resources, dynamic_resources);
        set(&mut config.legacy_sessions, legacy_sessions);
        for (name, value) in limits.iter().flat_map(|d| d.iter()) {
            let name: String = name.extract()?;
            if value.is_none() {
                continue; // the core's default, as for every other keyword
            }
            let value: u64 = value
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("{name} must be a non-negative int")))?;
            config.set_limit(&name, value).map_err(|_| {
                PyTypeError::new_err(format!(
                    "ServerMachine() got an unexpected keyword argument {name:?} \
                     (limits: {})",
                    ServerConfig::LIMITS.join(", ")
                ))
            })?;
        }
        Ok(config)
    }
}

pub(crate) fn register_error(py: Python<'_>, e: RegisterError) -> PyErr {
    errors::kinded(py, Exc::Register, e.to_string(), e.ident())
}

/// A `RespondError` with `kind` and `late` (the core's `RespondError::is_late`).
pub(crate) fn respond_error(py: Python<'_>, e: RespondError) -> PyErr {
    use pyo3::types::{PyBool, PyString};
    let attrs = [
        ("kind", PyString::new(py, e.ident()).into_any()),
        ("late", PyBool::new(py, e.is_late()).to_owned().into_any()),
    ];
    errors::new_error(py, Exc::Respond, e.to_string(), &attrs)
}

pub(crate) fn hint(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<CacheHint>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| pyjson::decode::<CacheHint>(v, what))
        .transpose()
}

/// `{name: [values]}` → value sets.
pub(crate) fn value_sets(d: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Vec<String>)>> {
    let Some(d) = d else { return Ok(Vec::new()) };
    d.iter()
        .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
        .collect()
}

pub(crate) fn contents_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<OwnedResourceContents>> {
    pyjson::decode::<Vec<OwnedResourceContents>>(value, "contents")
}

pub(crate) fn transport(name: &str) -> PyResult<Transport> {
    match name {
        "stdio" => Ok(Transport::Stdio),
        "http" => Ok(Transport::Http),
        _ => Err(PyValueError::new_err(
            "transport must be \"stdio\" or \"http\"",
        )),
    }
}

/// A peer address as text (``"192.0.2.1"``, ``"2001:db8::1"``) as the core's `Ctx::peer`;
/// anything else (a Unix socket path, a test client's name) is no peer.
pub(crate) fn peer(text: Option<&str>) -> Option<std::net::IpAddr> {
    text.and_then(|t| t.parse().ok())
}

/// ``fail``'s ``reason``/``message``/``code`` as a core `Failure`.
pub(crate) fn failure(
    reason: &str,
    message: Option<String>,
    code: Option<i32>,
) -> PyResult<Failure> {
    Ok(match (reason, code) {
        ("not_found", None) => Failure::NotFound,
        ("invalid_params", None) => Failure::InvalidParams(Cow::Owned(
            message.unwrap_or_else(|| "Invalid params".to_owned()),
        )),
        ("internal", None) => Failure::Internal,
        // The core maps the code to its failure (-32602, reserved ranges, the host's own).
        ("application", Some(code)) => Failure::from_code(code, message.unwrap_or_default()),
        // The handler's own failure: the core makes it a tool error on a tool call.
        ("handler", None) => Failure::Handler(Cow::Owned(
            message.unwrap_or_else(|| "Internal error".to_owned()),
        )),
        ("application", None) => {
            return Err(PyTypeError::new_err("reason \"application\" needs a code"));
        }
        _ => {
            return Err(PyValueError::new_err(
                "reason must be \"not_found\", \"invalid_params\", \"internal\", \
                 \"application\" or \"handler\" (code only with \"application\")",
            ));
        }
    })
}

/// ``visible(auth, kind, key) -> bool`` as the core's visibility filter; an exception (or a
/// falsy answer) hides the item.
pub(crate) fn visibility(visible: Py<PyAny>) -> Box<dyn Fn(u64, Listed<'_>) -> bool + Send> {
    Box::new(move |auth: u64, item: Listed<'_>| -> bool {
        let (kind, key) = match item {
            Listed::Resource(r) => ("resource", r.uri.as_str()),
            Listed::Template(t) => ("template", t.uri_template.as_str()),
            Listed::Prompt(p) => ("prompt", p.name.as_str()),
            Listed::Tool(t) => ("tool", t.name()),
        };
        Python::attach(|py| {
            visible
                .call1(py, (auth, kind, key))
                .and_then(|r| r.is_truthy(py))
                .unwrap_or(false)
        })
    })
}
