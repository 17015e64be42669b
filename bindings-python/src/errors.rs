//! The exception hierarchy and the mapping from core errors (STYLE convention 15).
//!
//! ```text
//! Exception
//! └── McpContextError            root of everything this module raises on bad input
//!     ├── TemplateError          (also a ValueError) RFC 6570 parse, expand or match error
//!     ├── InvalidMessage         (also a ValueError) a dict the spec's schema refuses (.code)
//!     ├── PathError              (also a ValueError) a file:// URI outside the root (.kind, .code)
//!     ├── HttpError              a Streamable HTTP Host/Origin/header check failed (.status)
//!     ├── RegisterError          (also a ValueError) a registration the server refused
//!     ├── ConfigError            (also a ValueError) a machine configuration refused
//!     ├── RespondError           an answer the server machine refused (.kind)
//!     ├── ClientError            a client machine call refused (.kind)
//!     └── McpError               a JSON-RPC error from the peer (.code, .message, .data)
//! ```
//! Wrong Python *types* raise the built-in `TypeError`, as Python code expects.
//!
//! The classes are ordinary Python classes built once with `type(name, bases, ns)`, because
//! pyo3 can only derive an exception from a single base and `TemplateError` has two.

use mcp_context::template::{CompileError, ExpandError, ParseError};
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

/// The exception classes below `McpContextError` other than `TemplateError`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Exc {
    InvalidMessage,
    Path,
    Http,
    Register,
    Config,
    Respond,
    Client,
    Mcp,
}

/// (name, is a `ValueError`, docstring), in `Exc` order.
const CLASSES: [(&str, bool, &str); 8] = [
    (
        "InvalidMessage",
        true,
        "A structured input (a dict in the spec's JSON shape) that the core refuses.

Attributes:
    code: the JSON-RPC code the spec gives such input (-32602 invalid params).",
    ),
    (
        "PathError",
        true,
        "A ``file://`` URI that does not map to a path under the root (docs/rules.md §7).

Attributes:
    kind: stable snake_case identifier, e.g. ``\"dot_segment\"``.
    code: the JSON-RPC code to answer with (-32602).",
    ),
    (
        "HttpError",
        false,
        "A Streamable HTTP request refused before it reaches the server machine.

Attributes:
    status: the HTTP status to answer with (400 or 403).
    kind: stable snake_case identifier, e.g. ``\"origin_not_allowed\"``.
    code: the JSON-RPC code for a header mismatch (-32020), else ``None``.",
    ),
    (
        "RegisterError",
        true,
        "A resource, template or prompt the server machine refused to register.

Attributes:
    kind: ``\"duplicate\"``, ``\"invalid_uri\"``, ``\"invalid_template\"``,
        ``\"router\"`` or ``\"unknown_argument\"``.",
    ),
    (
        "ConfigError",
        true,
        "A machine configuration the core refuses.",
    ),
    (
        "RespondError",
        false,
        "An answer the server machine refused. Unless ``late``, the machine has already
failed the request with -32603 (the answer is the handler's bug, to log).

Attributes:
    kind: ``\"unknown_handle\"``, ``\"wrong_kind\"``, ``\"invalid_input_requests\"``,
        ``\"no_state_key\"``, ``\"client_lacks_capability\"``, ``\"invalid_result\"`` or
        ``\"invalid_progress\"``.
    late: the request was no longer waiting (answered, cancelled, timed out, or answered
        -32021 by the machine): nothing to do (the core's ``RespondError::is_late``).",
    ),
    (
        "ClientError",
        false,
        "A client machine call refused (host mistake); nothing was sent.

Attributes:
    kind: e.g. ``\"unknown_call\"``, ``\"missing_input_response\"``.",
    ),
    (
        "McpError",
        false,
        "A call failed: the server answered a JSON-RPC error, or the call ended without one.

Attributes:
    kind: ``\"server\"`` for a JSON-RPC error, else why the call ended
        (``\"timeout\"``, ``\"closed\"``, ``\"invalid_result\"``, ...).
    code: the JSON-RPC code (an ``int``; compare with ``ErrorCode``), or ``None``.
    message: the error message.
    data: the error's ``data`` (parsed JSON), or ``None``.",
    ),
];

static OTHERS: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

fn others(py: Python<'_>) -> PyResult<&Vec<Py<PyType>>> {
    OTHERS.get_or_try_init(py, || {
        let root = mcp_context_error(py)?.clone();
        CLASSES
            .iter()
            .map(|(name, value_error, doc)| {
                let bases = if *value_error {
                    PyTuple::new(py, [root.clone(), py.get_type::<PyValueError>()])?
                } else {
                    PyTuple::new(py, [root.clone()])?
                };
                new_class(py, name, doc, bases)
            })
            .collect()
    })
}

/// The class of `exc`.
pub(crate) fn class(py: Python<'_>, exc: Exc) -> PyResult<Bound<'_, PyType>> {
    others(py)?
        .get(exc as usize)
        .map(|c| c.bind(py).clone())
        .ok_or_else(|| PyValueError::new_err("unknown exception class"))
}

/// An exception of class `exc` with `message` and attributes.
pub(crate) fn new_error(
    py: Python<'_>,
    exc: Exc,
    message: impl Into<String>,
    attrs: &[(&str, Bound<'_, PyAny>)],
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let err = class(py, exc)?.call1((message.into(),))?;
        for (name, value) in attrs {
            err.setattr(*name, value)?;
        }
        Ok(PyErr::from_value(err))
    };
    build().unwrap_or_else(|failed| failed)
}

/// Shorthand: an exception with a `kind` attribute.
pub(crate) fn kinded(py: Python<'_>, exc: Exc, message: impl Into<String>, kind: &str) -> PyErr {
    new_error(
        py,
        exc,
        message,
        &[("kind", pyo3::types::PyString::new(py, kind).into_any())],
    )
}

/// A `snake_case` identifier from a Rust `Debug` name (`DotSegment` → `dot_segment`), for
/// core error enums without an `ident()`; payloads (`Foo { .. }`, `Foo(..)`) are dropped.
pub(crate) fn ident_of(debug: &str) -> String {
    let head = debug.split([' ', '(', '{']).next().unwrap_or(debug);
    let mut out = String::with_capacity(head.len() + 4);
    for (i, c) in head.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A `TemplateError` for a valid template that cannot be compiled for matching.
pub(crate) fn compile_error(py: Python<'_>, source: &str, err: CompileError) -> PyErr {
    let kind = err.kind.ident();
    let build = || -> PyResult<PyErr> {
        let e = template_error(py)?.call1((err.to_string(),))?;
        e.setattr("kind", kind)?;
        e.setattr("position", char_index(source, err.at))?;
        e.setattr("byte_offset", err.at)?;
        Ok(PyErr::from_value(e))
    };
    build().unwrap_or_else(|failed| failed)
}

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("McpContextError", mcp_context_error(py)?)?;
    m.add("TemplateError", template_error(py)?)?;
    for (i, (name, _, _)) in CLASSES.iter().enumerate() {
        if let Some(c) = others(py)?.get(i) {
            m.add(*name, c.bind(py))?;
        }
    }
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

/// A `TemplateError` for a template with more variables than a match reports.
pub(crate) fn too_many_variables(
    py: Python<'_>,
    source: &str,
    err: mcp_context::template::MatchError,
) -> PyErr {
    raise_template_error(py, err.to_string(), "too_many_variables", source, 0)
}
