#!/usr/bin/env node
// One Node instance of the notes fleet (examples/scale-out, docs/scale-out.md): the same
// catalogue as examples/python/notes_instance.py (seven notes, the project-note template, the
// review_note prompt, the write_note and delete_note tools), the fleet's sealing keys and page
// size, and the package's Redis broker (mcp-context-primitives/redis, on the `redis` package).
//
//   node examples/node/notes-instance.mjs --port 0 --redis redis://127.0.0.1:6379/0 \
//       --fleet notes --keys 2:<64 hex>,1:<64 hex> [--page-size 3] [--health-s 5] \
//       [--share-sessions] [--max-sessions N] [--runner node|fetch] [--middleware]
//
// `--share-sessions`: 2025-11-25 sessions and their GET streams' events in Redis too
// (mcp-context-primitives/redis-sessions), shared with the Python and Rust instances.
// `--runner fetch`: served through `server.fetch` (web `Request`/`Response`) on node:http
// rather than straight on node:http (the default). `--middleware`: an audit middleware that
// yields to the event loop before `next()`, so every request goes through the core's gate and
// reaches the machine later (a promise in the runners).
//
// Note texts live in this process (the Python instance keeps them in a shared SQLite file):
// what the fleet shares here is the catalogue, the keys and the change events.
import { createServer } from 'node:http'
import { McpServer, ResourceTemplate, ResourceNotFoundError, McpError, serveHttp, toNodeHandler } from 'mcp-context-primitives/server'
import { RedisBroker } from 'mcp-context-primitives/redis'
import { RedisSessionStore } from 'mcp-context-primitives/redis-sessions'
import { createClient } from 'redis'

const NOTES = [
  ['notes://note-1', 'Welcome', 'How these notes work', '# Welcome\nNotes are markdown.'],
  ['notes://note-2', 'Groceries', 'Shopping list', '- milk\n- bread'],
  ['notes://note-3', 'Standup', 'Daily standup log', 'Shipped the parser.'],
  ['notes://note-4', 'Ideas', 'Product ideas', 'A notes server on a sans-IO core.'],
  ['notes://note-5', 'Reading', 'Books to read', 'RFC 6570, RFC 3986.'],
  ['notes://note-6', "Alice's diary", 'Private to alice', 'Dear diary...'],
  ['notes://note-7', 'Payroll', 'Never cached', 'Salaries: confidential.'],
]
const PROJECT_NOTES = { 'apollo/1': '# Apollo 1\nLaunch checklist.', 'apollo/2': '# Apollo 2\nPost-mortem.' }

const opts = { port: 0, redis: null, fleet: 'notes', keys: null, pageSize: 3, healthS: 5, shareSessions: false, maxSessions: null, runner: 'node', middleware: false }
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i += 2) {
  const [flag, v] = [argv[i], argv[i + 1]]
  if (flag === '--share-sessions') { opts.shareSessions = true; i--; continue }
  if (flag === '--middleware') { opts.middleware = true; i--; continue }
  if (flag === '--max-sessions') opts.maxSessions = Number(v)
  else if (flag === '--runner') opts.runner = v
  else if (flag === '--port') opts.port = Number(v)
  else if (flag === '--redis') opts.redis = v
  else if (flag === '--fleet') opts.fleet = v
  else if (flag === '--keys') opts.keys = v.split(',').map((p) => { const [id, hex] = p.split(':'); return { id: Number(id), secret: Buffer.from(hex, 'hex') } })
  else if (flag === '--page-size') opts.pageSize = Number(v)
  else if (flag === '--health-s') opts.healthS = Number(v)
  else if (flag === '--db') { /* the Python instance's shared store */ } else throw new Error(`unknown flag ${flag}`)
}

/** A Standard Schema for an object of required string properties (no schema library). */
const strings = (...names) => ({
  '~standard': {
    version: 1,
    vendor: 'notes',
    validate: (v) => names.every((n) => typeof v?.[n] === 'string') ? { value: v } : { issues: [{ message: `${names.join(', ')}: strings` }] },
    jsonSchema: { input: () => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])), required: names }) },
  },
})

const texts = new Map() // uri -> text, or null once deleted
const read = (auth, uri) => {
  const note = NOTES.find((n) => n[0] === uri)
  if (!note || (uri === 'notes://note-6' && auth !== 1)) return null
  return texts.has(uri) ? texts.get(uri) : note[3]
}

