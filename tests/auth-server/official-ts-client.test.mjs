// The official TypeScript client (@modelcontextprotocol/client) against our protected runners
// (docs/rules.md §22), ASGI (protected-asgi.py), axum (examples/protected-server,
// $MCP_PROTECTED_SERVER or target/debug/protected-server) and the Node package's node:http
// runner (protected-node.mjs): it gets 401, discovers the tests'
// authorization server (server.py) through our `WWW-Authenticate` and protected resource
// metadata, registers, authorizes with PKCE, and reads a protected resource. Python: $MCP_PYTHON
// (default python3), with mcp_context and PyJWT installed.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { after, it } from 'node:test'

import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client'

const here = new URL('.', import.meta.url).pathname
const python = process.env.MCP_PYTHON ?? 'python3'
const REDIRECT = 'http://127.0.0.1:1/callback'
const children = []
after(() => children.forEach((c) => c.kill()))

/** Runs a command that prints `READY <url>` and resolves to the url. */
function start(args, cmd = python) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', (line) => (line.startsWith('READY ') ? resolve(line.split(' ')[1]) : reject(new Error(line))))
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}`)))
  })
}

/** An in-memory OAuth client provider whose user agent follows the auto-approving
 * authorization endpoint and keeps the redirect back. */
function provider() {
  const saved = {}
  return {
    saved,
    get redirectUrl() { return REDIRECT },
    get clientMetadata() {
      return { client_name: 'official-ts', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
    },
    clientInformation: () => saved.client,
    saveClientInformation: (c) => { saved.client = c },
    tokens: () => saved.tokens,
    saveTokens: (t) => { saved.tokens = t },
    saveCodeVerifier: (v) => { saved.verifier = v },
    codeVerifier: () => saved.verifier,
    saveDiscoveryState: (d) => { saved.discovery = d },
    discoveryState: () => saved.discovery,
    async redirectToAuthorization(url) {
      const r = await fetch(url, { redirect: 'manual' })
      saved.callback = new URL(r.headers.get('location'))
    },
  }
}

const axum = process.env.MCP_PROTECTED_SERVER ?? `${here}../../target/debug/protected-server`
const runners = {
  asgi: (issuer) => start([`${here}protected-asgi.py`, issuer]),
  axum: (issuer) => start([issuer], axum),
  node: (issuer) => start([`${here}protected-node.mjs`, issuer], process.execPath),
}

for (const [name, runner] of Object.entries(runners)) it(`${name}: discovers the authorization server through our 401 and reads a protected resource`, async () => {
  const issuer = await start([`${here}server.py`, '--scopes', 'mcp:read mcp:write'])
  const url = await runner(issuer)
  const unauthorized = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  assert.equal(unauthorized.status, 401)
  assert.match(unauthorized.headers.get('www-authenticate'), /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/)

  const auth = provider()
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: auth })
    const client = new Client({ name: 'official-ts', version: '1.0.0' })
    await client.connect(transport)
    return { client, transport }
  }
  let client
  try {
    ;({ client } = await connect())
    await client.readResource({ uri: 'secret://note' })
  } catch (e) {
    if (!(e instanceof UnauthorizedError) && !auth.saved.callback) throw e
  }
  if (auth.saved.callback) {
    // The user agent came back: hand the code over, then connect with the token.
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: auth })
    await transport.finishAuth(auth.saved.callback.searchParams)
    ;({ client } = await connect())
  }
  const result = await client.readResource({ uri: 'secret://note' })
  assert.match(result.contents[0].text, /^secret for .+ with mcp:read/)
  await client.close()
  const stats = await (await fetch(`${issuer}/_test/stats`)).json()
  assert.equal(stats.authorizations, 1)
  assert.equal(stats.last_authorize.resource, url)
})
