#!/usr/bin/env node
// Benchmark (a script, not a timed test): resources/read round trips per second over
// Streamable HTTP on node:http, the knowledge base (examples/node/kb.mjs) served by
// `server.fetch` on each engine (napi addon, WebAssembly) against the same knowledge base on
// @modelcontextprotocol/server 2.4.0's `createMcpHandler` (examples/node/kb-sdk.mjs), both
// behind the same node:http adapter (`toNodeHandler`), driven by the same client: node:http
// POSTs on keep-alive sockets with TCP_NODELAY (each request one write), `--concurrency`
// requests in flight (8), `--seconds` per server (2).
//
//   node bindings-node/bench/http.mjs [--seconds 2] [--concurrency 8]
import { Agent, createServer, request } from 'node:http'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const peers = createRequire(new URL('../../examples/node/package.json', import.meta.url))
// The SDK's ESM build, as examples/node/kb-sdk.mjs imports it (one copy of its classes).
const sdkEsm = peers.resolve('@modelcontextprotocol/server').replace(/index\.cjs$/, 'index.mjs')
const { createMcpHandler } = await import(pathToFileURL(sdkEsm).href)
const { createKb } = await import('../../examples/node/kb.mjs')
const { createSdkKb } = await import('../../examples/node/kb-sdk.mjs')
const napi = await import('../server.mjs')
const wasm = await import('../wasm/index.mjs')

const arg = (name, dflt) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? dflt : Number(process.argv[at + 1])
}
const seconds = arg('--seconds', 2)
const concurrency = arg('--concurrency', 8)

const PV = '2026-07-28'
const URI = 'kb://acme/fiches/resiliation-contrat'
const body = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'resources/read',
  params: { uri: URI, _meta: { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} } },
})
const headers = {
  'content-type': 'application/json', accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PV, 'mcp-method': 'resources/read', 'mcp-name': URI,
}

async function serve(handler) {
  const srv = createServer({ noDelay: true }, await napi.toNodeHandler(handler))
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  return srv
}

async function readsPerSecond(srv) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const payload = Buffer.from(body)
  const one = () => new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: srv.address().port, path: '/mcp', method: 'POST', agent,
      headers: { ...headers, host: `127.0.0.1:${srv.address().port}`, 'content-length': payload.length },
    }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        if (res.statusCode !== 200 || !text.includes('Résilier un contrat')) reject(new Error(`bad answer ${res.statusCode}: ${text.slice(0, 200)}`))
        else resolve()
      })
    })
    req.on('socket', (socket) => socket.setNoDelay(true))
    req.on('error', reject)
    req.end(payload)
  })
  for (let i = 0; i < 200; i++) await one() // warm-up
  let done = 0
  const end = performance.now() + seconds * 1000
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) { await one(); done++ }
  }))
  agent.destroy()
  return done / seconds
}

const sdkHandler = createMcpHandler(() => createSdkKb(), { legacy: 'reject', onerror: (e) => console.error('sdk:', e.message) })
const servers = [
  ['mcp-context (napi)', await serve(createKb(napi))],
  ['mcp-context (wasm)', await serve(createKb(wasm))],
  ['SDK 2.4.0 createMcpHandler', await serve({ fetch: sdkHandler.fetch, onerror: () => {} })],
]
const rates = []
for (const [name, srv] of servers) {
  rates.push([name, await readsPerSecond(srv)])
  srv.closeAllConnections()
  srv.close()
}
const sdk = rates[2][1]
console.log(`node ${process.version}, ${seconds}s per server, ${concurrency} requests in flight\n`)
console.log('| server | reads/s | vs SDK |')
console.log('| --- | ---: | ---: |')
for (const [name, r] of rates) console.log(`| ${name} | ${r.toFixed(0)} | ${(r / sdk).toFixed(1)}× |`)
