// The package layer: an `McpServer` with the official TypeScript SDK's call shapes
// (`registerResource`, `ResourceTemplate`, `registerPrompt`, `registerTool`) on the core's
// server machine, for either engine (the napi addon or the WebAssembly build). It owns no
// protocol rule: the machine validates, routes, pages, caches and answers; this layer only
// calls the application's handlers for the machine's events and hands their results back.
//
// `bind(engine)` returns the classes for one engine. `engine` provides `ServerMachine` (the
// addon's API) and the HTTP checks (`http.mjs`).

import { fetchHandler } from './http.mjs'
import { addSink, runChain } from './telemetry.mjs'

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k)

/** A JSON-RPC error a handler throws: `code`, `message` and optional `data`. */
export class McpError extends Error {
  constructor(code, message, data) {
    super(message)
    this.name = 'McpError'
    this.code = code
    this.data = data
  }
}

/** Thrown by a read handler: the resource does not exist (-32602 with `data.uri`). */
export class ResourceNotFoundError extends McpError {
  constructor(uri) {
    super(-32602, `Resource not found: ${uri}`, { uri })
    this.name = 'ResourceNotFoundError'
  }
}

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

/** Thrown when an event names something registered on the machine with no handler here:
 * failed as the core's `notFound`, whose per-kind answer ("Unknown tool", "Unknown prompt",
 * resource not found) is the one rule (docs/rules.md §20.4 rule 4). */
const MISSING = Symbol('mcp-context.missing-handler')

/** What a thrown value becomes on the wire: the machine's `fail` kinds; the core decides
 * what each is for the event (`handler` on a tool call: an `isError` result). */
function failureOf(err, isRead) {
  if (err === MISSING) return { kind: 'notFound' }
  // Engine errors (they carry `httpStatus`) mean a result broke the schema: internal.
  if (err?.httpStatus !== undefined) return { kind: 'internal' }
  const message = typeof err?.message === 'string' && err.message ? err.message : String(err ?? 'Internal error')
  if (err instanceof ResourceNotFoundError || (isRead && err?.code === -32602 && err?.data?.uri !== undefined)) {
    return { kind: 'notFound' }
  }
  // The core sorts the code into its range (-32602 invalid params, other reserved codes
  // internal, the rest the application's).
  if (typeof err?.code === 'number') return { kind: 'application', code: err.code, message }
  return { kind: 'handler', message }
}

const COMPLETE = Symbol.for('mcp-context.complete')
const METHODS = { readResource: 'resources/read', getPrompt: 'prompts/get', complete: 'completion/complete', listResources: 'resources/list', callTool: 'tools/call' }

/**
 * Marks a prompt argument's schema as completable (the official SDK's `completable`):
 * `complete(value, { arguments })` returns the candidate values.
 */
export function completable(schema, complete) {
  Object.defineProperty(schema, COMPLETE, { value: complete, enumerable: false })
  return schema
}

/** Standard Schema: the JSON Schema of the input (`~standard.jsonSchema`), or null. */
function jsonSchemaOf(schema) {
  const std = schema?.['~standard']
  try {
    return std?.jsonSchema?.input?.({ target: 'draft-2020-12' }) ?? null
  } catch {
    return null
  }
}

/** Wraps a zod raw shape (`{ a: z.string() }`, the SDK's deprecated form) as one schema. */
function asSchema(schema) {
  if (!schema || schema['~standard']) return schema
  const entries = Object.entries(schema)
  if (!entries.every(([, s]) => s?.['~standard'])) throw new TypeError('argsSchema must be a Standard Schema')
  return {
    '~standard': {
      version: 1, vendor: 'mcp-context',
      async validate(value) {
        const out = {}
        const issues = []
        for (const [k, s] of entries) {
          const r = await s['~standard'].validate(value?.[k])
          if (r.issues) issues.push(...r.issues.map((i) => ({ ...i, path: [k, ...(i.path ?? [])] })))
          else if (r.value !== undefined) out[k] = r.value
        }
        return issues.length ? { issues } : { value: out }
      },
      jsonSchema: {
        input: (o) => {
          const properties = {}
          const required = []
          for (const [k, s] of entries) {
            const j = jsonSchemaOf(s) ?? {}
            properties[k] = j
            if (!s.safeParse?.(undefined)?.success) required.push(k)
          }
          return { type: 'object', properties, required }
        },
      },
    },
  }
}

