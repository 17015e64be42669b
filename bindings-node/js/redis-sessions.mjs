// `mcp-context-primitives/redis-sessions`: 2025-11-25 sessions across the instances of a fleet,
// in Redis (docs/scale-out.md, "2025-11-25 sessions across instances"), with the `redis`
// package (node-redis; the application installs it, or passes its own `createClient`). The
// same keys, channel and message format as the Python store (`mcp_context._session_store`) and
// the Rust host's (`mcp_context_host::sessions_redis`): instances of the three share sessions.
//
//   import { RedisSessionStore } from 'mcp-context-primitives/redis-sessions'
//   await serveHttp(server, { port: 3000, sessions: new RedisSessionStore(url, { fleet: 'notes' }) })
//
// The core decides what a session is and encodes it (`takeSessionChanges`, `importSession`,
// `forgetSession`, the GET stream's event ids and replay rule); this module moves the bytes:
//
// * `mcp-context:<fleet>:sessions` (hash): session id -> state. Written, and published on the
//   channel of the same name (the core's message: the instance's 16 bytes, the id, the state),
//   in one MULTI before the answer of the request that changed it is sent.
// * Each request naming a session reads it first (HGET): any instance serves any session, and
//   a session ended anywhere is 404 everywhere at once.
// * Every instance holds the fleet's table (HGETALL at start, then the channel): the instance
//   holding a session's GET stream sees subscriptions made elsewhere, a session ended elsewhere
//   ends that stream here, and the session bounds count the fleet's sessions.
// * `mcp-context:<fleet>:events:<id>` (sorted set, score = event number): the events of the
//   session's GET stream as sent, at most `eventsMax`, kept `eventsTtlMs` after the last one;
//   a GET with `Last-Event-ID` on any instance replays the stored events after it.
//
// Redis down: the sessions this instance holds are served from its copy; changes and events
// are not stored (counted in `dropped`); nothing is replayed.
import { randomBytes } from 'node:crypto'
import { nativeAddon, sleep, within } from './redis-kit.mjs'

/** Redis operations' deadline: an unreachable Redis costs a request at most this. */
const DEADLINE_MS = 2000

/** The score of `ZRANGE key -1 -1 WITHSCORES`, whichever reply shape the client gives
 * (`[member, score]`, or `[[member, score]]`); 0 for an empty set. */
function topScore(reply) {
  if (!Array.isArray(reply) || reply.length === 0) return 0
  const score = Array.isArray(reply[0]) ? reply[0][1] : reply[1]
  const n = Number(score)
  return Number.isFinite(n) ? n : 0
}

/** The `[field, value]` pairs of an `HGETALL` reply (a flat array, a `Map` or an object). */
function entries(reply) {
  if (reply == null) return []
  if (Array.isArray(reply)) {
    const out = []
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([reply[i], reply[i + 1]])
    return out
  }
  if (reply instanceof Map) return [...reply.entries()]
  return Object.entries(reply)
}

/** The native addon: the core's session calls and channel format (`encodeSessionMessage`, …). */
const addon = () => nativeAddon('RedisSessionStore')

export class RedisSessionStore {
  /**
   * `url`: the Redis server; `fleet`: the keys' name part (the instances of one fleet share
   * it); `eventsMax` (1 000) events kept per session for resumption, `eventsTtlMs` (30 min)
   * after the last one; `retryMs` (500) between attempts to resubscribe; `healthMs` (5 000):
   * a PING after that much silence on the channel must be answered within as much again;
   * `createClient` (default: the `redis` package's).
   */
  constructor(url = 'redis://127.0.0.1:6379/0', options = {}) {
    const fleet = options.fleet ?? 'default'
    if (!fleet || /[:*?[\] ]/.test(fleet)) throw new TypeError("fleet: a non-empty name without ':', spaces or glob characters")
    this.url = url
    this.fleet = fleet
    this.key = `mcp-context:${fleet}:sessions`
    this.eventsPrefix = `mcp-context:${fleet}:events:`
    const { encodeSessionMessage, decodeSessionMessage } = addon()
    this._encode = encodeSessionMessage
    this._decode = decodeSessionMessage
    /** 16 random bytes: mixed into the ids this instance mints, and its messages' origin. */
    this.instance = randomBytes(16)
    this.eventsMax = options.eventsMax ?? 1000
    this.eventsTtlMs = options.eventsTtlMs ?? 30 * 60 * 1000
    this.retryMs = options.retryMs ?? 500
    this.healthMs = options.healthMs ?? 5000
    this._createClient = options.createClient
    this._server = null
    this._cmd = null
    this._closed = false
    /** The GET streams open here: stream id -> ends the response. */
    this._streams = new Map()
    this.connected = false
    this.counters = { stored: 0, ended: 0, imported: 0, forgotten: 0, events: 0, replayed: 0, dropped: 0 }
  }

