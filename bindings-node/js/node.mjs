// Node runners for an `McpServer`: newline-delimited stdio, and Streamable HTTP on
// node:http straight onto the core's HTTP entry point (the head check runs before any byte
// of the body is read; the same checks and answers as `server.fetch`, without web
// `Request`/`Response` objects in between). Node built-ins are imported when a
// runner starts, so the package also loads where they do not exist (Workers, browsers).

import { authenticate } from './protect.mjs'
import { sessionBefore, sessionStream } from './session-hooks.mjs'

/** Serves `server` over stdio (one JSON-RPC message per line; the core splits the lines and
 * answers one over its bound with -32600). Resolves to the input stream. */
export async function serveStdio(server, { input = process.stdin, output = process.stdout } = {}) {
  output.on?.('error', () => {}) // a closed pipe: the reader is gone
  const stream = server.openStream()
  // The lines of one turn (every answer to a chunk of input, sync or async handlers alike)
  // go out in one write, on the next tick: a write per line was a fifth of a read's time.
  let lines = []
  let size = 0
  const write = () => {
    const out = new Uint8Array(size)
    let at = 0
    for (const b of lines) { out.set(b, at); at += b.length; out[at++] = 10 }
    lines = []
    size = 0
    output.write(out)
  }
  server.attach(stream, (t) => {
    if (size === 0) process.nextTick(write)
    lines.push(t.bytes)
    size += t.bytes.length + 1
  })
  input.on('data', (chunk) => server.receiveStdio(chunk, stream))
  input.on('end', () => { server.receiveStdio(Buffer.alloc(0), stream, true); server.close() })
  return input
}

/**
 * A node:http request listener for `server`: an `McpServer` is served straight from the
 * node:http request onto the core's HTTP entry point (`httpHead` before any byte of the body
 * is read, `handleHttp` with the body, the answer written from the core's status, headers
 * and bytes; no web `Request`/`Response` in between); anything else with a `fetch(request)`
 * (a web-standard handler) through `Request` and `Response`. The core answers 404 off its
 * path.
 */
export async function toNodeHandler(server, { sessions } = {}) {
  sessions?.attach(server)
  if (server.machine) return nodeHandler(server)
  const { Readable } = await import('node:stream')
  return (req, res) => {
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
    }
    const controller = new AbortController()
    res.on('close', () => controller.abort())
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
      method: req.method, headers, signal: controller.signal,
      ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
    })
    server.fetch(request).then(async (response) => {
      const headers = Object.fromEntries(response.headers)
      if (!response.body || !(headers['content-type'] ?? '').startsWith('text/event-stream')) {
        // A complete body: one write with its length (no chunked framing, no Nagle wait).
        const body = response.body ? new Uint8Array(await response.arrayBuffer()) : new Uint8Array(0)
        res.writeHead(response.status, { ...headers, 'content-length': body.length })
        res.end(body)
        return
      }
      res.writeHead(response.status, headers)
      res.flushHeaders()
      const reader = response.body.getReader()
      res.on('close', () => reader.cancel().catch(() => {}))
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        res.write(value)
      }
      res.end()
    }).catch((err) => {
      server.onerror?.(err)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  }
}

// Plain bytes, not `Buffer`: this module also loads where Node's globals do not exist.

/** The request facts the core checks (`RequestHead`), from node:http's parsed head. */
function headOf(req) {
  return { method: req.method, path: req.url, headers: req.rawHeaders }
}

/** The core's `[name, value]` pairs as node:http's flat raw-header list. */
function flat(pairs, extra) {
  const out = []
  for (let i = 0; i < pairs.length; i++) out.push(pairs[i][0], pairs[i][1])
  if (extra !== undefined) out.push('content-length', String(extra))
  return out
}

/** Writes the core's complete answer (`{status, headers, body}`) in one write. */
function complete(res, r, keepAlive) {
  const body = r.body ?? EMPTY
  if (!keepAlive) res.shouldKeepAlive = false
  res.writeHead(r.status, flat(r.headers, body.length))
  res.end(body)
}
const EMPTY = new Uint8Array(0)

