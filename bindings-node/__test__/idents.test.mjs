// The binding's spellings of core enums against the core's identifier tables
// (mcp_context::ident): every identifier the core lists has exactly the spelling the binding
// produces for it (ERR_ + upper case for error codes, lowerCamelCase for values), and the
// spellings the binding documents are those.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { ServerMachine, checkHeaders, checkOrigin, coreIdentifiers } from '../index.js'

const upper = (i) => `ERR_${i.toUpperCase()}`
const camel = (i) => i.replace(/_([a-z])/g, (_, c) => c.toUpperCase())

describe('core identifiers', () => {
  const tables = coreIdentifiers()
  it('spells OriginError codes ERR_ + upper case', () => {
    assert.ok(tables.OriginError.length >= 6)
    for (const [ident, code] of tables.OriginError) assert.equal(code, upper(ident))
    assert.deepEqual(tables.OriginError.map(([, c]) => c).sort(), ['ERR_HOST_NOT_ALLOWED', 'ERR_MALFORMED_HOST', 'ERR_MALFORMED_ORIGIN', 'ERR_MISSING_HOST', 'ERR_NULL_ORIGIN', 'ERR_ORIGIN_NOT_ALLOWED'])
  })
  it('spells HeaderProblem values in lowerCamelCase', () => {
    for (const [ident, value] of tables.HeaderProblem) assert.equal(value, camel(ident))
    assert.deepEqual(tables.HeaderProblem.map(([, v]) => v).sort(), ['invalidCharacters', 'malformedEncoding', 'mismatch', 'missing'])
  })
  it('spells every error enum ERR_ + upper case and Notice in lowerCamelCase', () => {
    for (const name of ['KeyError', 'RegisterError', 'RespondError', 'ClientError', 'ConnectError', 'CallError']) {
      assert.ok(tables[name].length > 0, name)
      for (const [ident, code] of tables[name]) assert.equal(code, upper(ident), name)
    }
    assert.ok(tables.RegisterError.some(([i]) => i === 'core_method'))
    assert.ok(tables.ClientError.some(([i]) => i === 'owned_method'))
    for (const [ident, value] of tables.Notice) assert.equal(value, camel(ident))
  })
  it('throws the core-spelled machine errors', () => {
    const s = new ServerMachine({ serverInfo: { name: 'idents', version: '1' } })
    s.addResource({ uri: 'mem://a', name: 'a' })
    assert.throws(() => s.addResource({ uri: 'mem://a', name: 'a' }), (e) => e.code === 'ERR_DUPLICATE')
    assert.throws(() => s.addMethod('resources/read'), (e) => e.code === 'ERR_CORE_METHOD')
    assert.throws(() => s.respondRead(123456, []), (e) => e.code === 'ERR_UNKNOWN_HANDLE')
  })
  it('throws the tabled spellings', () => {
    const codes = tables.OriginError.map(([, c]) => c)
    for (const [host, origin] of [[undefined, undefined], ['evil.example', undefined], ['localhost', 'null'], ['localhost', 'http://evil.example']]) {
      assert.throws(() => checkOrigin(host, origin), (e) => codes.includes(e.code))
    }
    const problems = tables.HeaderProblem.map(([, v]) => v)
    assert.throws(
      () => checkHeaders({ protocolVersion: '2026-07-28', method: 'resources/read', name: 'x://other' }, { protocolVersion: '2026-07-28', method: 'resources/read', name: 'x://y' }),
      (e) => problems.includes(e.data.problem) && e.data.problem === 'mismatch',
    )
  })
})
