// The Error subclasses, their stable codes and positions, and ErrorCode.
import assert from 'node:assert/strict'
import { it } from 'node:test'

import { ErrorCode, McpContextError, PROTOCOL_VERSION, TemplateError, UriTemplate } from '../index.js'

function parseError(source) {
  try {
    new UriTemplate(source)
  } catch (err) {
    return err
  }
  assert.fail(`${source} parsed`)
}

it('is a hierarchy of real Error subclasses', () => {
  const err = parseError('{var')
  assert.ok(err instanceof TemplateError)
  assert.ok(err instanceof McpContextError)
  assert.ok(err instanceof Error)
  assert.equal(err.name, 'TemplateError')
  assert.match(err.stack, /^TemplateError: invalid URI template: unclosed expression at byte 0\n/)
  assert.ok(Object.getPrototypeOf(TemplateError.prototype) === McpContextError.prototype)
  assert.equal(new McpContextError('m', 'ERR_X').code, 'ERR_X')
})

const cases = [
  ['{var', 'UNCLOSED_EXPRESSION', 0],
  ['a}', 'UNEXPECTED_BRACE', 1],
  ['{a{b}}', 'UNEXPECTED_BRACE', 2],
  ['x{}', 'EMPTY_EXPRESSION', 2],
  ['{=var}', 'RESERVED_OPERATOR', 1],
  ['{ a}', 'INVALID_VAR_NAME', 1],
  ['{a,}', 'EMPTY_VAR_NAME', 3],
  ['{var:0}', 'INVALID_PREFIX', 5],
  ['{var:10000}', 'INVALID_PREFIX', 5],
  ['{a b}', 'INVALID_MODIFIER', 2],
  ['{var*3}', 'INVALID_MODIFIER', 5],
  ['a b', 'INVALID_LITERAL', 1],
  ['%zz', 'INVALID_PERCENT_ENCODING', 0],
]

for (const [source, kind, position] of cases) {
  it(`${JSON.stringify(source)} → ERR_TEMPLATE_${kind} at ${position}`, () => {
    const err = parseError(source)
    assert.ok(err instanceof TemplateError)
    assert.equal(err.code, `ERR_TEMPLATE_${kind}`)
    assert.equal(err.position, position)
    assert.equal(err.byteOffset, position) // ASCII: the two units agree
    assert.ok(err.message.endsWith(`at byte ${position}`))
  })
}

it('reports position as a JS string index (UTF-16) for non-ASCII', () => {
  const source = '/😀/café/{ a}'
  const err = parseError(source)
  assert.equal(err.code, 'ERR_TEMPLATE_INVALID_VAR_NAME')
  assert.equal(source[err.position], ' ')
  assert.equal(err.position, 10)
  assert.equal(err.byteOffset, 13)
})

it('never crashes on hostile templates', () => {
  const hostile = ['{'.repeat(10_000), '}'.repeat(10_000), '{' + 'a'.repeat(100_000), `{a:${'9'.repeat(50)}}`,
    '\0{a}', '{\0}', '%', '%4', '{a:1', '{+}', '{.a*:3}', '{a,,b}', '\uD800{a}']
  for (const source of hostile) {
    try {
      new UriTemplate(source)
    } catch (err) {
      assert.ok(err instanceof TemplateError, String(err))
      assert.ok(err.position >= 0 && err.position <= source.length)
    }
  }
})

it('exposes the JSON-RPC error codes', () => {
  assert.deepEqual({ ...ErrorCode }, {
    ParseError: -32700,
    InvalidRequest: -32600,
    MethodNotFound: -32601,
    InvalidParams: -32602,
    InternalError: -32603,
    HeaderMismatch: -32020,
    MissingRequiredClientCapability: -32021,
    UnsupportedProtocolVersion: -32022,
    LegacyResourceNotFound: -32002,
  })
  assert.equal(PROTOCOL_VERSION, '2026-07-28')
})
