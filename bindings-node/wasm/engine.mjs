// The WebAssembly engine's JS face: the same API as the napi addon's `ServerMachine`,
// `ClientMachine`, `UriTemplate` and `Router`, over the wasm-bindgen exports
// of `bindings-node/wasm` (JSON text across the boundary). Objects built from peer data come
// from `JSON.parse`, so every key is an own key (`__proto__` included).
//
// `load(wasm)` must run before the first use: `wasm` is a `WebAssembly.Module`, bytes, or
// a promise of either (`index.mjs` and `workerd.mjs` do it).
import * as glue from './pkg/mcp_context_wasm.js'

const SAFE = Number.MAX_SAFE_INTEGER

let memory = null

/** Instantiates the module (synchronously for a compiled module or bytes). */
export function load(wasm) {
  memory = glue.initSync({ module: wasm }).memory
}

class McpContextError extends Error {
  constructor(message, code) { super(message); this.name = 'McpContextError'; this.code = code }
}
class McpError extends McpContextError {
  constructor(message, code, data, httpStatus) {
    super(message, code); this.name = 'McpError'; this.data = data; this.httpStatus = httpStatus
  }
}
class OriginError extends McpContextError {
  constructor(message, code, httpStatus) { super(message, code); this.name = 'OriginError'; this.httpStatus = httpStatus }
}
export { McpContextError, McpError, OriginError }

function rethrow(err) {
  if (typeof err !== 'string') throw err
  let e
  try { e = JSON.parse(err) } catch { throw new McpContextError(err, 'ERR_WASM') }
  if (e.name === 'McpError') throw new McpError(e.message, e.code, e.data, e.httpStatus)
  if (e.name === 'OriginError') throw new OriginError(e.message, e.code, e.httpStatus)
  if (e.name === 'TypeError') throw new TypeError(e.message)
  const c = new McpContextError(e.message, e.code)
  if (e.late !== undefined) c.late = e.late // a refused answer: RespondError::is_late
  throw c
}
// An error object an event carries (the same classes as thrown ones).
function errorOf(e) {
  if (e.name === 'McpError') return new McpError(e.message, e.code, e.data, e.httpStatus)
  return new McpContextError(e.message, e.code)
}
const call = (f) => { try { return f() } catch (err) { return rethrow(err) } }

function int(n, what) {
  if (typeof n === 'bigint' && n >= 0n && n <= BigInt(SAFE)) return Number(n)
  if (typeof n !== 'number' || !(n >= 0) || n > SAFE) throw new TypeError(`${what} must be a non-negative integer below 2^53`)
  return Math.floor(n)
}
const text = (v) => (v === null || v === undefined ? undefined : JSON.stringify(v))
// Bytes the module left in its linear memory for the output just returned (`at`, from
// `ptr`): copied out without another call.
function take(o, ptr, key) {
  if (o.at === undefined) return o
  o[key] = new Uint8Array(memory.buffer, ptr + o.at[0], o.at[1] - o.at[0]).slice()
  delete o.at
  return o
}
// One server output as the addon gives it.
function serverOutput(o, ptr) {
  take(o, ptr, 'bytes')
  // A `streamOverflow`'s subscription id beyond 2^53 (marked by the adapter).
  if (o.bigId) { o.subscription = BigInt(o.subscription); delete o.bigId }
  return o
}
const bytes = (m) => (typeof m === 'string' ? new TextEncoder().encode(m) : m)