function issueMessage(issues) {
  const i = issues[0]
  const at = i?.path?.length ? `${i.path.map((p) => (typeof p === 'object' ? p.key : p)).join('.')}: ` : ''
  return `Invalid arguments: ${at}${i?.message ?? 'invalid'}`
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
  class McpServer {
    /**
     * @param {{name: string, version: string, title?: string}} serverInfo
     * @param {{instructions?: string, requestTimeoutMs?: number, pageSize?: number, stateKeys?: {id: number, secret: Uint8Array}[], http?: {path?: string | null, maxBody?: number, allowedHosts?: string[], allowedOrigins?: string[]}, peer?: (request: Request) => string | null | undefined}} [options]
     */
    constructor(serverInfo, options = {}) {
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
      this._inflight = new Map() // handle -> AbortController
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
    }

    // --- telemetry and middleware (js/telemetry.mjs, docs/operations.md) ------------------

    /** Sends the core's observations to `sink` (`otel()`, `jsonLog()`, or your own
     * `{request(obs), refused(obs)}`), turning them on; several sinks get the same. */
    sink(sink) { return addSink(this, sink) }

    /** Runs `middleware(req, next)` around every handler, after those added before it:
     * `req` is `{method, target, caller, principal, params, arguments, signal, ctx,
     * startMs, annotate(key, value)}`; `await next()` runs the rest and the handler and
     * gives its result; throwing (an `McpError`) refuses the request. */
    use(middleware) {
      if (typeof middleware !== 'function') throw new TypeError('use: middleware must be a function (req, next) => …')
      this._rateLimited ??= this.engine.observeNames().rateLimited
      ;(this._mw ??= []).push(middleware)
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

    // `resources/list` after the registered resources: the core's dynamic lists ask for the
    // application's pages (`listResources` events), and each page calls the templates'
    // `list` callbacks at list time, in registration order, cut into pages of `pageSize`.
    // The cursor (the core's app cursor: a template and an offset) reaches the client
    // wrapped by the core.
    async _list(e, ctx) {
      const lists = [...this._templates].filter(([, t]) => t.template.listCallback)
      let i = 0
      let offset = 0
      if (e.cursor != null) {
        const c = engine.decodeAppCursor(e.cursor)
        i = c ? lists.findIndex(([key]) => key === c.source) : -1
        if (i < 0) throw new McpError(-32602, 'Invalid cursor')
        offset = Number(c.offset)
      }
      const resources = []
      for (; i < lists.length; i++, offset = 0) {
        const result = await lists[i][1].template.listCallback(ctx)
        const items = Array.isArray(result?.resources) ? result.resources : []
        const end = offset + this._pageSize - resources.length
        resources.push(...items.slice(offset, end))
        if (end < items.length) return { resources, next: [lists[i][0], end] }
        if (resources.length === this._pageSize && i + 1 < lists.length) return { resources, next: [lists[i + 1][0], 0] }
      }
      return { resources, next: null }
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
    receive(bytes, stream, transport, auth = 0) {
      const kind = this.machine.handleMessage(bytes, Date.now(), { stream, transport, auth }, this._outbox)
      this._flush()
      return kind
    }

    /** Feeds bytes read from stdio `stream` (the core splits lines; `end`: input ended). */
    receiveStdio(bytes, stream, end = false) {
      this.machine.handleStdio(bytes, end, Date.now(), { stream, transport: 'stdio' }, this._outbox)
      this._flush()
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

    _event(e) {
      switch (e.type) {
        case 'readResource': return this._answer(e, (ctx) => this._read(e, ctx), (r) => this._readResult(e, r), true)
        case 'getPrompt': return this._answer(e, (ctx) => this._prompt(e, ctx), (r) => this._promptResult(e, r), false)
        case 'complete': return this._answer(e, () => this._complete(e), (v) => this.machine.respondCompletion(e.handle, v ?? [], this._outbox), false)
        case 'request': return this._answer(e, (ctx) => this._request(e, ctx), (r) => this._requestResult(e, r), false)
        case 'callTool': return this._answer(e, (ctx) => this._tool(e, ctx), (r) => this._toolResult(e, r), false)
        case 'listResources': return this._answer(e, (ctx) => this._list(e, ctx), (p) => this.machine.respondList(e.handle, p.resources, p.next && engine.encodeAppCursor(p.next[0], p.next[1]), this._outbox), false)
        case 'cancelled': return this._inflight.get(e.handle)?.abort(e.reason)
        default: return undefined
      }
    }

    _context(e) {
      const controller = new AbortController()
      this._inflight.set(e.handle, controller)
      const method = e.method ?? METHODS[e.type]
      const progress = (value, total, message) => {
        if (!this._inflight.has(e.handle) || !this.machine.progress) return false
        const sent = this.machine.progress(e.handle, value, total ?? null, message ?? null, this._outbox)
        this._flush()
        return sent
      }
      // `notifications/message` for this request, sent when the request admits `level` (a
      // 2025-11-25 session's logging/setLevel; a modern request's _meta log level).
      const log = (level, data, logger) => {
        if (!this._inflight.has(e.handle) || !this.machine.logFor) return false
        const sent = this.machine.logFor(e.handle, level, logger ?? null, data ?? null)
        this._pump()
        return sent
      }
      return {
        mcpReq: {
          method,
          _meta: e.params?._meta,
          signal: controller.signal,
          inputResponses: e.retry?.inputResponses,
          requestState: e.retry?.state ?? undefined,
          // Notifications related to the request: progress (sent only when the request
          // carried a progressToken; the machine adds the token).
          notify: async (n) => {
            if (n?.method === 'notifications/progress') progress(n.params?.progress, n.params?.total, n.params?.message)
            if (n?.method === 'notifications/message') log(n.params?.level, n.params?.data, n.params?.logger)
          },
          /** `notifications/message` for this request; false when its level filters it out. */
          log,
        },
        /** `notifications/progress` for this request; false when it carried no token. */
        progress,
        /** `notifications/message` for this request; false when its level filters it out. */
        log,
        /** The client capabilities the request declared (`elicitationForm`, `sampling`, …). */
        capabilities: e.capabilities,
        auth: e.auth,
        /** The verified caller of a protected HTTP endpoint (`protect`); undefined otherwise. */
        principal: e.auth ? this._principals.get(e.auth) : undefined,
      }
    }

    async _request(e, ctx) {
      const params = e.params ?? {}
      const h = this._methods.get(e.method)
      if (!h) throw MISSING
      return h(params, ctx)
    }

    _requestResult(e, r) {
      if (r?.resultType === 'input_required') return this._inputRequired(e, r)
      const { cacheHint, ...result } = r ?? {}
      this.machine.respondResult(e.handle, result, cacheHint ?? null, this._outbox)
    }

    // A tool call the core checked (a registered tool, object arguments, the required
    // ones): the schema's validation, then the handler. What either throws is failed as
    // the core decides (`failureOf`: a plain error is a tool error, `isError`, seen by the
    // model; an McpError a protocol error).
    async _tool(e, ctx) {
      const t = this._tools?.get(e.name)
      if (!t) throw MISSING
      if (!t.schema) return t.handler(ctx)
      const v = await t.schema['~standard'].validate(e.arguments ?? {})
      if (v.issues) throw new Error(issueMessage(v.issues))
      return t.handler(v.value, ctx)
    }

    _toolResult(e, r) {
      if (r?.resultType === 'input_required') return this._inputRequired(e, r)
      this.machine.respondTool(e.handle, r ?? {}, this._outbox)
    }

    // Runs a handler (sync or async) and answers its handle exactly once.
    _answer(e, run, respond, isRead) {
      const done = (f) => {
        if (!this._inflight.delete(e.handle)) return
        try {
          f()
        } catch (err) {
          // An answer the machine refused: it answered the request itself (-32603, or
          // -32021); reported unless late (the core's RespondError::is_late).
          if (typeof err?.late === 'boolean') {
            if (!err.late) this.onerror(err)
            return this._pump()
          }
          // Our own McpErrors (a read without contents) are answers; a value the engine
          // cannot convert is the application's bug: -32603 (never a tool error), reported.
          if (!(err instanceof McpError)) this.onerror(err)
          const failure = err instanceof McpError ? failureOf(err, isRead) : { kind: 'internal' }
          try { this.machine.fail(e.handle, failure, this._outbox) } catch {}
        }
        this._flush()
      }
      const ctx = this._context(e)
      let result
      try {
        result = this._mw === null ? run(ctx) : runChain(this, this._mw, e, ctx, run)
      } catch (err) {
        return done(() => this.machine.fail(e.handle, failureOf(err, isRead), this._outbox))
      }
      if (typeof result?.then === 'function') {
        result.then((r) => done(() => respond(r)), (err) => done(() => this.machine.fail(e.handle, failureOf(err, isRead), this._outbox)))
      } else {
        done(() => respond(result))
      }
    }

    _read(e, ctx) {
      const url = toUrl(e.uri)
      if (e.target === 'template') {
        const t = this._templates.get(e.template)
        if (!t) throw new ResourceNotFoundError(e.uri)
        return t.handler(url, { ...e.variables }, ctx)
      }
      const r = this._resources.get(e.uri)
      if (r) return r.handler(url, ctx)
      throw new ResourceNotFoundError(e.uri)
    }

    _readResult(e, r) {
      if (r?.resultType === 'input_required') return this._inputRequired(e, r)
      if (!r || !Array.isArray(r.contents)) throw new ResourceNotFoundError(e.uri)
      this.machine.respondRead(e.handle, r.contents, r.cacheHint ?? null, this._outbox)
    }

    async _prompt(e, ctx) {
      const p = this._prompts.get(e.name)
      if (!p) throw MISSING
      if (!p.schema) return p.handler(ctx)
      const v = await p.schema['~standard'].validate({ ...e.arguments })
      if (v.issues) throw new McpError(-32602, issueMessage(v.issues))
      return p.handler(v.value, ctx)
    }

    _promptResult(e, r) {
      if (r?.resultType === 'input_required') return this._inputRequired(e, r)
      this.machine.respondPrompt(e.handle, r, this._outbox)
    }

    _inputRequired(e, r) {
      const state = typeof r.requestState === 'string' ? new TextEncoder().encode(r.requestState) : r.requestState ?? null
      this.machine.respondInputRequired(e.handle, r.inputRequests, state, this._outbox)
    }

    _complete(e) {
      if (e.ref.type === 'ref/resource') {
        const t = this._templates.get(e.ref.uri)
        const f = t?.template.completeCallback(e.argument)
        return f ? f(e.value, { arguments: { ...e.context } }) : []
      }
      const p = this._prompts.get(e.ref.name)
      const f = p && hasOwn(p.completers, e.argument) ? p.completers[e.argument] : undefined
      return f ? f(e.value, { arguments: { ...e.context } }) : []
    }
  }
  return { McpServer, ResourceTemplate, McpError, ResourceNotFoundError }
}

function toUrl(uri) {
  try { return new URL(uri) } catch { return { href: uri, toString: () => uri } }
}
