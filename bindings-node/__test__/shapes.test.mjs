// The outbox's objects of a request's round trip (a `readResource` event, a transmit) are
// made by object literals (src/shapes.js), every other output by the generic renderer: both
// must give the same objects, key for key and in the same order, as `pollOutput`; the wasm
// engine's too (its objects come from `JSON.parse`).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import addon from '../index.js'
import * as wasm from '../wasm/index.mjs'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: { form: {} } } }
const read = (id, uri) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { _meta: META, uri } })
const listen = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourcesListChanged: true } } })

function machine(ServerMachine) {
  const m = new ServerMachine({ serverInfo: { name: 't', version: '1' }, forwardUnlistedReads: true })
  m.addResource({ uri: 'notes://1', name: 'one' })
  m.addTemplate({ uriTemplate: 'kb://{__proto__}/{slug}', name: 'kb' })
  return m
}

// Own keys in order, values compared deeply (Buffers and Uint8Arrays as bytes).
function shape(o) {
  if (o instanceof Uint8Array) return { bytes: Buffer.from(o).toString() }
  if (Array.isArray(o)) return o.map(shape)
  if (o === null || typeof o !== 'object') return o
  return Object.entries(o).map(([k, v]) => [k, shape(v)])
}

// The same inputs on a fresh machine, outputs through the outbox or through pollOutput.
function run(ServerMachine, useBox) {
  const m = machine(ServerMachine)
  const got = []
  const drain = (box) => {
    if (useBox) got.push(...box)
    else for (let o; (o = m.pollOutput()) !== null;) got.push(o)
  }
  let box = useBox ? [] : undefined
  const lines = [read(1, 'notes://1'), read(2, 'kb://a/b'), read(3, 'other://x'), '{"jsonrpc":"2.0","id":5,"method":"nope"}']
  m.handleStdio(Buffer.from(`${lines.join('\n')}\n`), false, 1_000, { stream: 7, transport: 'stdio' }, box)
  drain(box)
  for (const e of got.filter((o) => o.type === 'readResource')) {
    box = useBox ? [] : undefined
    m.respondRead(e.handle, [{ uri: e.uri, text: `read ${e.uri}` }], null, box)
    drain(box)
  }
  for (const [line, stream] of [[read(6, 'notes://1'), 8], [listen(7), 9]]) {
    box = useBox ? [] : undefined
    m.handleMessage(Buffer.from(line), 1_000, { stream, transport: 'http' }, box)
    drain(box)
  }
  return got
}

const napiServer = addon.ServerMachine
const wasmServer = new wasm.McpServer({ name: 'x', version: '1' }).engine.ServerMachine
for (const [engine, ServerMachine] of [['napi', napiServer], ['wasm', wasmServer]]) describe(`on ${engine}`, () => {
  it('gives the outbox the objects pollOutput gives, for reads, answers and the rest', () => {
    const boxed = run(ServerMachine, true)
    const polled = run(ServerMachine, false)
    assert.deepEqual(shape(boxed), shape(polled))
    const ev = boxed.find((o) => o.type === 'readResource' && o.target === 'template')
    assert.ok(Object.hasOwn(ev.variables, '__proto__'), 'a __proto__ variable is an own key')
    assert.equal(ev.variables.__proto__, 'a')
    assert.equal(Object.getPrototypeOf(ev.variables), Object.prototype)
    assert.deepEqual(ev.capabilities, { elicitationForm: true, elicitationUrl: false, sampling: true, roots: false })
    const kinds = new Set(boxed.map((o) => `${o.type} ${o.target ?? o.kind}`))
    for (const k of ['readResource resource', 'readResource template', 'readResource unlisted', 'transmit json', 'transmit sse']) assert.ok(kinds.has(k), `${k} in ${[...kinds]}`)
  })
})
