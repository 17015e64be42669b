//! The `ClientMachine`'s argument and error conversions: subscription filters, cache and
//! list modes, string pairs, and the core's call/server errors as Python values.

use mcp_context::client::{CachePolicy, CallError, ClientError, ListMode, ServerError};
use mcp_context::messages::owned::OwnedSubscriptionFilter;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, Exc};
use crate::pyjson;

pub(crate) fn pybool_dict<'py>(
    py: Python<'py>,
    items: &[(&str, bool)],
) -> PyResult<Bound<'py, PyDict>> {
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
pub(crate) fn filter_from(
    py: Python<'_>,
    d: &Bound<'_, PyAny>,
) -> PyResult<OwnedSubscriptionFilter> {
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

pub(crate) fn server_error_parts<'py>(
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
pub(crate) fn call_error<'py>(py: Python<'py>, e: &CallError) -> PyResult<Bound<'py, PyAny>> {
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

pub(crate) fn client_error(py: Python<'_>, e: ClientError) -> PyErr {
    errors::kinded(py, Exc::Client, e.to_string(), e.ident())
}

pub(crate) fn policy(refresh: bool) -> CachePolicy {
    if refresh {
        CachePolicy::Refresh
    } else {
        CachePolicy::PreferCache
    }
}

pub(crate) fn mode(cursor: Option<String>, all_pages: bool) -> ListMode {
    if all_pages {
        ListMode::All
    } else {
        ListMode::Page(cursor)
    }
}

pub(crate) fn str_pairs(
    d: Option<&Bound<'_, PyDict>>,
    what: &str,
) -> PyResult<Vec<(String, String)>> {
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

pub(crate) fn as_refs(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}
