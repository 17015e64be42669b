// The package layer: an `McpServer` with the official TypeScript SDK's call shapes
// (`registerResource`, `ResourceTemplate`, `registerPrompt`, `registerTool`) on the core's
// server machine, for either engine (the napi addon or the WebAssembly build). It owns no
// protocol rule: the machine validates, routes, pages, caches and answers; this layer only
// calls the application's handlers for the machine's events and hands their results back.
//
// `bind(engine)` returns the classes for one engine. `engine` provides `ServerMachine` (the
// addon's API) and the HTTP checks (`http.mjs`).

import { fetchHandler } from './http.mjs'

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

/** What a thrown value becomes on the wire (the machine turns it into the JSON-RPC error). */
function failureOf(err, isRead) {
  // Engine errors (they carry `httpStatus`) mean a result broke the schema: internal.
  const code = typeof err?.code === 'number' && err.httpStatus === undefined ? err.code : undefined
  const message = typeof err?.message === 'string' && err.message ? err.message : 'Internal error'
  if (err instanceof ResourceNotFoundError || (isRead && code === -32602 && err?.data?.uri !== undefined)) {
    return { kind: 'notFound' }
  }
  if (code === -32602) return { kind: 'invalidParams', message }
  if (code === undefined || (code >= -32768 && code <= -32000)) return { kind: 'internal' }
  return { kind: 'application', code, message }
}

const COMPLETE = Symbol.for('mcp-context.complete')
const METHODS = { readResource: 'resources/read', getPrompt: 'prompts/get', complete: 'completion/complete', listResources: 'resources/list' }

