// `mcp-context-primitives/redis`: scale-out on Redis (docs/scale-out.md). The fleet's change
// events through Redis pub/sub with the `redis` package (node-redis, >= 4; the application
// installs it, or passes its own `createClient`), so a Node instance joins a fleet of Python,
// Node and Rust instances of the same server.
//
//   import { RedisBroker } from 'mcp-context-primitives/redis'
//   const broker = new RedisBroker('redis://10.0.0.5:6379/0', { fleet: 'notes' })
//   broker.start(server)           // server: an McpServer (native engine)
//   server.sink(await otel())        // + mcp_context.broker.* on @opentelemetry/api (optional)
//   server.sendResourceUpdated({ uri })   // now also every other instance's listens
//
// Every rule (wire format, own echoes skipped, what a remote event does to the machine, the
// listens ended at the broker's edges) is the core's (`Fleet`, docs/rules.md §23); this module
// moves its bytes: one subscriber connection, one publisher connection fed by a bounded queue
// (pipelined, in order), a PING after `healthMs` of silence that must be answered within
// `healthMs` more, a retry every `retryMs`.
import { randomBytes } from 'node:crypto'
import { nativeAddon, sleep, within } from './redis-kit.mjs'

export { redisRateLimit } from './redis-rate.mjs'

const addon = () => nativeAddon('RedisBroker')

export class RedisBroker {
  /**
   * `url`: the Redis server (`redis://`, `rediss://user:password@host` for ACLs/TLS);
   * `fleet`: the channel's name part, shared by the instances of one fleet; `instanceId`
   * (default random); `retryMs` (500), `healthMs` (5000), `queueMax` (10 000);
   * `createClient` (default: the `redis` package's); `onState(connected)`: called at each
   * edge, after the listens were ended.
   */
  constructor(url = 'redis://127.0.0.1:6379/0', options = {}) {
    const { Fleet } = addon()
    this.url = url
    this._fleet = new Fleet(options.fleet ?? 'default', options.instanceId ?? randomBytes(8).toString('hex'))
    this.channel = this._fleet.channel
    this.instanceId = this._fleet.instanceId
    this.retryMs = options.retryMs ?? 500
    this.healthMs = options.healthMs ?? 5000
    this.queueMax = options.queueMax ?? 10_000
    this.onState = options.onState
    this._createClient = options.createClient
    this._queue = []
    this._pub = null
    this._server = null
    this._closed = false
  }

  /** Whether the subscriber is subscribed now. */
  get connected() { return this._fleet.connected }

  /** `{connected, published, applied, echoes, dropped, rejected, signals}`. */
  stats() { return this._fleet.stats() }

  /**
   * The counters as OpenTelemetry metrics (docs/operations.md "Broker metrics") on
   * `@opentelemetry/api` (`api` as given, else imported; nothing when it is not installed):
   * observable counters `mcp_context.broker.published`, `.delivered`, `.dropped`, `.skipped`
   * (`reason` = `echo` or `rejected`), `.signals` and the `.connected` gauge, read from the
   * core's counters when the SDK collects. `meterProvider` (default: the API's global one).
   * Automatic when the server has an `otel()` sink (on that sink's provider). On one provider:
   * the first call chooses it, later calls do nothing. Returns `this`.
   */
  async reportMetrics({ api, meterProvider, name = 'mcp-context' } = {}) {
    if (this._reported) return this
    this._reported = true
    if (!api) {
      try { api = await import('@opentelemetry/api') } catch { return this }
    }
    const meter = (meterProvider ?? api.metrics.getMeterProvider()).getMeter(name)
    const names = addon().brokerMetricNames()
    for (const c of names.counters) {
      meter.createObservableCounter(c.name, { description: c.description }).addCallback((r) => {
        for (const m of this._fleet.metrics()) {
          if (m.name === c.name) r.observe(m.value, m.reason == null ? {} : { [names.reason]: m.reason })
        }
      })
    }
    meter.createObservableGauge(names.connected.name, { description: names.connected.description })
      .addCallback((r) => r.observe(this._fleet.connected ? 1 : 0))
    return this
  }

