// ClientMachine against ServerMachine in one process (a simulated stdio link and clock):
// negotiation, every call, pagination, the cache, input_required, listen, errors. Plus
// Cache and selectContext.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { Cache, ClientMachine, ErrorCode, McpContextError, McpError, selectContext, ServerMachine } from '../index.js'

function serverMachine() {
  const s = new ServerMachine({ pageSize: 2, stateKeys: [{ id: 1, secret: Buffer.alloc(32, 9) }] })
  for (const n of [1, 2, 3]) {
    s.addResource({ uri: `mem://n/${n}`, name: `n${n}` }, [{ uri: `mem://n/${n}`, text: `note ${n}` }], { ttlMs: 60_000, cacheScope: 'public' })
  }
  s.addTemplate({ uriTemplate: 'mem://t/{id}', name: 't' }, null, { id: ['alpha', 'beta'] })
  s.addPrompt({ name: 'ask', arguments: [{ name: 'q', required: true }] })
  return s
}

/** Wires a client to a server; `drive()` moves bytes both ways until nothing moves. */
function link(client, server, now = { t: 1_000 }) {
  const events = []
  const answer = (e) => {
    if (e.type === 'readResource') {
      if (e.variables?.id === 'missing') return server.fail(e.handle, { kind: 'notFound' })
      return server.respondRead(e.handle, [{ uri: e.uri, text: `templated ${e.variables.id}` }])
    }
    if (e.type === 'getPrompt') {
      const got = e.retry?.inputResponses?.who
      if (!got) return server.respondInputRequired(e.handle, { who: { method: 'elicitation/create', params: { mode: 'form', message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } } })
      return server.respondPrompt(e.handle, { messages: [{ role: 'user', content: { type: 'text', text: `${e.arguments.q} for ${got.content.name}` } }] })
    }
    return undefined
  }
  const drive = () => {
    for (let moved = true; moved;) {
      moved = false
      for (let out; (out = client.pollOutput()) !== null;) {
        if (out.type === 'transmit') {
          moved = true
          server.handleMessage(out.bytes, now.t)
        } else events.push(out)
      }
      for (let out; (out = server.pollOutput()) !== null;) {
        if (out.type === 'transmit') {
          moved = true
          client.handleMessage(out.bytes, now.t)
        } else answer(out)
      }
    }
    return events.splice(0)
  }
  return { drive, now }
}

const ofCall = (events, call) => events.filter((e) => e.call === call)

