// The protected endpoint's door for the HTTP runners (docs/authorization.md): the core
// decides (`httpAuthenticate`: the metadata document, 401 without a token, the token to
// verify; `httpAdmit`: audience, expiry, required scopes; `httpReject`: 401 invalid_token);
// this awaits the application's verifier between the two and remembers the verified caller.

/** The most callers remembered for `ctx.principal` (the oldest is forgotten first). */
const MAX_PRINCIPALS = 10000

/**
 * Runs the door for `head`: `{response}` (write it, read no body), or `{auth, scopes}` for
 * `handleHttp`'s context (`auth` 0 and no scopes: an open endpoint or an anonymous caller);
 * a promise of one only while the verifier checks a token.
 */
export function authenticate(server, head) {
  if (!server._verifier) return OPEN // not protected (`protect` sets both): no crossing
  const gate = server.machine.httpAuthenticate(head)
  if (gate.proceed) return OPEN
  if (gate.token === undefined) return { response: gate }
  return verify(server, gate.token)
}
const OPEN = Object.freeze({ auth: 0 })

async function verify(server, token) {
  const machine = server.machine
  let caller
  try {
    caller = await server._verifier(token)
  } catch (err) {
    return { response: machine.httpReject(String(err?.message ?? err)) }
  }
  if (!caller) return { response: machine.httpReject('the token was not accepted') }
  const admit = machine.httpAdmit(caller, Date.now())
  if (admit.status !== undefined) return { response: admit }
  return { auth: principalId(server, caller), scopes: admit.scopes }
}

/** The machine's caller id for `caller`: one per subject and client, its latest claims kept. */
function principalId(server, caller) {
  const ids = (server._principalIds ??= new Map()) // `subject client` -> id
  const key = `${caller.subject ?? ''} ${caller.clientId ?? ''}`
  let id = ids.get(key)
  if (id === undefined) {
    id = (server._nextPrincipal = (server._nextPrincipal ?? 0) + 1)
    if (ids.size >= MAX_PRINCIPALS) {
      const [oldKey, oldId] = ids.entries().next().value
      ids.delete(oldKey)
      server._principals.delete(oldId)
    }
    ids.set(key, id)
  }
  server._principals.set(id, caller)
  return id
}
