// A 2025-11-25 server (@modelcontextprotocol/sdk 1.32.2) over stdio: the same resource,
// template, prompt and completions, plus resources/subscribe; a read of test://touch sends
// notifications/resources/updated (for subscribed URIs) and resources/list_changed.
// With `--http`: Streamable HTTP with sessions (one transport per `Mcp-Session-Id`, as the
// SDK's own example), on 127.0.0.1 at a free port printed as `listening PORT`; an unknown
// session id is 404, a request without one that is not `initialize` is 400. Reading
// test://end-session ends the caller's session after answering; test://sessions is the
// number of live sessions.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const sessions = new Map();

function build() {
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
return server;
}

if (!process.argv.includes('--http')) {
  await build().connect(new StdioServerTransport());
} else {
  const { createServer } = await import('node:http');
  const { randomUUID } = await import('node:crypto');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const refuse = (res, status, code, message) =>
    res.writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  const http = createServer(async (req, res) => {
    let body;
    if (req.method === 'POST') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      try { body = JSON.parse(Buffer.concat(chunks).toString()); } catch { return refuse(res, 400, -32700, 'Parse error'); }
    }
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? sessions.get(sid) : undefined;
    if (sid && !transport) return refuse(res, 404, -32001, 'Session not found');
    if (!transport) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        return refuse(res, 400, -32000, 'Bad Request: No valid session ID provided');
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      const t = transport;
      t.onclose = () => { if (t.sessionId) sessions.delete(t.sessionId); };
      const server = build();
      server.registerResource('end-session', 'test://end-session', {}, async (uri) => {
        setTimeout(() => t.close(), 20);
        return { contents: [{ uri: uri.href, text: 'ending' }] };
      });
      server.registerResource('sessions', 'test://sessions', {}, async (uri) => ({
        contents: [{ uri: uri.href, text: String(sessions.size) }],
      }));
      await server.connect(t);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => console.log(`listening ${http.address().port}`));
}
