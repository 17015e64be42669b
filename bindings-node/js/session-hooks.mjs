// The HTTP runners' hooks for a fleet's 2025-11-25 session store (`server._sessions`, set by
// `RedisSessionStore.attach`, docs/scale-out.md "2025-11-25 sessions across instances"):
// read the session a request names before the machine sees it, store the changes before the
// answer goes, and frame, store and write a GET stream's events in order, after the replay
// of a resumed one. `node.mjs` (node:http) and `http.mjs` (`fetch`) share them.

/** Before `handleHttp`: the session `head` names, taken from the store (or forgotten when
 * it ended elsewhere), and the replay point of a resumed GET stream. */
export async function sessionBefore(store, head) {
  const { session, after } = store.head(head)
  if (session != null) await store.refresh(session)
  return { store, session: session ?? null, after: after ?? null }
}

/**
 * The writer of a session's GET stream `stream` (opened here): the stored events after the
 * replay point first, then each transmit's bytes framed by the core with the session's next
 * event id, stored, then written, in order. `write(bytes)` writes to the response; `event`
 * frames bytes that are no session's (the server's `sse.event`).
 */
export function sessionStream(server, s, stream, write, event) {
  const { store } = s
  let chain = store.opened(s.session, s.after, stream).then((replay) => { for (const e of replay) write(e) })
  return (bytes) => {
    chain = chain.then(async () => {
      const data = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      const ev = server.machine.sessionEvent(stream, data)
      if (ev === null) { write(event(bytes)); return }
      await store.record(ev.session, ev.seq, ev.bytes)
      write(ev.bytes)
    }).catch((err) => server.onerror?.(err))
  }
}
