// Telemetry and middleware of `McpServer` (docs/operations.md): the core's observations
// (`ServerMachine.observe` / `pollObservation`) handed to sinks — OpenTelemetry spans and
// metrics through `@opentelemetry/api` (`otel`), one JSON line per request (`jsonLog`) —
// and one middleware shape on every request, at the core's gate (`server.use(async (req,
// next) => …)`, docs/rules.md §26.7),
// with a per-caller token bucket (`rateLimit`). The names, the outcome of each request and
// the trace parent are the core's; nothing here reads the protocol.
//
// Off (no sink, no middleware) the server pays one `!== null` branch per input.

/** The server's observation drain: created by the first `server.sink(…)`. */
export class Observer {
  constructor(server) {
    this.server = server
    this.sinks = []
    this.headers = new Map() // HTTP stream -> its POST's `traceparent` header
    this.names = server.engine.observeNames()
  }

  /** The `traceparent` header of the POST on `stream` (the span's parent when the
   * request's `_meta` names none). */
  header(stream, value) {
    if (!value) return
    const h = this.headers
    h.set(stream, value)
    if (h.size > 4096) h.delete(h.keys().next().value)
  }

  /** Every observation the machine holds, to every sink (after the outputs left). */
  drain() {
    const m = this.server.machine
    const now = Date.now()
    for (let o; (o = m.pollObservation(now)) !== null;) {
      if (o.type === 'request') {
        const stream = Number(o.stream)
        const h = this.headers.get(stream)
        if (h !== undefined) {
          this.headers.delete(stream)
          if (o.parent === null) o.parent = this.server.engine.parseTraceParent(h)
        }
        this.each('request', o)
      } else {
        this.each('refused', o)
      }
    }
  }

  /** A request reached the gate: the request span opens in the tracing sinks; the first
   * one's `within(fn)` runs `fn` with that span current (its handler). */
  start(g) {
    const header = this.headers.get(Number(g.stream))
    let within
    for (const s of this.sinks) {
      if (typeof s.start !== 'function') continue
      try { within ??= s.start(g, header) } catch (err) { this.server.onerror(err) }
    }
    return within
  }

  /** A middleware refused `caller`'s request with RATE_LIMITED: a `rate` refusal. */
  rate(caller) {
    this.each('refused', { type: 'refused', limit: 'rate', caller, stream: 0, atMs: Date.now() })
  }

  each(what, o) {
    for (const s of this.sinks) {
      try { s[what]?.(o) } catch (err) { this.server.onerror(err) }
    }
  }
}

/** Adds `sink` (`{attach?(server), request?(obs), refused?(obs)}`) and turns the core's
 * observations on. `null` (e.g. `otel()` without `@opentelemetry/api`) adds nothing. */
export function addSink(server, sink) {
  if (sink === null || sink === undefined) return server
  if (server._obs === null) {
    server._obs = new Observer(server)
    server.machine.observe(true)
  }
  sink.attach?.(server)
  server._obs.sinks.push(sink)
  if (server._broker) sink.reportBroker?.(server._broker) // a RedisBroker started before
  if (typeof sink.start === 'function' && server.machine.gate) {
    // The request span opens at the core's gate and is current while the handler runs.
    server._tracing = true
    server.machine.gate(true)
  }
  return server
}

// --- middleware --------------------------------------------------------------------------

const TARGET = { callTool: 'name', getPrompt: 'name', readResource: 'uri' }

/** Runs `run(ctx)` (the handler) through `chain`: each `m(req, next)` sees the request
 * before the handler and its answer after (`await next()`), may refuse it (throw an
 * `McpError`, e.g. `RATE_LIMITED`), annotate it (`req.annotate(key, value)`: the span's
 * attributes and the log line) and time it. The first added runs first. */
export function runChain(server, chain, e, ctx, run) {
  const machine = server.machine
  const key = TARGET[e.type]
  const req = {
    method: ctx.mcpReq.method,
    target: key ? e[key] : undefined,
    caller: e.auth ?? 0,
    principal: ctx.principal,
    params: e.params,
    arguments: e.arguments,
    signal: ctx.mcpReq.signal,
    ctx,
    startMs: Date.now(),
    rateLimited: server._rateLimited, // the core's RATE_LIMITED code
    annotations: {},
    annotate(k, v) {
      this.annotations[k] = String(v)
      machine.annotate(e.handle, String(k), String(v))
    },
  }
  const dispatch = async (i) => {
    if (i === chain.length) return run(ctx)
    let called = false
    return chain[i](req, () => {
      if (called) throw new Error('middleware: next() called twice')
      called = true
      return dispatch(i + 1)
    })
  }
  return dispatch(0).catch((err) => {
    if (err?.code === server._rateLimited) server._obs?.rate(req.caller)
    throw err
  })
}

