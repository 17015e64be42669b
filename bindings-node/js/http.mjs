// `server.fetch(request)`: Streamable HTTP as a web-standard handler (`Request` →
// `Promise<Response>`), for Node (through `node.mjs`), Deno, browsers and Workers.
//
// Every check is the core's HTTP entry point (docs/server-machine.md, "The HTTP entry
// point"): `httpHead` before the body is read (path, Host/Origin, method, Content-Type,
// Accept, Content-Length against the limit, 4 MiB by default), `handleHttp` with the body
// (read up to the limit) for the rest and the machine. One machine stream per POST; the
// answer is the core's complete response, or its transmits: JSON, or SSE through a
// `ReadableStream` for `subscriptions/listen` and any response the machine streams.
// Nothing here parses JSON-RPC.

const encoder = new TextEncoder()
const SSE_HEAD = encoder.encode('data: ')
const SSE_TAIL = encoder.encode('\n\n')

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

/** The request facts the core checks (`RequestHead`). */
function headOf(request) {
  const h = request.headers
  const get = (name) => h.get(name) ?? undefined
  const length = h.get('content-length')
  return {
    method: request.method, path: pathOf(request.url), host: get('host') ?? new URL(request.url).host, origin: get('origin'),
    contentType: get('content-type'), contentLength: length === null ? undefined : Number(length),
    protocolVersion: get('mcp-protocol-version'), mcpMethod: get('mcp-method'), mcpName: get('mcp-name'),
    accept: get('accept'), sessionId: get('mcp-session-id'),
  }
}

/**
 * The fetch handler of `server` (an `McpServer`): the core's HTTP entry point does every
 * check (`httpHead` before the body, `handleHttp` with it); this moves bytes only.
 */
export function fetchHandler(server) {
  let nextStream = 1
  const machine = server.machine
  return async function fetch(request) {
    const head = headOf(request)
    const check = machine.httpHead(head)
    if (!check.readBody) return toResponse(check)
    const body = await readBody(request, Number(check.limit))
    const stream = nextStream++
    return new Promise((resolve) => {
      let controller = null
      let answered = false
      const end = () => { server.detach(stream, false); try { controller?.close() } catch {} }
      server.attach(stream, (t) => {
        if (!answered) {
          answered = true
          if (t.kind === 'json') {
            server.detach(stream, false)
            resolve(new Response(t.bytes, { status: t.httpStatus, headers: t.headers }))
            return
          }
          resolve(new Response(new ReadableStream({
            start(c) { controller = c },
            cancel() { server.detach(stream, true) },
          }), { status: t.httpStatus, headers: t.headers }))
        }
        const frame = new Uint8Array(SSE_HEAD.length + t.bytes.length + SSE_TAIL.length)
        frame.set(SSE_HEAD, 0)
        frame.set(t.bytes, SSE_HEAD.length)
        frame.set(SSE_TAIL, SSE_HEAD.length + t.bytes.length)
        controller.enqueue(frame)
        if (t.endOfStream) end()
      })
      request.signal?.addEventListener?.('abort', () => server.detach(stream, true))
      const start = machine.handleHttp(head, body, Date.now(), { stream, auth: 0, peer: server.peerOf?.(request) ?? undefined })
      if (start.eventStream) {
        // A 2025-11-25 session's GET stream: the head now, events as they come.
        answered = true
        resolve(new Response(new ReadableStream({
          start(c) { controller = c },
          cancel() { server.detach(stream, true) },
        }), { status: start.status, headers: start.headers }))
      } else if (start.stream === undefined) {
        server.detach(stream, false)
        resolve(toResponse(start))
      }
      server._pump()
    })
  }
}
