//! `ErrorCode`: the JSON-RPC error codes of MCP 2026-07-28 (docs/rules.md §1.4) as an `enum.IntEnum`,
//! so members compare equal to plain ints, serialise to JSON and index like ints.
//!
//! The values come from the core's `ErrorCode` constants; this table only names them in
//! Python's spelling.

use mcp_context::error_code::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Every named code of the core, in the core's order.
const KNOWN: [(&str, ErrorCode); 9] = [
    ("PARSE_ERROR", ErrorCode::PARSE_ERROR),
    ("INVALID_REQUEST", ErrorCode::INVALID_REQUEST),
    ("METHOD_NOT_FOUND", ErrorCode::METHOD_NOT_FOUND),
    ("INVALID_PARAMS", ErrorCode::INVALID_PARAMS),
    ("INTERNAL_ERROR", ErrorCode::INTERNAL_ERROR),
    ("HEADER_MISMATCH", ErrorCode::HEADER_MISMATCH),
    (
        "MISSING_REQUIRED_CLIENT_CAPABILITY",
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
    ),
    (
        "UNSUPPORTED_PROTOCOL_VERSION",
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
    ),
    (
        "LEGACY_RESOURCE_NOT_FOUND",
        ErrorCode::LEGACY_RESOURCE_NOT_FOUND,
    ),
];

const DOC: &str = "JSON-RPC error codes used by MCP 2026-07-28 (an IntEnum: members are ints).

The vocabulary is open: a peer may send any integer code, so error ``.code``
attributes are plain ``int`` values that compare equal to these members.";

/// Adds `ErrorCode` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let members: Vec<(&str, i32)> = KNOWN.iter().map(|(n, c)| (*n, c.code())).collect();
    let kwargs = PyDict::new(py);
    kwargs.set_item("module", "mcp_context")?;
    kwargs.set_item("qualname", "ErrorCode")?;
    let class = py
        .import("enum")?
        .getattr("IntEnum")?
        .call(("ErrorCode", members), Some(&kwargs))?;
    class.setattr("__doc__", DOC)?;
    m.add("ErrorCode", class)
}
