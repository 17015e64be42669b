// The public surface: the exports are exactly the documented ones, CommonJS and ESM agree,
// and the generated index.d.ts declares and documents every export.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { it } from 'node:test'

import * as esm from '../index.js'

const require = createRequire(import.meta.url)
const EXPORTS = [
  'Authorizer', 'Cache', 'ClientMachine', 'ErrorCode', 'Fleet', 'McpContextError', 'McpError', 'OriginError', 'PROTOCOL_VERSION', 'Router',
  'SSE_KEEPALIVE_INTERVAL_MS', 'ServerMachine', 'TemplateError', 'UriTemplate', 'brokerMetricNames', 'checkHeaders', 'checkOrigin', 'coreIdentifiers',
  'decodeAppCursor', 'decodeSessionMessage', 'encodeAppCursor', 'encodeSessionMessage', 'observeNames', 'parseTraceParent', 'redisRateBucket', 'selectContext',
  'sseEvent', 'sseKeepalive', 'statusFor',
]
const dts = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8')

it('exports exactly the public names (CommonJS and ESM alike)', () => {
  const cjs = require('../index.js')
  const pub = (names) => names.filter((n) => !n.startsWith('__') && n !== 'default').sort()
  assert.deepEqual(pub(Object.keys(cjs)), EXPORTS)
  assert.deepEqual(pub(Object.keys(esm)), EXPORTS)
  for (const name of EXPORTS) {
    assert.notEqual(esm[name], undefined, name)
    assert.equal(esm[name], cjs[name], name)
  }
})

it('declares and documents every export in index.d.ts', () => {
  for (const name of EXPORTS) {
    const decl = new RegExp(`\\*/\\nexport declare (const|class|enum|function) ${name}\\b`)
    assert.match(dts, decl, `${name} is declared with a doc comment right above it`)
  }
  for (const member of ['get source()', 'get variables()', 'expand(vars?: Record<string, VarValue>): string']) {
    const at = dts.indexOf(member)
    assert.ok(at > 0, member)
    assert.ok(dts.lastIndexOf('*/', at) > dts.lastIndexOf(';', at), `${member} is documented`)
  }
  const documented = [
    'match(uri: string): Record<string, string | string[]> | null', 'insert(template: string): number',
    'handleMessage(message: Buffer | string', 'pollOutput(): ServerOutput | null', 'respondRead(handle',
    'respondPrompt(handle', 'respondCompletion(handle', 'respondInputRequired(handle', 'fail(handle',
    'pollTimeout(): number | bigint | null', 'handleTimeout(nowMs', 'streamClosed(stream', 'resourceUpdated(uri',
    'addResource(resource: Resource', 'addTemplate(template: ResourceTemplate', 'addPrompt(prompt: Prompt',
    'readResource(uri: string', 'listResources(nowMs', 'getPrompt(name: string', 'respondInput(call',
    'listen(filter: SubscriptionFilter', 'pollOutput(): ClientOutput | null', 'handleClose(nowMs',
    'insert(method: string', 'lookup(method: string', 'invalidate(notification: string',
    'shareSessions(instance', 'takeSessionChanges(): Array<SessionChange>', 'importSession(id: string',
    'forgetSession(id: string', 'sessionChangeSettled(id: string)', 'sessionLoadBegin()', 'sessionLoadAbort()',
    'sessionLoadEnd(table: Array<SessionRow>', 'sessionHead(head: HttpRequestHead', 'sessionEvent(stream', 'sessionStreamFloor(stream',
    'gateRequest(message: Buffer | string', 'httpGateRequest(head: HttpRequestHead', 'gateAdmit(gate',
    'gateRefuse(gate', 'httpGateRefuse(gate', 'splitStdio(bytes',
  ]
  for (const member of documented) {
    const at = dts.indexOf(member)
    assert.ok(at > 0, member)
    assert.ok(dts.lastIndexOf('*/', at) > dts.lastIndexOf(';', at), `${member} is documented`)
  }
  for (const type of ['McpContextErrorConstructor', 'TemplateErrorConstructor', 'McpErrorConstructor',
    'OriginErrorConstructor', 'VarValue', 'Scalar', 'ServerConfig', 'ServerOutput', 'Resource',
    'ResourceContents', 'GetPromptResult', 'CacheHint', 'InputRequest', 'MessageContext', 'FailureSpec',
    'ClientConfig', 'ClientOutput', 'SubscriptionFilter', 'CacheHintsIn', 'ContextSelection', 'CallOptions', 'ListOptions',
    'SessionChange', 'SessionHead', 'SessionEvent', 'SessionMessage', 'SessionRow', 'SessionLoad',
    'GateRequest']) {
    assert.match(dts, new RegExp(`export (interface|type) ${type}\\b`), type)
  }
})

it('has the documented class members', () => {
  const t = new esm.UriTemplate('{a}')
  for (const member of ['source', 'variables']) assert.ok(member in t, member)
  for (const method of ['expand', 'toString', 'toJSON']) assert.equal(typeof t[method], 'function', method)
})
