// ServerMachine: every method through the machine, the event/answer cycle, error mapping,
// 64-bit ids, and hostile input.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { ErrorCode, McpContextError, McpError, ServerMachine } from '../index.js'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }
const req = (id, method, params = {}, meta = META) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: meta, ...params } })

/** Sends one message and drains: returns [transmits (parsed), events]. */
function exchange(server, message, ctx) {
  server.handleMessage(Buffer.from(message), 1_000, ctx)
  return drain(server)
}
function drain(server) {
  const sent = []
  const events = []
  for (let out; (out = server.pollOutput()) !== null;) {
    if (out.type === 'transmit') sent.push({ ...out, msg: JSON.parse(out.bytes.toString('utf8')) })
    else events.push(out)
  }
  return [sent, events]
}
function machine(config) {
  const s = new ServerMachine({ serverInfo: { name: 'test', version: '1' }, ...config })
  s.addResource({ uri: 'mem://a', name: 'a', mimeType: 'text/plain' }, [{ uri: 'mem://a', text: 'A' }])
  s.addResource({ uri: 'mem://dyn', name: 'dyn' })
  s.addTemplate({ uriTemplate: 'mem://items/{id}', name: 'item' }, { ttlMs: 5000, cacheScope: 'public' }, { id: ['one', 'two', 'three'] })
  s.addPrompt({ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'tone' }] }, { tone: ['warm', 'formal'] })
  return s
}

