// The WebAssembly build's ClientMachine against the napi addon's, output for output: one
// script of calls (negotiation, every call kind, paging, the cache, input_required, listen,
// cancel, errors, the session, timeouts) runs on a client of each engine against a server
// machine of the same engine, and every output (transmits' bytes and headers included)
// must be the same once bytes are text and errors plain fields.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import * as napi from '../index.js'
import '../wasm/index.mjs' // instantiates the module the engine uses
import * as wasm from '../wasm/engine.mjs'

const decoder = new TextDecoder()

/** An output as plain data: bytes as text, an error as its fields. */
function plain(o) {
  const out = { ...o }
  if (o.bytes) out.bytes = decoder.decode(o.bytes)
  if (o.error) out.error = { name: o.error.name, code: o.error.code, message: o.error.message, data: o.error.data, httpStatus: o.error.httpStatus }
  return out
}

function script({ ClientMachine, ServerMachine }) {
  const server = new ServerMachine({ pageSize: 2, stateKeys: [{ id: 1, secret: Buffer.alloc(32, 9) }], serverInfo: { name: 's', version: '1' } })
  for (const n of [1, 2, 3]) server.addResource({ uri: `mem://n/${n}`, name: `n${n}` }, [{ uri: `mem://n/${n}`, text: `note ${n}` }], { ttlMs: 60_000, cacheScope: 'public' })
  server.addTemplate({ uriTemplate: 'mem://t/{id}', name: 't' }, null, { id: ['alpha', 'beta'] })
  server.addPrompt({ name: 'ask', arguments: [{ name: 'q', required: true }] })
  const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' }, capabilities: { elicitation: { form: {} } }, requestTimeoutMs: 5_000 })
  const log = []
  let t = 1_000
  const drive = () => {
    for (let moved = true; moved;) {
      moved = false
      for (let o; (o = client.pollOutput()) !== null;) {
        log.push(plain(o))
        if (o.type === 'transmit') { moved = true; server.handleMessage(o.bytes, t) }
      }
      for (let o; (o = server.pollOutput()) !== null;) {
        if (o.type === 'transmit') { moved = true; client.handleMessage(o.bytes, t); continue }
        if (o.type === 'readResource') {
          if (o.variables?.id === 'missing') server.fail(o.handle, { kind: 'notFound' })
          else if (o.variables?.id === 'slow') log.push({ held: o.uri })
          else server.respondRead(o.handle, [{ uri: o.uri, text: `templated ${o.variables.id}` }])
        } else if (o.type === 'getPrompt') {
          const who = o.retry?.inputResponses?.who
          if (!who) server.respondInputRequired(o.handle, { who: { method: 'elicitation/create', params: { mode: 'form', message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } } })
          else server.respondPrompt(o.handle, { messages: [{ role: 'user', content: { type: 'text', text: `${o.arguments.q} for ${who.content.name}` } }] })
        }
      }
    }
  }
  const step = (name, f) => { log.push({ step: name, value: f() ?? null }); drive() }
  step('discover', () => client.discover(t))
  step('session', () => client.session)
  step('list all', () => client.listResources(t))
  step('list page', () => client.listResources(t, { page: true }))
  step('list templates', () => client.listResourceTemplates(t))
  step('list prompts', () => client.listPrompts(t, { refresh: true }))
  step('read', () => client.readResource('mem://n/1', t))
  step('read again (cache)', () => client.readResource('mem://n/1', t))
  step('read cached', () => client.readCached('mem://n/2', t))
  step('read template', () => client.readResource('mem://t/alpha', t))
  step('read missing', () => client.readResource('mem://t/missing', t))
  step('complete', () => client.complete({ type: 'ref/resource', uri: 'mem://t/{id}' }, { name: 'id', value: 'a' }, null, t))
  const ask = client.getPrompt('ask', { q: 'Why' }, t)
  drive()
  step('respond input', () => client.respondInput(ask, { who: { action: 'accept', content: { name: 'Ada' } } }, t))
  step('listen', () => client.listen({ resourceSubscriptions: ['mem://n/1'], resourcesListChanged: true }, t))
  step('updated', () => { server.resourceUpdated('mem://n/1') })
  const slow = client.readResource('mem://t/slow', t)
  drive()
  step('cancel', () => client.cancel(slow, 'bored', t))
  step('poll timeout', () => client.pollTimeout())
  step('outstanding', () => client.outstanding)
  const late = client.readResource('mem://t/slow', t)
  drive()
  t += 10_000
  step('timeout', () => { client.handleTimeout(t) })
  step('late call', () => late)
  step('request failed', () => { client.handleRequestFailed(999, t) })
  step('auth', () => { client.setAuthContext(7) })
  step('close', () => { client.handleClose(t) })
  step('has output', () => client.hasOutput)
  return log
}

describe('ClientMachine on wasm and on napi', () => {
  it('gives the same outputs for the same calls', () => {
    const a = script(napi)
    const b = script(wasm)
    assert.ok(a.length > 40, `${a.length} outputs`)
    for (let i = 0; i < Math.max(a.length, b.length); i++) assert.deepEqual(b[i], a[i], `output ${i}`)
  })
})
