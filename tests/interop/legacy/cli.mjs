// What the two Inspector runs share (inspector.mjs over stdio, inspector-http.mjs over
// Streamable HTTP): running the pinned Inspector CLI in a scratch HOME, and collecting checks.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));

/** An Inspector CLI bound to `target` (the arguments naming the server): `cli(...args)`
 * runs `mcp-inspector --cli ...target ...args` and resolves to `{ code, json, text }`. */
export function inspector(...target) {
  return (...args) => new Promise((resolve) => {
    execFile(
      process.execPath,
      [launcher, '--cli', ...target, ...args],
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

/** Named checks of one CLI: `check(name, args, verify)` runs the CLI and records the outcome;
 * `finish(title)` prints them and exits non-zero when one failed. */
export function checker(cli) {
  const checks = [];
  return {
    async check(name, args, verify) {
      const r = await cli(...args);
      try {
        verify(r);
        checks.push(`ok   ${name}`);
      } catch (e) {
        checks.push(`FAIL ${name}: ${e.message}\n     output: ${r.text.slice(0, 400)}`);
      }
    },
    finish(title) {
      console.log(checks.join('\n'));
      const failed = checks.filter((c) => c.startsWith('FAIL')).length;
      console.log(`${title}: ${checks.length - failed}/${checks.length} passed`);
      process.exit(failed ? 1 : 0);
    },
  };
}
