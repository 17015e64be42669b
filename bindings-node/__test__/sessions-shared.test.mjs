// The napi ServerMachine's session calls for a fleet (docs/scale-out.md, "2025-11-25 sessions
// across instances"; the Redis store is tested on real Redis in tests/fleet/): two machines
// hand one session over by hand, as `mcp-context-primitives/redis-sessions` does through
// Redis. The conversions: states and changes as Buffers, the head's session and replay
// point, framed GET stream events, a foreign state refused.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { decodeSessionMessage, encodeSessionMessage } from '../index.js'
import { McpServer } from '../server.mjs'

const LEGACY = '2025-11-25'
const INIT = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'shared', version: '1' } },
}

function request(method, body, headers = {}) {
  return new Request('http://127.0.0.1/mcp', {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

function instance(byte) {
  const server = new McpServer({ name: 'shared', version: '1' })
  server.registerResource('one', 'notes://1', {}, () => ({ contents: [{ uri: 'notes://1', text: 'one' }] }))
  server.machine.shareSessions(Buffer.alloc(16, byte))
  return server
}

describe('a session handed from one machine to another', () => {
  it('moves with its state, and its end is a change to store', async () => {
    const a = instance(1)
    const b = instance(2)
    const r = await a.fetch(request('POST', INIT))
    assert.equal(r.status, 200)
    const sid = r.headers.get('mcp-session-id')
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY }
    let changes = a.machine.takeSessionChanges()
    assert.equal(changes.length, 1)
    assert.equal(changes[0].id, sid)
    assert.ok(Buffer.isBuffer(changes[0].state))
    assert.equal(JSON.parse(changes[0].state).version, LEGACY)
    assert.deepEqual(a.machine.takeSessionChanges(), []) // taken once
    assert.deepEqual(a.machine.exportSession(sid), changes[0].state)

    // Unknown on B until imported (404), then served there; an import is no change.
    assert.equal(b.machine.hasSession(sid), false)
    assert.equal((await b.fetch(request('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, h))).status, 404)
    b.machine.takeSessionChanges()
    b.machine.importSession(sid, changes[0].state, Date.now())
    assert.equal(b.machine.hasSession(sid), true)
    assert.deepEqual(b.machine.takeSessionChanges(), [])
    assert.equal((await b.fetch(request('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, h))).status, 202)
    const sub = await b.fetch(request('POST', { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'notes://1' } }, h))
    assert.equal(sub.status, 200)
    changes = b.machine.takeSessionChanges()
    assert.deepEqual(JSON.parse(changes.at(-1).state).subs, ['notes://1'])

    // A DELETE on B: an end (no state); A forgets it without a change, then answers 404.
    assert.equal((await b.fetch(request('DELETE', undefined, h))).status, 200)
    changes = b.machine.takeSessionChanges()
    assert.deepEqual(changes.map((c) => [c.id, c.state ?? null]), [[sid, null]])
    assert.equal(a.machine.forgetSession(sid), null) // no GET stream open on A
    assert.deepEqual(a.machine.takeSessionChanges(), [])
    assert.equal((await a.fetch(request('POST', { jsonrpc: '2.0', id: 3, method: 'ping' }, h))).status, 404)
  })

  it('reads the session and the replay point from a head, frames and numbers GET events', async () => {
    const a = instance(3)
    const r = await a.fetch(request('POST', INIT))
    const sid = r.headers.get('mcp-session-id')
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY }
    const head = (extra) => ({ method: 'GET', path: '/mcp', headers: Object.entries({ host: '127.0.0.1', ...h, ...extra }).flat() })
    assert.deepEqual({ ...a.machine.sessionHead(head({ 'last-event-id': '41' })) }, { session: sid, after: 41 })
    const fresh = a.machine.sessionHead(head({ 'last-event-id': 'not-ours' }))
    assert.equal(fresh.session, sid)
    assert.equal(fresh.after ?? null, null) // an id the core did not mint replays nothing
    assert.equal(a.machine.sessionHead({ method: 'POST', path: '/mcp', headers: [] }).session ?? null, null)

    // The GET stream: events are numbered after what the fleet stored (the floor).
    const stream = a.openStream()
    const start = a.machine.handleHttp(head({ accept: 'text/event-stream' }), Buffer.alloc(0), Date.now(), { stream })
    assert.equal(start.eventStream, true)
    assert.equal(a.machine.sessionEvent(stream + 1000, Buffer.from('{}')), null) // no session's stream
    a.machine.sessionStreamFloor(stream, 41)
    const ev = a.machine.sessionEvent(stream, Buffer.from('{"jsonrpc":"2.0","method":"x"}'))
    assert.equal(ev.session, sid)
    assert.equal(ev.seq, 42)
    assert.equal(ev.bytes.toString(), 'id: 42\ndata: {"jsonrpc":"2.0","method":"x"}\n\n')
    assert.equal(a.machine.sessionEvent(stream, Buffer.from('{}')).seq, 43)
    // Forgetting the session (ended elsewhere) returns its GET stream for the runner to end.
    assert.equal(a.machine.forgetSession(sid), stream)
  })

  it('writes and reads the channel message with the origin taken by its length', () => {
    const origin = Buffer.from('0123456\n89abcdef') // random bytes may hold a newline
    const end = encodeSessionMessage(origin, 's1')
    assert.deepEqual(end, Buffer.concat([origin, Buffer.from('\ns1')]))
    let got = decodeSessionMessage(end)
    assert.deepEqual([got.origin, got.id, got.state ?? null], [origin, 's1', null])
    got = decodeSessionMessage(encodeSessionMessage(origin, 's1', Buffer.from('{"v":1}\n')))
    assert.deepEqual([got.id, got.state.toString()], ['s1', '{"v":1}\n'])
    for (const bad of ['', 'short', '0123456789abcdefXs1', '0123456789abcdef\n']) assert.equal(decodeSessionMessage(Buffer.from(bad)), null, bad)
    assert.throws(() => encodeSessionMessage(Buffer.alloc(15), 's1'), (e) => e.code === 'ERR_INVALID_ARG')
  })

  it('forgets on a load what the table lacks, keeping a change not yet settled', async () => {
    const a = instance(5)
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await a.fetch(request('POST', INIT))).headers.get('mcp-session-id'))
    const taken = a.machine.takeSessionChanges() // stored: settled, but the third's store is in flight
    assert.deepEqual(taken.map((c) => c.id).sort(), [...ids].sort())
    for (const id of ids.slice(0, 2)) a.machine.sessionChangeSettled(id)
    const row = { id: ids[0], state: a.machine.exportSession(ids[0]) }
    a.machine.sessionLoadBegin()
    const r = a.machine.sessionLoadEnd([row, { id: 'x', state: Buffer.from('{}') }], Date.now()) // ids[1] ended elsewhere
    assert.deepEqual({ ...r }, { imported: 1, malformed: ['x'], forgotten: 1, streams: [] })
    assert.deepEqual(ids.map((id) => a.machine.hasSession(id)), [true, false, true])
  })

  it('refuses a state it does not read, changing nothing', () => {
    const a = instance(4)
    for (const bad of ['{}', '{"v":2}', 'not json']) {
      assert.throws(() => a.machine.importSession('s1', Buffer.from(bad), Date.now()), (e) => e.code === 'ERR_SESSION_STATE')
    }
    assert.equal(a.machine.hasSession('s1'), false)
  })
})
