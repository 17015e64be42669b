// What a hostile peer sends cannot fool the host, on both engines (the napi addon and the
// WebAssembly build): request ids keep their exact value and JSON type (numbers while
// exact, bigints beyond, strings stay strings), and objects built from peer data have only
// own keys (`__proto__` included). Plus the output-ready signal: an answer given 10 ms after
// its event is announced within 100 ms, and the client's queued request and reply wake it.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import * as napi from '../index.js'
import '../wasm/index.mjs' // instantiates the module the engine uses
import * as wasm from '../wasm/engine.mjs'

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }
const text = (bytes) => new TextDecoder().decode(bytes)

for (const [engine, { ClientMachine, ServerMachine }] of [['napi', napi], ['wasm', wasm]]) describe(`on ${engine}`, () => {

function unknownIds(raws) {
  const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' } })
  for (const raw of raws) client.handleMessage(`{"jsonrpc":"2.0","id":${raw},"result":{}}`, 0)
  const ids = []
  for (let o; (o = client.pollOutput()) !== null;) if (o.type === 'unknownResponse') ids.push(o.id)
  return ids
}

/**
 * A hostile server: the handshake is a real server machine's; the answer to the first
 * request of `method` is `answer(id)`, a raw JSON-RPC message. Returns the client's events.
 */
function hostile(client, method, answer) {
  const server = new ServerMachine({ serverInfo: { name: 's', version: '1' }, declareResources: true })
  const events = []
  for (let moved = true; moved;) {
    moved = false
    for (let o; (o = client.pollOutput()) !== null;) {
      if (o.type !== 'transmit') { events.push(o); continue }
      moved = true
      const msg = JSON.parse(text(o.bytes))
      if (msg.method === method) client.handleMessage(answer(msg.id), 0)
      else server.handleMessage(o.bytes, 0)
    }
    for (let o; (o = server.pollOutput()) !== null;) {
      if (o.type === 'transmit') { moved = true; client.handleMessage(o.bytes, 0) }
    }
  }
  return events
}

describe('hostile servers', () => {
  it('keep ids beyond ±2^53 exact, as bigints', () => {
    const raws = ['-9007199254740993', '9007199254740993', '9007199254740992', '-9223372036854775808', '9223372036854775807', '18446744073709551615', '18446744073709551616', '123456789012345678901234567890', '-123456789012345678901234567890']
    assert.deepEqual(unknownIds(raws), raws.map((r) => BigInt(r)))
  })
  it('keep small ids numbers and string ids strings', () => {
    assert.deepEqual(
      unknownIds(['42', '-7', '0', '9007199254740991', '-9007199254740991', '"42"', '"18446744073709551616"', '"__proto__"']),
      [42, -7, 0, 9007199254740991, -9007199254740991, '42', '18446744073709551616', '__proto__'],
    )
  })
  it('make __proto__ in inputRequests an own key', () => {
    const server = new ServerMachine({ stateKeys: [{ id: 1, secret: Buffer.alloc(32, 1) }] })
    server.addPrompt({ name: 'ask' })
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' }, capabilities: { elicitation: { form: {} } } })
    const call = client.getPrompt('ask', {}, 0)
    const events = []
    for (let moved = true; moved;) {
      moved = false
      for (let o; (o = client.pollOutput()) !== null;) {
        if (o.type === 'transmit') { moved = true; server.handleMessage(o.bytes, 0) } else events.push(o)
      }
      for (let o; (o = server.pollOutput()) !== null;) {
        if (o.type === 'transmit') { moved = true; client.handleMessage(o.bytes, 0) } else if (o.type === 'getPrompt') {
          const requests = JSON.parse('{"__proto__":{"method":"elicitation/create","params":{"mode":"form","message":"Who?","requestedSchema":{"type":"object","properties":{}}}}}')
          server.respondInputRequired(o.handle, requests)
        }
      }
    }
    const ir = events.find((e) => e.type === 'inputRequired' && e.call === call)
    assert.ok(ir, JSON.stringify(events.map((e) => e.type)))
    assert.ok(Object.hasOwn(ir.requests, '__proto__'))
    assert.equal(Object.getPrototypeOf(ir.requests), Object.prototype)
    assert.equal(ir.requests.__proto__.method, 'elicitation/create')
  })
  it('make __proto__ in a result an own key', () => {
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' }, cache: null })
    const call = client.readResource('mem://a', 0)
    const events = hostile(client, 'resources/read', (id) =>
      `{"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"mem://a","text":"A","_meta":{"__proto__":{"polluted":true}}}]}}`)
    const read = events.find((e) => e.type === 'resourceRead' && e.call === call)
    assert.ok(read, JSON.stringify(events.map((e) => e.type)))
    const meta = read.result.contents[0]._meta
    assert.ok(Object.hasOwn(meta, '__proto__'))
    assert.equal(Object.getPrototypeOf(meta), Object.prototype)
    assert.equal({}.polluted, undefined)
  })
  it('make an error carry the server\'s code, message and data (own keys)', () => {
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' }, cache: null })
    const call = client.readResource('mem://a', 0)
    const events = hostile(client, 'resources/read', (id) =>
      `{"jsonrpc":"2.0","id":${id},"error":{"code":-31999,"message":"no","data":{"__proto__":{"polluted":true},"n":18446744073709551616}}}`)
    const failed = events.find((e) => e.type === 'failed' && e.call === call)
    assert.ok(failed, JSON.stringify(events.map((e) => e.type)))
    assert.ok(failed.error instanceof Error)
    assert.equal(failed.error.name, 'McpError')
    assert.equal(failed.error.code, -31999)
    assert.match(failed.error.message, /no/)
    assert.ok(Object.hasOwn(failed.error.data, '__proto__'))
    assert.equal(Object.getPrototypeOf(failed.error.data), Object.prototype)
  })
  it('fail a call answered with a wrong result shape, with the core\'s error', () => {
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' }, cache: null })
    const call = client.readResource('mem://a', 0)
    const events = hostile(client, 'resources/read', (id) => `{"jsonrpc":"2.0","id":${id},"result":{"contents":"not a list"}}`)
    const failed = events.find((e) => e.type === 'failed' && e.call === call)
    assert.ok(failed, JSON.stringify(events.map((e) => e.type)))
    assert.equal(failed.error.name, 'McpContextError')
    assert.match(failed.error.code, /^ERR_/)
  })
  it('report junk as a peer error and keep working', () => {
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' } })
    client.handleMessage('{"jsonrpc":"2.0","id":', 0)
    client.handleMessage(new Uint8Array([0xff, 0xfe]), 0)
    const errors = []
    for (let o; (o = client.pollOutput()) !== null;) if (o.type === 'peerError') errors.push(o.error)
    assert.equal(errors.length, 2)
    for (const e of errors) assert.equal(e.code, 'ERR_PEER')
    assert.deepEqual(unknownIds(['1']), [1])
  })
})

describe('the client machine\'s arguments', () => {
  it('takes bigint times and ids, refuses what is not a u64', () => {
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' }, requestTimeoutMs: 5000n })
    assert.equal(typeof client.readResource('mem://a', 1n << 60n), 'number')
    assert.equal(typeof client.readResource('mem://b', 1.5), 'number')
    assert.throws(() => client.readResource('mem://a', -1), TypeError)
    assert.throws(() => client.cancel(1.5, null, 0), TypeError)
    assert.throws(() => client.cancel(-1n, null, 0), TypeError)
    assert.throws(() => client.cancel(1n << 64n, null, 0), TypeError)
    assert.throws(() => client.cancel(999, null, 0), (e) => e.code === 'ERR_UNKNOWN_CALL')
    assert.throws(() => client.getPrompt('p', { a: 1 }, 0), TypeError)
    assert.throws(() => client.complete({ type: 'ref/x' }, { name: 'a', value: '' }, null, 0), TypeError)
    assert.throws(() => new ClientMachine({ transport: 'smoke' }), TypeError)
  })
})

describe('hostile clients', () => {
  it('make __proto__ prompt arguments and template variables own keys', () => {
    const server = new ServerMachine()
    server.addPrompt({ name: 'p', arguments: [{ name: '__proto__' }] })
    server.handleMessage(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { _meta: META, name: 'p' } }).replace('"name":"p"', '"name":"p","arguments":{"__proto__":"x"}'), 0)
    let e
    for (let o; (o = server.pollOutput()) !== null;) if (o.type === 'getPrompt') e = o
    assert.ok(e)
    assert.ok(Object.hasOwn(e.arguments, '__proto__'))
    assert.equal(Object.getPrototypeOf(e.arguments), Object.prototype)
    assert.equal(e.arguments.__proto__, 'x')
  })
})

