//! The protected HTTP endpoint, machine half (docs/rules.md §22): the door
//! ([`Server::http_authenticate`], [`Server::http_admit`], [`Server::http_reject`]) and the
//! scopes items require ([`Server::require_scopes`]). The pure pieces are
//! [`crate::auth::resource_server`].
//!
//! A host calls, per HTTP request, before [`Server::http_head`]:
//!
//! ```text
//! http_authenticate(head, authorization) ── Respond(r) ──> write r (metadata, 401)
//!        │ Verify(token)                    ── Proceed ──> Ctx::http(..) (anonymous)
//!        ▼
//! host verifies token (signature, iss, JWKS, introspection; async)
//!        ├─ rejected ──> http_reject(why): 401 invalid_token
//!        └─ Caller ───> http_admit(&caller, now_ms) ── Err(r) ──> write r (401 / 403)
//!                                  │ Ok(scopes)
//!                                  ▼
//!             handle_http(head, body, now, Ctx::http(..).with_scopes(scopes))
//! ```
//!
//! The token never enters the machine past [`Server::http_authenticate`]; handlers see the
//! caller's `auth` id and scopes. A host that skips the door gets 401 from
//! [`Server::handle_http`] for every request without admitted scopes.

use alloc::string::String;
use alloc::vec::Vec;

use super::io::Ctx;
use super::machine::Server;
use super::registry::RegisterError;
use crate::auth::resource_server::{
    Bearer, Caller, ResourceServerConfig, ScopeSet, Unauthorized, bearer,
};
use crate::error_code::ErrorCode;
use crate::http::{HttpResponse, RequestHead};
use crate::jsonrpc::{ErrorObject, RequestId};

/// What to do with a request at the protected endpoint's door.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate<'t> {
    /// Write this response: the protected resource metadata, or a 401 challenge.
    Respond(HttpResponse),
    /// Verify this bearer token, then [`Server::http_admit`] the caller (or
    /// [`Server::http_reject`] the token).
    Verify(&'t str),
    /// No protection, or no token where none is required: go on with an anonymous
    /// [`Ctx`] (no scopes).
    Proceed,
}

