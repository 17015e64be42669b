// The Node package's OAuth (`oauthFetch` on the core's `Authorizer`, napi and wasm engines)
// against a server protected by the official TypeScript SDK's bearer middleware
// (protected-ts.mjs), tokens from the tests' authorization server (server.py, run with
// $MCP_PYTHON, default python3): a `ClientMachine` over HTTP reads a protected resource and the
// caller never handles a token; the same against our own protected axum runner.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'

import * as napi from '../../bindings-node/server.mjs'
import * as wasm from '../../bindings-node/wasm/index.mjs'
import { children, start, stats } from './processes.mjs'

const here = new URL('.', import.meta.url).pathname
const REDIRECT = 'http://127.0.0.1:1/callback'

/** The test's user agent: the authorization endpoint approves at once; its redirect back. */
async function follow(url) {
  const r = await fetch(url, { redirect: 'manual' })
  assert.equal(r.status, 302)
  return r.headers.get('location')
}

/** One call on `machine` over HTTP with `doFetch`: POSTs each transmit, feeds the answers. */
async function run(machine, doFetch, url, call) {
  const now = () => Date.now()
  const id = call(machine, now())
  for (;;) {
    const o = machine.pollOutput()
    if (o === null) throw new Error('the machine went idle without an answer')
    if (o.type === 'transmit') {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
      if (o.protocolVersion) headers['mcp-protocol-version'] = o.protocolVersion
      if (o.method) headers['mcp-method'] = o.method
      if (o.name) headers['mcp-name'] = o.name
      const r = await doFetch(url, { method: 'POST', headers, body: o.bytes })
      // The cache follows the grant whose token got this answer (docs/rules.md §21.7).
      const grant = doFetch.authContext?.(r) ?? null
      machine.setAuthContext(grant)
      if (o.id !== null) machine.setRequestAuthContext(o.id, grant)
      const text = await r.text()
      if (o.id === null) continue
      const type = r.headers.get('content-type') ?? ''
      const bodies = type.startsWith('text/event-stream')
        ? text.split(/\r?\n\r?\n/).map((e) => e.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n')).filter(Boolean)
        : text.trim() ? [text] : []
      if (bodies.length === 0) machine.handleRequestFailed(o.id, now())
      for (const b of bodies) machine.handleMessage(b, now())
    } else if (o.call === id) {
      if (o.error) throw o.error
      return o
    }
  }
}

let issuer, url
before(async () => {
  issuer = await start(process.env.MCP_PYTHON ?? 'python3', [`${here}server.py`, '--ttl', '30'])
  url = await start(process.execPath, [`${here}protected-ts.mjs`, issuer])
})
after(() => { for (const c of children) c.kill() })

for (const [engine, pkg] of [['napi', napi], ['wasm', wasm]]) describe(`on ${engine}`, () => {
  it('reads a protected resource, then refreshes the token, with no manual token handling', async () => {
    const before = await stats(issuer)
    const store = new pkg.MemoryTokenStore()
    const doFetch = pkg.oauthFetch(url, { redirectUri: REDIRECT, userAgent: follow, store, clientName: `node-${engine}` })
    const machine = new pkg.ClientMachine({ clientInfo: { name: 'node-test', version: '1' }, transport: 'http' })
    const read = await run(machine, doFetch, url, (m, t) => m.readResource('secret://note', t))
    assert.match(read.result.contents[0].text, /^secret for client-.* \(mcp:read/)
    const mid = await stats(issuer)
    assert.equal(mid.registrations, before.registrations + 1)
    assert.equal(mid.authorizations, before.authorizations + 1)
    assert.equal(mid.last_authorize.resource, url)
    const saved = store.load(url)
    assert.equal(saved.resource, url)
    assert.ok(saved.refreshToken)
    // Tokens live 30 s and the refresh skew is 60 s: the next request refreshes first.
    await run(machine, doFetch, url, (m, t) => m.readResource('secret://note', t, { refresh: true }))
    const end = await stats(issuer)
    assert.equal(end.authorizations, mid.authorizations)
    assert.ok(end.refreshes > mid.refreshes)
    assert.notEqual(store.load(url).accessToken, saved.accessToken)
  })

  it('a new client with the same store does not authorize again', async () => {
    const store = new pkg.MemoryTokenStore()
    const first = pkg.oauthFetch(url, { redirectUri: REDIRECT, userAgent: follow, store, refreshSkewMs: 0 })
    await run(new pkg.ClientMachine({ transport: 'http' }), first, url, (m, t) => m.readResource('secret://note', t))
    const mid = await stats(issuer)
    const second = pkg.oauthFetch(url, { redirectUri: REDIRECT, userAgent: () => { throw new Error('no') }, store, refreshSkewMs: 0 })
    const machine = new pkg.ClientMachine({ clientInfo: { name: 'node-test', version: '1' }, transport: 'http' })
    await run(machine, second, url, (m, t) => m.readResource('secret://note', t))
    assert.equal((await stats(issuer)).authorizations, mid.authorizations)
  })

  it('reads from our protected axum runner', async () => {
    // examples/protected-server ($MCP_PROTECTED_SERVER or target/debug): our resource
    // server (JwtVerifier, the core's rules) trusting the same authorization server.
    const axum = await start(process.env.MCP_PROTECTED_SERVER ?? `${here}../../target/debug/protected-server`, [issuer])
    const before = await stats(issuer)
    const doFetch = pkg.oauthFetch(axum, { redirectUri: REDIRECT, userAgent: follow, clientName: `node-axum-${engine}` })
    const machine = new pkg.ClientMachine({ clientInfo: { name: 'node-test', version: '1' }, transport: 'http' })
    const read = await run(machine, doFetch, axum, (m, t) => m.readResource('secret://note', t))
    assert.match(read.result.contents[0].text, /^secret for client-\S+ with mcp:read\b/)
    const end = await stats(issuer)
    assert.equal(end.authorizations, before.authorizations + 1)
    assert.equal(end.last_authorize.resource, axum)
  })

  it('never serves a private result to another grant', async () => {
    // protected-node.mjs: mine://note is cached a minute, private. The first grant has
    // mcp:read; admin://note answers 403 step-up, a new authorization with mcp:write: another
    // grant, so mine://note is fetched again, not served from the first grant's entry.
    const node = await start(process.execPath, [`${here}protected-node.mjs`, issuer])
    const doFetch = pkg.oauthFetch(node, { redirectUri: REDIRECT, userAgent: follow, clientName: `node-grants-${engine}` })
    const machine = new pkg.ClientMachine({ clientInfo: { name: 'node-test', version: '1' }, transport: 'http' })
    const read = () => run(machine, doFetch, node, (m, t) => m.readResource('mine://note', t))
    const text = (r) => r.result.contents[0].text
    const first = await read()
    const again = await read()
    assert.ok(!first.fromCache && again.fromCache && text(again) === text(first), text(first))
    assert.ok(!text(first).split(' ').includes('mcp:write'), text(first))
    const admin = await run(machine, doFetch, node, (m, t) => m.readResource('admin://note', t))
    assert.equal(text(admin), 'admin')
    const after = await read()
    assert.ok(!after.fromCache, "the first grant's private result was served to the second")
    assert.ok(text(after).split(' ').includes('mcp:write'), text(after))
    const cached = await read()
    assert.ok(cached.fromCache && text(cached) === text(after))
  })

  it('a failed flow rejects with AuthorizationError', async () => {
    const doFetch = pkg.oauthFetch(url, { redirectUri: REDIRECT, userAgent: () => { throw new Error('the user closed the window') } })
    await assert.rejects(doFetch(url, { method: 'POST', body: '{}' }), (e) => e instanceof pkg.AuthorizationError && /closed the window/.test(e.message))
  })
})

describe('introspectionVerifier (mcp-context-primitives/jwt) against the authorization server', () => {
  it('admits an active token and refuses it once revoked: 401 invalid_token', async () => {
    const node = await start(process.execPath, [`${here}protected-node.mjs`, issuer, 'introspection'])
    const store = new napi.MemoryTokenStore()
    const doFetch = napi.oauthFetch(node, { redirectUri: REDIRECT, userAgent: follow, store, clientName: 'node-introspection', refreshSkewMs: 0 })
    const machine = new napi.ClientMachine({ clientInfo: { name: 'node-test', version: '1' }, transport: 'http' })
    const read = await run(machine, doFetch, node, (m, t) => m.readResource('secret://note', t))
    assert.match(read.result.contents[0].text, /^secret for client-\S+ with mcp:read\b/)
    const { accessToken } = store.load(node)
    const list = () => fetch(node, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    })
    assert.equal((await list()).status, 200)
    const revoked = await fetch(`${issuer}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: accessToken }) })
    assert.equal(revoked.status, 200)
    const r = await list()
    assert.equal(r.status, 401)
    assert.match(r.headers.get('www-authenticate'), /^Bearer .*error="invalid_token"/)
  })
})
