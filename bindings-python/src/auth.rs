//! Authorization, client side: the core's sans-IO OAuth 2.1 flow (`mcp_context::auth`,
//! docs/rules.md §21) as `Authorizer`, and its actions as `AuthFetch`, `AuthAuthorize`,
//! `AuthStore`, `AuthRetry` and `AuthFailed`. Tokens cross as dicts (``issuer``,
//! ``resource``, ``access_token``, ``refresh_token``, ``expires_at_ms``, ``scope``), the shape a
//! token store keeps.

use mcp_context::auth::{
    Action, AuthConfig, ENTROPY_LEN, FetchId, HttpMethod, PreRegistered, Tokens,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// Send this request (redirects not followed) and pass the answer to
/// ``Authorizer.handle_fetched`` (or ``handle_fetch_failed``).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct AuthFetch {
    /// Echo it back with the response.
    id: u64,
    /// ``"GET"`` or ``"POST"``.
    method: &'static str,
    /// The absolute URL.
    url: String,
    /// The headers to send.
    headers: Vec<(&'static str, String)>,
    /// The body (empty for ``GET``).
    body: Py<PyBytes>,
}

/// Send the user agent to ``url``; pass the URL it is redirected back to to
/// ``Authorizer.handle_redirect``.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct AuthAuthorize {
    /// The authorization request URL.
    url: String,
}

/// Keep these tokens (a dict; they replace any earlier ones for the same resource).
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct AuthStore {
    /// ``issuer``, ``resource``, ``access_token``, ``refresh_token``, ``expires_at_ms``,
    /// ``scope``.
    tokens: Py<PyDict>,
}

/// Send the challenged request again with this ``Authorization`` value.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct AuthRetry {
    /// ``Bearer <access token>``.
    authorization: String,
}

/// The flow stopped; the challenged request fails.
#[pyclass(module = "mcp_context", frozen, get_all)]
pub(crate) struct AuthFailed {
    /// Why, in words.
    error: String,
}

crate::pyjson::py_repr!(AuthFetch, ["id", "method", "url"]);
crate::pyjson::py_repr!(AuthAuthorize, ["url"]);
crate::pyjson::py_repr!(AuthRetry, ["authorization"]);
crate::pyjson::py_repr!(AuthFailed, ["error"]);

/// The client side of MCP authorization (OAuth 2.1 authorization code with PKCE) for one
/// server, as a state machine: discovery (RFC 9728, RFC 8414), the resource and issuer
/// checks, client identity (pre-registered, Client ID Metadata Document, dynamic
/// registration), scope selection and step-up, token requests, refresh, and which requests
/// may carry the token. No I/O, no clock, no randomness: the host passes them in.
///
/// ``pre_registered``: ``[(issuer, client_id, client_secret or None), ...]``.
#[pyclass(module = "mcp_context")]
pub(crate) struct Authorizer(mcp_context::auth::Authorizer);

fn tokens_dict<'py>(py: Python<'py>, t: &Tokens) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("issuer", &t.issuer)?;
    d.set_item("resource", &t.resource)?;
    d.set_item("access_token", &t.access_token)?;
    d.set_item("refresh_token", &t.refresh_token)?;
    d.set_item("expires_at_ms", t.expires_at_ms)?;
    d.set_item("scope", &t.scope)?;
    Ok(d)
}

fn tokens_from(d: &Bound<'_, PyDict>) -> PyResult<Tokens> {
    fn req(d: &Bound<'_, PyDict>, k: &str) -> PyResult<String> {
        d.get_item(k)?
            .ok_or_else(|| PyValueError::new_err(format!("tokens lack {k}")))?
            .extract()
    }
    fn opt_str(d: &Bound<'_, PyDict>, k: &str) -> PyResult<Option<String>> {
        d.get_item(k)?
            .filter(|v| !v.is_none())
            .map(|v| v.extract())
            .transpose()
    }
    Ok(Tokens {
        issuer: req(d, "issuer")?,
        resource: req(d, "resource")?,
        access_token: req(d, "access_token")?,
        refresh_token: opt_str(d, "refresh_token")?,
        expires_at_ms: d
            .get_item("expires_at_ms")?
            .filter(|v| !v.is_none())
            .map(|v| v.extract())
            .transpose()?,
        scope: opt_str(d, "scope")?,
    })
}

