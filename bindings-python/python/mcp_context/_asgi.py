"""Streamable HTTP as an ASGI 3 application (internal; ``App.asgi()`` builds it).

One POST = one machine stream. The head is checked before any body byte is read (size,
content type, method, path, ``Host``/``Origin``); the body is read up to the limit; the
machine answers. The first transmit of a stream gives the status and whether the answer is
one JSON body or a ``text/event-stream`` (a listen); an SSE stream gets a comment line every
``keepalive_s`` seconds while idle, and a client that goes away closes the stream in the
machine (its subscriptions end, its pending request is cancelled).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._core import HttpError, check_headers, check_origin
from ._host import now_ms

if TYPE_CHECKING:
    from .server import App

JSON = [(b"content-type", b"application/json")]


def _decode_headers(scope: dict[str, Any]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for k, v in scope.get("headers", ()):
        name = k.decode("latin-1").lower()
        value = v.decode("latin-1")
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers


class _Refusal(Exception):
    def __init__(self, status: int, headers: list[tuple[bytes, bytes]] | None = None, body: bytes = b"") -> None:
        self.status = status
        self.headers = headers or []
        self.body = body


def _body_fields(body: bytes) -> tuple[str, str, str | None, Any] | None:
    """(protocol version, method, name, id) of a request body, for the header check until the
    core's HTTP entry point replaces it; ``None``: the machine answers the body as it is."""
    try:
        msg = json.loads(body)
    except ValueError:
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
        return None
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if not isinstance(version, str):
        return None
    method = msg["method"]
    name = params.get("uri") if method == "resources/read" else params.get("name")
    return version, method, name if isinstance(name, str) else None, msg.get("id")