export class ServerMachine {
  constructor(config = {}) {
    const c = { ...config }
    if (c.stateKeys) c.stateKeys = c.stateKeys.map((k) => ({ id: k.id, secret: Array.from(k.secret) }))
    this.inner = call(() => new glue.WasmServer(JSON.stringify(c)))
    this.waker = null
  }
  /** The output-ready signal: `callback()` runs right after a call that queued an output on
   * an empty queue returns (outside the machine). */
  setWaker(callback) { this.waker = callback }
  get hasOutput() { return this.inner.hasOutput }
  limit(name) { return this.inner.limit(name) ?? null }
  // Observations (docs/operations.md): the addon's shapes.
  observe(on) { this.inner.observe(Boolean(on)) }
  pollObservation(nowMs) {
    const t = this.inner.pollObservation(int(nowMs, 'nowMs'))
    return t === undefined ? null : JSON.parse(t)
  }
  openCounts() { return JSON.parse(this.inner.openCounts()) }
  annotate(h, key, value) { this.inner.annotate(int(h, 'handle'), String(key), String(value)) }
  limitResponses(max) { this.inner.limitResponses(max === null || max === undefined ? undefined : int(max, 'max')) }
  // After every call that may queue output.
  _woke(result) {
    if (this.inner.takeWoken() && this.waker) this.waker()
    return result
  }
  addResource(resource, contents, cache) { call(() => this.inner.addResource(JSON.stringify(resource), text(contents), text(cache))) }
  addTemplate(template, cache, completions) { call(() => this.inner.addTemplate(JSON.stringify(template), text(cache), text(completions))) }
  addPrompt(prompt, completions) { call(() => this.inner.addPrompt(JSON.stringify(prompt), text(completions))) }
  removeResource(uri) { return this.inner.removeResource(uri) }
  removeTemplate(t) { return this.inner.removeTemplate(t) }
  removePrompt(name) { return this.inner.removePrompt(name) }
  setDynamicResources(on) { this.inner.setDynamicResources(Boolean(on)) }
  setResourceContents(uri, contents) { return call(() => this.inner.setResourceContents(uri, text(contents))) }
  // An input call (`f(drain)` returns the module's `{value, outputs?, deadline?, ptr}`): with
  // an `outbox`, the outputs the call queued go into it and `outbox.deadline` is set, in the
  // same call; otherwise the output-ready signal as usual.
  _batch(outbox, f) {
    const drain = outbox !== undefined && outbox !== null
    let r
    try {
      r = JSON.parse(call(() => f(drain)))
    } catch (err) {
      this._woke()
      throw err
    }
    const v = r.value
    if (v !== null && typeof v === 'object') { take(v, r.ptr, 'body'); delete v.ptr }
    if (drain) {
      for (const o of r.outputs) outbox.push(serverOutput(o, r.ptr))
      outbox.deadline = r.deadline
    } else {
      this._woke()
    }
    return v
  }
  handleMessage(message, nowMs, ctx, outbox) {
    ctx ??= {}
    const m = bytes(message)
    const now = int(nowMs, 'nowMs')
    const stream = int(ctx.stream ?? 0, 'stream')
    const auth = int(ctx.auth ?? 0, 'auth')
    return this._batch(outbox, (d) => this.inner.handleMessage(m, now, stream, auth, ctx.transport === 'http', d))
  }
  // The gate (docs/rules.md §26.7): the addon's shapes.
  gate(on) { this.inner.gate(Boolean(on)) }
  gateRequest(message, nowMs, ctx) {
    ctx ??= {}
    const t = call(() => this.inner.gateRequest(bytes(message), int(nowMs, 'nowMs'), int(ctx.stream ?? 0, 'stream'), int(ctx.auth ?? 0, 'auth'), ctx.transport === 'http'))
    return t === undefined ? null : JSON.parse(t)
  }
  httpGateRequest(head, body, nowMs, ctx) {
    ctx ??= {}
    const t = call(() => this.inner.httpGateRequest(JSON.stringify(head), body, int(nowMs, 'nowMs'), int(ctx.stream ?? 0, 'stream'), int(ctx.auth ?? 0, 'auth')))
    return t === undefined ? null : JSON.parse(t)
  }
  gateAdmit(gate, annotations) { call(() => this.inner.gateAdmit(int(gate, 'gate'), JSON.stringify(annotations ?? []))) }
  gateRefuse(gate, code, message, annotations, outbox) {
    const n = int(gate, 'gate')
    this._batch(outbox, (d) => this.inner.gateRefuse(n, code, String(message), JSON.stringify(annotations ?? []), d))
  }
  httpGateRefuse(gate, code, message, annotations, outbox) {
    const n = int(gate, 'gate')
    return this._batch(outbox, (d) => this.inner.httpGateRefuse(n, code, String(message), JSON.stringify(annotations ?? []), d))
  }
  splitStdio(chunk, end, nowMs, ctx) {
    ctx ??= {}
    const joined = this._woke(call(() => this.inner.splitStdio(bytes(chunk), Boolean(end), int(nowMs, 'nowMs'), int(ctx.stream ?? 0, 'stream'), int(ctx.auth ?? 0, 'auth'))))
    const lines = []
    for (let at = 0; at < joined.length;) {
      let nl = joined.indexOf(10, at)
      if (nl < 0) nl = joined.length
      lines.push(joined.subarray(at, nl))
      at = nl + 1
    }
    return lines
  }
  handleStdio(chunk, end, nowMs, ctx, outbox) {
    ctx ??= {}
    const m = bytes(chunk)
    const now = int(nowMs, 'nowMs')
    const stream = int(ctx.stream ?? 0, 'stream')
    const auth = int(ctx.auth ?? 0, 'auth')
    this._batch(outbox, (d) => this.inner.handleStdio(m, Boolean(end), now, stream, auth, d))
  }
  pollOutput() {
    const t = this.inner.pollOutput()
    if (t === undefined) return null
    const o = JSON.parse(t)
    serverOutput(o, o.ptr)
    delete o.ptr
    return o
  }
  addTool(tool) { call(() => this.inner.addTool(JSON.stringify(tool))) }
  removeTool(name) { return this.inner.removeTool(name) }
  toolsListChanged() { this._woke(this.inner.toolsListChanged()) }
  respondTool(h, result, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondTool(n, JSON.stringify(result), d))
  }
  respondToolError(h, message, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondToolError(n, String(message), d))
  }
  addMethod(method) { call(() => this.inner.addMethod(method)) }
  removeMethod(method) { return this.inner.removeMethod(method) }
  setCapability(key, value) { call(() => this.inner.setCapability(key, JSON.stringify(value))) }
  removeCapability(key) { return this.inner.removeCapability(key) }
  progress(h, progress, total, message, outbox) {
    const n = int(h, 'handle')
    return this._batch(outbox, (d) => this.inner.progress(n, progress, total ?? undefined, message ?? undefined, d))
  }
  logFor(h, level, logger, data) {
    return this._woke(call(() => this.inner.logFor(int(h, 'handle'), level, logger ?? undefined, JSON.stringify(data ?? null))))
  }
  log(level, logger, data) { return this._woke(call(() => this.inner.log(level, logger ?? undefined, JSON.stringify(data ?? null)))) }
  respondResult(h, result, cache, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondResult(n, JSON.stringify(result), text(cache), d))
  }
  httpHead(head) {
    const o = JSON.parse(call(() => this.inner.httpHead(JSON.stringify(head))))
    take(o, o.ptr, 'body')
    delete o.ptr
    return o
  }
  setProtection(protection) { call(() => this.inner.setProtection(protection == null ? undefined : JSON.stringify(protection))) }
  requireScopes(kind, key, scopes) { call(() => this.inner.requireScopes(kind, key, scopes.map(String))) }
  httpAuthenticate(head) { return this._response(call(() => this.inner.httpAuthenticate(JSON.stringify(head)))) }
  httpAdmit(caller, nowMs) {
    const o = this._response(call(() => this.inner.httpAdmit(JSON.stringify(caller), int(nowMs, 'nowMs'))))
    if (typeof o.scopes === 'string') o.scopes = BigInt(o.scopes)
    return o
  }
  httpReject(why) { return this._response(this.inner.httpReject(String(why))) }
  _response(text) {
    const o = JSON.parse(text)
    if (o.ptr !== undefined) take(o, o.ptr, 'body')
    delete o.ptr
    return o
  }
  handleHttp(head, body, nowMs, ctx, outbox) {
    ctx ??= {}
    const h = JSON.stringify({ ...head, peer: ctx.peer ?? undefined, scopes: ctx.scopes == null ? undefined : String(ctx.scopes) })
    const now = int(nowMs, 'nowMs')
    const stream = int(ctx.stream ?? 0, 'stream')
    const auth = int(ctx.auth ?? 0, 'auth')
    return this._batch(outbox, (d) => this.inner.handleHttp(h, body, now, stream, auth, d))
  }
  respondRead(h, contents, cache, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondRead(n, JSON.stringify(contents), text(cache), d))
  }
  respondList(h, resources, nextCursor, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondList(n, JSON.stringify(resources), nextCursor ?? undefined, d))
  }
  respondPrompt(h, result, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondPrompt(n, JSON.stringify(result), d))
  }
  respondCompletion(h, values, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondCompletion(n, values.map(String), d))
  }
  respondInputRequired(h, requests, state, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.respondInputRequired(n, JSON.stringify(requests), state ?? undefined, d))
  }
  fail(h, f, outbox) {
    const n = int(h, 'handle')
    this._batch(outbox, (d) => this.inner.fail(n, f.kind, f.message, f.code, d))
  }
  pollTimeout() { return this.inner.pollTimeout() ?? null }
  handleTimeout(nowMs) { this._woke(this.inner.handleTimeout(int(nowMs, 'nowMs'))) }
  streamClosed(stream) { this._woke(this.inner.streamClosed(int(stream, 'stream'))) }
  resourceUpdated(uri) { this._woke(this.inner.resourceUpdated(uri)) }
  resourcesListChanged() { this._woke(this.inner.resourcesListChanged()) }
  promptsListChanged() { this._woke(this.inner.promptsListChanged()) }
  shutdown() { this._woke(this.inner.shutdown()) }
  get pendingRequests() { return this.inner.pendingRequests }
  get subscriptions() { return this.inner.subscriptions }
}

