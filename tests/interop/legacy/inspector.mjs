// The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned in package.json) against the
// Rust demo server over stdio. The Inspector opens with `initialize` at 2025-11-25, so every
// call below goes through the server machine's legacy session (docs/server-machine.md
// "Legacy sessions"). Usage: node inspector.mjs /path/to/demo-server (run by test.sh from the
// cached install, next to node_modules).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const server = process.argv[2];
if (!server) throw new Error('usage: node inspector.mjs /path/to/demo-server');
const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));

/** Runs `mcp-inspector --cli <server> ...args`: { code, json }. */
function cli(...args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [launcher, '--cli', server, '--tick-ms', '0', ...args],
      { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json') }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const text = stdout.trim() || stderr.trim();
        let json;
        try { json = JSON.parse(text.slice(text.indexOf('{'))); } catch { json = undefined; }
        resolve({ code: err ? (err.code ?? 1) : 0, json, text });
      },
    );
  });
}

const checks = [];
async function check(name, args, verify) {
  const r = await cli(...args);
  try {
    verify(r);
    checks.push(`ok   ${name}`);
  } catch (e) {
    checks.push(`FAIL ${name}: ${e.message}\n     output: ${r.text.slice(0, 400)}`);
  }
}

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

console.log(checks.join('\n'));
const failed = checks.filter((c) => c.startsWith('FAIL')).length;
console.log(`inspector CLI: ${checks.length - failed}/${checks.length} passed`);
process.exit(failed ? 1 : 0);
