// An HTTP server of `./bench.sh --only offcost`: the knowledge base (examples/node/kb.mjs) on
// `serveHttp` (native engine) with telemetry off, or on: `otel()` on the OpenTelemetry JS SDK
// (a tracer provider whose spans go through a batch processor to an in-memory exporter, a
// meter provider with a reader that never exports during the run), as docs/operations.md
// describes. The SDK comes from tests/otel-node (its pinned lock, linked by bench.sh).
//   node benches/run/node-otel-http.mjs off|on PORT
import { createRequire } from 'node:module'

const [mode, portArg] = process.argv.slice(2)
const port = Number(portArg)
const pkg = await import('../../bindings-node/server.mjs')
const { createKb } = await import('../../examples/node/kb.mjs')
const server = createKb(pkg)
if (mode === 'on') {
  const sdk = createRequire(new URL('../../tests/otel-node/package.json', import.meta.url))
  const api = sdk('@opentelemetry/api')
  const { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } = sdk('@opentelemetry/sdk-trace-base')
  const { MeterProvider, PeriodicExportingMetricReader, InMemoryMetricExporter, AggregationTemporality } = sdk('@opentelemetry/sdk-metrics')
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new InMemorySpanExporter())] })
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 })
  const meterProvider = new MeterProvider({ readers: [reader] })
  server.sink(await pkg.otel({ api, tracerProvider, meterProvider }))
}
await pkg.serveHttp(server, { port, host: '127.0.0.1' })
console.log(`listening ${port}`)
