// What a hostile peer sends cannot fool the host: request ids keep their exact value and
// JSON type (numbers while exact, bigints beyond, strings stay strings), and objects built
// from peer data have only own keys (`__proto__` included). Plus the output-ready signal:
// an answer given 10 ms after its event is announced within 100 ms.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { ClientMachine, ServerMachine } from '../index.js'

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }

function unknownIds(raws) {
  const client = new ClientMachine({ clientInfo: { name: 'c', version: '1' } })
  for (const raw of raws) client.handleMessage(`{"jsonrpc":"2.0","id":${raw},"result":{}}`, 0)
  const ids = []
  for (let o; (o = client.pollOutput()) !== null;) if (o.type === 'unknownResponse') ids.push(o.id)
  return ids
}

describe('hostile servers', () => {
  it('keep ids beyond ±2^53 exact, as bigints', () => {
    const raws = ['-9007199254740993', '9007199254740993', '-9223372036854775808', '18446744073709551616', '123456789012345678901234567890', '-123456789012345678901234567890']
    assert.deepEqual(unknownIds(raws), raws.map((r) => BigInt(r)))
  })
  it('keep small ids numbers and string ids strings', () => {
    assert.deepEqual(unknownIds(['42', '-7', '"42"', '"18446744073709551616"']), [42, -7, '42', '18446744073709551616'])
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
    assert.match(out.bytes.toString(), /late/)
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
    client.readResource('mem://a', 0)
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
    assert.ok(wakes >= 2, `${wakes} wakes`)
  })
})
