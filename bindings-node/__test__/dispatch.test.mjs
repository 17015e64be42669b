// What a handler's failure becomes, both engines: the package layer fails every throw through
// one core call (`fail` with the core's kinds) and the core decides per event. A tool's plain
// error or failed argument validation is a result with `isError` (the model sees it), an
// McpError a protocol error; any other handler's plain error is -32603 without its message.
import assert from 'node:assert/strict'
import { setImmediate as tick } from 'node:timers/promises'
import { describe, it } from 'node:test'

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
// A Standard Schema (what zod and others provide): `{ n: number }`.
const numberArgs = {
  '~standard': {
    version: 1, vendor: 'test',
    validate: (v) => (typeof v?.n === 'number' ? { value: v } : { issues: [{ message: 'Expected number', path: ['n'] }] }),
    jsonSchema: { input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }) },
  },
}
const msg = (id, method, params) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: META, ...params } }))

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`on ${engine}`, () => {
  it('a tool error is isError, an McpError a protocol error, a read error -32603', async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'dispatch', version: '1.0.0' })
    server.registerTool('broken', { description: 'fails' }, async () => { throw new Error('disk full') })
    server.registerTool('strict', { inputSchema: numberArgs }, ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }))
    server.registerTool('refuses', {}, () => { throw new pkg.McpError(-32602, 'bad date') })
    server.registerResource('secret', 'notes://secret', {}, () => { throw new Error('password is hunter2') })
    const stream = server.openStream()
    const answers = new Map()
    server.attach(stream, (t) => { const v = JSON.parse(Buffer.from(t.bytes).toString()); answers.set(v.id, v) })
    server.receive(msg(1, 'tools/call', { name: 'broken', arguments: {} }), stream, 'stdio')
    server.receive(msg(2, 'tools/call', { name: 'strict', arguments: { n: 'x' } }), stream, 'stdio')
    server.receive(msg(3, 'tools/call', { name: 'refuses', arguments: {} }), stream, 'stdio')
    server.receive(msg(4, 'resources/read', { uri: 'notes://secret' }), stream, 'stdio')
    server.receive(msg(5, 'tools/call', { name: 'strict', arguments: { n: 7 } }), stream, 'stdio')
    for (let i = 0; i < 20 && answers.size < 5; i++) await tick()
    assert.deepEqual(answers.get(1).result.content, [{ type: 'text', text: 'disk full' }])
    assert.equal(answers.get(1).result.isError, true)
    assert.equal(answers.get(2).result.isError, true)
    assert.match(answers.get(2).result.content[0].text, /^Invalid arguments: n/)
    assert.deepEqual([answers.get(3).error.code, answers.get(3).error.message], [-32602, 'bad date'])
    assert.equal(answers.get(4).error.code, -32603)
    assert.doesNotMatch(JSON.stringify(answers.get(4)), /hunter2/)
    assert.deepEqual(answers.get(5).result.content, [{ type: 'text', text: '7' }])
  })
})

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`refused results on ${engine}`, () => {
  it('a result the machine refuses is -32603 at once, reported, never a tool error', async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'dispatch', version: '1.0.0' })
    const reported = []
    server.onerror = (err) => reported.push(err)
    server.registerTool('shapeless', {}, () => ({ notContent: true }))
    const stream = server.openStream()
    const answers = new Map()
    server.attach(stream, (t) => { const v = JSON.parse(Buffer.from(t.bytes).toString()); answers.set(v.id, v) })
    server.receive(msg(1, 'tools/call', { name: 'shapeless', arguments: {} }), stream, 'stdio')
    for (let i = 0; i < 20 && answers.size < 1; i++) await tick()
    assert.equal(answers.get(1).error.code, -32603)
    assert.equal(reported.length, 1)
    // The core's RespondError::is_late decides what is reported: a refusal is not late, an
    // answer to a request that is gone is.
    assert.equal(reported[0].code, 'ERR_INVALID_RESULT')
    assert.equal(reported[0].late, false)
    assert.throws(() => server.machine.fail(999, { kind: 'internal' }), (e) => e.code === 'ERR_UNKNOWN_HANDLE' && e.late === true)
  })
})

for (const [engine, specifier] of [['napi', '../server.mjs'], ['wasm', '../wasm/index.mjs']]) describe(`missing handlers on ${engine}`, () => {
  it('something on the machine without a handler gets the core not-found answer', async () => {
    const pkg = await import(specifier)
    const server = new pkg.McpServer({ name: 'dispatch', version: '1.0.0' })
    server.machine.addPrompt({ name: 'orphan' }, null)
    server.machine.addTool({ name: 'orphan', inputSchema: { type: 'object' } })
    server.machine.addResource({ uri: 'notes://orphan', name: 'orphan' }, null, null)
    server.machine.addMethod('acme/orphan')
    const stream = server.openStream()
    const answers = new Map()
    server.attach(stream, (t) => { const v = JSON.parse(Buffer.from(t.bytes).toString()); answers.set(v.id, v) })
    server.receive(msg(1, 'prompts/get', { name: 'orphan' }), stream, 'stdio')
    server.receive(msg(2, 'tools/call', { name: 'orphan', arguments: {} }), stream, 'stdio')
    server.receive(msg(3, 'resources/read', { uri: 'notes://orphan' }), stream, 'stdio')
    server.receive(msg(4, 'acme/orphan', {}), stream, 'stdio')
    for (let i = 0; i < 20 && answers.size < 4; i++) await tick()
    assert.deepEqual(answers.get(1).error, { code: -32602, message: 'Unknown prompt' })
    assert.deepEqual(answers.get(2).error, { code: -32602, message: 'Unknown tool' })
    assert.deepEqual(answers.get(3).error.data, { uri: 'notes://orphan' })
    assert.deepEqual(answers.get(4).error, { code: -32602, message: 'Not found' })
  })
})
