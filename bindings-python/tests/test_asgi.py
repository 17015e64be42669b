"""The ASGI app under uvicorn (a subprocess) with raw HTTP: 200 concurrent listen streams
acknowledged, then dropped, with the server still answering; a 64 MiB body refused with 413
before it is read; head checks; mounted in Starlette."""

import asyncio
import json
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from test_aio import FIXTURE, http_server

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def headers(method: str, name: str | None = None) -> dict[str, str]:
    h = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
    }
    if name is not None:
        h["mcp-name"] = name
    return h


def read_body(uri: str, id: int = 1) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri, "_meta": META}}).encode()


def test_200_concurrent_listens_acknowledged_then_dropped():
    with http_server(FIXTURE) as url:

        async def main():
            limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
            async with httpx.AsyncClient(timeout=20, limits=limits) as http:

                async def listen(i: int) -> dict:
                    body = {"jsonrpc": "2.0", "id": i, "method": "subscriptions/listen", "params": {"_meta": META, "notifications": {"resourceSubscriptions": ["kb://acme/horloge"]}}}
                    async with http.stream("POST", url, content=json.dumps(body), headers=headers("subscriptions/listen")) as r:
                        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
                        async for line in r.aiter_lines():
                            if line.startswith("data: "):
                                return json.loads(line[6:])  # the acknowledgement; then drop the stream
                    raise AssertionError("stream ended before the acknowledgement")

                acks = await asyncio.gather(*(listen(i) for i in range(200)))
                assert len(acks) == 200
                assert all(a["method"] == "notifications/subscriptions/acknowledged" for a in acks), acks[0]
                # every stream is gone; the server still answers
                r = await http.post(url, content=read_body("kb://acme/charte-reponse"), headers=headers("resources/read", "kb://acme/charte-reponse"))
                assert r.status_code == 200 and json.loads(r.content)["result"]["contents"][0]["text"].startswith("# Charte")

        asyncio.run(asyncio.wait_for(main(), 60))


def raw_exchange(url: str, head: str, body: bytes = b"") -> tuple[int, bytes]:
    u = urlsplit(url)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(head.encode() + b"\r\n" + body)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


def test_64_mib_body_refused_with_413_unread():
    with http_server(FIXTURE) as url:
        path = urlsplit(url).path
        t0 = time.monotonic()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {64 << 20}\r\n"
        )
        # Nothing of the body is sent: the answer can only come from the head.
        status, _ = raw_exchange(url, head)
        assert status == 413
        assert time.monotonic() - t0 < 5


@pytest.mark.parametrize(
    ("method", "ctype", "status"),
    [("GET", "application/json", 405), ("DELETE", "application/json", 405), ("POST", "text/plain", 415)],
)
def test_head_checks(method, ctype, status):
    with http_server(FIXTURE) as url:
        path = urlsplit(url).path
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\nContent-Length: 2\r\n"
        got, _ = raw_exchange(url, head, b"{}")
        assert got == status


def test_mounted_in_starlette():
    starlette = pytest.importorskip("starlette")  # noqa: F841
    from starlette.applications import Starlette
    from starlette.routing import Mount

    sys.path.insert(0, str(Path(FIXTURE).parent))
    from app_fixture import app

    outer = Starlette(routes=[Mount("/kb", app=app.asgi())])

    async def main():
        transport = httpx.ASGITransport(app=outer)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            r = await http.post("/kb/mcp", content=read_body("kb://acme/fiches/changement-adresse"), headers=headers("resources/read", "kb://acme/fiches/changement-adresse"))
            assert r.status_code == 200, r.text
            assert json.loads(r.content)["result"]["contents"][0]["text"].startswith("# Changer")

    asyncio.run(main())
