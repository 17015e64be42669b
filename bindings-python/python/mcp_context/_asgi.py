"""Streamable HTTP as an ASGI 3 application (internal; ``App.asgi()`` builds it).

One POST = one machine stream, through the core's HTTP entry point: ``http_head`` decides
before any body byte is read (path, ``Host``/``Origin``, method, content type, ``Accept``,
size), ``handle_http`` with the body (limit, headers against the body, then the machine).
This module never parses JSON-RPC. An answer that is not complete at once comes as the
stream's transmits: the first gives the status and headers (one JSON body, or a
``text/event-stream`` for a listen, framed by the core's ``sse_event``); an SSE stream gets
the core's ``SSE_KEEPALIVE`` comment every ``keepalive_s`` seconds while idle (default the
core's ``SSE_KEEPALIVE_INTERVAL_MS``), and a client that goes away closes the stream in the machine (its
subscriptions end, its pending request is cancelled).
"""

from __future__ import annotations

import asyncio
import time
import types
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._core import SSE_KEEPALIVE, SSE_KEEPALIVE_INTERVAL_MS, sse_event
from ._host import server_now_ms as now_ms

if TYPE_CHECKING:
    from .server import App


_Coroutine = types.CoroutineType

ENDED = object()
"""Put on a GET stream's sink: the stream ends cleanly (its session ended elsewhere)."""


def _decode_headers(scope: dict[str, Any]) -> dict[str, str]:
    """The request headers by name for ``authenticate`` (ASGI gives names in lower case);
    repeated ones joined. The machine gets the raw lines (the core maps them)."""
    raw = scope.get("headers", ())
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in raw}
    if len(headers) < len(raw):  # a repeated header: join its values, in order
        headers = {}
        for k, v in raw:
            name, value = k.decode("latin-1"), v.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers


def _encode(headers: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]


