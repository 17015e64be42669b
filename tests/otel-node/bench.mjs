#!/usr/bin/env node
// Benchmark (a script, not a timed test): what telemetry costs the Node package's stdio
// reads (`resources/read` round trips per second through `McpServer`, in process as
// bindings-node/bench/reads.mjs does), on each engine: off (no sink, the default), on with
// a sink that drops everything (the core's observations and the drain), `jsonLog` to a
// no-op writer, and `otel` on the real SDK (spans to an exporter that drops them, metrics
// aggregated). Interleaved bursts, the best kept (the machine is shared).
//
//   node tests/otel-node/bench.mjs [--seconds 1] [--concurrency 8] [--rounds 5] [--engine napi|wasm]
import * as api from '@opentelemetry/api'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

const only = process.argv.includes('--engine') ? process.argv[process.argv.indexOf('--engine') + 1] : null
const engines = []
if (only !== 'wasm') engines.push(['napi', await import('../../bindings-node/server.mjs')])
if (only !== 'napi') engines.push(['wasm', await import('../../bindings-node/wasm/index.mjs')])
const arg = (name, dflt) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? dflt : Number(process.argv[at + 1])
}
const seconds = arg('--seconds', 1)
const concurrency = arg('--concurrency', 8)
const rounds = arg('--rounds', 5)

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
const line = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'notes://1', _meta: META } })
const TEXT = 'x'.repeat(200)

const drop = { export(_spans, done) { done({ code: 0 }) }, shutdown: async () => {}, forceFlush: async () => {} }
const modes = {
  off: async () => null,
  'on, no-op sink': async () => ({}),
  'on, jsonLog': async (pkg) => pkg.jsonLog({ write: () => {} }),
  'on, otel SDK': async (pkg) => pkg.otel({
    api,
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(drop)] }),
    meterProvider: new MeterProvider(),
  }),
}

async function app(pkg, mode) {
  const server = new pkg.McpServer({ name: 'bench', version: '1.0.0' })
  server.onerror = () => {}
  server.registerResource('note', 'notes://1', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: TEXT }] }))
  const sink = await modes[mode](pkg)
  if (sink) server.sink(sink)
  const stream = server.openStream()
  const waiting = new Map()
  let next = 1
  server.attach(stream, (t) => {
    const id = JSON.parse(Buffer.from(t.bytes).toString()).id
    waiting.get(id)?.()
    waiting.delete(id)
  })
  return () => new Promise((resolve) => {
    const id = next++
    waiting.set(id, resolve)
    server.receive(line(id), stream, 'stdio')
  })
}

async function burst(one) {
  const end = performance.now() + seconds * 1000
  let done = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) { await one(); done++ }
  }))
  return done / seconds
}

const runs = []
for (const [engine, pkg] of engines) {
  for (const mode of Object.keys(modes)) {
    const one = await app(pkg, mode)
    for (let i = 0; i < 200; i++) await one() // warm
    runs.push({ engine, mode, one, best: 0 })
  }
}
for (let r = 0; r < rounds; r++) for (const run of runs) run.best = Math.max(run.best, await burst(run.one))
for (const [engine] of engines) {
  const base = runs.find((r) => r.engine === engine && r.mode === 'off').best
  for (const r of runs.filter((x) => x.engine === engine)) {
    console.log(`${engine} stdio ${r.mode.padEnd(16)} ${Math.round(r.best).toString().padStart(7)} reads/s  ${(r.best / base).toFixed(2)}x`)
  }
}
