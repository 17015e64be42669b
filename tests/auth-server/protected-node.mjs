// The Node package's node:http runner as a protected resource (docs/rules.md §22) for the
// official clients' tests:
//
//     node tests/auth-server/protected-node.mjs ISSUER [introspection]
//
// serves `secret://note` (scope `mcp:read`), `mine://note` (cached a minute; private, as
// every result of a protected server) and `admin://note` (scope `mcp:write`) on a free
// loopback port, tokens checked by `jwtVerifier` (jose) against ISSUER's JWKS (or with
// `introspection`, by `introspectionVerifier` at ISSUER's RFC 7662 endpoint), and prints
// `READY <endpoint URL>`.
import * as jose from 'jose'

import { introspectionVerifier, jwtVerifier } from '../../bindings-node/js/jwt.mjs'
import { McpServer, serveHttp } from '../../bindings-node/server.mjs'

const issuer = process.argv[2]
const server = new McpServer({ name: 'protected-node', version: '1.0.0' })
const srv = await serveHttp(server, { port: 0 })
const url = `http://127.0.0.1:${srv.address().port}/mcp`
server.protect(
  { resource: url, authorizationServers: [issuer], scopesSupported: ['mcp:read', 'mcp:write'], requiredScopes: ['mcp:read'] },
  process.argv[3] === 'introspection'
    ? introspectionVerifier({ endpoint: `${issuer}/introspect`, issuer })
    : jwtVerifier({ issuer, audience: url, jwksUrl: `${issuer}/jwks`, jose }),
)
server.registerResource('note', 'secret://note', {}, async (uri, ctx) => ({
  contents: [{ uri: uri.href, text: `secret for ${ctx.principal?.clientId} with ${(ctx.principal?.scopes ?? []).join(' ')}` }],
}))
server.registerResource('mine', 'mine://note', { cacheHint: { ttlMs: 60_000, cacheScope: 'private' } }, async (uri, ctx) => ({
  contents: [{ uri: uri.href, text: `mine for ${ctx.principal?.clientId} with ${(ctx.principal?.scopes ?? []).join(' ')}` }],
}))
server.registerResource('admin', 'admin://note', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'admin' }] }))
server.requireScopes('resource', 'admin://note', ['mcp:write'])
console.log(`READY ${url}`)
