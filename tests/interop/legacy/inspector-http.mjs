// The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned in package.json) against the
// Node knowledge-base example over Streamable HTTP. The Inspector opens with `initialize` at
// 2025-11-25, so the server's HTTP entry point issues an `Mcp-Session-Id` and every call below
// goes through that legacy session (docs/server-machine.md "Legacy sessions").
// Usage: node inspector-http.mjs /path/to/repo (run by test.sh after the Node step, which
// links examples/node/node_modules/mcp-context-primitives).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import assert from 'node:assert/strict';

import { checker, inspector } from './cli.mjs';

const repo = process.argv[2];
if (!repo) throw new Error('usage: node inspector-http.mjs /path/to/repo');

// The example server on the napi addon, on a port the OS picks; it prints one line with its URL.
const server = spawn(process.execPath, [join(repo, 'examples/node/server.mjs'), '--kb', '--http', '0'], {
  cwd: repo,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the example server did not start in 30 s')), 30_000);
  server.on('exit', (code) => reject(new Error(`the example server exited (${code})`)));
  createInterface({ input: server.stdout }).on('line', (line) => {
    const m = /^listening (http:\S+)$/.exec(line);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
});

const { check, finish } = checker(inspector(url, '--transport', 'http'));

try {
  await check('resources/list (legacy session over HTTP)', ['--method', 'resources/list'], ({ code, json }) => {
    assert.equal(code, 0);
    const uris = json.resources.map((r) => r.uri);
    assert.ok(uris.includes('kb://acme/charte-reponse'), uris.join(' '));
    assert.ok(uris.includes('kb://acme/fiches/attestation-assurance'), uris.join(' '));
    assert.equal(json.resultType, undefined);
    assert.equal(json.ttlMs, undefined);
  });
  await check('resources/templates/list', ['--method', 'resources/templates/list'], ({ code, json }) => {
    assert.equal(code, 0);
    assert.equal(json.resourceTemplates[0].uriTemplate, 'kb://acme/fiches/{slug}');
  });
  await check('resources/read (static)', ['--method', 'resources/read', '--uri', 'kb://acme/charte-reponse'], ({ code, json }) => {
    assert.equal(code, 0);
    assert.match(json.contents[0].text, /Engagements/);
  });
  await check('resources/read (templated)', ['--method', 'resources/read', '--uri', 'kb://acme/fiches/attestation-assurance'], ({ code, json }) => {
    assert.equal(code, 0);
    assert.equal(json.contents[0].mimeType, 'text/markdown');
    assert.match(json.contents[0].text, /attestation/i);
  });
  await check('resources/read (missing resource: an error, exit 1)', ['--method', 'resources/read', '--uri', 'kb://acme/fiches/inconnue'], ({ code }) => {
    assert.notEqual(code, 0);
  });
  await check('prompts/list', ['--method', 'prompts/list'], ({ code, json }) => {
    assert.equal(code, 0);
    assert.ok(json.prompts.some((p) => p.name === 'repondre_ticket'));
  });
  await check('prompts/get', ['--method', 'prompts/get', '--prompt-name', 'repondre_ticket', '--prompt-args', 'ticketId=T-42', 'ton=chaleureux'], ({ code, json }) => {
    assert.equal(code, 0);
    assert.equal(json.messages[0].content.resource.uri, 'kb://acme/charte-reponse');
    assert.match(json.messages[1].content.text, /T-42/);
  });
} finally {
  server.kill();
}

finish('inspector CLI over HTTP');
