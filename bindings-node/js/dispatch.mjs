// The package layer's dispatch: the machine's events to the application's handlers, each
// answered exactly once (`respond*` or `fail`), with the handler context (`ctx`). `McpServer`
// (js/mcp.mjs) extends `Dispatcher`; it owns no protocol rule.

import { runChain } from './telemetry.mjs'
import { issueMessage } from './schema.mjs'

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

const METHODS = { readResource: 'resources/read', getPrompt: 'prompts/get', complete: 'completion/complete', listResources: 'resources/list', callTool: 'tools/call' }

/** The event handling every `McpServer` inherits (state: `_inflight`, `_mw`, the
 * registries; `engine`, `machine`, `_outbox`, `_flush`, `_pump` are the server's). */
export class Dispatcher {
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
      const c = this.engine.decodeAppCursor(e.cursor)
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

  // The handler (`run(e, ctx)`) and answer (`respond(e, result)`) of each event kind are
  // methods: no closure per event.
  _event(e) {
    switch (e.type) {
      case 'readResource': return this._answer(e, this._read, this._readResult, true)
      case 'getPrompt': return this._answer(e, this._prompt, this._promptResult, false)
      case 'complete': return this._answer(e, this._complete, this._completeResult, false)
      case 'request': return this._answer(e, this._request, this._requestResult, false)
      case 'callTool': return this._answer(e, this._tool, this._toolResult, false)
      case 'listResources': return this._answer(e, this._list, this._listResult, false)
      case 'cancelled': return this._inflight.get(e.handle)?.abort(e.reason)
      default: return undefined
    }
  }

  _completeResult(e, v) { this.machine.respondCompletion(e.handle, v ?? [], this._outbox) }

  _listResult(e, p) {
    this.machine.respondList(e.handle, p.resources, p.next && this.engine.encodeAppCursor(p.next[0], p.next[1]), this._outbox)
  }

  _context(e) {
    const controller = new Inflight()
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
        get signal() { return controller.signal },
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

  // Runs a handler (sync or async: `run(e, ctx)`) and answers its handle exactly once
  // (`respond(e, result)`, or `fail` with what it threw).
  _answer(e, run, respond, isRead) {
    const ctx = this._context(e)
    // Admitted at the gate (js/telemetry.mjs `gateChain`): the chain ran there and its
    // `next()` gets this handler's result.
    const gated = this._gated ?? null
    if (gated !== null) {
      this._gated = null
      gated.req.ctx = ctx
      gated.req.signal = ctx.mcpReq.signal
    }
    let result
    try {
      if (gated?.within) result = gated.within(() => run.call(this, e, ctx)) // the request span is current
      else if (this._mw === null || gated !== null) result = run.call(this, e, ctx)
      else result = runChain(this, this._mw, e, ctx, (c) => run.call(this, e, c))
    } catch (err) {
      gated?.reject(err)
      return this._settle(e, isRead, this._failed, err)
    }
    if (typeof result?.then === 'function') {
      result.then((r) => { gated?.resolve(r); this._settle(e, isRead, respond, r) }, (err) => { gated?.reject(err); this._settle(e, isRead, this._failed, err) })
    } else {
      gated?.resolve(result)
      this._settle(e, isRead, respond, result)
    }
  }

  // What a handler threw, as the machine's `fail` (`failureOf`).
  _failed(e, err, isRead) { this.machine.fail(e.handle, failureOf(err, isRead), this._outbox) }

  // Answers `e` with `f(e, value, isRead)` unless it was answered (or cancelled) before.
  _settle(e, isRead, f, value) {
    if (!this._inflight.delete(e.handle)) return
    try {
      f.call(this, e, value, isRead)
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

/** A request in flight: its `AbortSignal` is made when a handler first reads it (most never
 * do; an `AbortController` per request was a tenth of a read's time), aborted at once when the
 * request was cancelled before. */
class Inflight {
  constructor() {
    this._controller = null
    this._aborted = false
    this._reason = undefined
  }
  get signal() {
    if (this._controller === null) {
      this._controller = new AbortController()
      if (this._aborted) this._controller.abort(this._reason)
    }
    return this._controller.signal
  }
  abort(reason) {
    if (this._controller !== null) return this._controller.abort(reason)
    if (!this._aborted) { this._aborted = true; this._reason = reason }
  }
}

function toUrl(uri) {
  try { return new URL(uri) } catch { return { href: uri, toString: () => uri } }
}
