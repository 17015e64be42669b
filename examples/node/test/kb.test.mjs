// The support knowledge base (issue 9 §2) through the official TypeScript client
// (@modelcontextprotocol/client 2.4.0), over Streamable HTTP and over stdio.
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

import { serveHttp } from '../host.mjs'
import { CHARTER, CHARTER_URI, createKbApp, SHEETS } from '../kb.mjs'

const PV = '2026-07-28'
const options = { versionNegotiation: { mode: { pin: PV } } }
const server = fileURLToPath(new URL('../server.mjs', import.meta.url))

function suite(name, connect) {
  describe(`knowledge base over ${name}`, () => {
    let client, close
    before(async () => {
      ({ client, close } = await connect())
    })
    after(() => close())

    it('lists the charter and every procedure sheet', async () => {
      const { resources } = await client.listResources()
      const uris = resources.map((r) => r.uri)
      assert.ok(uris.includes(CHARTER_URI))
      for (const slug of Object.keys(SHEETS)) assert.ok(uris.includes(`kb://acme/fiches/${slug}`), slug)
      assert.equal(resources.find((r) => r.uri === CHARTER_URI).mimeType, 'text/markdown')
    })
    it('reads the charter and a sheet', async () => {
      const c = await client.readResource({ uri: CHARTER_URI })
      assert.equal(c.contents[0].text, CHARTER)
      const s = await client.readResource({ uri: 'kb://acme/fiches/resiliation-contrat' })
      assert.match(s.contents[0].text, /^# Résilier un contrat\n/)
    })
    it('lists the sheet template', async () => {
      const { resourceTemplates } = await client.listResourceTemplates()
      assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['kb://acme/fiches/{slug}'])
    })
    it('fails a missing sheet with an error the user sees', async () => {
      await assert.rejects(client.readResource({ uri: 'kb://acme/fiches/inconnue' }), (err) => {
        assert.equal(err.code, -32602)
        return true
      })
    })
    it('completes the slug by prefix', async () => {
      const ref = { type: 'ref/resource', uri: 'kb://acme/fiches/{slug}' }
      const d = await client.complete({ ref, argument: { name: 'slug', value: 'declarer' } })
      // In the value set's (relevance) order: the order the sheets were registered in.
      assert.deepEqual(d.completion.values, ['declarer-sinistre-auto', 'declarer-degat-des-eaux'])
      const r = await client.complete({ ref, argument: { name: 'slug', value: 'res' } })
      assert.deepEqual(r.completion.values, ['resiliation-contrat'])
      const t = await client.complete({ ref: { type: 'ref/prompt', name: 'repondre_ticket' }, argument: { name: 'ton', value: 'ch' } })
      assert.deepEqual(t.completion.values, ['chaleureux'])
    })
    it('gets repondre_ticket: the charter embedded, then the instruction', async () => {
      const p = await client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T-1042', ton: 'chaleureux' } })
      assert.equal(p.messages.length, 2)
      assert.deepEqual(p.messages[0], { role: 'user', content: { type: 'resource', resource: { uri: CHARTER_URI, mimeType: 'text/markdown', text: CHARTER } } })
      const text = p.messages[1].content.text
      assert.equal(p.messages[1].role, 'user')
      assert.match(text, /T-1042/)
      assert.match(text, /ton chaleureux/)
      assert.match(text, /Ne promettez aucun délai/)
      assert.match(text, /checklist/)
      const formal = await client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T-7' } })
      assert.match(formal.messages[1].content.text, /ton formel/)
    })
    it('refuses a missing ticketId and an unknown tone', async () => {
      await assert.rejects(client.getPrompt({ name: 'repondre_ticket', arguments: {} }), (err) => err.code === -32602)
      await assert.rejects(client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T', ton: 'sec' } }), (err) => err.code === -32602)
    })
  })
}

suite('Streamable HTTP', async () => {
  const srv = await serveHttp(createKbApp(), { port: 0 })
  const client = new Client({ name: 'kb-test', version: '1.0.0' }, options)
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.address().port}/mcp`)))
  return {
    client,
    close: async () => {
      await client.close()
      srv.closeAllConnections()
      await new Promise((resolve) => srv.close(resolve))
    },
  }
})

suite('stdio', async () => {
  const client = new Client({ name: 'kb-test', version: '1.0.0' }, options)
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, '--kb'] }))
  return { client, close: () => client.close() }
})
