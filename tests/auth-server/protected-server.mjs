// The protected server of the Node authorization tests (node-server.test.mjs), shared by every
// runner: Node (napi and wasm; fetch and node:http) and workerd (protected-worker.mjs). Web APIs
// only, so it loads in a Worker.
import { claims } from '../../bindings-node/js/jwt.mjs'

/** An RFC 7662 verifier for the cases (the package ships the JWT one). */
export const introspection = (url) => async (tok) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tok }) })
  const doc = await r.json()
  if (!doc.active) throw new Error('the token is not active')
  return claims(doc)
}

/**
 * The package's McpServer protected as tests/auth/cases.json says (`table`: its
 * `scopes_supported` and `required_scopes`), with a public, a scoped and a who-am-I item.
 */
export function protectedServer(pkg, url, issuer, verifier, table) {
  const server = new pkg.McpServer({ name: 'protected', version: '1.0.0' })
  server.protect({ resource: url, authorizationServers: [issuer], scopesSupported: table.scopes_supported, requiredScopes: table.required_scopes }, verifier)
  server.registerResource('public', 'public://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'public a' }] }))
  server.registerResource('secret', 'secret://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'the secret' }] }))
  server.registerResource('whoami', 'whoami://me', {}, async (uri, ctx) => ({ contents: [{ uri: uri.href, text: `${ctx.principal?.subject} via ${ctx.principal?.clientId}` }] }))
  server.requireScopes('resource', 'secret://a', ['notes:secret'])
  return server
}
