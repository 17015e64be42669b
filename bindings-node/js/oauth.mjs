// OAuth for an MCP client over HTTP: a `fetch` that runs the core's authorization flow (an
// engine's `Authorizer`, every rule of it) when the server answers 401 (or 403
// `insufficient_scope`), then sends the request again with the new token; tokens are
// refreshed before they expire and kept in a token store. The flow's own requests use the
// same `fetch` with `redirect: 'manual'`, so the flow sees every redirect.
//
// Time here is `Date.now()`, so stored `expiresAtMs` stay meaningful across processes.

/** The default token store: a `Map`, gone with the process. A store has `load(serverUrl)`
 * and `save(serverUrl, tokens)`, plain or async. */
export class MemoryTokenStore {
  constructor() { this.tokens = new Map() }
  load(serverUrl) { return this.tokens.get(serverUrl) ?? null }
  save(serverUrl, tokens) { this.tokens.set(serverUrl, { ...tokens }) }
}

/** The flow stopped; the request it was for fails with this. */
export class AuthorizationError extends Error {
  constructor(message) { super(message); this.name = 'AuthorizationError' }
}

const ENTROPY_LEN = 48

function entropy() {
  const bytes = new Uint8Array(ENTROPY_LEN)
  globalThis.crypto.getRandomValues(bytes)
  return bytes
}

/** A serial lock: one flow at a time. */
function serial() {
  let tail = Promise.resolve()
  return (f) => {
    const run = tail.then(f)
    tail = run.catch(() => {})
    return run
  }
}

/** `oauthFetch` on an engine's `Authorizer` class. */
export function bindOAuth(Authorizer) {
  /**
   * A `fetch` for the MCP server at `serverUrl` that authorizes by itself.
   * `options`: `redirectUri` and `userAgent(url) → redirect URL` (required: opens the
   * authorization URL and resolves to the URL the authorization server sent the user agent
   * back to), `store` (default `MemoryTokenStore`), `fetch` (default `globalThis.fetch`), and
   * the `AuthConfig` keys `clientName`, `clientIdMetadataDocument`, `preRegistered`,
   * `offlineAccess`, `maxAuthorizations`, `refreshSkewMs`.
   */
  return function oauthFetch(serverUrl, options) {
    const { redirectUri, userAgent, store = new MemoryTokenStore(), fetch: inner = globalThis.fetch, ...rest } = options
    if (typeof userAgent !== 'function') throw new TypeError('oauthFetch: userAgent must be a function')
    const authorizer = new Authorizer({ ...rest, serverUrl: String(serverUrl), redirectUri })
    const lock = serial()
    let loaded = false

    async function ready() {
      if (loaded) return
      loaded = true
      const stored = await store.load(String(serverUrl))
      if (stored) authorizer.restore(stored)
    }

    async function drive() {
      for (let a; (a = authorizer.pollAction()); ) {
        if (a.type === 'fetch') {
          let r
          try {
            r = await inner(a.url, { method: a.method, headers: a.headers, body: a.method === 'POST' ? a.body : undefined, redirect: 'manual' })
          } catch {
            authorizer.handleFetchFailed(a.id, Date.now())
            continue
          }
          authorizer.handleFetched(a.id, r.status, new Uint8Array(await r.arrayBuffer()), Date.now())
        } else if (a.type === 'authorize') {
          let redirect
          try {
            redirect = await userAgent(a.url)
          } catch (err) {
            // Ends the flow (an error response), so the next challenge starts afresh.
            authorizer.handleRedirect(`${redirectUri}?error=access_denied`, Date.now())
            while (authorizer.pollAction());
            throw new AuthorizationError(`the user agent failed: ${err?.message ?? err}`)
          }
          authorizer.handleRedirect(String(redirect), Date.now())
        } else if (a.type === 'store') {
          await store.save(String(serverUrl), a.tokens)
        } else if (a.type === 'retry') {
          return
        } else if (a.type === 'failed') {
          throw new AuthorizationError(a.error)
        }
      }
    }

    const header = (url) => lock(async () => {
      await ready()
      if (authorizer.refreshDue(Date.now())) {
        authorizer.startRefresh(Date.now())
        await drive().catch(() => {}) // a failed refresh drops the token: the next 401 authorizes
      }
      // Read together: the grant (authorization context) this header belongs to.
      return [authorizer.authorizationHeader(url, Date.now()), authorizer.authContext()]
    })

    const challenge = (url, sent, status, www) => lock(async () => {
      await ready()
      const current = authorizer.authorizationHeader(url, Date.now())
      if (status === 401 && current !== null && current !== sent) return
      authorizer.handleChallenge(status, www, entropy(), Date.now())
      await drive()
    })

    // The grant each response was obtained under (null: sent without a token).
    const grants = new WeakMap()

    async function fetch(input, init = {}) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      // The body is sent again after a challenge: read a stream once.
      let body = init.body
      if (body && typeof body.getReader === 'function') body = new Uint8Array(await new Response(body).arrayBuffer())
      for (let attempt = 0; ; attempt++) {
        const [sent, grant] = await header(url)
        const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined))
        if (sent !== null) headers.set('authorization', sent)
        const r = await inner(input instanceof Request ? input.url : url, { ...init, body, headers })
        if ((r.status !== 401 && r.status !== 403) || attempt >= 3) {
          if (r.ok) authorizer.handleSuccess()
          grants.set(r, sent !== null ? grant : null)
          return r
        }
        const www = r.headers.get('www-authenticate')
        await r.arrayBuffer().catch(() => {})
        await challenge(url, sent, r.status, www)
      }
    }
    /**
     * The authorization context (the grant) whose token obtained `response` (`null`: none):
     * before feeding the answer of request `id`, `machine.setAuthContext(ctx)` and
     * `machine.setRequestAuthContext(id, ctx)`, so a private result is cached for that grant
     * only and never served to another (docs/rules.md §21.7).
     */
    fetch.authContext = (response) => grants.get(response) ?? null
    return fetch
  }
}
