// How many times `McpServer` calls into its engine per `resources/read`, on both engines:
// every call of the addon's `ServerMachine` and of the wasm module's `WasmServer` (under the
// glue) is counted, the output-ready signal's late calls included. Input calls hand their outputs back through the outbox, so a read over
// Streamable HTTP is `httpHead`, `handleHttp`, `respondRead`; over stdio `handleMessage`,
// `respondRead`.
import assert from 'node:assert/strict'
import { setImmediate as tick } from 'node:timers/promises'
import { describe, it } from 'node:test'

import addon from '../index.js'
import { WasmServer } from '../wasm/pkg/mcp_context_wasm.js'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }
const read = (id, uri) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { _meta: META, uri } })

// Counts every call (methods and getters) on `cls.prototype` while `f` runs.
async function counted(cls, f) {
  const proto = cls.prototype
  const saved = []
  let calls = 0
  const names = []
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor') continue
    const d = Object.getOwnPropertyDescriptor(proto, key)
    saved.push([key, d])
    const wrap = (fn) => function (...args) { calls++; names.push(key); return fn.apply(this, args) }
    if (typeof d.value === 'function') Object.defineProperty(proto, key, { ...d, value: wrap(d.value) })
    else if (d.get) Object.defineProperty(proto, key, { ...d, get: wrap(d.get) })
  }
  try {
    await f()
  } finally {
    for (const [key, d] of saved) Object.defineProperty(proto, key, d)
  }
  return { calls, names }
}

for (const [engine, specifier, cls] of [['napi', '../server.mjs', addon.ServerMachine], ['wasm', '../wasm/index.mjs', WasmServer]]) describe(`on ${engine}`, () => {
  it('reads over HTTP in 3 engine calls and over stdio in 2', async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'crossings', version: '1.0.0' })
    server.registerResource('note', 'notes://1', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }))
    const headers = {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PV, 'mcp-method': 'resources/read', 'mcp-name': 'notes://1',
    }
    const reads = 4
    const http = await counted(cls, async () => {
      for (let i = 1; i <= reads; i++) {
        const res = await server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(read(i, 'notes://1')) }))
        assert.equal((await res.json()).result.contents[0].text, 'hi')
        await tick()
        await tick()
      }
    })
    assert.equal(http.calls, 3 * reads, http.names.join(' '))
    const stream = server.openStream()
    const lines = []
    server.attach(stream, (t) => lines.push(JSON.parse(Buffer.from(t.bytes).toString())))
    const stdio = await counted(cls, async () => {
      for (let i = 1; i <= reads; i++) {
        server.receive(JSON.stringify(read(i, 'notes://1')), stream, 'stdio')
        while (lines.length < i) await tick()
        await tick()
      }
    })
    assert.equal(lines.length, reads)
    assert.equal(stdio.calls, 2 * reads, stdio.names.join(' '))
  })
})
