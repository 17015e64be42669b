// Types of `mcp-context-primitives/server` (napi addon) and `mcp-context-primitives/wasm` (WebAssembly build): the
// same package layer on either engine. Written by hand (the layer is JavaScript); checked
// with `tsc --strict --noEmit` by the tests.

import type { AuthConfig, AuthTokens, Authorizer as AddonAuthorizer, ClientConfig, ClientMachine as AddonClientMachine, ClientOutput as AddonClientOutput, ResourceProtection, VerifiedCaller } from './index'

/** `{ ttlMs, cacheScope }`: how long and for whom a result may be cached. */
export interface CacheHint {
  ttlMs: number
  cacheScope: 'public' | 'private'
}

export interface Implementation {
  name: string
  version: string
  title?: string
  description?: string
  websiteUrl?: string
}

export interface McpServerOptions {
  /** `server/discover` instructions. */
  instructions?: string
  /** How long a handler has before the client gets -32603 (30 000 ms). */
  requestTimeoutMs?: number
  /** Items per list page (50). */
  pageSize?: number
  /** Keys for sealing `requestState` (≥ 32 bytes each, newest first). */
  stateKeys?: { id: number; secret: Uint8Array }[]
  /** Notifications queued per subscription before it overflows (256). */
  streamQueue?: number
  /** The core's limits (`ServerConfig::LIMITS`; docs/server-machine.md §Limits), each
   * defaulting to the core's value: `maxListensPerStream` (64), `maxListens` (10 000),
   * `maxPendingPerStream` (1 024), `maxPending` (10 000), `maxSessions` (1 024),
   * `maxSessionsPerPeer` (256), `sessionHandshakeMs` (10 s), `sessionIdleMs` (30 min). */
  maxListensPerStream?: number
  maxListens?: number
  maxPendingPerStream?: number
  maxPending?: number
  maxSessions?: number
  maxSessionsPerPeer?: number
  sessionHandshakeMs?: number
  sessionIdleMs?: number
  /** The longest stdio line in bytes (4 MiB); a longer one is answered -32600 with its id. */
  maxLine?: number
  /** The longest HTTP body in bytes (4 MiB; also `http.maxBody`). */
  maxBody?: number
  /** Serve 2025-11-25 clients too (`initialize`, sessions): true. */
  legacySessions?: boolean
  /** The HTTP endpoint (the core's `HttpConfig`): `path` (`/mcp`; `null`: any path), the
   * body limit `maxBody` (4 MiB), the `Host` and `Origin` allow-lists (localhost names). */
  http?: { path?: string | null; maxBody?: number; allowedHosts?: string[]; allowedOrigins?: string[] }
  /** The client's IP address of a web-standard request (`fetch`), for the per-peer bound on
   * 2025-11-25 sessions, e.g. `(r) => r.headers.get('cf-connecting-ip')` on workerd. Without
   * it, `fetch` passes no peer (no per-peer bound); the node:http handler passes the
   * socket's remote address. */
  peer?: (request: Request) => string | null | undefined
  /** Make the HTTP endpoint an OAuth 2.1 protected resource (as `protect`); needs `verifier`. */
  protection?: ResourceProtection
  /** The protected endpoint's token check (as `protect`'s). */
  verifier?: TokenVerifier
}

export type { ResourceProtection, VerifiedCaller }

/** Resolves a bearer token to its caller; throws (the message is the 401's
 * `error_description`) or returns null to refuse it. */
export type TokenVerifier = (token: string) => MaybePromise<VerifiedCaller | null | undefined>

export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> }
export type ResourceContents = TextResourceContents | BlobResourceContents

export interface ReadResourceResult {
  contents: ResourceContents[]
  /** Hints for this result (else the resource's or template's `cacheHint`). */
  cacheHint?: CacheHint
}

export interface InputRequiredResult {
  resultType: 'input_required'
  inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>
  /** Application state to get back, verified, in `ctx.mcpReq.requestState` (needs `stateKeys`). */
  requestState?: string | Uint8Array
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: ResourceContents }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string }

export interface PromptMessage { role: 'user' | 'assistant'; content: ContentBlock }
export interface GetPromptResult { description?: string; messages: PromptMessage[] }