  /** `{connected, stored, ended, imported, forgotten, events, replayed, dropped}`. */
  stats() { return { connected: this.connected, ...this.counters } }

  /**
   * Shares `server`'s sessions (an `McpServer` on the native engine) through this store; the
   * HTTP runners (`serveHttp`, `toNodeHandler`, `server.fetch`) call the hooks from now on.
   * Returns `this`. Done by the runners' `sessions` option.
   */
  attach(server) {
    if (this._server === server) return this
    if (!server?.machine || typeof server._pump !== 'function') throw new TypeError('RedisSessionStore.attach(server): an McpServer')
    if (typeof server.machine.shareSessions !== 'function') {
      throw new Error('RedisSessionStore needs the native engine (the WebAssembly engine has no session export yet)')
    }
    if (this._server) throw new Error('RedisSessionStore: already attached to another server')
    this._server = server
    server.machine.shareSessions(this.instance)
    server._sessions = this
    this._done = this._run()
    return this
  }

  /** Stops resubscribing and closes the connections. */
  async close() {
    this._closed = true
    this._fail?.(new Error('closed'))
    await this._done
    try { this._cmd?.destroy() } catch { /* gone anyway */ }
    this._cmd = null
  }

  // --- the hooks the HTTP runners call ------------------------------------------------------

  /** The session `head` names and the replay point of a resumed GET (the core's reading). */
  head(head) {
    return this._server.machine.sessionHead(head)
  }

  /** Before a request naming `session`: takes the store's state, or forgets the session
   * (ended elsewhere). Redis unreachable: the local copy serves. */
  async refresh(session) {
    let state
    try {
      state = await this._command(['HGET', this.key, session])
    } catch {
      return
    }
    this._apply(session, state == null ? null : Buffer.from(state))
    this._server._pump()
  }

  /** After a request: stores what the core reports changed (before the answer goes). */
  async flush() {
    const changes = this._server.machine.takeSessionChanges()
    if (changes.length === 0) return
    try {
      const c = await this._client()
      const multi = c.multi()
      for (const { id, state } of changes) {
        if (state == null) {
          multi.addCommand(['HDEL', this.key, id])
          multi.addCommand(['DEL', this.eventsPrefix + id])
        } else {
          multi.addCommand(['HSET', this.key, id, state])
        }
        multi.addCommand(['PUBLISH', this.key, this._encode(this.instance, id, state ?? null)])
      }
      await within(multi.exec(), DEADLINE_MS, 'MULTI')
      for (const { state } of changes) this.counters[state == null ? 'ended' : 'stored']++
    } catch (e) {
      this._lost(e)
      this.counters.dropped += changes.length
    } finally {
      // in flight until now: a table load kept their state
      for (const { id } of changes) this._server.machine.sessionChangeSettled(id)
    }
  }

  /**
   * A GET stream of `session` opened here as machine stream `stream`: the stored events after
   * `after` (the core's reading of `Last-Event-ID`; `undefined`: none) to send first, as
   * Buffers; its next events are numbered after every stored one.
   */
  async opened(session, after, stream) {
    const key = this.eventsPrefix + session
    let top
    let replay = []
    try {
      top = await this._command(['ZRANGE', key, '-1', '-1', 'WITHSCORES'])
      if (after != null) replay = await this._command(['ZRANGEBYSCORE', key, `(${after}`, '+inf'])
    } catch {
      return []
    }
    const max = topScore(top)
    this._server.machine.sessionStreamFloor(stream, max)
    this.counters.replayed += replay.length
    return replay.map((e) => Buffer.from(e))
  }

  /** Stores one framed event of a session's GET stream, before it is written. */
  async record(session, seq, bytes) {
    const key = this.eventsPrefix + session
    try {
      const c = await this._client()
      const multi = c.multi()
      multi.addCommand(['ZADD', key, String(seq), bytes])
      multi.addCommand(['ZREMRANGEBYRANK', key, '0', String(-(this.eventsMax + 1))])
      multi.addCommand(['PEXPIRE', key, String(this.eventsTtlMs)])
      await within(multi.exec(), DEADLINE_MS, 'MULTI')
      this.counters.events++
    } catch (e) {
      this._lost(e)
      this.counters.dropped++
    }
  }

  /** The runner holds `stream`, a session's GET stream: `end()` closes its response. */
  holds(stream, end) { this._streams.set(stream, end) }
  /** The GET stream `stream` is closed. */
  released(stream) { this._streams.delete(stream) }

  // --- Redis --------------------------------------------------------------------------------

  async _factory() {
    this._createClientFn ??= this._createClient ?? (await import('redis')).createClient
    return this._createClientFn
  }