class AsgiApp:
    """The ASGI 3 callable. Mount it in Starlette/FastAPI (``Mount("/", app=...)``) or run it
    with uvicorn/hypercorn directly."""

    def __init__(
        self,
        app: App,
        *,
        path: str | None = "/mcp",
        authenticate: Callable[[dict[str, str]], int] | None = None,
        allowed_hosts: list[str] | None = None,
        max_body: int = 4 << 20,
        keepalive_s: float = 15.0,
    ) -> None:
        """``path``: the endpoint (``None``: any path); ``authenticate(headers)`` gives the
        caller context (``int``, 0 = anonymous; lowercase header names); ``allowed_hosts``:
        ``Host``/``Origin`` names accepted besides localhost; ``max_body``: larger bodies get
        413 unread."""
        self.app = app
        self.path = path
        self.authenticate = authenticate or (lambda headers: 0)
        self.allowed_hosts = allowed_hosts
        self.max_body = max_body
        self.keepalive_s = keepalive_s
        self._next_stream = 1

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
            return
        if kind != "http":
            return
        try:
            await self._http(scope, receive, send)
        except _Refusal as r:
            await _respond(send, r.status, r.headers, r.body)

    async def _lifespan(self, receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        while True:
            msg = await receive()
            if msg["type"] == "lifespan.startup":
                self.app._start()
                await send({"type": "lifespan.startup.complete"})
            elif msg["type"] == "lifespan.shutdown":
                rt = self.app._runtime
                if rt is not None:
                    rt.machine.shutdown()
                    rt.host.drain()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _check_head(self, scope: dict[str, Any], headers: dict[str, str]) -> int:
        """The head rules, before any body byte; returns the declared length (or -1)."""
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        if self.path is not None and path.rstrip("/") != self.path.rstrip("/"):
            raise _Refusal(404)
        if scope["method"] != "POST":
            raise _Refusal(405, [(b"allow", b"POST")])
        try:
            check_origin(headers.get("host"), headers.get("origin"), self.allowed_hosts)
        except HttpError as e:
            raise _Refusal(e.status) from None
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise _Refusal(415)
        accept = headers.get("accept")
        if accept is not None and not any(
            a.split(";")[0].strip() in ("application/json", "text/event-stream", "*/*", "application/*", "text/*")
            for a in accept.split(",")
        ):
            raise _Refusal(406)
        length = headers.get("content-length")
        if length is not None:
            try:
                n = int(length)
            except ValueError:
                raise _Refusal(400) from None
            if n > self.max_body:
                raise _Refusal(413)
            return n
        return -1

    async def _read_body(self, receive: Callable[..., Any]) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return None
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise _Refusal(413)
            chunks.append(chunk)
            if not msg.get("more_body", False):
                return b"".join(chunks)

    async def _http(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        headers = _decode_headers(scope)
        self._check_head(scope, headers)
        body = await self._read_body(receive)
        if body is None:
            return
        fields = _body_fields(body)
        if fields is not None:
            version, method, name, rid = fields
            try:
                check_headers(
                    header_protocol_version=headers.get("mcp-protocol-version"),
                    header_method=headers.get("mcp-method"),
                    header_name=headers.get("mcp-name"),
                    protocol_version=version,
                    method=method,
                    name=name,
                )
            except HttpError as e:
                err = {"jsonrpc": "2.0", "id": rid, "error": {"code": e.code, "message": str(e)}}
                raise _Refusal(e.status, JSON, json.dumps(err).encode()) from None
        rt = self.app._start()
        auth = self.authenticate(headers)
        sid = self._next_stream
        self._next_stream += 1
        stream = _Stream()
        rt.host.sinks[sid] = stream.put
        done = False
        try:
            kind = rt.machine.handle_message(body, now_ms(), stream=sid, auth=auth, transport="http")
            rt.host.drain()
            if kind in ("notification", "response"):
                done = True
                await _respond(send, 202)
                return
            items = stream.items
            if items and items[0].kind == "json":  # answered at once: no waiting, no watcher
                t = items.popleft()
                done = True
                await _respond(send, t.http_status, JSON, t.bytes)
                return
            done = await self._answer(stream, receive, send)
        finally:
            rt.host.sinks.pop(sid, None)
            if not done:
                rt.machine.stream_closed(sid)
                rt.host.drain()

    async def _answer(self, stream: _Stream, receive: Callable[..., Any], send: Callable[..., Any]) -> bool:
        """Sends the stream's transmits; ``False`` when the client went away first."""
        disconnected = asyncio.ensure_future(_disconnect(receive))
        try:
            first = await stream.next(disconnected, None)
            if first is None:
                return False
            if first.kind == "json":
                await _respond(send, first.http_status, JSON, first.bytes)
                return True
            await send(
                {
                    "type": "http.response.start",
                    "status": first.http_status,
                    "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-store")],
                }
            )
            t = first
            while True:
                if t is False:
                    await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                else:
                    end = t.end_of_stream
                    await send({"type": "http.response.body", "body": b"data: " + t.bytes + b"\n\n", "more_body": not end})
                    if end:
                        return True
                t = await stream.next(disconnected, self.keepalive_s)
                if t is None:
                    return False
        finally:
            disconnected.cancel()


class _Stream:
    """The transmits of one response stream, in order; ``next`` waits for one."""

    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: deque[Any] = deque()
        self.waiter: asyncio.Future[None] | None = None

    def put(self, t: Any) -> None:
        self.items.append(t)
        w = self.waiter
        if w is not None and not w.done():
            w.set_result(None)

    async def next(self, disconnected: asyncio.Future[None], timeout: float | None) -> Any:
        """The next transmit; ``None`` once the client is gone; ``False`` after ``timeout`` idle."""
        if self.items:
            return self.items.popleft()
        self.waiter = w = asyncio.get_running_loop().create_future()
        done, _ = await asyncio.wait({w, disconnected}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        self.waiter = None
        if self.items:
            return self.items.popleft()
        return None if disconnected in done else False


async def _disconnect(receive: Callable[..., Any]) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _respond(send: Callable[..., Any], status: int, headers: list[tuple[bytes, bytes]] | None = None, body: bytes = b"") -> None:
    await send({"type": "http.response.start", "status": status, "headers": [*(headers or []), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def run_uvicorn(asgi: Any, host: str, port: int, ready: Callable[[int], None] | None) -> None:
    """Serves ``asgi`` on uvicorn until interrupted; ``ready(port)`` once listening."""
    import socket

    import uvicorn

    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say TCP, and
    # without it every answer written in two parts waits for a delayed ACK (~40 ms).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    config = uvicorn.Config(asgi, log_level="warning", lifespan="on", timeout_keep_alive=30)
    server = uvicorn.Server(config)
    if ready is not None:
        ready(sock.getsockname()[1])
    server.run(sockets=[sock])
