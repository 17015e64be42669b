#!/usr/bin/env node
// The example MCP server on the mcp-context Node binding.
//   node examples/node/server.mjs                 stdio
//   node examples/node/server.mjs --http [PORT]   Streamable HTTP on 127.0.0.1:PORT/mcp
//   add --kb to serve the support knowledge base instead of the conformance fixtures.
import { createApp } from './conformance-app.mjs'
import { serveHttp, serveStdio } from './host.mjs'

const args = process.argv.slice(2)
const make = args.includes('--kb') ? (await import('./kb.mjs')).createKbApp : createApp
const app = make()
const at = args.indexOf('--http')
if (at >= 0) {
  const port = Number(args[at + 1] ?? 0) || 0
  const srv = await serveHttp(app, { port })
  const { port: bound } = srv.address()
  // The one line a supervisor reads to learn the port.
  console.log(`listening http://127.0.0.1:${bound}/mcp`)
} else {
  serveStdio(app)
}
