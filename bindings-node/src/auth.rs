//! `Authorizer`: the core's client-side OAuth flow (`mcp_context::auth::Authorizer`,
//! docs/rules.md §21) with JS types; the conversions are the shared adapter's (`auth`).

use mcp_context::auth::{ENTROPY_LEN, FetchId};
use mcp_context_node_adapter::auth::{action, auth_config, tokens, tokens_from};
use mcp_context_node_adapter::{Error, Js};
use napi::bindgen_prelude::{Buffer, JsValue, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::{In, render, throw};
use crate::convert::{self, Int};

/// The client side of MCP authorization (OAuth 2.1 authorization code with PKCE) for one
/// server, as a state machine: discovery, the resource and issuer checks, client identity,
/// scopes and step-up, tokens, refresh, and which requests may carry the token. No I/O, no
/// clock, no randomness. Drain `pollAction()` after every input.
#[napi]
pub struct Authorizer {
    inner: mcp_context::auth::Authorizer,
}

#[napi]
impl Authorizer {
    /// A flow for `config.serverUrl` (see `AuthConfig`).
    ///
    /// @throws {TypeError} a missing or mistyped key; {McpContextError} `ERR_CONFIG` for an
    /// unacceptable URL.
    #[napi(constructor, catch_unwind, ts_args_type = "config: AuthConfig")]
    pub fn new(env: Env, config: Object<'_>) -> Result<Self> {
        let src = In::root(&env, config.to_unknown())?;
        let config = auth_config(&src).map_err(|e| throw(&env, e))?;
        mcp_context::auth::Authorizer::new(config)
            .map(|inner| Self { inner })
            .map_err(|e| throw(&env, Error::context("ERR_CONFIG", e.to_string())))
    }

    /// Loads stored tokens; `false` (ignored) when they are for another resource.
    #[napi(catch_unwind, ts_args_type = "tokens: AuthTokens")]
    pub fn restore(&mut self, env: Env, tokens: Object<'_>) -> Result<bool> {
        let src = In::root(&env, tokens.to_unknown())?;
        let t = tokens_from(&src).map_err(|e| throw(&env, e))?;
        Ok(self.inner.restore(t))
    }

    /// The tokens held, or `null`.
    #[napi(catch_unwind, ts_return_type = "AuthTokens | null")]
    pub fn tokens<'e>(&self, env: &'e Env) -> Result<Unknown<'e>> {
        render(env, self.inner.tokens().map_or(Js::Null, tokens))
    }

    /// The authorization context of the tokens held: one number per grant (restored tokens or
    /// a new authorization; a refresh keeps it), or `null`. Give it to
    /// `ClientMachine.setAuthContext` so private results stay with their grant.
    #[napi(catch_unwind)]
    pub fn auth_context(&self) -> Option<i64> {
        self.inner
            .auth_context()
            .map(|a| i64::try_from(a.0).unwrap_or(i64::MAX))
    }

    /// The next action, or `null` (see `AuthAction`).
    #[napi(catch_unwind, ts_return_type = "AuthAction | null")]
    pub fn poll_action<'e>(&mut self, env: &'e Env) -> Result<Unknown<'e>> {
        render(env, self.inner.poll_action().map_or(Js::Null, action))
    }

    /// Whether a flow is running.
    #[napi(getter, catch_unwind)]
    pub fn is_busy(&self) -> bool {
        self.inner.is_busy()
    }

    /// The `Authorization` value for a request to `url` (the server's origin only, an
    /// unexpired token), or `null`.
    #[napi(catch_unwind)]
    pub fn authorization_header(
        &self,
        env: Env,
        url: String,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<Option<String>> {
        let now = convert::time_in(&env, &now_ms)?;
        Ok(self.inner.authorization_header(&url, now))
    }

    /// Whether the access token is about to expire and can be refreshed now.
    #[napi(catch_unwind)]
    pub fn refresh_due(
        &self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<bool> {
        Ok(self.inner.refresh_due(convert::time_in(&env, &now_ms)?))
    }

    /// Starts a refresh when one is due (ends in `store` or `failed`).
    #[napi(catch_unwind)]
    pub fn start_refresh(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        self.inner.start_refresh(convert::time_in(&env, &now_ms)?);
        Ok(())
    }

    /// A request went through: the attempt count starts again.
    #[napi(catch_unwind)]
    pub fn handle_success(&mut self) {
        self.inner.handle_success();
    }

    /// A request was answered `status` (401, or 403 `insufficient_scope`) with this
    /// `WWW-Authenticate` value: starts the flow. `entropy`: 48 fresh random bytes.
    #[napi(catch_unwind)]
    pub fn handle_challenge(
        &mut self,
        env: Env,
        status: u16,
        www_authenticate: Option<String>,
        entropy: Buffer,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        let entropy: &[u8; ENTROPY_LEN] = entropy[..].try_into().map_err(|_| {
            throw(
                &env,
                Error::Type(format!("entropy must be {ENTROPY_LEN} bytes")),
            )
        })?;
        self.inner
            .handle_challenge(status, www_authenticate.as_deref(), entropy, now);
        Ok(())
    }

    /// The response to fetch `id`: its status and body.
    #[napi(catch_unwind)]
    pub fn handle_fetched(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] id: Int,
        status: u16,
        body: Buffer,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let id = convert::u64_in(&env, &id, "id")?;
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.handle_fetched(FetchId(id), status, &body, now);
        Ok(())
    }

    /// Fetch `id` could not be carried (a network error).
    #[napi(catch_unwind)]
    pub fn handle_fetch_failed(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] id: Int,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let id = convert::u64_in(&env, &id, "id")?;
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.handle_fetch_failed(FetchId(id), now);
        Ok(())
    }

    /// The URL the user agent came back to after an `authorize` action.
    #[napi(catch_unwind)]
    pub fn handle_redirect(
        &mut self,
        env: Env,
        url: String,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<()> {
        let now = convert::time_in(&env, &now_ms)?;
        self.inner.handle_redirect(&url, now);
        Ok(())
    }
}