// 64-bit integers cross as bigints: numbers (exact integers) and bigints in 0..2^64 in,
// numbers out while exact.
const U64 = 1n << 64n
function u64(n, what) {
  if (typeof n === 'bigint' && n >= 0n && n < U64) return n
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= SAFE) return BigInt(n)
  throw new TypeError(typeof n === 'bigint' ? `${what} must be a bigint in 0..2^64` : `${what} must be a non-negative integer (a bigint beyond 2^53), not ${n}`)
}
// A time: what `Date.now()` or `performance.now()` return (floored), or a bigint.
function time(n) {
  if (typeof n === 'number' && n >= 0 && n <= SAFE) return BigInt(Math.floor(n))
  return u64(n, 'nowMs')
}
const out64 = (n) => (n <= BigInt(SAFE) ? Number(n) : n)
// Ids the core marks as beyond 2^53 (decimal strings) become bigints.
const big = (v) => (typeof v === 'string' ? BigInt(v) : v)
function strings(o, what) {
  if (o === null || o === undefined) return '{}'
  for (const k of Object.keys(o)) if (typeof o[k] !== 'string') throw new TypeError(`${what}.${k} must be a string`)
  return JSON.stringify(o)
}
const listArgs = (o) => [Boolean(o?.page), o?.cursor ?? undefined, Boolean(o?.refresh)]

