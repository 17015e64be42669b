//! Token verification for a protected HTTP endpoint (docs/rules.md §22.3, the host's part):
//! the [`TokenVerifier`] interface, a ready [`JwtVerifier`] (JWKS fetched and cached,
//! `iss`, `aud`, `exp`/`nbf` with leeway, an algorithm allow-list) and an RFC 7662
//! [`IntrospectionVerifier`].
//!
//! The core answers the metadata document, reads the bearer token and decides every 401/403
//! (`Server::http_authenticate`, `Server::http_admit`); the router hands the token to the
//! verifier of [`HttpOptions::verifier`](crate::http::HttpOptions::verifier) and never passes
//! it further. Errors a verifier returns are `error_description`s: keep token contents out.

use std::collections::hash_map::DefaultHasher;
use std::future::Future;
use std::hash::{Hash, Hasher};
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
pub use mcp_context::auth::resource_server::Caller;
use serde::Deserialize;

/// A verifier's answer: the caller, or why the token is refused (an `error_description`).
pub type Verdict = Result<Caller, String>;

/// The future a [`TokenVerifier`] returns.
pub type VerifyFuture<'a> = Pin<Box<dyn Future<Output = Verdict> + Send + 'a>>;

/// Resolves a bearer token to a [`Caller`] (or refuses it). The core then checks expiry,
/// audience and required scopes itself; a verifier checks what needs keys or a network:
/// signature, issuer, revocation.
pub trait TokenVerifier: Send + Sync + 'static {
    /// Verifies `token`.
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a>;
}

impl<F, Fut> TokenVerifier for F
where
    F: Fn(String) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Verdict> + Send + 'static,
{
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self(token.to_owned()))
    }
}

/// The `auth` id of a caller: one per (subject, client, scopes), so every dimension that
/// changes what a caller sees separates visibility, sessions and `private` results; never 0
/// (the anonymous caller).
#[must_use]
pub fn caller_id(caller: &Caller) -> u64 {
    let mut h = DefaultHasher::new();
    caller.subject.hash(&mut h);
    caller.client_id.hash(&mut h);
    let mut scopes: Vec<&String> = caller.scopes.iter().collect();
    scopes.sort();
    scopes.hash(&mut h);
    h.finish().max(1)
}

/// Milliseconds since the Unix epoch (the scale of [`Caller::expires_at_ms`]).
pub(crate) fn epoch_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The claims read from a JWT or an introspection response.
#[derive(Debug, Default, Deserialize)]
struct Claims {
    sub: Option<String>,
    client_id: Option<String>,
    azp: Option<String>,
    /// RFC 8693 / RFC 9068: space-separated.
    scope: Option<String>,
    /// Some servers send an array instead.
    scp: Option<Vec<String>>,
    #[serde(default, deserialize_with = "one_or_many")]
    aud: Vec<String>,
    exp: Option<u64>,
    /// RFC 7662 `active`.
    active: Option<bool>,
    iss: Option<String>,
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Aud {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Option::<Aud>::deserialize(d)? {
        None => Vec::new(),
        Some(Aud::One(s)) => vec![s],
        Some(Aud::Many(v)) => v,
    })
}

impl Claims {
    fn caller(self) -> Caller {
        let mut scopes: Vec<String> = self
            .scope
            .as_deref()
            .unwrap_or_default()
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        scopes.extend(self.scp.unwrap_or_default());
        Caller {
            subject: self.sub,
            client_id: self.client_id.or(self.azp),
            scopes,
            audience: self.aud,
            expires_at_ms: self.exp.map(|s| s.saturating_mul(1000)),
        }
    }
}

/// A JWT access token verifier (RFC 9068 profile): the signature by a key of the issuer's
/// JWKS (fetched with `reqwest`, cached for [`JwtVerifier::cache_for`], fetched again at
/// most every 30 s for an unknown `kid`), an algorithm from the allow-list (default
/// `RS256`, `PS256`, `ES256`: `none` and HMAC never, so a token signed with the public key
/// as an HMAC secret is refused), `iss` equal to the issuer, `aud` naming the resource,
/// `exp` required and `nbf` checked with [`JwtVerifier::leeway`].
pub struct JwtVerifier {
    jwks_url: String,
    issuer: String,
    audience: String,
    /// Accepted signature algorithms.
    pub algorithms: Vec<Algorithm>,
    /// Clock skew allowed on `exp` and `nbf`. Default: 60 s.
    pub leeway: Duration,
    /// How long a fetched JWKS is used. Default: 5 min.
    pub cache_for: Duration,
    http: reqwest::Client,
    cache: Mutex<Option<(Instant, JwkSet)>>,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("jwks_url", &self.jwks_url)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("algorithms", &self.algorithms)
            .finish_non_exhaustive()
    }
}

const REFETCH_AFTER: Duration = Duration::from_secs(30);

impl JwtVerifier {
    /// A verifier for tokens of `issuer` whose keys are at `jwks_url`, for the resource
    /// `audience` (the server's `ResourceServerConfig::resource`).
    #[must_use]
    pub fn new(jwks_url: &str, issuer: &str, audience: &str) -> Self {
        Self {
            jwks_url: jwks_url.to_owned(),
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            algorithms: vec![Algorithm::RS256, Algorithm::PS256, Algorithm::ES256],
            leeway: Duration::from_secs(60),
            cache_for: Duration::from_secs(300),
            http: reqwest::Client::new(),
            cache: Mutex::new(None),
        }
    }

