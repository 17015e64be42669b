#!/usr/bin/env node
// Benchmark (a script, not a timed test): resources/read round trips per second over
// Streamable HTTP on node:http, the knowledge base (examples/node/kb.mjs) on each engine
// (napi addon, WebAssembly) against the same knowledge base on @modelcontextprotocol/server
// 2.4.0's `createMcpHandler` (examples/node/kb-sdk.mjs), all through `toNodeHandler`: ours
// straight onto the core's HTTP entry point, and through `server.fetch` (web `Request` and
// `Response`, as on Deno and Workers); the SDK's fetch handler through web `Request` and
// `Response` (it has no node:http path of its own). The same client drives every server:
// node:http POSTs on keep-alive sockets with TCP_NODELAY (each request one write),
// `--concurrency` requests in flight (8), `--seconds` per server (2) in interleaved bursts,
// the best burst kept (the machine is shared). `--only KEY` runs one server (profiling).
// The last line is JSON (`{"bench":"node-http",…}`: reads/s and the ratio to the SDK of each).
//
//   node bindings-node/bench/http.mjs [--seconds 2] [--concurrency 8] [--only napi]
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
const onlyAt = process.argv.indexOf('--only') // napi | wasm | napi-fetch | wasm-fetch | sdk: one server
const only = onlyAt === -1 ? null : process.argv[onlyAt + 1]
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

/** A client for `srv`: `one()` sends a read and checks the answer. */
function clientOf(srv) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const payload = Buffer.from(body)
  const port = srv.address().port
  const one = () => new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent,
      headers: { ...headers, host: `127.0.0.1:${port}`, 'content-length': payload.length },
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
  return { one, agent }
}

/** Reads per second of one burst of `ms` with `concurrency` requests in flight. */
async function burst({ one }, ms) {
  let done = 0
  const start = performance.now()
  const end = start + ms
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) { await one(); done++ }
  }))
  return done / ((performance.now() - start) / 1000)
}

const sdkHandler = createMcpHandler(() => createSdkKb(), { legacy: 'reject', onerror: (e) => console.error('sdk:', e.message) })
// `toNodeHandler(server)` serves an McpServer straight from node:http onto the core's entry
// point; `{ fetch }` alone goes through web `Request`/`Response`, the only way to put the
// SDK's handler on node:http, and the way our `server.fetch` runs on Deno and Workers.
const viaFetch = (s) => ({ fetch: s.fetch, onerror: () => {} })
const servers = [
  ['mcp-context (napi), node:http', 'napi', () => createKb(napi)],
  ['mcp-context (wasm), node:http', 'wasm', () => createKb(wasm)],
  ['mcp-context (napi), server.fetch', 'napi-fetch', () => viaFetch(createKb(napi))],
  ['mcp-context (wasm), server.fetch', 'wasm-fetch', () => viaFetch(createKb(wasm))],
  ['SDK 2.4.0 createMcpHandler, fetch', 'sdk', () => viaFetch(sdkHandler)],
].filter(([, key]) => only === null || key === only)
// Interleaved bursts (the machine is shared and its load changes): each server's best burst.
const ROUNDS = 4
const live = []
for (const [name, , make] of servers) {
  const srv = await serve(make())
  const client = clientOf(srv)
  for (let i = 0; i < 300; i++) await client.one() // warm-up
  live.push({ name, srv, client, best: 0 })
}
for (let r = 0; r < ROUNDS; r++) {
  for (const s of live) s.best = Math.max(s.best, await burst(s.client, (seconds * 1000) / ROUNDS))
}
const rates = live.map((s) => {
  s.client.agent.destroy()
  s.srv.closeAllConnections()
  s.srv.close()
  return [s.name, s.best]
})
const sdk = rates.find(([name]) => name.startsWith('SDK'))?.[1] ?? NaN
console.log(`node ${process.version}, ${seconds}s per server in ${ROUNDS} interleaved bursts (best kept), ${concurrency} requests in flight\n`)
console.log('| server | reads/s | vs SDK |')
console.log('| --- | ---: | ---: |')
for (const [name, r] of rates) console.log(`| ${name} | ${r.toFixed(0)} | ${(r / sdk).toFixed(1)}× |`)
// The last line is JSON, for scripts such as the top-level bench.sh.
const keyOf = Object.fromEntries(servers.map(([name, key]) => [name, key]))
console.log(JSON.stringify({
  bench: 'node-http', node: process.version, seconds, concurrency,
  http: Object.fromEntries(rates.map(([name, r]) => [keyOf[name], { readsPerSec: Math.round(r), vsSdk: Number.isFinite(sdk) ? +(r / sdk).toFixed(2) : null }])),
}))
