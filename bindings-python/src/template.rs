//! `UriTemplate`: RFC 6570 templates (parse, expand) over the core's `OwnedTemplate`.
//!
//! The only work here is converting Python values into the core's `OwnedValue`s: `str` as is,
//! `int`/`float` through `str()`, `list`/`tuple` as lists, any `Mapping` as an associative
//! array (insertion order kept), `None` as undefined. Every rule of expansion is the core's.

use std::sync::OnceLock;

use mcp_context::template::{
    Captures, MatchError, OwnedPattern, OwnedTemplate, OwnedValue, OwnedVariables, PatternError,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};

use crate::errors;

/// An RFC 6570 URI template (levels 1–4), parsed once and expanded many times.
///
/// ``UriTemplate(source)`` raises ``TemplateError`` (a ``ValueError``) with ``.kind`` and
/// ``.position`` when ``source`` is not a valid template.
#[pyclass(module = "mcp_context", name = "UriTemplate", frozen)]
pub(crate) struct UriTemplate {
    inner: OwnedTemplate,
    /// Compiled for matching on the first `match` (a valid template may not be matchable).
    pattern: OnceLock<Result<OwnedPattern, PatternError>>,
}

/// The most variables one match reports (a template with more cannot be matched here).
pub(crate) const MAX_CAPTURES: usize = 32;

/// The variables of a match as a `dict`: each value percent-decoded; an exploded variable
/// (`{/path*}`, `{?list*}`) as a `list` of decoded items. `None` when a value does not
/// decode to UTF-8 (the URI then matches nothing, as in the core's router).
pub(crate) fn captures_dict<'py, const N: usize>(
    py: Python<'py>,
    caps: &Captures<'_, '_, N>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let dict = PyDict::new(py);
    for cap in caps.iter() {
        if cap.is_exploded() {
            let list = PyList::empty(py);
            for item in cap.values() {
                let Ok(text) = item.decode() else {
                    return Ok(None);
                };
                list.append(text.as_ref())?;
            }
            dict.set_item(cap.name(), list)?;
        } else {
            let Ok(text) = cap.decode() else {
                return Ok(None);
            };
            dict.set_item(cap.name(), text.as_ref())?;
        }
    }
    Ok(Some(dict))
}

/// `str`, or `int`/`float` through `str()`. `bool` is refused: `str(True)` is rarely what a URI
/// wants, so the caller must say `"true"` or `"1"`.
fn scalar(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(s.to_str()?.to_owned());
    }
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(
            "template values cannot be bool; pass a str such as 'true' or '1'",
        ));
    }
    if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>() {
        return Ok(value.str()?.to_str()?.to_owned());
    }
    Err(type_error("a template value item", value))
}

fn type_error(what: &str, value: &Bound<'_, PyAny>) -> PyErr {
    let type_name = value
        .get_type()
        .name()
        .map_or_else(|_| String::from("?"), |n| n.to_string());
    PyTypeError::new_err(format!(
        "{what} must be str, int, float, list, tuple or a mapping, not {type_name}"
    ))
}

/// `(key, value)` pairs of a `dict` or any other `Mapping`, in iteration order.
fn items<'py>(
    mapping: &Bound<'py, PyAny>,
) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    if let Ok(dict) = mapping.cast::<PyDict>() {
        return Ok(dict.iter().collect());
    }
    let items = mapping.cast::<PyMapping>()?.items()?;
    items
        .iter()
        .map(|pair| pair.extract::<(Bound<'py, PyAny>, Bound<'py, PyAny>)>())
        .collect()
}

fn value(value: &Bound<'_, PyAny>) -> PyResult<Option<OwnedValue>> {
    // Cheapest checks first: exact types before the `Mapping` ABC, which runs Python code.
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyInt>()
        || value.is_instance_of::<PyFloat>()
    {
        return scalar(value).map(|s| Some(OwnedValue::Str(s)));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return list
            .iter()
            .map(|v| scalar(&v))
            .collect::<PyResult<_>>()
            .map(|l| Some(OwnedValue::List(l)));
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return tuple
            .iter()
            .map(|v| scalar(&v))
            .collect::<PyResult<_>>()
            .map(|l| Some(OwnedValue::List(l)));
    }
    if is_mapping(value) {
        return items(value)?
            .iter()
            .map(|(k, v)| Ok((scalar(k)?, scalar(v)?)))
            .collect::<PyResult<_>>()
            .map(|a| Some(OwnedValue::Assoc(a)));
    }
    Err(type_error("a template value", value))
}

