// UriTemplate: construction, accessors, expansion with every accepted value type.
import assert from 'node:assert/strict'
import { it } from 'node:test'

import { TemplateError, UriTemplate } from '../index.js'

it('exposes source and variables (template order, each once)', () => {
  const t = new UriTemplate('repo://{owner}/{repo}/issues{?state,labels}{&owner}')
  assert.equal(t.source, 'repo://{owner}/{repo}/issues{?state,labels}{&owner}')
  assert.deepEqual(t.variables, ['owner', 'repo', 'state', 'labels'])
  assert.deepEqual(new UriTemplate('{/path*}{;id:3}').variables, ['path', 'id'])
  assert.deepEqual(new UriTemplate('no/vars').variables, [])
})

it('interpolates and serialises as its source', () => {
  const t = new UriTemplate('file:///{path}')
  assert.equal(`${t}`, 'file:///{path}')
  assert.equal(JSON.stringify({ uriTemplate: t }), '{"uriTemplate":"file:///{path}"}')
})

it('expands strings', () => {
  const t = new UriTemplate('repo://{owner}/{repo}')
  assert.equal(t.expand({ owner: 'acme', repo: 'web app' }), 'repo://acme/web%20app')
  assert.equal(new UriTemplate('{last.name}').expand({ 'last.name': 'Doe' }), 'Doe')
})

it('expands numbers and bigints through String()', () => {
  const t = new UriTemplate('/page/{n}{?lat,big,tiny}')
  assert.equal(
    t.expand({ n: 5, lat: -122.427, big: 10n ** 30n, tiny: 1e21 }),
    `/page/5?lat=-122.427&big=${10n ** 30n}&tiny=1e%2B21`,
  )
})

it('expands arrays as lists and objects as associative arrays', () => {
  const t = new UriTemplate('/s{?tags,keys*}')
  assert.equal(t.expand({ tags: ['a', 'b c'], keys: { x: '1', y: 2 } }), '/s?tags=a,b%20c&x=1&y=2')
  assert.equal(t.expand({ keys: { b: '2', a: '1' } }), '/s?b=2&a=1') // property order
})

it('treats null, undefined, missing, [] and {} as undefined', () => {
  const t = new UriTemplate('x{?a,b,c,d}')
  assert.equal(t.expand(), 'x')
  assert.equal(t.expand(null), 'x')
  assert.equal(t.expand({ a: null, b: undefined, c: [], d: {} }), 'x')
  assert.equal(t.expand({ a: '' }), 'x?a=')
})

it('percent-encodes Unicode as UTF-8', () => {
  assert.equal(new UriTemplate('café/{v}').expand({ v: '日本😀' }), 'caf%C3%A9/%E6%97%A5%E6%9C%AC%F0%9F%98%80')
})

it('throws TypeError for values of other types', () => {
  const t = new UriTemplate('{v}')
  for (const bad of [true, () => 1, Symbol('s'), ['nested', ['list']], [{ a: 'b' }], { k: ['v'] }, { k: null }]) {
    assert.throws(() => t.expand({ v: bad }), (err) => {
      assert.ok(err instanceof TypeError)
      assert.equal(err.code, 'ERR_INVALID_ARG_TYPE')
      return true
    })
  }
  for (const bad of ['v=x', 42, ['v'], true]) {
    assert.throws(() => t.expand(bad), TypeError)
  }
  for (const bad of [42, undefined, null, {}, ['{v}']]) {
    assert.throws(() => new UriTemplate(bad), TypeError)
  }
})

it('throws TemplateError for a prefix on a list', () => {
  assert.throws(() => new UriTemplate('x{list:3}').expand({ list: ['a'] }), (err) => {
    assert.ok(err instanceof TemplateError)
    assert.equal(err.code, 'ERR_TEMPLATE_PREFIX_ON_COMPOSITE')
    assert.equal(err.position, 2)
    return true
  })
})

it('handles large templates and values', () => {
  const names = Array.from({ length: 500 }, (_, i) => `v${i}`)
  const t = new UriTemplate(names.map((n) => `{${n}}`).join(''))
  assert.deepEqual(t.variables, names)
  assert.equal(t.expand(Object.fromEntries(names.map((n) => [n, 'x']))), 'x'.repeat(500))
  assert.equal(new UriTemplate('{v}').expand({ v: 'a'.repeat(100_000) }), 'a'.repeat(100_000))
})
