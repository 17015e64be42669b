//! `Cache`: the core's scope-aware result cache (`cache::Cache`, docs/rules.md §4): `ttlMs`
//! freshness, `cacheScope` per authorization context, MRTR retries never stored,
//! notifications invalidate. Time is `now_ms` (int milliseconds), as everywhere here.

use mcp_context::cache::{
    Attempt, AuthContext, Cache as CoreCache, CacheHints, CacheKey, CacheLimits, CacheScope,
    Invalidation, Lookup, Refused,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

/// A bounded cache of results (opaque bytes: the serialized result), keyed by method and
/// the params that affect the result (the cursor of a list, the ``uri`` of a read).
///
/// Cacheable methods: ``server/discover``, ``resources/list``, ``resources/templates/list``,
/// ``prompts/list``, ``tools/list`` (``key``: the cursor or ``None``) and ``resources/read``
/// (``key``: the URI). ``auth`` is the caller's authorization context (an ``int``, or ``None``
/// for anonymous): ``"private"`` results are served only to the same ``auth``.
#[pyclass(module = "mcp_context", name = "Cache")]
pub(crate) struct Cache {
    inner: CoreCache,
}

fn key<'a>(method: &str, key: Option<&'a str>) -> PyResult<CacheKey<'a>> {
    CacheKey::new(method, key).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn scope(s: Option<&str>) -> PyResult<Option<CacheScope>> {
    match s {
        None => Ok(None),
        Some("public") => Ok(Some(CacheScope::Public)),
        Some("private") => Ok(Some(CacheScope::Private)),
        Some(_) => Err(PyValueError::new_err(
            "cache_scope must be \"public\", \"private\" or None",
        )),
    }
}

fn refused(r: Refused) -> &'static str {
    r.ident()
}

#[pymethods]
impl Cache {
    /// At most ``max_entries`` entries and ``max_bytes`` key + value bytes.
    #[new]
    #[pyo3(signature = (max_entries = 256, max_bytes = 4 << 20))]
    fn new(max_entries: usize, max_bytes: usize) -> Self {
        Self {
            inner: CoreCache::new(CacheLimits {
                max_entries,
                max_bytes,
            }),
        }
    }

    /// Stores ``value``, the result of ``method``/``key`` received at ``now_ms`` with the hints
    /// ``ttl_ms`` (``None``: absent, read as 0) and ``cache_scope`` (``None``: absent, read as
    /// private). ``retry=True`` marks the result of an MRTR retry. Returns ``None`` when
    /// stored, else why not: ``"retry"``, ``"immediately_stale"`` (ttl 0) or ``"too_large"``.
    /// Raises ``ValueError`` for a method that is not cacheable.
    #[pyo3(signature = (method, key, value, *, ttl_ms, cache_scope, now_ms, auth = None, retry = false))]
    #[allow(clippy::too_many_arguments)]
    fn insert(
        &mut self,
        method: &str,
        key: Option<&str>,
        value: &[u8],
        ttl_ms: Option<i64>,
        cache_scope: Option<&str>,
        now_ms: u64,
        auth: Option<u64>,
        retry: bool,
    ) -> PyResult<Option<&'static str>> {
        let k = self::key(method, key)?;
        let hints = CacheHints {
            ttl_ms,
            scope: scope(cache_scope)?,
        };
        let attempt = if retry {
            Attempt::Retry
        } else {
            Attempt::Original
        };
        Ok(self
            .inner
            .insert(&k, auth.map(AuthContext), hints, attempt, value, now_ms)
            .err()
            .map(refused))
    }

    /// The fresh result for ``method``/``key`` that ``auth`` may see, or ``None``.
    #[pyo3(signature = (method, key, *, now_ms, auth = None))]
    fn get<'py>(
        &mut self,
        py: Python<'py>,
        method: &str,
        key: Option<&str>,
        now_ms: u64,
        auth: Option<u64>,
    ) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let k = self::key(method, key)?;
        Ok(self
            .inner
            .get(&k, auth.map(AuthContext), now_ms)
            .map(|v| PyBytes::new(py, v)))
    }

    /// The best result ``auth`` may see: ``("fresh", bytes)``, ``("stale", bytes)`` (re-fetch;
    /// it MAY be served if that fails) or ``None``.
    #[pyo3(signature = (method, key, *, now_ms, auth = None))]
    fn lookup<'py>(
        &mut self,
        py: Python<'py>,
        method: &str,
        key: Option<&str>,
        now_ms: u64,
        auth: Option<u64>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let k = self::key(method, key)?;
        let (state, v) = match self.inner.lookup(&k, auth.map(AuthContext), now_ms) {
            Lookup::Fresh(v) => ("fresh", v),
            Lookup::Stale(v) => ("stale", v),
            Lookup::Miss => return Ok(None),
        };
        let pair = (state, PyBytes::new(py, v));
        Ok(Some(PyTuple::new(
            py,
            [pair.0.into_pyobject(py)?.into_any(), pair.1.into_any()],
        )?))
    }

    /// Drops what a notification makes stale (``notifications/resources/updated`` with its
    /// ``uri``, ``notifications/resources/list_changed``, ``notifications/prompts/list_changed``,
    /// ``notifications/tools/list_changed``); returns how many entries. Other methods drop
    /// nothing.
    #[pyo3(signature = (notification, uri = None))]
    fn invalidate(&mut self, notification: &str, uri: Option<&str>) -> usize {
        Invalidation::from_notification(notification, uri).map_or(0, |i| self.inner.invalidate(i))
    }

    /// Drops every page of a list whose cursor the server rejected (docs/rules.md §3); returns how
    /// many entries.
    fn cursor_rejected(&mut self, method: &str) -> PyResult<usize> {
        match self::key(method, None)? {
            CacheKey::List { list, .. } => {
                Ok(self.inner.invalidate(Invalidation::CursorRejected { list }))
            }
            _ => Err(PyValueError::new_err("not a list method")),
        }
    }

    /// Drops every private entry of ``auth`` (sign-out, token change); returns how many.
    #[pyo3(signature = (auth = None))]
    fn forget_context(&mut self, auth: Option<u64>) -> usize {
        self.inner.forget_context(auth.map(AuthContext))
    }

    /// Drops every entry not fresh at ``now_ms``; returns how many.
    fn purge_stale(&mut self, now_ms: u64) -> usize {
        self.inner.purge_stale(now_ms)
    }

    /// Drops everything.
    fn clear(&mut self) {
        self.inner.clear();
    }

    /// Key + value bytes held.
    #[getter]
    fn total_bytes(&self) -> usize {
        self.inner.bytes()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// Adds `Cache` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Cache>()
}
