// A stdio server of ./bench.sh: the knowledge base on @modelcontextprotocol/server 2.4.0
// (examples/node/kb-sdk.mjs) with the SDK's own stdio transport.
//   node benches/run/sdk-stdio.mjs
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const peers = createRequire(new URL('../../examples/node/package.json', import.meta.url))
const sdkEsm = peers.resolve('@modelcontextprotocol/server').replace(/index\.cjs$/, 'index.mjs')
const { StdioServerTransport } = await import(pathToFileURL(sdkEsm).href)
const { createSdkKb } = await import('../../examples/node/kb-sdk.mjs')
await createSdkKb().connect(new StdioServerTransport())
