// An HTTP server of ./bench.sh: the knowledge base (examples/node/kb.mjs) on node:http.
//   node benches/run/node-http.mjs KIND PORT
// KIND: napi | wasm (ours, `serveHttp`), napi-handler | wasm-handler (ours, `toNodeHandler`
// on a node:http server of our own), sdk (the same knowledge base on @modelcontextprotocol/server
// 2.4.0's `createMcpHandler`, on node:http through web Request/Response: it has no node:http
// path of its own). Prints `listening PORT` once it accepts.
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const [kind, portArg] = process.argv.slice(2)
const port = Number(portArg)
const pkg = await import(kind.startsWith('wasm') ? '../../bindings-node/wasm/index.mjs' : '../../bindings-node/server.mjs')
const { createKb } = await import('../../examples/node/kb.mjs')
const ready = () => console.log(`listening ${port}`)

if (kind === 'napi' || kind === 'wasm') {
  await pkg.serveHttp(createKb(pkg), { port, host: '127.0.0.1' })
  ready()
} else {
  let handler
  if (kind === 'sdk') {
    const peers = createRequire(new URL('../../examples/node/package.json', import.meta.url))
    const sdkEsm = peers.resolve('@modelcontextprotocol/server').replace(/index\.cjs$/, 'index.mjs')
    const { createMcpHandler } = await import(pathToFileURL(sdkEsm).href)
    const { createSdkKb } = await import('../../examples/node/kb-sdk.mjs')
    const sdk = createMcpHandler(() => createSdkKb(), { legacy: 'reject', onerror: () => {} })
    // As bindings-node/bench/http.mjs: the SDK's fetch handler through `toNodeHandler`'s web path.
    handler = await pkg.toNodeHandler({ fetch: sdk.fetch, onerror: () => {} })
  } else {
    handler = await pkg.toNodeHandler(createKb(pkg))
  }
  const srv = createServer({ noDelay: true }, handler)
  srv.listen(port, '127.0.0.1', ready)
}
