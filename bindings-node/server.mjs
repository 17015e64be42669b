// `mcp-context/server`: the package layer (`McpServer`, the official SDK's call shapes) on
// the napi addon, with the stdio and node:http runners.
import addon from './index.js'
import { bind } from './js/mcp.mjs'

export const { McpServer } = bind(addon)
export const { ClientMachine } = addon
export { completable, McpError, ResourceNotFoundError, ResourceTemplate } from './js/mcp.mjs'
export { serveHttp, serveStdio, toNodeHandler } from './js/node.mjs'
