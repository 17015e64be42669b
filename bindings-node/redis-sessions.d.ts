// `mcp-context-primitives/redis-sessions`: 2025-11-25 sessions across a fleet's instances, in
// Redis (docs/scale-out.md, "2025-11-25 sessions across instances").

/** The counters of a session store. */
export interface SessionStoreStats {
  /** The channel is subscribed (the fleet's table is being kept). */
  connected: boolean
  /** Session states written. */
  stored: number
  /** Session ends written. */
  ended: number
  /** States taken from the store or the channel. */
  imported: number
  /** Sessions forgotten because they ended on another instance. */
  forgotten: number
  /** GET stream events stored. */
  events: number
  /** Stored events sent on a resumed GET stream. */
  replayed: number
  /** Changes and events not stored (Redis unreachable). */
  dropped: number
}

export interface RedisSessionStoreOptions {
  /** The fleet's name (keys `mcp-context:<fleet>:sessions`, `mcp-context:<fleet>:events:<id>`). */
  fleet?: string
  /** Events kept per session for resumption (1 000). */
  eventsMax?: number
  /** How long they are kept after the last one (30 min). */
  eventsTtlMs?: number
  /** Between two attempts to resubscribe (500). */
  retryMs?: number
  /** Silence on the channel before a PING, and the PING's deadline (5000). */
  healthMs?: number
  /** The `redis` package's `createClient` (default: imported). */
  createClient?: (options: object) => unknown
}

/** The fleet's 2025-11-25 sessions and GET stream events on one Redis; give it to
 * `serveHttp`, `toNodeHandler` or `fetchHandler` as `sessions` (native engine only). */
export declare class RedisSessionStore {
  constructor(url?: string, options?: RedisSessionStoreOptions)
  readonly url: string
  readonly fleet: string
  /** The session hash and the channel: `mcp-context:<fleet>:sessions`. */
  readonly key: string
  /** Whether the channel is subscribed now. */
  readonly connected: boolean
  stats(): SessionStoreStats
  /** Shares `server`'s sessions (an `McpServer`); the runners' `sessions` option calls it. */
  attach(server: object): this
  close(): Promise<void>
}