/** Runs `chain` at the core's gate (docs/rules.md §26.7) for gated request `g` (the
 * machine's `gateRequest`; `bytes` its message, parsed only if a middleware reads `params`):
 * the innermost `next()` admits it (`admit()` hands the bytes to the machine) and gives the
 * handler's result, or `undefined` when the core answered; a throw before it refuses it
 * (`refuse(code, message, annotations)`). */
export function gateChain(server, g, bytes, admit, refuse) {
  const chain = server._mw ?? []
  const within = server._tracing ? server._obs?.start(g) : undefined
  let parsed
  const body = () => {
    if (parsed === undefined) {
      try { parsed = JSON.parse(typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes))?.params ?? null } catch { parsed = null }
    }
    return parsed
  }
  const caller = Number(g.caller)
  const req = {
    method: g.method,
    target: g.target ?? undefined,
    caller,
    principal: caller ? server._principals.get(caller) : undefined,
    get params() { return body() ?? undefined },
    get arguments() { return body()?.arguments },
    signal: undefined,
    ctx: undefined,
    startMs: Date.now(),
    rateLimited: server._rateLimited,
    annotations: {},
    annotate(k, v) { this.annotations[k] = String(v) },
  }
  let admitted = false
  const notes = () => Object.entries(req.annotations)
  const inner = () => new Promise((resolve, reject) => {
    admitted = true
    server.machine.gateAdmit(g.gate, notes())
    const gated = { req, resolve, reject, within }
    server._gated = gated
    try {
      admit()
    } finally {
      if (server._gated === gated) { server._gated = null; resolve(undefined) } // the core answered
    }
  })
  const dispatch = async (i) => {
    if (i === chain.length) return inner()
    let called = false
    return chain[i](req, () => {
      if (called) throw new Error('middleware: next() called twice')
      called = true
      return dispatch(i + 1)
    })
  }
  dispatch(0).catch((err) => {
    if (admitted) return // the handler's failure: already answered
    if (err?.code === server._rateLimited) server._obs?.rate(caller)
    const code = typeof err?.code === 'number' ? err.code : -32603
    const message = typeof err?.message === 'string' && err.message ? err.message : 'Internal error'
    refuse(code, message, notes())
  })
}

/**
 * A per-caller token bucket (`req.caller`, or `key(req)`): `burst` tokens refilled at `rate`
 * per second, one per request; an empty bucket refuses with the core's `RATE_LIMITED`
 * (-31429) and `Rate limit exceeded: retry after N ms`, counted as a `rate` refusal.
 * In-process: each instance keeps its own buckets.
 */
export function rateLimit({ rate, burst = rate, key = (req) => req.caller } = {}) {
  if (!(rate > 0)) throw new TypeError('rateLimit: rate must be > 0 (requests per second)')
  const cap = Math.max(1, burst)
  const buckets = new Map() // key -> [tokens, atMs]
  return function rateLimited(req, next) {
    const now = Date.now()
    const k = key(req)
    if (buckets.size >= 65536 && !buckets.has(k)) {
      for (const [b, [t, at]] of buckets) if (t + ((now - at) / 1000) * rate >= cap) buckets.delete(b)
    }
    const [tokens, at] = buckets.get(k) ?? [cap, now]
    const refilled = Math.min(cap, tokens + ((now - at) / 1000) * rate)
    if (refilled >= 1) {
      buckets.set(k, [refilled - 1, now])
      return next()
    }
    buckets.set(k, [refilled, now])
    const wait = Math.ceil(((1 - refilled) / rate) * 1000)
    throw Object.assign(new Error(`Rate limit exceeded: retry after ${wait} ms`), { name: 'McpError', code: req.rateLimited })
  }
}

// --- sinks -------------------------------------------------------------------------------

const stderrLine = () => {
  const err = globalThis.process?.stderr
  return err ? (line) => err.write(`${line}\n`) : (line) => console.error(line)
}

/** One JSON object per line for each finished request (`ts_ms`, `method`, `request_id`,
 * `target`, `caller`, `era`, `session_id`, `outcome`, `error_type`, `duration_ms`,
 * `trace_id`, `annotations`) and each refusal (`ts_ms`, `refused`, `caller`); to standard
 * error by default (stdout is the stdio transport's). */
