// Node runners for an `McpServer`: newline-delimited stdio, and Streamable HTTP on
// node:http through `server.fetch` (the request's body is streamed into the fetch handler,
// so the head check runs before any byte of it is read). Node built-ins are imported when a
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

/** A node:http request listener serving `server.fetch` (the core answers 404 off its path). */
export async function toNodeHandler(server) {
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
