// The support knowledge base (kb.mjs, on McpServer) through the official TypeScript client
// (@modelcontextprotocol/client 2.4.0): over Streamable HTTP and stdio, on both engines
// (the napi addon: mcp-context/server; WebAssembly: mcp-context/wasm).
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

import { createKb } from '../kb.mjs'
import { httpClient, kbSuite, options } from './kb-suite.mjs'

const kb = fileURLToPath(new URL('../kb.mjs', import.meta.url))

for (const [engine, specifier] of [['napi', 'mcp-context/server'], ['wasm', 'mcp-context/wasm']]) {
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