class AsgiApp:
    """The ASGI 3 callable. Run it with uvicorn/hypercorn, or mount it in Starlette/FastAPI
    (``Mount("/kb", app=app.asgi())`` serves ``/kb/mcp``)."""

    def __init__(
        self,
        app: App,
        *,
        path: str | None = "/mcp",
        authenticate: Callable[[dict[str, str]], int] | None = None,
        verifier: Any = None,
        allowed_hosts: list[str] | None = None,
        allowed_origins: list[str] | None = None,
        max_body: int | None = None,
        keepalive_s: float = SSE_KEEPALIVE_INTERVAL_MS / 1000,
    ) -> None:
        """``path``: the endpoint (``None``: any path, e.g. when a router chose it);
        ``authenticate(headers)`` gives the caller context (``int``, 0 = anonymous; lowercase
        header names; not consulted with a ``verifier``); ``verifier``: resolves the bearer
        token of a protected endpoint (``App.protect``) to a caller (``async verify(token)``,
        ``JwtVerifier``, ``IntrospectionVerifier``): the core reads the token and answers the
        metadata and every 401/403; ``allowed_hosts``/``allowed_origins``: accepted ``Host``/``Origin``
        names (default: localhost); ``max_body``: larger bodies get 413 unread (default
        4 MiB). These configure the app's machine (the core's ``HttpConfig``), so give them
        before the server starts."""
        self.app = app
        self.authenticate = authenticate or (lambda headers: 0)
        self.verifier = verifier
        self.keepalive_s = keepalive_s
        http: dict[str, Any] = {"http_path": path} if path is not None else {"http_any_path": True}
        for key, value in (("allowed_hosts", allowed_hosts), ("allowed_origins", allowed_origins), ("max_body", max_body)):
            if value is not None:
                http[key] = value
        app._config.update(http)
        self._next_stream = 1

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
        elif kind == "http":
            await self._http(scope, receive, send)

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

    async def _read_body(self, receive: Callable[..., Any], limit: int) -> bytes | None:
        """The body, or its first ``limit + 1`` bytes when longer (the core answers 413);
        ``None`` when the client went away."""
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return None
            chunk = msg.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            if size > limit or not msg.get("more_body", False):
                return b"".join(chunks)

    async def _http(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        headers = scope.get("headers", ())
        method = scope["method"]
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :] or "/"
        rt = self.app._runtime
        if rt is None or rt.host.loop is not asyncio.get_running_loop():
            rt = self.app._start()
        m = rt.machine
        # An unprotected endpoint has no door: no crossing is spent on it.
        gate = m.http_authenticate(method, path, headers) if self.app._protected else None
        scopes: int | None = None
        if gate is None:
            auth = 0 if self.verifier is not None else self.authenticate(_decode_headers(scope))
        elif isinstance(gate, str):
            admitted = await self._admit(m, gate)
            if not isinstance(admitted, tuple):
                await _send(send, admitted)
                return
            auth, scopes = admitted
        else:
            await _send(send, gate)  # the metadata document, or a 401
            return
        store = self.app._sessions
        session = replay_after = None
        if store is not None:  # a fleet's sessions: this instance takes the stored state first
            session, replay_after = m.session_head(headers)
            if session is not None:
                await store.refresh(session)
        check = m.http_head(method, path, headers)
        if type(check) is not int:
            await _send(send, check)  # refused before the body is read
            return
        body = await self._read_body(receive, check)
        if body is None:
            return
        sid = self._next_stream
        self._next_stream += 1
        stream = _Stream()
        rt.host.sinks[sid] = stream.put
        done = False
        try:
            client = scope.get("client")  # (host, port), or None (e.g. a Unix socket)
            peer = client[0] if client else None
            if rt.layers is not None and rt.layers.sinks:
                tp = next((v.decode("latin-1") for k, v in headers if k.lower() == b"traceparent"), None)
                if tp is not None:
                    rt.layers.trace_headers[sid] = tp
            answer = rt.http(method, path, headers, body, now_ms(), stream=sid, auth=auth, peer=peer, scopes=scopes)
            if answer is not None and type(answer) is _Coroutine:  # a middleware hook awaits
                answer = await answer
            if store is not None:
                await store.flush()  # stored before the answer goes
            if answer is not None and answer.event_stream:  # a legacy session's GET stream
                replay = await store.opened(session, replay_after, sid) if store is not None and session else []
                await send({"type": "http.response.start", "status": answer.status, "headers": _encode(answer.headers)})
                for event in replay:
                    await send({"type": "http.response.body", "body": event, "more_body": True})
                done = await self._events(stream, receive, send, sid if store is not None else None)
                return
            if answer is not None:  # complete now: a refusal, an error, 202, a stored result
                done = True
                await _send(send, answer)
                return
            items = stream.items
            if items and items[0].kind == "json":  # answered inline: no waiting, no watcher
                t = items.popleft()
                done = True
                await _respond(send, t.http_status, _encode(t.http_headers), t.bytes)
                return
            done = await self._answer(stream, receive, send)
        finally:
            rt.host.sinks.pop(sid, None)
            if not done:
                m.stream_closed(sid)
                rt.host.drain()

    async def _admit(self, m: Any, token: str) -> tuple[int, int] | Any:
        """The verifier's verdict on ``token``, then the core's checks: ``(auth, scopes)`` or
        the 401/403 ``HttpResponse``."""
        from ._auth import InvalidToken, caller_id

        if self.verifier is None:
            return m.http_reject("no verifier is configured")
        try:
            caller = await self.verifier.verify(token)
        except InvalidToken as e:
            return m.http_reject(str(e))
        admitted = m.http_admit(caller, int(time.time() * 1000))
        if not isinstance(admitted, int):
            return admitted
        auth = caller_id(caller)
        principals = self.app._principals
        if len(principals) >= 4096 and auth not in principals:
            principals.clear()  # bounded: a caller seen again is remembered again
        principals[auth] = caller
        return auth, admitted

    async def _answer(self, stream: _Stream, receive: Callable[..., Any], send: Callable[..., Any]) -> bool:
        """Sends the stream's transmits; ``False`` when the client went away first."""
        disconnected = asyncio.ensure_future(_disconnect(receive))
        try:
            first = await stream.next(disconnected, None)
            if first is None:
                return False
            if first.kind == "json":
                await _respond(send, first.http_status, _encode(first.http_headers), first.bytes)
                return True
            await send({"type": "http.response.start", "status": first.http_status, "headers": _encode(first.http_headers)})
            t = first
            while True:
                if t is False:
                    await send({"type": "http.response.body", "body": SSE_KEEPALIVE, "more_body": True})
                else:
                    end = t.end_of_stream
                    await send({"type": "http.response.body", "body": sse_event(t.bytes), "more_body": not end})
                    if end:
                        return True
                t = await stream.next(disconnected, self.keepalive_s)
                if t is None:
                    return False
        finally:
            disconnected.cancel()


    async def _events(self, stream: _Stream, receive: Callable[..., Any], send: Callable[..., Any], shared: int | None = None) -> bool:
        """A 2025-11-25 session's GET stream: the transmits as SSE events until the client
        goes away (``False``: the machine is told the stream closed). ``shared``: the stream's
        id when the fleet stores its events (``use_session_store``): each event carries the id
        the core mints and is stored before it is written."""
        disconnected = asyncio.ensure_future(_disconnect(receive))
        m = self.app._runtime.machine if shared is not None and self.app._runtime else None
        try:
            while True:
                t = await stream.next(disconnected, self.keepalive_s)
                if t is None:
                    return False
                if t is ENDED:  # the session ended on another instance of the fleet
                    await send({"type": "http.response.body", "body": b""})
                    return False
                if t is False:
                    body = SSE_KEEPALIVE
                elif m is not None and (ev := m.session_event(shared, t.bytes)) is not None:
                    await self.app._sessions.record(*ev)
                    body = ev[2]
                else:
                    body = sse_event(t.bytes)
                await send({"type": "http.response.body", "body": body, "more_body": True})
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


async def _send(send: Callable[..., Any], r: Any) -> None:
    """Writes a core ``HttpResponse``."""
    await _respond(send, r.status, _encode(r.headers), r.body)


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