describe('ClientMachine ↔ ServerMachine', () => {
  const client = new ClientMachine({ clientInfo: { name: 'test-client', version: '1.0.0' }, capabilities: { elicitation: { form: {} } } })
  const server = serverMachine()
  const { drive, now } = link(client, server)

  it('negotiates with server/discover', () => {
    client.connect(now.t)
    const [connected] = drive()
    assert.equal(connected.type, 'connected')
    assert.deepEqual(connected.session.era, 'modern')
    assert.equal(connected.session.version, '2026-07-28')
    assert.equal(connected.session.features.completions, true)
    assert.equal(client.session.version, '2026-07-28')
    const call = client.discover(now.t)
    const [d] = drive()
    assert.deepEqual([d.type, d.call], ['discovered', call])
    assert.deepEqual(d.result.supportedVersions, ['2026-07-28'])
  })

  it('follows pagination for lists, or fetches one page', () => {
    const all = client.listResources(now.t)
    const [l] = drive()
    assert.deepEqual([l.type, l.call, l.pages.length, l.nextCursor, l.truncated], ['resourcesListed', all, 2, null, false])
    assert.deepEqual(l.pages.flatMap((p) => p.result.resources.map((r) => r.uri)), ['mem://n/1', 'mem://n/2', 'mem://n/3'])
    client.listResources(now.t, { page: true, refresh: true })
    const [one] = drive()
    assert.equal(one.pages.length, 1)
    assert.equal(typeof one.nextCursor, 'string')
    client.listResourceTemplates(now.t)
    assert.equal(drive()[0].pages[0].result.resourceTemplates[0].uriTemplate, 'mem://t/{id}')
    client.listPrompts(now.t)
    assert.equal(drive()[0].pages[0].result.prompts[0].name, 'ask')
  })

  it('reads, and serves fresh results from the cache', () => {
    const call = client.readResource('mem://n/1', now.t)
    const [r] = drive()
    assert.deepEqual([r.type, r.call, r.fromCache, r.result.contents[0].text], ['resourceRead', call, false, 'note 1'])
    now.t += 10
    client.readResource('mem://n/1', now.t)
    const [again] = drive()
    assert.equal(again.fromCache, true)
    assert.equal(client.readCached('mem://n/1', now.t).result.contents[0].text, 'note 1')
    assert.equal(client.readCached('mem://n/1', now.t + 60_000), null)
    client.readResource('mem://n/1', now.t, { refresh: true })
    assert.equal(drive()[0].fromCache, false)
    client.readResource('mem://t/beta', now.t)
    assert.equal(drive()[0].result.contents[0].text, 'templated beta')
  })

  it('fails with an McpError carrying data.uri for a missing resource', () => {
    const call = client.readResource('mem://t/missing', now.t)
    const [f] = drive()
    assert.deepEqual([f.type, f.call], ['failed', call])
    assert.ok(f.error instanceof McpError)
    assert.equal(f.error.code, ErrorCode.InvalidParams)
    assert.deepEqual(f.error.data, { uri: 'mem://t/missing' })
  })

  it('completes', () => {
    client.complete({ type: 'ref/resource', uri: 'mem://t/{id}' }, { name: 'id', value: 'a' }, null, now.t)
    const [c] = drive()
    assert.equal(c.type, 'completed')
    assert.deepEqual(c.result.completion.values, ['alpha'])
    assert.throws(() => client.complete({ type: 'ref/x' }, { name: 'id', value: '' }, null, now.t), TypeError)
  })

  it('runs the input_required loop: event, respondInput, retry', () => {
    const call = client.getPrompt('ask', { q: 'Help' }, now.t)
    const [ir] = drive()
    assert.deepEqual([ir.type, ir.call, ir.round], ['inputRequired', call, 1])
    assert.equal(ir.requests.who.method, 'elicitation/create')
    assert.equal(ir.requests.who.params.message, 'Who?')
    assert.throws(() => client.respondInput(call, { other: {} }, now.t), (e) => e instanceof McpContextError && e.code === 'ERR_UNEXPECTED_INPUT_RESPONSE')
    client.respondInput(call, { who: { action: 'accept', content: { name: 'Ada' } } }, now.t)
    const [p] = drive()
    assert.deepEqual([p.type, p.call], ['promptFetched', call])
    assert.equal(p.result.messages[0].content.text, 'Help for Ada')
    assert.throws(() => client.respondInput(call, {}, now.t), (e) => e.code === 'ERR_UNKNOWN_CALL' || e.code === 'ERR_NOT_AWAITING_INPUT')
  })

  it('listens: acknowledgement, notifications, graceful end', () => {
    const call = client.listen({ resourceSubscriptions: ['mem://n/2'], promptsListChanged: true, toolsListChanged: true }, now.t)
    const [ack] = drive()
    assert.deepEqual([ack.type, ack.call], ['acknowledged', call])
    assert.deepEqual(ack.honoured.resourceSubscriptions, ['mem://n/2'])
    assert.equal(ack.refused.toolsListChanged, true)
    client.readResource('mem://n/2', now.t)
    drive()
    server.resourceUpdated('mem://n/2')
    const [n] = drive()
    assert.deepEqual([n.type, n.subscription, n.notice, n.uri], ['notified', call, 'resourceUpdated', 'mem://n/2'])
    assert.equal(client.readCached('mem://n/2', now.t), null) // invalidated
    server.shutdown()
    const [end] = drive()
    assert.deepEqual([end.type, end.call, end.reason], ['subscriptionEnded', call, 'graceful'])
  })

  it('cancels and times out', () => {
    const call = client.readResource('mem://t/slow', now.t, { refresh: true })
    client.cancel(call, 'not needed', now.t)
    const sent = []
    for (let o; (o = client.pollOutput()) !== null;) if (o.type === 'transmit') sent.push(JSON.parse(o.bytes.toString()))
    assert.deepEqual(sent.map((m) => m.method), ['resources/read', 'notifications/cancelled'])
    assert.equal(sent[1].params.requestId, sent[0].id)
    assert.throws(() => client.cancel(call, null, now.t), (e) => e.code === 'ERR_UNKNOWN_CALL')
    while (server.pollOutput() !== null);
    const lone = new ClientMachine({ requestTimeoutMs: 100, probeTimeoutMs: 50, legacyVersions: [] })
    lone.readResource('x://y', 0)
    while (lone.pollOutput() !== null);
    assert.equal(typeof lone.pollTimeout(), 'number')
    lone.handleTimeout(10_000)
    const kinds = []
    for (let o; (o = lone.pollOutput()) !== null;) kinds.push(o.type === 'failed' ? `failed:${o.error.code}` : o.type)
    assert.ok(kinds.includes('connectFailed'), kinds.join())
  })

  it('reports garbage and unknown responses without stopping', () => {
    client.handleMessage('not json', now.t)
    client.handleMessage('{"jsonrpc":"2.0","id":999999,"result":{}}', now.t)
    const kinds = []
    for (let o; (o = client.pollOutput()) !== null;) kinds.push(o.type)
    assert.deepEqual(kinds, ['peerError', 'unknownResponse'])
    client.handleClose(now.t)
    while (client.pollOutput() !== null);
  })

  it('validates its configuration', () => {
    assert.throws(() => new ClientMachine({ versions: [] }), (e) => e.code === 'ERR_CONFIG')
    assert.throws(() => new ClientMachine({ transport: 'pigeon' }), TypeError)
    assert.throws(() => new ClientMachine({ clientInfo: { name: 1 } }), McpError)
  })
})

