// The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned in package.json) against the
// Rust demo server over stdio. The Inspector opens with `initialize` at 2025-11-25, so every
// call below goes through the server machine's legacy session (docs/server-machine.md
// "Legacy sessions"). Usage: node inspector.mjs /path/to/demo-server (run by test.sh from the
// cached install, next to node_modules).
import assert from 'node:assert/strict';

import { checker, inspector } from './cli.mjs';

const server = process.argv[2];
if (!server) throw new Error('usage: node inspector.mjs /path/to/demo-server');
const { check, finish } = checker(inspector(server, '--tick-ms', '0'));

await check('initialize (2025-11-25, serverInfo, capabilities)', ['--method', 'initialize'], ({ code, json }) => {
  assert.equal(code, 0);
  assert.equal(json.protocolVersion, '2025-11-25');
  assert.equal(json.serverInfo.name, 'mcp-context-demo');
  assert.deepEqual(json.capabilities.resources, { subscribe: true, listChanged: true });
  assert.ok(json.capabilities.prompts);
  assert.ok(json.capabilities.completions);
});
await check('resources/list', ['--method', 'resources/list'], ({ code, json }) => {
  assert.equal(code, 0);
  const uris = json.resources.map((r) => r.uri);
  assert.ok(uris.includes('notes://readme'), uris.join(' '));
  assert.equal(json.resultType, undefined);
  assert.equal(json.ttlMs, undefined);
});
await check('resources/templates/list', ['--method', 'resources/templates/list'], ({ code, json }) => {
  assert.equal(code, 0);
  assert.equal(json.resourceTemplates[0].uriTemplate, 'notes://{project}/{id}');
});
await check('resources/read (static)', ['--method', 'resources/read', '--uri', 'notes://readme'], ({ code, json }) => {
  assert.equal(code, 0);
  assert.match(json.contents[0].text, /review_note/);
});
await check('resources/read (templated)', ['--method', 'resources/read', '--uri', 'notes://acme/1'], ({ code, json }) => {
  assert.equal(code, 0);
  assert.equal(json.contents[0].uri, 'notes://acme/1');
  assert.equal(json.contents[0].mimeType, 'text/markdown');
});
await check('resources/read (missing resource: an error, exit 1)', ['--method', 'resources/read', '--uri', 'notes://acme/404'], ({ code, text }) => {
  assert.notEqual(code, 0);
  assert.match(text, /Resource not found/);
});
await check('prompts/list', ['--method', 'prompts/list'], ({ code, json }) => {
  assert.equal(code, 0);
  assert.ok(json.prompts.some((p) => p.name === 'review_note'));
});
await check('prompts/get', ['--method', 'prompts/get', '--prompt-name', 'review_note', '--prompt-args', 'project=acme', 'id=1'], ({ code, json }) => {
  assert.equal(code, 0);
  assert.equal(json.description, 'Review of notes://acme/1');
  assert.equal(json.messages[1].content.resource.uri, 'notes://acme/1');
});

finish('inspector CLI');
