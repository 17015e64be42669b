// `mcp-context-primitives/jwt`: the ready verifiers for `McpServer.protect`: JWT on the `jose`
// package, RFC 7662 introspection on `fetch`.
import type { TokenVerifier, VerifiedCaller } from './server'

export interface JwtVerifierOptions {
  /** The `iss` to require. */
  issuer: string
  /** This resource's canonical URL (`protection.resource`): the `aud` to require. */
  audience: string
  /** The issuer's JWK Set URL (default `<issuer>/.well-known/jwks.json`), fetched and cached. */
  jwksUrl?: string
  /** A JWK Set to use instead of fetching one. */
  jwks?: { keys: Record<string, unknown>[] }
  /** Allowed algorithms, asymmetric only (default: RS*, PS*, ES*, EdDSA). */
  algorithms?: string[]
  /** Clock skew allowed for `exp` and `nbf` (60 000 ms). */
  leewayMs?: number
  /** The `jose` module, when it does not resolve from this package. */
  jose?: unknown
}

/** A verifier that checks a JWT's signature, `iss`, `aud`, `exp`/`nbf` and algorithm. */
export declare function jwtVerifier(options: JwtVerifierOptions): TokenVerifier
/** A JWT's (or an RFC 7662 introspection answer's) claims as the caller the core admits. */
export declare function claims(payload: Record<string, unknown>): VerifiedCaller

export interface IntrospectionVerifierOptions {
  /** The authorization server's RFC 7662 introspection endpoint. */
  endpoint: string
  /** This resource server's credentials at the endpoint (HTTP Basic), if it requires them. */
  clientId?: string
  clientSecret?: string
  /** The `iss` to require of an active token (optional). */
  issuer?: string
  /** Default: `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch
}

/** A verifier that asks the introspection endpoint: only an `active` token is accepted. */
export declare function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier
