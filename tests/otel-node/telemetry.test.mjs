// The Node package's telemetry and middleware (docs/operations.md) against the real
// OpenTelemetry JS SDK (in-memory span and metric exporters), on both engines: a scripted
// session over stdio and over HTTP (fetch and node:http) gives one SERVER span per request
// with the core's attributes, parented by the client's `_meta.traceparent` (or the POST's
// `traceparent` header), the request/refusal counters and the duration histogram; the
// middleware sees, annotates, refuses and times; the per-caller rate limit answers
// RATE_LIMITED and counts a `rate` refusal; the response cap answers RESPONSE_TOO_LARGE;
// `jsonLog` writes one JSON line per request; nothing is observed without a sink.
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'

import * as api from '@opentelemetry/api'
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

const PV = '2026-07-28'
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const meta = (span) => ({
  'io.modelcontextprotocol/protocolVersion': PV,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...(span ? { traceparent: `00-${TRACE}-${span}-01` } : {}),
})
const call = (id, name, args = {}, span) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta(span) } })
const read = (id, uri, span) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri, _meta: meta(span) } })

function collectors() {
  const spans = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })
  const meterProvider = new MeterProvider({ readers: [reader] })
  /** name -> data points ({attributes, value}) after a collection. */
  const metrics = async () => {
    await reader.forceFlush()
    const out = new Map()
    for (const rm of exporter.getMetrics()) {
      for (const sm of rm.scopeMetrics) for (const m of sm.metrics) out.set(m.descriptor.name, m.dataPoints)
    }
    exporter.reset()
    return out
  }
  return { spans, tracerProvider, meterProvider, metrics }
}

// Any object: a Standard Schema that accepts every value (its JSON Schema: an object).
const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }), jsonSchema: { input: () => ({ type: 'object' }) } } }

function demo(pkg, options) {
  const server = new pkg.McpServer({ name: 'otel', version: '1.0.0' }, options)
  server.registerTool('echo', { description: 'echo', inputSchema: ANY }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))
  server.registerTool('boom', { description: 'fails', inputSchema: ANY }, async () => { throw new Error('boom') })
  server.registerTool('big', { description: 'a big answer', inputSchema: ANY }, async () => ({ content: [{ type: 'text', text: 'x'.repeat(4096) }] }))
  server.registerResource('note', 'notes://1', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }))
  return server
}

async function stdio(pkg, server) {
  const input = new PassThrough()
  const lines = []
  let waiting = null
  const output = { write(chunk) { lines.push(JSON.parse(Buffer.from(chunk).toString().trimEnd())); waiting?.() } }
  await pkg.serveStdio(server, { input, output })
  const ask = (msg) => new Promise((resolve) => {
    waiting = () => { const a = lines.find((l) => l.id === msg.id); if (a) resolve(a) }
    input.write(`${JSON.stringify(msg)}\n`)
  })
  return { ask, end: () => input.end() }
}

const post = (url, msg, extra = {}) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json', accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PV, 'mcp-method': msg.method, 'mcp-name': msg.params.name ?? msg.params.uri, ...extra,
  },
  body: JSON.stringify(msg),
})

const points = (m, name) => m.get(name) ?? []
const sum = (m, name, pred = () => true) => points(m, name).filter((p) => pred(p.attributes)).reduce((n, p) => n + (typeof p.value === 'number' ? p.value : p.value.count), 0)
const tick = () => new Promise((r) => setImmediate(r))

