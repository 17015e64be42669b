"""Interop: the official MCP Python SDK client (mcp==2.3.0) against the demo server served by
mcp-context-host's Streamable HTTP service (axum, `demo-server --http 0`).

Each test starts a fresh server process on a free loopback port; the SDK client connects to
its URL (modern 2026-07-28: `server/discover`, no session). Run by test.sh with DEMO_SERVER
set to the built binary.
"""

import os
import subprocess

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated
from mcp.shared.exceptions import MCPError

SERVER = os.environ.get("DEMO_SERVER", "target/debug/demo-server")
TEMPLATE = "notes://{project}/{id}"


def run(body, tick_ms: int = 0):
    proc = subprocess.Popen(
        [SERVER, "--http", "0", "--tick-ms", str(tick_ms)], stdout=subprocess.PIPE, text=True
    )
    try:
        url = proc.stdout.readline().strip().split(" ")[-1]
        assert url.startswith("http://127.0.0.1:"), url

        async def main():
            with anyio.fail_after(30):
                async with Client(url, read_timeout_seconds=10, cache=None) as c:
                    await body(c)

        anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_discover_over_http():
    async def body(c: Client):
        assert c.protocol_version == "2026-07-28"
        assert c.server_info is not None and c.server_info.name == "mcp-context-demo"
        assert c.server_capabilities.resources.subscribe

    run(body)


def test_search_notes_tool_over_http():
    async def body(c: Client):
        assert c.server_capabilities.tools is not None
        hit = await c.call_tool("search_notes", {"query": "stateless"})
        assert not hit.is_error and hit.content[0].text == "notes://apollo/7 Design notes"
        missing = await c.call_tool("search_notes", {})
        assert missing.is_error and missing.content[0].text == "Missing required argument: query"

    run(body)


def test_lists_reads_and_errors_over_http():
    async def body(c: Client):
        res = await c.list_resources()
        assert [str(r.uri) for r in res.resources] == ["notes://acme", "notes://apollo", "notes://readme"]
        tpl = await c.list_resource_templates()
        assert [t.uri_template for t in tpl.resource_templates] == [TEMPLATE]
        note = await c.read_resource("notes://acme/2")
        assert note.contents[0].text.startswith("# Incident 42")
        assert note.cache_scope == "private" and note.ttl_ms == 10_000
        with pytest.raises(MCPError) as err:
            await c.read_resource("notes://acme/99")
        assert err.value.error.code == -32602
        assert err.value.error.data == {"uri": "notes://acme/99"}

    run(body)


def test_prompt_and_completion_over_http():
    async def body(c: Client):
        got = await c.get_prompt("review_note", {"project": "apollo", "id": "7", "focus": "tone"})
        assert str(got.messages[1].content.resource.uri) == "notes://apollo/7"
        r = await c.complete(
            types.ResourceTemplateReference(type="ref/resource", uri=TEMPLATE),
            {"name": "id", "value": ""},
            context_arguments={"project": "acme"},
        )
        assert r.completion.values == ["1", "2"]

    run(body)


def test_listen_streams_updates_over_sse():
    async def body(c: Client):
        async with c.listen(resource_subscriptions=["notes://acme"]) as sub:
            assert list(sub.honored.resource_subscriptions or []) == ["notes://acme"]
            async for event in sub:
                assert isinstance(event, ResourceUpdated)
                assert event.uri == "notes://acme/1"
                break

    run(body, tick_ms=200)