export interface Resource {
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: number
  annotations?: Record<string, unknown>
}
export interface ListResourcesResult { resources: Resource[] }

/** A `notifications/message` severity. */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'

/** What a handler gets besides its arguments. */
export interface ServerContext {
  mcpReq: {
    method: string
    /** Aborted when the client cancels, the stream closes or the deadline passes. */
    signal: AbortSignal
    /** The client's answers to this request's earlier `input_required` round. */
    inputResponses?: Record<string, unknown>
    /** The verified state of the earlier round. */
    requestState?: Uint8Array
    /** The request's `_meta`. */
    _meta?: Record<string, unknown>
    /** A notification related to the request: `notifications/progress` is sent when the
     * request carried a `progressToken` (the token is added), `notifications/message` when
     * the request admits its level; others are dropped. */
    notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>
    /** `notifications/message` for this request; `false` when its level filters it out. */
    log(level: LoggingLevel, data: unknown, logger?: string): boolean
  }
  /** `notifications/progress` for this request; `false` when it carried no `progressToken`. */
  progress(progress: number, total?: number, message?: string): boolean
  /** `notifications/message` for this request; `false` when its level filters it out (a
   * 2025-11-25 session's `logging/setLevel`, a modern request's `_meta` log level). */
  log(level: LoggingLevel, data: unknown, logger?: string): boolean
  /** The client capabilities the request declared. */
  capabilities: { elicitationForm: boolean; elicitationUrl: boolean; sampling: boolean; roots: boolean }
  /** The caller context the host resolved (0 = anonymous). */
  auth: number | bigint
  /** The verified caller of a protected HTTP endpoint (`protect`); undefined otherwise. */
  principal?: VerifiedCaller
}

export interface ResourceMetadata {
  title?: string
  description?: string
  mimeType?: string
  annotations?: Record<string, unknown>
  size?: number
  _meta?: Record<string, unknown>
  cacheHint?: CacheHint
}

type MaybePromise<T> = T | Promise<T>
export type Variables = Record<string, string | string[]>
export type ReadResourceCallback = (uri: URL, ctx: ServerContext) => MaybePromise<ReadResourceResult | InputRequiredResult>
export type ReadResourceTemplateCallback = (uri: URL, variables: Variables, ctx: ServerContext) => MaybePromise<ReadResourceResult | InputRequiredResult>
/** Called on each `resources/list` that reaches the template's items (at list time: items
 * added or removed since show up), with the list request's context. */
export type ListResourcesCallback = (ctx: ServerContext) => MaybePromise<ListResourcesResult>
export type CompleteResourceTemplateCallback = (value: string, context?: { arguments?: Record<string, string> }) => MaybePromise<string[]>

/**
 * A URI template with its list and completion callbacks (the official SDK's shape).
 * `resources/list` gives the registered resources, then the `list` results of every template
 * that has one, in registration order, in pages of `pageSize` (the core's dynamic lists and
 * opaque cursor); reads of the items go to the template's read handler.
 */
export declare class ResourceTemplate {
  constructor(uriTemplate: string, callbacks: {
    list: ListResourcesCallback | undefined
    complete?: Record<string, CompleteResourceTemplateCallback>
  })
  get uriTemplate(): string
  get listCallback(): ListResourcesCallback | undefined
  completeCallback(variable: string): CompleteResourceTemplateCallback | undefined
}

