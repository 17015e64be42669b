"""2025-11-25 sessions across the instances of a fleet, in Redis (docs/scale-out.md,
"2025-11-25 sessions across instances").

    from mcp_context._session_store import RedisSessionStore

    app.use_session_store(RedisSessionStore("redis://10.0.0.5:6379/0", fleet="notes"))

The core decides what a session is and encodes it (``ServerMachine.take_session_changes``,
``import_session``); this store only moves the bytes:

* ``mcp-context:<fleet>:sessions`` (hash): session id -> state. Written, and published on the
  channel of the same name, before the answer of the request that changed it is sent; removed
  when the session ends (``DELETE``, idle or handshake bound, evicted by the flood policy).
* Each request naming a session reads it first (``HGET``): any instance serves any session,
  and a session ended anywhere is 404 everywhere at once.
* Every instance holds the fleet's table (loaded at start, kept by the channel): the instance
  holding a session's GET stream sees subscriptions made elsewhere, and the session bounds
  (``max_sessions``, per peer) count the fleet's sessions.
* ``mcp-context:<fleet>:events:<id>`` (sorted set, score = event number): the events sent on
  the session's GET stream, framed by the core with their ids, at most ``events_max``, kept
  ``events_ttl_s`` after the last one. A GET with ``Last-Event-ID`` on any instance gets the
  stored events after it (the core's replay rule), then the live ones numbered after them.

Redis down: requests for the sessions an instance already holds are served from its copy;
changes are not stored (counted in ``dropped``); nothing is replayed. Redis back (empty, as a
restart without persistence leaves it): a session the store no longer has is 404 on its next
request and the client initializes again.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any

from ._core import decode_session_message, encode_session_message

if TYPE_CHECKING:
    from .server import App

__all__ = ["RedisSessionStore"]

log = logging.getLogger("mcp_context.sessions")


class RedisSessionStore:
    """The fleet's 2025-11-25 sessions and GET stream events, on one Redis."""

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        fleet: str = "default",
        events_max: int = 1000,
        events_ttl_s: float = 1800.0,
        retry_s: float = 0.5,
    ) -> None:
        """``url``: the Redis server; ``fleet``: the keys' name part (the instances of one
        fleet share it); ``events_max``: events kept per session for resumption;
        ``events_ttl_s``: how long they are kept after the last one."""
        if not fleet or any(c in fleet for c in ":*?[] "):
            raise ValueError("fleet: a non-empty name without ':', spaces or glob characters")
        import redis.asyncio as aioredis

        self.fleet = fleet
        self.key = f"mcp-context:{fleet}:sessions"
        self.events_prefix = f"mcp-context:{fleet}:events:"
        self.instance = os.urandom(16)
        self.events_max = events_max
        self.events_ttl_ms = int(events_ttl_s * 1000)
        self.retry_s = retry_s
        self.redis = aioredis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._url = url
        self.app: App | None = None
        self.connected = False
        """Whether the channel is subscribed (the table is being kept)."""
        self.stored = self.ended = self.imported = self.forgotten = 0
        self.events = self.replayed = self.dropped = 0

    # --- the hooks the ASGI runner calls ---------------------------------------------------

    def attach(self, app: App) -> None:
        """``App.use_session_store``: the machine shares its sessions; ``run`` starts with the
        server."""
        self.app = app
        app._registrations.append(lambda m: m.share_sessions(self.instance))
        app._startup.append(lambda: self.run())

    def _machine(self) -> Any:
        rt = self.app._runtime if self.app is not None else None
        return None if rt is None else rt.machine

    async def refresh(self, session: str) -> None:
        """Before a request naming ``session``: this instance takes the store's state (or
        forgets the session, ended elsewhere). Redis unreachable: the local copy serves."""
        try:
            state = await self.redis.hget(self.key, session)
        except Exception as e:  # noqa: BLE001 - any client error is "Redis unavailable"
            log.debug("session store unavailable: %s", e)
            return
        self._apply(session, state)

    async def flush(self) -> None:
        """After a request: stores what the core reports changed (before the answer goes)."""
        m = self._machine()
        if m is None:
            return
        changes = m.take_session_changes()
        if not changes:
            return
        try:
            async with self.redis.pipeline(transaction=True) as p:
                for sid, state in changes:
                    if state is None:
                        p.hdel(self.key, sid)
                        p.delete(self.events_prefix + sid)
                    else:
                        p.hset(self.key, sid, state)
                    p.publish(self.key, encode_session_message(self.instance, sid, state))
                await p.execute()
            for _, state in changes:
                if state is None:
                    self.ended += 1
                else:
                    self.stored += 1
        except Exception as e:  # noqa: BLE001
            self.dropped += len(changes)
            log.warning("session changes not stored (Redis unavailable): %s", e)
        finally:
            for sid, _ in changes:  # in flight until now: a table load kept their state
                m.session_change_settled(sid)

    async def opened(self, session: str, after: int | None, stream: int) -> list[bytes]:
        """A GET stream opened on this instance: the stored events to replay first (after
        ``after``, the core's reading of ``Last-Event-ID``), and the next events numbered
        after every stored one."""
        key = self.events_prefix + session
        try:
            async with self.redis.pipeline(transaction=False) as p:
                p.zrange(key, -1, -1, withscores=True)
                if after is not None:
                    p.zrangebyscore(key, f"({after}", "+inf")
                got = await p.execute()
        except Exception as e:  # noqa: BLE001
            log.debug("event store unavailable: %s", e)
            return []
        top = int(got[0][0][1]) if got[0] else 0
        m = self._machine()
        if m is not None:
            m.session_stream_floor(stream, top)
        replay = list(got[1]) if after is not None else []
        self.replayed += len(replay)
        return replay

    async def record(self, session: str, seq: int, event: bytes) -> None:
        """Stores one event of a session's GET stream before it is written."""
        key = self.events_prefix + session
        try:
            async with self.redis.pipeline(transaction=True) as p:
                p.zadd(key, {event: seq})
                p.zremrangebyrank(key, 0, -(self.events_max + 1))
                p.pexpire(key, self.events_ttl_ms)
                await p.execute()
            self.events += 1
        except Exception as e:  # noqa: BLE001
            self.dropped += 1
            log.debug("event not stored: %s", e)

    # --- the fleet's table ------------------------------------------------------------------

    def _apply(self, session: str, state: bytes | None) -> None:
        m = self._machine()
        if m is None:
            return
        if state is None:
            if m.has_session(session):
                self._forget(m, session)
            return
        try:
            m.import_session(session, state, _now())
            self.imported += 1
        except ValueError as e:
            log.warning("session %s: a state this core does not read (%s)", session, e)

    def _forget(self, m: Any, session: str) -> None:
        stream = m.forget_session(session)
        self.forgotten += 1
        if stream is not None:
            self._end_stream(stream)

    def _end_stream(self, stream: int) -> None:
        rt = self.app._runtime if self.app is not None else None
        if rt is not None:
            sink = rt.host.sinks.get(stream)
            if sink is not None:
                from ._asgi import ENDED

                sink(ENDED)  # the runner ends that GET stream

    async def _load(self, client: Any) -> None:
        """Loads the fleet's table: takes every state in it, and forgets the sessions held
        here that it lacks (ended elsewhere while the channel was down), except those whose
        change is newer here (the core's ``session_load_begin``/``session_load_end``)."""
        m = self._machine()
        if m is None:
            return
        m.session_load_begin()
        try:
            table = await asyncio.wait_for(client.hgetall(self.key), 4)
        except BaseException:
            m.session_load_abort()
            raise
        rows = {sid.decode(): bytes(state) for sid, state in table.items()}
        imported, malformed, forgotten, streams = m.session_load_end(rows, _now())
        self.imported += imported
        self.forgotten += forgotten
        for sid in malformed:
            log.warning("session %s: a state this core does not read", sid)
        for stream in streams:
            self._end_stream(stream)

    async def run(self) -> None:
        """For the server's lifetime: loads the fleet's table, then keeps it from the channel;
        reconnects every ``retry_s`` after a loss (and loads the table again)."""
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        while True:
            client = aioredis.Redis.from_url(self._url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=2)
            pubsub = client.pubsub()
            try:
                await asyncio.wait_for(pubsub.subscribe(self.key), 4)
                await self._load(client)
                self.connected = True
                idle = 0.0
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        idle += 1.0
                        if idle >= 5.0:  # a silent Redis (partition): a PING must come back
                            await asyncio.wait_for(pubsub.ping(), 5)
                            idle = 0.0
                        continue
                    idle = 0.0
                    if msg.get("type") != "message":
                        continue
                    got = decode_session_message(msg["data"])
                    if got is None or got[0] == self.instance:
                        continue
                    self._apply(got[1], got[2])
                    rt = self.app._runtime if self.app is not None else None
                    if rt is not None:
                        rt.host.drain()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                log.debug("session channel lost: %s", e)
            finally:
                self.connected = False
                for close in (pubsub.aclose, client.aclose):
                    try:
                        await asyncio.wait_for(close(), 2)
                    except Exception:  # noqa: BLE001
                        pass
            await asyncio.sleep(self.retry_s)


def _now() -> int:
    from ._host import server_now_ms as now_ms

    return now_ms()
