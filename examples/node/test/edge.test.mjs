// The knowledge base on the edge, for real: as a Worker served by workerd (Cloudflare's
// runtime, npm package `workerd`) and as a Deno program (npm package `@deno/linux-x64-glibc`),
// both on the WebAssembly engine (mcp-context-primitives/wasm), on 127.0.0.1, driven over Streamable
// HTTP by @modelcontextprotocol/client 2.4.0 (the checks of kb-suite.mjs).
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { httpClient, kbSuite } from './kb-suite.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const examples = join(here, '..')
const require = createRequire(join(examples, 'package.json'))
const zodEntry = join(dirname(require.resolve('zod/package.json')), 'index.js')
const pkgRoot = join(examples, '..', '..', 'bindings-node')

/** A free TCP port on 127.0.0.1 (workerd takes a fixed address in its config). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
  })
}

/** Starts `cmd`; resolves once `ready(output)` gives a value; rejects if it exits first. */
function start(cmd, args, ready, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
    let out = ''
    let done = false
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${cmd} did not start:\n${out}`)) }, 30_000)
    const check = async () => {
      const hit = await ready(out)
      if (hit && !done) { done = true; clearTimeout(timer); resolve({ child, hit, output: () => out }) }
    }
    child.stdout.on('data', (c) => { out += c; check() })
    child.stderr.on('data', (c) => { out += c; check() })
    child.on('exit', (code) => { clearTimeout(timer); if (!done) reject(new Error(`${cmd} exited ${code}:\n${out}`)) })
    const poll = setInterval(() => { if (done) clearInterval(poll); else check() }, 100)
    child.on('exit', () => clearInterval(poll))
  })
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.on('connect', () => { s.destroy(); resolve(true) })
    s.on('error', () => resolve(false))
  })
}

const stop = (child) => new Promise((resolve) => {
  child.removeAllListeners('exit')
  child.on('exit', resolve)
  child.kill()
})

// workerd takes every module by name: walk the import graph from the worker, naming each
// module as workerd resolves it (URL-relative to its importer) and embedding its file.
function workerModules() {
  const modules = new Map() // name -> { file, kind }
  const bare = {
    'mcp-context-primitives/wasm': join(pkgRoot, 'wasm', 'workerd.mjs'),
    zod: zodEntry,
  }
  const visit = (name, file) => {
    if (modules.has(name)) return
    const kind = file.endsWith('.wasm') ? 'wasm' : 'esModule'
    modules.set(name, { file, kind })
    if (kind === 'wasm') return
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:^|[\s;}])(?:import|export)\s*(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]/g)) {
      // workerd resolves every specifier, bare ones included, against its importer's name.
      const spec = m[1]
      const resolved = new URL(spec, `file:///${name}`).pathname.slice(1)
      if (spec.startsWith('.')) visit(resolved, join(dirname(file), spec))
      else if (Object.hasOwn(bare, spec)) visit(resolved, bare[spec])
      else throw new Error(`${file}: unresolved import ${spec}`)
    }
  }
  visit('edge/worker.mjs', join(examples, 'edge', 'worker.mjs'))
  return modules
}

kbSuite('as a Cloudflare Worker (workerd, mcp-context-primitives/wasm)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-workerd-'))
  const port = await freePort()
  // Each module's file is copied beside the config (capnp embeds relative paths).
  const modules = [...workerModules()].map(([name, { file, kind }], i) => {
    copyFileSync(file, join(dir, `m${i}`))
    return `(name = ${JSON.stringify(name)}, ${kind} = embed "m${i}")`
  })
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "kb", worker = .kb)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "kb")],
);
const kb :Workerd.Worker = (
  modules = [
    ${modules.join(',\n    ')}
  ],
  compatibilityDate = "2026-01-01",
);
`)
  // The binary itself (the `workerd` package's launcher is a Node script that would outlive a kill).
  const workerd = join(dirname(require.resolve('@cloudflare/workerd-linux-64/package.json')), 'bin', 'workerd')
  const { child, output } = await start(workerd, ['serve', join(dir, 'config.capnp'), '--verbose'], () => listening(port))
  try {
    return await httpClient(`http://127.0.0.1:${port}/mcp`, async () => { await stop(child); rmSync(dir, { recursive: true, force: true }) })
  } catch (err) {
    await stop(child)
    throw new Error(`${err.message}\nworkerd said:\n${output()}`)
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