/** The Standard Schema interface (zod, valibot, arktype…), validation side. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string }> }
      | Promise<{ readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<{ readonly message: string }> }>
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
  }
}
type InferOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : never

export interface RegisteredResource { name: string; uri: string; remove(): boolean }
export interface RegisteredResourceTemplate { name: string; uriTemplate: string; remove(): boolean }
export interface RegisteredPrompt { name: string; remove(): boolean }

export interface ToolConfig {
  title?: string
  description?: string
  outputSchema?: StandardSchemaV1
  annotations?: Record<string, unknown>
  icons?: { src: string; mimeType?: string }[]
  _meta?: Record<string, unknown>
}
export interface CallToolResult {
  content: ContentBlock[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
  cacheHint?: CacheHint
}
export interface RegisteredTool { name: string; remove(): boolean }

export interface PromptConfig {
  title?: string
  description?: string
  icons?: { src: string; mimeType?: string }[]
  _meta?: Record<string, unknown>
}

/** The server: the official SDK's registration calls on the mcp-context machine. */
export declare class McpServer {
  constructor(serverInfo: Implementation, options?: McpServerOptions)
  registerResource(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): RegisteredResource
  registerResource(name: string, template: ResourceTemplate, metadata: ResourceMetadata, read: ReadResourceTemplateCallback): RegisteredResourceTemplate
  registerPrompt(name: string, config: PromptConfig & { argsSchema?: undefined }, cb: (ctx: ServerContext) => MaybePromise<GetPromptResult | InputRequiredResult>): RegisteredPrompt
  registerPrompt<S extends StandardSchemaV1>(name: string, config: PromptConfig & { argsSchema: S }, cb: (args: InferOutput<S>, ctx: ServerContext) => MaybePromise<GetPromptResult | InputRequiredResult>): RegisteredPrompt
  /** A tool (`tools/list`, `tools/call` through the core's extension methods). A thrown
   * error is an `isError` result; an `McpError` a JSON-RPC error. */
  registerTool(name: string, config: ToolConfig & { inputSchema?: undefined }, cb: (ctx: ServerContext) => MaybePromise<CallToolResult | InputRequiredResult>): RegisteredTool
  registerTool<S extends StandardSchemaV1>(name: string, config: ToolConfig & { inputSchema: S }, cb: (args: InferOutput<S>, ctx: ServerContext) => MaybePromise<CallToolResult | InputRequiredResult>): RegisteredTool
  /** Serves another method (`handler` returns the result object). */
  setRequestHandler(method: string, handler: (params: Record<string, unknown>, ctx: ServerContext) => MaybePromise<Record<string, unknown>>): void
  /** Makes the HTTP endpoint (`fetch`, the node:http runners) an OAuth 2.1 protected
   * resource: the core answers the metadata document and the 401/403 challenges and checks
   * audience, expiry and scopes of what `verifier` resolves a token to. Scope requirements
   * are cleared. */
  protect(protection: ResourceProtection, verifier: TokenVerifier): this
  /** Requires `scopes` of every caller of an item (by URI, URI template or name): unlisted
   * to callers without them, a call refused with 403 `insufficient_scope`. */
  requireScopes(kind: 'resource' | 'template' | 'prompt' | 'tool', key: string, scopes: string[]): this
  /** Streamable HTTP: one web-standard request in, its response out (SSE for listen). */
  fetch(request: Request): Promise<Response>
  /** `notifications/resources/updated` for the listens subscribed to `uri`. */
  sendResourceUpdated(params: { uri: string }): void
  sendResourceListChanged(): void
  sendPromptListChanged(): void
  /** `notifications/message` to every 2025-11-25 connection and session event stream whose
   * level admits it; how many. */
  sendLoggingMessage(params: { level: LoggingLevel; logger?: string; data: unknown }): number
  /** Graceful close: every listen gets its final result. */
  close(): void
  /** A core limit of this server by its option name (`pageSize`, `maxLine`,
   * `sessionHandshakeMs`, …: the values given or the core's defaults); `null` for another name. */
  limit(name: string): number | null
  /** A fresh machine stream id from the server's one allocator: a custom runner takes its
   * streams here, so it never shares one with `serveStdio`, `fetch` or `toNodeHandler`. */
  openStream(): number
  /** Called with errors no client sees (a handler's result the machine refused, …). */
  onerror: (error: unknown) => void
  /** Sends the core's observations to `sink` (turns them on); `null` adds nothing. */
  sink(sink: ObservationSink | null): this
  /** Runs `middleware` on every request at the core's gate, the ones the core answers itself
   * included (the first added sees a request first). */
  use(middleware: Middleware): this
  /** Answers over `max` bytes become the error RESPONSE_TOO_LARGE (-31413); `null`: no cap. */
  limitResponses(max: number | null): this
}

