// `mcp-context-primitives/server` without a native binary: the WebAssembly engine serves the
// same McpServer, and a process warning (MCP_CONTEXT_WASM_FALLBACK) says so once. The addon is
// made unloadable for a child process by NAPI_RS_NATIVE_LIBRARY_PATH (the loader's override).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { it } from 'node:test'
import { fileURLToPath } from 'node:url'

const server = new URL('../server.mjs', import.meta.url).href
const program = `
  const a = await import(${JSON.stringify(server)})
  const b = await import(${JSON.stringify(server)})
  if (a.McpServer !== b.McpServer) throw new Error('two engines')
  const srv = new a.McpServer({ name: 'fallback', version: '1.0.0' })
  srv.registerResource('r', 'mem://r', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri: uri.href, text: 'R' }] }))
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
  const res = await srv.fetch(new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'mem://r' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'mem://r', _meta: meta } }),
  }))
  console.log(await res.text())
`
function run(env) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    env: { ...process.env, ...env }, encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)),
  })
  assert.equal(r.status, 0, r.stderr)
  return r
}

it('falls back to the WebAssembly engine, says so once, and serves the same read', () => {
  const native = run({})
  assert.match(native.stdout, /"text":"R"/)
  assert.doesNotMatch(native.stderr, /MCP_CONTEXT_WASM_FALLBACK/)
  const wasm = run({ NAPI_RS_NATIVE_LIBRARY_PATH: '/nonexistent/addon.node' })
  assert.equal(wasm.stdout, native.stdout)
  assert.equal(wasm.stderr.match(/MCP_CONTEXT_WASM_FALLBACK/g)?.length, 1, wasm.stderr)
  assert.match(wasm.stderr, /using the WebAssembly engine/)
})
