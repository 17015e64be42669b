// bindings-node/README.md's quickstart (the first ```js block of "## `McpServer`") as written:
// saved next to the examples (so `mcp-context-primitives` and `zod` resolve as in a user's
// project), started with `node` on a free port in place of 3000, and read by the official
// TypeScript client (@modelcontextprotocol/client 2.4.0) over Streamable HTTP.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

const readme = readFileSync(fileURLToPath(new URL('../../../bindings-node/README.md', import.meta.url)), 'utf8')
const section = readme.split('\n## `McpServer`')[1] ?? ''
const block = section.match(/```js\n([\s\S]*?)```/)?.[1] ?? ''

async function freePort() {
  const s = createServer()
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address()
  await new Promise((resolve) => s.close(resolve))
  return port
}

describe('bindings-node/README.md quickstart', () => {
  const file = fileURLToPath(new URL(`../.readme-quickstart-${process.pid}.mjs`, import.meta.url))
  let child, client, stderr = ''
  before(async () => {
    assert.match(block, /await serveHttp\(server, \{ port: 3000 \}\)/, 'the quickstart serves on port 3000')
    const port = await freePort()
    writeFileSync(file, block.replace('{ port: 3000 }', `{ port: ${port} }`))
    child = spawn(process.execPath, [file], { stdio: ['ignore', 'ignore', 'pipe'] })
    child.stderr.on('data', (d) => { stderr += d })
    const url = new URL(`http://127.0.0.1:${port}/mcp`)
    for (let i = 0; ; i++) {
      try {
        client = new Client({ name: 'readme-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
        await client.connect(new StreamableHTTPClientTransport(url))
        break
      } catch (e) {
        if (i === 100 || child.exitCode !== null) throw new Error(`the quickstart did not serve: ${e}\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  })
  after(async () => {
    await client?.close()
    child?.kill()
    rmSync(file, { force: true })
  })

  it('lists and reads the templated note, with its cache hint', async () => {
    const { resources } = await client.listResources()
    assert.deepEqual(resources.map((r) => r.uri), ['notes://1'])
    const r = await client.readResource({ uri: 'notes://7' })
    assert.equal(r.contents[0].text, 'note 7')
    assert.equal(r.ttlMs, 60_000)
    assert.equal(r.cacheScope, 'public')
  })
  it('completes the template variable and gets the prompt (zod arguments)', async () => {
    const c = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{id}' }, argument: { name: 'id', value: '' } })
    assert.deepEqual(c.completion.values, ['1', '2'])
    const p = await client.getPrompt({ name: 'summarize', arguments: { id: '3' } })
    assert.equal(p.messages[0].content.text, 'Summarize note 3')
    await assert.rejects(client.getPrompt({ name: 'summarize', arguments: {} }), (err) => err.code === -32602)
  })
})
