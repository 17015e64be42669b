#!/usr/bin/env node
// Benchmark (a script, not a timed test): `resources/read` round trips per second.
//
// 1. Over stdio against the official SDK: the knowledge base (examples/node/kb.mjs) on each
//    engine (napi addon, WebAssembly) and the same knowledge base on
//    @modelcontextprotocol/server 2.4.0 with its `StdioServerTransport`
//    (bench/sdk-kb-stdio.mjs), each its own process driven through pipes by one client
//    (bench/pipe.mjs: `--window` reads in flight, 32; answers counted, not parsed), in
//    interleaved bursts, the best kept, with each server's CPU time per read. The SDK run
//    needs the examples' pinned tools (examples/node/node_modules, linked by test.sh);
//    without them it is skipped.
// 2. In process, through `McpServer` on each engine: over stdio (the runner's calls,
//    `receive` and a sink, `--concurrency` reads in flight) and over Streamable HTTP
//    (node:http through `toNodeHandler`, a keep-alive node:http client), with how many times
//    the server calls into its engine per read.
//
// The last line is JSON (`{"bench":"node-reads",…}`: reads/s and CPU µs per read of every
// run, the ratios to the SDK) for scripts such as the top-level bench.sh.
//
//   node bindings-node/bench/reads.mjs [--seconds 2] [--concurrency 8] [--window 32] [--only stdio]
import { Agent, createServer, request } from 'node:http'
import { createRequire } from 'node:module'
import { pipeServer } from './pipe.mjs'

const napi = await import('../server.mjs')
const wasm = await import('../wasm/index.mjs')
// The engine's classes whose calls cross into native code or the wasm module.
const engines = { napi: (await import('../index.js')).default.ServerMachine, wasm: (await import('../wasm/pkg/mcp_context_wasm.js')).WasmServer }

const arg = (name, dflt) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? dflt : Number(process.argv[at + 1])
}
const seconds = arg('--seconds', 2)
const concurrency = arg('--concurrency', 8)
const window = arg('--window', 32)
const onlyAt = process.argv.indexOf('--only') // stdio | in-process: one half
const only = onlyAt === -1 ? null : process.argv[onlyAt + 1]
const rounds = 3

const PV = '2026-07-28'
const URI = 'notes://1'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }
const line = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: URI, _meta: META } })
const headers = {
  'content-type': 'application/json', accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PV, 'mcp-method': 'resources/read', 'mcp-name': URI,
}
const TEXT = 'x'.repeat(200)

function app(pkg) {
  const server = new pkg.McpServer({ name: 'bench', version: '1.0.0' })
  server.onerror = () => {}
  server.registerResource('note', URI, { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: TEXT }] }))
  return server
}

// Counts the calls into the engine (methods and getters of the addon's `ServerMachine`, of
// the wasm module's `WasmServer`) while `f` runs.
async function crossings(cls, f) {
  const proto = cls.prototype
  const saved = []
  let calls = 0
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor') continue
    const d = Object.getOwnPropertyDescriptor(proto, key)
    saved.push([key, d])
    const wrap = (fn) => function (...args) { calls++; return fn.apply(this, args) }
    if (typeof d.value === 'function') Object.defineProperty(proto, key, { ...d, value: wrap(d.value) })
    else if (d.get) Object.defineProperty(proto, key, { ...d, get: wrap(d.get) })
  }
  try { await f() } finally { for (const [key, d] of saved) Object.defineProperty(proto, key, d) }
  return calls
}

/** stdio: the runner's calls in process; `one()` resolves when its answer line is out. */
function stdioOf(server) {
  const attach = server.openStream ? server.openStream() : 0
  const waiting = new Map()
  let next = 1
  server.attach(attach, (t) => {
    const id = JSON.parse(Buffer.from(t.bytes).toString()).id
    waiting.get(id)?.()
    waiting.delete(id)
  })
  return () => new Promise((resolve) => {
    const id = next++
    waiting.set(id, resolve)
    server.receive(line(id), attach, 'stdio')
  })
}

async function httpOf(server) {
  const srv = createServer({ noDelay: true }, await napi.toNodeHandler(server))
  srv.keepAliveTimeout = 600_000 // the sockets idle while the other runs burst
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const payload = Buffer.from(line(1))
  const port = srv.address().port
  const one = () => new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...headers, 'content-length': payload.length } }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))))
    })
    req.setNoDelay(true)
    req.on('error', reject)
    req.end(payload)
  })
  return { one, close: () => { agent.destroy(); srv.closeAllConnections(); srv.close() } }
}

// One burst: reads per second, and the process's CPU time per read in µs (server and
// client together; less sensitive than the rate to other loads on a shared machine).
async function burst(one) {
  const end = performance.now() + seconds * 1000
  const cpu = process.cpuUsage()
  let done = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) { await one(); done++ }
  }))
  const used = process.cpuUsage(cpu)
  return { rate: done / seconds, cpu: (used.user + used.system) / done }
}

