// The knowledge base on the edge, for real: as a Worker served by workerd (Cloudflare's
// runtime, npm package `workerd`) and as a Deno program (npm package `@deno/linux-x64-glibc`),
// both on the WebAssembly engine (mcp-context-primitives/wasm), on 127.0.0.1, driven over Streamable
// HTTP by @modelcontextprotocol/client 2.4.0 (the checks of kb-suite.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { httpClient, kbSuite } from './kb-suite.mjs'
import { freePort, pkgRoot, require, serveWorker, start, stop } from './workerd.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const examples = join(here, '..')
const zodEntry = join(dirname(require.resolve('zod/package.json')), 'index.js')

kbSuite('as a Cloudflare Worker (workerd, mcp-context-primitives/wasm)', async () => {
  const port = await freePort()
  const worker = await serveWorker({
    name: 'edge/worker.mjs',
    file: join(examples, 'edge', 'worker.mjs'),
    bare: { 'mcp-context-primitives/wasm': join(pkgRoot, 'wasm', 'workerd.mjs'), zod: zodEntry },
    instances: [{ port }],
  })
  try {
    return await httpClient(`http://127.0.0.1:${port}/mcp`, worker.stop)
  } catch (err) {
    await worker.stop()
    throw new Error(`${err.message}\nworkerd said:\n${worker.output()}`)
  }
})

kbSuite('as a Deno program (mcp-context-primitives/wasm)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-deno-'))
  const map = join(dir, 'import-map.json')
  writeFileSync(map, JSON.stringify({
    imports: {
      'mcp-context-primitives/wasm': pathToFileURL(join(pkgRoot, 'wasm', 'index.mjs')).href,
      zod: pathToFileURL(zodEntry).href,
    },
  }))
  const deno = join(dirname(require.resolve('@deno/linux-x64-glibc/package.json')), 'deno')
  const { child, hit } = await start(deno, [
    'run', '--quiet', '--no-config', '--no-lock', `--import-map=${map}`, `--allow-read=${join(examples, '..', '..')}`,
    '--allow-net=127.0.0.1', join(examples, 'edge', 'deno.mjs'),
  ], (out) => /listening (\S+)/.exec(out)?.[1], { env: { ...process.env, DENO_DIR: join(dir, 'cache'), NO_COLOR: '1' } })
  return httpClient(hit, async () => { await stop(child); rmSync(dir, { recursive: true, force: true }) })
})
