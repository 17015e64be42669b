"""A host driving mcp_context's ClientMachine over stdio or Streamable HTTP (asyncio, stdlib only).

    python examples/python/host.py stdio -- python examples/python/notes_server.py
    python examples/python/host.py http http://127.0.0.1:8000/mcp

The machine holds every client rule (negotiation, ``_meta``, ids, pagination, MRTR,
subscriptions, the scope-aware cache); this file moves bytes and time and turns the machine's
events into awaitable results:

    host = await Host.stdio([sys.executable, "examples/python/notes_server.py"])
    result = await host.read("notes://note-1")          # the ReadResourceResult dict
    async with host.listen({"resourceSubscriptions": ["notes://note-3"]}) as sub:
        async for note in sub: ...

``NoStore`` is the host-side cache policy of exercise (c): URIs it names are always fetched
from the server and never answered from the client cache, whatever hints the server sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable

from mcp_context import (
    Acknowledged,
    ClientMachine,
    ClientNotice,
    ClientTransmit,
    CloseStream,
    Connected,
    Failed,
    McpError,
    Notified,
    SubscriptionEnded,
)


def now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class NoStore:
    """Host-side no-store policy: URIs matching any pattern are always fetched from the server
    and their results are dropped from the client cache as soon as they arrive
    (``ClientMachine.forget_read``), whatever the server's hints allowed."""

    def __init__(self, *patterns: str):
        self.patterns = [re.compile(p) for p in patterns]

    def __call__(self, uri: str) -> bool:
        return any(p.fullmatch(uri) for p in self.patterns)


class Subscription:
    """An open ``subscriptions/listen``: ``ack`` (the Acknowledged event), then ``Notified``
    events by async iteration, until the server ends it."""

    def __init__(self, host: Host, call: int):
        self.host = host
        self.call = call
        self.ack: Acknowledged | None = None
        self.acked = asyncio.get_running_loop().create_future()
        self.events: asyncio.Queue = asyncio.Queue()
        self.ended: SubscriptionEnded | None = None

    def __aiter__(self):
        return self

    async def __anext__(self) -> Notified:
        ev = await self.events.get()
        if isinstance(ev, SubscriptionEnded):
            self.ended = ev
            raise StopAsyncIteration
        return ev


