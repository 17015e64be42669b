//! Token requests (docs/rules.md §21.5): the code exchange and refresh, client
//! authentication at the token endpoint, and the token response.

use super::*;

impl Authorizer {
    pub(super) fn refresh(&mut self, fallback: bool) {
        let Some(rt) = self.tokens.as_ref().and_then(|t| t.refresh_token.clone()) else {
            return if fallback {
                self.identify()
            } else {
                self.fail(AuthError::BadTokenResponse)
            };
        };
        let scope = self.tokens.as_ref().and_then(|t| t.scope.clone());
        let mut f = Form::new();
        f.pair("grant_type", "refresh_token")
            .pair("refresh_token", &rt);
        self.token_request(f, true, fallback, scope);
    }

    /// A token request with `resource` and client authentication (docs/rules.md §21.5).
    pub(super) fn token_request(
        &mut self,
        mut f: Form,
        refresh: bool,
        fallback: bool,
        scope: Option<String>,
    ) {
        let (Some(m), Some(c)) = (&self.server, &self.client) else {
            return self.fail(AuthError::NoClientIdentity);
        };
        f.pair("resource", &self.resource_id());
        let mut headers = alloc::vec![
            (
                "Content-Type",
                String::from("application/x-www-form-urlencoded")
            ),
            ("Accept", "application/json".into()),
        ];
        match (c.method, &c.secret) {
            (AuthMethod::Basic, Some(secret)) => {
                // RFC 6749 §2.3.1: each part form-encoded, then Basic.
                let pair = format!("{}:{}", form::encode(&c.client_id), form::encode(secret));
                headers.push((
                    "Authorization",
                    format!("Basic {}", b64_std(pair.as_bytes())),
                ));
            }
            (AuthMethod::Post, Some(secret)) => {
                f.pair("client_id", &c.client_id)
                    .pair("client_secret", secret);
            }
            _ => {
                f.pair("client_id", &c.client_id);
            }
        }
        let endpoint = m.token_endpoint.clone();
        self.phase = Phase::Token {
            refresh,
            fallback,
            scope,
        };
        self.send(
            HttpMethod::Post,
            endpoint,
            headers,
            f.into_string().into_bytes(),
        );
    }

    pub(super) fn on_token(
        &mut self,
        status: u16,
        body: &[u8],
        refresh: bool,
        fallback: bool,
        scope: Option<String>,
        now_ms: u64,
    ) {
        let ok = (200..300).contains(&status);
        let parsed = TokenResponse::parse(body).filter(|t| {
            ok && t.token_type.eq_ignore_ascii_case("bearer") && is_b64token(&t.access_token)
        });
        let Some(t) = parsed else {
            if refresh {
                // The refresh token is spent: drop it, authorize again when challenged.
                self.tokens = None;
                if fallback {
                    return self.identify();
                }
            }
            return self.fail(if ok {
                AuthError::BadTokenResponse
            } else {
                AuthError::TokenRequestFailed(status, error_code(body))
            });
        };
        let Some(m) = &self.server else {
            return self.fail(AuthError::NoServerMetadata);
        };
        let old_refresh = self.tokens.as_ref().and_then(|x| x.refresh_token.clone());
        let tokens = Tokens {
            issuer: m.issuer.clone(),
            resource: self.resource_id(),
            access_token: t.access_token,
            // A refresh response may omit a new refresh token: the old one stays valid.
            refresh_token: t.refresh_token.or(if refresh { old_refresh } else { None }),
            expires_at_ms: t
                .expires_in
                .map(|s| now_ms.saturating_add(s.saturating_mul(1000))),
            scope: t.scope.or(scope),
        };
        let authorization = format!("Bearer {}", tokens.access_token);
        if !refresh {
            self.grant += 1;
        }
        self.tokens = Some(tokens.clone());
        self.actions.push_back(Action::StoreTokens(tokens));
        if !refresh || fallback {
            self.actions.push_back(Action::Retry { authorization });
        }
    }
}
