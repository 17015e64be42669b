"""Transports for a ServerMachine, standard library only: asyncio stdio and Streamable HTTP.

The machine holds every protocol rule; these loops only move bytes and time:

* ``serve_stdio(server, app)``: newline-delimited JSON-RPC on stdin/stdout (asyncio).
* ``serve_http(server, app, port=...)``: Streamable HTTP on 127.0.0.1 (``http.server``,
  one thread per request): ``Host``/``Origin`` and ``Mcp-*`` header checks through the core's
  ``check_origin``/``check_headers``, JSON responses, ``text/event-stream`` for
  ``subscriptions/listen``, 202 for notifications, 405 for GET and DELETE.

``app(server, event)`` answers the machine's events (``ReadResource``, ``GetPrompt``,
``Complete``, ``Cancelled``, ...) by calling ``server.respond_*``/``server.fail``; it runs
while the loop holds the machine, so it must not block.

Time is ``now_ms()``: integer milliseconds of a monotonic clock, the binding's convention.
"""

from __future__ import annotations

import asyncio
import json
import queue
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mcp_context import HttpError, ServerMachine, Transmit, check_headers, check_origin


def now_ms() -> int:
    """Milliseconds of a monotonic clock."""
    return time.monotonic_ns() // 1_000_000


# --- stdio -----------------------------------------------------------------------------


async def serve_stdio(server: ServerMachine, app, *, auth: int = 0, every=None) -> None:
    """Serves one client on stdin/stdout until stdin closes, then shuts down gracefully.
    ``every=(interval_ms, fn)`` calls ``fn(server)`` periodically (application pushes such as
    ``server.resource_updated``)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=16 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout.buffer

    def drain() -> None:
        while (o := server.poll_output()) is not None:
            if isinstance(o, Transmit):
                out.write(o.bytes + b"\n")
            else:
                app(server, o)
        out.flush()

    next_tick = None if every is None else now_ms() + every[0]
    while True:
        deadlines = [d for d in (server.poll_timeout(), next_tick) if d is not None]
        timeout = max(0, min(deadlines) - now_ms()) / 1000 if deadlines else None
        try:
            line = await asyncio.wait_for(reader.readline(), timeout)
        except TimeoutError:
            now = now_ms()
            if next_tick is not None and now >= next_tick:
                every[1](server)
                next_tick = now + every[0]
            server.handle_timeout(now)
            drain()
            continue
        if not line:
            break
        if line.strip():
            server.handle_message(line.rstrip(b"\r\n"), now_ms(), auth=auth)
            drain()
    server.shutdown()
    drain()


# --- Streamable HTTP -------------------------------------------------------------------


class HttpHost:
    """Owns the machine for the HTTP threads: one lock, one queue per response stream."""

    def __init__(self, server: ServerMachine, app, authenticate=None):
        self.server = server
        self.app = app
        self.authenticate = authenticate or (lambda headers: 0)
        self.lock = threading.Lock()
        self.streams: dict[int, queue.Queue] = {}
        self.next_stream = 1
        self.closed = threading.Event()

    def drain(self) -> None:
        """Routes transmits to their stream's queue and events to the app (lock held)."""
        while (o := self.server.poll_output()) is not None:
            if isinstance(o, Transmit):
                q = self.streams.get(o.stream)
                if q is not None:
                    q.put(o)
            else:
                self.app(self.server, o)

    def open_stream(self) -> tuple[int, queue.Queue]:
        with self.lock:
            sid = self.next_stream
            self.next_stream += 1
            q: queue.Queue = queue.Queue()
            self.streams[sid] = q
            return sid, q

    def close_stream(self, sid: int, aborted: bool) -> None:
        with self.lock:
            self.streams.pop(sid, None)
            if aborted:
                self.server.stream_closed(sid)
                self.drain()

    def call(self, fn, *args) -> object:
        """Runs ``fn(server, *args)`` under the lock, then drains (for app-side pushes)."""
        with self.lock:
            result = fn(self.server, *args)
            self.drain()
            return result

    def tick(self) -> None:
        """The timer: fires ``handle_timeout`` when the machine asks for it."""
        while not self.closed.wait(0.05):
            with self.lock:
                deadline = self.server.poll_timeout()
                if deadline is not None and deadline <= now_ms():
                    self.server.handle_timeout(now_ms())
                    self.drain()