/** The direct node:http listener of an `McpServer` (see `toNodeHandler`). */
function nodeHandler(server) {
  const machine = server.machine
  // The open event streams, and one keepalive ticker for all of them (a timer per listen
  // would cost memory by the hundred thousand listens); it runs only while one is open.
  const streams = new Set()
  let ticker = null
  const tick = () => { const { keepalive } = server.sse; for (const r of streams) r.write(keepalive) }
  const watch = (res) => {
    streams.add(res)
    if (ticker === null) { ticker = setInterval(tick, server.sse.intervalMs); ticker.unref?.() }
  }
  const unwatch = (res) => {
    if (streams.delete(res) && streams.size === 0) { clearInterval(ticker); ticker = null }
  }

  /** Feeds the body to the machine and answers: JSON at once or as transmits, or SSE.
   * `s`: the session the request names when a fleet's session store is attached
   * (`session-hooks.mjs`): the transmits wait until the session's changes are stored. */
  function handle(req, res, head, body, door, s = null) {
    const stream = server.openStream()
    if (server._obs !== null) server._obs.header(stream, req.headers.traceparent)
    const { event } = server.sse
    let sse = false
    let open = true
    let held = s === null ? null : [] // transmits waiting for the store
    let shared = null // a shared session's GET stream: its writer
    const startSse = () => {
      sse = true
      watch(res)
    }
    const end = () => { unwatch(res); server.detach(stream, false); s?.store.released(stream); open = false; res.end() }
    const deliver = (t) => {
      if (!open) return
      if (shared !== null) { shared(t.bytes); return }
      if (!sse) {
        if (t.kind === 'json') {
          server.detach(stream, false)
          open = false
          res.writeHead(t.httpStatus, flat(t.headers, t.bytes.length))
          res.end(t.bytes)
          return
        }
        startSse()
        res.writeHead(t.httpStatus, flat(t.headers))
        res.flushHeaders()
      }
      res.write(event(t.bytes))
      if (t.endOfStream) end()
    }
    server.attach(stream, s === null ? deliver : (t) => { if (held !== null) held.push(t); else deliver(t) })
    const closed = () => { unwatch(res); s?.store.released(stream); if (open) { open = false; server.detach(stream, true) } }
    res.on('close', closed)
    let start
    try {
      // Through the middleware at the core's gate when there is some (a promise then).
      start = server.handleHttp(head, body, { stream, auth: door.auth, scopes: door.scopes, peer: req.socket.remoteAddress })
    } catch (err) {
      server.detach(stream, false)
      throw err
    }
    const started = (start) => {
      const answer = () => {
        if (start.eventStream) {
          // A 2025-11-25 session's GET stream: the head now, events as they come.
          startSse()
          res.writeHead(start.status, flat(start.headers))
          res.flushHeaders()
          if (s !== null && s.session !== null) {
            shared = sessionStream(server, s, stream, (b) => { if (open) res.write(b) }, event)
            s.store.holds(stream, end)
          }
        } else if (start.stream === undefined) {
          server.detach(stream, false)
          open = false
          complete(res, start, true)
        }
      }
      if (s === null) {
        answer()
        server._flush()
        return
      }
      server._flush() // into `held`
      // A fleet's sessions: stored before the answer goes.
      s.store.flush().then(() => {
        answer()
        const waiting = held
        held = null
        for (const t of waiting) deliver(t)
        if (req.socket?.destroyed) closed() // the client left while the store was read: no 'close' to come
      }).catch((err) => fail(res, err))
    }
    if (typeof start.then === 'function') start.then(started, (err) => { server.detach(stream, false); fail(res, err) })
    else started(start)
  }

  return (req, res) => {
    try {
      const head = headOf(req)
      const door = authenticate(server, head)
      if (door.then) door.then((d) => admitted(req, res, head, d), (err) => fail(res, err))
      else admitted(req, res, head, door)
    } catch (err) {
      fail(res, err)
    }
  }

  /** After the door: its answer, or the head checks, the body and the machine. */
  function admitted(req, res, head, door) {
    try {
      if (door.response) {
        complete(res, door.response, req.complete)
        return
      }
      const check = machine.httpHead(head)
      if (!check.readBody) {
        complete(res, check, req.complete)
        return
      }
      const limit = Number(check.limit)
      const chunks = []
      let size = 0
      const done = () => {
        req.off('data', onData)
        req.off('end', done)
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)
        try {
          if (size > limit) res.shouldKeepAlive = false // the rest stays unread
          const store = server._sessions
          if (store) sessionBefore(store, head).then((s) => handle(req, res, head, body, door, s)).catch((err) => fail(res, err))
          else handle(req, res, head, body, door)
        } catch (err) {
          fail(res, err)
        }
      }
      const onData = (chunk) => {
        size += chunk.length
        chunks.push(chunk)
        if (size > limit) { req.pause(); done() } // 413 from the core, without reading on
      }
      req.on('data', onData)
      req.on('end', done)
    } catch (err) {
      fail(res, err)
    }
  }

  function fail(res, err) {
    server.onerror?.(err)
    if (!res.headersSent) res.writeHead(500)
    res.end()
  }
}

/**
 * Serves `server` over Streamable HTTP on node:http (`host` 127.0.0.1, `port` 0 = any; the
 * path is the server's `http.path`, /mcp). `sessions`: a fleet's session store
 * (`RedisSessionStore` from `mcp-context-primitives/redis-sessions`): the 2025-11-25 sessions
 * are shared with the fleet's other instances. Resolves to the listening `http.Server`.
 */
export async function serveHttp(server, { port = 0, host = '127.0.0.1', sessions } = {}) {
  const http = await import('node:http')
  const srv = http.createServer(await toNodeHandler(server, { sessions }))
  await new Promise((resolve) => srv.listen(port, host, resolve))
  return srv
}
