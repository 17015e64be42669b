// What the Redis modules share (`redis.mjs`, `redis-sessions.mjs`): a pause, a deadline on a
// Redis call, and the native engine (the fleet calls have no WebAssembly export yet).

import { createRequire } from 'node:module'

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** `p`, or an error naming `what` when it has not settled within `ms`. */
export const within = (p, ms, what) => {
  let t
  return Promise.race([p, new Promise((_, reject) => { t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms) })])
    .finally(() => clearTimeout(t))
}

/** The native addon; `user` (e.g. `RedisBroker`) names who needs it in the error. */
export function nativeAddon(user) {
  try {
    return createRequire(import.meta.url)('../index.js')
  } catch {
    throw new Error(`${user} needs the native engine (the WebAssembly engine has no fleet support yet)`)
  }
}
