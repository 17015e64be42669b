// Node runners for an `McpServer`: newline-delimited stdio, and Streamable HTTP on
// node:http straight onto the core's HTTP entry point (the head check runs before any byte
// of the body is read; the same checks and answers as `server.fetch`, without web
// `Request`/`Response` objects in between). Node built-ins are imported when a
// runner starts, so the package also loads where they do not exist (Workers, browsers).

/** Serves `server` over stdio (one JSON-RPC message per line). Resolves to the line reader. */
export async function serveStdio(server, { input = process.stdin, output = process.stdout } = {}) {
  const { createInterface } = await import('node:readline')
  output.on?.('error', () => {}) // a closed pipe: the reader is gone
  server.attach(0, (t) => {
    const line = new Uint8Array(t.bytes.length + 1)
    line.set(t.bytes)
    line[t.bytes.length] = 10
    output.write(line)
  })
  const rl = createInterface({ input, crlfDelay: Infinity })
  rl.on('line', (line) => { if (line.trim() !== '') server.receive(line, 0, 'stdio') })
  rl.on('close', () => server.close())
  return rl
}

/**
 * A node:http request listener for `server`: an `McpServer` is served straight from the
 * node:http request onto the core's HTTP entry point (`httpHead` before any byte of the body
 * is read, `handleHttp` with the body, the answer written from the core's status, headers
 * and bytes; no web `Request`/`Response` in between); anything else with a `fetch(request)`
 * (a web-standard handler) through `Request` and `Response`. The core answers 404 off its
 * path.
 */
export async function toNodeHandler(server) {
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
const SSE_HEAD = new TextEncoder().encode('data: ')
const SSE_TAIL = new TextEncoder().encode('\n\n')

/** One SSE event around `bytes`, in one write. */
function sseFrame(bytes) {
  const frame = new Uint8Array(SSE_HEAD.length + bytes.length + SSE_TAIL.length)
  frame.set(SSE_HEAD, 0)
  frame.set(bytes, SSE_HEAD.length)
  frame.set(SSE_TAIL, SSE_HEAD.length + bytes.length)
  return frame
}

/** The request target's path, as `new URL(...).pathname` gives it. */
function pathOf(target) {
  const q = target.indexOf('?')
  const raw = q === -1 ? target : target.slice(0, q)
  // Anything URL parsing could change (dot segments, escapes, backslashes, absolute form).
  return raw.charCodeAt(0) === 47 && !/[.%\\#]/.test(raw) ? raw : new URL(target, 'http://localhost').pathname
}

/** The request facts the core checks (`RequestHead`), from node:http's parsed head. */
function headOf(req) {
  const h = req.headers
  const length = h['content-length']
  return {
    method: req.method, path: pathOf(req.url), host: h.host ?? 'localhost', origin: h.origin,
    contentType: h['content-type'], contentLength: length === undefined ? undefined : Number(length),
    protocolVersion: h['mcp-protocol-version'], mcpMethod: h['mcp-method'], mcpName: h['mcp-name'],
    accept: h.accept, sessionId: h['mcp-session-id'],
  }
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
  let nextStream = 1

  /** Feeds the body to the machine and answers: JSON at once or as transmits, or SSE. */
  function handle(req, res, head, body) {
    const stream = nextStream++
    let sse = false
    let open = true
    const end = () => { server.detach(stream, false); open = false; res.end() }
    server.attach(stream, (t) => {
      if (!open) return
      if (!sse) {
        if (t.kind === 'json') {
          server.detach(stream, false)
          open = false
          res.writeHead(t.httpStatus, flat(t.headers, t.bytes.length))
          res.end(t.bytes)
          return
        }
        sse = true
        res.writeHead(t.httpStatus, flat(t.headers))
        res.flushHeaders()
      }
      res.write(sseFrame(t.bytes))
      if (t.endOfStream) end()
    })
    res.on('close', () => { if (open) { open = false; server.detach(stream, true) } })
    let start
    try {
      start = machine.handleHttp(head, body, Date.now(), { stream, auth: 0, peer: req.socket.remoteAddress })
    } catch (err) {
      server.detach(stream, false)
      throw err
    }
    if (start.eventStream) {
      // A 2025-11-25 session's GET stream: the head now, events as they come.
      sse = true
      res.writeHead(start.status, flat(start.headers))
      res.flushHeaders()
    } else if (start.stream === undefined) {
      server.detach(stream, false)
      open = false
      complete(res, start, true)
    }
    server._pump()
  }

  return (req, res) => {
    try {
      const head = headOf(req)
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
          handle(req, res, head, body)
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
 * path is the server's `http.path`, /mcp). Resolves to the listening `http.Server`.
 */
export async function serveHttp(server, { port = 0, host = '127.0.0.1' } = {}) {
  const http = await import('node:http')
  const srv = http.createServer(await toNodeHandler(server))
  await new Promise((resolve) => srv.listen(port, host, resolve))
  return srv
}
