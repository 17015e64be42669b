// `mcp-context-primitives/jwt`: a ready verifier for `McpServer.protect` on the `jose` package
// (an optional peer dependency, imported on first use; web crypto only, so it runs on Node, Deno and Workers). It
// checks what only the token's issuer can vouch for (signature over the issuer's JWKS,
// fetched and cached; `iss`; `aud`; `exp`/`nbf` with leeway; an algorithm allow-list) and
// maps the claims to the caller the core admits (docs/authorization.md).

/** Asymmetric algorithms only: a symmetric one would let the public key sign. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']

/**
 * A verifier for `protect(protection, verifier)`: `issuer` (the `iss` to require),
 * `audience` (this resource's canonical URL: `protection.resource`), `jwksUrl` (default
 * `<issuer>/.well-known/jwks.json`) or `jwks` (a key set object), `algorithms` (an
 * allow-list of asymmetric algorithms), `leewayMs` (clock skew for `exp`/`nbf`, 60 s), `jose`
 * (the module, when it does not resolve from this package: by default `import('jose')`).
 * Resolves a token to `{subject, clientId, scopes, audience, expiresAtMs}`; a bad token
 * rejects with the reason.
 */
export function jwtVerifier({ issuer, audience, jwksUrl, jwks, algorithms = ALGORITHMS, leewayMs = 60_000, jose }) {
  if (!issuer || !audience) throw new TypeError('jwtVerifier: issuer and audience are required')
  if (algorithms.some((a) => !ALGORITHMS.includes(a))) throw new TypeError('jwtVerifier: only asymmetric algorithms are allowed')
  const options = { issuer, audience, algorithms, clockTolerance: Math.ceil(leewayMs / 1000) }
  // The key set once: a remote one caches the JWKS and refetches it for an unknown `kid`.
  const ready = (async () => {
    const j = jose ?? (await import('jose'))
    const keys = jwks
      ? j.createLocalJWKSet(jwks)
      : j.createRemoteJWKSet(new URL(jwksUrl ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`))
    return { j, keys }
  })()
  return async function verify(token) {
    const { j, keys } = await ready
    const { payload } = await j.jwtVerify(token, keys, options)
    return claims(payload)
  }
}

/** A JWT's (or an RFC 7662 introspection answer's) claims as the caller the core admits. */
export function claims(payload) {
  const scope = payload.scope ?? payload.scp
  return {
    subject: typeof payload.sub === 'string' ? payload.sub : undefined,
    clientId: typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : undefined,
    scopes: Array.isArray(scope) ? scope.map(String) : typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [],
    audience: Array.isArray(payload.aud) ? payload.aud.map(String) : typeof payload.aud === 'string' ? [payload.aud] : [],
    expiresAtMs: typeof payload.exp === 'number' ? Math.min(Math.max(Math.floor(payload.exp * 1000), 0), Number.MAX_SAFE_INTEGER) : undefined,
  }
}

/** `application/x-www-form-urlencoded` of one value (RFC 6749 §2.3.1 for client credentials). */
const form = (s) => encodeURIComponent(s).replace(/%20/g, '+')

/**
 * An RFC 7662 verifier for `protect(protection, verifier)` (opaque tokens, or any token the
 * issuer can revoke): each token is POSTed to the authorization server's introspection
 * `endpoint` (with `clientId`/`clientSecret` by HTTP Basic when given); only an `active`
 * answer is accepted, so a revoked token is refused at once; `issuer` (optional) must match
 * its `iss`. The core then checks `aud` against this resource and `exp`. `fetch`: default
 * `globalThis.fetch` (web APIs only: Node, Deno, Workers). Resolves a token to the caller;
 * rejects with the reason.
 */
export function introspectionVerifier({ endpoint, clientId, clientSecret, issuer, fetch: doFetch = globalThis.fetch }) {
  if (!endpoint) throw new TypeError('introspectionVerifier: endpoint is required')
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
  if (clientId !== undefined) headers.authorization = `Basic ${btoa(`${form(clientId)}:${form(clientSecret ?? '')}`)}`
  return async function verify(token) {
    let doc
    try {
      const r = await doFetch(endpoint, { method: 'POST', headers, body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString() })
      doc = r.status === 200 ? await r.json() : null
    } catch {
      throw new Error('the introspection endpoint failed')
    }
    if (doc === null || typeof doc !== 'object' || doc.active !== true) throw new Error('the token is not active')
    if (issuer !== undefined && doc.iss !== issuer) throw new Error('the token is from another issuer')
    return claims(doc)
  }
}