def _body_fields(body: bytes) -> tuple[str, str, str | None] | None:
    """(protocol version, method, name) of a JSON-RPC request body, for the header check; None
    when the body is not a request the header rules apply to (the machine answers it)."""
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
        return None  # no _meta version: the machine answers -32602
    method = msg["method"]
    name = params.get("uri") if method == "resources/read" else params.get("name")
    return version, method, name if isinstance(name, str) else None


def _handler(host: HttpHost, path: str, allowed_hosts: list[str] | None):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def _plain(self, status: int, extra: dict[str, str] | None = None, body: bytes = b"") -> None:
            self.send_response(status)
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            if body:
                self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            self._plain(HTTPStatus.METHOD_NOT_ALLOWED, {"Allow": "POST"})

        do_DELETE = do_GET  # noqa: N815

        def do_POST(self) -> None:  # noqa: N802
            try:
                check_origin(self.headers.get("Host"), self.headers.get("Origin"), allowed_hosts)
            except HttpError as e:
                self._plain(e.status)
                return
            if self.path.split("?")[0] != path:
                self._plain(HTTPStatus.NOT_FOUND)
                return
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            fields = _body_fields(body)
            if fields is not None:
                version, method, name = fields
                try:
                    check_headers(
                        header_protocol_version=self.headers.get("MCP-Protocol-Version"),
                        header_method=self.headers.get("Mcp-Method"),
                        header_name=self.headers.get("Mcp-Name"),
                        protocol_version=version,
                        method=method,
                        name=name,
                    )
                except HttpError as e:
                    msg = json.loads(body)
                    err = {"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": e.code, "message": str(e)}}
                    self._plain(e.status, body=json.dumps(err).encode())
                    return
            auth = host.authenticate(self.headers)
            sid, q = host.open_stream()
            aborted = True
            try:
                with host.lock:
                    kind = host.server.handle_message(body, now_ms(), stream=sid, auth=auth, transport="http")
                    host.drain()
                if kind in ("notification", "response"):
                    self._plain(HTTPStatus.ACCEPTED)
                    aborted = False
                    return
                self._respond(q)
                aborted = False
            except (BrokenPipeError, ConnectionResetError):
                pass
            finally:
                host.close_stream(sid, aborted)

        def _respond(self, q: queue.Queue) -> None:
            first: Transmit = q.get()
            if first.kind == "json":
                self._plain(first.http_status, body=first.bytes)
                return
            self.send_response(first.http_status)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            t = first
            while True:
                self._chunk(b"data: " + t.bytes + b"\n\n")
                if t.end_of_stream:
                    break
                t = q.get()
            self._chunk(b"")

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

    return Handler


def serve_http(
    server: ServerMachine,
    app,
    *,
    port: int = 8000,
    path: str = "/mcp",
    authenticate=None,
    allowed_hosts: list[str] | None = None,
    ready=None,
) -> None:
    """Serves Streamable HTTP on 127.0.0.1:``port`` until interrupted. ``authenticate(headers)``
    resolves the caller context (an ``int``, 0 = anonymous). ``ready(httpd, host)`` is called
    once listening (e.g. to print the port or push updates with ``host.call``)."""
    host = HttpHost(server, app, authenticate)
    httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(host, path, allowed_hosts))
    httpd.daemon_threads = True
    timer = threading.Thread(target=host.tick, daemon=True)
    timer.start()
    if ready is not None:
        ready(httpd, host)
    try:
        httpd.serve_forever(poll_interval=0.1)
    finally:
        host.closed.set()
        with host.lock:
            server.shutdown()
            host.drain()
        httpd.server_close()
