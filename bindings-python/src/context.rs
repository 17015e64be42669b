//! `select_context`: the core's context selection (`context::select`, docs/rules.md §14.3): which
//! resources fit a model's context budget, by audience, priority and recency.

use mcp_context::context::{Audience, Budget, Candidate, Role, select_vec};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// The owned fields of one candidate (the core's `Candidate` borrows them).
struct Owned {
    uri: String,
    size: Option<u64>,
    tokens: Option<u64>,
    audience: Option<Audience>,
    priority: Option<f64>,
    last_modified: Option<String>,
}

fn get<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(d.get_item(key)?.filter(|v| !v.is_none()))
}

fn candidate(item: &Bound<'_, PyAny>) -> PyResult<Owned> {
    let d = item
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err("each candidate must be a dict (a Resource)"))?;
    let uri: String = get(d, "uri")?
        .ok_or_else(|| PyValueError::new_err("a candidate has no \"uri\""))?
        .extract()?;
    let size = get(d, "size")?.map(|v| v.extract()).transpose()?;
    let tokens = get(d, "tokens")?.map(|v| v.extract()).transpose()?;
    let (mut audience, mut priority, mut last_modified) = (None, None, None);
    if let Some(ann) = get(d, "annotations")? {
        let ann = ann
            .cast::<PyDict>()
            .map_err(|_| PyTypeError::new_err("\"annotations\" must be a dict"))?;
        if let Some(a) = get(ann, "audience")? {
            let roles: Vec<String> = a.extract()?;
            audience = Some(Audience::from_roles(roles.iter().map(String::as_str)));
        }
        priority = get(ann, "priority")?.map(|v| v.extract()).transpose()?;
        last_modified = get(ann, "lastModified")?.map(|v| v.extract()).transpose()?;
    }
    Ok(Owned {
        uri,
        size,
        tokens,
        audience,
        priority,
        last_modified,
    })
}

/// Chooses which resources to put in a model's context within a budget (docs/rules.md §14.3).
///
/// ``candidates`` are ``Resource`` dicts as on the wire (``uri``, ``size``,
/// ``annotations: {audience, priority, lastModified}``), optionally with ``tokens`` (a token
/// estimate). Give exactly one of ``max_bytes`` (cost: ``size``) or ``max_tokens`` (cost:
/// ``tokens``, else ``size / 4`` rounded up). ``role`` (``"user"``/``"assistant"``) keeps only
/// candidates meant for it. Returns the chosen indices into ``candidates``, in selection
/// order: priority first, then most recent, then ``uri``; greedy, skipping what does not fit.
/// A candidate without a cost is never chosen.
#[pyfunction]
#[pyo3(signature = (candidates, *, max_bytes = None, max_tokens = None, role = None))]
pub(crate) fn select_context(
    candidates: &Bound<'_, PyAny>,
    max_bytes: Option<u64>,
    max_tokens: Option<u64>,
    role: Option<&Bound<'_, PyString>>,
) -> PyResult<Vec<usize>> {
    let budget = match (max_bytes, max_tokens) {
        (Some(b), None) => Budget::Bytes(b),
        (None, Some(t)) => Budget::Tokens(t),
        _ => {
            return Err(PyValueError::new_err(
                "give exactly one of max_bytes and max_tokens",
            ));
        }
    };
    let role = match role {
        None => None,
        Some(r) => Some(
            Role::parse(r.to_str()?)
                .ok_or_else(|| PyValueError::new_err("role must be \"user\" or \"assistant\""))?,
        ),
    };
    let owned: Vec<Owned> = match candidates.cast::<PyList>() {
        Ok(list) => list
            .iter()
            .map(|c| candidate(&c))
            .collect::<PyResult<_>>()?,
        Err(_) => candidates
            .try_iter()?
            .map(|c| candidate(&c?))
            .collect::<PyResult<_>>()?,
    };
    let view: Vec<Candidate<'_>> = owned
        .iter()
        .map(|o| Candidate {
            uri: &o.uri,
            size: o.size,
            tokens: o.tokens,
            audience: o.audience,
            priority: o.priority,
            last_modified: o.last_modified.as_deref(),
        })
        .collect();
    Ok(select_vec(&view, budget, role))
}

/// Adds `select_context` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(select_context, m)?)
}