    fn cached(&self, fresh_within: Duration) -> Option<JwkSet> {
        let guard = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        guard
            .as_ref()
            .filter(|(at, _)| at.elapsed() < fresh_within)
            .map(|(_, set)| set.clone())
    }

    async fn fetch(&self) -> Result<JwkSet, String> {
        let r = self
            .http
            .get(&self.jwks_url)
            .send()
            .await
            .map_err(|_| "the JWKS could not be fetched".to_owned())?;
        if !r.status().is_success() {
            return Err("the JWKS could not be fetched".to_owned());
        }
        let set: JwkSet = r
            .json()
            .await
            .map_err(|_| "the JWKS is not a JWK set".to_owned())?;
        let mut guard = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *guard = Some((Instant::now(), set.clone()));
        Ok(set)
    }

    /// The key for `kid` (any key when the token names none and the set has one).
    async fn key(&self, kid: Option<&str>) -> Result<DecodingKey, String> {
        let pick = |set: &JwkSet| match kid {
            Some(k) => set.find(k).cloned(),
            None if set.keys.len() == 1 => set.keys.first().cloned(),
            None => None,
        };
        let set = match self.cached(self.cache_for) {
            Some(set) => set,
            None => self.fetch().await?,
        };
        let jwk = match pick(&set) {
            Some(j) => j,
            // An unknown kid: the issuer may have rotated its keys; fetch again, not often.
            None if self.cached(REFETCH_AFTER).is_none() => {
                pick(&self.fetch().await?).ok_or("no key for the token")?
            }
            None => return Err("no key for the token".to_owned()),
        };
        DecodingKey::from_jwk(&jwk).map_err(|_| "an unusable key".to_owned())
    }

    async fn check(&self, token: &str) -> Verdict {
        let header = jsonwebtoken::decode_header(token).map_err(|_| "a malformed token")?;
        if !self.algorithms.contains(&header.alg) {
            return Err("a signature algorithm that is not accepted".to_owned());
        }
        let key = self.key(header.kid.as_deref()).await?;
        let mut v = Validation::new(header.alg);
        v.set_issuer(&[&self.issuer]);
        v.set_audience(&[&self.audience]);
        v.set_required_spec_claims(&["exp", "iss", "aud"]);
        v.leeway = self.leeway.as_secs();
        v.validate_nbf = true;
        let data = jsonwebtoken::decode::<Claims>(token, &key, &v).map_err(|e| {
            use jsonwebtoken::errors::ErrorKind as K;
            match e.kind() {
                K::ExpiredSignature => "the token has expired",
                K::ImmatureSignature => "the token is not valid yet",
                K::InvalidAudience => "the token is not for this resource",
                K::InvalidIssuer => "the token is from another issuer",
                K::InvalidSignature => "the signature is invalid",
                _ => "the token is invalid",
            }
            .to_owned()
        })?;
        Ok(data.claims.caller())
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self.check(token))
    }
}

/// An RFC 7662 token introspection verifier: POSTs `token` to the authorization server's
/// introspection endpoint (with client credentials by HTTP Basic when given) and accepts an
/// `active` token; its `scope`, `client_id`, `sub`, `aud` and `exp` make the caller. Every
/// request asks the server, so a revoked token is refused at once.
pub struct IntrospectionVerifier {
    endpoint: String,
    credentials: Option<(String, String)>,
    /// When set, the response's `iss` must equal it.
    pub issuer: Option<String>,
    http: reqwest::Client,
}

impl std::fmt::Debug for IntrospectionVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionVerifier")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl IntrospectionVerifier {
    /// A verifier asking `endpoint`, authenticated as `credentials` (client id, secret).
    #[must_use]
    pub fn new(endpoint: &str, credentials: Option<(&str, &str)>) -> Self {
        Self {
            endpoint: endpoint.to_owned(),
            credentials: credentials.map(|(i, s)| (i.to_owned(), s.to_owned())),
            issuer: None,
            http: reqwest::Client::new(),
        }
    }

    async fn check(&self, token: &str) -> Verdict {
        let mut form = mcp_context::auth::form::Form::new();
        form.pair("token", token)
            .pair("token_type_hint", "access_token");
        let body = form.into_string();
        let mut req = self
            .http
            .post(&self.endpoint)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .body(body);
        if let Some((id, secret)) = &self.credentials {
            req = req.basic_auth(id, Some(secret));
        }
        let r = req
            .send()
            .await
            .map_err(|_| "the introspection endpoint is unreachable".to_owned())?;
        if !r.status().is_success() {
            return Err("the introspection endpoint refused".to_owned());
        }
        let claims: Claims = r
            .json()
            .await
            .map_err(|_| "an unreadable introspection response".to_owned())?;
        if claims.active != Some(true) {
            return Err("the token is not active".to_owned());
        }
        if let Some(want) = &self.issuer
            && claims.iss.as_deref() != Some(want)
        {
            return Err("the token is from another issuer".to_owned());
        }
        Ok(claims.caller())
    }
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(self.check(token))
    }
}
