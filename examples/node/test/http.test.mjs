// The example Streamable HTTP server (conformance-app.mjs on McpServer, node:http adapter
// over server.fetch) end to end, on both engines: raw HTTP (statuses, headers, SSE framing,
// Host/Origin, body limits) and the official TypeScript client (@modelcontextprotocol/client
// 2.4.0).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

import { createApp, PNG } from '../conformance-app.mjs'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }

for (const [engine, specifier] of [['napi', 'mcp-context-primitives/server'], ['wasm', 'mcp-context-primitives/wasm']]) describe(`on ${engine}`, () => {
let pkg, server, srv, url
before(async () => {
  pkg = await import(specifier)
  server = createApp(pkg)
  srv = await pkg.serveHttp(server, { port: 0 })
  url = `http://127.0.0.1:${srv.address().port}/mcp`
})
after(() => new Promise((resolve) => { srv.closeAllConnections(); srv.close(resolve) }))

function post(body, headers = {}) {
  const msg = typeof body === 'string' ? body : JSON.stringify(body)
  const parsed = typeof body === 'string' ? {} : body
  const name = parsed.method === 'resources/read' ? parsed.params?.uri : parsed.params?.name
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PV, ...(parsed.method ? { 'mcp-method': parsed.method } : {}),
      ...(name ? { 'mcp-name': name } : {}), ...headers,
    },
    body: msg,
  })
}
const request = (id, method, params = {}) => ({ jsonrpc: '2.0', id, method, params: { _meta: META, ...params } })

describe('raw Streamable HTTP', () => {
  it('answers server/discover with JSON and the derived capabilities', async () => {
    const res = await post(request(1, 'server/discover'))
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type'), /^application\/json/)
    const { result } = await res.json()
    assert.deepEqual(result.supportedVersions, [PV])
    assert.deepEqual(result.capabilities, { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {}, tools: {} })
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'mcp-context-node-example')
  })
  it('reads the conformance fixtures', async () => {
    const text = await (await post(request(2, 'resources/read', { uri: 'test://static-text' }))).json()
    assert.equal(text.result.contents[0].text, 'This is the content of the static text resource.')
    const bin = await (await post(request(3, 'resources/read', { uri: 'test://static-binary' }))).json()
    assert.equal(bin.result.contents[0].blob, PNG)
    const t = await (await post(request(4, 'resources/read', { uri: 'test://template/42/data' }))).json()
    assert.deepEqual(JSON.parse(t.result.contents[0].text), { id: '42', templateTest: true, data: 'Data for ID: 42' })
  })
  it('answers a missing resource with -32602 and data.uri, HTTP 200', async () => {
    const res = await post(request(5, 'resources/read', { uri: 'test://nope' }))
    assert.equal(res.status, 200)
    const { error } = await res.json()
    assert.equal(error.code, -32602)
    assert.deepEqual(error.data, { uri: 'test://nope' })
  })
  it('refuses GET with 405 and a foreign Host or Origin with 403', async () => {
    assert.equal((await fetch(url)).status, 405)
    const evil = await post(request(6, 'server/discover'), { origin: 'http://evil.example' })
    assert.equal(evil.status, 403)
  })
  it('checks headers against the body: -32020, HTTP 400', async () => {
    const res = await post(request(7, 'resources/read', { uri: 'test://static-text' }), { 'mcp-name': 'test://other' })
    assert.equal(res.status, 400)
    const body = await res.json()
    assert.equal(body.id, 7)
    assert.equal(body.error.code, -32020)
    assert.match(body.error.message, /Mcp-Name/)
  })
  it('answers missing _meta with -32602 and HTTP 400 (before the header check)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 8, method: 'resources/list', params: {} })
    assert.equal(res.status, 400)
    assert.equal((await res.json()).error.code, -32602)
  })
  it('refuses text/plain with 415 and an announced body over 4 MiB with 413, unread', async () => {
    const plain = await post(request(20, 'server/discover'), { 'content-type': 'text/plain' })
    assert.equal(plain.status, 415)
    // The head says 64 MiB and no body follows: the answer comes without reading it.
    const { request: raw } = await import('node:http')
    const status = await new Promise((resolve, reject) => {
      const r = raw(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(64 << 20) } }, (res) => { resolve(res.statusCode); res.resume(); r.destroy() })
      r.on('error', reject)
      r.flushHeaders()
    })
    assert.equal(status, 413)
  })
  it('puts an answer given 10 ms after its event on the wire within 100 ms', async () => {
    let answeredAt
    const slow = server.registerResource('slow', 'test://slow', {}, async (uri) => {
      await new Promise((resolve) => setTimeout(resolve, 10))
      answeredAt = performance.now()
      return { contents: [{ uri: uri.href, text: 'late' }] }
    })
    try {
      const body = await (await post(request(21, 'resources/read', { uri: 'test://slow' }))).json()
      const ms = performance.now() - answeredAt
      assert.equal(body.result.contents[0].text, 'late')
      assert.ok(ms < 100, `on the wire ${ms} ms after the answer`)
    } finally {
      slow.remove()
    }
  })
  it('keeps a __proto__ prompt argument an own key', async () => {
    let seen
    const p = server.registerPrompt('proto_args', {
      argsSchema: { '~standard': { version: 1, vendor: 'test', validate: (v) => { seen = v; return { value: v } } } },
    }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }))
    const raw = JSON.stringify(request(22, 'prompts/get', { name: 'proto_args' })).replace('"name":"proto_args"', '"name":"proto_args","arguments":{"__proto__":"polluted","a":"b"}')
    const res = await post(raw, { 'mcp-method': 'prompts/get', 'mcp-name': 'proto_args' })
    assert.equal(res.status, 200)
    assert.ok(Object.hasOwn(seen, '__proto__'))
    assert.equal(Object.getPrototypeOf(seen), Object.prototype)
    assert.equal(seen.a, 'b')
    p.remove()
  })
  it('answers removed methods with -32601 and HTTP 404, notifications with 202', async () => {
    assert.equal((await post(request(9, 'ping'))).status, 404)
    const n = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } })
    assert.equal(n.status, 202)
  })
  it('streams subscriptions/listen as text/event-stream', async () => {
    const res = await post(request(10, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['demo://readme'] } }))
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type'), /^text\/event-stream/)
    const reader = res.body.getReader()
    let text = ''
    const next = async () => {
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read()
        if (done) throw new Error('stream ended')
        text += Buffer.from(value).toString('utf8')
      }
      const at = text.indexOf('\n\n')
      const frame = text.slice(0, at)
      text = text.slice(at + 2)
      assert.ok(frame.startsWith('data: '), frame)
      return JSON.parse(frame.slice(6))
    }
    const ack = await next()
    assert.equal(ack.method, 'notifications/subscriptions/acknowledged')
    server.sendResourceUpdated({ uri: 'demo://readme' })
    const updated = await next()
    assert.equal(updated.method, 'notifications/resources/updated')
    assert.equal(updated.params.uri, 'demo://readme')
    assert.equal(updated.params._meta['io.modelcontextprotocol/subscriptionId'], 10)
    await reader.cancel()
  })
})

