"""The stdio runner: newline-delimited JSON-RPC on stdin/stdout (internal).

stdin may be a pipe or socket (read by the loop), or a regular file or a terminal (read by
one thread, since the loop cannot poll those). The bytes read go through the core's line
splitter (``StdioLines``, bounded by the machine's ``max_line``): a longer line is answered
by the machine (-32600 with its id, ``handle_line_too_long``) and skipped, never buffered.
At end of input the runner waits for the handlers still running, then closes every
subscription gracefully.

With middleware whose ``before`` awaits (docs/operations.md "Middleware"), a request waits at
the gate in a task while the next lines are read: requests may pass one another (the machine
answers each by its id, in any order; the gate holds nothing in it), but no other message
passes a request still at the gate (a cancellation or a notification reaches the machine
after the requests read before it), nor does a request with the id of one still there.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import threading
from collections import deque
from types import CoroutineType
from typing import TYPE_CHECKING, Any

from ._core import StdioLines
from ._host import server_now_ms as now_ms

if TYPE_CHECKING:
    from .server import App

CHUNK = 64 << 10  # bytes per read


def _pollable(f: Any) -> bool:
    try:
        mode = os.fstat(f.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


async def _chunks_from_pipe(f: Any) -> asyncio.Queue[bytes | None]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), f)
    q: asyncio.Queue[bytes | None] = asyncio.Queue()

    async def pump() -> None:
        while True:
            chunk = await reader.read(CHUNK)
            if not chunk:
                break
            q.put_nowait(chunk)
        q.put_nowait(None)

    # The queue holds the task: the loop keeps only a weak reference to it.
    q.pump = loop.create_task(pump())  # type: ignore[attr-defined]
    return q


def _chunks_from_thread(f: Any) -> asyncio.Queue[bytes | None]:
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[bytes | None] = asyncio.Queue()
    read1 = getattr(f, "read1", f.read)

    def read() -> None:
        try:
            for chunk in iter(lambda: read1(CHUNK), b""):
                loop.call_soon_threadsafe(q.put_nowait, chunk)
        except (OSError, ValueError):
            pass
        loop.call_soon_threadsafe(q.put_nowait, None)

    threading.Thread(target=read, name="mcp-stdin", daemon=True).start()
    return q


class _Gate:
    """The order of one stdio stream's messages around requests whose ``before`` awaits."""

    __slots__ = ("rt", "auth", "ctx", "at_gate", "held", "idle")

    def __init__(self, rt: Any, auth: int) -> None:
        self.rt, self.auth, self.ctx = rt, auth, {"auth": auth}
        self.at_gate: dict[str, Any] = {}  # request id -> its task, while its hooks await
        self.held: deque[Any] = deque()  # lines that may not pass those requests yet
        self.idle: asyncio.Event | None = None

    def pass_(self, line: Any) -> bool:
        """Gives ``line`` to the gate or the machine; ``False`` (nothing done) when it must
        wait for the requests at the gate (the caller holds it: ``held``, in order, once
        anything is held)."""
        rt, auth = self.rt, self.auth
        m = rt.machine
        if type(line) is not bytes:  # LineTooLong: the machine answers it
            if self.at_gate:
                return False
            m.handle_line_too_long(line.head, now_ms(), auth=auth)
            return True
        now = now_ms()
        g = m.gate_request(line, now, auth=auth)
        if g is None:  # a notification, a response, malformed: straight to the machine
            if self.at_gate:
                return False
            rt.host.call(m.handle_message, line, now, auth=auth)
            return True
        if self.at_gate and g.request_id in self.at_gate:  # the same id is still there
            return False
        r = rt.gated(g, line, now, self.ctx)
        if type(r) is CoroutineType:  # a hook awaits
            rid = g.request_id
            self.at_gate[rid] = asyncio.get_running_loop().create_task(self._wait(rid, r))
        return True

    async def _wait(self, rid: str, pending: Any) -> None:
        try:
            await pending
        finally:
            self.at_gate.pop(rid, None)
            held = self.held
            while held and self.pass_(held[0]):
                held.popleft()
            if not self.at_gate and not held and self.idle is not None:
                self.idle.set()

    async def wait(self) -> None:
        """Until no request is at the gate and no line is held (end of input)."""
        while self.at_gate or self.held:
            self.idle = asyncio.Event()
            await self.idle.wait()
        self.idle = None


async def serve_stdio(app: App, *, auth: int = 0, stdin: Any = None, stdout: Any = None) -> None:
    """Serves one client until end of input."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    rt = app._start()
    m, host = rt.machine, rt.host
    pending: list[bytes] = []

    def sink(t: Any) -> None:
        pending.append(t.bytes)
        pending.append(b"\n")

    def flush() -> None:
        if pending:
            out.write(b"".join(pending))
            pending.clear()
            out.flush()

    host.sinks[0] = sink
    host.after = flush

    q = await _chunks_from_pipe(stdin) if _pollable(stdin) else _chunks_from_thread(stdin)
    handle_message = m.handle_message
    lines = StdioLines(m.max_line)
    gating = rt.gating  # middleware meets every request first (docs/rules.md §26.7)
    gate = _Gate(rt, auth)

    def handle(batch: list[Any]) -> None:
        if gating:
            held, pass_ = gate.held, gate.pass_
            for line in batch:
                if held or not pass_(line):
                    held.append(line)
            return
        for line in batch:
            if type(line) is bytes:
                handle_message(line, now_ms(), auth=auth)
            else:  # LineTooLong: the machine answers it
                m.handle_line_too_long(line.head, now_ms(), auth=auth)

    try:
        while True:
            chunk = await q.get()
            if chunk is None:
                rest = lines.finish()  # a last line without its newline
                if rest:
                    if gating:
                        handle(rest)
                    else:
                        host.batch(lambda: handle(rest))
                break
            # Take every chunk already read before draining: one write for a burst.
            batch: list[Any] = []
            while True:
                batch.extend(lines.feed(chunk))
                if q.empty():
                    break
                chunk = q.get_nowait()
                if chunk is None:
                    q.put_nowait(None)
                    break
            if gating:
                handle(batch)
            elif len(batch) == 1 and type(batch[0]) is bytes:
                host.call(handle_message, batch[0], now_ms(), auth=auth)  # one crossing
            elif batch:
                host.batch(lambda: handle(batch))
        await gate.wait()
        await rt.drain_tasks()
    finally:
        m.shutdown()
        host.drain()
        host.sinks.pop(0, None)