/// A `dict`, or anything registered as a `collections.abc.Mapping`.
fn is_mapping(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyDict>() || value.cast::<PyMapping>().is_ok()
}

/// Adds `(name, value)` pairs of `mapping` to `vars`; later names replace earlier ones.
fn collect(mapping: &Bound<'_, PyAny>, vars: &mut OwnedVariables) -> PyResult<()> {
    for (name, v) in items(mapping)? {
        let name = name
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("template variable names must be str"))?
            .to_str()?
            .to_owned();
        match value(&v)? {
            Some(owned) => vars.insert(name, owned),
            None => {
                vars.remove(&name);
            }
        }
    }
    Ok(())
}

#[pymethods]
impl UriTemplate {
    #[new]
    fn new(py: Python<'_>, source: &str) -> PyResult<Self> {
        OwnedTemplate::parse(source)
            .map(|inner| Self {
                inner,
                pattern: OnceLock::new(),
            })
            .map_err(|err| errors::parse_error(py, source, err))
    }

    /// The template text, exactly as given.
    #[getter]
    fn source(&self) -> &str {
        self.inner.source()
    }

    /// The variable names in template order, each once.
    #[getter]
    fn variables(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for spec in self.inner.variables() {
            if !names.contains(&spec.name) {
                names.push(spec.name);
            }
        }
        names
    }

    /// Expands the template (RFC 6570 §3) with variables from ``mapping`` and/or keyword
    /// arguments (keywords win). Values: ``str``; ``int``/``float`` (through ``str()``);
    /// ``list``/``tuple`` of those; a ``Mapping`` of those; ``None`` or a missing name is
    /// undefined. Raises ``TypeError`` for other types and ``TemplateError`` for a prefix
    /// modifier (``{var:3}``) applied to a list or mapping.
    #[pyo3(signature = (mapping = None, /, **kwargs))]
    fn expand(
        &self,
        py: Python<'_>,
        mapping: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let mut owned = OwnedVariables::new();
        if let Some(mapping) = mapping {
            if !is_mapping(mapping) {
                return Err(PyTypeError::new_err(
                    "expand() takes a mapping of variables and/or keyword arguments",
                ));
            }
            collect(mapping, &mut owned)?;
        }
        if let Some(kwargs) = kwargs {
            collect(kwargs.as_any(), &mut owned)?;
        }
        owned
            .expand(self.inner.as_ref())
            .map_err(|err| errors::expand_error(py, self.inner.source(), err))
    }

    /// Matches ``uri`` against the template (docs/matching.md) and returns its variables,
    /// percent-decoded (an exploded variable as a ``list``), or ``None`` when it does not
    /// match. Variables the URI leaves out are absent. Raises ``TemplateError`` when the
    /// template cannot be matched (ambiguous, e.g. ``{a}{b}``).
    fn r#match<'py>(&self, py: Python<'py>, uri: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
        let pattern = self
            .pattern
            .get_or_init(|| OwnedPattern::parse(self.inner.source()));
        let pattern = match pattern {
            Ok(p) => p,
            Err(PatternError::Compile(e)) => {
                return Err(errors::compile_error(py, self.inner.source(), *e));
            }
            Err(PatternError::Parse(e)) => {
                return Err(errors::parse_error(py, self.inner.source(), *e));
            }
            Err(other) => return Err(PyTypeError::new_err(other.to_string())),
        };
        let mut caps = Captures::<MAX_CAPTURES>::new();
        match pattern.matches(uri, &mut caps) {
            Ok(()) => captures_dict(py, &caps),
            Err(MatchError::NoMatch) => Ok(None),
            Err(e) => Err(errors::too_many_variables(py, self.inner.source(), e)),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let source = PyString::new(py, self.inner.source()).repr()?;
        Ok(format!("UriTemplate({source})"))
    }

    fn __str__(&self) -> &str {
        self.inner.source()
    }

    fn __eq__(&self, other: PyRef<'_, Self>) -> bool {
        self.inner.source() == other.inner.source()
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, self.inner.source()).hash()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyType>, (String,))> {
        Ok((slf.get_type(), (slf.get().inner.source().to_owned(),)))
    }
}

/// Adds `UriTemplate` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UriTemplate>()
}
