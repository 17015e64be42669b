// The official TypeScript client (@modelcontextprotocol/client 2.4.0) against servers on
// mcp-context-host: the demo server (examples/demo-server) over stdio (`serve_stdio`) and
// over Streamable HTTP (`--http 0`: the axum service).
//
// Run by test.sh: DEMO_SERVER=<built binary> node --test host/tests/ts/ (node_modules linked
// from the pinned cache).
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { after, before, describe, it } from 'node:test'

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

const SERVER = process.env.DEMO_SERVER ?? 'target/debug/demo-server'
const options = { versionNegotiation: { mode: { pin: '2026-07-28' } } }
const TEMPLATE = 'notes://{project}/{id}'

function suite(name, connect) {
  describe(`demo server on mcp-context-host over ${name}`, () => {
    let client, close
    before(async () => {
      ({ client, close } = await connect())
    })
    after(() => close())

    it('negotiates 2026-07-28 and sees the server info', () => {
      assert.equal(client.getServerVersion().name, 'mcp-context-demo')
      const caps = client.getServerCapabilities()
      assert.ok(caps.resources.subscribe)
      assert.ok(caps.prompts && caps.completions)
    })
    it('lists resources and templates', async () => {
      const { resources } = await client.listResources()
      assert.deepEqual(resources.map((r) => r.uri), ['notes://acme', 'notes://apollo', 'notes://readme'])
      const { resourceTemplates } = await client.listResourceTemplates()
      assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [TEMPLATE])
    })
    it('reads a stored resource, an index and a templated note', async () => {
      const readme = await client.readResource({ uri: 'notes://readme' })
      assert.match(readme.contents[0].text, /notes:\/\/\{project\}\/\{id\}/)
      const index = await client.readResource({ uri: 'notes://acme' })
      assert.match(index.contents[0].text, /^# Project acme/)
      const note = await client.readResource({ uri: 'notes://apollo/7' })
      assert.match(note.contents[0].text, /^# Design notes/)
      assert.equal(note.ttlMs, 10000)
      assert.equal(note.cacheScope, 'private')
    })
    it('fails a missing note with -32602', async () => {
      await assert.rejects(client.readResource({ uri: 'notes://acme/99' }), (err) => err.code === -32602)
    })
    it('gets the review prompt with the note embedded', async () => {
      const p = await client.getPrompt({ name: 'review_note', arguments: { project: 'apollo', id: '7', focus: 'tone' } })
      assert.equal(p.messages.length, 2)
      assert.match(p.messages[0].content.text, /for tone/)
      assert.equal(p.messages[1].content.resource.uri, 'notes://apollo/7')
    })
    it('completes from a value set and from a handler with context', async () => {
      const ref = { type: 'ref/resource', uri: TEMPLATE }
      const p = await client.complete({ ref, argument: { name: 'project', value: 'ap' } })
      assert.deepEqual(p.completion.values, ['apollo'])
      const ids = await client.complete({ ref, argument: { name: 'id', value: '' }, context: { arguments: { project: 'acme' } } })
      assert.deepEqual(ids.completion.values, ['1', '2'])
    })
    it('lists and calls the search_notes tool (App::tool on the core registry)', async () => {
      const { tools } = await client.listTools()
      assert.deepEqual(tools.map((t) => t.name), ['search_notes'])
      const hit = await client.callTool({ name: 'search_notes', arguments: { query: 'certificate' } })
      assert.deepEqual(hit.content, [{ type: 'text', text: 'notes://acme/2 Incident 42' }])
      assert.ok(!hit.isError)
      const bad = await client.callTool({ name: 'search_notes', arguments: { query: 7 } })
      assert.equal(bad.isError, true)
      assert.equal(bad.content[0].text, 'query must be a string')
    })
    it('listens and receives the timer\'s resources/updated', async () => {
      const got = new Promise((resolve) => client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)))
      const sub = await client.listen({ resourceSubscriptions: ['notes://acme'] })
      assert.deepEqual(sub.honoredFilter.resourceSubscriptions, ['notes://acme'])
      assert.equal(await got, 'notes://acme/1')
      await sub.close()
    })
  })
}

suite('stdio (serve_stdio)', async () => {
  const client = new Client({ name: 'host-test', version: '1.0.0' }, options)
  await client.connect(new StdioClientTransport({ command: SERVER, args: ['--tick-ms', '100'] }))
  return { client, close: () => client.close() }
})

suite('Streamable HTTP (axum)', async () => {
  const child = spawn(SERVER, ['--tick-ms', '100', '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`demo-server exited ${code}`)))
  })
  const url = line.trim().split(' ').pop()
  const client = new Client({ name: 'host-test', version: '1.0.0' }, options)
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return {
    client,
    close: async () => {
      await client.close()
      child.kill()
    },
  }
})