/// An item that can require scopes: its key as registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scoped<'a> {
    /// A static resource, by URI.
    Resource(&'a str),
    /// A resource template, by its URI template text.
    Template(&'a str),
    /// A prompt, by name.
    Prompt(&'a str),
    /// A tool, by name.
    Tool(&'a str),
}

impl<'a> Scoped<'a> {
    /// The item of kind `kind` (`"resource"`, `"template"`, `"prompt"`, `"tool"`: the names
    /// every binding takes) keyed `key`; `None` for another kind.
    #[must_use]
    pub fn of_kind(kind: &str, key: &'a str) -> Option<Self> {
        Some(match kind {
            "resource" => Self::Resource(key),
            "template" => Self::Template(key),
            "prompt" => Self::Prompt(key),
            "tool" => Self::Tool(key),
            _ => return None,
        })
    }
}

/// Scopes items require: (kind, key) → scope bits.
#[derive(Debug, Default)]
pub(crate) struct ScopeTable(Vec<(u8, String, ScopeSet)>);

impl ScopeTable {
    fn kind(item: Scoped<'_>) -> (u8, &str) {
        match item {
            Scoped::Resource(k) => (0, k),
            Scoped::Template(k) => (1, k),
            Scoped::Prompt(k) => (2, k),
            Scoped::Tool(k) => (3, k),
        }
    }

    /// The scopes `item` requires (none when it requires none).
    pub(crate) fn of(&self, item: Scoped<'_>) -> ScopeSet {
        if self.0.is_empty() {
            return ScopeSet::NONE;
        }
        let (kind, key) = Self::kind(item);
        self.0
            .iter()
            .find(|(k, s, _)| *k == kind && s == key)
            .map_or(ScopeSet::NONE, |(_, _, set)| *set)
    }

    fn set(&mut self, item: Scoped<'_>, scopes: ScopeSet) {
        let (kind, key) = Self::kind(item);
        self.0.retain(|(k, s, _)| !(*k == kind && s == key));
        if !scopes.is_empty() {
            self.0.push((kind, String::from(key), scopes));
        }
    }
}

impl Server {
    fn protection(&self) -> Option<&ResourceServerConfig> {
        self.config.protection.as_ref()
    }

    /// The door of a protected endpoint (docs/rules.md §22.2), before [`Server::http_head`]:
    /// a `GET` of the protected resource metadata (RFC 9728 §3.1, path-suffixed or root
    /// form) is answered here; on the endpoint's path, the bearer token of `authorization`
    /// (the request's `Authorization` value, [`HeadFields::authorization`](crate::http::HeadFields::authorization))
    /// is handed back to verify, a missing one is 401 (when
    /// [`ResourceServerConfig::token_required`]) and a malformed one 401 `invalid_token`.
    /// Another path, or a server without [`ServerConfig::protection`](super::ServerConfig::protection),
    /// proceeds (the head checks answer it).
    #[must_use]
    pub fn http_authenticate<'t>(
        &self,
        head: &RequestHead<'_>,
        authorization: Option<&'t str>,
    ) -> Gate<'t> {
        let Some(p) = self.protection() else {
            return Gate::Proceed;
        };
        if p.is_metadata_path(head.path) {
            return Gate::Respond(p.metadata_response(head.method));
        }
        if let Some(path) = &self.config.http.path {
            let got = head.path.split_once('?').map_or(head.path, |(x, _)| x);
            if got != path.as_str() {
                return Gate::Proceed;
            }
        }
        match bearer(authorization) {
            Bearer::Token(t) => Gate::Verify(t),
            Bearer::Malformed(why) => Gate::Respond(p.challenge(&Unauthorized::InvalidToken(why))),
            Bearer::Absent if p.token_required => {
                Gate::Respond(p.challenge(&Unauthorized::NoToken))
            }
            Bearer::Absent => Gate::Proceed,
        }
    }

    /// The core's checks on a caller the host's verifier resolved a token to
    /// (docs/rules.md §22.3): not expired at `now_ms` (milliseconds since the Unix epoch,
    /// the scale of [`Caller::expires_at_ms`]; not the machine's clock), an audience naming this resource
    /// (RFC 8707), and the [`ResourceServerConfig::required_scopes`]. `Ok` is the caller's
    /// [`ScopeSet`] for [`Ctx::with_scopes`]; `Err` the 401 `invalid_token` or 403
    /// `insufficient_scope` to write. Without protection every caller is admitted with no
    /// scopes.
    ///
    /// # Errors
    /// The response refusing the caller.
    pub fn http_admit(&self, caller: &Caller, now_ms: u64) -> Result<ScopeSet, HttpResponse> {
        let Some(p) = self.protection() else {
            return Ok(ScopeSet::NONE);
        };
        let refuse = |why| Err(p.challenge(&Unauthorized::InvalidToken(why)));
        if caller.expires_at_ms.is_some_and(|exp| exp <= now_ms) {
            return refuse("the token has expired");
        }
        if !caller.audience.iter().any(|a| p.is_audience(a)) {
            return refuse("the token is not for this resource");
        }
        let granted = p.scope_set(caller.scopes.iter().map(String::as_str));
        let required = p.scope_set(p.required_scopes.iter().map(String::as_str));
        if !granted.covers(required) {
            return Err(p.challenge(&Unauthorized::InsufficientScope(granted.missing(required))));
        }
        Ok(granted)
    }

    /// The 401 `invalid_token` answer to a token the host's verifier rejected, with `why`
    /// as `error_description` (keep it free of token contents). Without protection: 401
    /// with no challenge parameters but the scheme.
    #[must_use]
    pub fn http_reject(&self, why: &str) -> HttpResponse {
        match self.protection() {
            Some(p) => p.challenge(&Unauthorized::InvalidToken(why)),
            None => {
                let mut r = HttpResponse::accepted();
                r.status = 401;
                r.headers.push(("WWW-Authenticate", String::from("Bearer")));
                r
            }
        }
    }

    /// The 401 a protected endpoint answers an HTTP request whose context carries no
    /// admitted scopes when a token is required (the host skipped the door).
    pub(crate) fn unadmitted(&self, ctx: &Ctx) -> Option<HttpResponse> {
        let p = self.protection()?;
        (p.token_required && ctx.scopes.is_none()).then(|| p.challenge(&Unauthorized::NoToken))
    }

    /// Sets (or, with `None`, removes) [`ServerConfig::protection`](super::ServerConfig::protection)
    /// after construction, for a package layer that learns it late. Scope requirements
    /// ([`Server::require_scopes`]) are cleared: they name scopes of the old configuration.
    ///
    /// # Errors
    /// [`ConfigError::InvalidProtection`](super::ConfigError::InvalidProtection); the
    /// configuration is then unchanged.
    pub fn set_protection(
        &mut self,
        protection: Option<ResourceServerConfig>,
    ) -> Result<(), super::ConfigError> {
        if protection.as_ref().is_some_and(|p| !p.is_valid()) {
            return Err(super::ConfigError::InvalidProtection);
        }
        self.config.protection = protection;
        self.scopes = ScopeTable::default();
        Ok(())
    }

    /// Requires `scopes` (names from [`ResourceServerConfig::scopes_supported`]) of every
    /// caller of `item` (docs/rules.md §22.4): it is listed only to callers holding them,
    /// and a caller without them that names it is refused with the step-up answer (HTTP 403
    /// `insufficient_scope` naming them). No scopes: the item requires none. The item need
    /// not be registered yet.
    ///
    /// # Errors
    /// [`RegisterError::UnknownScope`] for a name not in `scopes_supported` (or no
    /// protection configured).
    pub fn require_scopes(
        &mut self,
        item: Scoped<'_>,
        scopes: &[&str],
    ) -> Result<(), RegisterError> {
        let Some(p) = self.protection() else {
            return if scopes.is_empty() {
                Ok(())
            } else {
                Err(RegisterError::UnknownScope)
            };
        };
        if scopes
            .iter()
            .any(|s| !p.scopes_supported.iter().any(|k| k == s))
        {
            return Err(RegisterError::UnknownScope);
        }
        let set = p.scope_set(scopes.iter().copied());
        self.scopes.set(item, set);
        Ok(())
    }

    /// Whether `ctx`'s caller may read `uri` (docs/rules.md §22.4): a registered resource,
    /// or else the template it matches, is listed to it; a URI neither names is the host's
    /// (dynamic or unlisted) and passes.
    pub(crate) fn may_read(&self, ctx: &Ctx, uri: &str) -> bool {
        use super::registry::Listed;
        if let Some(e) = self.registry.resources.get(uri) {
            return self.listed(ctx, Listed::Resource(&e.resource));
        }
        if self.registry.templates.is_empty() {
            return true;
        }
        match self.router.route(uri) {
            Some((tid, _)) => self
                .registry
                .template_by_id(tid)
                .is_none_or(|t| self.listed(ctx, Listed::Template(&t.entry.template))),
            None => true,
        }
    }

    /// The scopes `ctx`'s caller lacks to read `uri`: those of the registered resource, or
    /// else of the template it matches (docs/rules.md §22.4). Used by the 2025-11-25
    /// `resources/subscribe`.
    #[cfg(feature = "legacy")]
    pub(crate) fn uri_scopes_missing(&self, ctx: &Ctx, uri: &str) -> ScopeSet {
        use super::registry::Listed;
        if let Some(e) = self.registry.resources.get(uri) {
            return self.scopes_missing(ctx, Listed::Resource(&e.resource).scoped());
        }
        if self.registry.templates.is_empty() {
            return ScopeSet::NONE;
        }
        self.router
            .route(uri)
            .and_then(|(tid, _)| self.registry.template_by_id(tid))
            .map_or(ScopeSet::NONE, |t| {
                self.scopes_missing(ctx, Listed::Template(&t.entry.template).scoped())
            })
    }

    /// The URIs a prompt result embeds or links that `ctx`'s caller may not read: a prompt
    /// is no side channel (docs/rules.md §22.4).
    pub(crate) fn embeds_forbidden(
        &self,
        ctx: &Ctx,
        messages: &[crate::messages::owned::OwnedPromptMessage],
    ) -> bool {
        use crate::messages::owned::{OwnedContentBlock as B, OwnedResourceContents as C};
        if self.filter.is_none() && self.config.protection.is_none() {
            return false;
        }
        messages.iter().any(|m| {
            let uri = match &m.content {
                B::ResourceLink(r) => r.uri.as_str(),
                B::Resource {
                    resource: C::Text { uri, .. } | C::Blob { uri, .. },
                    ..
                } => uri,
                _ => return false,
            };
            !self.may_read(ctx, uri)
        })
    }

    /// The scopes `item` requires that `ctx`'s caller lacks (none: it may use it).
    pub(crate) fn scopes_missing(&self, ctx: &Ctx, item: Scoped<'_>) -> ScopeSet {
        ctx.granted().missing(self.scopes.of(item))
    }

    /// The step-up answer (docs/rules.md §22.4): -32600 "Insufficient scope" with HTTP 403,
    /// whose `WWW-Authenticate` (kept until [`Server::handle_http`] writes the answer) names
    /// the `missing` scopes with `error="insufficient_scope"`.
    pub(crate) fn insufficient_scope(&mut self, ctx: Ctx, id: RequestId<'_>, missing: ScopeSet) {
        let (challenge, names) = match self.protection() {
            Some(p) => {
                let r = p.challenge(&Unauthorized::InsufficientScope(missing));
                let c = r.header("WWW-Authenticate").map(String::from);
                (c, p.scope_names(missing))
            }
            None => (None, String::new()),
        };
        self.step_up_challenge = challenge;
        let msg = alloc::format!("Insufficient scope: requires {names}");
        let err = ErrorObject::new(ErrorCode::INVALID_REQUEST, &msg);
        self.reply_error(ctx, id, &err, 403);
    }
}
