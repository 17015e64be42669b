// `mcp-context-primitives/wasm` on Cloudflare Workers (the `workerd` export condition): the runtime
// hands over the compiled module as an import.
import wasm from './pkg/mcp_context_wasm_bg.wasm'
import { bind } from '../js/mcp.mjs'
import * as engine from './engine.mjs'

engine.load(wasm)

export const { McpServer } = bind(engine)
export { completable, McpError, ResourceNotFoundError, ResourceTemplate } from '../js/mcp.mjs'
export { ClientMachine, Router, UriTemplate } from './engine.mjs'
export { jsonLog, otel, rateLimit } from '../js/telemetry.mjs'
