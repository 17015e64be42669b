// `server.fetch(request)`: Streamable HTTP as a web-standard handler (`Request` →
// `Promise<Response>`), for Node (through `node.mjs`), Deno, browsers and Workers.
//
// One machine stream per POST. The head is checked before the body is read (Host/Origin,
// method, Content-Type, Content-Length against the limit, 4 MiB by default); the body is
// read up to the limit; the answer is JSON, or SSE through a `ReadableStream` for
// `subscriptions/listen` and any response the machine streams.

const MAX_BODY = 4 * 1024 * 1024
const encoder = new TextEncoder()
const SSE_HEAD = encoder.encode('data: ')
const SSE_TAIL = encoder.encode('\n\n')

const PV = 'io.modelcontextprotocol/protocolVersion'
const CAPS = 'io.modelcontextprotocol/clientCapabilities'

function jsonError(status, message, code = -32600, id = null, data = undefined, headers = {}) {
  const error = data === undefined ? { code, message } : { code, message, data }
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error }), {
    status, headers: { 'content-type': 'application/json', ...headers },
  })
}

/** Reads at most `limit` bytes of `request`'s body; `null` when it is longer. */
async function readBody(request, limit) {
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) { await reader.cancel().catch(() => {}); return null }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.byteLength }
  return out
}

// Until the core's HTTP entry point takes the whole request (head and body), the
// MCP-Protocol-Version / Mcp-Method / Mcp-Name headers are compared with the body here,
// through the core's `checkHeaders`, for requests that carry the `_meta` keys (the machine
// answers the others itself, before any header rule applies).
function headerCheck(engine, request, body) {
  let msg
  try { msg = JSON.parse(new TextDecoder().decode(body)) } catch { return null }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return null
  if (typeof msg.method !== 'string' || !('id' in msg)) return null
  const meta = msg.params?._meta
  if (!meta || typeof meta[PV] !== 'string' || typeof meta[CAPS] !== 'object' || meta[CAPS] === null) return null
  const name = msg.method === 'resources/read' ? msg.params.uri : msg.params.name
  try {
    engine.checkHeaders(
      {
        protocolVersion: request.headers.get('mcp-protocol-version') ?? undefined,
        method: request.headers.get('mcp-method') ?? undefined,
        name: request.headers.get('mcp-name') ?? undefined,
      },
      { protocolVersion: meta[PV], method: msg.method, name: typeof name === 'string' ? name : undefined },
    )
  } catch (err) {
    if (typeof err?.code !== 'number') throw err
    return jsonError(err.httpStatus ?? 400, err.message, err.code, msg.id, err.data)
  }
  return null
}

/**
 * The fetch handler of `server` (an `McpServer`). Options: `maxBody` (bytes, 4 MiB),
 * `allowedHosts` (Host/Origin allow-list, default localhost names).
 */
export function fetchHandler(server, { maxBody = MAX_BODY, allowedHosts } = {}) {
  let nextStream = 1
  const engine = server.engine
  return async function fetch(request) {
    const url = new URL(request.url)
    try {
      engine.checkOrigin(request.headers.get('host') ?? url.host, request.headers.get('origin') ?? undefined, allowedHosts)
    } catch (err) {
      return jsonError(err.httpStatus ?? 403, err.message)
    }
    if (request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { allow: 'POST' } })
    }
    const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
    if (type !== 'application/json') return jsonError(415, 'Unsupported Media Type: Content-Type must be application/json')
    const length = Number(request.headers.get('content-length') ?? 0)
    if (length > maxBody) return jsonError(413, `Payload Too Large: over ${maxBody} bytes`)
    const body = await readBody(request, maxBody)
    if (body === null) return jsonError(413, `Payload Too Large: over ${maxBody} bytes`)
    const refused = headerCheck(engine, request, body)
    if (refused) return refused

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
            resolve(new Response(t.bytes, { status: t.httpStatus, headers: { 'content-type': 'application/json' } }))
            return
          }
          resolve(new Response(new ReadableStream({
            start(c) {
              controller = c
            },
            cancel() { server.detach(stream, true) },
          }), { status: t.httpStatus, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } }))
        }
        const frame = new Uint8Array(SSE_HEAD.length + t.bytes.length + SSE_TAIL.length)
        frame.set(SSE_HEAD, 0)
        frame.set(t.bytes, SSE_HEAD.length)
        frame.set(SSE_TAIL, SSE_HEAD.length + t.bytes.length)
        controller.enqueue(frame)
        if (t.endOfStream) end()
      })
      request.signal?.addEventListener?.('abort', () => server.detach(stream, true))
      const kind = server.receive(body, stream, 'http')
      if (!answered && kind !== 'request') {
        answered = true
        server.detach(stream, false)
        resolve(new Response(null, { status: 202 }))
      }
    })
  }
}
