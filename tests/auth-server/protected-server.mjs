// The protected server of the Node authorization tests (node-server.test.mjs), shared by every
// runner: Node (napi and wasm; fetch and node:http) and workerd (protected-worker.mjs). Web APIs
// only, so it loads in a Worker.
import { introspectionVerifier } from '../../bindings-node/js/jwt.mjs'

/** The package's RFC 7662 verifier at `url`. */
export const introspection = (url) => introspectionVerifier({ endpoint: url, clientId: 'rs', clientSecret: 'secret' })

/**
 * The package's McpServer protected as tests/auth/cases.json says (`table`: its
 * `scopes_supported` and `required_scopes`), with a public, a scoped and a who-am-I item, a
 * scoped template with completions, and a tool `touch(uri)` that reports `uri` updated.
 */
export function protectedServer(pkg, url, issuer, verifier, table) {
  const server = new pkg.McpServer({ name: 'protected', version: '1.0.0' })
  server.protect({ resource: url, authorizationServers: [issuer], scopesSupported: table.scopes_supported, requiredScopes: table.required_scopes }, verifier)
  server.registerResource('public', 'public://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'public a' }] }))
  server.registerResource('secret', 'secret://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'the secret' }] }))
  server.registerResource('whoami', 'whoami://me', {}, async (uri, ctx) => ({ contents: [{ uri: uri.href, text: `${ctx.principal?.subject} via ${ctx.principal?.clientId}` }] }))
  server.registerResource('vault', new pkg.ResourceTemplate('vault://{name}', { list: undefined, complete: { name: () => ['alpha', 'beta'] } }), {},
    async (uri) => ({ contents: [{ uri: uri.href, text: 'vault' }] }))
  for (const uri of ['secret://a', 'public://a']) {
    server.registerTool(`touch_${uri.split(':')[0]}`, { description: `Reports ${uri} updated` },
      async () => { server.sendResourceUpdated({ uri }); return { content: [{ type: 'text', text: 'touched' }] } })
  }
  server.requireScopes('resource', 'secret://a', ['notes:secret'])
  server.requireScopes('template', 'vault://{name}', ['notes:secret'])
  return server
}
