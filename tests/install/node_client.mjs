// The official TypeScript client (@modelcontextprotocol/client) against the Node knowledge base
// (examples/node/kb.mjs) over stdio, as a user who installed the npm tarballs runs it.
// Usage: node node_client.mjs KB_MJS   (exit status 0 when every check passes; the server's
// stderr is printed, so a WebAssembly fallback warning shows)
import assert from 'node:assert/strict'

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

const kb = process.argv[2]
const client = new Client({ name: 'install-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
await client.connect(new StdioClientTransport({ command: process.execPath, args: [kb], stderr: 'inherit' }))
const { resources } = await client.listResources()
assert.ok(resources.some((r) => r.uri === 'kb://acme/charte-reponse'))
const c = await client.readResource({ uri: 'kb://acme/charte-reponse' })
assert.match(c.contents[0].text, /^# Charte/)
const s = await client.readResource({ uri: 'kb://acme/fiches/resiliation-contrat' })
assert.match(s.contents[0].text, /^# Résilier un contrat\n/)
await assert.rejects(client.readResource({ uri: 'kb://acme/fiches/inconnue' }), (err) => err.code === -32602)
const ref = { type: 'ref/resource', uri: 'kb://acme/fiches/{slug}' }
const d = await client.complete({ ref, argument: { name: 'slug', value: 'declarer' } })
assert.deepEqual(d.completion.values, ['declarer-sinistre-auto', 'declarer-degat-des-eaux'])
const p = await client.getPrompt({ name: 'repondre_ticket', arguments: { ticketId: 'T-1042', ton: 'chaleureux' } })
assert.match(p.messages[1].content.text, /ton chaleureux/)
await client.close()
console.log(`node_client: the knowledge base served the official client on Node ${process.version}`)
