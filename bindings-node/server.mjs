// `mcp-context-primitives/server`: the package layer (`McpServer`, the official SDK's call
// shapes) on the napi addon, with the stdio and node:http runners. When no native binary
// matches this platform (its optional platform package is absent), the same API runs on the
// WebAssembly engine (`mcp-context-primitives/wasm`); a process warning says so, once.
import { createRequire } from 'node:module'
import { bind } from './js/mcp.mjs'
import { bindOAuth } from './js/oauth.mjs'

let addon = null
try {
  addon = createRequire(import.meta.url)('./index.js')
} catch (err) {
  const why = String(err?.message ?? err).split(/[.\n]/)[0]
  process.emitWarning(
    `no native binary loaded for ${process.platform}-${process.arch} (${why}); using the WebAssembly engine`,
    { type: 'McpContextWarning', code: 'MCP_CONTEXT_WASM_FALLBACK' },
  )
}
const pkg = addon ? { ...bind(addon), ClientMachine: addon.ClientMachine, Authorizer: addon.Authorizer } : await import('./wasm/index.mjs')

export const { McpServer, ClientMachine, Authorizer } = pkg
/** A `fetch` that authorizes by itself (OAuth 2.1 on the core's `Authorizer`). */
export const oauthFetch = bindOAuth(Authorizer)
export { AuthorizationError, MemoryTokenStore } from './js/oauth.mjs'
export { completable, McpError, ResourceNotFoundError, ResourceTemplate } from './js/mcp.mjs'
export { serveHttp, serveStdio, toNodeHandler } from './js/node.mjs'
export { jsonLog, otel, rateLimit } from './js/telemetry.mjs'
