//! The protected endpoint's values across the boundary (docs/rules.md §22): the door's
//! answer, a verified caller, an item kind. The rules are the core's.

use mcp_context::auth::resource_server::Caller;
use mcp_context::server::{Gate, Scoped};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `Gate` as Python: `None` (proceed), the token (`str`), or an `HttpResponse`.
pub(crate) fn gate<'py>(py: Python<'py>, g: Gate<'_>) -> PyResult<Bound<'py, PyAny>> {
    match g {
        Gate::Proceed => Ok(py.None().into_bound(py)),
        Gate::Verify(token) => Ok(token.into_pyobject(py)?.into_any()),
        Gate::Respond(r) => crate::http_entry::response(py, r),
    }
}

/// A caller dict (`subject`, `client_id`, `scopes`, `audience`, `expires_at_ms`; each may be
/// absent) as the core's `Caller`.
pub(crate) fn caller(v: &Bound<'_, PyAny>) -> PyResult<Caller> {
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match v.get_item(k) {
            Ok(x) if !x.is_none() => Ok(Some(x)),
            Ok(_) => Ok(None),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(v.py()) => Ok(None),
            Err(e) => Err(e),
        }
    };
    let strings =
        |k: &str| -> PyResult<Vec<String>> { get(k)?.map_or(Ok(Vec::new()), |x| x.extract()) };
    Ok(Caller {
        subject: get("subject")?.map(|x| x.extract()).transpose()?,
        client_id: get("client_id")?.map(|x| x.extract()).transpose()?,
        scopes: strings("scopes")?,
        audience: strings("audience")?,
        expires_at_ms: get("expires_at_ms")?.map(|x| x.extract()).transpose()?,
    })
}

/// `kind` and `key` as the core's item key.
pub(crate) fn scoped<'k>(kind: &str, key: &'k str) -> PyResult<Scoped<'k>> {
    Scoped::of_kind(kind, key).ok_or_else(|| {
        PyValueError::new_err(format!(
            "kind must be 'resource', 'template', 'prompt' or 'tool', not '{kind}'"
        ))
    })
}
