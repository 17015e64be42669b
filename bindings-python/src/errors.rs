//! The exception hierarchy and the mapping from core errors (STYLE convention 15).
//!
//! ```text
//! Exception
//! └── McpContextError            root of everything this module raises on bad input
//!     └── TemplateError          (also a ValueError) RFC 6570 parse or expand error
//! ```
//! JSON-RPC errors (`.code`) join under `McpContextError` with the machines. Wrong Python
//! *types* raise the built-in `TypeError`, as Python code expects.
//!
//! The classes are ordinary Python classes built once with `type(name, bases, ns)`, because
//! pyo3 can only derive an exception from a single base and `TemplateError` has two.

use mcp_context::template::{ExpandError, ParseError};
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

static MCP_CONTEXT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TEMPLATE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const MCP_CONTEXT_ERROR_DOC: &str = "Base class of every error mcp_context raises on bad input.";
const TEMPLATE_ERROR_DOC: &str = "An RFC 6570 URI template that cannot be parsed or expanded.

Attributes:
    kind: stable snake_case identifier, e.g. ``\"unclosed_expression\"``.
    position: index into the template source (a ``str`` index) where it went wrong.
    byte_offset: the same place as a UTF-8 byte offset (the core's unit).";

fn new_class<'py>(
    py: Python<'py>,
    name: &str,
    doc: &str,
    bases: Bound<'py, PyTuple>,
) -> PyResult<Py<PyType>> {
    let ns = PyDict::new(py);
    ns.set_item("__module__", "mcp_context")?;
    ns.set_item("__doc__", doc)?;
    let class = py.get_type::<PyType>().call1((name, bases, ns))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

fn mcp_context_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    MCP_CONTEXT_ERROR
        .get_or_try_init(py, || {
            let bases = PyTuple::new(py, [py.get_type::<PyException>()])?;
            new_class(py, "McpContextError", MCP_CONTEXT_ERROR_DOC, bases)
        })
        .map(|class| class.bind(py))
}

fn template_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    TEMPLATE_ERROR
        .get_or_try_init(py, || {
            let bases = PyTuple::new(
                py,
                [
                    mcp_context_error(py)?.clone(),
                    py.get_type::<PyValueError>(),
                ],
            )?;
            new_class(py, "TemplateError", TEMPLATE_ERROR_DOC, bases)
        })
        .map(|class| class.bind(py))
}

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("McpContextError", mcp_context_error(py)?)?;
    m.add("TemplateError", template_error(py)?)?;
    Ok(())
}

/// The `str` index (code points) of byte offset `at` in `source`. The core reports UTF-8 byte
/// offsets; Python code indexes by code point.
fn char_index(source: &str, at: usize) -> usize {
    source.get(..at).map_or(at, |prefix| prefix.chars().count())
}

fn raise_template_error(
    py: Python<'_>,
    message: String,
    kind: &'static str,
    source: &str,
    at: usize,
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let err = template_error(py)?.call1((message,))?;
        err.setattr("kind", kind)?;
        err.setattr("position", char_index(source, at))?;
        err.setattr("byte_offset", at)?;
        Ok(PyErr::from_value(err))
    };
    build().unwrap_or_else(|failed| failed)
}

/// A `TemplateError` for a template that failed to parse.
pub(crate) fn parse_error(py: Python<'_>, source: &str, err: ParseError) -> PyErr {
    raise_template_error(py, err.to_string(), err.kind.ident(), source, err.at)
}

/// A `TemplateError` for an expansion the core refused (a prefix on a list or dict); any
/// other expansion error would be a bug here and surfaces as a plain `McpContextError`.
pub(crate) fn expand_error(py: Python<'_>, source: &str, err: ExpandError) -> PyErr {
    match err {
        ExpandError::PrefixOnComposite { at } => {
            raise_template_error(py, err.to_string(), err.ident(), source, at)
        }
        other => match mcp_context_error(py).and_then(|class| class.call1((other.to_string(),))) {
            Ok(exc) => PyErr::from_value(exc),
            Err(failed) => failed,
        },
    }
}
