// The request span opens at the core's gate (docs/rules.md §26.7) and is current while the
// handler runs (`context.with`), on both engines, over stdio and fetch: a span the handler
// opens (after an await too) is its child, and the request span keeps the client's
// `traceparent` as its parent. A minimal AsyncLocalStorage context manager stands in for
// the SDK's (`@opentelemetry/context-async-hooks`), registered as the global one.
import assert from 'node:assert/strict'
import { AsyncLocalStorage } from 'node:async_hooks'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'

import * as api from '@opentelemetry/api'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

class LocalContextManager {
  constructor() { this.als = new AsyncLocalStorage() }
  active() { return this.als.getStore() ?? api.ROOT_CONTEXT }
  with(ctx, fn, thisArg, ...args) { return this.als.run(ctx, () => fn.call(thisArg, ...args)) }
  bind(_ctx, target) { return target }
  enable() { return this }
  disable() { this.als.disable(); return this }
}
api.context.setGlobalContextManager(new LocalContextManager())

const PV = '2026-07-28'
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'
const call = (id, name) => ({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: { name, arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {}, traceparent: `00-${TRACE}-${PARENT}-01` } },
})
const tick = () => new Promise((r) => setImmediate(r))

for (const [engine, specifier] of [['napi', '../../bindings-node/server.mjs'], ['wasm', '../../bindings-node/wasm/index.mjs']]) describe(`request spans on ${engine}`, () => {
  for (const runner of ['stdio', 'fetch']) {
    it(`a handler's span is a child of the request span (${runner})`, async () => {
      const pkg = await import(specifier)
      const spans = new InMemorySpanExporter()
      const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
      const inner = tracerProvider.getTracer('handler')
      const server = new pkg.McpServer({ name: 'traced', version: '1.0.0' })
      server.registerTool('sync_tool', { description: 'sync' }, () => {
        inner.startSpan('sync work').end()
        return { content: [] }
      })
      server.registerTool('async_tool', { description: 'async' }, async () => {
        await tick()
        inner.startSpan('async work').end()
        return { content: [] }
      })
      server.sink(await pkg.otel({ api, tracerProvider, meterProvider: new MeterProvider() }))
      const answers = []
      if (runner === 'stdio') {
        const input = new PassThrough()
        let waiting = null
        const output = { write(chunk) { for (const l of Buffer.from(chunk).toString().trim().split('\n')) answers.push(JSON.parse(l)); waiting?.() } }
        await pkg.serveStdio(server, { input, output })
        input.write(`${JSON.stringify(call(1, 'sync_tool'))}\n${JSON.stringify(call(2, 'async_tool'))}\n`)
        await new Promise((resolve) => { waiting = () => { if (answers.length >= 2) resolve() }; waiting() })
        input.end()
      } else {
        for (const msg of [call(1, 'sync_tool'), call(2, 'async_tool')]) {
          const r = await server.fetch(new Request('http://localhost/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PV, 'mcp-method': 'tools/call', 'mcp-name': msg.params.name },
            body: JSON.stringify(msg),
          }))
          answers.push(await r.json())
        }
      }
      assert.ok(answers.every((a) => a.result), JSON.stringify(answers))
      await tick()
      const got = new Map(spans.getFinishedSpans().map((s) => [s.name, s]))
      for (const [tool, work] of [['sync_tool', 'sync work'], ['async_tool', 'async work']]) {
        const request = got.get(`tools/call ${tool}`)
        const child = got.get(work)
        assert.ok(request && child, [...got.keys()].join(', '))
        assert.equal(request.parentSpanContext?.spanId, PARENT)
        assert.equal(request.spanContext().traceId, TRACE)
        assert.equal(child.parentSpanContext?.spanId, request.spanContext().spanId, `${work} is a child of ${request.name}`)
        assert.equal(child.spanContext().traceId, TRACE)
        assert.equal(request.attributes['gen_ai.tool.name'], tool)
      }
    })
  }
})
