// The Node broker's metrics (docs/operations.md "Broker metrics", the core's
// `fleet::metrics`) on a real Redis (`redis-server` started here on a free port; node-redis
// from examples/node, the package the broker uses) with the OpenTelemetry JS SDK's in-memory
// exporter: events published through one instance are delivered on another, and each
// instance's counters read back under the core's names, reported through each server's
// `otel()` sink. And `redisRateLimit`, the core's
// token bucket in Redis: two instances take from one bucket, a request over the rate is
// refused RATE_LIMITED on both, another bucket is unaffected. Run by test.sh after the examples'
// tools are linked (`node --test tests/otel-node/redis-broker.mjs`).
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createServer, connect } from 'node:net'
import { createRequire } from 'node:module'
import { after, before, it } from 'node:test'

import * as api from '@opentelemetry/api'
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'

import { McpServer, otel, serveStdio } from '../../bindings-node/server.mjs'
import { PassThrough } from 'node:stream'
import { RedisBroker, redisRateLimit } from '../../bindings-node/js/redis.mjs'

const { createClient } = createRequire(new URL('../../examples/node/package.json', import.meta.url))('redis')
const { brokerMetricNames } = createRequire(import.meta.url)('../../bindings-node/index.js')

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
})
async function until(what, ok) {
  for (let i = 0; i < 400; i++) { if (ok()) return; await sleep(25) }
  throw new Error(`timed out waiting for ${what}`)
}

/** A private redis-server on a free port. */
export async function startRedis() {
  const port = await freePort()
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' })
  for (let i = 0; i < 200; i++) {
    const up = await new Promise((resolve) => {
      const c = connect(port, '127.0.0.1', () => { c.destroy(); resolve(true) })
      c.on('error', () => resolve(false))
    })
    if (up) return { url: `redis://127.0.0.1:${port}/0`, stop: () => proc.kill() }
    await sleep(25)
  }
  proc.kill()
  throw new Error('redis-server did not start')
}

function instance(url, id) {
  const server = new McpServer({ name: 'notes', version: '1.0.0' })
  const broker = new RedisBroker(url, { fleet: 'metrics', instanceId: id, retryMs: 200, createClient })
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })
  const meterProvider = new MeterProvider({ readers: [reader] })
  /** The value of `name` (with `reason`) at a fresh collection. */
  const value = async (name, reason) => {
    exporter.reset()
    await reader.forceFlush()
    const seen = []
    for (const rm of exporter.getMetrics()) {
      for (const sm of rm.scopeMetrics) {
        for (const m of sm.metrics) {
          for (const p of m.dataPoints) {
            seen.push([m.descriptor.name, p.attributes, p.value])
            if (m.descriptor.name === name && p.attributes.reason === reason) return p.value
          }
        }
      }
    }
    throw new Error(`${name} ${reason} not reported: ${JSON.stringify(seen)}`)
  }
  return { server, broker, meterProvider, value }
}

let redis
before(async () => { redis = await startRedis() })
after(() => redis?.stop())

const [PUBLISHED, DELIVERED, DROPPED, SKIPPED, SIGNALS] = brokerMetricNames().counters.map((c) => c.name)
const CONNECTED = brokerMetricNames().connected.name

it('names the metrics as the core does', () => {
  assert.deepEqual([PUBLISHED, DELIVERED, DROPPED, SKIPPED, SIGNALS, CONNECTED], [
    'mcp_context.broker.published', 'mcp_context.broker.delivered', 'mcp_context.broker.dropped',
    'mcp_context.broker.skipped', 'mcp_context.broker.signals', 'mcp_context.broker.connected',
  ])
  assert.equal(brokerMetricNames().reason, 'reason')
})

it('counts what one instance publishes and another delivers', async () => {
  const a = instance(redis.url, 'a')
  const b = instance(redis.url, 'b')
  // nothing asks for the broker metrics but the servers' otel() sinks: added after the
  // broker started (a), before it (b); a second report does nothing
  a.broker.start(a.server)
  a.server.sink(await otel({ api, meterProvider: a.meterProvider }))
  b.server.sink(await otel({ api, meterProvider: b.meterProvider }))
  b.broker.start(b.server)
  for (const i of [a, b]) await i.broker.reportMetrics({ api, meterProvider: new MeterProvider() })
  try {
    await until('both subscribed', () => a.broker.connected && b.broker.connected)
    assert.equal(await a.value(CONNECTED), 1)
    assert.equal(await b.value(DELIVERED), 0)

    a.server.sendResourceUpdated({ uri: 'notes://1' })
    a.server.sendResourceUpdated({ uri: 'notes://2' })
    a.broker.toolsListChanged()
    const raw = createClient({ url: redis.url })
    await raw.connect()
    await raw.publish(a.broker.channel, 'not json') // no instance can read it
    await raw.quit()
    const [sa, sb] = [() => a.broker.stats(), () => b.broker.stats()]
    await until('b applied 3, a saw its echoes and counted its publish', () => sb().applied === 3 && sa().echoes === 3 && sa().published === 3 && sa().rejected === 1 && sb().rejected === 1)

    assert.equal(await a.value(PUBLISHED), 3)
    assert.equal(await a.value(DELIVERED), 0)
    assert.equal(await a.value(SKIPPED, 'echo'), 3)
    assert.equal(await a.value(SKIPPED, 'rejected'), 1)
    assert.equal(await a.value(DROPPED), 0)
    assert.equal(await b.value(PUBLISHED), 0)
    assert.equal(await b.value(DELIVERED), 3)
    assert.equal(await b.value(SKIPPED, 'echo'), 0)
    assert.equal(await b.value(SKIPPED, 'rejected'), 1)
    assert.equal(await b.value(SIGNALS), 0)

    // the broker gone: the edge is counted, and a change made now is dropped
    redis.stop()
    await until('both down', () => !a.broker.connected && !b.broker.connected)
    a.server.sendResourceUpdated({ uri: 'notes://3' })
    assert.equal(await a.value(DROPPED), 1)
    assert.equal(await a.value(SIGNALS), 1)
    assert.equal(await a.value(CONNECTED), 0)
  } finally {
    await Promise.all([a.broker.close(), b.broker.close()])
  }
})

