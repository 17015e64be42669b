//! Client identity (docs/rules.md §21.4): pre-registered, Client ID Metadata Document or
//! dynamic registration, then the authorization request.

use super::*;

impl Authorizer {
    /// Client identity in the spec's order (docs/rules.md §21.4).
    pub(super) fn identify(&mut self) {
        let Some(m) = &self.server else {
            return self.fail(AuthError::NoServerMetadata);
        };
        if let Some(c) = self.known_client(m) {
            self.client = Some(c);
            return self.authorize();
        }
        let issuer = m.issuer.clone();
        if let Some(doc) = self
            .config
            .client_id_metadata_document
            .clone()
            .filter(|_| m.client_id_metadata_document_supported)
        {
            self.client = Some(Client {
                issuer,
                client_id: doc,
                secret: None,
                method: AuthMethod::None,
                registered: false,
            });
            return self.authorize();
        }
        let Some(endpoint) = m.registration_endpoint.clone() else {
            return self.fail(AuthError::NoClientIdentity);
        };
        let method = choose_method(m, false, None).name();
        let j = |s: &str| crate::json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        let body = format!(
            concat!(
                r#"{{"client_name":{},"redirect_uris":[{}],"#,
                r#""grant_types":["authorization_code","refresh_token"],"#,
                r#""response_types":["code"],"token_endpoint_auth_method":"{}","#,
                r#""application_type":"native"}}"#
            ),
            j(&self.config.client_name),
            j(&self.config.redirect_uri),
            method
        );
        self.phase = Phase::Registering;
        self.send(
            HttpMethod::Post,
            endpoint,
            alloc::vec![
                ("Content-Type", "application/json".into()),
                ("Accept", "application/json".into())
            ],
            body.into_bytes(),
        );
    }

    /// A client identity already at hand for `m`'s issuer: pre-registered credentials, else
    /// one registered earlier (in this run or restored).
    pub(super) fn known_client(&self, m: &ServerMetadata) -> Option<Client> {
        if let Some(p) = self
            .config
            .pre_registered
            .iter()
            .find(|p| p.issuer == m.issuer)
        {
            return Some(Client {
                issuer: m.issuer.clone(),
                client_id: p.client_id.clone(),
                secret: p.client_secret.clone(),
                method: choose_method(m, p.client_secret.is_some(), None),
                registered: false,
            });
        }
        self.clients.iter().find(|c| c.issuer == m.issuer).cloned()
    }

    pub(super) fn on_registered(&mut self, r: RegistrationResponse) {
        let Some(m) = &self.server else {
            return self.fail(AuthError::NoServerMetadata);
        };
        let method = choose_method(
            m,
            r.client_secret.is_some(),
            r.token_endpoint_auth_method.as_deref(),
        );
        let c = Client {
            issuer: m.issuer.clone(),
            client_id: r.client_id,
            secret: r.client_secret,
            method,
            registered: true,
        };
        self.clients.retain(|x| x.issuer != c.issuer);
        self.clients.push(c.clone());
        self.client = Some(c);
        self.authorize();
    }

    /// The authorization request (docs/rules.md §21.5, §21.6).
    pub(super) fn authorize(&mut self) {
        let (Some(m), Some(c)) = (&self.server, &self.client) else {
            return self.fail(AuthError::NoClientIdentity);
        };
        // Scope: the challenge's, else the metadata's `scopes_supported`, else none; joined
        // with what was requested before; `offline_access` when the server offers it.
        let base: Vec<String> = match (&self.challenge_scope, &self.resource) {
            (Some(s), _) => s.split_whitespace().map(String::from).collect(),
            (None, Some(r)) => r.scopes_supported.clone().unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        for s in base {
            if !self.requested.contains(&s) {
                self.requested.push(s);
            }
        }
        let mut scopes = self.requested.clone();
        let offered = m
            .scopes_supported
            .as_ref()
            .is_some_and(|l| l.iter().any(|s| s == "offline_access"));
        if self.config.offline_access && offered && !scopes.iter().any(|s| s == "offline_access") {
            scopes.push("offline_access".into());
        }
        let scope = (!scopes.is_empty()).then(|| scopes.join(" "));
        let (verifier_bytes, state_bytes) = self.entropy.split_at(32);
        let verifier = b64(verifier_bytes);
        let challenge = b64(&Sha256::digest(verifier.as_bytes()));
        let state = b64(state_bytes);
        let mut q = Form::new();
        q.pair("response_type", "code")
            .pair("client_id", &c.client_id)
            .pair("redirect_uri", &self.config.redirect_uri)
            .pair("code_challenge", &challenge)
            .pair("code_challenge_method", "S256")
            .pair("state", &state)
            .pair("resource", &self.resource_id());
        if let Some(s) = &scope {
            q.pair("scope", s);
        }
        let url = url::with_query(&m.authorization_endpoint, &q);
        self.authorizations = self.authorizations.saturating_add(1);
        self.phase = Phase::Redirect(Pending {
            state,
            verifier,
            scope,
        });
        self.actions.push_back(Action::Authorize { url });
    }
}

/// The token endpoint authentication: what registration said, else by the secret and what
/// the server supports (docs/rules.md §21.5).
fn choose_method(m: &ServerMetadata, has_secret: bool, registered: Option<&str>) -> AuthMethod {
    match registered {
        Some("none") => return AuthMethod::None,
        Some("client_secret_basic") if has_secret => return AuthMethod::Basic,
        Some("client_secret_post") if has_secret => return AuthMethod::Post,
        _ => {}
    }
    if !has_secret {
        return AuthMethod::None;
    }
    if m.supports_auth_method("client_secret_basic") {
        AuthMethod::Basic
    } else if m.supports_auth_method("client_secret_post") {
        AuthMethod::Post
    } else {
        AuthMethod::Basic
    }
}
