// `new ResourceTemplate(uri, { list })` through the core's dynamic lists, on both engines,
// driven by the official TypeScript client (@modelcontextprotocol/client 2.4.0) over
// Streamable HTTP: `resources/list` calls the templates' `list` callbacks at list time
// (items added or removed since show up without registering anything), pages them with the
// core's opaque cursor, and reads of the listed items go to the template's handler.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

const options = { versionNegotiation: { mode: { pin: '2026-07-28' } } }
const BYPASS = { cacheMode: 'bypass' } // lists carry a 60 s cache hint

for (const [engine, specifier] of [['napi', 'mcp-context-primitives/server'], ['wasm', 'mcp-context-primitives/wasm']]) describe(`template lists on ${engine}`, () => {
  const notes = new Map([['a', 'Alpha'], ['b', 'Bravo'], ['c', 'Charlie']])
  const tags = ['red', 'blue']
  let calls = 0
  let client, srv
  before(async () => {
    const { McpServer, ResourceTemplate, ResourceNotFoundError, serveHttp } = await import(specifier)
    const server = new McpServer({ name: 'lists', version: '1.0.0' }, { pageSize: 2 })
    server.registerResource('readme', 'mem://readme', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'read me' }] }))
    const noteList = new ResourceTemplate('note://{id}', {
      list: () => { calls += 1; return { resources: [...notes].map(([id, title]) => ({ uri: `note://${id}`, name: id, title })) } },
    })
    server.registerResource('note', noteList, { mimeType: 'text/plain' }, (uri, { id }) => {
      if (!notes.has(id)) throw new ResourceNotFoundError(uri.href)
      return { contents: [{ uri: uri.href, text: notes.get(id) }] }
    })
    // An async list, and a template without one (nothing listed for it).
    server.registerResource('tag', new ResourceTemplate('tag://{name}', {
      list: async () => ({ resources: tags.map((name) => ({ uri: `tag://${name}`, name })) }),
    }), {}, (uri, { name }) => ({ contents: [{ uri: uri.href, text: `#${name}` }] }))
    server.registerResource('user', new ResourceTemplate('user://{id}', { list: undefined }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'u' }] }))
    // Added and removed: its list is not called any more.
    server.registerResource('gone', new ResourceTemplate('gone://{id}', { list: () => ({ resources: [{ uri: 'gone://1', name: 'g' }] }) }), {}, () => ({ contents: [] })).remove()
    srv = await serveHttp(server, { port: 0 })
    client = new Client({ name: 'lists-test', version: '1.0.0' }, options)
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.address().port}/mcp`)))
  })
  after(async () => {
    await client.close()
    srv.closeAllConnections()
    await new Promise((resolve) => srv.close(resolve))
  })

  it('lists the registered resources, then every template list, in order', async () => {
    const { resources } = await client.listResources(undefined, BYPASS)
    assert.deepEqual(resources.map((r) => r.uri), ['mem://readme', 'note://a', 'note://b', 'note://c', 'tag://red', 'tag://blue'])
    assert.equal(resources.find((r) => r.uri === 'note://b').title, 'Bravo')
  })

  it('calls the list callbacks at list time: changes show up on the next list', async () => {
    const before = calls
    notes.set('d', 'Delta')
    notes.delete('a')
    tags.push('green')
    const { resources } = await client.listResources(undefined, BYPASS)
    assert.deepEqual(resources.map((r) => r.uri), ['mem://readme', 'note://b', 'note://c', 'note://d', 'tag://red', 'tag://blue', 'tag://green'])
    assert.ok(calls > before)
  })

  it('pages with the core\'s opaque cursor, the registered tail merged with the first template page', async () => {
    const pages = []
    let cursor
    do {
      // The first page alone: `listResources()` without a cursor walks every page.
      const page = cursor === undefined ? await client.request({ method: 'resources/list', params: {} }) : await client.listResources({ cursor })
      pages.push(page.resources.map((r) => r.uri))
      // The page that ends the registered phase with room left carries the application's
      // first page too (its size the application's): at most (pageSize - 1) + pageSize.
      assert.ok(page.resources.length <= 3)
      cursor = page.nextCursor
      if (cursor !== undefined) assert.match(cursor, /^[A-Za-z0-9_-]+$/) // base64url, not ours
    } while (cursor !== undefined && pages.length < 20)
    assert.deepEqual(pages.flat(), ['mem://readme', 'note://b', 'note://c', 'note://d', 'tag://red', 'tag://blue', 'tag://green'])
    // One request sees the registered resource and the first template items (as the
    // official SDKs' servers answer a client that lists once).
    assert.deepEqual(pages, [['mem://readme', 'note://b', 'note://c'], ['note://d', 'tag://red'], ['tag://blue', 'tag://green']])
  })

  it('refuses a cursor it did not give', async () => {
    const forged = Buffer.from('not a cursor').toString('base64url')
    await assert.rejects(client.listResources({ cursor: forged }), (err) => err.code === -32602)
  })

  it('reads the listed items through the template\'s handler', async () => {
    const { resources } = await client.listResources(undefined, BYPASS)
    for (const r of resources.filter((x) => x.uri.startsWith('note://'))) {
      const read = await client.readResource({ uri: r.uri })
      assert.equal(read.contents[0].text, notes.get(r.uri.slice('note://'.length)))
    }
    assert.equal((await client.readResource({ uri: 'tag://green' })).contents[0].text, '#green')
    await assert.rejects(client.readResource({ uri: 'note://a' }), (err) => err.code === -32602) // deleted
    await assert.rejects(client.readResource({ uri: 'other://x' }), (err) => err.code === -32602) // matches nothing
  })
})

for (const [engine, specifier] of [['napi', 'mcp-context-primitives/server'], ['wasm', 'mcp-context-primitives/wasm']]) describe(`no template lists on ${engine}`, () => {
  it('answers resources/list in one page, with no cursor into an empty phase', async () => {
    const { McpServer, ResourceTemplate, serveHttp } = await import(specifier)
    const server = new McpServer({ name: 'static', version: '1.0.0' })
    server.registerResource('readme', 'mem://readme', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'read me' }] }))
    const lists = new ResourceTemplate('n://{id}', { list: () => ({ resources: [{ uri: 'n://1', name: 'one' }] }) })
    server.registerResource('n', lists, {}, (uri) => ({ contents: [{ uri: uri.href, text: 'n' }] })).remove()
    const srv = await serveHttp(server, { port: 0 })
    const client = new Client({ name: 'static-test', version: '1.0.0' }, options)
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.address().port}/mcp`)))
      const page = await client.request({ method: 'resources/list', params: {} })
      assert.deepEqual(page.resources.map((r) => r.uri), ['mem://readme'])
      assert.equal(page.nextCursor, undefined)
    } finally {
      await client.close()
      srv.closeAllConnections()
      await new Promise((resolve) => srv.close(resolve))
    }
  })
})
