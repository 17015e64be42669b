//! JSON text ↔ Python objects through the standard `json` module: the core produces and
//! validates JSON text; Python code sees `dict`s in the spec's shape (camelCase keys).

use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::OwnedJson;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyString};

use crate::errors::{self, Exc};

static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static DEFAULT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `json.dumps`'s `default`: a pydantic model (e.g. from `mcp.types`) as its wire dict
/// (`model_dump(mode="json", by_alias=True, exclude_none=True)`), so one is accepted wherever a
/// dict in the spec's shape is; anything else is the usual `TypeError`.
#[pyfunction]
fn json_default<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    if !obj.is_instance_of::<pyo3::types::PyType>() && obj.hasattr("model_dump")? {
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("mode", "json")?;
        kwargs.set_item("by_alias", true)?;
        kwargs.set_item("exclude_none", true)?;
        return obj.call_method("model_dump", (), Some(&kwargs));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "Object of type {} is not JSON serializable",
        obj.get_type().name()?
    )))
}

fn func<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    name: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("json")?.getattr(name)?.unbind())
    })
    .map(|f| f.bind(py))
}

/// `value` as a `dict`: a `dict` as is, a pydantic model (e.g. from `mcp.types`) dumped in the
/// wire shape; anything else is `TypeError` naming `what`.
pub(crate) fn as_dict<'py>(
    value: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    if let Ok(d) = value.cast::<pyo3::types::PyDict>() {
        return Ok(d.clone());
    }
    if !value.is_instance_of::<pyo3::types::PyType>() && value.hasattr("model_dump")? {
        return json_default(value)?
            .cast_into::<pyo3::types::PyDict>()
            .map_err(|_| pyo3::exceptions::PyTypeError::new_err(format!("{what} must be a dict")));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "{what} must be a dict (or a pydantic model)"
    )))
}

/// `json.loads(text)`. Peer JSON the core accepted can still be beyond what Python converts
/// (an integer past `sys.get_int_max_str_digits()`, nesting past the recursion limit): that is
/// `InvalidMessage`, inside the `McpContextError` family, never a bare `ValueError`.
pub(crate) fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    func(py, &LOADS, "loads")?
        .call1((text,))
        .map_err(|e| invalid(py, format!("JSON not representable in Python: {e}")))
}

/// `json.dumps(value)`, compact and with non-ASCII kept, refusing NaN/Infinity (not JSON).
pub(crate) fn dumps(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = value.py();
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("separators", (",", ":"))?;
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    let default = DEFAULT.get_or_try_init(py, || {
        Ok::<_, PyErr>(wrap_pyfunction!(json_default, py)?.into_any().unbind())
    })?;
    kwargs.set_item("default", default.bind(py))?;
    func(py, &DUMPS, "dumps")?
        .call((value,), Some(&kwargs))?
        .extract()
}

/// A Python value as validated owned JSON; anything JSON cannot carry is `InvalidMessage`.
pub(crate) fn owned(value: &Bound<'_, PyAny>, what: &str) -> PyResult<OwnedJson> {
    let py = value.py();
    let text = dumps(value).map_err(|e| invalid(py, format!("{what}: {e}")))?;
    OwnedJson::parse(text).map_err(|e| invalid(py, format!("{what}: {e}")))
}

/// An `InvalidMessage` (-32602) with `message`.
pub(crate) fn invalid(py: Python<'_>, message: String) -> PyErr {
    errors::new_error(
        py,
        Exc::InvalidMessage,
        message,
        &[("code", PyInt::new(py, -32602).into_any())],
    )
}

/// Owned JSON as a Python object.
pub(crate) fn to_py<'py>(py: Python<'py>, json: &OwnedJson) -> PyResult<Bound<'py, PyAny>> {
    loads(py, json.as_raw().as_text())
}

/// A JSON-RPC id as `int` or `str` (an integer beyond 64 bits as its digits, an `int`).
pub(crate) fn request_id<'py>(py: Python<'py>, id: &OwnedRequestId) -> PyResult<Bound<'py, PyAny>> {
    match id {
        OwnedRequestId::Int(i) => Ok(PyInt::new(py, *i).into_any()),
        OwnedRequestId::Str(s) => Ok(PyString::new(py, s).into_any()),
        OwnedRequestId::BigInt(digits) => py.get_type::<PyInt>().call1((digits.as_str(),)),
    }
}

/// A Python value in the spec's JSON shape decoded into the core's owned type: `json.dumps`,
/// then the core's schema-checking decoder. A refusal is `InvalidMessage` with the JSON-RPC
/// code the core gives it (-32602 for a field that breaks the schema).
pub(crate) fn decode<T: mcp_context::messages::owned::FromJsonText>(
    value: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    let py = value.py();
    let text = dumps(value).map_err(|e| invalid(py, format!("{what}: {e}")))?;
    T::from_json_text(&text).map_err(|e| {
        errors::new_error(
            py,
            Exc::InvalidMessage,
            format!("{what}: {e}"),
            &[("code", PyInt::new(py, e.error_code().code()).into_any())],
        )
    })
}

/// `Name(field=value, ...)` with each field's `repr`, for the output classes.
pub(crate) fn repr_of(obj: &Bound<'_, PyAny>, name: &str, fields: &[&str]) -> PyResult<String> {
    let mut out = String::from(name);
    out.push('(');
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(f);
        out.push('=');
        out.push_str(obj.getattr(*f)?.repr()?.to_str()?);
    }
    out.push(')');
    Ok(out)
}

/// `__repr__` for an output class from its field names.
macro_rules! py_repr {
    ($t:ident, [$($f:literal),* $(,)?]) => {
        #[pymethods]
        impl $t {
            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                crate::pyjson::repr_of(slf.as_any(), stringify!($t), &[$($f),*])
            }
        }
    };
}
pub(crate) use py_repr;
