// The Node package's protected endpoint (docs/rules.md §22) on both engines (napi addon, wasm)
// and both HTTP runners (`server.fetch`, node:http's `serveHttp`), against the hostile cases of
// tests/auth/cases.json: tokens signed with jose, the JWKS and an RFC 7662 introspection
// endpoint served on loopback, `jwtVerifier` (mcp-context-primitives/jwt) and an
// introspection verifier; then scopes hide and refuse an item, and the handler sees the caller.
// The same suite runs against the wasm engine as a Cloudflare Worker served by workerd
// (protected-worker.mjs, `jwtVerifier` on `jose` fetching the JWKS over loopback).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

import * as jose from 'jose'

import { freePort, pkgRoot, require, serveWorker } from '../../examples/node/test/workerd.mjs'
import { jwtVerifier } from '../../bindings-node/js/jwt.mjs'
import * as napi from '../../bindings-node/server.mjs'
import * as wasm from '../../bindings-node/wasm/index.mjs'
import { introspection, protectedServer } from './protected-server.mjs'

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

/**
 * A `subscriptions/listen` over the runner's event stream: `next(ms)` resolves to its next
 * message (the acknowledgement first) or `null` after `ms`; `close()` ends it.
 */
async function listen(url, authorization, uris) {
  const ac = new AbortController()
  const r = await fetch(url, {
    method: 'POST',
    signal: ac.signal,
    headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourceSubscriptions: uris } } }),
  })
  assert.equal(r.status, 200)
  assert.match(r.headers.get('content-type'), /^text\/event-stream/)
  const queue = []
  let buf = ''
  ;(async () => {
    try {
      for await (const chunk of r.body.pipeThrough(new TextDecoderStream())) {
        buf += chunk
        for (let m; (m = /\r?\n\r?\n/.exec(buf));) {
          const data = buf.slice(0, m.index).split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n')
          buf = buf.slice(m.index + m[0].length)
          if (data) queue.push(JSON.parse(data))
        }
      }
    } catch {} // aborted
  })()
  const next = async (ms = 5000) => {
    for (const end = Date.now() + ms; queue.length === 0; await new Promise((res) => setTimeout(res, 20))) if (Date.now() > end) return null
    return queue.shift()
  }
  return { next, close: () => ac.abort() }
}

/** The `Bearer` challenge's parameters. */
function bearer(r) {
  const h = r.headers['www-authenticate']
  assert.ok(h?.startsWith('Bearer'), String(h))
  return Object.fromEntries([...h.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
}

/**
 * The suite against one runner: `endpoints(issuer)` serves the protected server twice (a JWT
 * verifier, an introspection verifier) and resolves to their URLs `{url, iurl}`.
 */
const suite = (name, endpoints) => describe(name, () => {
  let issuer, url, iurl
  before(async () => {
    issuer = await authorizationServer()
    ;({ url, iurl } = await endpoints(issuer))
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

  it('answers a completion of a scoped template with the 403 step-up', async () => {
    const low = `Bearer ${await token(CASES.tokens.low, issuer.url, url)}`
    const high = `Bearer ${await token(CASES.tokens.valid, issuer.url, url)}`
    const params = { ref: { type: 'ref/resource', uri: 'vault://{name}' }, argument: { name: 'name', value: 'a' } }
    const refused = await post(url, low, 'completion/complete', params)
    assert.equal(refused.status, 403)
    assert.deepEqual([bearer(refused).error, bearer(refused).scope], ['insufficient_scope', 'notes:secret'])
    assert.ok(!refused.text.includes('alpha'))
    const done = await post(url, high, 'completion/complete', params)
    assert.equal(done.status, 200)
    assert.ok(JSON.parse(done.text).result.completion.values.includes('alpha'), done.text)
  })

  it('delivers on a listen stream only the updates its caller may read', async () => {
    const low = `Bearer ${await token(CASES.tokens.low, issuer.url, url)}`
    const high = `Bearer ${await token(CASES.tokens.valid, issuer.url, url)}`
    const uris = ['secret://a', 'public://a']
    const [sl, sh] = [await listen(url, low, uris), await listen(url, high, uris)]
    try {
      assert.deepEqual((await sl.next()).params.notifications.resourceSubscriptions, ['public://a'])
      assert.deepEqual((await sh.next()).params.notifications.resourceSubscriptions, uris)
      // The secret first, then the public item: the caller without the scope is told only of
      // the second, the other once of each.
      for (const t of ['touch_secret', 'touch_public']) assert.equal((await post(url, high, 'tools/call', { name: t, arguments: {} }, t)).status, 200)
      assert.deepEqual([(await sh.next()).params.uri, (await sh.next()).params.uri], uris)
      assert.equal((await sl.next()).params.uri, 'public://a')
      assert.equal(await sl.next(500), null)
      assert.equal(await sh.next(500), null)
    } finally {
      sl.close()
      sh.close()
    }
  })
})

for (const [engine, pkg] of Object.entries({ napi, wasm })) for (const runner of ['fetch', 'node:http']) {
  suite(`${engine} engine, ${runner}`, async (issuer) => ({
    url: await serve(runner, pkg, (u) => protectedServer(pkg, u, issuer.url, jwtVerifier({ issuer: issuer.url, audience: u, jwksUrl: `${issuer.url}/jwks`, jose }), CASES)),
    iurl: await serve(runner, pkg, (u) => protectedServer(pkg, u, issuer.url, introspection(`${issuer.url}/introspect`), CASES)),
  }))
}

suite('wasm engine, a Cloudflare Worker on workerd', async (issuer) => {
  const [port, iport] = [await freePort(), await freePort()]
  const [url, iurl] = [`http://127.0.0.1:${port}/mcp`, `http://127.0.0.1:${iport}/mcp`]
  const table = JSON.stringify({ scopes_supported: CASES.scopes_supported, required_scopes: CASES.required_scopes })
  const bindings = (resource, verifier) => ({ RESOURCE: resource, ISSUER: issuer.url, VERIFIER: verifier, TABLE: table })
  const worker = await serveWorker({
    name: 'tests/auth-server/protected-worker.mjs',
    file: fileURLToPath(new URL('protected-worker.mjs', import.meta.url)),
    bare: {
      'mcp-context-primitives/wasm': join(pkgRoot, 'wasm', 'workerd.mjs'),
      'mcp-context-primitives/jwt': join(pkgRoot, 'js', 'jwt.mjs'),
      jose: require.resolve('jose'),
    },
    instances: [{ port, bindings: bindings(url, 'jwt') }, { port: iport, bindings: bindings(iurl, 'introspection') }],
    network: true,
  })
  closers.push(() => worker.stop())
  return { url, iurl }
})
