"""The stdio runner: newline-delimited JSON-RPC on stdin/stdout (internal).

stdin may be a pipe or socket (read by the loop), or a regular file or a terminal (read by
one thread, since the loop cannot poll those). At end of input the runner waits for the
handlers still running, then closes every subscription gracefully.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import threading
from typing import TYPE_CHECKING, Any

from ._host import now_ms

if TYPE_CHECKING:
    from .server import App

MAX_LINE = 16 << 20  # one message; a longer line is dropped whole


def _pollable(f: Any) -> bool:
    try:
        mode = os.fstat(f.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


async def _lines_from_pipe(f: Any) -> asyncio.Queue[bytes | None]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), f)
    q: asyncio.Queue[bytes | None] = asyncio.Queue()

    async def pump() -> None:
        while True:
            try:
                line = await reader.readline()
            except ValueError:  # over MAX_LINE: skip to the next newline
                try:
                    await reader.readuntil(b"\n")
                except (asyncio.LimitOverrunError, asyncio.IncompleteReadError):
                    pass
                continue
            if not line:
                break
            q.put_nowait(line)
        q.put_nowait(None)

    # The queue holds the task: the loop keeps only a weak reference to it.
    q.pump = loop.create_task(pump())  # type: ignore[attr-defined]
    return q


def _lines_from_thread(f: Any) -> asyncio.Queue[bytes | None]:
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[bytes | None] = asyncio.Queue()

    def read() -> None:
        try:
            for line in iter(f.readline, b""):
                loop.call_soon_threadsafe(q.put_nowait, line)
        except (OSError, ValueError):
            pass
        loop.call_soon_threadsafe(q.put_nowait, None)

    threading.Thread(target=read, name="mcp-stdin", daemon=True).start()
    return q


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

    q = await _lines_from_pipe(stdin) if _pollable(stdin) else _lines_from_thread(stdin)
    handle_message = m.handle_message
    try:
        while True:
            line = await q.get()
            if line is None:
                break
            # Take every line already read before draining: one write for a burst.
            burst = []
            while True:
                if line.strip():
                    burst.append(line.rstrip(b"\r\n"))
                if q.empty():
                    break
                line = q.get_nowait()
                if line is None:
                    q.put_nowait(None)
                    break
            if len(burst) == 1:
                host.call(handle_message, burst[0], now_ms(), auth=auth)  # one crossing
            else:
                host.batch(lambda: [handle_message(b, now_ms(), auth=auth) for b in burst])
        await rt.drain_tasks()
    finally:
        m.shutdown()
        host.drain()
        host.sinks.pop(0, None)
