// A pipelined stdio load client for the benchmarks: a server process (`node script …`) gets
// `resources/read` lines with `window` requests in flight; its answer lines are counted, not
// parsed (the first is checked), so the client costs little next to the server. On Linux the
// server's CPU time per read is read from /proc (less sensitive to a shared machine's load
// than the rate).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

const PV = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientCapabilities': {} }

/** CPU µs the process `pid` has used, or null where /proc is not there. */
function cpuOf(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(f[11]) + Number(f[12])) * 1e6 / 100 // clock ticks (USER_HZ 100)
  } catch {
    return null
  }
}

/**
 * Starts `args` (a node script and its arguments) as a stdio server; `check(firstLine)`
 * throws on a wrong answer.
 */
export async function pipeServer(args, { uri, window = 32, check }) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  let id = 0
  const lines = (n) => {
    let s = ''
    for (let i = 0; i < n; i++) s += `${JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'resources/read', params: { uri, _meta: META } })}\n`
    return s
  }
  let answered = 0
  let sent = 0
  let refill = false
  let first = null
  let idle = null // resolves when every sent request is answered
  let failed = null
  child.on('exit', (code) => { failed ??= new Error(`${args.join(' ')} exited (${code})`); idle?.() })
  child.stdout.on('data', (chunk) => {
    let n = 0
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++
    if (first === null) {
      first = chunk.subarray(0, chunk.indexOf(10)).toString()
      try { check(first) } catch (err) { failed = err }
    }
    answered += n
    if (refill && n > 0) { child.stdin.write(lines(n)); sent += n }
    if (sent === answered) idle?.()
  })
  const drained = () => new Promise((resolve) => { idle = resolve; if (sent === answered || failed) resolve() })
  /** Reads answered per second in `ms` of load, and the server's CPU µs per read. */
  async function burst(ms) {
    const start = performance.now()
    const base = answered
    const cpu0 = cpuOf(child.pid)
    refill = true
    child.stdin.write(lines(window))
    sent += window
    await new Promise((resolve) => setTimeout(resolve, ms))
    refill = false
    await drained()
    if (failed) throw failed
    const done = answered - base
    const cpu1 = cpuOf(child.pid)
    return { rate: done / ((performance.now() - start) / 1000), cpu: cpu0 === null ? null : (cpu1 - cpu0) / done }
  }
  const close = () => new Promise((resolve) => { child.once('exit', resolve); child.stdin.end(); setTimeout(() => child.kill(), 2000).unref() })
  await burst(300) // starts the server, warms it up and checks an answer
  return { burst, close }
}
