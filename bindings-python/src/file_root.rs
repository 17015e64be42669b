//! `FileRoot`: the core's `file://` root mapper (`server::file_root`, docs/rules.md §7: servers
//! MUST sanitize file paths). Every rule is the core's; this converts and maps errors.

use mcp_context::server::file_root::{FileRoot as CoreRoot, PathError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{self, Exc};

/// Maps ``file://`` resource URIs under a root to relative paths, refusing every
/// directory-traversal form (dot segments, encoded separators, drive letters, UNC hosts,
/// queries, ...). The result is fully decoded: append it to the root directory, never decode
/// it again.
///
/// >>> root = FileRoot("file:///srv/project")
/// >>> root.resolve("file:///srv/project/src/main%20file.rs")
/// 'src/main file.rs'
#[pyclass(module = "mcp_context", name = "FileRoot", frozen)]
pub(crate) struct FileRoot {
    uri: String,
}

fn path_error(py: Python<'_>, err: PathError) -> PyErr {
    errors::new_error(
        py,
        Exc::Path,
        err.to_string(),
        &[
            (
                "kind",
                PyString::new(py, &errors::ident_of(&format!("{err:?}"))).into_any(),
            ),
            (
                "code",
                pyo3::types::PyInt::new(py, err.code().code()).into_any(),
            ),
        ],
    )
}

#[pymethods]
impl FileRoot {
    /// ``root_uri``: ``file:///dir`` (``file://localhost/dir``; ``file:///C:/dir`` on Windows).
    /// Raises ``PathError`` when it is not a valid local ``file://`` URI.
    #[new]
    fn new(py: Python<'_>, root_uri: &str) -> PyResult<Self> {
        CoreRoot::new(root_uri).map_err(|e| path_error(py, e))?;
        Ok(Self {
            uri: root_uri.to_owned(),
        })
    }

    /// The root URI, as given.
    #[getter]
    fn uri(&self) -> &str {
        &self.uri
    }

    /// The path of ``uri`` relative to the root (segments joined by ``/``; ``""`` for the
    /// root itself). Raises ``PathError`` (``.kind``, ``.code`` -32602) for anything outside
    /// the root or unsafe.
    fn resolve(&self, py: Python<'_>, uri: &str) -> PyResult<String> {
        let root = CoreRoot::new(&self.uri).map_err(|e| path_error(py, e))?;
        let mut buf = vec![0u8; uri.len()];
        match root.resolve(uri, &mut buf) {
            Ok(rel) => Ok(rel.as_str().to_owned()),
            Err(e) => Err(path_error(py, e)),
        }
    }

    fn __repr__(&self) -> String {
        format!("FileRoot({:?})", self.uri)
    }
}

/// Adds `FileRoot` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FileRoot>()
}
