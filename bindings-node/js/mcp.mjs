// The package layer: an `McpServer` with the official TypeScript SDK's call shapes
// (`registerResource`, `ResourceTemplate`, `registerPrompt`, `registerTool`) on the core's
// server machine, for either engine (the napi addon or the WebAssembly build). It owns no
// protocol rule: the machine validates, routes, pages, caches and answers; this layer only
// calls the application's handlers for the machine's events and hands their results back.
//
// The event dispatch (handlers, their context, answering each event once) is `Dispatcher` in
// js/dispatch.mjs, which `McpServer` extends; the schema helpers are js/schema.mjs.
//
// `bind(engine)` returns the classes for one engine. `engine` provides `ServerMachine` (the
// addon's API) and the HTTP checks (`http.mjs`).

import { fetchHandler } from './http.mjs'
import { addSink, gateChain } from './telemetry.mjs'
import { Dispatcher, McpError, ResourceNotFoundError } from './dispatch.mjs'
import { COMPLETE, asSchema, jsonSchemaOf } from './schema.mjs'

export { McpError, ResourceNotFoundError } from './dispatch.mjs'
export { completable } from './schema.mjs'

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k)

/** A URI template plus its list and completion callbacks (the SDK's shape). */
export class ResourceTemplate {
  constructor(uriTemplate, callbacks) {
    if (!callbacks || !('list' in callbacks)) {
      throw new TypeError('new ResourceTemplate(uri, { list, complete }): list is required (undefined for none)')
    }
    this._uriTemplate = String(uriTemplate)
    this._callbacks = callbacks
  }
  get uriTemplate() { return this._uriTemplate }
  get listCallback() { return this._callbacks.list }
  completeCallback(variable) {
    const c = this._callbacks.complete
    return c && hasOwn(c, variable) ? c[variable] : undefined
  }
}

const pick = (o, keys) => {
  const out = {}
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k]
  return out
}
const RESOURCE_KEYS = ['title', 'description', 'mimeType', 'annotations', 'size', 'icons', '_meta']

/**
 * Binds the package layer to one engine.
 * @param {object} engine `{ ServerMachine }` (the addon, or `wasm/engine.mjs`)
 */
