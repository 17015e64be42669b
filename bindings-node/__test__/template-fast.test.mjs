// The fast paths of UriTemplate and Router (src/template.js over src/fast.rs; wasm/template.mjs
// over wasm/src/template.rs) give what the object paths give: the native methods they
// override (JSON text through `JSON.parse`) on the addon, and the same answers on the wasm
// build.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'

import { Router, UriTemplate } from '../index.js'
import { Router as WasmRouter, UriTemplate as WasmTemplate } from '../wasm/index.mjs'

const native = Object.getPrototypeOf(UriTemplate.prototype)
const nativeRouter = Object.getPrototypeOf(Router.prototype)

const CASES = [
  ['repo://{owner}/{repo}/issues/{number}', ['repo://acme/web%20app/issues/812', 'repo://a/b/pulls/1', 'repo://%C3%A9t%C3%A9/x/issues/1', 'repo://%ZZ/x/issues/%C3']],
  ['file:///{+path}', ['file:///docs/a%20b/c.md', 'file:///r%C3%A9sum%C3%A9.md', 'file:///', 'file:///été/ü']],
  ['search://notes{?query,limit}', ['search://notes?query=launch%20plan&limit=20', 'search://notes?limit=3', 'search://notes', 'search://notes?query=%E2%9C%93']],
  ['x://s{/segs*}', ['x://s/a/b%2Fc/d', 'x://s', 'x://s/é/%F0%9F%98%80']],
  ['x://k{?keys*}', ['x://k?a=1&b=2', 'x://k?a=%20']],
  ['kb://{__proto__}/{constructor}', ['kb://p/c']],
]

describe('the fast paths agree with the object paths', () => {
  for (const [template, uris] of CASES) {
    it(template, () => {
      const t = new UriTemplate(template)
      const w = new WasmTemplate(template)
      for (const uri of uris) {
        const want = native.match.call(t, uri)
        assert.deepEqual(t.match(uri), want, `napi ${uri}`)
        assert.deepEqual(w.match(uri), want, `wasm ${uri}`)
        if (want) {
          assert.deepEqual(Object.keys(t.match(uri)), Object.keys(want), `own keys ${uri}`)
          assert.equal(Object.getPrototypeOf(t.match(uri)), Object.prototype)
          assert.equal(Object.getPrototypeOf(w.match(uri)), Object.prototype)
        }
      }
    })
  }
  it('expands strings, numbers, bigints and undefined values positionally', () => {
    const cases = [
      ['repo://{owner}/{repo}/issues/{number}', { owner: 'acme', repo: 'web app', number: 812 }],
      ['file:///{+path}', { path: 'docs/été/a b.md' }],
      ['search://notes{?query,limit}', { query: 'x&y=z', limit: 10n ** 20n }],
      ['search://notes{?query,limit}', { limit: null }],
      ['{a}{b}{c}', { a: '\0', b: 'x'.repeat(70), c: '日本😀'.repeat(30) }],
      ['{x:3}{/y}', { x: 'abcdef', y: '\ud800' }],
    ]
    for (const [template, vars] of cases) {
      const t = new UriTemplate(template)
      const want = native.expand.call(t, vars)
      assert.equal(t.expand(vars), want, template)
      assert.equal(new WasmTemplate(template).expand(vars), want, `wasm ${template}`)
    }
  })
  it('reads each variable once and grows the shared buffer', () => {
    let reads = 0
    const vars = { get a() { reads++; return 'v'.repeat(100_000) } }
    assert.equal(new UriTemplate('{a}').expand(vars).length, 100_000)
    assert.equal(reads, 1)
    const long = 'p/'.repeat(50_000)
    assert.deepEqual(new UriTemplate('f://{+path}').match(`f://${long}`), { path: long })
    assert.deepEqual(new WasmTemplate('f://{+path}').match(`f://${long}`), { path: long })
  })
  it('routes like the native router, on both builds', () => {
    const r = new Router()
    const w = new WasmRouter()
    for (const t of ['repo://{owner}/{repo}', 'repo://{owner}/{repo}/issues/{n}', 'files://{/path*}', 'q://s{?a,b}']) {
      assert.equal(r.insert(t), w.insert(t))
    }
    for (const uri of ['repo://acme/web%20app', 'repo://a/b/issues/%C3%A9', 'files:///a/b/c', 'q://s?b=2', 'nope://x']) {
      const want = nativeRouter.route.call(r, uri)
      assert.deepEqual(r.route(uri), want, uri)
      assert.deepEqual(w.route(uri), want, `wasm ${uri}`)
    }
    assert.equal(r.length, 4)
    assert.equal(w.length, 4)
  })
  it('keeps the native classes and hides the handle method', () => {
    const t = new UriTemplate('{a}')
    assert.ok(t instanceof UriTemplate)
    assert.equal('__handle' in t, false)
    assert.equal('__handle' in new Router(), false)
  })
})

it('takes values whose getters expand other templates', () => {
  for (const [T, tag] of [[UriTemplate, 'napi'], [WasmTemplate, 'wasm']]) {
    const inner = new T('{x}/{y}')
    const outer = new T('o://{a}/{b}')
    const vars = { a: 'z', get b() { return inner.expand({ x: 'p q', y: 'r' }) } }
    assert.equal(outer.expand(vars), 'o://z/p%2520q%2Fr', tag)
    const same = { a: 'z', get b() { return outer.expand({ a: '1', b: '2' }) } }
    assert.equal(outer.expand(same), 'o://z/o%3A%2F%2F1%2F2', tag)
  }
})

it('takes matches and routes made by getters during an expansion', () => {
  const t = new UriTemplate('o://{a}/{b}')
  const r = new Router()
  r.insert('r://{x}')
  const vars = { a: 'z', get b() { return JSON.stringify([t.match('o://p/q'), r.route('r://y%20z').variables]) } }
  assert.equal(t.expand(vars), `o://z/${encodeURIComponent('[{"a":"p","b":"q"},{"x":"y z"}]')}`)
})
