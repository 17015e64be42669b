// The official TypeScript SDK 1.x client (@modelcontextprotocol/sdk, pinned in package.json),
// a 2025-11-25 client, against the Rust demo server over stdio: initialize, list, read,
// templates, prompts, completion, a missing resource, subscribe and receive an update (the
// demo edits notes://acme/1 every --tick-ms), unsubscribe. Usage:
// node sdk-client.mjs /path/to/demo-server (run by test.sh from the cached install).
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const server = process.argv[2];
if (!server) throw new Error('usage: node sdk-client.mjs /path/to/demo-server');

const transport = new StdioClientTransport({ command: server, args: ['--tick-ms', '150'], stderr: 'inherit' });
const client = new Client({ name: 'sdk-1.x-legacy-interop', version: '1.0.0' });
const updates = [];
let onUpdate = () => {};
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  updates.push(n.params.uri);
  onUpdate(n.params.uri);
});

const checks = [];
async function check(name, f) {
  try {
    await f();
    checks.push(`ok   ${name}`);
  } catch (e) {
    checks.push(`FAIL ${name}: ${e.stack ?? e}`);
  }
}

await client.connect(transport);
await check('initialize: version, serverInfo, capabilities', async () => {
  assert.equal(client.getServerVersion().name, 'mcp-context-demo');
  const caps = client.getServerCapabilities();
  assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
  assert.deepEqual(caps.prompts, { listChanged: true });
  assert.ok(caps.completions);
  assert.match(client.getInstructions(), /notes:\/\//);
});
await check('resources/list', async () => {
  const r = await client.listResources();
  assert.ok(r.resources.some((x) => x.uri === 'notes://readme'));
  assert.equal(r.resultType, undefined);
});
await check('resources/templates/list', async () => {
  const r = await client.listResourceTemplates();
  assert.equal(r.resourceTemplates[0].uriTemplate, 'notes://{project}/{id}');
});
await check('resources/read', async () => {
  const r = await client.readResource({ uri: 'notes://acme/1' });
  assert.equal(r.contents[0].uri, 'notes://acme/1');
  assert.equal(r.ttlMs, undefined);
});
await check('missing resource: -32002', async () => {
  await assert.rejects(client.readResource({ uri: 'notes://acme/404' }), (e) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, -32002);
    return true;
  });
});
await check('prompts/list and prompts/get', async () => {
  const l = await client.listPrompts();
  assert.ok(l.prompts.some((p) => p.name === 'review_note'));
  const g = await client.getPrompt({ name: 'review_note', arguments: { project: 'acme', id: '1' } });
  assert.equal(g.messages[1].content.resource.uri, 'notes://acme/1');
});
await check('completion/complete', async () => {
  const c = await client.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'project', value: 'a' } });
  assert.ok(c.completion.values.includes('acme'), JSON.stringify(c));
});
await check('ping', async () => {
  await client.ping();
});
await check('subscribe, receive notifications/resources/updated, unsubscribe', async () => {
  const got = new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no update within 5 s')), 5000);
    onUpdate = (uri) => { if (uri === 'notes://acme/1') { clearTimeout(t); resolve(uri); } };
  });
  await client.subscribeResource({ uri: 'notes://acme/1' });
  assert.equal(await got, 'notes://acme/1');
  await client.unsubscribeResource({ uri: 'notes://acme/1' });
  const seen = updates.length;
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(updates.length, seen, 'updates after unsubscribe');
});
await client.close();

console.log(checks.join('\n'));
const failed = checks.filter((c) => c.startsWith('FAIL')).length;
console.log(`SDK 1.x client: ${checks.length - failed}/${checks.length} passed`);
process.exit(failed ? 1 : 0);