export function bind(engine) {
  class McpServer extends Dispatcher {
    /**
     * @param {{name: string, version: string, title?: string}} serverInfo
     * @param {{instructions?: string, requestTimeoutMs?: number, pageSize?: number, stateKeys?: {id: number, secret: Uint8Array}[], http?: {path?: string | null, maxBody?: number, allowedHosts?: string[], allowedOrigins?: string[]}, peer?: (request: Request) => string | null | undefined}} [options]
     */
    constructor(serverInfo, options = {}) {
      super()
      this.engine = engine
      // Every other option is the machine's configuration as is: `instructions`,
      // `stateKeys`, `http`, `legacySessions` and the core's limits (`pageSize`,
      // `requestTimeoutMs`, `maxLine`, `maxSessions`, `maxSessionsPerPeer`,
      // `sessionHandshakeMs`, `sessionIdleMs`, `maxPending`, …).
      // `verifier`: the protected endpoint's token check (`protect`); `protection` is the
      // machine's.
      const { peer, verifier, ...config } = options
      this.machine = new engine.ServerMachine({ ...config, serverInfo, completionEvents: true })
      // The client address of a web-standard request (`fetch`), for the per-peer bound on
      // 2025-11-25 sessions: the caller's, e.g. `(r) => r.headers.get('cf-connecting-ip')`.
      this.peerOf = peer
      this._dynamic = false // the machine asks for our own list pages (templates' `list`)
      this._pageSize = this.limit('pageSize')
      this._resources = new Map() // uri -> { handler }
      this._templates = new Map() // uriTemplate -> { template, handler }
      this._prompts = new Map() // name -> { schema, handler, completers }
      this._tools = null // name -> { tool, schema, handler }, once a tool is registered
      this._methods = new Map() // extension method -> handler
      this._sinks = new Map() // stream -> (transmit) => void
      this._nextStream = 1 // every runner's streams come from here: none shares an id
      // The outputs of each input call, handed back by that call (no `pollOutput` or
      // `pollTimeout` calls): `_flush()` delivers them.
      this._outbox = []
      this._outbox.deadline = null
      this._inflight = new Map() // handle -> Inflight (its AbortSignal)
      this._timer = undefined
      this._draining = false
      this._again = false
      this.onerror = (err) => { console.error('mcp-context:', err) }
      // The output-ready signal: whatever queues output (an answer, a notification, a
      // deadline) drains at once, not on the next input.
      this.machine.setWaker(() => this._pump())
      this.fetch = fetchHandler(this)
      this._verifier = verifier
      this._principals = new Map() // caller id (the machine's `auth`) -> verified caller
      if (config.protection && typeof verifier !== 'function') throw new TypeError('protection needs a verifier function')
      this._obs = null // telemetry (`sink`): the observation drain, once a sink is added
      this._mw = null // middleware (`use`), once one is added
      this._gated = null // the gate's request whose handler event comes next (js/telemetry.mjs)
      this._tracing = false // a sink opens request spans at the gate (js/telemetry.mjs)
    }

    // --- telemetry and middleware (js/telemetry.mjs, docs/operations.md) ------------------

    /** Sends the core's observations to `sink` (`otel()`, `jsonLog()`, or your own
     * `{request(obs), refused(obs)}`), turning them on; several sinks get the same. */
    sink(sink) { return addSink(this, sink) }

    /** Runs `middleware(req, next)` on every request, after those added before it, at the
     * core's gate (docs/rules.md §26.7): the requests the core answers itself
     * (`server/discover`, lists, static reads) meet it too. `req` is `{method, target,
     * caller, principal, params, arguments, startMs, annotate(key, value)}` (`ctx` and
     * `signal` once a handler runs); `await next()` hands the request to the machine and
     * gives the handler's result (`undefined` when the core answered); throwing (an
     * `McpError`) refuses the request. */
    use(middleware) {
      if (typeof middleware !== 'function') throw new TypeError('use: middleware must be a function (req, next) => …')
      this._rateLimited ??= this.engine.observeNames().rateLimited
      ;(this._mw ??= []).push(middleware)
      if (this.machine.gate) this.machine.gate(true)
      return this
    }

    /** Answers over `max` bytes become the error RESPONSE_TOO_LARGE (-31413), counted as a
     * `response` refusal (`null`: no cap). */
    limitResponses(max) { this.machine.limitResponses(max ?? null); return this }

    /**
     * Makes the HTTP endpoint an OAuth 2.1 protected resource (docs/authorization.md):
     * `protection` `{resource, authorizationServers, scopesSupported?, requiredScopes?,
     * tokenRequired?, resourceName?, resourceDocumentation?}`; `verifier(token)` resolves a
     * bearer token to `{subject?, clientId?, scopes?, audience?, expiresAtMs?}`, or throws
     * (or returns null) to refuse it (e.g. `jwtVerifier` of `mcp-context-primitives/jwt`).
     * The core checks the audience, expiry and scopes. Scope requirements are cleared.
     */
    protect(protection, verifier) {
      if (typeof verifier !== 'function') throw new TypeError('protect: verifier must be a function')
      this.machine.setProtection(protection)
      this._verifier = verifier
      return this
    }

    /**
     * Requires `scopes` of every caller of an item: `kind` `'resource'` (`key` its URI),
     * `'template'` (its URI template), `'prompt'` or `'tool'` (its name). Unlisted to callers
     * without them; a call is refused with 403 `insufficient_scope`.
     */
    requireScopes(kind, key, scopes) {
      this.machine.requireScopes(kind, key, scopes)
      return this
    }

    /** `registerResource(name, uri | ResourceTemplate, metadata, handler)`. */
    registerResource(name, uriOrTemplate, meta, handler) {
      meta ??= {}
      if (typeof handler !== 'function') throw new TypeError('registerResource: the read handler must be a function')
      const cache = meta.cacheHint ?? null
      if (uriOrTemplate instanceof ResourceTemplate) {
        const uriTemplate = uriOrTemplate.uriTemplate
        const completions = this._hasCompleter(uriOrTemplate) ? null : undefined
        this.machine.addTemplate({ uriTemplate, name, ...pick(meta, RESOURCE_KEYS) }, cache, completions)
        this._templates.set(uriTemplate, { template: uriOrTemplate, handler })
        this._listsChanged()
        return { name, uriTemplate, remove: () => { this._templates.delete(uriTemplate); this._listsChanged(); return this.machine.removeTemplate(uriTemplate) } }
      }
      const uri = String(uriOrTemplate)
      this.machine.addResource({ uri, name, ...pick(meta, RESOURCE_KEYS) }, null, cache)
      this._resources.set(uri, { handler })
      return { name, uri, remove: () => { this._resources.delete(uri); return this.machine.removeResource(uri) } }
    }

    _hasCompleter(t) {
      const c = t._callbacks.complete
      return c && Object.keys(c).length > 0
    }

    // The core's dynamic lists are on while a template has a `list` callback (without one,
    // the last registered page carries no cursor into an empty phase of ours).
    _listsChanged() {
      const on = [...this._templates.values()].some((t) => t.template.listCallback)
      if (on !== this._dynamic) { this.machine.setDynamicResources(on); this._dynamic = on }
    }

    /** `registerPrompt(name, { title, description, argsSchema }, handler)`. */
    registerPrompt(name, config, handler) {
      config ??= {}
      if (typeof handler !== 'function') throw new TypeError('registerPrompt: the handler must be a function')
      const schema = asSchema(config.argsSchema)
      const json = schema ? jsonSchemaOf(schema) : null
      const args = []
      const completions = {}
      for (const [argName, p] of Object.entries(json?.properties ?? {})) {
        args.push({ name: argName, ...(p.description ? { description: p.description } : {}), required: (json.required ?? []).includes(argName) })
        if (Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string')) completions[argName] = p.enum
      }
      const completers = {}
      const shape = config.argsSchema?.shape ?? (config.argsSchema?.['~standard'] ? {} : config.argsSchema ?? {})
      for (const [argName, s] of Object.entries(shape)) {
        const f = s?.[COMPLETE] ?? s?.unwrap?.()?.[COMPLETE]
        if (typeof f === 'function') { completers[argName] = f; delete completions[argName] }
      }
      const prompt = { name, ...pick(config, ['title', 'description', 'icons', '_meta']), ...(args.length ? { arguments: args } : {}) }
      this.machine.addPrompt(prompt, Object.keys(completions).length ? completions : null)
      this._prompts.set(name, { schema, handler, completers })
      return { name, remove: () => { this._prompts.delete(name); return this.machine.removePrompt(name) } }
    }

    /**
     * `registerTool(name, { title, description, inputSchema, outputSchema, annotations },
     * handler)`: the core's tool registry serves `tools/list` and checks `tools/call`; each
     * call is a `callTool` event for `handler`.
     */
    registerTool(name, config, handler) {
      config ??= {}
      if (typeof handler !== 'function') throw new TypeError('registerTool: the handler must be a function')
      if (!this.machine.addTool) throw new McpError(-32601, 'registerTool: this engine has no tool registry')
      this._tools ??= new Map()
      const schema = asSchema(config.inputSchema)
      const tool = {
        name,
        ...pick(config, ['title', 'description', 'annotations', 'icons', '_meta']),
        inputSchema: (schema && jsonSchemaOf(schema)) ?? { type: 'object' },
        ...(config.outputSchema ? { outputSchema: jsonSchemaOf(asSchema(config.outputSchema)) ?? { type: 'object' } } : {}),
      }
      delete tool.inputSchema.$schema
      if (tool.outputSchema) delete tool.outputSchema.$schema
      this.machine.addTool(tool)
      this._tools.set(name, { tool, schema, handler })
      this.machine.toolsListChanged() // listening clients refetch (none before serving)
      this._pump()
      return {
        name,
        remove: () => {
          this._tools.delete(name)
          const removed = this.machine.removeTool(name)
          if (removed) { this.machine.toolsListChanged(); this._pump() }
          return removed
        },
      }
    }

    /**
     * Serves any other method through the core's extension methods: `handler(params, ctx)`
     * returns the result object (the machine adds `resultType` and `_meta`).
     */
    setRequestHandler(method, handler) {
      if (!this.machine.addMethod) throw new McpError(-32601, 'setRequestHandler: this engine has no extension methods')
      this.machine.addMethod(method)
      this._methods.set(method, handler)
    }

    /** `notifications/resources/updated` for the listens subscribed to `uri`. */
    sendResourceUpdated({ uri }) { this.machine.resourceUpdated(uri); this._pump() }
    sendResourceListChanged() { this.machine.resourcesListChanged(); this._pump() }
    sendPromptListChanged() { this.machine.promptsListChanged(); this._pump() }
    /** `notifications/message` ({level, logger?, data}) to every 2025-11-25 connection and
     * session event stream whose level admits it; how many. */
    sendLoggingMessage(params) {
      const n = this.machine.log(params.level, params.logger ?? null, params.data ?? null)
      this._pump()
      return n
    }

    /** A core limit by its option name (`maxLine`, …); `null` for another name. */
    limit(name) { return this.machine.limit(name) }

    /** Graceful close: every listen gets its final result. */
    close() { this.machine.shutdown(); this._pump(); clearTimeout(this._timer) }

    // --- the loop ------------------------------------------------------------------------

    /** Feeds one message received on `stream`; what it was (`request`, `notification`, …). */
    receive(bytes, stream, transport, auth = 0, admitted = false) {
      const m = this.machine
      const g = (this._mw === null && !this._tracing) || admitted || !m.gateRequest ? null : m.gateRequest(bytes, Date.now(), { stream, transport, auth })
      if (g !== null) {
        gateChain(this, g, bytes, () => this.receive(bytes, stream, transport, auth, true),
          (code, message, notes) => { m.gateRefuse(g.gate, code, message, notes, this._outbox); this._flush() })
        return 'request'
      }
      const kind = m.handleMessage(bytes, Date.now(), { stream, transport, auth }, this._outbox)
      this._flush()
      return kind
    }

    /** Feeds bytes read from stdio `stream` (the core splits lines; `end`: input ended). */
    receiveStdio(bytes, stream, end = false) {
      if ((this._mw !== null || this._tracing) && this.machine.splitStdio) { // each line meets the gate
        const lines = this.machine.splitStdio(bytes, end, Date.now(), { stream, transport: 'stdio' }, this._outbox)
        this._flush()
        for (const line of lines) this.receive(line, stream, 'stdio')
        return
      }
      this.machine.handleStdio(bytes, end, Date.now(), { stream, transport: 'stdio' }, this._outbox)
      this._flush()
    }

    /** One HTTP request to the machine (the runners' `handleHttp`), through the gate when
     * there is middleware: the start, or a promise of it once the middleware decided. */
    handleHttp(head, body, ctx) {
      const m = this.machine
      const g = (this._mw === null && !this._tracing) || !m.httpGateRequest ? null : m.httpGateRequest(head, body, Date.now(), ctx)
      if (g === null) return m.handleHttp(head, body, Date.now(), ctx, this._outbox)
      return new Promise((resolve, reject) => {
        gateChain(this, g, body, () => {
          try { resolve(m.handleHttp(head, body, Date.now(), ctx, this._outbox)) } catch (err) { reject(err) }
          this._flush()
        }, (code, message, notes) => {
          try { resolve(m.httpGateRefuse(g.gate, code, message, notes, this._outbox)) } catch (err) { reject(err) }
          this._flush()
        })
      })
    }

    /** The core's SSE framing and keepalive, from this server's engine. */
    get sse() {
      const e = this.engine
      this._sse ??= {
        event: e.sseEvent,
        keepalive: typeof e.sseKeepalive === 'function' ? e.sseKeepalive() : e.SSE_KEEPALIVE,
        intervalMs: typeof e.sseKeepaliveIntervalMs === 'function' ? e.sseKeepaliveIntervalMs() : e.SSE_KEEPALIVE_INTERVAL_MS,
      }
      return this._sse
    }

    /** A fresh machine stream id: one allocator per server, so runners serving this server
     * at once (stdio, fetch, node:http) never share a stream. */
    openStream() { return this._nextStream++ }

    /** Sends `stream`'s transmits to `sink` (until `detach(stream)`). */
    attach(stream, sink) { this._sinks.set(stream, sink) }
    detach(stream, closed = true) {
      if (this._sinks.delete(stream) && closed) { this.machine.streamClosed(stream); this._pump() }
    }

    // Delivers what the input calls put in the outbox: transmits to their stream's sink,
    // events to handlers (whose answers add to it), then arms the deadline they reported.
    _flush() {
      if (this._draining) return // the running loop delivers the outbox
      this._draining = true
      this._again = false
      try {
        this._deliverBox()
      } finally {
        this._draining = false
      }
      if (this._again) this._pump()
      else this._arm(this._outbox.deadline)
      if (this._obs !== null) this._obs.drain()
    }

    _deliverBox() {
      const box = this._outbox
      let i = 0
      try {
        for (; i < box.length; i++) this._deliver(box[i])
        box.length = 0
      } catch (err) {
        box.splice(0, i + 1) // the rest is delivered by the next flush
        throw err
      }
    }

    _deliver(out) {
      if (out.type === 'transmit') this._sinks.get(Number(out.stream))?.(out)
      else this._event(out)
    }

    // Drains the machine at once (the output-ready signal, calls without an outbox).
    _pump() {
      if (this._draining) { this._again = true; return }
      this._draining = true
      try {
        do {
          this._again = false
          this._deliverBox()
          for (let out; (out = this.machine.pollOutput()) !== null;) {
            this._deliver(out)
            this._deliverBox()
          }
        } while (this._again)
      } finally {
        this._draining = false
      }
      this._arm(this.machine.pollTimeout())
      if (this._obs !== null) this._obs.drain()
    }

    // Runs `handleTimeout` at the machine's next deadline (`null`: none).
    _arm(deadline) {
      clearTimeout(this._timer)
      if (deadline !== null && deadline !== undefined) {
        this._timer = setTimeout(() => { this.machine.handleTimeout(Date.now()); this._pump() }, Math.max(0, Number(deadline) - Date.now()))
        this._timer.unref?.()
      }
    }

  }
  return { McpServer, ResourceTemplate, McpError, ResourceNotFoundError }
}