/** Our own list cursor: `[uriTemplate, offset]`, or null when it is not one. */
function parseCursor(text) {
  let c
  try { c = JSON.parse(text) } catch { return null }
  return Array.isArray(c) && c.length === 2 && typeof c[0] === 'string' && Number.isSafeInteger(c[1]) && c[1] >= 0 ? c : null
}

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
const LIST_CACHE = { ttlMs: 60_000, cacheScope: 'public' } // as the core's other lists
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
      this.machine = new engine.ServerMachine({
        serverInfo,
        ...pick(options, ['instructions', 'requestTimeoutMs', 'pageSize', 'stateKeys', 'http']),
        completionEvents: true,
      })
      // The client address of a web-standard request (`fetch`), for the per-peer bound on
      // 2025-11-25 sessions: the caller's, e.g. `(r) => r.headers.get('cf-connecting-ip')`.
      this.peerOf = options.peer
      this._dynamic = false // the machine asks for our own list pages (templates' `list`)
      this._pageSize = options.pageSize ?? 50
      this._resources = new Map() // uri -> { handler }
      this._templates = new Map() // uriTemplate -> { template, handler }
      this._prompts = new Map() // name -> { schema, handler, completers }
      this._tools = null // name -> { tool, schema, handler }, once a tool is registered
      this._methods = new Map() // extension method -> handler
      this._sinks = new Map() // stream -> (transmit) => void
      this._inflight = new Map() // handle -> AbortController
      this._timer = undefined
      this._draining = false
      this._again = false
      this.onerror = (err) => { console.error('mcp-context:', err) }
      // The output-ready signal: whatever queues output (an answer, a notification, a
      // deadline) drains at once, not on the next input.
      this.machine.setWaker(() => this._pump())
      this.fetch = fetchHandler(this)
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
    // The cursor ([uriTemplate, offset] as JSON) reaches the client wrapped by the core.
    async _list(e, ctx) {
      const lists = [...this._templates].filter(([, t]) => t.template.listCallback)
      let i = 0
      let offset = 0
      if (e.cursor != null) {
        const c = parseCursor(e.cursor)
        i = c ? lists.findIndex(([key]) => key === c[0]) : -1
        if (i < 0) throw new McpError(-32602, 'Invalid cursor')
        offset = c[1]
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
     * handler)`: `tools/list` and `tools/call` served through the core's extension methods.
     */
    registerTool(name, config, handler) {
      config ??= {}
      if (typeof handler !== 'function') throw new TypeError('registerTool: the handler must be a function')
      this._methodsReady()
      const schema = asSchema(config.inputSchema)
      const tool = {
        name,
        ...pick(config, ['title', 'description', 'annotations', 'icons', '_meta']),
        inputSchema: (schema && jsonSchemaOf(schema)) ?? { type: 'object' },
        ...(config.outputSchema ? { outputSchema: jsonSchemaOf(asSchema(config.outputSchema)) ?? { type: 'object' } } : {}),
      }
      delete tool.inputSchema.$schema
      if (tool.outputSchema) delete tool.outputSchema.$schema
      this._tools.set(name, { tool, schema, handler })
      return { name, remove: () => this._tools.delete(name) }
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

    _methodsReady() {
      if (this._tools) return
      if (!this.machine.addMethod) throw new McpError(-32601, 'registerTool: this engine has no extension methods')
      this._tools = new Map()
      this.machine.addMethod('tools/list')
      this.machine.addMethod('tools/call')
      // No `listChanged`: the core's listen streams carry no tools/list_changed.
      this.machine.setCapability('tools', {})
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

    /** Graceful close: every listen gets its final result. */
    close() { this.machine.shutdown(); this._pump(); clearTimeout(this._timer) }

    // --- the loop ------------------------------------------------------------------------

    /** Feeds one message received on `stream`; what it was (`request`, `notification`, …). */
    receive(bytes, stream, transport, auth = 0) {
      const kind = this.machine.handleMessage(bytes, Date.now(), { stream, transport, auth })
      this._pump()
      return kind
    }

    /** Sends `stream`'s transmits to `sink` (until `detach(stream)`). */
    attach(stream, sink) { this._sinks.set(stream, sink) }
    detach(stream, closed = true) {
      if (this._sinks.delete(stream) && closed) { this.machine.streamClosed(stream); this._pump() }
    }

    // Drains the machine at once: transmits to their stream's sink, events to handlers.
    _pump() {
      if (this._draining) { this._again = true; return }
      this._draining = true
      try {
        do {
          this._again = false
          for (let out; (out = this.machine.pollOutput()) !== null;) {
            if (out.type === 'transmit') this._sinks.get(Number(out.stream))?.(out)
            else this._event(out)
          }
        } while (this._again)
      } finally {
        this._draining = false
      }
      clearTimeout(this._timer)
      const deadline = this.machine.pollTimeout()
      if (deadline !== null) {
        this._timer = setTimeout(() => { this.machine.handleTimeout(Date.now()); this._pump() }, Math.max(0, Number(deadline) - Date.now()))
        this._timer.unref?.()
      }
    }

    _event(e) {
      switch (e.type) {
        case 'readResource': return this._answer(e, (ctx) => this._read(e, ctx), (r) => this._readResult(e, r), true)
        case 'getPrompt': return this._answer(e, (ctx) => this._prompt(e, ctx), (r) => this._promptResult(e, r), false)
        case 'complete': return this._answer(e, () => this._complete(e), (v) => this.machine.respondCompletion(e.handle, v ?? []), false)
        case 'request': return this._answer(e, (ctx) => this._request(e, ctx), (r) => this._requestResult(e, r), false)
        case 'listResources': return this._answer(e, (ctx) => this._list(e, ctx), (p) => this.machine.respondList(e.handle, p.resources, p.next && JSON.stringify(p.next)), false)
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
        const sent = this.machine.progress(e.handle, value, total ?? null, message ?? null)
        this._pump()
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
      }
    }

    async _request(e, ctx) {
      const params = e.params ?? {}
      if (this._tools && e.method === 'tools/list') {
        return { tools: [...this._tools.values()].map((t) => t.tool) }
      }
      if (this._tools && e.method === 'tools/call') {
        const t = typeof params.name === 'string' && this._tools.has(params.name) ? this._tools.get(params.name) : null
        if (!t) throw new McpError(-32602, `Unknown tool: ${params.name}`)
        let args = params.arguments ?? {}
        if (t.schema) {
          const v = await t.schema['~standard'].validate(args)
          if (v.issues) return { content: [{ type: 'text', text: issueMessage(v.issues) }], isError: true }
          args = v.value
        }
        try {
          return await (t.schema ? t.handler(args, ctx) : t.handler(ctx))
        } catch (err) {
          if (err instanceof McpError) throw err
          return { content: [{ type: 'text', text: err?.message ?? String(err) }], isError: true }
        }
      }
      const h = this._methods.get(e.method)
      if (!h) throw new McpError(-32601, `Method not found: ${e.method}`)
      return h(params, ctx)
    }

    _requestResult(e, r) {
      if (r?.resultType === 'input_required') return this._inputRequired(e, r)
      const { cacheHint, ...result } = r ?? {}
      this.machine.respondResult(e.handle, result, cacheHint ?? (e.method === 'tools/list' ? LIST_CACHE : null))
    }

    // Runs a handler (sync or async) and answers its handle exactly once.
    _answer(e, run, respond, isRead) {
      const done = (f) => {
        if (!this._inflight.delete(e.handle)) return
        try {
          f()
        } catch (err) {
          // The client did not declare what the input request needs: it got -32021 already.
          if (err?.code === 'ERR_CLIENT_LACKS_CAPABILITY') return this._pump()
          // A result the machine refused is the application's bug: -32603, and reported.
          if (err?.httpStatus !== undefined || typeof err?.code !== 'number') this.onerror(err)
          try { this.machine.fail(e.handle, failureOf(err, isRead)) } catch {}
        }
        this._pump()
      }
      const ctx = this._context(e)
      let result
      try {
        result = run(ctx)
      } catch (err) {
        return done(() => this.machine.fail(e.handle, failureOf(err, isRead)))
      }
      if (typeof result?.then === 'function') {
        result.then((r) => done(() => respond(r)), (err) => done(() => this.machine.fail(e.handle, failureOf(err, isRead))))
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
      this.machine.respondRead(e.handle, r.contents, r.cacheHint ?? null)
    }

    async _prompt(e, ctx) {
      const p = this._prompts.get(e.name)
      if (!p) throw new McpError(-32602, `Unknown prompt: ${e.name}`)
      if (!p.schema) return p.handler(ctx)
      const v = await p.schema['~standard'].validate({ ...e.arguments })
      if (v.issues) throw new McpError(-32602, issueMessage(v.issues))
      return p.handler(v.value, ctx)
    }

    _promptResult(e, r) {
      if (r?.resultType === 'input_required') return this._inputRequired(e, r)
      this.machine.respondPrompt(e.handle, r)
    }

    _inputRequired(e, r) {
      const state = typeof r.requestState === 'string' ? new TextEncoder().encode(r.requestState) : r.requestState ?? null
      this.machine.respondInputRequired(e.handle, r.inputRequests, state)
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