// --- 1. stdio, one process per server, against the SDK -----------------------------------
const report = { bench: 'node-reads', node: process.version, seconds, window, concurrency, stdio: {}, inProcess: {} }
if (only !== 'in-process') {
  const kb = new URL('../../examples/node/kb.mjs', import.meta.url).pathname
  const sdkKb = new URL('./sdk-kb-stdio.mjs', import.meta.url).pathname
  const KB_URI = 'kb://acme/fiches/resiliation-contrat'
  const check = (line) => { if (!line.includes('Résilier un contrat')) throw new Error(`bad answer: ${line.slice(0, 200)}`) }
  let sdk = true
  try {
    createRequire(new URL('../../examples/node/package.json', import.meta.url)).resolve('@modelcontextprotocol/server')
  } catch {
    sdk = false
    console.log('stdio: @modelcontextprotocol/server not found under examples/node (run test.sh\'s Node step): the SDK run is skipped')
  }
  const servers = [['napi', [kb]], ['wasm', [kb, '--wasm']], ...(sdk ? [['sdk', [sdkKb]]] : [])]
  const live = []
  for (const [key, args] of servers) live.push({ key, server: await pipeServer(args, { uri: KB_URI, window, check }), rate: 0, cpu: Infinity })
  for (let r = 0; r < rounds; r++) {
    for (const s of live) {
      const b = await s.server.burst(seconds * 1000)
      s.rate = Math.max(s.rate, b.rate)
      if (b.cpu !== null) s.cpu = Math.min(s.cpu, b.cpu)
    }
  }
  const sdkRate = live.find((s) => s.key === 'sdk')?.rate
  const sdkCpu = live.find((s) => s.key === 'sdk')?.cpu
  console.log(`stdio, resources/read of ${KB_URI}: one process per server, ${window} reads in flight, best of ${rounds} bursts of ${seconds} s`)
  console.log('| server | reads/s | vs SDK | server CPU µs/read |')
  console.log('| --- | ---: | ---: | ---: |')
  const names = { napi: 'mcp-context (napi) McpServer, serveStdio', wasm: 'mcp-context (wasm) McpServer, serveStdio', sdk: 'SDK 2.4.0 McpServer, StdioServerTransport' }
  for (const s of live) {
    await s.server.close()
    const cpu = Number.isFinite(s.cpu) ? s.cpu : null
    const vs = sdkRate ? s.rate / sdkRate : null
    report.stdio[s.key] = { readsPerSec: Math.round(s.rate), cpuUsPerRead: cpu && +cpu.toFixed(1), vsSdk: vs && +vs.toFixed(2), cpuVsSdk: cpu && sdkCpu ? +(sdkCpu / cpu).toFixed(2) : null }
    console.log(`| ${names[s.key]} | ${Math.round(s.rate).toLocaleString('en')} | ${vs ? `${vs.toFixed(1)}×` : '–'} | ${cpu ? cpu.toFixed(1) : '–'} |`)
  }
  console.log()
}

// --- 2. in process, through McpServer ---------------------------------------------------
const runs = []
for (const [name, pkg] of only === 'stdio' ? [] : [['napi', napi], ['wasm', wasm]]) {
  const stdio = stdioOf(app(pkg))
  const http = await httpOf(app(pkg))
  const perRead = async (one) => {
    for (let i = 0; i < 50; i++) await one() // warm
    const n = 100
    const calls = await crossings(engines[name], async () => { for (let i = 0; i < n; i++) await one() })
    return calls / n
  }
  runs.push({ key: `${name} stdio`, one: stdio, crossings: await perRead(stdio), best: 0, cpu: Infinity })
  runs.push({ key: `${name} http`, one: http.one, crossings: await perRead(http.one), best: 0, cpu: Infinity, close: http.close })
}
for (let r = 0; r < rounds; r++) {
  for (const run of runs) {
    const b = await burst(run.one)
    run.best = Math.max(run.best, b.rate)
    run.cpu = Math.min(run.cpu, b.cpu)
  }
}
if (runs.length) console.log(`in process, resources/read: round trips per second and CPU µs per read (best of ${rounds} bursts of ${seconds} s, ${concurrency} in flight), engine calls per read`)
for (const run of runs) {
  console.log(`${run.key.padEnd(12)} ${Math.round(run.best).toLocaleString('en').padStart(9)} reads/s  ${run.cpu.toFixed(1).padStart(7)} µs CPU/read  ${run.crossings.toFixed(2)} calls/read`)
  report.inProcess[run.key.replace(' ', '-')] = { readsPerSec: Math.round(run.best), cpuUsPerRead: +run.cpu.toFixed(1), callsPerRead: run.crossings }
  run.close?.()
}
console.log(JSON.stringify(report))
