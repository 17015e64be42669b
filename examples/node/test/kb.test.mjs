// The support knowledge base (kb.mjs, on McpServer) through the official TypeScript client
// (@modelcontextprotocol/client 2.4.0): over Streamable HTTP and stdio, on both engines
// (the napi addon: mcp-context-primitives/server; WebAssembly: mcp-context-primitives/wasm).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { it } from 'node:test'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

import { createKb } from '../kb.mjs'
import { httpClient, kbSuite, options } from './kb-suite.mjs'

const kb = fileURLToPath(new URL('../kb.mjs', import.meta.url))

for (const [engine, specifier] of [['napi', 'mcp-context-primitives/server'], ['wasm', 'mcp-context-primitives/wasm']]) {
  kbSuite(`on ${engine} over Streamable HTTP (node:http)`, async () => {
    const pkg = await import(specifier)
    const srv = await pkg.serveHttp(createKb(pkg), { port: 0 })
    return httpClient(`http://127.0.0.1:${srv.address().port}/mcp`, async () => {
      srv.closeAllConnections()
      await new Promise((resolve) => srv.close(resolve))
    })
  })
  kbSuite(`on ${engine} over stdio`, async () => {
    const client = new Client({ name: 'kb-test', version: '1.0.0' }, options)
    const args = engine === 'wasm' ? [kb, '--wasm'] : [kb]
    await client.connect(new StdioClientTransport({ command: process.execPath, args }))
    return { client, close: () => client.close() }
  })
}

// The knowledge base stays small: at most 45 non-blank, non-comment lines without its data
// (between the `--- data` markers), runners included.

const codeLines = (path, dropData) => {
  let text = readFileSync(new URL(path, import.meta.url), 'utf8')
  if (dropData) text = text.slice(0, text.indexOf('// --- data')) + text.slice(text.indexOf('// --- end of data'))
  return text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//')).length
}
it('keeps kb.mjs within 45 lines without its data (the SDK version, kb-sdk.mjs, for comparison)', (t) => {
  const ours = codeLines('../kb.mjs', true)
  const sdk = codeLines('../kb-sdk.mjs', false)
  t.diagnostic(`kb.mjs ${ours} lines (stdio and HTTP runners included), kb-sdk.mjs ${sdk} (no runner)`)
  assert.ok(ours <= 45, `${ours} lines`)
})