describe('the official TypeScript client (@modelcontextprotocol/client 2.4.0)', () => {
  let client
  before(async () => {
    client = new Client({ name: 'interop-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: PV } } })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  })
  after(() => client.close())

  it('lists resources and templates', async () => {
    const { resources } = await client.listResources()
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['demo://readme', 'test://static-binary', 'test://static-text'])
    const { resourceTemplates } = await client.listResourceTemplates()
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), ['demo://notes/{id}', 'test://template/{id}/data'])
  })
  it('reads static and templated resources', async () => {
    const r = await client.readResource({ uri: 'demo://notes/2' })
    assert.equal(r.contents[0].text, 'Incident 42: an expired certificate.')
    const s = await client.readResource({ uri: 'test://static-text' })
    assert.equal(s.contents[0].mimeType, 'text/plain')
  })
  it('surfaces a missing resource as an error, never empty contents', async () => {
    await assert.rejects(client.readResource({ uri: 'demo://notes/404' }), (err) => err.code === -32602)
  })
  it('lists and gets prompts', async () => {
    const { prompts } = await client.listPrompts()
    assert.ok(prompts.some((p) => p.name === 'test_prompt_with_arguments'))
    const p = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } })
    assert.deepEqual(p.messages, [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }])
    const e = await client.getPrompt({ name: 'summarize_note', arguments: { id: '1' } })
    assert.equal(e.messages[0].content.resource.uri, 'demo://notes/1')
  })
  it('completes prompt arguments and template variables', async () => {
    const c = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } })
    assert.deepEqual(c.completion.values, ['paris', 'park', 'party'])
    const t = await client.complete({ ref: { type: 'ref/resource', uri: 'demo://notes/{id}' }, argument: { name: 'id', value: '' } })
    assert.deepEqual(t.completion.values, ['1', '2'])
  })
  it('listens and receives resources/updated', async () => {
    const got = new Promise((resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)))
    const sub = await client.listen({ resourceSubscriptions: ['demo://readme'] })
    assert.deepEqual(sub.honoredFilter.resourceSubscriptions, ['demo://readme'])
    server.sendResourceUpdated({ uri: 'demo://readme' })
    assert.equal(await got, 'demo://readme')
    await sub.close()
  })
})
})