/** A finished request or a refusal, as the core observed it (docs/operations.md). */
export type Observation = import('./index').Observation
/** Where observations go (`otel()`, `jsonLog()`, or your own). */
export interface ObservationSink {
  attach?(server: McpServer): void
  request?(observation: import('./index').RequestObservation): void
  refused?(observation: import('./index').RefusalObservation): void
  /** A request reached the core's gate (a sink with `start` turns the gate on): open its span
   * and return `within(fn)`, which runs the handler with it current (what `otel()` does). */
  start?(gate: import('./index').GateRequest, header?: string): ((fn: () => unknown) => unknown) | undefined
  /** A `RedisBroker` started on the same server: report its metrics (what `otel()` does, on
   * its meter provider). */
  reportBroker?(broker: { reportMetrics(options?: object): Promise<unknown> }): void
}
/** A request on its way to its handler, as middleware sees it. */
export interface MiddlewareRequest {
  method: string
  /** The tool or prompt name, or the resource URI. */
  target?: string
  /** The caller-context id (0: anonymous). */
  caller: number | bigint
  principal?: unknown
  params?: unknown
  arguments?: unknown
  /** Set once a handler runs (undefined for a request the core answers). */
  signal: AbortSignal | undefined
  /** Set once a handler runs. */
  ctx: unknown
  startMs: number
  /** The core's RATE_LIMITED code (-31429). */
  rateLimited: number
  annotations: Record<string, string>
  /** Adds `key = value` to the request's span attributes and log line. */
  annotate(key: string, value: unknown): void
}
/** Sees each request before the machine and the handler's result after (`await next()`,
 * `undefined` when the core answered); throws to refuse. */
export type Middleware = (req: MiddlewareRequest, next: () => Promise<unknown>) => unknown
/** OpenTelemetry spans and metrics on `@opentelemetry/api`; `null` when it is not installed. */
export declare function otel(options?: { api?: unknown; tracerProvider?: unknown; meterProvider?: unknown; name?: string }): Promise<ObservationSink | null>
/** One JSON line per finished request and per refusal (standard error by default). */
export declare function jsonLog(options?: { write?: (line: string) => void }): ObservationSink
/** A per-caller token bucket: `rate` per second, bursts of `burst`; refuses with RATE_LIMITED. */
export declare function rateLimit(options: { rate: number; burst?: number; key?: (req: MiddlewareRequest) => unknown }): Middleware

/** A JSON-RPC error for a handler to throw. */
export declare class McpError extends Error {
  constructor(code: number, message: string, data?: unknown)
  code: number
  data?: unknown
}

/** Thrown by a read handler: the resource does not exist (-32602 with `data.uri`). */
export declare class ResourceNotFoundError extends McpError {
  constructor(uri: string)
}

/** Serves `server` over stdio (newline-delimited JSON-RPC). Node and Deno. */
export declare function serveStdio(server: McpServer, io?: { input?: unknown; output?: { write(chunk: Uint8Array): unknown } }): Promise<unknown>
/** A node:http request listener for `server`: an `McpServer` is served straight on the core's HTTP
 * entry point (head checked before the body is read, one write per answer, SSE for streams);
 * any other `{ fetch }` handler through web `Request`/`Response`. */
export declare function toNodeHandler(server: { fetch(request: Request): Promise<Response>; onerror?: (error: unknown) => void }, options?: { sessions?: SessionStore }): Promise<(req: any, res: any) => void>
/** Serves `server` over Streamable HTTP on node:http; resolves to the listening server.
 * `sessions`: a fleet's session store (`RedisSessionStore` from
 * `mcp-context-primitives/redis-sessions`): 2025-11-25 sessions shared with the other instances. */
export declare function serveHttp(server: McpServer, options?: { port?: number; host?: string; sessions?: SessionStore }): Promise<NodeHttpServer>
/** A fleet's 2025-11-25 session store (`RedisSessionStore`), as the runners take it. */
export interface SessionStore {
  attach(server: object): unknown
}

/** The listening node:http server (the members used here; it is the real `http.Server`). */
export interface NodeHttpServer {
  address(): { port: number; address: string; family: string } | string | null
  close(callback?: (err?: Error) => void): unknown
  closeAllConnections(): void
}

