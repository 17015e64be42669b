// The official TypeScript SDK under the same load: @modelcontextprotocol/server 2.4.0's
// `createMcpHandler` (one `McpServer` per request, listens on its in-process bus), through
// the same node:http adapter as ours (`toNodeHandler` of a fetch handler), one resource
// `bench://hot`, `POST /touch` → `handler.notify.resourceUpdated`. `--sdk DIR`: where the
// SDK is installed (its node_modules' parent). Prints `listening <host:port>` once bound.
import http from 'node:http'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const args = process.argv.slice(2)
const opt = (name, dflt) => { const i = args.indexOf(name); return i < 0 ? dflt : args[i + 1] }
const peers = createRequire(`${opt('--sdk', process.cwd())}/`)
const sdkEsm = peers.resolve('@modelcontextprotocol/server').replace(/index\.cjs$/, 'index.mjs')
const { createMcpHandler, McpServer } = await import(pathToFileURL(sdkEsm).href)
const { toNodeHandler } = await import('../../bindings-node/js/node.mjs')

const handler = createMcpHandler(() => {
  const s = new McpServer({ name: 'listens-bench', version: '1.0.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } } })
  s.registerResource('hot', 'bench://hot', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'hot' }] }))
  return s
}, { legacy: 'reject', onerror: () => {} })
const mcp = await toNodeHandler({ fetch: handler.fetch, onerror: () => {} })
const srv = http.createServer((req, res) => {
  if (req.url === '/touch') {
    handler.notify.resourceUpdated('bench://hot')
    res.end('ok')
    return
  }
  mcp(req, res)
})
srv.listen(Number(opt('--port', 0)), '127.0.0.1', () => console.log(`listening 127.0.0.1:${srv.address().port}`))
