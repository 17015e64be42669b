//! Authorization, resource-server side (docs/rules.md §22) for both engines: the protected
//! endpoint's configuration, a verified caller and an item kind read from JS-ish input, the
//! door's answers as JS values. The rules are the core's (`Server::http_authenticate`,
//! `http_admit`, `http_reject`, `require_scopes`).

use mcp_context::auth::resource_server::{Caller, ResourceServerConfig};
use mcp_context::server::Scoped;

use crate::auth::opt_string;
use crate::error::{Error, Result};
use crate::source::Source;

fn strings(s: &impl Source, key: &str) -> Result<Vec<String>> {
    s.field(key)?.map_or(Ok(Vec::new()), |v| v.strings(key))
}

/// The protected endpoint: `resource` (its canonical URL) and `authorizationServers`
/// (required), `scopesSupported`, `requiredScopes`, `tokenRequired` (default `true`),
/// `resourceName`, `resourceDocumentation`.
///
/// # Errors
/// A `TypeError` for a missing or mistyped key.
pub fn protection(s: &impl Source) -> Result<ResourceServerConfig> {
    Ok(ResourceServerConfig {
        resource: opt_string(s, "resource")?
            .ok_or_else(|| Error::Type("resource is required".into()))?,
        authorization_servers: strings(s, "authorizationServers")?,
        scopes_supported: strings(s, "scopesSupported")?,
        required_scopes: strings(s, "requiredScopes")?,
        token_required: match s.field("tokenRequired")? {
            Some(v) => v.boolean("tokenRequired")?,
            None => true,
        },
        resource_name: opt_string(s, "resourceName")?,
        resource_documentation: opt_string(s, "resourceDocumentation")?,
    })
}

/// A verified caller: `subject`, `clientId`, `scopes` and `audience` (arrays of strings),
/// `expiresAtMs` (milliseconds since the Unix epoch); each may be absent.
///
/// # Errors
/// A `TypeError` for a mistyped key.
pub fn caller(s: &impl Source) -> Result<Caller> {
    Ok(Caller {
        subject: opt_string(s, "subject")?,
        client_id: opt_string(s, "clientId")?,
        scopes: strings(s, "scopes")?,
        audience: strings(s, "audience")?,
        expires_at_ms: s
            .field("expiresAtMs")?
            .map(|v| v.uint("expiresAtMs"))
            .transpose()?,
    })
}

/// `kind` (`'resource'`, `'template'`, `'prompt'`, `'tool'`) and `key` as the core's item key.
///
/// # Errors
/// A `TypeError` for another kind.
pub fn scoped<'k>(kind: &str, key: &'k str) -> Result<Scoped<'k>> {
    Scoped::of_kind(kind, key).ok_or_else(|| {
        Error::Type(format!(
            "kind must be 'resource', 'template', 'prompt' or 'tool', not '{kind}'"
        ))
    })
}
