// The knowledge base as a Cloudflare Worker, on the WebAssembly engine (mcp-context-primitives/wasm).
// Served by workerd in the tests (examples/node/test/edge.test.mjs).
import * as pkg from 'mcp-context-primitives/wasm'
import { createKb } from '../kb.mjs'

const server = createKb(pkg)
export default { fetch: (request) => server.fetch(request) }