class Host:
    """Owns a ClientMachine and a connection; every public method is a coroutine."""

    def __init__(self, machine: ClientMachine, send, close_stream=None, no_store: Callable[[str], bool] | None = None):
        self.machine = machine
        self._send = send
        self._close_stream = close_stream or (lambda id: None)
        self.no_store = no_store or (lambda uri: False)
        self.calls: dict[int, asyncio.Future] = {}
        self.subs: dict[int, Subscription] = {}
        self.notices: list[ClientNotice] = []
        self.connected: Connected | None = None
        self._timer: asyncio.Task | None = None
        self._wake = asyncio.Event()

    # -- connections ------------------------------------------------------------------

    @classmethod
    async def stdio(cls, command: list[str], **kw) -> Host:
        """Spawns ``command`` and speaks newline-delimited JSON-RPC on its stdin/stdout."""
        proc = await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=16 << 20
        )

        def send(t: ClientTransmit) -> None:
            proc.stdin.write(t.bytes + b"\n")

        host = cls(ClientMachine("mcp-context-python-host", "0.1.0", **kw.pop("machine", {})), send, **kw)
        host.process = proc

        async def read() -> None:
            while line := await proc.stdout.readline():
                host.feed(line.rstrip(b"\r\n"))
            host.machine.handle_close(now_ms())
            host.pump()

        host._reader = asyncio.create_task(read())
        host._start_timer()
        return host

    @classmethod
    async def http(cls, url: str, token: str | None = None, **kw) -> Host:
        """POSTs each message to ``url`` (Streamable HTTP); JSON or SSE answers."""
        loop = asyncio.get_running_loop()
        machine_kw = {"transport": "http", **kw.pop("machine", {})}
        open_responses: dict[int, object] = {}
        host: Host

        def post(t: ClientTransmit) -> None:  # in a worker thread
            headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
            if t.protocol_version:
                headers["MCP-Protocol-Version"] = t.protocol_version
            if t.method:
                headers["Mcp-Method"] = t.method
            if t.name is not None:
                headers["Mcp-Name"] = t.name
            if token:
                headers["Authorization"] = f"Bearer {token}"
            req = urllib.request.Request(url, data=t.bytes, headers=headers, method="POST")
            try:
                resp = urllib.request.urlopen(req, timeout=60)
            except urllib.error.HTTPError as e:
                body = e.read()
                if body:
                    loop.call_soon_threadsafe(host.feed, body)
                elif t.id is not None:
                    loop.call_soon_threadsafe(host.failed, t.id)
                return
            except OSError:
                if t.id is not None:
                    loop.call_soon_threadsafe(host.failed, t.id)
                return
            with resp:
                if t.id is not None:
                    open_responses[t.id] = resp
                try:
                    if resp.headers.get_content_type() == "text/event-stream":
                        for raw in resp:
                            line = raw.rstrip(b"\r\n")
                            if line.startswith(b"data:"):
                                loop.call_soon_threadsafe(host.feed, line[5:].strip())
                    else:
                        body = resp.read()
                        if body:
                            loop.call_soon_threadsafe(host.feed, body)
                except (OSError, ValueError, AttributeError):
                    pass  # the stream was closed (cancellation)
                finally:
                    open_responses.pop(t.id, None)

        def send(t: ClientTransmit) -> None:
            loop.run_in_executor(None, post, t)

        def close_stream(id: int) -> None:
            resp = open_responses.pop(id, None)
            if resp is not None:
                with contextlib.suppress(Exception):
                    resp.close()

        host = cls(ClientMachine("mcp-context-python-host", "0.1.0", **machine_kw), send, close_stream, **kw)
        host._start_timer()
        return host

    # -- the machine loop -----------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        self.machine.handle_message(data, now_ms())
        self.pump()

    def failed(self, id: int) -> None:
        self.machine.handle_request_failed(id, now_ms())
        self.pump()

    def pump(self) -> None:
        """The drain rule: poll until None, then re-arm the timer."""
        while (out := self.machine.poll_output()) is not None:
            if isinstance(out, ClientTransmit):
                self._send(out)
            elif isinstance(out, CloseStream):
                self._close_stream(out.id)
            elif isinstance(out, Connected):
                self.connected = out
            elif isinstance(out, Acknowledged):
                sub = self.subs.get(out.call)
                if sub is not None and not sub.acked.done():
                    sub.ack = out
                    sub.acked.set_result(out)
            elif isinstance(out, Notified):
                sub = self.subs.get(out.subscription)
                if sub is not None:
                    sub.events.put_nowait(out)
            elif isinstance(out, SubscriptionEnded):
                sub = self.subs.pop(out.call, None)
                if sub is not None:
                    if not sub.acked.done():
                        sub.acked.set_exception(McpError(f"subscription ended: {out.reason}"))
                    sub.events.put_nowait(out)
            elif isinstance(out, ClientNotice):
                self.notices.append(out)
            else:
                call = getattr(out, "call", None)
                fut = self.calls.pop(call, None)
                if fut is not None and not fut.done():
                    fut.set_result(out)
                sub = self.subs.pop(call, None)
                if sub is not None and isinstance(out, Failed) and not sub.acked.done():
                    sub.acked.set_exception(out.error)
        self._wake.set()

    def _start_timer(self) -> None:
        async def timer() -> None:
            while True:
                deadline = self.machine.poll_timeout()
                self._wake.clear()
                timeout = None if deadline is None else max(0, deadline - now_ms()) / 1000
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout)
                except TimeoutError:
                    self.machine.handle_timeout(now_ms())
                    self.pump()

        self._timer = asyncio.create_task(timer())

    async def _call(self, start: Callable[[ClientMachine, int], int]):
        call = start(self.machine, now_ms())
        fut = asyncio.get_running_loop().create_future()
        self.calls[call] = fut
        self.pump()
        return await fut

    async def request(self, start: Callable[[ClientMachine, int], int]) -> dict | list:
        """Runs one call; returns its result dict (or the list of pages), raises McpError."""
        ev = await self._call(start)
        if isinstance(ev, Failed):
            raise ev.error
        return ev.pages if hasattr(ev, "pages") else ev.result

    # -- the API --------------------------------------------------------------------------

    async def discover(self) -> dict:
        return await self.request(lambda c, now: c.discover(now, refresh=True))

    async def list_resources(self, all_pages: bool = True, cursor: str | None = None) -> list[dict]:
        return await self.request(lambda c, now: c.list_resources(now, all_pages=all_pages, cursor=cursor))

    async def read(self, uri: str) -> dict:
        """``resources/read``; answered from the cache when fresh, unless ``no_store(uri)``."""
        ev = await self.read_event(uri)
        if isinstance(ev, Failed):
            raise ev.error
        return ev.result

    async def read_event(self, uri: str):
        """``resources/read`` returning the raw event (``ClientReply.from_cache`` visible).
        A ``no_store`` URI is fetched from the server and its result is not kept."""
        no_store = self.no_store(uri)
        ev = await self._call(lambda c, now: c.read_resource(uri, now, refresh=no_store))
        if no_store:
            self.machine.forget_read(uri)
        return ev

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> dict:
        return await self.request(lambda c, now: c.get_prompt(name, now, arguments))

    @contextlib.asynccontextmanager
    async def listen(self, filter: dict):
        """Opens ``subscriptions/listen``; waits for the acknowledgement; cancels on exit."""
        call = self.machine.listen(filter, now_ms())
        sub = Subscription(self, call)
        self.subs[call] = sub
        self.pump()
        await sub.acked
        try:
            yield sub
        finally:
            if call in self.subs:
                with contextlib.suppress(Exception):
                    self.machine.cancel(call, now_ms(), "done")
                self.subs.pop(call, None)
                self.pump()

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        proc = getattr(self, "process", None)
        if proc is not None:
            proc.stdin.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 5)
            if proc.returncode is None:
                proc.kill()
            await self._reader


async def demo(host: Host) -> None:
    print("discover:", json.dumps((await host.discover())["capabilities"]))
    pages = await host.list_resources()
    print("resources:", [r["uri"] for p in pages for r in p["resources"]])
    print("read note-1:", (await host.read("notes://note-1"))["contents"][0]["text"].splitlines()[0])
    try:
        await host.read("notes://missing")
    except McpError as e:
        print("read missing:", e.code, e.data)
    await host.close()


async def main(argv: list[str]) -> None:
    if len(argv) >= 2 and argv[0] == "stdio":
        command = argv[2:] if argv[1] == "--" else argv[1:]
        await demo(await Host.stdio(command))
    elif len(argv) == 2 and argv[0] == "http":
        await demo(await Host.http(argv[1]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
