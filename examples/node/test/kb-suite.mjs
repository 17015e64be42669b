// The knowledge-base checks (kb.mjs) through the official TypeScript client
// (@modelcontextprotocol/client 2.4.0), shared by kb.test.mjs (Node, both engines) and
// edge.test.mjs (workerd, Deno). Defines suites only: nothing runs on import.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

import { CHARTER, CHARTER_URI, SHEETS } from '../kb.mjs'

const PV = '2026-07-28'
export const options = { versionNegotiation: { mode: { pin: PV } } }

/** The knowledge-base checks, against a connected client. */
export function kbSuite(name, connect) {
  describe(`knowledge base ${name}`, () => {
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
    it('reads the charter and a sheet (the template read carries the template hint)', async () => {
      const c = await client.readResource({ uri: CHARTER_URI })
      assert.equal(c.contents[0].text, CHARTER)
      const s = await client.readResource({ uri: 'kb://acme/fiches/resiliation-contrat' })
      assert.match(s.contents[0].text, /^# Résilier un contrat\n/)
      assert.equal(s.ttlMs, 60_000)
      assert.equal(s.cacheScope, 'public')
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
    it('completes the slug by prefix, and the tone', async () => {
      const ref = { type: 'ref/resource', uri: 'kb://acme/fiches/{slug}' }
      const d = await client.complete({ ref, argument: { name: 'slug', value: 'declarer' } })
      assert.deepEqual(d.completion.values, ['declarer-sinistre-auto', 'declarer-degat-des-eaux'])
      const r = await client.complete({ ref, argument: { name: 'slug', value: 'res' } })
      assert.deepEqual(r.completion.values, ['resiliation-contrat'])
      const t = await client.complete({ ref: { type: 'ref/prompt', name: 'repondre_ticket' }, argument: { name: 'ton', value: 'ch' } })
      assert.deepEqual(t.completion.values, ['chaleureux'])
    })
    it('gets repondre_ticket: the charter embedded, then the instruction', async () => {
      const { prompts } = await client.listPrompts()
      assert.deepEqual(prompts.find((p) => p.name === 'repondre_ticket').arguments.map((a) => [a.name, a.required]), [['ticketId', true], ['ton', false]])
      const p = await client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T-1042', ton: 'chaleureux' } })
      assert.equal(p.messages.length, 2)
      assert.deepEqual(p.messages[0], { role: 'user', content: { type: 'resource', resource: { uri: CHARTER_URI, mimeType: 'text/markdown', text: CHARTER } } })
      const text = p.messages[1].content.text
      assert.match(text, /T-1042/)
      assert.match(text, /ton chaleureux/)
      assert.match(text, /Ne promettez aucun délai/)
      const formal = await client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T-7' } })
      assert.match(formal.messages[1].content.text, /ton formel/)
    })
    it('refuses a missing ticketId and an unknown tone', async () => {
      await assert.rejects(client.getPrompt({ name: 'repondre_ticket', arguments: {} }), (err) => err.code === -32602)
      await assert.rejects(client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T', ton: 'sec' } }), (err) => err.code === -32602)
    })
    it('listens (subscriptions/listen acknowledged on an SSE stream)', async () => {
      const sub = await client.listen({ resourceSubscriptions: [CHARTER_URI] })
      assert.deepEqual(sub.honoredFilter.resourceSubscriptions, [CHARTER_URI])
      await sub.close()
    })
  })
}

/** Connects the official client to `url` over Streamable HTTP. */
export async function httpClient(url, onClose = async () => {}) {
  const client = new Client({ name: 'kb-test', version: '1.0.0' }, options)
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return { client, close: async () => { await client.close(); await onClose() } }
}

