// The Node runner under load: an `McpServer` (mcp-context-primitives) on node:http
// (`serveHttp`'s listener), one resource `bench://hot`, and `POST /touch` (outside MCP) that
// reports it changed. The listen cap is the config's `maxListens` (`--max-listens N`).
// `--wasm` for the WebAssembly engine. Prints `listening <host:port>` once bound.
import http from 'node:http'

const args = process.argv.slice(2)
const opt = (name, dflt) => { const i = args.indexOf(name); return i < 0 ? dflt : args[i + 1] }
// The napi addon when built (bindings-node), else the WebAssembly engine (a warning says so).
const pkg = await import(args.includes('--wasm') ? '../../bindings-node/wasm/index.mjs' : '../../bindings-node/server.mjs')
const server = new pkg.McpServer({ name: 'listens-bench', version: '1.0.0' }, { maxListens: Number(opt('--max-listens', 200000)) })
server.registerResource('hot', 'bench://hot', {}, (uri) => ({ contents: [{ uri: uri.href ?? String(uri), text: 'hot' }] }))
const mcp = await pkg.toNodeHandler(server)
const srv = http.createServer((req, res) => {
  if (req.url === '/touch') {
    server.sendResourceUpdated({ uri: 'bench://hot' })
    res.end('ok')
    return
  }
  mcp(req, res)
})
srv.listen(Number(opt('--port', 0)), '127.0.0.1', () => console.log(`listening 127.0.0.1:${srv.address().port}`))
