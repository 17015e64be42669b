#!/usr/bin/env node
// Benchmark (a script, not a timed test): mcp-context's UriTemplate and Router, through the
// napi addon and through the WebAssembly build (mcp-context-primitives/wasm), against
// @modelcontextprotocol/server 2.4.0's UriTemplate, url-template 3.1.1 and uri-templates
// 0.2.0: expand, match, and routing a URI among 1,000 templates. FFI included: every call
// crosses from JS into the engine and back with JS values. Also prints the WebAssembly
// module's size, raw and gzipped.
//
//   node bindings-node/bench/bench.mjs [--seconds 1]
//
// The peers are the pinned tools of examples/node (test.sh links examples/node/node_modules;
// or run `npm ci` there). Build the addon in release mode first for representative numbers:
// `cd bindings-node && npm run build`.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

import { Router, UriTemplate } from '../index.js'
import { Router as WasmRouter, UriTemplate as WasmTemplate } from '../wasm/index.mjs'

const peers = createRequire(new URL('../../examples/node/package.json', import.meta.url))
const load = async (name) => import(pathToFileURL(peers.resolve(name)).href)
const { UriTemplate: SdkTemplate } = await load('@modelcontextprotocol/server')
const urlTemplate = (await load('url-template')).parseTemplate
const uriTemplates = (await load('uri-templates')).default

const flag = process.argv.indexOf('--seconds')
const seconds = flag === -1 ? 1 : Number(process.argv[flag + 1])
if (!(seconds > 0)) throw new Error('--seconds needs a positive number')

/** Operations per second of one burst of `fn` (called with an iteration index). */
function burst(fn, budgetSeconds) {
  let ops = 0
  let batch = 64
  const start = process.hrtime.bigint()
  const budget = BigInt(Math.round(budgetSeconds * 1e9))
  let elapsed = 0n
  while (elapsed < budget) {
    for (let i = 0; i < batch; i++) fn(ops + i)
    ops += batch
    elapsed = process.hrtime.bigint() - start
    if (elapsed < budget / 20n) batch *= 2
  }
  return ops / (Number(elapsed) / 1e9)
}

// The machine is shared and its load changes: the implementations of one operation run in
// interleaved bursts, and each keeps its best, so the ratios compare like with like.
const ROUNDS = 5

/** Operations per second of each of `fns` (`null`: not supported), after a warm-up. */
function measure(fns) {
  for (const fn of fns) if (fn) for (let i = 0; i < 2000; i++) fn(i)
  const best = fns.map((fn) => (fn ? 0 : NaN))
  for (let r = 0; r < ROUNDS; r++) {
    fns.forEach((fn, k) => { if (fn) best[k] = Math.max(best[k], burst(fn, seconds / ROUNDS)) })
  }
  return best
}

// Templates every library supports (levels 1–3): the shapes MCP servers use.
const CASES = [
  { template: 'repo://{owner}/{repo}/issues/{number}', vars: { owner: 'acme', repo: 'web app', number: '812' } },
  { template: 'file:///{+path}', vars: { path: 'docs/guide/intro.md' } },
  { template: 'search://notes{?query,limit}', vars: { query: 'launch plan', limit: '20' } },
]

const results = []
const row = (what, [ours, wasm, sdk, urlTemplate, uriTemplates]) => {
  results.push({ what, ours, wasm, sdk, urlTemplate, uriTemplates })
}

for (const { template, vars } of CASES) {
  const ours = new UriTemplate(template)
  const w = new WasmTemplate(template)
  const sdk = new SdkTemplate(template)
  const ut = urlTemplate(template)
  const uts = uriTemplates(template)
  const uri = ours.expand(vars)
  for (const [name, got] of [['wasm', w.expand(vars)], ['sdk', sdk.expand(vars)], ['url-template', ut.expand(vars)], ['uri-templates', uts.fill(vars)]]) {
    if (got !== uri) console.warn(`note: ${name} expands ${template} to ${got}, ours to ${uri}`)
  }
  row(`expand ${template}`, measure([() => ours.expand(vars), () => w.expand(vars), () => sdk.expand(vars), () => ut.expand(vars), () => uts.fill(vars)]))
  if (JSON.stringify(ours.match(uri)) !== JSON.stringify(vars)) throw new Error(`our match of ${uri} is wrong`)
  if (JSON.stringify(w.match(uri)) !== JSON.stringify(vars)) throw new Error(`the wasm match of ${uri} is wrong`)
  // url-template: expansion only.
  row(`match ${template}`, measure([() => ours.match(uri), () => w.match(uri), () => sdk.match(uri), null, () => uts.fromUri(uri)]))
}

// Routing among 1,000 templates: ours is one Router; the peers have no router, so a server
// built on them tries each template in turn (what the SDK's McpServer does for resources).
const N = 1000
const templates = Array.from({ length: N }, (_, i) => `svc${i}://{tenant}/items/{id}`)
const uris = Array.from({ length: 256 }, (_, k) => `svc${(k * 7919) % N}://acme/items/${k}`)
const router = new Router()
for (const t of templates) router.insert(t)
const wasmRouter = new WasmRouter()
for (const t of templates) wasmRouter.insert(t)
const sdkAll = templates.map((t) => new SdkTemplate(t))
const utsAll = templates.map((t) => uriTemplates(t))
const linear = (all, matchOne) => (uri) => {
  for (let i = 0; i < all.length; i++) {
    const m = matchOne(all[i], uri)
    if (m) return [i, m]
  }
  return null
}
const sdkRoute = linear(sdkAll, (t, u) => t.match(u))
const utsRoute = linear(utsAll, (t, u) => t.fromUri(u))
for (const uri of uris.slice(0, 8)) {
  const want = router.route(uri).id
  if (wasmRouter.route(uri).id !== want) throw new Error(`wasm routing disagrees on ${uri}`)
  if (sdkRoute(uri)[0] !== want || utsRoute(uri)[0] !== want) throw new Error(`routing disagrees on ${uri}`)
}
row(`route among ${N} templates`, measure([
  (i) => router.route(uris[i & 255]), (i) => wasmRouter.route(uris[i & 255]), (i) => sdkRoute(uris[i & 255]), null,
  (i) => utsRoute(uris[i & 255]),
]))

const fmt = (n) => (Number.isNaN(n) ? 'n/a' : n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k/s` : `${n.toFixed(0)} /s`)
const ratio = (a, b) => (Number.isNaN(b) ? 'n/a' : `${(a / b).toFixed(a / b >= 100 ? 0 : 1)}×`)
console.log(`node ${process.version}, ${seconds}s per measurement in ${ROUNDS} interleaved bursts (best kept)\n`)
console.log('| operation | napi | wasm | SDK 2.4.0 | url-template | uri-templates | napi vs SDK | wasm vs SDK |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const r of results) {
  console.log(`| ${r.what} | ${fmt(r.ours)} | ${fmt(r.wasm)} | ${fmt(r.sdk)} | ${fmt(r.urlTemplate)} | ${fmt(r.uriTemplates)} | ${ratio(r.ours, r.sdk)} | ${ratio(r.wasm, r.sdk)} |`)
}
const wasm = readFileSync(new URL('../wasm/pkg/mcp_context_wasm_bg.wasm', import.meta.url))
const gz = gzipSync(wasm, { level: 9 }).length
console.log(`\nWebAssembly module: ${wasm.length} B (${(wasm.length / 1024).toFixed(0)} KiB) raw, ${gz} B (${(gz / 1024).toFixed(0)} KiB) gzipped`)