export function jsonLog({ write = stderrLine() } = {}) {
  return {
    request(o) {
      write(JSON.stringify({
        ts_ms: o.endMs,
        method: o.method,
        request_id: o.requestId,
        target: o.target,
        caller: Number(o.caller),
        era: o.era,
        session_id: o.sessionId,
        outcome: o.outcome,
        error_type: o.errorType,
        duration_ms: o.endMs - o.startMs,
        trace_id: o.parent?.traceId ?? null,
        annotations: o.annotations,
      }))
    },
    refused(o) {
      write(JSON.stringify({ ts_ms: o.atMs, refused: o.limit, caller: Number(o.caller) }))
    },
  }
}

const API = '@opentelemetry/api' // a variable: bundlers leave the optional import alone

/**
 * OpenTelemetry spans and metrics on `@opentelemetry/api` (an optional peer dependency):
 * `api` as given, else imported; `null` when it is not installed (no-op). A span per
 * request (SERVER kind, the core's name and attributes, the parent from `_meta.traceparent`
 * or the HTTP `traceparent` header, its receipt and answer times), the counters of requests
 * by method and outcome and of refusals by limit, the duration histogram, and the open
 * listens and sessions as observable gauges. Providers: `tracerProvider` / `meterProvider`,
 * else the API's globals.
 */
export async function otel({ api, tracerProvider, meterProvider, name = 'mcp-context' } = {}) {
  if (!api) {
    try { api = await import(API) } catch { return null }
  }
  const tracer = (tracerProvider ?? api.trace.getTracerProvider()).getTracer(name)
  const parentContext = (parent, tracestate) => {
    if (!parent) return api.ROOT_CONTEXT
    const sc = { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.traceFlags, isRemote: true }
    if (tracestate && api.createTraceState) sc.traceState = api.createTraceState(tracestate)
    return api.trace.setSpanContext(api.ROOT_CONTEXT, sc)
  }
  const meter = (meterProvider ?? api.metrics.getMeterProvider()).getMeter(name)
  let n = null
  let requests, duration, refusals
  let engine = null
  const open = new Map() // `${stream}/${requestId}` -> the span opened at the gate
  return {
    attach(server) {
      engine = server.engine
      if (n === null) {
        n = server.engine.observeNames()
        requests = meter.createCounter(n.requests, { description: 'MCP requests by method and outcome' })
        duration = meter.createHistogram(n.serverOperationDuration, { unit: 's', description: 'MCP request duration, receipt to answer' })
        refusals = meter.createCounter(n.refusals, { description: 'Requests refused by a limit' })
      }
      const counts = () => server.machine.openCounts()
      meter.createObservableGauge(n.openListens, { description: 'Open listen subscriptions' })
        .addCallback((r) => r.observe(counts().listens))
      meter.createObservableGauge(n.openSessions, { description: 'Open 2025-11-25 HTTP sessions' })
        .addCallback((r) => r.observe(counts().sessions))
    },
    /** At the gate: opens the request span (parent: `_meta.traceparent`, else the HTTP
     * header's) and returns `within(fn)`, which runs the handler with it current. */
    start(g, header) {
      const parent = (g.traceparent && engine.parseTraceParent(g.traceparent)) || (header && engine.parseTraceParent(header)) || null
      const span = tracer.startSpan(g.spanName, { kind: api.SpanKind.SERVER, startTime: Number(g.startMs) }, parentContext(parent, g.tracestate))
      if (open.size >= 4096) open.delete(open.keys().next().value) // observations never drained
      open.set(`${g.stream}/${g.requestId}`, span)
      const ctx = api.trace.setSpan(api.context.active(), span)
      return (fn) => api.context.with(ctx, fn)
    },
    request(o) {
      const key = `${o.stream}/${o.requestId}`
      let span = open.get(key)
      if (span !== undefined) {
        open.delete(key)
        span.setAttributes(o.attributes)
      } else {
        span = tracer.startSpan(o.spanName, { kind: api.SpanKind.SERVER, startTime: o.startMs, attributes: o.attributes }, parentContext(o.parent, o.tracestate))
      }
      if (o.errorType !== null) span.setStatus({ code: api.SpanStatusCode.ERROR, message: o.errorType })
      span.end(o.endMs)
      const labels = { [n.methodName]: o.method, outcome: o.outcome }
      if (o.errorType !== null) labels[n.errorType] = o.errorType
      requests.add(1, labels)
      labels[n.networkTransport] = o.attributes[n.networkTransport]
      duration.record((o.endMs - o.startMs) / 1000, labels)
    },
    refused(o) {
      refusals.add(1, { [n.limit]: o.limit })
    },
    /** A `RedisBroker` on the same server: its metrics on this sink's meter provider. */
    reportBroker(broker) {
      broker.reportMetrics({ api, meterProvider, name }).catch(() => {})
    },
  }
}
