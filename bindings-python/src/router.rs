//! `Router`: many templates, one URI, the most specific match (the core's indexed
//! `template::Router`, docs/matching.md §7). Registration may allocate; routing does not
//! (only building the Python result does).

use mcp_context::template::{Captures, InsertError, MatchError, Router as CoreRouter};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors;
use crate::template::{MAX_CAPTURES, captures_dict};

/// Routes a URI to the most specific of many RFC 6570 templates.
///
/// Precedence: URIs are compared segment by segment; at the first segment where templates
/// differ, literal text beats text mixed with variables, which beats a bare ``{var}``, which
/// beats anything spanning segments; equal kinds keep registration order. A template that
/// no URI could reach (same shape as, or shadowed by, a registered one) is refused.
#[pyclass(module = "mcp_context", name = "Router")]
pub(crate) struct Router {
    inner: CoreRouter<Py<PyAny>>,
}

fn insert_error(
    py: Python<'_>,
    router: &CoreRouter<Py<PyAny>>,
    source: &str,
    err: InsertError,
) -> PyErr {
    match err {
        InsertError::Parse(e) => errors::parse_error(py, source, e),
        InsertError::Compile(e) => errors::compile_error(py, source, e),
        InsertError::Indistinguishable { existing, .. }
        | InsertError::Shadowed { existing, .. } => {
            let kind = if matches!(err, InsertError::Shadowed { .. }) {
                "shadowed"
            } else {
                "indistinguishable"
            };
            let other = router.template(existing).unwrap_or_default();
            errors::kinded(
                py,
                errors::Exc::Register,
                format!("{source:?} conflicts with {other:?}: {err}"),
                kind,
            )
        }
        other => errors::kinded(py, errors::Exc::Register, other.to_string(), other.ident()),
    }
}

#[pymethods]
impl Router {
    #[new]
    fn new() -> Self {
        Self {
            inner: CoreRouter::new(),
        }
    }

    /// Registers ``template`` and returns its id (0, 1, 2, ... in registration order).
    /// ``name`` (any object; default: the id) is what ``match`` returns for it.
    ///
    /// Raises ``TemplateError`` for a template that does not parse or cannot be matched, and
    /// ``RegisterError`` (``kind`` ``"indistinguishable"`` or ``"shadowed"``) for one no URI
    /// could reach. The router is unchanged on error.
    #[pyo3(signature = (template, name = None))]
    fn add(&mut self, py: Python<'_>, template: &str, name: Option<Py<PyAny>>) -> PyResult<usize> {
        let next = self.inner.len();
        let value = match name {
            Some(n) => n,
            None => next.into_pyobject(py)?.into_any().unbind(),
        };
        match self.inner.insert(template, value) {
            Ok(id) => Ok(id.index()),
            Err(e) => Err(insert_error(py, &self.inner, template, e)),
        }
    }

    /// Routes ``uri``: ``(name, variables)`` for the most specific matching template (``name``
    /// as given to ``add``, else its id; variables percent-decoded, an exploded one as a
    /// ``list``), or ``None``.
    fn r#match<'py>(&self, py: Python<'py>, uri: &str) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let mut caps = Captures::<MAX_CAPTURES>::new();
        match self.inner.route(uri, &mut caps) {
            Ok(hit) => match captures_dict(py, &caps)? {
                Some(vars) => Ok(Some(PyTuple::new(
                    py,
                    [hit.value.bind(py).clone(), vars.into_any()],
                )?)),
                None => Ok(None),
            },
            Err(MatchError::NoMatch) => Ok(None),
            Err(e) => Err(errors::too_many_variables(py, uri, e)),
        }
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("<Router with {} templates>", self.inner.len())
    }
}

/// Adds `Router` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Router>()
}
