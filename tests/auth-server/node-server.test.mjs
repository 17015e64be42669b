// The Node package's protected endpoint (docs/rules.md §22) on both engines (napi addon, wasm)
// and both HTTP runners (`server.fetch`, node:http's `serveHttp`), against the hostile cases of
// tests/auth/cases.json: tokens signed with jose, the JWKS and an RFC 7662 introspection
// endpoint served on loopback, `jwtVerifier` (mcp-context-primitives/jwt) and an
// introspection verifier; then scopes hide and refuse an item, and the handler sees the caller.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'

import * as jose from 'jose'

import { jwtVerifier, claims } from '../../bindings-node/js/jwt.mjs'
import * as napi from '../../bindings-node/server.mjs'
import * as wasm from '../../bindings-node/wasm/index.mjs'

const AUTH = new URL('../auth/', import.meta.url)
const CASES = JSON.parse(readFileSync(new URL('cases.json', AUTH)))
const PRIVATE = await jose.importPKCS8(readFileSync(new URL('rsa.pem', AUTH), 'utf8'), 'RS256')
const PUBLIC = readFileSync(new URL('rsa.pub.pem', AUTH))
const JWKS = readFileSync(new URL('jwks.json', AUTH))
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const closers = []
after(() => closers.forEach((c) => c()))

const b64 = (x) => Buffer.from(x).toString('base64url')

/** A case's token: claims relative to now, signed as `spec.sign` says. */
async function token(spec, issuer, resource) {
  const now = Math.floor(Date.now() / 1000)
  const c = {
    iss: spec.iss === 'issuer' ? issuer : spec.iss,
    aud: spec.aud === 'resource' ? resource : spec.aud,
    sub: 'alice', client_id: 'c1', scope: spec.scope, exp: now + spec.exp, iat: now,
    ...(spec.nbf !== undefined ? { nbf: now + spec.nbf } : {}),
  }
  if (spec.sign === 'RS256' || spec.sign === 'RS256-other-kid') {
    const kid = spec.sign === 'RS256' ? 'test-key' : 'rotated-away'
    return new jose.SignJWT(c).setProtectedHeader({ alg: 'RS256', kid }).sign(PRIVATE)
  }
  const { createHmac } = await import('node:crypto')
  if (spec.sign === 'HS256-public-key') {
    const signing = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'test-key' }))}.${b64(JSON.stringify(c))}`
    return `${signing}.${createHmac('sha256', PUBLIC).update(signing).digest('base64url')}`
  }
  if (spec.sign === 'none') return `${b64(JSON.stringify({ alg: 'none', kid: 'test-key' }))}.${b64(JSON.stringify(c))}.`
  throw new Error(spec.sign)
}

/** The JWKS (GET) and an introspection endpoint (POST) active only for `live-token`. */
async function authorizationServer() {
  const srv = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      let doc = JSON.parse(JWKS)
      if (req.method === 'POST') {
        const live = new URLSearchParams(body).get('token') === 'live-token'
        doc = live ? { active: true, scope: 'mcp', sub: 'bob', aud: srv.audience, exp: Math.floor(Date.now() / 1000) + 3600 } : { active: false }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc))
    })
  })
  await new Promise((r) => srv.listen(0, '127.0.0.1', r))
  closers.push(() => srv.close())
  srv.url = `http://127.0.0.1:${srv.address().port}`
  return srv
}

/** An RFC 7662 verifier for the cases (the package ships the JWT one). */
const introspection = (url) => async (tok) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tok }) })
  const doc = await r.json()
  if (!doc.active) throw new Error('the token is not active')
  return claims(doc)
}

