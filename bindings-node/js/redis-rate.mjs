// `redisRateLimit`: the per-caller token bucket kept in Redis, the core's (`fleet::rate`,
// docs/rules.md §23.5: one Lua script on Redis's clock, one key form, one refusal), so a fleet
// of Node, Python and Rust instances on one Redis enforces one rate per caller. Exported by
// `mcp-context-primitives/redis`.
//
//   import { createClient } from 'redis'
//   import { redisRateLimit } from 'mcp-context-primitives/redis'
//   const client = await createClient({ url }).connect()
//   server.use(redisRateLimit({ client, rate: 10, burst: 20 }))
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'

function bucket() {
  try {
    return createRequire(import.meta.url)('../index.js').redisRateBucket()
  } catch {
    throw new Error('redisRateLimit needs the native engine (the WebAssembly engine has no Redis support)')
  }
}

/**
 * A middleware (`server.use`) that takes one token of the caller's bucket in Redis per
 * request: `burst` tokens (default `rate`) refilled at `rate` per second on Redis's clock,
 * shared by every instance on the same Redis and `prefix` (default `mcp:rate:`). An empty
 * bucket refuses with the core's `RATE_LIMITED` (-31429) and `Rate limit exceeded: retry
 * after N ms`, counted as a `rate` refusal. `client`: a connected node-redis client (>= 4);
 * `key(req)`: the bucket's name after the prefix (default the caller). One `EVALSHA` per
 * request, awaited (the event loop is never blocked).
 *
 * When Redis cannot answer within `timeout` ms (default 1000: unreachable, an error, no
 * answer) the core's one policy applies (docs/rules.md §23.6): the request is admitted
 * (fails open) unless `failClosed: true`, which refuses it with `RATE_LIMITED` and `Rate
 * limit unavailable: request refused`. Either way `onError(err, policy)` is told (default: a
 * process warning) and the request is annotated `mcp_context.rate_limit.failure` = `open` or
 * `closed`.
 */
export function redisRateLimit({ client, rate, burst = rate, prefix, key = (req) => req.caller, onError, failClosed, timeout = 1000 } = {}) {
  if (!client || typeof client.evalSha !== 'function') throw new TypeError('redisRateLimit: client must be a node-redis client')
  if (!(rate > 0)) throw new TypeError('redisRateLimit: rate must be > 0 (requests per second)')
  const core = bucket()
  const { script, keyPrefix } = core
  const closed = failClosed ?? core.failClosed
  const policy = closed ? 'closed' : 'open'
  const sha = createHash('sha1').update(script).digest('hex')
  const pre = prefix ?? keyPrefix
  const args = [String(rate), String(Math.max(1, burst))]
  const warn = onError ?? ((e) => globalThis.process?.emitWarning?.(`mcp-context rate limit: Redis did not answer (${e?.message ?? e}), request ${closed ? 'refused' : 'admitted'} (fail ${policy})`))
  const take = async (k) => {
    const options = { keys: [`${pre}${k}`], arguments: args }
    try {
      return Number(await client.evalSha(sha, options))
    } catch (e) {
      if (!String(e?.message ?? e).includes('NOSCRIPT')) throw e
      return Number(await client.eval(script, options))
    }
  }
  const inTime = (p) => {
    let timer
    const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in ${timeout} ms`)), timeout) })
    return Promise.race([p, late]).finally(() => clearTimeout(timer))
  }
  return async function redisRateLimited(req, next) {
    let wait = 0
    try {
      wait = await inTime(take(key(req)))
    } catch (e) {
      req.annotate?.(core.failureAnnotation, policy)
      warn(e, policy)
      if (closed) {
        throw Object.assign(new Error(core.unavailableMessage), { name: 'McpError', code: req.rateLimited })
      }
    }
    if (wait > 0) {
      throw Object.assign(new Error(`Rate limit exceeded: retry after ${wait} ms`), { name: 'McpError', code: req.rateLimited })
    }
    return next()
  }
}
