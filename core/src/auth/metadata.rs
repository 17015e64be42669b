//! The JSON documents of the flow, read with [`crate::json::RawJson`] into owned values:
//! protected resource metadata (RFC 9728 §2), authorization server metadata (RFC 8414 §2,
//! OpenID Connect Discovery 1.0 §3), the dynamic client registration response (RFC 7591
//! §3.2.1), the token response (RFC 6749 §5.1) and the OAuth error response (§5.2).
//!
//! Each parser returns `None` for a document that is not a JSON object or lacks a required
//! member; optional members of the wrong type are ignored. Bodies longer than
//! [`MAX_DOCUMENT_LEN`] are refused.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::RawJson;

/// The longest metadata, registration or token body read, in bytes.
pub const MAX_DOCUMENT_LEN: usize = 64 * 1024;

fn object(body: &[u8]) -> Option<RawJson<'_>> {
    if body.len() > MAX_DOCUMENT_LEN {
        return None;
    }
    let v = RawJson::parse(body).ok()?;
    v.object().is_some().then_some(v)
}

fn string(v: &RawJson<'_>, key: &str) -> Option<String> {
    v.get(key)?.as_str().map(|s| s.to_cow().into_owned())
}

fn strings(v: &RawJson<'_>, key: &str) -> Option<Vec<String>> {
    let items = v.get(key)?.array()?;
    Some(
        items
            .filter_map(|i| i.as_str().map(|s| s.to_cow().into_owned()))
            .collect(),
    )
}

fn flag(v: &RawJson<'_>, key: &str) -> bool {
    v.get(key).and_then(|b| b.as_bool()).unwrap_or(false)
}

/// Protected resource metadata (RFC 9728 §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceMetadata {
    /// `resource`: the protected resource's identifier.
    pub resource: String,
    /// `authorization_servers`: issuer identifiers, at least one.
    pub authorization_servers: Vec<String>,
    /// `scopes_supported`.
    pub scopes_supported: Option<Vec<String>>,
}

impl ResourceMetadata {
    /// Parses the document; `None` without `resource` or a non-empty `authorization_servers`.
    #[must_use]
    pub fn parse(body: &[u8]) -> Option<Self> {
        let v = object(body)?;
        let authorization_servers = strings(&v, "authorization_servers")?;
        (!authorization_servers.is_empty()).then_some(())?;
        Some(Self {
            resource: string(&v, "resource")?,
            authorization_servers,
            scopes_supported: strings(&v, "scopes_supported"),
        })
    }
}

/// Authorization server metadata (RFC 8414 §2; an OpenID Connect discovery document has the
/// same members).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerMetadata {
    /// `issuer`.
    pub issuer: String,
    /// `authorization_endpoint`.
    pub authorization_endpoint: String,
    /// `token_endpoint`.
    pub token_endpoint: String,
    /// `registration_endpoint` (RFC 7591).
    pub registration_endpoint: Option<String>,
    /// `scopes_supported`.
    pub scopes_supported: Option<Vec<String>>,
    /// `code_challenge_methods_supported` (RFC 7636).
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// `token_endpoint_auth_methods_supported` (absent means `client_secret_basic`).
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// `client_id_metadata_document_supported`.
    pub client_id_metadata_document_supported: bool,
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §3).
    pub authorization_response_iss_parameter_supported: bool,
}

impl ServerMetadata {
    /// Parses the document; `None` without `issuer`, `authorization_endpoint` or
    /// `token_endpoint`.
    #[must_use]
    pub fn parse(body: &[u8]) -> Option<Self> {
        let v = object(body)?;
        Some(Self {
            issuer: string(&v, "issuer")?,
            authorization_endpoint: string(&v, "authorization_endpoint")?,
            token_endpoint: string(&v, "token_endpoint")?,
            registration_endpoint: string(&v, "registration_endpoint"),
            scopes_supported: strings(&v, "scopes_supported"),
            code_challenge_methods_supported: strings(&v, "code_challenge_methods_supported"),
            token_endpoint_auth_methods_supported: strings(
                &v,
                "token_endpoint_auth_methods_supported",
            ),
            client_id_metadata_document_supported: flag(
                &v,
                "client_id_metadata_document_supported",
            ),
            authorization_response_iss_parameter_supported: flag(
                &v,
                "authorization_response_iss_parameter_supported",
            ),
        })
    }

