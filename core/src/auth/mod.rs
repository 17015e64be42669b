//! Authorization (feature `alloc`), client side: a sans-IO OAuth 2.1 authorization-code flow
//! with PKCE that takes an MCP client to a protected server (docs/rules.md §21).
//!
//! [`Authorizer`] owns every rule of the flow: discovery of the protected resource metadata
//! (the challenge's `resource_metadata`, then the RFC 9728 well-known locations) and of the
//! authorization server metadata (RFC 8414, then OpenID Connect discovery, with the issuer
//! check), the resource check, client identity (pre-registered, Client ID Metadata Document,
//! dynamic registration, in that order), PKCE S256, `state`, `resource` (RFC 8707), scope
//! selection and step-up, the authorization response's `iss` (RFC 9207), token endpoint
//! authentication, refresh, migration to another authorization server, and which requests may
//! carry the token. It does no I/O, reads no clock and draws no random numbers: the host
//! fetches, opens the authorization URL, captures the redirect, and passes `now` and fresh
//! random bytes in.
//!
//! # Run loop
//!
//! ```text
//! host                                             Authorizer
//!  |-- MCP request gets 401/403 ------------------->|  handle_challenge(status, header, entropy, now)
//!  |<-- poll_action(): Fetch(GET metadata) ---------|
//!  |-- handle_fetched(id, status, body, now) ------>|  … until
//!  |<-- poll_action(): Authorize { url } -----------|  the user agent follows it
//!  |-- handle_redirect(redirect_url, now) --------->|
//!  |<-- poll_action(): Fetch(POST token) -----------|
//!  |-- handle_fetched(id, status, body, now) ------>|
//!  |<-- StoreTokens(tokens), Retry { authorization }|  re-send the MCP request with it
//!  |-- handle_success() when a request went through |
//! ```
//!
//! Before each MCP request, [`Authorizer::authorization_header`] gives the `Authorization`
//! value for that URL (none for another origin); [`Authorizer::refresh_due`] and
//! [`Authorizer::start_refresh`] renew a token that is about to expire.
//!
//! The server side, a protected resource (docs/rules.md §22), is [`resource_server`].

mod challenge;
mod flow;
pub mod form;
mod metadata;
pub mod resource_server;
pub mod url;

pub use challenge::{BearerChallenge, Challenge, ChallengeError, Challenges, MAX_HEADER_LEN};
pub use flow::Authorizer;
pub use metadata::{
    MAX_DOCUMENT_LEN, RegistrationResponse, ResourceMetadata, ServerMetadata, TokenResponse,
};

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Random bytes the host passes with each challenge: 32 for the PKCE code verifier, 16 for
/// `state`.
pub const ENTROPY_LEN: usize = 48;

/// Client credentials registered out of band, bound to one authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreRegistered {
    /// The issuer identifier of the authorization server that issued them.
    pub issuer: String,
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`, for a confidential client.
    pub client_secret: Option<String>,
}

/// A client identity obtained by dynamic registration, bound to one authorization server: what
/// a host keeps beside the tokens so that a later run refreshes (or authorizes) with it
/// instead of registering again (docs/rules.md §21.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRegistration {
    /// The issuer identifier of the authorization server it was registered with.
    pub issuer: String,
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`, when one was issued.
    pub client_secret: Option<String>,
    /// The token endpoint authentication in use: `none`, `client_secret_basic` or
    /// `client_secret_post`.
    pub token_endpoint_auth_method: String,
}

/// How the flow behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfig {
    /// The MCP server's URL (the endpoint the client posts to).
    pub server_url: String,
    /// Where the authorization server sends the user agent back (`redirect_uri`).
    pub redirect_uri: String,
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// The client's Client ID Metadata Document URL, used as `client_id` where supported.
    pub client_id_metadata_document: Option<String>,
    /// Pre-registered credentials, each bound to its issuer.
    pub pre_registered: Vec<PreRegistered>,
    /// Ask for `offline_access` when the authorization server lists it (refresh tokens).
    pub offline_access: bool,
    /// Authorizations started without a request going through in between before the flow
    /// gives up (docs/rules.md §21.6; default 3).
    pub max_authorizations: u8,
    /// Refresh this long before the access token expires (default 60 s).
    pub refresh_skew_ms: u64,
}

impl AuthConfig {
    /// A configuration with the defaults: no metadata document, no pre-registered
    /// credentials, `offline_access` when offered, 3 authorizations, 60 s refresh skew.
    #[must_use]
    pub fn new(server_url: &str, redirect_uri: &str, client_name: &str) -> Self {
        Self {
            server_url: server_url.into(),
            redirect_uri: redirect_uri.into(),
            client_name: client_name.into(),
            client_id_metadata_document: None,
            pre_registered: Vec::new(),
            offline_access: true,
            max_authorizations: 3,
            refresh_skew_ms: 60_000,
        }
    }
}

/// Identifies one fetch the host carries for the flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FetchId(pub u64);

/// An HTTP method of a fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    /// `GET` (metadata).
    Get,
    /// `POST` (registration, token).
    Post,
}

