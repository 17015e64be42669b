// The OAuth client recipe of bindings-node/README.md and docs/guides/node.md (the first ```js
// block after each one's OAuth heading; the two must be the same) as written: saved next to
// the Node examples (so `mcp-context-primitives` resolves as in a user's project), run with
// `node` against protected-ts.mjs (the official TypeScript SDK's bearer middleware) and
// server.py (run with $MCP_PYTHON, default python3); the test plays the browser.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { after, before, it } from 'node:test'
import { fileURLToPath } from 'node:url'

import { children, start, stats } from './processes.mjs'

const root = new URL('../../', import.meta.url)
const here = fileURLToPath(new URL('.', import.meta.url))

/** The first ```js block after `heading` in the markdown file `path`. */
function recipe(path, heading) {
  const text = readFileSync(fileURLToPath(new URL(path, root)), 'utf8')
  const section = text.split(heading)[1] ?? ''
  return section.match(/```js\n([\s\S]*?)```/)?.[1] ?? ''
}

const file = fileURLToPath(new URL(`examples/node/.oauth-recipe-${process.pid}.mjs`, root))
let issuer, url
before(async () => {
  issuer = await start(process.env.MCP_PYTHON ?? 'python3', [`${here}server.py`])
  url = await start(process.execPath, [`${here}protected-ts.mjs`, issuer])
})
after(() => {
  for (const c of children) c.kill()
  rmSync(file, { force: true })
})

it('the README and the guide show the same recipe', () => {
  const readme = recipe('bindings-node/README.md', '\n## Authorization: `oauthFetch`')
  assert.match(readme, /oauthFetch\(url, \{ redirectUri, userAgent/)
  assert.equal(recipe('docs/guides/node.md', '\n## A client for a server that requires OAuth'), readme)
})

it('the recipe reads a protected resource after the user authorizes', async () => {
  writeFileSync(file, recipe('bindings-node/README.md', '\n## Authorization: `oauthFetch`'))
  const child = spawn(process.execPath, [file, url, 'secret://note'], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let stdout = ''
  child.stdout.on('data', (d) => { stdout += d })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  // The browser: open the printed URL, follow the redirects to the loopback listener.
  let authorizationUrl
  for await (const line of createInterface({ input: child.stderr })) {
    if (line.startsWith('http')) { authorizationUrl = line; break }
  }
  assert.ok(authorizationUrl, 'no authorization URL on stderr')
  const page = await (await fetch(authorizationUrl)).text()
  assert.equal(page, 'Authorization received; you can close this window.')
  let timer
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, 20_000, 'timeout') })
  const code = await Promise.race([exited, timeout])
  clearTimeout(timer)
  assert.equal(code, 0, 'the recipe exits 0')
  assert.match(stdout, /^secret for client-\S+ \(mcp:read/)
  const s = await stats(issuer)
  assert.equal(s.registrations, 1)
  assert.equal(s.authorizations, 1)
  assert.equal(s.last_authorize.resource, url)
})