/** The MCP client machine (the napi addon's `ClientMachine`, same methods and outputs). */
export class ClientMachine {
  constructor(config = {}) {
    const c = { ...config }
    for (const k of ['requestTimeoutMs', 'probeTimeoutMs']) if (c[k] !== undefined && c[k] !== null) c[k] = String(u64(c[k], k))
    this.inner = call(() => new glue.WasmClient(JSON.stringify(c)))
    this.waker = null
    this.scheduled = false
  }
  /** The output-ready signal: `callback()` runs in a microtask (never inside a machine
   * call, after the call that queued an output on an empty queue has returned). Drain
   * `pollOutput()` until `null`; the next output calls it again. */
  setWaker(callback) {
    this.waker = callback
    this.scheduled = false
    this.inner.takeWoken()
    // Output already waiting wakes at once (as the core's `set_waker`).
    if (this.inner.hasOutput) this._schedule()
  }
  get hasOutput() { return this.inner.hasOutput }
  _schedule() {
    if (!this.waker || this.scheduled) return
    this.scheduled = true
    queueMicrotask(() => this.waker?.())
  }
  // After every call that may queue output.
  _woke(result) {
    if (this.inner.takeWoken()) this._schedule()
    return result
  }
  _id(f) { return this._woke(out64(call(f))) }
  connect(nowMs) { const t = time(nowMs); this._woke(this.inner.connect(t)) }
  discover(nowMs, options) { const t = time(nowMs); return this._id(() => this.inner.discover(t, Boolean(options?.refresh))) }
  listResources(nowMs, options) { const t = time(nowMs); return this._id(() => this.inner.listResources(t, ...listArgs(options))) }
  listResourceTemplates(nowMs, options) { const t = time(nowMs); return this._id(() => this.inner.listResourceTemplates(t, ...listArgs(options))) }
  listPrompts(nowMs, options) { const t = time(nowMs); return this._id(() => this.inner.listPrompts(t, ...listArgs(options))) }
  readResource(uri, nowMs, options) { const t = time(nowMs); return this._id(() => this.inner.readResource(String(uri), t, Boolean(options?.refresh))) }
  readCached(uri, nowMs) {
    const r = this.inner.readCached(String(uri), time(nowMs))
    return r === undefined ? null : JSON.parse(r)
  }
  getPrompt(name, args, nowMs) {
    const t = time(nowMs)
    const a = strings(args, 'arguments')
    return this._id(() => this.inner.getPrompt(String(name), a, t))
  }
  complete(reference, argument, context, nowMs) {
    const t = time(nowMs)
    const bad = (what) => new TypeError(`complete(): ${what}`)
    let prompt
    if (reference?.type === 'ref/prompt') prompt = true
    else if (reference?.type === 'ref/resource') prompt = false
    else throw bad("ref.type must be 'ref/prompt' or 'ref/resource'")
    const target = prompt ? reference.name : reference.uri
    if (typeof target !== 'string') throw bad(prompt ? 'ref.name must be a string' : 'ref.uri must be a string')
    if (typeof argument?.name !== 'string') throw bad('argument.name must be a string')
    if (typeof argument.value !== 'string') throw bad('argument.value must be a string')
    const ctx = context === null || context === undefined ? undefined : strings(context, 'context')
    return this._id(() => this.inner.complete(prompt, target, argument.name, argument.value, ctx, t))
  }
  listen(filter, nowMs) {
    const t = time(nowMs)
    return this._id(() => this.inner.listen(JSON.stringify(filter), t))
  }
  cancel(callId, reason, nowMs) {
    const c = u64(callId, 'call')
    const t = time(nowMs)
    this._woke(call(() => this.inner.cancel(c, reason ?? undefined, t)))
  }
  respondInput(callId, responses, nowMs) {
    const c = u64(callId, 'call')
    const t = time(nowMs)
    if (responses === null || typeof responses !== 'object') throw new TypeError('responses must be an object')
    const keys = Object.keys(responses)
    const values = keys.map((k) => {
      const text = JSON.stringify(responses[k])
      if (typeof text !== 'string') throw new TypeError('responses[key] must be a JSON value (an object in the spec\'s wire shape)')
      return text
    })
    this._woke(call(() => this.inner.respondInput(c, keys, values, t)))
  }
  handleMessage(message, nowMs) { const t = time(nowMs); this._woke(this.inner.handleMessage(bytes(message), t)) }
  handleTimeout(nowMs) { this._woke(this.inner.handleTimeout(time(nowMs))) }
  handleRequestFailed(id, nowMs) {
    const t = time(nowMs)
    this._woke(this.inner.handleRequestFailed(BigInt(Math.trunc(Number(id)) || 0), t))
  }
  handleClose(nowMs) { this._woke(this.inner.handleClose(time(nowMs))) }
  setAuthContext(auth) { this.inner.setAuthContext(auth === null || auth === undefined ? undefined : u64(auth, 'auth')) }
  setRequestAuthContext(id, auth) {
    this.inner.setRequestAuthContext(BigInt(Math.trunc(Number(id)) || 0), auth === null || auth === undefined ? undefined : u64(auth, 'auth'))
  }
  pollTimeout() {
    const t = this.inner.pollTimeout()
    return t === undefined ? null : out64(t)
  }
  get outstanding() { return this.inner.outstanding }
  get session() {
    const s = this.inner.session
    return s === undefined ? null : JSON.parse(s)
  }
  pollOutput() {
    const t = this.inner.pollOutput()
    if (t === undefined) { this.scheduled = false; return null }
    const o = JSON.parse(t)
    take(o, o.ptr, 'bytes')
    delete o.ptr
    if (o.call !== undefined) o.call = big(o.call)
    if (o.subscription !== undefined) o.subscription = big(o.subscription)
    if (o.bigId) { o.id = BigInt(o.id); delete o.bigId }
    if (o.error) o.error = errorOf(o.error)
    return o
  }
}

