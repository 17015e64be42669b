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

  it('a failed flow rejects with AuthorizationError', async () => {
    const doFetch = pkg.oauthFetch(url, { redirectUri: REDIRECT, userAgent: () => { throw new Error('the user closed the window') } })
    await assert.rejects(doFetch(url, { method: 'POST', body: '{}' }), (e) => e instanceof pkg.AuthorizationError && /closed the window/.test(e.message))
  })
})
