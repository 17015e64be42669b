//! Authorization, client side: the core's OAuth flow (`mcp_context::auth`, docs/rules.md §21)
//! for both engines: its configuration and stored tokens read from JS-ish input, its actions
//! and tokens as JS values.
//!
//! Actions: `{type: 'fetch', id, method, url, headers, body}`, `{type: 'authorize', url}`,
//! `{type: 'store', tokens}`, `{type: 'retry', authorization}`, `{type: 'failed', error}`.
//! Tokens: `{issuer, resource, accessToken, refreshToken, expiresAtMs, scope}`.

use mcp_context::auth::{Action, AuthConfig, HttpMethod, PreRegistered, Tokens};

use crate::error::{Error, Result};
use crate::source::Source;
use crate::value::{Js, Obj};

pub(crate) fn opt_string(s: &impl Source, key: &str) -> Result<Option<String>> {
    s.field(key)?.map(|v| v.string(key)).transpose()
}

fn req_string(s: &impl Source, key: &str) -> Result<String> {
    opt_string(s, key)?.ok_or_else(|| Error::Type(format!("{key} is required")))
}

/// The flow's configuration: `serverUrl`, `redirectUri` (required), `clientName`,
/// `clientIdMetadataDocument`, `preRegistered` (`[{issuer, clientId, clientSecret?}]`),
/// `offlineAccess`, `maxAuthorizations`, `refreshSkewMs`.
///
/// # Errors
/// A `TypeError` for a missing or mistyped key.
pub fn auth_config(s: &impl Source) -> Result<AuthConfig> {
    let name = opt_string(s, "clientName")?.unwrap_or_else(|| "mcp-context".into());
    let mut c = AuthConfig::new(
        &req_string(s, "serverUrl")?,
        &req_string(s, "redirectUri")?,
        &name,
    );
    c.client_id_metadata_document = opt_string(s, "clientIdMetadataDocument")?;
    if let Some(list) = s.field("preRegistered")? {
        for p in list.items("preRegistered")? {
            c.pre_registered.push(PreRegistered {
                issuer: req_string(&p, "issuer")?,
                client_id: req_string(&p, "clientId")?,
                client_secret: opt_string(&p, "clientSecret")?,
            });
        }
    }
    if let Some(v) = s.field("offlineAccess")? {
        c.offline_access = v.boolean("offlineAccess")?;
    }
    if let Some(v) = s.field("maxAuthorizations")? {
        c.max_authorizations = u8::try_from(v.uint("maxAuthorizations")?)
            .map_err(|_| Error::Type("maxAuthorizations must be below 256".into()))?;
    }
    if let Some(v) = s.field("refreshSkewMs")? {
        c.refresh_skew_ms = v.uint("refreshSkewMs")?;
    }
    Ok(c)
}

/// Stored tokens (the shape [`tokens`] renders).
///
/// # Errors
/// A `TypeError` for a missing or mistyped key.
pub fn tokens_from(s: &impl Source) -> Result<Tokens> {
    Ok(Tokens {
        issuer: req_string(s, "issuer")?,
        resource: req_string(s, "resource")?,
        access_token: req_string(s, "accessToken")?,
        refresh_token: opt_string(s, "refreshToken")?,
        expires_at_ms: s
            .field("expiresAtMs")?
            .map(|v| v.uint("expiresAtMs"))
            .transpose()?,
        scope: opt_string(s, "scope")?,
    })
}

fn opt(v: Option<&String>) -> Js {
    v.map_or(Js::Null, |s| Js::from(s.clone()))
}

/// Tokens as a JS object.
#[must_use]
pub fn tokens(t: &Tokens) -> Js {
    let mut o = Obj::default();
    o.set("issuer", t.issuer.clone())
        .set("resource", t.resource.clone())
        .set("accessToken", t.access_token.clone())
        .set("refreshToken", opt(t.refresh_token.as_ref()))
        .set("expiresAtMs", t.expires_at_ms.map_or(Js::Null, Js::U64))
        .set("scope", opt(t.scope.as_ref()));
    o.into()
}

/// An action as a JS object.
#[must_use]
pub fn action(a: Action) -> Js {
    match a {
        Action::Fetch(f) => {
            let mut o = Obj::typed("fetch");
            let headers: Vec<(String, String)> = f
                .headers
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            o.set("id", f.id.0)
                .set(
                    "method",
                    match f.method {
                        HttpMethod::Get => "GET",
                        HttpMethod::Post => "POST",
                    },
                )
                .set("url", f.url)
                .set("headers", Obj::pairs(&headers))
                .set("body", Js::Bytes(f.body));
            o.into()
        }
        Action::Authorize { url } => {
            let mut o = Obj::typed("authorize");
            o.set("url", url);
            o.into()
        }
        Action::StoreTokens(t) => {
            let mut o = Obj::typed("store");
            o.set("tokens", tokens(&t));
            o.into()
        }
        Action::Retry { authorization } => {
            let mut o = Obj::typed("retry");
            o.set("authorization", authorization);
            o.into()
        }
        Action::Failed(e) => {
            let mut o = Obj::typed("failed");
            o.set("error", e.to_string());
            o.into()
        }
    }
}
