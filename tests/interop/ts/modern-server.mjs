// A 2026-07-28 server (@modelcontextprotocol/server 2.4.0) over stdio: a resource, a
// template with completion, a prompt with completion, and change notifications that a read
// of test://touch triggers (delivered on subscriptions/listen streams by the SDK).
import { McpServer, ResourceTemplate, completable } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const legacy = process.argv.includes('--serve-legacy') ? 'serve' : 'reject';

serveStdio(() => {
  const server = new McpServer(
    { name: 'interop-modern', version: '1.0.0' },
    { capabilities: { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} } },
  );
  server.registerResource('static', 'test://static', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'static text' }],
  }));
  server.registerResource('touch', 'test://touch', { mimeType: 'text/plain' }, async (uri) => {
    setTimeout(() => {
      server.server.sendResourceUpdated({ uri: 'test://static' });
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
      argsSchema: z.object({
        name: completable(z.string(), (v) => ['alice', 'bob'].filter((n) => n.startsWith(v))),
      }),
    },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }),
  );
  return server;
}, { legacy, onerror: (e) => process.stderr.write(`modern-server: ${e.message}\n`) });
