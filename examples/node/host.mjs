// Transports for a ServerMachine: Streamable HTTP on node:http and newline-delimited stdio.
// They only move bytes: every MCP rule is the machine's (docs/server-machine.md), the Host /
// Origin and header checks are the core's (checkOrigin, checkHeaders). `app.onEvent(server,
// event)` answers the machine's events (reads, prompts, completions).
import http from 'node:http'
import { createInterface } from 'node:readline'

import { checkHeaders, checkOrigin, McpError, OriginError } from '../../bindings-node/index.js'

const PV = 'io.modelcontextprotocol/protocolVersion'
const CAPS = 'io.modelcontextprotocol/clientCapabilities'

/** Drains the machine: transmits go to `write(t)`, events to the app; then re-arms the timer. */
function pump(state) {
  const { server, app } = state
  for (let out; (out = server.pollOutput()) !== null;) {
    if (out.type === 'transmit') state.write(out)
    else app.onEvent(server, out)
  }
  clearTimeout(state.timer)
  const deadline = server.pollTimeout()
  if (deadline !== null) {
    const delay = Math.max(0, Number(deadline) - Date.now())
    state.timer = setTimeout(() => { server.handleTimeout(Date.now()); pump(state) }, delay)
    state.timer.unref()
  }
}

/** The fields of a parsed body that `checkHeaders` compares, or null when the machine must
 * answer first (not a request, or the `_meta` keys are missing: -32602 before -32020). */
function bodyFields(msg) {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return null
  if (typeof msg.method !== 'string' || !('id' in msg)) return null
  const meta = msg.params?._meta
  if (!meta || typeof meta[PV] !== 'string' || typeof meta[CAPS] !== 'object' || meta[CAPS] === null) return null
  const p = msg.params
  const name = msg.method === 'resources/read' ? p.uri : p.name
  return { protocolVersion: meta[PV], method: msg.method, name: typeof name === 'string' ? name : undefined }
}

function header(req, name) {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * Streamable HTTP (DIGEST §15) on `127.0.0.1`: POST `/mcp` only (405 otherwise), one machine
 * stream per POST; JSON responses, `text/event-stream` for `subscriptions/listen`.
 * Resolves to the listening `http.Server`, with `flush()`: call it after changing the machine
 * outside a request (`resourceUpdated`, `shutdown`, …) to send what that produced.
 */
export function serveHttp(app, { port = 0, host = '127.0.0.1', path = '/mcp' } = {}) {
  const responses = new Map() // stream id -> { res, started }
  let nextStream = 1
  const state = {
    server: app.server, app, timer: undefined,
    write(t) {
      const r = responses.get(Number(t.stream))
      if (!r) return
      if (!r.started) {
        r.started = true
        r.res.writeHead(t.httpStatus, t.kind === 'sse'
          ? { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' }
          : { 'content-type': 'application/json' })
      }
      if (t.kind === 'sse') r.res.write(Buffer.concat([Buffer.from('data: '), t.bytes, Buffer.from('\n\n')]))
      else r.res.write(t.bytes)
      if (t.endOfStream || t.kind === 'json') { responses.delete(Number(t.stream)); r.res.end() }
    },
  }
  const reject = (res, status, message, id = null, code = -32600, data = undefined) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }))
  }
  const srv = http.createServer((req, res) => {
    try {
      checkOrigin(header(req, 'host'), header(req, 'origin'))
    } catch (err) {
      if (err instanceof OriginError) return reject(res, err.httpStatus, err.message)
      throw err
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== path) { res.writeHead(404).end(); return }
    if (req.method !== 'POST') { res.writeHead(405, { allow: 'POST' }).end(); return }
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      let msg
      try { msg = JSON.parse(body.toString('utf8')) } catch { msg = undefined }
      const fields = bodyFields(msg)
      if (fields) {
        try {
          checkHeaders({
            protocolVersion: header(req, 'mcp-protocol-version'),
            method: header(req, 'mcp-method'),
            name: header(req, 'mcp-name'),
          }, fields)
        } catch (err) {
          if (err instanceof McpError) return reject(res, err.httpStatus, err.message, msg.id, err.code, err.data)
          throw err
        }
      }
      const stream = nextStream++
      responses.set(stream, { res, started: false })
      res.on('close', () => {
        if (responses.delete(stream)) { app.server.streamClosed(stream); pump(state) }
      })
      const kind = app.server.handleMessage(body, Date.now(), { stream, transport: 'http' })
      pump(state)
      const r = responses.get(stream)
      if (r && !r.started && kind !== 'request') {
        responses.delete(stream)
        res.writeHead(202).end()
      }
    })
  })
  srv.flush = () => pump(state)
  return new Promise((resolve) => srv.listen(port, host, () => resolve(srv)))
}

/** stdio (DIGEST §15): one JSON-RPC message per line in, one per line out. */
export function serveStdio(app, { input = process.stdin, output = process.stdout } = {}) {
  const state = {
    server: app.server, app, timer: undefined,
    write(t) { output.write(Buffer.concat([t.bytes, Buffer.from('\n')])) },
  }
  const rl = createInterface({ input, crlfDelay: Infinity })
  rl.on('line', (line) => {
    if (line.trim() === '') return
    app.server.handleMessage(line, Date.now(), { stream: 0, transport: 'stdio' })
    pump(state)
  })
  rl.on('close', () => { app.server.shutdown(); pump(state); clearTimeout(state.timer) })
  rl.flush = () => pump(state)
  return rl
}
