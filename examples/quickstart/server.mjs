import { McpServer, ResourceNotFoundError, ResourceTemplate, serveStdio } from 'mcp-context-primitives/server'

const server = new McpServer({ name: 'hello', version: '1.0.0' })
const users = ['ada', 'alan', 'grace']
const template = new ResourceTemplate('hello://users/{name}', {
  list: undefined,
  complete: { name: (value) => users.filter((u) => u.startsWith(value)) },
})
server.registerResource('user', template, { mimeType: 'text/plain' }, (uri, { name }) => {
  if (!users.includes(name)) throw new ResourceNotFoundError(uri.href)
  return { contents: [{ uri: uri.href, text: `Hello, ${name}` }] }
})
await serveStdio(server)
