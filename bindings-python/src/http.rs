//! The Streamable HTTP checks a host makes before the server machine sees a POST (the core's
//! `http` module, docs/rules.md §15.1): `Host`/`Origin` against an allow-list, and the `Mcp-*`
//! headers against the body.

use mcp_context::error_code::ErrorCode;
use mcp_context::http::{
    BodyFields, LOCALHOST, RequestHeaders, check_headers as core_check_headers,
    check_origin as core_check_origin, status_for,
};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::errors::{self, Exc};

fn http_error(
    py: Python<'_>,
    message: String,
    status: u16,
    kind: &str,
    code: Option<i32>,
) -> PyErr {
    let code = match code {
        Some(c) => PyInt::new(py, c).into_any(),
        None => py.None().into_bound(py),
    };
    errors::new_error(
        py,
        Exc::Http,
        message,
        &[
            ("status", PyInt::new(py, status).into_any()),
            ("kind", PyString::new(py, kind).into_any()),
            ("code", code),
        ],
    )
}

/// Checks the ``Host`` and ``Origin`` headers of a request (DNS-rebinding protection,
/// docs/rules.md §15.1): ``host`` must name an allowed host (any port), and ``origin``, when
/// present, an allowed host too. ``allowed`` defaults to ``localhost``, ``127.0.0.1`` and
/// ``[::1]``. Raises ``HttpError`` with ``.status`` (400 for a missing or malformed ``Host``,
/// 403 otherwise).
#[pyfunction]
#[pyo3(signature = (host, origin = None, allowed = None))]
pub(crate) fn check_origin(
    py: Python<'_>,
    host: Option<&str>,
    origin: Option<&str>,
    allowed: Option<Vec<String>>,
) -> PyResult<()> {
    let owned: Vec<&str> = match &allowed {
        Some(list) => list.iter().map(String::as_str).collect(),
        None => LOCALHOST.to_vec(),
    };
    core_check_origin(host, origin, &owned).map_err(|e| {
        let kind = e.ident();
        http_error(py, e.to_string(), e.http_status(), kind, None)
    })
}

/// Checks the ``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name`` header values (``None``
/// when absent) against the body's ``_meta`` protocol version, ``method`` and name (the
/// ``uri`` of ``resources/read``, the ``name`` of ``prompts/get``), docs/rules.md §16.10 rule 60.
/// Raises ``HttpError`` (``.status`` 400, ``.code`` -32020) on a mismatch.
#[pyfunction]
#[pyo3(signature = (*, header_protocol_version, header_method, header_name, protocol_version, method, name = None))]
pub(crate) fn check_headers(
    py: Python<'_>,
    header_protocol_version: Option<&str>,
    header_method: Option<&str>,
    header_name: Option<&str>,
    protocol_version: &str,
    method: &str,
    name: Option<&str>,
) -> PyResult<()> {
    let headers = RequestHeaders {
        protocol_version: header_protocol_version,
        method: header_method,
        name: header_name,
    };
    let body = BodyFields {
        protocol_version,
        method,
        name,
    };
    core_check_headers(&headers, &body).map_err(|e| {
        let kind = e.problem.ident();
        http_error(
            py,
            e.to_string(),
            e.http_status(),
            kind,
            Some(e.code().code()),
        )
    })
}

/// The HTTP status of a JSON-RPC error ``code`` (docs/rules.md §15.1, §19.9): 404 for -32601, 400
/// for -32020/-32021/-32022 and malformed messages, 200 otherwise.
#[pyfunction]
pub(crate) fn http_status(code: i32) -> u16 {
    status_for(ErrorCode(code))
}

/// Adds the HTTP checks to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_origin, m)?)?;
    m.add_function(wrap_pyfunction!(check_headers, m)?)?;
    m.add_function(wrap_pyfunction!(http_status, m)?)
}
