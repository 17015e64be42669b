// SSE streams get the core's keepalive comment while idle, on both engines and both HTTP
// runners (`server.fetch`, node:http): a `subscriptions/listen` stream, its acknowledgement
// framed by the core, then `: keepalive` every `SSE_KEEPALIVE_INTERVAL_MS` (timers mocked).
import assert from 'node:assert/strict'
import http from 'node:http'
import { describe, it, mock } from 'node:test'

import addon from '../index.js'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }
const listen = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'subscriptions/listen',
  params: { _meta: META, notifications: { resourceSubscriptions: ['notes://1'] } },
})
const headers = {
  'content-type': 'application/json', accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PV, 'mcp-method': 'subscriptions/listen',
}

async function readUntil(reader, state, needle) {
  while (!state.text.includes(needle)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`stream ended before ${JSON.stringify(needle)}`)
    state.text += Buffer.from(value).toString('utf8')
  }
}

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`on ${engine}`, () => {
  for (const runner of ['fetch', 'node:http']) {
    it(`keeps an idle event stream alive (${runner})`, { timeout: 10_000 }, async () => {
      const pkg = await import(specifier)
      const server = new pkg.McpServer({ name: 'keepalive', version: '1.0.0' })
      server.registerResource('note', 'notes://1', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }))
      let srv = null
      let url = 'http://127.0.0.1/mcp'
      if (runner === 'node:http') {
        srv = http.createServer(await pkg.toNodeHandler(server))
        await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
        url = `http://127.0.0.1:${srv.address().port}/mcp`
      }
      mock.timers.enable({ apis: ['setInterval'] })
      try {
        const req = new Request(url, { method: 'POST', headers, body: listen })
        const res = runner === 'fetch' ? await server.fetch(req) : await fetch(req)
        assert.match(res.headers.get('content-type'), /^text\/event-stream/)
        const reader = res.body.getReader()
        const state = { text: '' }
        await readUntil(reader, state, '\n\n')
        assert.match(state.text, /^data: \{/)
        assert.ok(!state.text.includes('keepalive'))
        mock.timers.tick(addon.SSE_KEEPALIVE_INTERVAL_MS)
        await readUntil(reader, state, ': keepalive\n\n')
        mock.timers.tick(addon.SSE_KEEPALIVE_INTERVAL_MS)
        await readUntil(reader, state, ': keepalive\n\n: keepalive\n\n')
        await reader.cancel()
      } finally {
        mock.timers.reset()
        server.close()
        if (srv) { srv.closeAllConnections(); await new Promise((resolve) => srv.close(resolve)) }
      }
    })
  }
})
