// `server.fetch(request)`: Streamable HTTP as a web-standard handler (`Request` →
// `Promise<Response>`), for Node (through `node.mjs`), Deno, browsers and Workers.
//
// Every check is the core's HTTP entry point (docs/server-machine.md, "The HTTP entry
// point"): `httpHead` before the body is read (path, Host/Origin, method, Content-Type,
// Accept, Content-Length against the limit, 4 MiB by default), `handleHttp` with the body
// (read up to the limit) for the rest and the machine. One machine stream per POST; the
// answer is the core's complete response, or its transmits: JSON, or SSE through a
// `ReadableStream` for `subscriptions/listen` and any response the machine streams.
// Nothing here parses JSON-RPC. A protected endpoint's door (`protect.mjs`) comes first.

import { authenticate } from './protect.mjs'
import { sessionBefore, sessionStream } from './session-hooks.mjs'


/** Reads `request`'s body, stopping after `limit + 1` bytes (the core answers 413). */
async function readBody(request, limit) {
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    chunks.push(value)
    if (size > limit) { await reader.cancel().catch(() => {}); break }
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.byteLength }
  return out
}

/** The core's complete answer as a `Response`. */
function toResponse(r) {
  return new Response(r.body?.length ? r.body : null, { status: r.status, headers: r.headers })
}

/**
 * The path of `url`, a serialized absolute URL (`Request.url`): from the first `/` after the
 * authority to `?` or `#`, which is `new URL(url).pathname` without parsing it again.
 */
function pathOf(url) {
  const scheme = url.indexOf('://')
  if (scheme === -1) return new URL(url).pathname
  const start = url.indexOf('/', scheme + 3)
  if (start === -1) return '/'
  let end = url.length
  const q = url.indexOf('?', start)
  if (q !== -1) end = q
  const f = url.indexOf('#', start)
  if (f !== -1 && f < end) end = f
  return url.slice(start, end)
}

/**
 * The host (and port) of `url`, a serialized absolute URL (`Request.url`): what
 * `new URL(url).host` gives (serialization already lowered the host and dropped a default
 * port), without parsing it again; the userinfo, if any, is not part of it.
 */
function authorityOf(url) {
  const scheme = url.indexOf('://')
  if (scheme === -1) return new URL(url).host
  const start = scheme + 3
  let end = url.length
  for (const c of ['/', '?', '#']) {
    const i = url.indexOf(c, start)
    if (i !== -1 && i < end) end = i
  }
  const at = url.lastIndexOf('@', end)
  return url.slice(at >= start ? at + 1 : start, end)
}

/** The request head as the core reads it: method, path and the header lines (the core maps
 * them); the URL's authority stands for a missing `Host` (`:authority`). */
function headOf(request) {
  const headers = []
  for (const [name, value] of request.headers) headers.push(name, value)
  const url = request.url
  headers.push(':authority', authorityOf(url))
  return { method: request.method, path: pathOf(url), headers }
}

/**
 * The fetch handler of `server` (an `McpServer`): the core's HTTP entry point does every
 * check (`httpHead` before the body, `handleHttp` with it); this moves bytes only.
 * `sessions`: a fleet's session store (`RedisSessionStore` from
 * `mcp-context-primitives/redis-sessions`; also taken when attached to `server` later): the
 * session a request names is read from it first, its changes are stored before the answer
 * goes, and a GET stream's events are stored as they are sent (resumable anywhere).
 */
export function fetchHandler(server, { sessions } = {}) {
  sessions?.attach(server)
  const machine = server.machine
  return async function fetch(request) {
    const head = headOf(request)
    let door = authenticate(server, head)
    if (door.then) door = await door // a verifier at work (protected endpoints only)
    if (door.response) return toResponse(door.response)
    const check = machine.httpHead(head)
    if (!check.readBody) return toResponse(check)
    const body = await readBody(request, Number(check.limit))
    const store = server._sessions
    const s = store ? await sessionBefore(store, head) : null
    const stream = server.openStream()
    if (server._obs !== null) server._obs.header(stream, request.headers.get('traceparent'))
    const { event, keepalive, intervalMs } = server.sse
    return new Promise((answer, reject) => {
      // A fleet's sessions: the answer waits until their changes are stored (taken once the
      // machine has the request: at its start, or at its first transmit after middleware).
      let ready = null
      const stored = () => { if (s !== null && ready === null) ready = s.store.flush() }
      const resolve = (r) => { stored(); if (ready === null) answer(r); else ready.then(() => answer(r), () => answer(new Response(null, { status: 500 }))) }
      let shared = null // a shared session's GET stream: its writer
      let controller = null
      let answered = false
      let idle = null // the keepalive timer of an event stream
      const events = () => {
        idle = setInterval(() => { try { controller?.enqueue(keepalive) } catch { clearInterval(idle) } }, intervalMs)
        idle.unref?.()
        return new ReadableStream({
          start(c) { controller = c },
          cancel() { clearInterval(idle); s?.store.released(stream); server.detach(stream, true) },
        })
      }
      const end = () => { clearInterval(idle); s?.store.released(stream); server.detach(stream, false); try { controller?.close() } catch {} }
      server.attach(stream, (t) => {
        if (shared !== null) { shared(t.bytes); return }
        if (!answered) {
          answered = true
          if (t.kind === 'json') {
            server.detach(stream, false)
            resolve(new Response(t.bytes, { status: t.httpStatus, headers: t.headers }))
            return
          }
          resolve(new Response(events(), { status: t.httpStatus, headers: t.headers }))
        }
        controller.enqueue(event(t.bytes))
        if (t.endOfStream) end()
      })
      const aborted = () => { clearInterval(idle); s?.store.released(stream); server.detach(stream, true) }
      request.signal?.addEventListener?.('abort', aborted)
      const go = (start) => {
        stored()
        if (start.eventStream) {
          // A 2025-11-25 session's GET stream: the head now, events as they come.
          answered = true
          resolve(new Response(events(), { status: start.status, headers: start.headers }))
          if (s !== null && s.session !== null) {
            shared = sessionStream(server, s, stream, (b) => { try { controller?.enqueue(b) } catch {} }, event)
            s.store.holds(stream, end)
          }
        } else if (start.stream === undefined) {
          server.detach(stream, false)
          resolve(toResponse(start))
        }
        server._flush()
        if (s !== null && request.signal?.aborted) aborted() // gone while the store was read
      }
      // Through the middleware at the core's gate when there is some (a promise then).
      const start = server.handleHttp(head, body, { stream, auth: door.auth, scopes: door.scopes, peer: server.peerOf?.(request) ?? undefined })
      if (typeof start.then === 'function') start.then(go, reject)
      else go(start)
    })
  }
}
