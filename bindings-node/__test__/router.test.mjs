// UriTemplate.match, Router and the HTTP checks.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { checkHeaders, checkOrigin, ErrorCode, McpContextError, McpError, OriginError, Router, statusFor, TemplateError, UriTemplate } from '../index.js'

describe('UriTemplate.match', () => {
  it('gives decoded variables back, and round-trips expand', () => {
    const t = new UriTemplate('repo://{owner}/{repo}/issues/{number}')
    const vars = { owner: 'acme', repo: 'web app', number: '812' }
    const uri = t.expand(vars)
    assert.equal(uri, 'repo://acme/web%20app/issues/812')
    assert.deepEqual(t.match(uri), vars)
    assert.equal(t.match('repo://acme/web/pulls/5'), null)
  })
  it('matches exploded and query variables', () => {
    assert.deepEqual(new UriTemplate('file:///{+path}').match('file:///a/b%20c.md'), { path: 'a/b c.md' })
    assert.deepEqual(new UriTemplate('x://s{/segs*}').match('x://s/a/b/c'), { segs: ['a', 'b', 'c'] })
    assert.deepEqual(new UriTemplate('x://q{?a,b}').match('x://q?a=1&b=2'), { a: '1', b: '2' })
  })
  it('handles non-ASCII values', () => {
    const t = new UriTemplate('kb://{slug}')
    assert.deepEqual(t.match(t.expand({ slug: 'résiliation été' })), { slug: 'résiliation été' })
  })
})

describe('Router', () => {
  it('routes by precedence and returns ids, templates and variables', () => {
    const r = new Router()
    assert.equal(r.insert('repo://{owner}/{repo}'), 0)
    assert.equal(r.insert('repo://{owner}/{repo}/issues/{n}'), 1)
    assert.equal(r.insert('repo://acme/{repo}'), 2)
    assert.equal(r.length, 3)
    assert.deepEqual(r.route('repo://acme/web/issues/7'), { id: 1, template: 'repo://{owner}/{repo}/issues/{n}', variables: { owner: 'acme', repo: 'web', n: '7' } })
    assert.deepEqual(r.route('repo://acme/web'), { id: 2, template: 'repo://acme/{repo}', variables: { repo: 'web' } })
    assert.equal(r.route('other://x'), null)
  })
  it('refuses unreachable and invalid templates', () => {
    const r = new Router()
    r.insert('repo://{owner}/{repo}')
    assert.throws(() => r.insert('repo://{a}/{b}'), (e) => e instanceof McpContextError && e.code === 'ERR_ROUTE_INDISTINGUISHABLE')
    assert.throws(() => r.insert('{oops'), TemplateError)
    assert.equal(r.length, 1)
  })
  it('routes among 1,000 templates', () => {
    const r = new Router()
    for (let i = 0; i < 1000; i++) r.insert(`svc${i}://{tenant}/items/{id}`)
    assert.deepEqual(r.route('svc999://t/items/5'), { id: 999, template: 'svc999://{tenant}/items/{id}', variables: { tenant: 't', id: '5' } })
  })
})

describe('HTTP checks', () => {
  it('checkOrigin accepts loopback and rejects rebinding', () => {
    checkOrigin('127.0.0.1:8080', undefined)
    checkOrigin('localhost:1', 'http://localhost:3000')
    checkOrigin('[::1]:9', null)
    const cases = [
      [undefined, undefined, 'ERR_MISSING_HOST', 400],
      ['evil.example', undefined, 'ERR_HOST_NOT_ALLOWED', 403],
      ['localhost', 'http://evil.example', 'ERR_ORIGIN_NOT_ALLOWED', 403],
      ['localhost', 'null', 'ERR_NULL_ORIGIN', 403],
    ]
    for (const [host, origin, code, status] of cases) {
      assert.throws(() => checkOrigin(host, origin), (e) => e instanceof OriginError && e.code === code && e.httpStatus === status, `${host} ${origin}`)
    }
    checkOrigin('mcp.example:443', 'https://mcp.example', ['mcp.example'])
  })
  it('checkHeaders compares headers with the body: -32020, HTTP 400', () => {
    const body = { protocolVersion: '2026-07-28', method: 'resources/read', name: 'file:///a b' }
    checkHeaders({ protocolVersion: '2026-07-28', method: 'resources/read', name: `=?base64?${Buffer.from('file:///a b').toString('base64')}?=` }, body)
    assert.throws(
      () => checkHeaders({ protocolVersion: '2026-07-28', method: 'resources/list' }, body),
      (e) => e instanceof McpError && e.code === ErrorCode.HeaderMismatch && e.httpStatus === 400 && e.data.header === 'Mcp-Method' && e.data.problem === 'mismatch',
    )
    assert.throws(() => checkHeaders({ method: 'resources/read', name: 'x' }, body), (e) => e.data.header === 'MCP-Protocol-Version' && e.data.problem === 'missing')
  })
  it('statusFor maps JSON-RPC codes to HTTP statuses', () => {
    assert.deepEqual([-32601, -32020, -32021, -32022, -32602, -32603, 7].map(statusFor), [404, 400, 400, 400, 200, 200, 200])
  })
})
