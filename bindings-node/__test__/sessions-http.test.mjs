// 2025-11-25 sessions through the Node runners (docs/rules.md §17.3 items 9-11), on both
// engines: node:http (`serveHttp`) over real HTTP, which passes the socket's remote address
// as the peer, and `server.fetch` with the `peer` option.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'


const INIT = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
}
const PING = { jsonrpc: '2.0', id: 2, method: 'ping' }
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' }

/** A POST through `send` (global fetch, or a server's fetch handler). */
function poster(send, url) {
  return (body, headers = {}) => send(new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  }))
}

/** A real client's handshake: the session id, or the refused response. */
async function connect(post) {
  const r = await post(INIT)
  if (r.status !== 200) return r
  await r.arrayBuffer()
  const sid = r.headers.get('mcp-session-id')
  const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' }
  const n = await post(INITIALIZED, h)
  assert.equal(n.status, 202)
  await n.arrayBuffer()
  const p = await post(PING, h)
  assert.equal(p.status, 200)
  assert.deepEqual((await p.json()).result, {})
  return sid
}

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`on ${engine}`, () => {
let McpServer, serveHttp
before(async () => { ({ McpServer, serveHttp } = await import(specifier)) })

describe('node:http runner', () => {
  let srv, post
  before(async () => {
    srv = await serveHttp(new McpServer({ name: 'sessions', version: '1' }), { port: 0 })
    post = poster(fetch, `http://127.0.0.1:${srv.address().port}/mcp`)
  })
  after(() => new Promise((resolve) => { srv.closeAllConnections(); srv.close(resolve) }))

  it('answers 400 to an unsupported MCP-Protocol-Version in a session, and to a second initialize', async () => {
    const sid = await connect(post)
    let r = await post(PING, { 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' })
    assert.equal(r.status, 400)
    assert.equal((await r.json()).error.code, -32600)
    r = await post(INIT, { 'mcp-session-id': sid })
    assert.equal(r.status, 400)
    assert.equal((await r.json()).error.code, -32600)
    r = await post(PING, { 'mcp-session-id': sid })
    assert.equal(r.status, 200)
    await r.arrayBuffer()
  })

  it('lets a real client in after a flood of half-open sessions', async () => {
    // More than the 1,024 places, 20 at a time; no request follows any of them.
    for (let i = 0; i < 1100; i += 20) {
      await Promise.all(Array.from({ length: 20 }, async () => {
        const r = await post(INIT)
        assert.equal(r.status, 200, `flood ${i}`)
        await r.arrayBuffer()
      }))
    }
    assert.equal(typeof await connect(post), 'string')
  })

  it('passes the socket address: one peer holds at most 256 sessions', async () => {
    // Two sessions above were established (the rest are half-open): 254 more fill the
    // peer's 256 places.
    for (let i = 0; i < 254; i++) assert.equal(typeof await connect(post), 'string', `session ${i}`)
    const r = await connect(post)
    assert.equal(r.status, 429)
    assert.equal(r.headers.get('retry-after'), '60')
    assert.equal((await r.json()).error.code, -32603)
  })
})

describe('fetch handler', () => {
  it('takes the peer from the `peer` option', async () => {
    const server = new McpServer({ name: 'sessions', version: '1' }, { peer: (request) => request.headers.get('x-client-ip') })
    const send = (request) => server.fetch(request)
    const a = poster(send, 'http://localhost/mcp')
    const fromA = (body, headers = {}) => a(body, { 'x-client-ip': '192.0.2.1', ...headers })
    for (let i = 0; i < 256; i++) assert.equal(typeof await connect(fromA), 'string')
    const r = await connect(fromA)
    assert.equal(r.status, 429)
    // Another peer, and no peer at all, still get places.
    const fromB = (body, headers = {}) => a(body, { 'x-client-ip': '192.0.2.2', ...headers })
    assert.equal(typeof await connect(fromB), 'string')
    assert.equal(typeof await connect(a), 'string')
    server.close()
  })
})
})
