// One `McpServer` served by several runners at once: every runner takes its machine streams
// from the server's one allocator (`openStream`), so answers never cross between them.
// Both engines: reads in flight through `server.fetch` and the node:http handler at the
// same time, each answered only after all have arrived.
import assert from 'node:assert/strict'
import http from 'node:http'
import { describe, it } from 'node:test'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }

function read(id, uri) {
  return {
    headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PV, 'mcp-method': 'resources/read', 'mcp-name': uri,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { _meta: META, uri } }),
  }
}

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`on ${engine}`, () => {
  it('serves one McpServer through fetch and node:http at once without mixing answers', { timeout: 10_000 }, async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'streams', version: '1.0.0' })
    const total = 6
    let arrived = 0
    let release
    const gate = new Promise((resolve) => { release = resolve })
    server.registerResource('item', new pkg.ResourceTemplate('items://{id}', { list: undefined }), {},
      async (uri) => {
        if (++arrived === total) release()
        await gate
        return { contents: [{ uri: uri.href, text: `item ${uri.href}` }] }
      })
    const srv = http.createServer(await pkg.toNodeHandler(server))
    await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${srv.address().port}/mcp`
    try {
      const viaNode = (i) => {
        const { headers, body } = read(i, `items://node-${i}`)
        return fetch(base, { method: 'POST', headers, body }).then((r) => r.json())
      }
      const viaFetch = (i) => {
        const { headers, body } = read(i, `items://fetch-${i}`)
        return server.fetch(new Request(base, { method: 'POST', headers, body })).then((r) => r.json())
      }
      const answers = await Promise.all([viaNode(1), viaFetch(2), viaNode(3), viaFetch(4), viaNode(5), viaFetch(6)])
      for (const [i, a] of answers.entries()) {
        const id = i + 1
        const uri = `items://${id % 2 ? 'node' : 'fetch'}-${id}`
        assert.equal(a.id, id)
        assert.equal(a.result?.contents?.[0]?.text, `item ${uri}`, JSON.stringify(a))
      }
    } finally {
      srv.closeAllConnections()
      await new Promise((resolve) => srv.close(resolve))
    }
  })
})
