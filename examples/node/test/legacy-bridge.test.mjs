// A 2025-11-25 client over stdio (in process) against the conformance app on both engines:
// the tools written for input_required reach the client as sampling/createMessage and
// elicitation/create requests, its answers come back as the retry, and ctx.log lines arrive
// as notifications/message filtered by logging/setLevel (docs/server-machine.md, Legacy
// sessions).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { createApp } from '../conformance-app.mjs'

for (const [engine, specifier] of [['napi', 'mcp-context-primitives/server'], ['wasm', 'mcp-context-primitives/wasm']]) describe(`legacy bridge on ${engine}`, () => {
  // One stdio connection: send a message, collect what the server writes.
  async function connect() {
    const server = createApp(await import(specifier))
    const seen = []
    let wake = () => {}
    server.attach(0, (t) => { seen.push(JSON.parse(Buffer.from(t.bytes).toString('utf8'))); wake() })
    const send = (msg) => server.receive(JSON.stringify(msg), 0, 'stdio')
    // Waits for the first message `pred` accepts (among those not taken yet).
    const next = async (pred) => {
      for (;;) {
        const i = seen.findIndex(pred)
        if (i >= 0) return seen.splice(i, 1)[0]
        await new Promise((resolve) => { wake = resolve; setTimeout(resolve, 50) })
      }
    }
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: 't', version: '1' } } })
    const init = await next((m) => m.id === 1)
    assert.deepEqual(init.result.capabilities.logging, {})
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    return { send, next, seen }
  }

  it('sampling and elicitation become client requests; the answers finish the call', async () => {
    const { send, next } = await connect()
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'Capital of France?' } } })
    const ask = await next((m) => m.method === 'sampling/createMessage')
    assert.equal(ask.params.messages[0].content.text, 'Capital of France?')
    send({ jsonrpc: '2.0', id: ask.id, result: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' } })
    const done = await next((m) => m.id === 2)
    assert.equal(done.result.content[0].text, 'LLM response: Paris')
    assert.equal(done.result.resultType, undefined)

    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'Who are you?' } } })
    const form = await next((m) => m.method === 'elicitation/create')
    assert.equal(form.params.message, 'Who are you?')
    send({ jsonrpc: '2.0', id: form.id, result: { action: 'accept', content: { username: 'ada', email: 'a@b.c' } } })
    const answered = await next((m) => m.id === 3)
    assert.match(answered.result.content[0].text, /action=accept.*"username":"ada"/)
  })

  it('ctx.log sends notifications/message at the level the client set', async () => {
    const { send, next, seen } = await connect()
    send({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'info' } })
    assert.deepEqual((await next((m) => m.id === 2)).result, {})
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'test_tool_with_logging', arguments: {} } })
    await next((m) => m.id === 3)
    const logs = seen.filter((m) => m.method === 'notifications/message').map((m) => m.params.data)
    assert.deepEqual(logs, ['Tool execution started', 'Tool processing data', 'Tool execution completed'])
    seen.length = 0
    send({ jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'error' } })
    await next((m) => m.id === 4)
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'test_tool_with_logging', arguments: {} } })
    await next((m) => m.id === 5)
    assert.deepEqual(seen.filter((m) => m.method === 'notifications/message'), [])
  })
})
