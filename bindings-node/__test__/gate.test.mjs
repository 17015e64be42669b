// Middleware at the core's gate (docs/rules.md §26.7), both engines, every runner (stdio,
// fetch, node:http): a middleware that refuses `server/discover` and `resources/list`
// (requests the core answers itself, with no handler) refuses them; a tool call still runs
// and the middleware's `next()` gets its result; a rate limit counts list calls.
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }
const req = (id, method, params = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } })

function noLists(seen) {
  return async (r, next) => {
    if (r.method === 'server/discover' || r.method === 'resources/list') {
      seen.push(`${r.method} refused`)
      throw Object.assign(new Error('not here'), { code: -31000 })
    }
    const result = await next()
    seen.push(`${r.method} ${result === undefined ? 'core' : 'handler'}`)
    return result
  }
}

function server(pkg, ...mw) {
  const s = new pkg.McpServer({ name: 'gate', version: '1.0.0' })
  s.registerResource('note', 'notes://1', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }))
  s.registerTool('echo', { description: 'echo' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
  for (const m of mw) s.use(m)
  return s
}

async function overStdio(pkg, s, messages) {
  const input = new PassThrough()
  const got = new Map()
  let waiting = null
  const output = { write(chunk) { for (const l of Buffer.from(chunk).toString().trim().split('\n')) { const v = JSON.parse(l); got.set(v.id, v) } waiting?.() } }
  await pkg.serveStdio(s, { input, output })
  input.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''))
  await new Promise((resolve) => { waiting = () => { if (got.size >= messages.length) resolve() }; waiting() })
  input.end()
  return got
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PV }
async function overFetch(s, messages) {
  const got = new Map()
  for (const m of messages) {
    const r = await s.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-method': m.method, ...(m.params.name ? { 'mcp-name': m.params.name } : {}) }, body: JSON.stringify(m) }))
    got.set(m.id, await r.json())
  }
  return got
}
async function overNodeHttp(pkg, s, messages) {
  const srv = await pkg.serveHttp(s, { port: 0 })
  const { port } = srv.address()
  try {
    const got = new Map()
    for (const m of messages) {
      const r = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { ...HEADERS, host: 'localhost', 'mcp-method': m.method, ...(m.params.name ? { 'mcp-name': m.params.name } : {}) }, body: JSON.stringify(m) })
      got.set(m.id, await r.json())
    }
    return got
  } finally {
    srv.close()
  }
}

const script = [req(1, 'server/discover'), req(2, 'resources/list'), req(3, 'tools/list'), req(4, 'tools/call', { name: 'echo', arguments: {} })]

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`the gate on ${engine}`, () => {
  for (const runner of ['stdio', 'fetch', 'node:http']) {
    it(`a middleware refuses server/discover and resources/list over ${runner}`, async () => {
      const pkg = await import(specifier)
      const seen = []
      const s = server(pkg, noLists(seen))
      const got = runner === 'stdio' ? await overStdio(pkg, s, script) : runner === 'fetch' ? await overFetch(s, script) : await overNodeHttp(pkg, s, script)
      for (const id of [1, 2]) assert.deepEqual(got.get(id).error, { code: -31000, message: 'not here' }, JSON.stringify(got.get(id)))
      assert.ok(Array.isArray(got.get(3).result.tools), JSON.stringify(got.get(3)))
      assert.equal(got.get(4).result.content[0].text, 'ok')
      assert.deepEqual(seen, ['server/discover refused', 'resources/list refused', 'tools/list core', 'tools/call handler'])
    })
  }

  it('a rate limit counts list calls (stdio)', async () => {
    const pkg = await import(specifier)
    const s = server(pkg, pkg.rateLimit({ rate: 0.001, burst: 2 }))
    const got = await overStdio(pkg, s, [req(1, 'resources/list'), req(2, 'tools/list'), req(3, 'resources/list'), req(4, 'tools/call', { name: 'echo', arguments: {} })])
    assert.ok(got.get(1).result && got.get(2).result)
    const limited = -31429 // RATE_LIMITED (docs/rules.md §26.6)
    assert.equal(got.get(3).error.code, limited)
    assert.equal(got.get(4).error.code, limited)
  })
})
