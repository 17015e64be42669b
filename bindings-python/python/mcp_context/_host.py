"""The one owner of a ``ServerMachine`` on an asyncio loop (internal).

Every machine call happens on the loop's thread; after each input the host drains
``poll_output()`` until ``None``: transmits go to the sink registered for their stream, events
to the application's dispatcher. Handler tasks answer through ``respond_*`` and drain at once,
so an answer given after async work is on the wire in the same loop iteration (the machine's
output-ready callback, when the extension has one, schedules the same drain).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ._core import ServerMachine, Transmit


def now_ms() -> int:
    """Milliseconds of a monotonic clock (the binding's time convention)."""
    return time.monotonic_ns() // 1_000_000


class MachineHost:
    """Drains one machine: ``sinks[stream](transmit)`` and ``dispatch(event)``."""

    def __init__(self, machine: ServerMachine, dispatch: Callable[[Any], None]) -> None:
        self.machine = machine
        self.dispatch = dispatch
        self.sinks: dict[int, Callable[[Transmit], None]] = {}
        self._draining = False
        self._again = False
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
        if not self._draining and not self._scheduled:
            self._scheduled = True
            self.loop.call_soon(self._scheduled_drain)

    def _scheduled_drain(self) -> None:
        self._scheduled = False
        self.drain()

    def drain(self) -> None:
        """Routes every queued output; re-entrant calls fold into the running drain."""
        if self._draining:
            self._again = True
            return
        self._draining = True
        m = self.machine
        sinks = self.sinks
        try:
            while True:
                self._again = False
                while (o := m.poll_output()) is not None:
                    if type(o) is Transmit:
                        sink = sinks.get(o.stream)
                        if sink is not None:
                            sink(o)
                    else:
                        self.dispatch(o)
                if not self._again:
                    break
        finally:
            self._draining = False
        self._arm()

    def _arm(self) -> None:
        at = self.machine.poll_timeout()
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
        self.machine.handle_timeout(now_ms())
        self.drain()