  /** The command connection (made on first use, again after a loss). */
  async _client() {
    if (this._cmd) return this._cmd
    this._connecting ??= (async () => {
      const c = (await this._factory())({ url: this.url, disableOfflineQueue: true, socket: { reconnectStrategy: false, connectTimeout: DEADLINE_MS } })
      c.on('error', () => { if (this._cmd === c) this._cmd = null })
      c.on('end', () => { if (this._cmd === c) this._cmd = null })
      try {
        await within(c.connect(), DEADLINE_MS, 'connect')
      } catch (e) {
        try { c.destroy() } catch { /* never connected */ }
        throw e
      }
      this._cmd = c
      return c
    })().finally(() => { this._connecting = null })
    return this._connecting
  }

  async _command(args) {
    const c = await this._client()
    try {
      return await within(c.sendCommand(args), DEADLINE_MS, args[0])
    } catch (e) {
      this._lost(e)
      throw e
    }
  }

  /** A command failed or timed out: the next one connects again. */
  _lost() {
    const c = this._cmd
    this._cmd = null
    try { c?.destroy() } catch { /* gone anyway */ }
  }

  // --- the fleet's table --------------------------------------------------------------------

  _apply(session, state) {
    const m = this._server.machine
    if (state === null) {
      if (!m.hasSession(session)) return
      const stream = m.forgetSession(session)
      this.counters.forgotten++
      if (stream != null) this._streams.get(stream)?.() // the runner ends that GET stream
      return
    }
    try {
      m.importSession(session, state, Date.now())
      this.counters.imported++
    } catch (e) {
      process.emitWarning(`mcp-context sessions: session ${session}: a state this core does not read (${e?.message ?? e})`)
    }
  }

  /** One channel message (the core's format); own messages skipped. */
  _receive(data) {
    this._heard = Date.now()
    const got = this._decode(data)
    if (got === null || got.origin.equals(this.instance)) return
    this._apply(got.id, got.state ?? null)
    this._server._pump()
  }

  /**
   * Loads the fleet's table: takes every state in it, and forgets the sessions held here that
   * it lacks (ended elsewhere while the channel was down), except those whose change is newer
   * here (the core's `sessionLoadBegin`/`sessionLoadEnd`).
   */
  async _load(lost) {
    const m = this._server.machine
    m.sessionLoadBegin()
    let table
    try {
      table = entries(await Promise.race([this._command(['HGETALL', this.key]), lost]))
    } catch (e) {
      m.sessionLoadAbort()
      throw e
    }
    const rows = table.map(([id, state]) => ({ id: String(id), state: Buffer.from(state) }))
    const { imported, malformed, forgotten, streams } = m.sessionLoadEnd(rows, Date.now())
    this.counters.imported += imported
    this.counters.forgotten += forgotten
    for (const id of malformed) process.emitWarning(`mcp-context sessions: session ${id}: a state this core does not read`)
    for (const stream of streams) this._streams.get(stream)?.()
    this._server._pump()
  }

  /** For the server's lifetime: loads the fleet's table, then keeps it from the channel;
   * resubscribes every `retryMs` after a loss (and loads the table again). */
  async _run() {
    const createClient = await this._factory()
    while (!this._closed) {
      let sub = null
      let timer = null
      let stopped = false
      try {
        const lost = new Promise((_, reject) => { this._fail = reject })
        lost.catch(() => {})
        sub = createClient({ url: this.url, socket: { reconnectStrategy: false, connectTimeout: DEADLINE_MS } })
        sub.on('error', (e) => this._fail?.(e))
        sub.on('end', () => this._fail?.(new Error('Redis closed the connection')))
        await within(Promise.race([sub.connect(), lost]), 2 * DEADLINE_MS, 'connect')
        await within(Promise.race([sub.subscribe(this.key, (data) => this._receive(data), true), lost]), 2 * DEADLINE_MS, 'subscribe')
        await this._load(lost)
        this.connected = true
        this._heard = Date.now()
        // A silent Redis (a partition): after `healthMs` of silence a PING must come back.
        await Promise.race([lost, new Promise((_, reject) => {
          const tick = async () => {
            if (stopped) return
            if (Date.now() - this._heard >= this.healthMs) {
              try {
                await within(sub.ping(), this.healthMs, 'PING')
                this._heard = Date.now()
              } catch (e) { reject(e); return }
            }
            timer = setTimeout(tick, Math.min(1000, this.healthMs))
          }
          timer = setTimeout(tick, Math.min(1000, this.healthMs))
        })])
      } catch {
        // lost, or the attempt failed: retried below
      } finally {
        stopped = true
        clearTimeout(timer)
        this.connected = false
        try { sub?.destroy() } catch { /* gone anyway */ }
      }
      if (!this._closed) await sleep(this.retryMs)
    }
  }
}
