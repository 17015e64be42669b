"""A round-robin front for a fleet: each HTTP request goes to the next instance, answers
(JSON or an SSE listen stream) are streamed back as they come.

    python examples/scale-out/front.py --port 8000 http://127.0.0.1:8001/mcp http://127.0.0.1:8002/mcp

An instance that refuses the connection is skipped (the request goes to the next one). No
stickiness is needed: MCP 2026-07-28 requests carry everything (docs/scale-out.md). A
production front (HAProxy, nginx, a cloud load balancer) does the same; it must not buffer
``text/event-stream`` answers.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
from typing import Any

import httpx
import uvicorn

HOP = {b"host", b"connection", b"keep-alive", b"transfer-encoding", b"content-length", b"upgrade"}


class Front:
    def __init__(self, upstreams: list[str]) -> None:
        self.upstreams = upstreams
        self.next = itertools.cycle(range(len(upstreams)))
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(None, connect=2), limits=httpx.Limits(max_connections=None))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await self.http.aclose()
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            msg = await receive()
            body += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in HOP]
        for _ in self.upstreams:
            base = self.upstreams[next(self.next)]
            upstream = httpx.URL(base)
            req = self.http.build_request(scope["method"], upstream, content=body, headers=[(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers] + [("host", upstream.netloc.decode())])
            try:
                r = await self.http.send(req, stream=True)
            except httpx.ConnectError:
                continue  # that instance is down: the next one
            relay = asyncio.ensure_future(self._relay(r, send))
            gone = asyncio.ensure_future(_disconnect(receive))
            try:
                # a client that goes away closes the upstream stream too (a listen ends there)
                await asyncio.wait({relay, gone}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                relay.cancel()
                gone.cancel()
                await r.aclose()
            if relay.done() and not relay.cancelled() and relay.exception() is not None:
                raise relay.exception()  # the server aborts the client's connection
            return
        await send({"type": "http.response.start", "status": 502, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})


    async def _relay(self, r: httpx.Response, send: Any) -> None:
        out = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in r.headers.multi_items() if k.encode().lower() not in HOP]
        await send({"type": "http.response.start", "status": r.status_code, "headers": out})
        # An instance that dies mid-stream raises here: the client's connection is then cut
        # too (no clean end), so the client sees the same broken stream it would see direct.
        async for chunk in r.aiter_raw():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})


async def _disconnect(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("upstreams", nargs="+")
    args = parser.parse_args()
    uvicorn.run(Front(args.upstreams), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