for (const [engine, specifier] of [['napi', '../../bindings-node/server.mjs'], ['wasm', '../../bindings-node/wasm/index.mjs']]) describe(`telemetry on ${engine}`, () => {
  it('stdio: a span per request with the core attributes, the _meta parent, the metrics', async () => {
    const pkg = await import(specifier)
    const c = collectors()
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider: c.tracerProvider, meterProvider: c.meterProvider }))
    const s = await stdio(pkg, server)
    const ok = await s.ask(call(1, 'echo', { a: 1 }, '00f067aa0ba902b7'))
    assert.equal(ok.result.content[0].text, '{"a":1}')
    const failed = await s.ask(call(2, 'boom'))
    assert.equal(failed.result.isError, true)
    const unknown = await s.ask(call(3, 'nope'))
    assert.ok(unknown.error)
    const r = await s.ask(read(4, 'notes://1', '1111111111111111'))
    assert.equal(r.result.contents[0].text, 'hi')
    await tick()
    const spans = c.spans.getFinishedSpans()
    assert.deepEqual(spans.map((x) => x.name), ['tools/call echo', 'tools/call boom', 'tools/call nope', 'resources/read'])
    const [echo, boom, nope, note] = spans
    assert.equal(echo.kind, api.SpanKind.SERVER)
    assert.equal(echo.attributes['mcp.method.name'], 'tools/call')
    assert.equal(echo.attributes['gen_ai.tool.name'], 'echo')
    assert.equal(echo.attributes['gen_ai.operation.name'], 'execute_tool')
    assert.equal(echo.attributes['jsonrpc.request.id'], '1')
    assert.equal(echo.attributes['network.transport'], 'pipe')
    assert.equal(echo.attributes['mcp.protocol.version'], PV)
    assert.equal(echo.attributes['error.type'], undefined)
    assert.equal(echo.spanContext().traceId, TRACE)
    assert.equal(echo.parentSpanContext?.spanId, '00f067aa0ba902b7')
    assert.equal(boom.attributes['error.type'], 'tool_error')
    assert.equal(boom.status.code, api.SpanStatusCode.ERROR)
    assert.equal(boom.parentSpanContext, undefined) // no traceparent: a root span
    assert.equal(nope.attributes['error.type'], String(unknown.error.code))
    assert.equal(nope.attributes['rpc.response.status_code'], String(unknown.error.code))
    assert.equal(note.attributes['mcp.resource.uri'], 'notes://1')
    assert.equal(note.parentSpanContext?.spanId, '1111111111111111')
    const m = await c.metrics()
    assert.equal(sum(m, 'mcp_context.server.requests', (a) => a['mcp.method.name'] === 'tools/call' && a.outcome === 'ok'), 1)
    assert.equal(sum(m, 'mcp_context.server.requests', (a) => a.outcome === 'tool_error'), 1)
    assert.equal(sum(m, 'mcp_context.server.requests', (a) => a.outcome === 'error'), 1)
    assert.equal(sum(m, 'mcp_context.server.requests', (a) => a['mcp.method.name'] === 'resources/read'), 1)
    assert.equal(sum(m, 'mcp.server.operation.duration'), 4) // the histogram's count
    assert.ok(points(m, 'mcp.server.operation.duration').every((p) => p.attributes['network.transport'] === 'pipe'))
    assert.equal(sum(m, 'mcp_context.server.open_listens'), 0)
    assert.equal(sum(m, 'mcp_context.server.open_sessions'), 0)
    s.end()
  })

  it('HTTP (fetch and node:http): the header traceparent parents a request without one in _meta; _meta wins', async () => {
    const pkg = await import(specifier)
    const c = collectors()
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider: c.tracerProvider, meterProvider: c.meterProvider }))
    const srv = await pkg.serveHttp(server)
    const url = `http://127.0.0.1:${srv.address().port}/mcp`
    try {
      const header = { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` }
      const a = await (await fetch(url, post(url, call(1, 'echo', { x: 1 }), header))).json()
      assert.equal(a.result.content[0].text, '{"x":1}')
      const b = await (await fetch(url, post(url, call(2, 'echo', {}, 'cccccccccccccccc'), header))).json()
      assert.ok(b.result)
      const d = await (await server.fetch(new Request(url, post(url, read(3, 'notes://1'), header)))).json()
      assert.equal(d.result.contents[0].text, 'hi')
      await tick()
      const spans = c.spans.getFinishedSpans()
      assert.equal(spans.length, 3)
      assert.equal(spans[0].spanContext().traceId, 'a'.repeat(32))
      assert.equal(spans[0].parentSpanContext?.spanId, 'b'.repeat(16))
      assert.equal(spans[0].attributes['network.transport'], 'tcp')
      assert.equal(spans[1].spanContext().traceId, TRACE) // _meta over the header
      assert.equal(spans[1].parentSpanContext?.spanId, 'cccccccccccccccc')
      assert.equal(spans[2].parentSpanContext?.spanId, 'b'.repeat(16)) // through server.fetch
      const m = await c.metrics()
      assert.equal(sum(m, 'mcp_context.server.requests'), 3)
    } finally {
      srv.close()
    }
  })

  it('middleware: sees, annotates, times, refuses; composable in order; the caller in context', async () => {
    const pkg = await import(specifier)
    const c = collectors()
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider: c.tracerProvider, meterProvider: c.meterProvider }))
    const seen = []
    server.use(async (req, next) => {
      seen.push(`outer ${req.method} ${req.target} caller=${req.caller}`)
      req.annotate('tenant', 'acme')
      const r = await next()
      seen.push(`outer after ${Date.now() - req.startMs >= 0}`)
      return r
    })
    server.use(async (req, next) => {
      seen.push('inner')
      if (req.arguments?.deny) throw new pkg.McpError(4003, 'denied by policy')
      return next()
    })
    const s = await stdio(pkg, server)
    const ok = await s.ask(call(1, 'echo', { a: 1 }))
    assert.equal(ok.result.content[0].text, '{"a":1}')
    const denied = await s.ask(call(2, 'echo', { deny: true }))
    assert.deepEqual([denied.error.code, denied.error.message], [4003, 'denied by policy'])
    await tick()
    assert.deepEqual(seen, ['outer tools/call echo caller=0', 'inner', 'outer after true', 'outer tools/call echo caller=0', 'inner'])
    const spans = c.spans.getFinishedSpans()
    assert.equal(spans[0].attributes.tenant, 'acme')
    assert.equal(spans[1].attributes['error.type'], '4003')
    s.end()
  })

  it('rateLimit: the request over a caller\'s rate gets RATE_LIMITED and is counted as a rate refusal', async () => {
    const pkg = await import(specifier)
    const c = collectors()
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider: c.tracerProvider, meterProvider: c.meterProvider }))
    server.use(pkg.rateLimit({ rate: 0.001, burst: 2 }))
    const s = await stdio(pkg, server)
    assert.ok((await s.ask(call(1, 'echo'))).result)
    assert.ok((await s.ask(call(2, 'echo'))).result)
    const third = await s.ask(call(3, 'echo'))
    assert.equal(third.error.code, -31429)
    assert.match(third.error.message, /^Rate limit exceeded: retry after \d+ ms$/)
    await tick()
    const m = await c.metrics()
    assert.equal(sum(m, 'mcp_context.server.refusals', (a) => a['mcp_context.limit'] === 'rate'), 1)
    assert.equal(sum(m, 'mcp_context.server.requests', (a) => a['error.type'] === '-31429'), 1)
    s.end()
  })

  it('limitResponses: an answer over the cap is RESPONSE_TOO_LARGE, a response refusal', async () => {
    const pkg = await import(specifier)
    const c = collectors()
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider: c.tracerProvider, meterProvider: c.meterProvider }))
    server.limitResponses(1024)
    const s = await stdio(pkg, server)
    const big = await s.ask(call(1, 'big'))
    assert.equal(big.error.code, -31413)
    assert.ok((await s.ask(call(2, 'echo'))).result)
    await tick()
    const m = await c.metrics()
    assert.equal(sum(m, 'mcp_context.server.refusals', (a) => a['mcp_context.limit'] === 'response'), 1)
    s.end()
  })

  it('jsonLog: one JSON line per request; without a sink nothing is observed; otel() without the API is null', async () => {
    const pkg = await import(specifier)
    const server = demo(pkg)
    const lines = []
    server.sink(pkg.jsonLog({ write: (l) => lines.push(JSON.parse(l)) }))
    server.use(async (req, next) => { req.annotate('who', 'me'); return next() })
    const s = await stdio(pkg, server)
    await s.ask(call(7, 'echo', {}, '00f067aa0ba902b7'))
    await s.ask(call(8, 'boom'))
    await tick()
    assert.equal(lines.length, 2)
    assert.deepEqual(
      { ...lines[0], ts_ms: 0, duration_ms: 0 },
      { ts_ms: 0, method: 'tools/call', request_id: '7', target: 'echo', caller: 0, era: PV, session_id: null, outcome: 'ok', error_type: null, duration_ms: 0, trace_id: TRACE, annotations: { who: 'me' } },
    )
    assert.equal(lines[1].error_type, 'tool_error')
    s.end()
    // Off: the machine records nothing.
    const quiet = demo(pkg)
    const q = await stdio(pkg, quiet)
    await q.ask(call(1, 'echo'))
    assert.equal(quiet._obs, null)
    assert.equal(quiet.machine.pollObservation(Date.now()), null)
    q.end()
    // The package's own import of @opentelemetry/api (not installed beside it): a no-op.
    assert.equal(await pkg.otel(), null)
    assert.equal(quiet.sink(null), quiet)
  })
})
