// A 2025-11-25 server (@modelcontextprotocol/sdk 1.32.2) over stdio: the same resource,
// template, prompt and completions, plus resources/subscribe; a read of test://touch sends
// notifications/resources/updated (for subscribed URIs) and resources/list_changed.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const server = new McpServer(
  { name: 'interop-legacy', version: '1.0.0' },
  { capabilities: { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} } },
);
const subscribed = new Set();
server.registerResource('static', 'test://static', { mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'static text' }],
}));
server.registerResource('touch', 'test://touch', { mimeType: 'text/plain' }, async (uri) => {
  setTimeout(() => {
    if (subscribed.has('test://static')) server.server.sendResourceUpdated({ uri: 'test://static' });
    server.sendResourceListChanged();
  }, 20);
  return { contents: [{ uri: uri.href, text: 'touched' }] };
});
server.registerResource(
  'item',
  new ResourceTemplate('test://items/{id}', {
    list: undefined,
    complete: { id: (value) => ['alpha', 'beta', 'gamma'].filter((v) => v.startsWith(value)) },
  }),
  { mimeType: 'text/plain' },
  async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `item ${id}` }] }),
);
server.registerPrompt(
  'greet',
  {
    description: 'Greets someone',
    argsSchema: { name: completable(z.string(), (v) => ['alice', 'bob'].filter((n) => n.startsWith(v))) },
  },
  ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }),
);
server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
  subscribed.add(req.params.uri);
  return {};
});
server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
  subscribed.delete(req.params.uri);
  return {};
});
await server.connect(new StdioServerTransport());
