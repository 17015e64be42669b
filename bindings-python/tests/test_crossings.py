"""How often the package layer crosses into the extension per request: an input and its
outputs are one call (``drain=True``), so a read costs 3 crossings over HTTP (``http_head``,
``handle_http``, ``respond_read``) and 2 over stdio; tools are the core's registry
(``tools/list``, unknown tools, tool errors as ``isError``)."""

import asyncio
import io
import json

import pytest

from mcp_context import _runtime
from mcp_context.server import App

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


class Counting:
    """A ``ServerMachine`` whose every method call is counted (one crossing each)."""

    def __init__(self, machine):
        self._m = machine
        self.calls: list[str] = []

    def __getattr__(self, name):
        attr = getattr(self._m, name)
        if not callable(attr):
            self.calls.append(name)
            return attr

        def call(*args, **kwargs):
            self.calls.append(name)
            return attr(*args, **kwargs)

        return call


@pytest.fixture
def counted(monkeypatch):
    made: list[Counting] = []
    real = _runtime.ServerMachine

    def factory(**config):
        m = Counting(real(**config))
        made.append(m)
        return m

    monkeypatch.setattr(_runtime, "ServerMachine", factory)
    return made


def build() -> App:
    app = App("t", "1.0")

    @app.resource("t://n/{n}")
    def number(n: str) -> str:
        return f"n={n}"

    @app.tool()
    def boom(reason: str) -> str:
        raise RuntimeError(f"broke: {reason}")

    return app


def body(i: int, method: str, params: dict) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": {**params, "_meta": META}}).encode()


async def post(asgi, payload: bytes, method: str, name: str | None = None) -> tuple[int, dict]:
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/mcp",
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"content-type", b"application/json"),
            (b"accept", b"application/json, text/event-stream"),
            (b"mcp-protocol-version", b"2026-07-28"),
            (b"mcp-method", method.encode()),
            (b"content-length", str(len(payload)).encode()),
        ]
        + ([(b"mcp-name", name.encode())] if name else []),
    }
    sent = [{"type": "http.request", "body": payload, "more_body": False}]
    out: list[dict] = []

    async def receive():
        if sent:
            return sent.pop()
        await asyncio.sleep(3600)

    async def send(msg):
        out.append(msg)

    await asyncio.wait_for(asgi(scope, receive, send), 10)
    status = next(m["status"] for m in out if m["type"] == "http.response.start")
    data = b"".join(m.get("body", b"") for m in out if m["type"] == "http.response.body")
    return status, json.loads(data)


def test_an_http_read_is_three_crossings_and_tools_are_the_cores(counted):
    async def main():
        asgi = build().asgi()
        status, v = await post(asgi, body(1, "resources/read", {"uri": "t://n/1"}), "resources/read", "t://n/1")
        assert status == 200 and v["result"]["contents"][0]["text"] == "n=1"
        m = counted[0]
        m.calls.clear()
        status, v = await post(asgi, body(2, "resources/read", {"uri": "t://n/2"}), "resources/read", "t://n/2")
        assert v["result"]["contents"][0]["text"] == "n=2"
        assert m.calls == ["http_head", "handle_http", "respond_read"], m.calls

        _, v = await post(asgi, body(3, "tools/list", {}), "tools/list")
        assert [t["name"] for t in v["result"]["tools"]] == ["boom"]
        assert v["result"]["cacheScope"] == "public" and v["result"]["ttlMs"] == 60_000
        _, v = await post(asgi, body(4, "tools/call", {"name": "boom", "arguments": {"reason": "x"}}), "tools/call", "boom")
        assert v["result"]["isError"] is True and v["result"]["content"][0]["text"] == "broke: x"
        _, v = await post(asgi, body(5, "tools/call", {"name": "nope"}), "tools/call", "nope")
        assert v["error"]["code"] == -32602

    asyncio.run(main())


def test_a_stdio_read_is_two_crossings(counted):
    app = build()
    line = body(1, "resources/read", {"uri": "t://n/7"}) + b"\n"
    out = io.BytesIO()
    asyncio.run(app.serve_stdio(stdin=io.BytesIO(line), stdout=out))
    v = json.loads(out.getvalue().splitlines()[0])
    assert v["result"]["contents"][0]["text"] == "n=7"
    calls = counted[0].calls
    # One request in, one answer in; then the end of input (shutdown and its drain).
    read = calls[calls.index("handle_message") : calls.index("shutdown")]
    assert read == ["handle_message", "respond_read"], calls