  /**
   * Runs the broker for `server` (an `McpServer` on the native engine): its
   * `sendResourceUpdated`, `sendResourceListChanged` and `sendPromptListChanged` go to the
   * fleet from now on (applied here at once, then published). Returns `this`.
   */
  start(server) {
    if (!server?.machine || typeof server._pump !== 'function') throw new TypeError('RedisBroker.start(server): an McpServer')
    this._server = server
    server._broker = this
    for (const s of server._obs?.sinks ?? []) s.reportBroker?.(this) // an otel() sink's meter
    server.sendResourceUpdated = ({ uri }) => this.resourceUpdated(uri)
    server.sendResourceListChanged = () => this.resourcesListChanged()
    server.sendPromptListChanged = () => this.promptsListChanged()
    this._done = this._run()
    return this
  }

  /** Stops reconnecting and closes the connections. */
  async close() {
    this._closed = true
    this._fail?.(new Error('closed'))
    await this._done
  }

  resourceUpdated(uri) { this._local('resource_updated', String(uri)) }
  resourcesListChanged() { this._local('resources_list_changed') }
  promptsListChanged() { this._local('prompts_list_changed') }
  toolsListChanged() { this._local('tools_list_changed') }

  _machine(fn) {
    const s = this._server
    if (!s) return null
    const r = fn(s.machine)
    s._pump()
    return r
  }

  _local(kind, uri) {
    const data = this._machine((m) => this._fleet.local(m, kind, uri ?? null))
    if (!data) return
    if (!this._pub || this._queue.length >= this.queueMax) { this._fleet.dropped(1); return }
    this._queue.push(data)
    if (!this._flushing) this._flush()
  }

  async _flush() {
    this._flushing = true
    try {
      while (this._queue.length > 0 && this._pub) {
        const batch = this._queue.splice(0, 512)
        const multi = this._pub.multi()
        for (const data of batch) multi.publish(this.channel, data)
        await multi.execAsPipeline()
        this._fleet.published(batch.length)
      }
    } catch (e) {
      this._fail?.(e)
    } finally {
      this._flushing = false
    }
  }

  async _run() {
    const createClient = this._createClient ?? (await import('redis')).createClient
    while (!this._closed) {
      let sub = null
      let pub = null
      let health = null
      try {
        const lost = new Promise((_, reject) => { this._fail = reject })
        lost.catch(() => {})
        const options = { url: this.url, socket: { reconnectStrategy: false, connectTimeout: 2 * this.healthMs } }
        sub = createClient(options)
        pub = createClient(options)
        for (const c of [sub, pub]) {
          c.on('error', (e) => this._fail?.(e))
          c.on('end', () => this._fail?.(new Error('the broker closed the connection')))
        }
        await within(Promise.race([Promise.all([sub.connect(), pub.connect()]), lost]), 2 * this.healthMs, 'connect')
        this._heard = Date.now()
        // connected = the broker confirmed the subscription
        await within(Promise.race([sub.subscribe(this.channel, (data) => this._receive(data), true), lost]), 2 * this.healthMs, 'subscribe')
        this._pub = pub
        // back (not the first attempt): what happened meanwhile was not seen here
        this._edge(true, this._machine((m) => this._fleet.linkUp(m)))
        health = this._health(sub)
        await Promise.race([lost, health.done])
      } catch (e) {
        if (this._fleet.connected && !this._closed) process.emitWarning(`mcp-context fleet: broker ${this.url} lost: ${e?.message ?? e}`)
      } finally {
        health?.stop()
        this._pub = null
        if (this._queue.length > 0) { this._fleet.dropped(this._queue.length); this._queue = [] }
        const signalled = this._machine((m) => this._fleet.linkDown(m))
        for (const c of [sub, pub]) { try { c?.destroy() } catch { /* gone anyway */ } }
        this._edge(false, signalled)
      }
      if (!this._closed) await sleep(this.retryMs)
    }
  }

  /** A PING after `healthMs` of silence must be answered within `healthMs` more. */
  _health(sub) {
    let timer
    let stopped = false
    const done = new Promise((_, reject) => {
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
    })
    done.catch(() => {})
    return { done, stop: () => { stopped = true; clearTimeout(timer) } }
  }

  _receive(data) {
    this._heard = Date.now()
    const r = this._machine((m) => this._fleet.receive(m, data))
    if (r === 'malformed' || r === 'version' || r === 'kind') process.emitWarning('mcp-context fleet: a broker event was not applied (malformed, or from a newer instance)')
  }

  _edge(connected, signalled) {
    if (!signalled || typeof this.onState !== 'function') return
    try { this.onState(connected) } catch (e) { process.emitWarning(`onState failed: ${e}`) }
  }
}
