"""The official SDK client (mcp==2.3.0) forced to the 2025-11-25 handshake (``mode="legacy"``)
against ``App``, over stdio and over the ASGI app under uvicorn: the core's legacy sessions
(docs/server-machine.md "Legacy sessions"). Over HTTP this is a real ``Mcp-Session-Id``
session: ``initialize`` opens it, the GET event stream carries the subscribed updates."""

import contextlib
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp")

import mcp_types as types  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "app_fixture.py"
TICK = "kb://acme/horloge"


@contextlib.contextmanager
def http_fixture():
    proc = subprocess.Popen([sys.executable, str(FIXTURE), "--http", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(10)


def run(target) -> None:
    updates: list[str] = []
    got = anyio.Event()

    async def handler(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(str(message.params.uri))
            got.set()

    async def main():
        with anyio.fail_after(30):
            async with Client(target, read_timeout_seconds=10, cache=None, mode="legacy", message_handler=handler) as c:
                assert c.protocol_version == "2025-11-25"
                assert c.server_info.name == "acme-kb"
                listed = await c.list_resources()
                assert "kb://acme/charte-reponse" in [str(r.uri) for r in listed.resources]
                charter = await c.read_resource("kb://acme/charte-reponse")
                assert charter.contents[0].text.startswith("# Charte")
                called = await c.call_tool("chercher", {"texte": "déclarer"})
                assert called.content[0].text == "declarer-sinistre-auto, declarer-degat-des-eaux"
                with pytest.raises(MCPError) as err:
                    await c.read_resource("kb://acme/inconnu")
                assert err.value.error.code == -32002
                await c.send_ping()
                await c.subscribe_resource(TICK)
                with anyio.fail_after(5):
                    await got.wait()
                assert updates[0] == TICK
                await c.unsubscribe_resource(TICK)

    anyio.run(main)


def test_legacy_sdk_client_over_stdio():
    run(StdioServerParameters(command=sys.executable, args=[str(FIXTURE)]))


def test_legacy_sdk_client_over_asgi_session():
    with http_fixture() as url:
        run(url)