    /// Whether `method` is a supported token endpoint authentication method (RFC 8414 §2:
    /// the default is `client_secret_basic`).
    #[must_use]
    pub fn supports_auth_method(&self, method: &str) -> bool {
        self.token_endpoint_auth_methods_supported
            .as_ref()
            .map_or(method == "client_secret_basic", |m| {
                m.iter().any(|x| x == method)
            })
    }
}

/// The dynamic client registration response (RFC 7591 §3.2.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistrationResponse {
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`.
    pub client_secret: Option<String>,
    /// `token_endpoint_auth_method` the server registered.
    pub token_endpoint_auth_method: Option<String>,
}

impl RegistrationResponse {
    /// Parses the response; `None` without `client_id`.
    #[must_use]
    pub fn parse(body: &[u8]) -> Option<Self> {
        let v = object(body)?;
        Some(Self {
            client_id: string(&v, "client_id")?,
            client_secret: string(&v, "client_secret"),
            token_endpoint_auth_method: string(&v, "token_endpoint_auth_method"),
        })
    }
}

/// A successful token response (RFC 6749 §5.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenResponse {
    /// `access_token`.
    pub access_token: String,
    /// `token_type` (compared case-insensitively with `Bearer`).
    pub token_type: String,
    /// `expires_in`, seconds.
    pub expires_in: Option<u64>,
    /// `refresh_token`.
    pub refresh_token: Option<String>,
    /// `scope` granted.
    pub scope: Option<String>,
}

impl TokenResponse {
    /// Parses the response; `None` without a non-empty `access_token` and a `token_type`.
    #[must_use]
    pub fn parse(body: &[u8]) -> Option<Self> {
        let v = object(body)?;
        let access_token = string(&v, "access_token").filter(|t| !t.is_empty())?;
        Some(Self {
            access_token,
            token_type: string(&v, "token_type")?,
            expires_in: v
                .get("expires_in")
                .and_then(|n| n.as_number())
                .and_then(|n| n.as_u64()),
            refresh_token: string(&v, "refresh_token").filter(|t| !t.is_empty()),
            scope: string(&v, "scope"),
        })
    }
}

/// An OAuth error response's `error` code (RFC 6749 §5.2), if the body is one.
#[must_use]
pub(crate) fn error_code(body: &[u8]) -> Option<String> {
    string(&object(body)?, "error")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_parse_and_refuse() {
        let prm = ResourceMetadata::parse(
            br#"{"resource":"https://m.example/mcp","authorization_servers":["https://as"],"scopes_supported":["a",1,"b"]}"#,
        )
        .unwrap();
        assert_eq!(
            prm.scopes_supported,
            Some(alloc::vec!["a".into(), "b".into()])
        );
        assert!(
            ResourceMetadata::parse(br#"{"resource":"x","authorization_servers":[]}"#).is_none()
        );
        assert!(ResourceMetadata::parse(br#"{"authorization_servers":["a"]}"#).is_none());
        assert!(ResourceMetadata::parse(b"[1]").is_none());
        let asm = ServerMetadata::parse(
            br#"{"issuer":"https://as","authorization_endpoint":"https://as/a","token_endpoint":"https://as/t","client_id_metadata_document_supported":true}"#,
        )
        .unwrap();
        assert!(asm.client_id_metadata_document_supported);
        assert!(!asm.authorization_response_iss_parameter_supported);
        assert!(
            asm.supports_auth_method("client_secret_basic") && !asm.supports_auth_method("none")
        );
        assert!(ServerMetadata::parse(br#"{"issuer":"https://as"}"#).is_none());
        let t = TokenResponse::parse(
            br#"{"access_token":"x","token_type":"Bearer","expires_in":3600,"refresh_token":""}"#,
        )
        .unwrap();
        assert_eq!((t.expires_in, t.refresh_token), (Some(3600), None));
        assert!(TokenResponse::parse(br#"{"access_token":"","token_type":"Bearer"}"#).is_none());
        assert_eq!(
            error_code(br#"{"error":"invalid_grant"}"#).as_deref(),
            Some("invalid_grant")
        );
        let big = alloc::vec![b' '; MAX_DOCUMENT_LEN + 1];
        assert!(ServerMetadata::parse(&big).is_none());
    }
}