describe('output-ready signal', () => {
  it('announces an answer given 10 ms after its event within 100 ms', async () => {
    const server = new ServerMachine()
    server.addResource({ uri: 'mem://slow', name: 'slow' })
    server.handleMessage(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { _meta: META, uri: 'mem://slow' } }), Date.now())
    let event
    for (let o; (o = server.pollOutput()) !== null;) if (o.type === 'readResource') event = o
    assert.ok(event)
    assert.equal(server.hasOutput, false)
    let woke
    const signal = new Promise((resolve) => { woke = resolve })
    server.setWaker(() => woke(performance.now()))
    // The callback does not keep the event loop alive (a real host's socket does).
    const alive = setTimeout(() => {}, 1000)
    let answeredAt
    setTimeout(() => { answeredAt = performance.now(); server.respondRead(event.handle, [{ uri: 'mem://slow', text: 'late' }]) }, 10)
    const at = await signal
    clearTimeout(alive)
    assert.ok(at - answeredAt < 100, `${at - answeredAt} ms`)
    assert.equal(server.hasOutput, true)
    const out = server.pollOutput()
    assert.equal(out.type, 'transmit')
    assert.match(text(out.bytes), /late/)
  })
})

describe('client output-ready signal', () => {
  it('announces a queued request, then the reply to it, each once the queue was drained', async () => {
    const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' } })
    const server = new ServerMachine({ serverInfo: { name: 's', version: '1' } })
    server.addResource({ uri: 'mem://a', name: 'a' }, [{ uri: 'mem://a', text: 'A' }])
    let wakes = 0
    let woke
    const next = () => new Promise((resolve) => { woke = resolve })
    client.setWaker(() => { wakes += 1; woke() })
    const alive = setTimeout(() => {}, 1000)
    assert.equal(client.hasOutput, false)
    let signal = next()
    const call = client.readResource('mem://a', 0)
    // Never inside the call: the host has the call id before it hears of the output.
    assert.equal(wakes, 0)
    await signal
    assert.equal(wakes, 1)
    assert.equal(client.hasOutput, true)
    // Pump both machines until the read completes; the reply arrives as one more wake.
    let read
    for (let round = 0; round < 10 && !read; round++) {
      for (let o; (o = client.pollOutput()) !== null;) {
        if (o.type === 'transmit') server.handleMessage(o.bytes, 0)
        else if (o.type === 'resourceRead') read = o
      }
      if (read) break
      signal = next()
      for (let o; (o = server.pollOutput()) !== null;) if (o.type === 'transmit') client.handleMessage(o.bytes, 0)
      await signal
    }
    clearTimeout(alive)
    assert.ok(read, 'the read completed')
    assert.equal(read.call, call)
    assert.equal(read.result.contents[0].text, 'A')
    assert.ok(wakes >= 2, `${wakes} wakes`)
  })
})

})

describe('the machines on both engines', () => {
  const names = (C) => Object.getOwnPropertyNames(C.prototype).filter((k) => k !== 'constructor' && !k.startsWith('_')).sort()
  // A fleet's 2025-11-25 sessions (docs/scale-out.md): native engine only, like `Fleet`
  // (the Redis store runs on node-redis, in Node); the wasm engine has none of them yet.
  const NATIVE_ONLY = ['exportSession', 'forgetSession', 'hasSession', 'importSession', 'sessionChangeSettled', 'sessionEvent',
    'sessionHead', 'sessionLoadAbort', 'sessionLoadBegin', 'sessionLoadEnd', 'sessionStreamFloor', 'shareSessions', 'takeSessionChanges']
  it('have the same methods and accessors', () => {
    assert.deepEqual(names(wasm.ClientMachine), names(napi.ClientMachine))
    assert.deepEqual(names(wasm.ServerMachine), names(napi.ServerMachine).filter((n) => !NATIVE_ONLY.includes(n)))
    for (const n of NATIVE_ONLY) assert.equal(typeof napi.ServerMachine.prototype[n], 'function', n)
  })
})
