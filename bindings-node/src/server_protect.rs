//! `ServerMachine`'s protected-endpoint methods (docs/rules.md §22): the core's resource-server
//! door (`httpAuthenticate`, `httpAdmit`, `httpReject`) and its scope rules
//! (`setProtection`, `requireScopes`). Conversions are the shared adapter's (`protect`).

use mcp_context_node_adapter::protect::{caller, protection};
use napi::bindgen_prelude::{JsValue, Object};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::{In, polled, thrower};
use crate::convert::{self, Int};
use crate::server::ServerMachine;
use crate::server_http::{HttpRequestHead, head_of};

#[napi]
impl ServerMachine {
    /// Makes the HTTP endpoint an OAuth 2.1 protected resource (or with `null` an open one):
    /// `{resource, authorizationServers, scopesSupported?, requiredScopes?, tokenRequired?,
    /// resourceName?, resourceDocumentation?}`. Scope requirements are cleared.
    ///
    /// @throws {TypeError} a missing or mistyped key; {McpContextError} `ERR_CONFIG`.
    #[napi(catch_unwind, ts_args_type = "protection: ResourceProtection | null")]
    pub fn set_protection(&mut self, env: Env, protection_: Option<Object<'_>>) -> Result<()> {
        let p = match In::opt(&env, protection_.map(|p| p.to_unknown()))? {
            Some(o) => Some(protection(&o).map_err(thrower(&env))?),
            None => None,
        };
        self.inner.set_protection(p).map_err(thrower(&env))
    }

    /// Requires `scopes` (from `scopesSupported`) of every caller of an item: `kind`
    /// `'resource'` (`key` its URI), `'template'` (its URI template), `'prompt'` or `'tool'`
    /// (its name).
    ///
    /// @throws {McpContextError} `ERR_UNKNOWN_SCOPE`; {TypeError} another kind.
    #[napi(
        catch_unwind,
        ts_args_type = "kind: 'resource' | 'template' | 'prompt' | 'tool', key: string, scopes: string[]"
    )]
    pub fn require_scopes(
        &mut self,
        env: Env,
        kind: String,
        key: String,
        scopes: Vec<String>,
    ) -> Result<()> {
        self.inner
            .require_scopes(&kind, &key, &scopes)
            .map_err(thrower(&env))
    }

    /// The protected endpoint's door, before `httpHead`: `{proceed: true}` (anonymous),
    /// `{token}` (verify the bearer token, then `httpAdmit`), or the whole response to write
    /// (the protected resource metadata, a 401 challenge).
    #[napi(
        catch_unwind,
        ts_args_type = "head: HttpRequestHead",
        ts_return_type = "{ proceed: true } | { token: string } | HttpResponse"
    )]
    pub fn http_authenticate<'e>(&self, env: &'e Env, head: HttpRequestHead) -> Result<Object<'e>> {
        polled(env, self.inner.http_authenticate(&head_of(head)), "body")
    }

    /// The core's checks on a caller the verifier resolved the token to (`{subject?,
    /// clientId?, scopes?, audience?, expiresAtMs?}`) at `nowMs`: `{scopes}` (the bits for
    /// `handleHttp`'s `context.scopes`) or the 401/403 response.
    #[napi(
        catch_unwind,
        ts_args_type = "caller: VerifiedCaller, nowMs: number | bigint",
        ts_return_type = "{ scopes: number | bigint } | HttpResponse"
    )]
    pub fn http_admit<'e>(
        &self,
        env: &'e Env,
        caller_: Object<'_>,
        now_ms: Int,
    ) -> Result<Object<'e>> {
        let now = convert::time_in(env, &now_ms)?;
        let c = In::root(env, caller_.to_unknown())?;
        let c = caller(&c).map_err(thrower(env))?;
        polled(env, self.inner.http_admit(&c, now), "body")
    }

    /// The 401 `invalid_token` response for a token the verifier refused (`why`: its
    /// `error_description`).
    #[napi(catch_unwind, ts_return_type = "HttpResponse")]
    pub fn http_reject<'e>(&self, env: &'e Env, why: String) -> Result<Object<'e>> {
        polled(env, self.inner.http_reject(&why), "body")
    }
}
