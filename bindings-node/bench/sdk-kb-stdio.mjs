// The knowledge base on the official SDK (examples/node/kb-sdk.mjs, @modelcontextprotocol/server
// 2.4.0) served over stdio with the SDK's own `StdioServerTransport`: the stdio peer of
// bench/reads.mjs (the examples' pinned tools must be linked in, as test.sh does).
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const peers = createRequire(new URL('../../examples/node/package.json', import.meta.url))
const esm = (name) => pathToFileURL(peers.resolve(name).replace(/\.cjs$/, '.mjs')).href
const { StdioServerTransport } = await import(esm('@modelcontextprotocol/server/stdio'))
const { createSdkKb } = await import('../../examples/node/kb-sdk.mjs')
await createSdkKb().connect(new StdioServerTransport())