const server = new McpServer(
  { name: 'notes-server', version: '0.1.0' },
  { pageSize: opts.pageSize, ...(opts.keys ? { stateKeys: opts.keys } : {}), ...(opts.maxSessions !== null ? { maxSessions: opts.maxSessions } : {}) },
)
if (opts.middleware) {
  server.use(async (req, next) => {
    await new Promise((resolve) => setImmediate(resolve))
    req.annotate('notes.audited', req.method)
    return next()
  })
}
for (const [uri, title, description] of NOTES) {
  server.registerResource(title, uri, { description, mimeType: 'text/markdown' }, (u, ctx) => {
    const text = read(ctx.auth, uri)
    if (text === null) throw new ResourceNotFoundError(uri)
    return { contents: [{ uri, mimeType: 'text/markdown', text }] }
  })
}
server.registerResource('project-note', new ResourceTemplate('notes://projects/{project}/notes/{id}', { list: undefined }),
  { description: 'A note of a project', mimeType: 'text/markdown' }, (u, { project, id }) => {
    const text = PROJECT_NOTES[`${project}/${id}`]
    if (!text) throw new ResourceNotFoundError(String(u))
    return { contents: [{ uri: String(u), mimeType: 'text/markdown', text }] }
  })
server.registerPrompt('review_note', { description: 'Review one note', argsSchema: strings('uri') }, ({ uri }, ctx) => {
  const text = read(ctx.auth, uri)
  if (text === null) throw new McpError(-32602, `no readable note ${uri}`)
  return {
    description: `Review of ${uri}`,
    messages: [
      { role: 'user', content: { type: 'text', text: 'Review this note for clarity and accuracy:' } },
      { role: 'user', content: { type: 'resource', resource: { uri, mimeType: 'text/markdown', text } } },
    ],
  }
})
server.registerTool('write_note', { description: "Replace a note's text; every listen of the fleet on it is told", inputSchema: strings('uri', 'text') }, ({ uri, text }, ctx) => {
  if (read(ctx.auth, uri) === null) throw new McpError(-32602, `no readable note ${uri}`)
  texts.set(uri, text)
  server.sendResourceUpdated({ uri })
  return { content: [{ type: 'text', text: 'written' }] }
})
server.registerTool('delete_note', { description: 'Delete a note, after the user confirms (input_required)', inputSchema: strings('uri') }, ({ uri }, ctx) => {
  if (read(ctx.auth, uri) === null) throw new McpError(-32602, `no readable note ${uri}`)
  const state = ctx.mcpReq.requestState
  if (state === undefined || state === null) {
    return {
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', message: `Delete ${uri}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } },
      requestState: uri,
    }
  }
  if (Buffer.from(state).toString() !== uri) throw new McpError(-32602, 'the confirmation is for another note')
  const answer = ctx.mcpReq.inputResponses?.confirm ?? {}
  if (answer.action !== 'accept' || !answer.content?.ok) return { content: [{ type: 'text', text: 'kept' }] }
  texts.set(uri, null)
  server.sendResourceUpdated({ uri })
  server.sendResourceListChanged()
  return { content: [{ type: 'text', text: `deleted by node ${process.pid}` }] }
})

if (opts.redis) new RedisBroker(opts.redis, { fleet: opts.fleet, healthMs: opts.healthS * 1000, createClient }).start(server)
let sessions
if (opts.shareSessions && opts.redis) {
  sessions = new RedisSessionStore(opts.redis, { fleet: opts.fleet, healthMs: opts.healthS * 1000, createClient })
  server.registerTool('session_store_stats', { description: "The session store's counters (what the fleet tests wait on)" },
    () => ({ content: [{ type: 'text', text: JSON.stringify(sessions.stats()) }] }))
}
let srv
if (opts.runner === 'fetch') {
  sessions?.attach(server) // server.fetch takes the store attached to the server
  srv = createServer(await toNodeHandler({ fetch: server.fetch, onerror: (e) => console.error(e) }))
  await new Promise((resolve) => srv.listen(opts.port, '127.0.0.1', resolve))
} else {
  srv = await serveHttp(server, { port: opts.port, sessions })
}
console.log(`listening on http://127.0.0.1:${srv.address().port}/mcp`)
