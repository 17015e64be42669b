// The Node package's telemetry exported over OTLP/HTTP (protobuf) to a receiver on loopback
// (docs/operations.md, "Tests with a collector"), on both engines: the OpenTelemetry JS SDK's
// OTLP exporters (`@opentelemetry/exporter-trace-otlp-proto` behind a batch span processor,
// `@opentelemetry/exporter-metrics-otlp-proto` behind a periodic reader) under `otel()`, a
// scripted HTTP session (a list, a read, a prompt, a tool error, an unknown resource, an answer
// over the response cap, a call over the caller's rate), one request traced by
// `_meta.traceparent` and one by the `traceparent` header; then what reached
// tests/otlp/receiver.py: span names, kinds, attributes, the client's trace and parent ids,
// statuses and the metric points. Then a 2025-11-25 session (`mcp.session.id`, the
// open-sessions gauge) and stdio plus the fetch handler (the `pipe` and `tcp` transports).
// The receiver runs on the Python of `MCP_OTLP_PYTHON` (one with `opentelemetry-proto`;
// ./test.sh passes its venv's); without it the tests are skipped.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { createInterface } from 'node:readline'
import { describe, it, before, after } from 'node:test'

import * as api from '@opentelemetry/api'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'

const PV = '2026-07-28'
const META_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const META_PARENT = '00f067aa0ba902b7'
const HEADER_TRACE = '0af7651916cd43dd8448eb211c80319c'
const HEADER_PARENT = 'b7ad6b7169203331'
const PYTHON = process.env.MCP_OTLP_PYTHON
const RECEIVER = new URL('../otlp/receiver.py', import.meta.url).pathname
const skip = PYTHON ? false : 'MCP_OTLP_PYTHON is not set (a python with opentelemetry-proto; ./test.sh sets it)'

/** tests/otlp/receiver.py on a free port; it exits when its stdin closes. */
async function receiver() {
  const child = spawn(PYTHON, [RECEIVER, '--until-stdin-closes'], { stdio: ['pipe', 'pipe', 'inherit'] })
  const [line] = await once(createInterface({ input: child.stdout }), 'line')
  const endpoint = `http://127.0.0.1:${Number(line)}`
  return {
    endpoint,
    received: async (query) => (await fetch(`${endpoint}/received?${query}`)).json(),
    reset: () => fetch(`${endpoint}/reset`, { method: 'POST' }),
    stop: async () => { child.stdin.end(); await once(child, 'exit') },
  }
}

const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }), jsonSchema: { input: () => ({ type: 'object' }) } } }

function demo(pkg) {
  const server = new pkg.McpServer({ name: 'otlp', version: '1.0.0' })
  server.registerResource('notes', new pkg.ResourceTemplate('notes://{id}', { list: undefined }), {}, async (uri, vars) => {
    if (vars.id !== '1') throw new pkg.McpError(-32002, 'Resource not found')
    return { contents: [{ uri: uri.href, text: 'hi' }] }
  })
  server.registerPrompt('greet', { description: 'hello' }, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }))
  server.registerTool('boom', { description: 'fails', inputSchema: ANY }, async () => { throw new Error('boom') })
  server.registerTool('big', { description: 'a big answer', inputSchema: ANY }, async () => ({ content: [{ type: 'text', text: 'x'.repeat(4096) }] }))
  server.registerTool('echo', { description: 'echo', inputSchema: ANY }, async () => ({ content: [{ type: 'text', text: 'hi' }] }))
  return server
}

const message = (id, method, params, traceparent) => ({
  jsonrpc: '2.0', id, method,
  params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {}, ...(traceparent ? { traceparent } : {}) } },
})

const post = (msg, extra = {}) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PV,
    'mcp-method': msg.method, ...(msg.params.name ?? msg.params.uri ? { 'mcp-name': msg.params.name ?? msg.params.uri } : {}), ...extra,
  },
  body: JSON.stringify(msg),
})

/** The OTLP/HTTP protobuf exporters: spans through a batch processor, metrics through a
 * periodic reader (flushed by the test). */
function providers(endpoint, service) {
  const resource = resourceFromAttributes({ 'service.name': service })
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] })
  const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }), exportIntervalMillis: 3_600_000 })
  return { tracerProvider, meterProvider: new MeterProvider({ resource, readers: [reader] }) }
}

const SCRIPT = [
  [message(1, 'resources/list', {}, `00-${META_TRACE}-${META_PARENT}-01`)],
  [message(2, 'resources/read', { uri: 'notes://1' }), { traceparent: `00-${HEADER_TRACE}-${HEADER_PARENT}-01` }],
  [message(3, 'prompts/get', { name: 'greet' })],
  [message(4, 'tools/call', { name: 'boom', arguments: {} })],
  [message(5, 'resources/read', { uri: 'notes://2' })],
  [message(6, 'tools/call', { name: 'big', arguments: {} })],
  [message(7, 'tools/call', { name: 'echo', arguments: {} })],
]