/** The core's cursor into a list assembled from several sources, and back (`null`: not one). */
export const encodeAppCursor = (source, offset) => glue.encodeAppCursor(String(source), offset)
export function decodeAppCursor(text) {
  const t = glue.decodeAppCursor(String(text))
  return t === undefined ? null : JSON.parse(t)
}

/** One server-sent event carrying `message` (the core's framing). */
export const sseEvent = (message) => glue.sseEvent(message)
export const observeNames = () => JSON.parse(glue.observeNames())
export const parseTraceParent = (text) => JSON.parse(glue.parseTraceParent(String(text)))
/** The keepalive comment an idle event stream gets, and how often (ms). */
export function sseKeepalive() { return glue.sseKeepalive() }
export function sseKeepaliveIntervalMs() { return glue.sseKeepaliveIntervalMs() }

// `UriTemplate` and `Router`: template.mjs (buffers in linear memory).
export { Router, UriTemplate } from './template.mjs'

/** The client-side OAuth flow: the addon's `Authorizer` (see `AuthConfig`, `AuthAction`). */
export class Authorizer {
  constructor(config) {
    const c = { ...config }
    for (const k of ['maxAuthorizations', 'refreshSkewMs']) if (c[k] !== undefined && c[k] !== null) c[k] = int(c[k], k)
    this.inner = call(() => new glue.WasmAuthorizer(JSON.stringify(c)))
  }
  restore(tokens) {
    const t = { ...tokens }
    if (t.expiresAtMs !== undefined && t.expiresAtMs !== null) t.expiresAtMs = String(u64(t.expiresAtMs, 'expiresAtMs'))
    return call(() => this.inner.restore(JSON.stringify(t)))
  }
  tokens() { return JSON.parse(this.inner.tokens()) }
  pollAction() {
    const a = JSON.parse(this.inner.pollAction())
    if (a?.type === 'fetch') a.body = Uint8Array.from(a.body)
    return a
  }
  get isBusy() { return this.inner.isBusy }
  authContext() { const a = this.inner.authContext(); return a === undefined ? null : Number(a) }
  authorizationHeader(url, nowMs) { return this.inner.authorizationHeader(String(url), time(nowMs)) ?? null }
  refreshDue(nowMs) { return this.inner.refreshDue(time(nowMs)) }
  startRefresh(nowMs) { this.inner.startRefresh(time(nowMs)) }
  handleSuccess() { this.inner.handleSuccess() }
  handleChallenge(status, wwwAuthenticate, entropy, nowMs) {
    const t = time(nowMs)
    call(() => this.inner.handleChallenge(int(status, 'status'), wwwAuthenticate ?? undefined, entropy, t))
  }
  handleFetched(id, status, body, nowMs) { this.inner.handleFetched(u64(id, 'id'), int(status, 'status'), body, time(nowMs)) }
  handleFetchFailed(id, nowMs) { this.inner.handleFetchFailed(u64(id, 'id'), time(nowMs)) }
  handleRedirect(url, nowMs) { this.inner.handleRedirect(String(url), time(nowMs)) }
}
