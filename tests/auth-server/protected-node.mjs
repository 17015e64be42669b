// The Node package's node:http runner as a protected resource (docs/rules.md §22) for the
// official clients' tests:
//
//     node tests/auth-server/protected-node.mjs ISSUER
//
// serves `secret://note` (scope `mcp:read`) on a free loopback port, tokens checked by
// `jwtVerifier` (jose) against ISSUER's JWKS, and prints `READY <endpoint URL>`.
import * as jose from 'jose'

import { jwtVerifier } from '../../bindings-node/js/jwt.mjs'
import { McpServer, serveHttp } from '../../bindings-node/server.mjs'

const issuer = process.argv[2]
const server = new McpServer({ name: 'protected-node', version: '1.0.0' })
const srv = await serveHttp(server, { port: 0 })
const url = `http://127.0.0.1:${srv.address().port}/mcp`
server.protect(
  { resource: url, authorizationServers: [issuer], scopesSupported: ['mcp:read', 'mcp:write'], requiredScopes: ['mcp:read'] },
  jwtVerifier({ issuer, audience: url, jwksUrl: `${issuer}/jwks`, jose }),
)
server.registerResource('note', 'secret://note', {}, async (uri, ctx) => ({
  contents: [{ uri: uri.href, text: `secret for ${ctx.principal?.clientId} with ${(ctx.principal?.scopes ?? []).join(' ')}` }],
}))
console.log(`READY ${url}`)
