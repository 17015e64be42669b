// Serving a Worker with workerd (Cloudflare's runtime, npm package `workerd`) on 127.0.0.1, and
// the process helpers the edge tests share (examples/node/test/edge.test.mjs,
// tests/auth-server/node-server.test.mjs).
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const examples = join(dirname(fileURLToPath(import.meta.url)), '..')
export const require = createRequire(join(examples, 'package.json'))
export const pkgRoot = join(examples, '..', '..', 'bindings-node')

/** A free TCP port on 127.0.0.1 (workerd takes a fixed address in its config). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
  })
}

/** Starts `cmd`; resolves once `ready(output)` gives a value; rejects if it exits first. */
export function start(cmd, args, ready, options = {}) {
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
export function listening(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.on('connect', () => { s.destroy(); resolve(true) })
    s.on('error', () => resolve(false))
  })
}

export const stop = (child) => new Promise((resolve) => {
  child.removeAllListeners('exit')
  child.on('exit', resolve)
  child.kill()
})

// workerd takes every module by name: walk the import graph from the worker, naming each
// module as workerd resolves it (URL-relative to its importer) and embedding its file.
function workerModules(name, file, bare) {
  const modules = new Map() // name -> { file, kind }
  const visit = (name, file) => {
    if (modules.has(name)) {
      if (modules.get(name).file !== file) throw new Error(`${name} names both ${modules.get(name).file} and ${file}`)
      return
    }
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
  visit(name, file)
  return modules
}

/**
 * Serves the worker module `file` (named `name`; bare imports mapped to files by `bare`) with
 * workerd, once per entry of `instances` (`{port, bindings}`: text bindings the worker reads
 * from `env`); `network` lets its `fetch` reach loopback. Resolves to `{stop, output}` once
 * every port listens.
 */
export async function serveWorker({ name, file, bare, instances, network = false }) {
  const dir = mkdtempSync(join(tmpdir(), 'workerd-'))
  // Each module's file is copied beside the config (capnp embeds relative paths).
  const modules = [...workerModules(name, file, bare)].map(([name, { file, kind }], i) => {
    copyFileSync(file, join(dir, `m${i}`))
    return `(name = ${JSON.stringify(name)}, ${kind} = embed "m${i}")`
  })
  const worker = (bindings) => `(
    modules = [
      ${modules.join(',\n      ')}
    ],
    bindings = [${Object.entries(bindings ?? {}).map(([k, v]) => `(name = ${JSON.stringify(k)}, text = ${JSON.stringify(v)})`).join(', ')}],
    compatibilityDate = "2026-01-01",${network ? '\n    globalOutbound = "loopback",' : ''}
  )`
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    ${instances.map((inst, i) => `(name = "w${i}", worker = ${worker(inst.bindings)})`).join(',\n    ')},
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [${instances.map(({ port }, i) => `(name = "s${i}", address = "127.0.0.1:${port}", http = (), service = "w${i}")`).join(', ')}],
);
`)
  // The binary itself (the `workerd` package's launcher is a Node script that would outlive a kill).
  const workerd = join(dirname(require.resolve('@cloudflare/workerd-linux-64/package.json')), 'bin', 'workerd')
  const all = async () => (await Promise.all(instances.map(({ port }) => listening(port)))).every(Boolean)
  const { child, output } = await start(workerd, ['serve', join(dir, 'config.capnp'), '--verbose'], all)
  return { output, stop: async () => { await stop(child); rmSync(dir, { recursive: true, force: true }) } }
}
