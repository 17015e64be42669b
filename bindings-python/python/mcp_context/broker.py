"""Scale-out: the fleet's change events through Redis pub/sub (docs/scale-out.md).

    from mcp_context.broker import RedisBroker

    app = App("notes", state_keys=FLEET_KEYS)          # the same keys on every instance
    app.use_broker(broker := RedisBroker("redis://10.0.0.5:6379/0", fleet="notes"))
    app.sink(Otel())                                   # + mcp_context.broker.* (OpenTelemetry)

Every instance of a fleet publishes its ``resource_updated`` / ``resources_list_changed`` /
``prompts_list_changed`` on the channel ``mcp-context:<fleet>:events`` and applies the other
instances' events to its own machine, so each ``subscriptions/listen`` stream gets every change
of the fleet, whichever instance saw it.

Contract:

* **Apply locally, skip own echoes.** ``App`` applies an event to its own machine at once (so
  local listens work without the broker), then ``publish`` queues it for Redis. An event
  carries its origin's instance id; an instance drops its own echo, so each instance applies
  each event exactly once.
* **Order.** One publisher task sends the queued events in order (pipelined); Redis keeps the
  order per connection, so a subscriber applies one instance's events in publish order.
* **Broker down.** Publishing never blocks nor raises: while disconnected, events are dropped
  (counted in ``dropped``). Reads and local listens keep working. At each edge (connection
  lost; connection back and resubscribed) the instance ends every listen stream it holds with
  the graceful ``subscriptions/listen`` result: the documented signal that the client re-listens
  (anywhere) and refetches what it holds, since events may have been missed.
* **Reconnect.** The subscriber retries every ``retry_s`` seconds; a silent broker (partition)
  is detected by a ``PING`` after ``health_s`` seconds without traffic.

The protocol itself (wire format, echo suppression, applying an event, the edges' signal) is
the core's (``mcp_context._core.Fleet``, docs/rules.md §23), shared with the Node and Rust
runners; this module only moves its bytes. Requires the ``redis`` package (redis-py, asyncio
client).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._core import Fleet

if TYPE_CHECKING:
    from .server import App

__all__ = ["RedisBroker"]

log = logging.getLogger("mcp_context.broker")

_KINDS = ("resource_updated", "resources_list_changed", "prompts_list_changed", "tools_list_changed")


class RedisBroker:
    """The fleet's event bus on one Redis (pub/sub; no data is stored in Redis)."""

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        fleet: str = "default",
        instance_id: str | None = None,
        retry_s: float = 0.5,
        health_s: float = 5.0,
        queue_max: int = 10_000,
        on_state: Callable[[bool], Any] | None = None,
    ) -> None:
        """``url``: the Redis server; ``fleet``: the channel's name part, shared by the
        instances of one fleet (two fleets on one Redis never see each other's events);
        ``instance_id``: this instance (default: random); ``queue_max``: events kept while
        the publisher is behind (beyond, dropped and counted); ``on_state(connected)``: called
        at each edge, after the listens were ended."""
        try:
            self._fleet = Fleet(fleet, instance_id or uuid.uuid4().hex[:16])
        except ValueError as e:
            raise ValueError(f"fleet: {e}") from None
        self.url = url
        self.fleet = fleet
        self.channel = self._fleet.channel
        self.instance_id = self._fleet.instance_id
        self.retry_s = retry_s
        self.health_s = health_s
        self.on_state = on_state
        self._queue: asyncio.Queue[bytes] = asyncio.Queue(queue_max)
        self._app: App | None = None
        self._reported = False  # report_metrics ran

    @property
    def connected(self) -> bool:
        """Whether the subscriber is subscribed now."""
        return self._fleet.connected

    @property
    def published(self) -> int:
        return self._fleet.stats()["published"]

    @property
    def applied(self) -> int:
        """Remote events applied to the local machine."""
        return self._fleet.stats()["applied"]

    @property
    def dropped(self) -> int:
        """Events not published (broker down, queue full)."""
        return self._fleet.stats()["dropped"]

    @property
    def signals(self) -> int:
        """Edges (down or back) at which the listens were ended."""
        return self._fleet.stats()["signals"]

    def stats(self) -> dict[str, Any]:
        """Every counter of the core's fleet end (``echoes`` and ``rejected`` too)."""
        return self._fleet.stats()

    def report_metrics(self, meter_provider: Any = None) -> None:
        """The counters as OpenTelemetry metrics (docs/operations.md "Broker metrics"):
        ``mcp_context.broker.published``, ``.delivered``, ``.dropped``, ``.skipped``
        (``reason`` = ``echo`` or ``rejected``), ``.signals`` and the ``.connected`` gauge,
        on ``meter_provider`` (default: the global one). Requires ``opentelemetry-api``.
        Automatic when the app has an ``Otel`` sink (on that sink's provider). On one provider:
        the first call chooses it, later calls do nothing."""
        if self._reported:
            return
        self._reported = True
        from ._broker_metrics import report

        report(self._fleet, meter_provider)

    def _machine(self, fn: Callable[[Any], Any]) -> Any:
        """``fn(machine)`` on the running server's machine, then a drain (``None`` when the
        server does not run)."""
        rt = self._app._runtime if self._app is not None else None
        if rt is None:
            return None
        out = fn(rt.machine)
        rt.host.drain()
        return out

    # --- publishing (called by App's pushes, on the loop's thread) -------------------------

    def local(self, kind: str, uri: str | None = None) -> None:
        """A change made here (``App``'s pushes call it): applied to the machine at once,
        then queued for the fleet; never blocks, never raises (dropped and counted while
        the broker is down or the queue is full)."""
        if kind not in _KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        data = self._machine(lambda m: self._fleet.local(m, kind, uri))
        if data is None:
            return
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            self._fleet.dropped(1)

    # --- the task (started by App.use_broker with the server) -------------------------------

    async def run(self, app: App) -> None:
        """Subscribes, applies remote events, publishes queued ones; reconnects for ever."""
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self._app = app
        while True:
            client = aioredis.Redis.from_url(self.url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=2)
            pubsub = client.pubsub()
            publisher: asyncio.Task[None] | None = None
            try:
                # connected = the broker confirmed the subscription (a stalled broker that
                # accepts TCP connections and answers nothing is not connected)
                await asyncio.wait_for(self._subscribe(pubsub), 2 * self.health_s)
                publisher = asyncio.get_running_loop().create_task(self._publish(client))
                # back (not the first attempt): what happened meanwhile was not seen here
                self._edge(True, self._machine(self._fleet.link_up))
                await self._receive(pubsub, publisher)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any failure: reconnect
                if self.connected:
                    log.warning("broker %s lost: %s", self.url, e)
            finally:
                signalled = self._machine(self._fleet.link_down)
                if publisher is not None:
                    publisher.cancel()
                flushed = 0
                while not self._queue.empty():
                    self._queue.get_nowait()
                    flushed += 1
                self._fleet.dropped(flushed)
                try:
                    await asyncio.wait_for(pubsub.aclose(), 2)
                    await asyncio.wait_for(client.aclose(), 2)
                except Exception:  # noqa: BLE001 - the connection is gone anyway
                    pass
                self._edge(False, signalled)
            await asyncio.sleep(self.retry_s)

    async def _subscribe(self, pubsub: Any) -> None:
        await pubsub.subscribe(self.channel)
        while True:
            msg = await pubsub.get_message(timeout=self.health_s)
            if msg is None:
                raise ConnectionError("the broker did not confirm the subscription")
            if msg.get("type") == "subscribe":
                return

    async def _receive(self, pubsub: Any, publisher: asyncio.Task[None]) -> None:
        """Applies the channel's events; a ``PING`` after ``health_s`` of silence must be
        answered within ``health_s`` more, else the connection counts as lost."""
        loop = asyncio.get_running_loop()
        heard = loop.time()
        pinged = False
        while True:
            if publisher.done():
                publisher.result()  # re-raises the publisher's connection error
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=min(1.0, self.health_s))
            now = loop.time()
            if msg is None:
                if now - heard >= self.health_s:
                    if pinged:
                        raise ConnectionError(f"no answer to PING within {self.health_s} s")
                    await pubsub.ping()
                    pinged, heard = True, now
                continue
            heard, pinged = now, False  # any traffic (a PONG included) proves the link
            if msg.get("type") == "message":
                self._apply(msg.get("data"))

    async def _publish(self, client: Any) -> None:
        q = self._queue
        while True:
            batch = [await q.get()]
            while not q.empty() and len(batch) < 512:
                batch.append(q.get_nowait())
            pipe = client.pipeline(transaction=False)
            for data in batch:
                pipe.publish(self.channel, data)
            await pipe.execute()
            self._fleet.published(len(batch))

    def _apply(self, event: Any) -> None:
        """One event from the channel to the core (own echoes and unreadable events are
        skipped there)."""
        if not isinstance(event, bytes | bytearray | str):
            return
        raw = event.encode() if isinstance(event, str) else bytes(event)
        if self._machine(lambda m: self._fleet.receive(m, raw)) in ("malformed", "version", "kind"):
            log.warning("broker event not applied (malformed, or from a newer instance)")

    def _edge(self, connected: bool, signalled: bool | None) -> None:
        """After the core ended every listen stream at an edge (``signalled``; the clients
        re-listen and refetch), tells ``on_state``."""
        if not signalled:
            return
        if self.on_state is not None:
            try:
                self.on_state(connected)
            except Exception:  # noqa: BLE001 - an observer's failure is not ours
                log.exception("on_state failed")
