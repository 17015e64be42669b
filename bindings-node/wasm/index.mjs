// `mcp-context-primitives/wasm`: the package layer on the WebAssembly build of the core. No compiler
// at install time; loads in Node, Deno and browsers (the module sits beside this file).
// On Cloudflare Workers the `workerd` export condition picks `workerd.mjs` instead.
import { bind } from '../js/mcp.mjs'
import { bindOAuth } from '../js/oauth.mjs'
import * as engine from './engine.mjs'

const url = new URL('./pkg/mcp_context_wasm_bg.wasm', import.meta.url)
let wasm
if (globalThis.Deno) wasm = await globalThis.Deno.readFile(url)
else if (globalThis.process?.versions?.node) wasm = await (await import('node:fs/promises')).readFile(url)
else wasm = await WebAssembly.compileStreaming(fetch(url))
engine.load(wasm)

export const { McpServer } = bind(engine)
export { completable, McpError, ResourceNotFoundError, ResourceTemplate } from '../js/mcp.mjs'
export { serveHttp, serveStdio, toNodeHandler } from '../js/node.mjs'
export { jsonLog, otel, rateLimit } from '../js/telemetry.mjs'
export { Authorizer, ClientMachine, Router, UriTemplate } from './engine.mjs'
/** A `fetch` that authorizes by itself (OAuth 2.1 on the core's `Authorizer`). */
export const oauthFetch = bindOAuth(engine.Authorizer)
export { AuthorizationError, MemoryTokenStore } from '../js/oauth.mjs'
