// `mcp-context-primitives/redis`: scale-out on Redis (docs/scale-out.md).

/** The counters of a fleet end. */
export interface FleetStats {
  connected: boolean
  published: number
  applied: number
  echoes: number
  dropped: number
  rejected: number
  signals: number
}

export interface RedisBrokerOptions {
  /** The fleet's name (channel `mcp-context:<fleet>:events`). */
  fleet?: string
  /** This instance's id (default: random). */
  instanceId?: string
  /** Between two connection attempts (500). */
  retryMs?: number
  /** Silence before a PING, and the PING's deadline (5000). */
  healthMs?: number
  /** Events waiting for the publisher (10 000). */
  queueMax?: number
  /** The `redis` package's `createClient` (default: imported). */
  createClient?: (options: object) => unknown
  /** Called at each edge, after the listens were ended. */
  onState?: (connected: boolean) => void
}

/** The fleet's event bus on one Redis: publish this instance's changes, apply the others'. */
export declare class RedisBroker {
  constructor(url?: string, options?: RedisBrokerOptions)
  readonly url: string
  readonly channel: string
  readonly instanceId: string
  readonly connected: boolean
  stats(): FleetStats
  /**
   * The counters as OpenTelemetry metrics (`mcp_context.broker.*`, docs/operations.md) on
   * `@opentelemetry/api` (`api`, else imported; nothing when absent), on `meterProvider`
   * (default: the API's global one). Automatic when the server has an `otel()` sink; the
   * first call chooses the provider, later calls do nothing.
   */
  reportMetrics(options?: { api?: unknown; meterProvider?: unknown; name?: string }): Promise<this>
  /** Runs the broker for `server` (an `McpServer` on the native engine); its `send*` pushes go to the fleet. */
  start(server: object): this
  close(): Promise<void>
  resourceUpdated(uri: string): void
  resourcesListChanged(): void
  promptsListChanged(): void
  toolsListChanged(): void
}

export interface RedisRateLimitOptions {
  /** A connected node-redis client (>= 4). */
  client: { evalSha: Function; eval: Function }
  /** Requests per second per caller (> 0). */
  rate: number
  /** Bucket size (default `rate`, at least 1). */
  burst?: number
  /** Key prefix (default the core's `mcp:rate:`); fleets sharing one Redis each use their own. */
  prefix?: string
  /** The bucket's name after the prefix (default the caller). */
  key?: (req: any) => string | number
  /** Told when Redis does not answer, with the policy applied (`open`: admitted, `closed`: refused). */
  onError?: (err: unknown, policy: 'open' | 'closed') => void
  /** Refuse a request when Redis does not answer (default the core's: `false`, fail open). */
  failClosed?: boolean
  /** How long to wait for Redis before the failure policy applies, in ms (default 1000). */
  timeout?: number
}

/**
 * A middleware (`server.use`): the core's token bucket in Redis, shared by every instance on
 * the same Redis; past it `RATE_LIMITED` (-31429), `Rate limit exceeded: retry after N ms`.
 */
export declare function redisRateLimit(options: RedisRateLimitOptions): (req: any, next: () => Promise<unknown>) => Promise<unknown>
