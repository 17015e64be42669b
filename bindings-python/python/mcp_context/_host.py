"""The one owner of a ``ServerMachine`` on an asyncio loop (internal).

Every machine call happens on the loop's thread; an input and its outputs cross in one call
(``drain=True``: the outputs and the next deadline come back with it), and other calls are
followed by one ``ServerMachine.drain()``: transmits go to the sink registered for their
stream, events to the application's dispatcher. Handler tasks answer the same way, so an
answer given after async work is on the wire in the same loop iteration (the machine's
output-ready callback schedules a drain for anything queued otherwise).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ._core import ServerMachine, Transmit


def now_ms() -> int:
    """Milliseconds of a monotonic clock (the binding's time convention)."""
    return time.monotonic_ns() // 1_000_000


class MachineHost:
    """Drains one machine: ``sinks[stream](transmit)`` and ``dispatch(event)``.

    Crossings: an input and its outputs are one call (``call(m.respond_read, h, c)`` passes
    ``drain=True`` and routes what comes back with the next deadline); ``drain()`` takes
    whatever other calls queued in one ``ServerMachine.drain()``.
    """

    def __init__(self, machine: ServerMachine, dispatch: Callable[[Any], None]) -> None:
        self.machine = machine
        self.dispatch = dispatch
        self.sinks: dict[int, Callable[[Transmit], None]] = {}
        self.after: Callable[[], None] | None = None
        self.observed: Callable[[ServerMachine, int], None] | None = None  # telemetry sinks
        """Called after every routing pass (stdio flushes its writes)."""
        self._queue: deque[Any] = deque()
        self._routing = False
        self._in_call = False
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: int | None = None
        self._scheduled = False
        try:
            self.loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self.loop = None  # synchronous in-process use (App.runtime() outside a loop)
        set_waker = getattr(machine, "set_waker", None)
        if set_waker is not None and self.loop is not None:
            # The machine tells us when output was queued outside a drain (an answer from a
            # handler task): drain on the next loop iteration, from the loop's thread.
            set_waker(self._wake)

    def _wake(self) -> None:
        # Called inside a machine call: only schedule (the machine is locked until it returns).
        # A call made through `call` drains its own outputs; anything else (a push or a
        # progress notification, even from a handler running inside a routing pass) is
        # drained on the next loop iteration.
        if not self._in_call and not self._scheduled:
            self._scheduled = True
            self.loop.call_soon(self._scheduled_drain)

    def _scheduled_drain(self) -> None:
        self._scheduled = False
        self.drain()

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, drain=True, **kwargs)`` (a machine input), its outputs routed in the
        same crossing; returns the input's own value. Without a loop (synchronous in-process
        use) the outputs stay queued for whoever polls the machine."""
        if self.loop is None:
            return fn(*args, **kwargs)
        self._in_call = True
        try:
            value, outputs, deadline = fn(*args, drain=True, **kwargs)
        finally:
            self._in_call = False
        self._route(outputs, deadline)
        return value

    def batch(self, inputs: Callable[[], Any]) -> None:
        """Runs several machine inputs, then routes their outputs in one drain."""
        self._in_call = True
        try:
            inputs()
        finally:
            self._in_call = False
        self.drain()

    def drain(self) -> None:
        """Routes every queued output (one ``ServerMachine.drain()``; without a loop, until
        handlers answering inline leave nothing queued)."""
        outputs, deadline = self.machine.drain()
        self._route(outputs, deadline)
        while self.loop is None and not self._routing:
            outputs, deadline = self.machine.drain()
            if not outputs:
                break
            self._route(outputs, deadline)

    def _route(self, outputs: list[Any], deadline: int | None) -> None:
        """Transmits to their sinks, events to the dispatcher, in order; outputs of answers
        given while routing (inline handlers) join the queue. Re-entrant calls fold into the
        running pass."""
        self._queue.extend(outputs)
        self._deadline = deadline
        if self._routing:
            return
        self._routing = True
        sinks = self.sinks
        queue = self._queue
        try:
            while queue:
                o = queue.popleft()
                if type(o) is Transmit:
                    sink = sinks.get(o.stream)
                    if sink is not None:
                        sink(o)
                else:
                    self.dispatch(o)
        finally:
            self._routing = False
        if self.observed is not None:
            self.observed(self.machine, now_ms())
        if self.after is not None:
            self.after()
        self._arm(self._deadline)

    def _arm(self, at: int | None) -> None:
        if at == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = at
        if at is not None and self.loop is not None:
            self._timer = self.loop.call_later(max(0, at - now_ms()) / 1000, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_at = None
        self.call(self._timeout, now_ms())

    def _timeout(self, now: int, *, drain: bool) -> tuple[None, list[Any], int | None]:
        self.machine.handle_timeout(now)
        outputs, deadline = self.machine.drain()
        return None, outputs, deadline