describe('Cache', () => {
  it('stores per scope and auth context, and invalidates', () => {
    const c = new Cache({ maxEntries: 8 })
    assert.equal(c.insert('resources/read', 'mem://a', Buffer.from('A'), { ttlMs: 1000, cacheScope: 'private' }, 0, 7), 'stored')
    assert.equal(c.get('resources/read', 'mem://a', 10, 7).toString(), 'A')
    assert.equal(c.get('resources/read', 'mem://a', 10, 8), null) // never across contexts
    assert.equal(c.get('resources/read', 'mem://a', 10), null) // nor to anonymous
    assert.equal(c.insert('resources/list', null, '{"resources":[]}', { ttlMs: 1000, cacheScope: 'public' }, 0), 'stored')
    assert.equal(c.get('resources/list', null, 5, 2n ** 62n).toString(), '{"resources":[]}')
    assert.deepEqual(c.lookup('resources/read', 'mem://a', 5000, 7), { fresh: false, value: Buffer.from('A') })
    assert.equal(c.lookup('resources/read', 'mem://zzz', 0), null)
    assert.equal(c.insert('resources/read', 'mem://b', 'B', { ttlMs: 0, cacheScope: 'public' }, 0), 'immediatelyStale')
    assert.equal(c.insert('resources/read', 'mem://b', 'B', { ttlMs: 10, cacheScope: 'public' }, 0, null, true), 'retry')
    assert.equal(c.length, 2)
    assert.equal(c.invalidate('notifications/resources/updated', 'mem://a'), 1)
    assert.equal(c.invalidate('notifications/resources/list_changed'), 1)
    assert.equal(c.invalidate('notifications/other'), 0)
    assert.equal(c.length, 0)
    assert.throws(() => c.insert('tools/call', null, 'x', { ttlMs: 1 }, 0), (e) => e.code === 'ERR_NOT_CACHEABLE')
    assert.throws(() => c.get('resources/read', null, 0), (e) => e.code === 'ERR_MISSING_URI')
    c.insert('prompts/list', 'cur', 'p', { ttlMs: 5, cacheScope: 'public' }, 0)
    assert.equal(c.invalidateCursor('prompts/list'), 1)
    c.insert('resources/read', 'mem://c', 'C', { ttlMs: 5, cacheScope: 'private' }, 0, 3)
    assert.equal(c.forgetContext(3), 1)
    c.insert('resources/read', 'mem://d', 'D', { ttlMs: 5, cacheScope: 'public' }, 0)
    assert.equal(c.purgeStale(100), 1)
    c.insert('resources/read', 'mem://e', 'E', { ttlMs: 5 }, 0)
    assert.ok(c.bytes > 0)
    c.clear()
    assert.equal(c.length, 0)
  })
})

describe('selectContext', () => {
  it('filters by audience, ranks by priority and fills the budget greedily', () => {
    const candidates = [
      { uri: 'file:///a', size: 600, annotations: { priority: 0.9 } },
      { uri: 'file:///b', size: 500, annotations: { priority: 0.8 } },
      { uri: 'file:///c', size: 300, annotations: { priority: 0.1 } },
      { uri: 'file:///d', size: 10, annotations: { audience: ['user'] } },
      { uri: 'file:///e' }, // no size: never chosen
    ]
    assert.deepEqual(selectContext(candidates, { bytes: 1000 }, 'assistant'), { indices: [0, 2], used: 900 })
    // Tokens: a 150, b 125 (does not fit after a), d 3 (10 bytes / 4, rounded up), c 75.
    assert.deepEqual(selectContext(candidates, { tokens: 250 }, null), { indices: [0, 3, 2], used: 228 })
    assert.throws(() => selectContext(candidates, {}, null), TypeError)
    assert.throws(() => selectContext([{ size: 1 }], { bytes: 1 }, null), TypeError)
  })
})
