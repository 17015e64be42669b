// The knowledge base as a Deno program, on the WebAssembly engine (mcp-context-primitives/wasm):
//   deno run --allow-read --allow-net --import-map=… examples/node/edge/deno.mjs [PORT]
import * as pkg from 'mcp-context-primitives/wasm'
import { createKb } from '../kb.mjs'

const server = createKb(pkg)
Deno.serve({
  hostname: '127.0.0.1',
  port: Number(Deno.args[0] ?? 0),
  onListen: ({ port }) => console.log(`listening http://127.0.0.1:${port}/mcp`),
}, (request) => server.fetch(request))
