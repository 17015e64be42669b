#!/usr/bin/env node
// The example MCP server on the mcp-context package.
//   node examples/node/server.mjs                 stdio
//   node examples/node/server.mjs --http [PORT]   Streamable HTTP on 127.0.0.1:PORT/mcp
//   add --kb to serve the support knowledge base instead of the conformance fixtures,
//   --wasm to run on the WebAssembly engine instead of the napi addon.
const args = process.argv.slice(2)
const pkg = await import(args.includes('--wasm') ? 'mcp-context-primitives/wasm' : 'mcp-context-primitives/server')
const server = args.includes('--kb')
  ? (await import('./kb.mjs')).createKb(pkg)
  : (await import('./conformance-app.mjs')).createApp(pkg)
const at = args.indexOf('--http')
if (at >= 0) {
  const srv = await pkg.serveHttp(server, { port: Number(args[at + 1] ?? 0) || 0 })
  // The one line a supervisor reads to learn the port.
  console.log(`listening http://127.0.0.1:${srv.address().port}/mcp`)
} else {
  await pkg.serveStdio(server)
}