for (const [engine, specifier] of [['napi', '../../bindings-node/server.mjs'], ['wasm', '../../bindings-node/wasm/index.mjs']]) describe(`OTLP export on ${engine}`, { skip }, () => {
  let rx
  before(async () => { rx = await receiver() })
  after(async () => { await rx.stop() })

  it('a scripted HTTP session: spans, parents, attributes and metrics at the receiver', async () => {
    const pkg = await import(specifier)
    const service = `otlp-node-${engine}`
    const { tracerProvider, meterProvider } = providers(rx.endpoint, service)
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider, meterProvider }))
    // Five calls pass (both reads, the prompt, boom, big: cut after it ran), the sixth is over
    // the rate; lists have their own bucket, whether or not the middleware sees them.
    server.use(pkg.rateLimit({ rate: 0.001, burst: 5, key: (req) => (req.method === 'resources/list' ? 'lists' : req.caller) }))
    server.limitResponses(1024)
    const srv = await pkg.serveHttp(server)
    const url = `http://127.0.0.1:${srv.address().port}/mcp`
    const answers = []
    try {
      for (const [msg, extra] of SCRIPT) answers.push(await (await fetch(url, post(msg, extra))).json())
    } finally {
      srv.close()
    }
    for (const a of answers.slice(0, 3)) assert.ok(a.result, JSON.stringify(a))
    assert.equal(answers[3].result.isError, true)
    const notFound = answers[4].error.code
    assert.equal(answers[5].error?.code, -31413, JSON.stringify(answers[5]))
    assert.equal(answers[6].error?.code, -31429, JSON.stringify(answers[6]))

    await tracerProvider.forceFlush()
    await meterProvider.forceFlush()
    const got = await rx.received('spans=7&metric=mcp_context.server.refusals&timeout=20')
    await tracerProvider.shutdown()
    await meterProvider.shutdown()
    await rx.reset()

    const spans = new Map(got.spans.map((s) => [s.attributes['jsonrpc.request.id'], s]))
    assert.deepEqual([...spans.keys()].sort(), ['1', '2', '3', '4', '5', '6', '7'])
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((i) => spans.get(String(i)).name), [
      'resources/list', 'resources/read', 'prompts/get greet', 'tools/call boom', 'resources/read', 'tools/call big', 'tools/call echo',
    ])
    for (const s of spans.values()) {
      assert.equal(s.kind, 'SERVER')
      assert.equal(s.resource['service.name'], service)
      assert.equal(s.attributes['network.transport'], 'tcp')
      assert.equal(s.attributes['mcp.protocol.version'], PV)
    }
    const at = (id) => spans.get(id)
    assert.equal(at('1').trace_id, META_TRACE)
    assert.equal(at('1').parent_span_id, META_PARENT)
    assert.equal(at('1').attributes['mcp.method.name'], 'resources/list')
    assert.equal(at('1').status.code, 'UNSET')
    assert.equal(at('2').trace_id, HEADER_TRACE)
    assert.equal(at('2').parent_span_id, HEADER_PARENT)
    assert.equal(at('2').attributes['mcp.resource.uri'], 'notes://1')
    assert.equal(at('2').attributes['error.type'], undefined)
    assert.equal(at('3').attributes['gen_ai.prompt.name'], 'greet')
    assert.equal(at('3').parent_span_id, null) // no traceparent: a new trace
    assert.equal(at('4').attributes['gen_ai.tool.name'], 'boom')
    assert.equal(at('4').attributes['gen_ai.operation.name'], 'execute_tool')
    assert.equal(at('4').attributes['error.type'], 'tool_error')
    assert.deepEqual(at('4').status, { code: 'ERROR', message: 'tool_error' })
    assert.equal(at('5').attributes['mcp.resource.uri'], 'notes://2')
    assert.equal(at('5').attributes['error.type'], String(notFound))
    assert.equal(at('5').attributes['rpc.response.status_code'], String(notFound))
    assert.equal(at('6').attributes['error.type'], '-31413')
    assert.equal(at('7').attributes['error.type'], '-31429')

    const requests = Object.fromEntries(got.latest['mcp_context.server.requests'].map((p) => {
      assert.equal(p.type, 'sum')
      assert.equal(p.monotonic, true)
      const a = p.attributes
      return [`${a['mcp.method.name']} ${a.outcome} ${a['error.type'] ?? ''}`, p.value]
    }))
    assert.deepEqual(requests, {
      'resources/list ok ': 1,
      'resources/read ok ': 1,
      'prompts/get ok ': 1,
      'tools/call tool_error tool_error': 1,
      [`resources/read error ${notFound}`]: 1,
      'tools/call error -31413': 1,
      'tools/call error -31429': 1,
    })
    const duration = got.latest['mcp.server.operation.duration']
    assert.ok(duration.every((p) => p.type === 'histogram' && p.unit === 's'))
    assert.equal(duration.reduce((n, p) => n + p.count, 0), 7)
    const refusals = Object.fromEntries(got.latest['mcp_context.server.refusals'].map((p) => [p.attributes['mcp_context.limit'], p.value]))
    assert.deepEqual(refusals, { rate: 1, response: 1 })
  })

  it('a 2025-11-25 session: mcp.session.id on its spans, the open-sessions gauge', async () => {
    const pkg = await import(specifier)
    const { tracerProvider, meterProvider } = providers(rx.endpoint, `otlp-node-${engine}`)
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider, meterProvider }))
    const srv = await pkg.serveHttp(server)
    const url = `http://127.0.0.1:${srv.address().port}/mcp`
    const send = (body, headers = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) })
    let sid, answer
    try {
      const init = await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
      sid = init.headers.get('mcp-session-id')
      await init.text()
      const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' }
      const initialized = await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)
      assert.equal(initialized.status, 202)
      await initialized.text()
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: {} } }
      answer = await (await send(call, { ...h, traceparent: `00-${HEADER_TRACE}-${HEADER_PARENT}-01` })).json()
    } finally {
      srv.close()
    }
    assert.equal(answer.result?.content[0].text, 'hi', JSON.stringify(answer))
    await tracerProvider.forceFlush()
    await meterProvider.forceFlush()
    const got = await rx.received('spans=2&metric=mcp_context.server.open_sessions&timeout=20')
    await tracerProvider.shutdown()
    await meterProvider.shutdown()
    await rx.reset()

    assert.deepEqual(got.spans.map((x) => x.attributes['mcp.method.name']).sort(), ['initialize', 'tools/call'])
    const echo = got.spans.find((x) => x.name === 'tools/call echo')
    assert.equal(echo.attributes['mcp.session.id'], sid)
    assert.equal(echo.trace_id, HEADER_TRACE)
    assert.equal(echo.parent_span_id, HEADER_PARENT)
    const gauge = got.latest['mcp_context.server.open_sessions']
    assert.deepEqual(gauge.map((p) => [p.type, p.value]), [['gauge', 1]])
  })

  it('stdio and the fetch handler: the pipe and tcp transports, the _meta and header parents', async () => {
    const pkg = await import(specifier)
    const { tracerProvider, meterProvider } = providers(rx.endpoint, `otlp-node-${engine}`)
    const server = demo(pkg)
    server.sink(await pkg.otel({ api, tracerProvider, meterProvider }))
    const input = new PassThrough()
    const lines = []
    let waiting = null
    await pkg.serveStdio(server, { input, output: { write(chunk) { lines.push(JSON.parse(Buffer.from(chunk).toString().trimEnd())); waiting?.() } } })
    const ask = (msg) => new Promise((resolve) => {
      waiting = () => { const a = lines.find((l) => l.id === msg.id); if (a) resolve(a) }
      input.write(`${JSON.stringify(msg)}\n`)
    })
    const read = await ask(message(1, 'resources/read', { uri: 'notes://1' }, `00-${META_TRACE}-${META_PARENT}-01`))
    assert.equal(read.result.contents[0].text, 'hi')
    assert.equal((await ask(message(2, 'tools/call', { name: 'boom', arguments: {} }))).result.isError, true)
    input.end()
    const url = 'http://127.0.0.1/mcp'
    const msg = message(3, 'prompts/get', { name: 'greet' })
    const fetched = await (await server.fetch(new Request(url, post(msg, { traceparent: `00-${HEADER_TRACE}-${HEADER_PARENT}-01` })))).json()
    assert.ok(fetched.result, JSON.stringify(fetched))
    await tracerProvider.forceFlush()
    await meterProvider.forceFlush()
    const got = await rx.received('spans=3&metric=mcp_context.server.requests&timeout=20')
    await tracerProvider.shutdown()
    await meterProvider.shutdown()
    await rx.reset()

    const by = Object.fromEntries(got.spans.map((x) => [x.attributes['jsonrpc.request.id'], x]))
    assert.deepEqual(['1', '2', '3'].map((i) => [by[i].name, by[i].attributes['network.transport']]), [
      ['resources/read', 'pipe'], ['tools/call boom', 'pipe'], ['prompts/get greet', 'tcp'],
    ])
    assert.deepEqual([by['1'].trace_id, by['1'].parent_span_id], [META_TRACE, META_PARENT])
    assert.equal(by['2'].parent_span_id, null)
    assert.deepEqual([by['3'].trace_id, by['3'].parent_span_id], [HEADER_TRACE, HEADER_PARENT])
    const outcomes = got.latest['mcp_context.server.requests'].map((p) => `${p.attributes['mcp.method.name']} ${p.attributes.outcome} ${p.value}`).sort()
    assert.deepEqual(outcomes, ['prompts/get ok 1', 'resources/read ok 1', 'tools/call tool_error 1'])
  })
})