/** The package's McpServer, protected as the table says, with a scoped and a public item. */
function protectedServer(pkg, url, issuer, verifier) {
  const server = new pkg.McpServer({ name: 'protected', version: '1.0.0' })
  server.protect({ resource: url, authorizationServers: [issuer], scopesSupported: CASES.scopes_supported, requiredScopes: CASES.required_scopes }, verifier)
  server.registerResource('public', 'public://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'public a' }] }))
  server.registerResource('secret', 'secret://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'the secret' }] }))
  server.registerResource('whoami', 'whoami://me', {}, async (uri, ctx) => ({ contents: [{ uri: uri.href, text: `${ctx.principal?.subject} via ${ctx.principal?.clientId}` }] }))
  server.requireScopes('resource', 'secret://a', ['notes:secret'])
  return server
}

/** Serves `server` by `runner` on a free port: its endpoint URL (the port known first). */
async function serve(runner, pkg, make) {
  const srv = createServer()
  await new Promise((r) => srv.listen(0, '127.0.0.1', r))
  closers.push(() => srv.close())
  const url = `http://127.0.0.1:${srv.address().port}/mcp`
  const server = make(url)
  const handler = runner === 'fetch' ? await pkg.toNodeHandler({ fetch: server.fetch, onerror: (e) => console.error(e) }) : await pkg.toNodeHandler(server)
  srv.on('request', handler)
  return url
}

/** A POST on a raw socket (fetch refuses some hostile header values, e.g. `Bearer `). */
function post(url, authorization, method, params, name) {
  const u = new URL(url)
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }))
  const lines = [
    `POST ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, 'content-type: application/json',
    'accept: application/json, text/event-stream', 'mcp-protocol-version: 2026-07-28', `mcp-method: ${method}`,
    `content-length: ${body.length}`, 'connection: close',
    ...(name ? [`mcp-name: ${name}`] : []), ...(authorization !== null ? [`authorization: ${authorization}`] : []),
  ]
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname)
    const chunks = []
    sock.on('data', (d) => chunks.push(d))
    sock.on('error', reject)
    sock.on('end', () => {
      const raw = Buffer.concat(chunks).toString('latin1')
      const [head, ...rest] = raw.split('\r\n\r\n')
      const [statusLine, ...hl] = head.split('\r\n')
      const headers = Object.fromEntries(hl.map((h) => [h.slice(0, h.indexOf(':')).trim().toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]))
      let text = rest.join('\r\n\r\n')
      if (headers['transfer-encoding'] === 'chunked') {
        let out = ''
        for (let data = text; data;) {
          const i = data.indexOf('\r\n')
          const n = parseInt(data.slice(0, i), 16)
          if (!n) break
          out += data.slice(i + 2, i + 2 + n)
          data = data.slice(i + 4 + n)
        }
        text = out
      }
      if (text.startsWith('data: ')) text = text.slice(6).trim()
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text })
    })
    sock.write(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body])) // no FIN: the server closes
  })
}

/** The `Bearer` challenge's parameters. */
function bearer(r) {
  const h = r.headers['www-authenticate']
  assert.ok(h?.startsWith('Bearer'), String(h))
  return Object.fromEntries([...h.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
}

for (const [engine, pkg] of Object.entries({ napi, wasm })) for (const runner of ['fetch', 'node:http']) describe(`${engine} engine, ${runner}`, () => {
  let issuer, url, iurl
  before(async () => {
    issuer = await authorizationServer()
    url = await serve(runner, pkg, (u) => protectedServer(pkg, u, issuer.url, jwtVerifier({ issuer: issuer.url, audience: u, jwksUrl: `${issuer.url}/jwks`, jose })))
    iurl = await serve(runner, pkg, (u) => protectedServer(pkg, u, issuer.url, introspection(`${issuer.url}/introspect`)))
    issuer.audience = iurl
  })

  it('answers every hostile case of tests/auth/cases.json with its status and challenge', async () => {
    const table = []
    for (const c of CASES.cases) {
      const endpoint = c.verifier === 'introspection' ? iurl : url
      const tok = c.opaque ?? (c.token ? await token(CASES.tokens[c.token], issuer.url, url) : '')
      const auth = c.authorization == null ? null : c.authorization.replace('{token}', tok).replace('{big}', 'a'.repeat(65536))
      const target = endpoint + (c.query ? `?${c.query.replace('{token}', tok)}` : '')
      const r = await post(target, auth, 'resources/list', {})
      const ok = (c.status_any ?? [c.status]).includes(r.status)
      let why = ok ? '' : `status ${r.status}`
      if (ok && r.status === 401 && c.status === 401) {
        const b = bearer(r)
        if ((b.error ?? null) !== (c.error ?? null)) why = `error ${b.error}`
        if ('scope' in c && (b.scope ?? null) !== c.scope) why = `scope ${b.scope}`
        if (!/resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/.test(r.headers['www-authenticate'])) why = 'no resource_metadata'
      }
      if (ok && r.status === 403) {
        const b = bearer(r)
        if (b.error !== c.error || b.scope !== c.scope) why = `403 ${b.error} ${b.scope}`
      }
      if (why) table.push(`${c.name}: ${why}`)
    }
    assert.deepEqual(table, [])
  })

  it('serves the protected resource metadata', async () => {
    const r = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))
    assert.equal(r.status, 200)
    const doc = await r.json()
    assert.equal(doc.resource, url)
    assert.deepEqual(doc.authorization_servers, [issuer.url])
  })

  it('hides a scoped resource from a caller without the scope and refuses it with 403; the handler sees the caller', async () => {
    const low = `Bearer ${await token(CASES.tokens.low, issuer.url, url)}`
    const high = `Bearer ${await token(CASES.tokens.valid, issuer.url, url)}`
    const uris = async (a) => JSON.parse((await post(url, a, 'resources/list', {})).text).result.resources.map((r) => r.uri).sort()
    assert.deepEqual(await uris(low), ['public://a', 'whoami://me'])
    assert.deepEqual(await uris(high), ['public://a', 'secret://a', 'whoami://me'])
    const refused = await post(url, low, 'resources/read', { uri: 'secret://a' }, 'secret://a')
    assert.equal(refused.status, 403)
    assert.equal(bearer(refused).scope, 'notes:secret')
    assert.ok(!refused.text.includes('the secret'))
    const read = await post(url, high, 'resources/read', { uri: 'secret://a' }, 'secret://a')
    assert.equal(JSON.parse(read.text).result.contents[0].text, 'the secret')
    const me = await post(url, low, 'resources/read', { uri: 'whoami://me' }, 'whoami://me')
    assert.equal(JSON.parse(me.text).result.contents[0].text, 'alice via c1')
  })
})