/** Marks a prompt argument's schema as completable (the official SDK's `completable`). */
export declare function completable<S>(schema: S, complete: (value: string, context?: { arguments?: Record<string, string> }) => MaybePromise<string[]>): S

/** What `ClientMachine.pollOutput()` returns (see `index.d.ts`); a transmit's `bytes` are a
 * `Uint8Array` (a `Buffer` on the napi engine). */
export type ClientOutput =
  | Exclude<AddonClientOutput, { type: 'transmit' }>
  | (Omit<Extract<AddonClientOutput, { type: 'transmit' }>, 'bytes'> & { bytes: Uint8Array })

/**
 * The MCP client machine (`index.d.ts` documents every method), on either engine: the
 * napi addon's from `mcp-context-primitives/server`, the WebAssembly build's from `mcp-context-primitives/wasm`.
 * Ids keep their exact value and JSON type (`bigint` beyond 2^53); objects built from
 * server data have only own keys. The output-ready callback (`setWaker`) never runs inside
 * a machine call.
 */
export interface ClientMachine extends Omit<AddonClientMachine, 'handleMessage' | 'pollOutput'> {
  /** Handles one message (a line on stdio, a JSON body or one SSE `data` on HTTP). */
  handleMessage(message: Uint8Array | string, nowMs: number | bigint): void
  /** The next output, or `null`. */
  pollOutput(): ClientOutput | null
}
export declare const ClientMachine: {
  new (config?: ClientConfig): ClientMachine
  readonly prototype: ClientMachine
}

/**
 * The client-side OAuth flow (`index.d.ts` documents every method), on either engine: the
 * core's `Authorizer`, no I/O. `oauthFetch` drives it.
 */
export interface Authorizer extends Omit<AddonAuthorizer, 'handleChallenge' | 'handleFetched'> {
  /** A 401 (or 403 `insufficient_scope`) and its `WWW-Authenticate`: starts the flow. */
  handleChallenge(status: number, wwwAuthenticate: string | null | undefined, entropy: Uint8Array, nowMs: number | bigint): void
  /** The response to fetch `id`. */
  handleFetched(id: number | bigint, status: number, body: Uint8Array, nowMs: number | bigint): void
}
export declare const Authorizer: {
  new (config: AuthConfig): Authorizer
  readonly prototype: Authorizer
}

/** Where tokens live between runs, keyed by the MCP server's URL (methods plain or async). */
export interface TokenStore {
  load(serverUrl: string): MaybePromise<AuthTokens | null | undefined>
  save(serverUrl: string, tokens: AuthTokens): MaybePromise<void>
}

/** The default `TokenStore`: a `Map`, gone with the process. */
export declare class MemoryTokenStore implements TokenStore {
  tokens: Map<string, AuthTokens>
  load(serverUrl: string): AuthTokens | null
  save(serverUrl: string, tokens: AuthTokens): void
}

/** The authorization flow stopped; the request it was for fails with this. */
export declare class AuthorizationError extends Error {}

/** `oauthFetch`'s options: the `AuthConfig` keys but `serverUrl`, and the I/O. */
export interface OAuthOptions extends Omit<AuthConfig, 'serverUrl'> {
  /** Opens the authorization URL; resolves to the URL the user agent was sent back to. */
  userAgent: (url: string) => MaybePromise<string>
  /** Default: a `MemoryTokenStore`. */
  store?: TokenStore
  /** Default: `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch
}

/**
 * A `fetch` for the MCP server at `serverUrl` that authorizes by itself: the token on every
 * request to the server's origin, the flow on a 401 (or 403 `insufficient_scope`) and the
 * request sent again, refresh before expiry. Rejects with `AuthorizationError` when the
 * flow fails.
 */
export declare function oauthFetch(serverUrl: string | URL, options: OAuthOptions): OAuthFetch

/** `oauthFetch`'s `fetch`, and the grant each of its responses was obtained under. */
export interface OAuthFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>
  /**
   * The authorization context (one per grant) whose token obtained `response`, or `null`:
   * give it to `ClientMachine.setAuthContext` and `setRequestAuthContext(id, ...)` before
   * feeding the answer, so a private result is never served to another grant.
   */
  authContext(response: Response): number | null
}