/// A request the host sends and answers with [`Authorizer::handle_fetched`] (or
/// [`Authorizer::handle_fetch_failed`]). Redirects are not to be followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchRequest {
    /// Echo it back with the response.
    pub id: FetchId,
    /// The method.
    pub method: HttpMethod,
    /// The absolute URL.
    pub url: String,
    /// Headers to send (`Accept`, `Content-Type`, `Authorization` for client authentication).
    pub headers: Vec<(&'static str, String)>,
    /// The body (empty for `GET`).
    pub body: Vec<u8>,
}

/// Tokens for one protected resource, to keep in the host's token store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokens {
    /// The issuer identifier of the authorization server that issued them.
    pub issuer: String,
    /// The `resource` they were requested for.
    pub resource: String,
    /// The access token.
    pub access_token: String,
    /// The refresh token, if one was issued.
    pub refresh_token: Option<String>,
    /// When the access token expires, on the host's clock (ms), if the server said.
    pub expires_at_ms: Option<u64>,
    /// The scope granted (or requested, when the server did not say).
    pub scope: Option<String>,
}

/// What the host must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Send this request and pass the response back.
    Fetch(FetchRequest),
    /// Send the user agent to this authorization URL; pass the redirect it comes back with
    /// to [`Authorizer::handle_redirect`].
    Authorize {
        /// The authorization request URL.
        url: String,
    },
    /// Keep these tokens (replacing any earlier ones for the same resource).
    StoreTokens(Tokens),
    /// Re-send the challenged request with this `Authorization` header value.
    Retry {
        /// `Bearer <access token>`.
        authorization: String,
    },
    /// The flow stopped; the challenged request fails with this error.
    Failed(AuthError),
}

/// Why the flow stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthError {
    /// A challenge arrived while a flow was running.
    Busy,
    /// The status is neither 401 nor 403 `insufficient_scope`.
    NotAChallenge(u16),
    /// The `WWW-Authenticate` header does not parse.
    BadChallenge(ChallengeError),
    /// Too many authorizations without a request going through (docs/rules.md §21.6).
    TooManyAttempts,
    /// A URL of the flow is not an acceptable `http(s)` URL (docs/rules.md §21.1).
    BadUrl(String),
    /// No protected resource metadata could be fetched.
    NoResourceMetadata,
    /// The metadata's `resource` does not identify this server (docs/rules.md §21.3).
    ResourceMismatch(String),
    /// No authorization server metadata could be fetched.
    NoServerMetadata,
    /// The metadata's `issuer` is not the issuer it was fetched for (docs/rules.md §21.2).
    IssuerMismatch(String),
    /// The authorization server does not advertise PKCE `S256` (docs/rules.md §21.5).
    PkceUnsupported,
    /// No way to get a `client_id` for this authorization server (docs/rules.md §21.4).
    NoClientIdentity,
    /// Dynamic client registration failed with this status.
    RegistrationFailed(u16),
    /// A redirect arrived when none was expected, or to another URI.
    UnexpectedRedirect,
    /// The redirect's `state` is not the one sent.
    StateMismatch,
    /// `iss` absent though the server advertises it (docs/rules.md §21.5).
    IssMissing,
    /// `iss` is not the recorded issuer (docs/rules.md §21.5).
    IssMismatch,
    /// The authorization server answered with this `error`.
    AuthorizationDenied(String),
    /// The token request failed: status and `error`, if any.
    TokenRequestFailed(u16, Option<String>),
    /// The token response is not a usable `Bearer` token response.
    BadTokenResponse,
    /// The host could not carry a fetch.
    FetchFailed,
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Busy => f.write_str("an authorization flow is already running"),
            Self::NotAChallenge(s) => write!(f, "status {s} is not an authorization challenge"),
            Self::BadChallenge(e) => write!(f, "{e}"),
            Self::TooManyAttempts => f.write_str("too many authorization attempts"),
            Self::BadUrl(u) => write!(f, "unacceptable URL: {u}"),
            Self::NoResourceMetadata => f.write_str("no protected resource metadata"),
            Self::ResourceMismatch(r) => write!(f, "resource {r} does not match the server"),
            Self::NoServerMetadata => f.write_str("no authorization server metadata"),
            Self::IssuerMismatch(i) => write!(f, "metadata issuer {i} does not match"),
            Self::PkceUnsupported => f.write_str("authorization server lacks PKCE S256"),
            Self::NoClientIdentity => f.write_str("no client identity for this server"),
            Self::RegistrationFailed(s) => write!(f, "client registration failed ({s})"),
            Self::UnexpectedRedirect => f.write_str("unexpected redirect"),
            Self::StateMismatch => f.write_str("state mismatch"),
            Self::IssMissing => f.write_str("iss missing from the authorization response"),
            Self::IssMismatch => f.write_str("iss does not match the issuer"),
            Self::AuthorizationDenied(e) => write!(f, "authorization denied: {e}"),
            Self::TokenRequestFailed(s, e) => {
                write!(
                    f,
                    "token request failed ({s}, {})",
                    e.as_deref().unwrap_or("-")
                )
            }
            Self::BadTokenResponse => f.write_str("unusable token response"),
            Self::FetchFailed => f.write_str("fetch failed"),
        }
    }
}

impl core::error::Error for AuthError {}

#[cfg(test)]
mod tests;