#[pymethods]
impl Authorizer {
    #[new]
    #[pyo3(signature = (server_url, redirect_uri, client_name, *, client_id_metadata_document = None, pre_registered = Vec::new(), offline_access = true, max_authorizations = 3, refresh_skew_ms = 60_000))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        server_url: &str,
        redirect_uri: &str,
        client_name: &str,
        client_id_metadata_document: Option<String>,
        pre_registered: Vec<(String, String, Option<String>)>,
        offline_access: bool,
        max_authorizations: u8,
        refresh_skew_ms: u64,
    ) -> PyResult<Self> {
        let mut config = AuthConfig::new(server_url, redirect_uri, client_name);
        config.client_id_metadata_document = client_id_metadata_document;
        config.pre_registered = pre_registered
            .into_iter()
            .map(|(issuer, client_id, client_secret)| PreRegistered {
                issuer,
                client_id,
                client_secret,
            })
            .collect();
        config.offline_access = offline_access;
        config.max_authorizations = max_authorizations;
        config.refresh_skew_ms = refresh_skew_ms;
        mcp_context::auth::Authorizer::new(config)
            .map(Self)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Loads tokens from a store; ignored (``False``) when their resource does not cover
    /// this server.
    fn restore(&mut self, tokens: &Bound<'_, PyDict>) -> PyResult<bool> {
        Ok(self.0.restore(tokens_from(tokens)?))
    }

    /// The tokens held, as a dict, or ``None``.
    fn tokens<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0.tokens().map(|t| tokens_dict(py, t)).transpose()
    }

    /// The authorization context of the tokens held (one ``int`` per grant: restored tokens
    /// or a new authorization; a refresh keeps it), or ``None``: pass it to
    /// ``ClientMachine.set_auth_context`` so private results stay with their grant.
    fn auth_context(&self) -> Option<u64> {
        self.0.auth_context().map(|a| a.0)
    }

    /// The next action (``AuthFetch``, ``AuthAuthorize``, ``AuthStore``, ``AuthRetry``,
    /// ``AuthFailed``), or ``None``; drain after every input.
    fn poll_action(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some(action) = self.0.poll_action() else {
            return Ok(None);
        };
        let obj = match action {
            Action::Fetch(f) => Py::new(
                py,
                AuthFetch {
                    id: f.id.0,
                    method: match f.method {
                        HttpMethod::Get => "GET",
                        HttpMethod::Post => "POST",
                    },
                    url: f.url,
                    headers: f.headers,
                    body: PyBytes::new(py, &f.body).unbind(),
                },
            )?
            .into_any(),
            Action::Authorize { url } => Py::new(py, AuthAuthorize { url })?.into_any(),
            Action::StoreTokens(t) => Py::new(
                py,
                AuthStore {
                    tokens: tokens_dict(py, &t)?.unbind(),
                },
            )?
            .into_any(),
            Action::Retry { authorization } => Py::new(py, AuthRetry { authorization })?.into_any(),
            Action::Failed(e) => Py::new(
                py,
                AuthFailed {
                    error: e.to_string(),
                },
            )?
            .into_any(),
        };
        Ok(Some(obj))
    }

    /// Whether a flow is running (waiting for a fetch or a redirect).
    fn is_busy(&self) -> bool {
        self.0.is_busy()
    }

    /// The ``Authorization`` value for a request to ``request_url`` at ``now_ms`` (only for
    /// the server's origin and an unexpired token), or ``None``.
    fn authorization_header(&self, request_url: &str, now_ms: u64) -> Option<String> {
        self.0.authorization_header(request_url, now_ms)
    }

    /// Whether the access token is about to expire and can be refreshed now.
    fn refresh_due(&self, now_ms: u64) -> bool {
        self.0.refresh_due(now_ms)
    }

    /// Starts a refresh when one is due (ends in ``AuthStore`` or ``AuthFailed``).
    fn start_refresh(&mut self, now_ms: u64) {
        self.0.start_refresh(now_ms);
    }

    /// A request went through: the authorization attempt count starts again.
    fn handle_success(&mut self) {
        self.0.handle_success();
    }

    /// A request was answered ``status`` (401, or 403 ``insufficient_scope``) with this
    /// ``WWW-Authenticate`` value: starts the flow. ``entropy``: 48 fresh random bytes.
    fn handle_challenge(
        &mut self,
        status: u16,
        www_authenticate: Option<&str>,
        entropy: &[u8],
        now_ms: u64,
    ) -> PyResult<()> {
        let entropy: &[u8; ENTROPY_LEN] = entropy
            .try_into()
            .map_err(|_| PyValueError::new_err(format!("entropy must be {ENTROPY_LEN} bytes")))?;
        self.0
            .handle_challenge(status, www_authenticate, entropy, now_ms);
        Ok(())
    }

    /// The response to fetch ``id``: its status and body.
    fn handle_fetched(&mut self, id: u64, status: u16, body: &[u8], now_ms: u64) {
        self.0.handle_fetched(FetchId(id), status, body, now_ms);
    }

    /// Fetch ``id`` could not be carried (a network error).
    fn handle_fetch_failed(&mut self, id: u64, now_ms: u64) {
        self.0.handle_fetch_failed(FetchId(id), now_ms);
    }

    /// The URL the user agent came back to after ``AuthAuthorize``.
    fn handle_redirect(&mut self, redirect_url: &str, now_ms: u64) {
        self.0.handle_redirect(redirect_url, now_ms);
    }
}

/// Registers the classes, and `AUTH_ENTROPY_LEN`: the random bytes `handle_challenge` takes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("AUTH_ENTROPY_LEN", ENTROPY_LEN)?;
    m.add_class::<Authorizer>()?;
    m.add_class::<AuthFetch>()?;
    m.add_class::<AuthAuthorize>()?;
    m.add_class::<AuthStore>()?;
    m.add_class::<AuthRetry>()?;
    m.add_class::<AuthFailed>()
}
