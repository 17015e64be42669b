// What the Node tests of this directory share: the servers they start and the
// authorization server's counters.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/** Every process started, for the tests to kill at the end. */
export const children = []

/** Runs a command that prints `READY <url>` and resolves to the url. */
export function start(cmd, args) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', (line) => (line.startsWith('READY ') ? resolve(line.split(' ')[1]) : reject(new Error(line))))
    child.once('exit', (code) => reject(new Error(`${cmd} exited ${code}`)))
  })
}

/** server.py's `GET /_test/stats`. */
export const stats = async (issuer) => (await fetch(`${issuer}/_test/stats`)).json()