describe('ServerMachine', () => {
  it('answers discover, lists and stored reads itself', () => {
    const s = machine()
    const [[d]] = exchange(s, req(1, 'server/discover'))
    assert.equal(d.msg.id, 1)
    assert.deepEqual(d.msg.result.capabilities, { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} })
    const [[l]] = exchange(s, req(2, 'resources/list'))
    assert.deepEqual(l.msg.result.resources.map((r) => r.uri), ['mem://a', 'mem://dyn'])
    const [[t]] = exchange(s, req(3, 'resources/templates/list'))
    assert.equal(t.msg.result.resourceTemplates[0].uriTemplate, 'mem://items/{id}')
    const [[p]] = exchange(s, req(4, 'prompts/list'))
    assert.equal(p.msg.result.prompts[0].name, 'greet')
    const [[r]] = exchange(s, req(5, 'resources/read', { uri: 'mem://a' }))
    assert.deepEqual(r.msg.result.contents, [{ uri: 'mem://a', text: 'A' }])
    assert.equal(s.pendingRequests, 0)
  })

  it('raises a read event for resources without contents and for templates', () => {
    const s = machine()
    const [none, [e]] = exchange(s, req(1, 'resources/read', { uri: 'mem://items/two' }))
    assert.equal(none.length, 0)
    assert.equal(e.type, 'readResource')
    assert.equal(e.target, 'template')
    assert.equal(e.template, 'mem://items/{id}')
    assert.deepEqual(e.variables, { id: 'two' })
    assert.deepEqual(e.capabilities, { elicitationForm: false, elicitationUrl: false, sampling: false, roots: false })
    assert.equal(e.retry, null)
    assert.equal(s.pendingRequests, 1)
    s.respondRead(e.handle, [{ uri: 'mem://items/two', mimeType: 'text/plain', text: 'two' }])
    const [[t]] = drain(s)
    assert.equal(t.msg.result.contents[0].text, 'two')
    assert.equal(t.msg.result.ttlMs, 5000)
    assert.equal(t.msg.result.cacheScope, 'public')
    const [, [d]] = exchange(s, req(2, 'resources/read', { uri: 'mem://dyn' }))
    assert.equal(d.target, 'resource')
    s.respondRead(d.handle, [{ uri: 'mem://dyn', blob: 'AAEC' }], { ttlMs: 7, cacheScope: 'private' })
    const [[b]] = drain(s)
    assert.deepEqual([b.msg.result.contents[0].blob, b.msg.result.ttlMs], ['AAEC', 7])
  })

  it('fails reads: notFound carries data.uri; application codes; internal', () => {
    const s = machine()
    const [, [e]] = exchange(s, req(1, 'resources/read', { uri: 'mem://items/x' }))
    s.fail(e.handle, { kind: 'notFound' })
    const [[t]] = drain(s)
    assert.deepEqual(t.msg.error, { code: ErrorCode.InvalidParams, message: 'Resource not found', data: { uri: 'mem://items/x' } })
    const [, [e2]] = exchange(s, req(2, 'resources/read', { uri: 'mem://items/y' }))
    s.fail(e2.handle, { kind: 'application', code: 42, message: 'busy' })
    assert.deepEqual(drain(s)[0][0].msg.error, { code: 42, message: 'busy' })
    const [, [e3]] = exchange(s, req(3, 'resources/read', { uri: 'mem://items/z' }))
    s.fail(e3.handle, { kind: 'internal' })
    assert.equal(drain(s)[0][0].msg.error.code, ErrorCode.InternalError)
    const [, [e4]] = exchange(s, req(4, 'resources/read', { uri: 'mem://items/w' }))
    s.fail(e4.handle, { kind: 'invalidParams', message: 'bad id' })
    assert.deepEqual(drain(s)[0][0].msg.error, { code: -32602, message: 'bad id' })
    assert.throws(() => s.fail(e4.handle, { kind: 'nope' }), TypeError)
  })

  it('answers unknown URIs itself: -32602 with data.uri, never empty contents', () => {
    const [[t], events] = exchange(machine(), req(1, 'resources/read', { uri: 'other://x' }))
    assert.equal(events.length, 0)
    assert.equal(t.msg.error.code, -32602)
    assert.deepEqual(t.msg.error.data, { uri: 'other://x' })
  })

  it('runs prompts and completions through events and value sets', () => {
    const s = machine()
    const [, [p]] = exchange(s, req(1, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }))
    assert.equal(p.type, 'getPrompt')
    assert.deepEqual(p.arguments, { who: 'Ada' })
    s.respondPrompt(p.handle, { description: 'hi', messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }] })
    assert.equal(drain(s)[0][0].msg.result.messages[0].content.text, 'Hello Ada')
    const [[missing]] = exchange(s, req(2, 'prompts/get', { name: 'greet', arguments: {} }))
    assert.equal(missing.msg.error.code, -32602)
    const [[c]] = exchange(s, req(3, 'completion/complete', { ref: { type: 'ref/resource', uri: 'mem://items/{id}' }, argument: { name: 'id', value: 't' } }))
    assert.deepEqual(c.msg.result.completion.values, ['two', 'three'])
    const [[c2]] = exchange(s, req(4, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'tone', value: 'F' } }))
    assert.deepEqual(c2.msg.result.completion.values, ['formal'])
  })

  it('forwards completions as events with completionEvents', () => {
    const s = machine({ completionEvents: true })
    const [, [c]] = exchange(s, req(1, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' }, context: { arguments: { tone: 'warm' } },
    }))
    assert.equal(c.type, 'complete')
    assert.deepEqual(c.ref, { type: 'ref/prompt', name: 'greet' })
    assert.deepEqual([c.argument, c.value, c.context], ['who', 'A', { tone: 'warm' }])
    s.respondCompletion(c.handle, ['Ada', 'Alan'])
    assert.deepEqual(drain(s)[0][0].msg.result.completion.values, ['Ada', 'Alan'])
  })

  it('runs an input_required round with sealed state', () => {
    const s = machine({ stateKeys: [{ id: 1, secret: Buffer.alloc(32, 1) }] })
    const caps = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }
    const [, [p]] = exchange(s, req(1, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }, caps))
    assert.equal(p.capabilities.elicitationForm, true)
    s.respondInputRequired(p.handle, {
      ask: { method: 'elicitation/create', params: { mode: 'form', message: 'Tone?', requestedSchema: { type: 'object', properties: { tone: { type: 'string' } } } } },
    }, Buffer.from('round-1'))
    const [[ir]] = drain(s)
    assert.equal(ir.msg.result.resultType, 'input_required')
    const state = ir.msg.result.requestState
    assert.equal(typeof state, 'string')
    const [, [retry]] = exchange(s, req(2, 'prompts/get', {
      name: 'greet', arguments: { who: 'Ada' }, requestState: state,
      inputResponses: { ask: { action: 'accept', content: { tone: 'warm' } } },
    }, caps))
    assert.equal(retry.retry.state.toString(), 'round-1')
    assert.deepEqual(retry.retry.inputResponses, { ask: { action: 'accept', content: { tone: 'warm' } } })
    // Tampered state is refused by the machine before any event.
    const [[bad], none] = exchange(s, req(3, 'prompts/get', { name: 'greet', arguments: { who: 'Bob' }, requestState: state }, caps))
    assert.equal(none.length, 0)
    assert.equal(bad.msg.error.code, -32602)
  })

  it('refuses input requests the client did not declare (-32021) and consumes the handle', () => {
    const s = machine()
    const [, [p]] = exchange(s, req(1, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }))
    assert.throws(
      () => s.respondInputRequired(p.handle, { r: { method: 'roots/list' } }),
      (err) => err instanceof McpContextError && err.code === 'ERR_CLIENT_LACKS_CAPABILITY',
    )
    assert.equal(drain(s)[0][0].msg.error.code, ErrorCode.MissingRequiredClientCapability)
    assert.throws(() => s.respondPrompt(p.handle, { messages: [] }), (err) => err.code === 'ERR_UNKNOWN_HANDLE')
  })

  it('maps caller errors to Error subclasses with codes', () => {
    const s = machine()
    assert.throws(() => s.addResource({ uri: 'mem://a', name: 'again' }), (e) => e instanceof McpContextError && e.code === 'ERR_DUPLICATE')
    assert.throws(() => s.addResource({ uri: 'not a uri', name: 'x' }), (e) => e.code === 'ERR_INVALID_URI')
    assert.throws(() => s.addTemplate({ uriTemplate: '{oops', name: 'x' }), (e) => e.code === 'ERR_INVALID_TEMPLATE')
    assert.throws(() => s.addPrompt({ name: 'p2' }, { nope: ['x'] }), (e) => e.code === 'ERR_UNKNOWN_ARGUMENT')
    // Shapes are validated by the core's decoders: McpError with the JSON-RPC code.
    assert.throws(() => s.addResource({ uri: 'mem://b' }), (e) => e instanceof McpError && e.code === ErrorCode.InvalidParams && /name/.test(e.message))
    assert.throws(() => s.addResource({ uri: 'mem://b', name: 3 }), McpError)
    assert.throws(() => s.addResource(undefined), TypeError)
    const [, [e]] = exchange(s, req(1, 'resources/read', { uri: 'mem://items/q' }))
    assert.throws(() => s.respondRead(e.handle, [{ uri: 'mem://items/q', text: 'x', blob: 'AA==' }]), McpError)
    assert.throws(() => s.respondRead(123456, []), (err) => err.code === 'ERR_UNKNOWN_HANDLE' && err.late === true)
    assert.throws(() => s.respondRead(-1, []), TypeError)
    assert.throws(() => s.respondRead(1.5, []), TypeError)
    s.respondRead(e.handle, [{ uri: 'mem://items/q', text: 'ok' }]) // still answerable: nothing reached the machine
    assert.equal(drain(s)[0][0].msg.result.contents[0].text, 'ok')
    // An answer the machine refuses: not late, and the request already got -32603.
    const [, [w]] = exchange(s, req(2, 'resources/read', { uri: 'mem://items/q' }))
    assert.throws(() => s.respondPrompt(w.handle, { messages: [] }), (err) => err.code === 'ERR_WRONG_KIND' && err.late === false)
    assert.equal(drain(s)[0][0].msg.error.code, -32603)
    assert.throws(() => new ServerMachine({ pageSize: 0 }), (err) => err.code === 'ERR_CONFIG')
    assert.throws(() => new ServerMachine({ serverInfo: { name: 'x' } }), McpError)
  })

  it('keeps 64-bit stream and auth ids exact (bigint beyond 2^53)', () => {
    const s = machine()
    const stream = 2n ** 63n + 5n
    const auth = 2n ** 60n
    const [[t]] = exchange(s, req(1, 'server/discover'), { stream, auth, transport: 'http' })
    assert.equal(t.stream, stream)
    const [, [e]] = exchange(s, req(2, 'resources/read', { uri: 'mem://dyn' }), { stream: 7, auth, transport: 'http' })
    assert.equal(e.auth, auth)
    assert.equal(typeof e.handle, 'number')
    assert.throws(() => s.handleMessage('{}', 1, { stream: 2n ** 64n }), TypeError)
    assert.throws(() => s.handleMessage('{}', 1, { transport: 'udp' }), TypeError)
    assert.throws(() => s.handleMessage('{}', -5), TypeError)
  })

  it('gives HTTP statuses and classifies messages', () => {
    const s = machine()
    const http = { stream: 1, transport: 'http' }
    assert.equal(s.handleMessage(req(1, 'ping'), 1, http), 'request')
    assert.deepEqual(drain(s)[0].map((t) => [t.httpStatus, t.kind, t.msg.error.code]), [[404, 'json', -32601]])
    assert.equal(s.handleMessage('{"jsonrpc":"2.0","method":"notifications/x"}', 1, http), 'notification')
    assert.equal(s.handleMessage('not json', 1, http), 'invalid')
    assert.equal(drain(s)[0][0].msg.error.code, ErrorCode.ParseError)
    s.handleMessage(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/list', params: {} }), 1, http)
    assert.deepEqual(drain(s)[0].map((t) => [t.httpStatus, t.msg.error.code]), [[400, -32602]])
  })

  it('streams listen notifications, then closes gracefully on shutdown', () => {
    const s = machine()
    const [[ack]] = exchange(s, req(9, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['mem://a'], promptsListChanged: true } }), { stream: 3, transport: 'http' })
    assert.equal(ack.kind, 'sse')
    assert.equal(ack.msg.method, 'notifications/subscriptions/acknowledged')
    assert.equal(s.subscriptions, 1)
    s.resourceUpdated('mem://a')
    s.promptsListChanged()
    s.resourcesListChanged() // not subscribed: nothing
    const [sent] = drain(s)
    assert.deepEqual(sent.map((t) => t.msg.method), ['notifications/resources/updated', 'notifications/prompts/list_changed'])
    assert.ok(sent.every((t) => t.msg.params._meta['io.modelcontextprotocol/subscriptionId'] === 9 && !t.endOfStream))
    assert.ok(s.setResourceContents('mem://a', [{ uri: 'mem://a', text: 'B' }]))
    assert.equal(s.setResourceContents('mem://none', null), false)
    s.shutdown()
    const [[fin]] = drain(s)
    assert.equal(fin.msg.id, 9)
    assert.ok(fin.endOfStream)
    assert.equal(s.subscriptions, 0)
  })

  it('cancels events when the stream closes and times requests out', () => {
    const s = machine({ requestTimeoutMs: 500 })
    const [, [e]] = exchange(s, req(1, 'resources/read', { uri: 'mem://dyn' }), { stream: 4, transport: 'http' })
    s.streamClosed(4)
    const [, [c]] = drain(s)
    assert.deepEqual([c.type, c.handle, c.reason], ['cancelled', e.handle, 'streamClosed'])
    assert.throws(() => s.respondRead(e.handle, []), (err) => err.code === 'ERR_UNKNOWN_HANDLE')
    exchange(s, req(2, 'resources/read', { uri: 'mem://dyn' }))
    assert.equal(s.pollTimeout(), 1_500)
    s.handleTimeout(1_499)
    assert.equal(drain(s)[0].length, 0)
    s.handleTimeout(1_500)
    const [[t], [c2]] = drain(s)
    assert.equal(t.msg.error.code, ErrorCode.InternalError)
    assert.equal(c2.reason, 'timedOut')
    assert.equal(s.pollTimeout(), null)
  })

  it('registers and removes items', () => {
    const s = machine()
    assert.ok(s.removeResource('mem://a'))
    assert.ok(!s.removeResource('mem://a'))
    assert.ok(s.removeTemplate('mem://items/{id}'))
    assert.ok(s.removePrompt('greet'))
    const [[l]] = exchange(s, req(1, 'resources/list'))
    assert.deepEqual(l.msg.result.resources.map((r) => r.uri), ['mem://dyn'])
  })

  it('never throws on hostile bytes', () => {
    const s = machine()
    const hostile = ['', '{', '[]', 'null', '{"jsonrpc":"2.0","id":1}', '\u0000', '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":1}}',
      '['.repeat(10_000), `{"a":"${'x'.repeat(100_000)}"}`, Buffer.from([0xff, 0xfe, 0x00])]
    for (const h of hostile) {
      s.handleMessage(h, 1)
      drain(s)
    }
  })
})