// Any object: a Standard Schema that accepts every value (its JSON Schema: an object).
const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }), jsonSchema: { input: () => ({ type: 'object' }) } } }
const PV = '2026-07-28'
const call = (id, name) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} } } })

async function limited(client, options = {}) {
  const server = new McpServer({ name: 'notes', version: '1.0.0' })
  for (const t of ['echo', 'other']) server.registerTool(t, { description: t, inputSchema: ANY }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
  // the bucket: the caller (0 on stdio) and the tool, so `other` stands for another caller
  server.use(redisRateLimit({ client, rate: 0.001, burst: 3, prefix: 'test:rate:', key: (req) => `${req.caller}:${req.target}`, ...options }))
  const input = new PassThrough()
  const lines = []
  let waiting = null
  const output = { write(chunk) { for (const l of Buffer.from(chunk).toString().split('\n')) if (l) lines.push(JSON.parse(l)); waiting?.() } }
  await serveStdio(server, { input, output })
  const ask = (msg) => new Promise((resolve) => {
    waiting = () => { const a = lines.find((l) => l.id === msg.id); if (a) resolve(a) }
    input.write(`${JSON.stringify(msg)}\n`)
  })
  return { ask, end: () => input.end() }
}

it('redisRateLimit: a caller over its rate is refused on both instances, another is not', async () => {
  const own = await startRedis()
  const clients = [createClient({ url: own.url }), createClient({ url: own.url })]
  try {
    await Promise.all(clients.map((c) => c.connect()))
    const [a, b] = await Promise.all(clients.map(limited))
    const order = [a, b, a, b, a]
    const answers = []
    for (const [i, s] of order.entries()) answers.push(await s.ask(call(i + 1, 'echo')))
    for (const ok of answers.slice(0, 3)) assert.ok(ok.result, JSON.stringify(ok))
    for (const refused of answers.slice(3)) {
      assert.equal(refused.error?.code, -31429, JSON.stringify(refused))
      assert.match(refused.error.message, /^Rate limit exceeded: retry after \d+ ms$/)
    }
    assert.ok((await b.ask(call(9, 'other'))).result, 'another bucket is unaffected')
    // the bucket is the core's: its key and fields are in Redis
    const tokens = await clients[0].hGet('test:rate:0:echo', 'tokens')
    assert.ok(Number(tokens) < 1, tokens)
    a.end(); b.end()
  } finally {
    for (const c of clients) await c.quit().catch(() => {})
    own.stop()
  }
})

// The core's failure policy (docs/rules.md §23.6): Redis gone, a request is admitted by
// default and refused with `failClosed: true`; each failure is reported.
it('redisRateLimit: with Redis stopped, requests are admitted by default and refused when failing closed', async () => {
  const own = await startRedis()
  const client = createClient({ url: own.url, socket: { reconnectStrategy: 50 } })
  client.on('error', () => {})
  try {
    await client.connect()
    own.stop()
    await until('the client sees Redis gone', () => !client.isReady)
    const failures = []
    const onError = (e, policy) => failures.push(policy)
    const open = await limited(client, { timeout: 300, onError })
    const closed = await limited(client, { timeout: 300, onError, failClosed: true })
    for (let i = 1; i <= 2; i++) assert.ok((await open.ask(call(i, 'echo'))).result, 'fails open by default')
    const refused = await closed.ask(call(3, 'echo'))
    assert.equal(refused.error?.code, -31429, JSON.stringify(refused))
    assert.equal(refused.error.message, 'Rate limit unavailable: request refused')
    assert.deepEqual(failures, ['open', 'open', 'closed'])
    open.end(); closed.end()
  } finally {
    await client.disconnect().catch(() => {})
    own.stop()
  }
})
