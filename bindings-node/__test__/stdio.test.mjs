// The stdio runner on the core's line policy, both engines: a line over the bound (20 MiB
// against the 4 MiB default) is answered -32600 with its id and skipped without being
// buffered, the next lines are served, and a line may arrive in many chunks.
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }
// The answers of one write (the runner writes the lines of a turn at once), each a whole line.
function linesOf(chunk) {
  const text = Buffer.from(chunk).toString()
  assert.ok(text.endsWith('\n'), 'a write ends with a whole line')
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line))
}
const read = (id, extra = {}) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'notes://1', _meta: META, ...extra } })

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`on ${engine}`, () => {
  it('answers a 20 MiB line with -32600 and its id, then goes on serving', { timeout: 60_000 }, async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'stdio', version: '1.0.0' })
    server.registerResource('note', 'notes://1', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }))
    const input = new PassThrough()
    const lines = []
    let waiting = null
    const output = { write(chunk) { lines.push(...linesOf(chunk)); waiting?.() } }
    await pkg.serveStdio(server, { input, output })
    const until = (n) => new Promise((resolve) => {
      waiting = () => { if (lines.length >= n) resolve() }
      waiting()
    })
    // 20 MiB in 1 MiB chunks, the id first (as a request starts).
    const big = read(7, { pad: 'x'.repeat(20 << 20) })
    for (let at = 0; at < big.length; at += 1 << 20) input.write(big.slice(at, at + (1 << 20)))
    input.write('\n')
    // A normal line split across chunks, then one more.
    const next = read(8)
    input.write(next.slice(0, 10))
    input.write(`${next.slice(10)}\n${read(9)}\n`)
    await until(3)
    assert.equal(lines[0].id, 7)
    assert.equal(lines[0].error.code, -32600)
    assert.equal(lines[1].id, 8)
    assert.equal(lines[1].result.contents[0].text, 'hi')
    assert.equal(lines[2].id, 9)
    input.end()
  })
})

// The core's limits are McpServer options (camelCase `ServerConfig::LIMITS`), both engines.
for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`limits on ${engine}`, () => {
  it('takes maxLine (a line over it is -32600 with its id) and every other limit', async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'stdio', version: '1.0.0' }, { maxLine: 200, sessionHandshakeMs: 1234, maxSessionsPerPeer: 3, maxSessions: 9, pageSize: 7 })
    server.registerResource('note', 'notes://1', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }))
    assert.equal(server.limit('sessionHandshakeMs'), 1234)
    assert.equal(server.limit('maxSessionsPerPeer'), 3)
    assert.equal(server.limit('maxSessions'), 9)
    assert.equal(server.limit('pageSize'), 7)
    assert.equal(server.limit('maxPending'), 10_000) // the core's default
    assert.equal(server.limit('noSuchLimit'), null)
    const input = new PassThrough()
    const lines = []
    let waiting = null
    const output = { write(chunk) { lines.push(...linesOf(chunk)); waiting?.() } }
    await pkg.serveStdio(server, { input, output })
    const short = read(1)
    assert.ok(short.length < 200)
    input.write(`${read(2, { pad: 'x'.repeat(200) })}\n${short}\n`)
    await new Promise((resolve) => { waiting = () => { if (lines.length >= 2) resolve() }; waiting() })
    assert.equal(lines[0].id, 2)
    assert.equal(lines[0].error.code, -32600)
    assert.equal(lines[1].id, 1)
    assert.equal(lines[1].result.contents[0].text, 'hi')
    input.end()
    assert.throws(() => new pkg.McpServer({ name: 's', version: '1' }, { maxLine: 0 }), /at least 1/)
  })
})
