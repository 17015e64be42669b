// The protected server as a Cloudflare Worker on the WebAssembly engine
// (mcp-context-primitives/wasm), its tokens checked by `jwtVerifier` on `jose` (the JWKS fetched
// from the issuer on loopback) or by introspection, as the text bindings say: RESOURCE (this
// endpoint's URL), ISSUER, VERIFIER (`jwt` or `introspection`), TABLE (tests/auth/cases.json's
// scopes). Served by workerd in node-server.test.mjs.
import * as jose from 'jose'
import * as pkg from 'mcp-context-primitives/wasm'
import { jwtVerifier } from 'mcp-context-primitives/jwt'
import { introspection, protectedServer } from './protected-server.mjs'

let server
export default {
  fetch(request, env) {
    if (!server) {
      const verifier = env.VERIFIER === 'jwt'
        ? jwtVerifier({ issuer: env.ISSUER, audience: env.RESOURCE, jwksUrl: `${env.ISSUER}/jwks`, jose })
        : introspection(`${env.ISSUER}/introspect`)
      server = protectedServer(pkg, env.RESOURCE, env.ISSUER, verifier, JSON.parse(env.TABLE))
    }
    return server.fetch(request)
  },
}
