"""The official Python SDK client (mcp==2.3.0) forced to the 2025-11-25 handshake
(`mode="legacy"`) against the demo server over stdio: the server machine serves it through a
legacy session (docs/server-machine.md "Legacy sessions"): initialize, list, read, a missing
resource (-32002), prompts, completion, subscribe and receive an update, unsubscribe.

Run by test.sh with DEMO_SERVER set to the built binary.
"""

import os

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

SERVER = os.environ.get("DEMO_SERVER", "target/debug/demo-server")


def run(body, tick_ms: int = 0, handler=None):
    async def main():
        params = StdioServerParameters(command=SERVER, args=["--tick-ms", str(tick_ms)])
        with anyio.fail_after(30):
            async with Client(
                params, read_timeout_seconds=10, cache=None, mode="legacy", message_handler=handler
            ) as c:
                await body(c)

    anyio.run(main)


def test_legacy_handshake_and_catalogue():
    async def body(c: Client):
        assert c.protocol_version == "2025-11-25"
        assert c.server_info is not None and c.server_info.name == "mcp-context-demo"
        caps = c.server_capabilities
        assert caps.resources is not None and caps.resources.subscribe
        assert caps.prompts is not None and caps.completions is not None
        res = await c.list_resources()
        assert [str(r.uri) for r in res.resources] == ["notes://acme", "notes://apollo", "notes://readme"]
        # No cache hints on the wire (the modern answer says 60 s public): the SDK reads the
        # absence as 0 ms, private.
        assert (res.ttl_ms, res.cache_scope) == (0, "private")
        tpl = await c.list_resource_templates()
        assert [t.uri_template for t in tpl.resource_templates] == ["notes://{project}/{id}"]
        note = await c.read_resource("notes://acme/2")
        assert note.contents[0].text.startswith("# Incident 42")
        with pytest.raises(MCPError) as err:
            await c.read_resource("notes://acme/99")
        assert err.value.error.code == -32002
        prompts = await c.list_prompts()
        assert [p.name for p in prompts.prompts] == ["review_note"]
        got = await c.get_prompt("review_note", {"project": "acme", "id": "2"})
        assert got.messages[1].content.resource.uri == "notes://acme/2"
        done = await c.complete(types.PromptReference(type="ref/prompt", name="review_note"), {"name": "project", "value": "a"})
        assert "acme" in done.completion.values
        await c.send_ping()

    run(body)


def test_legacy_subscribe_receives_updates():
    updates: list[str] = []
    got = anyio.Event()

    async def handler(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(str(message.params.uri))
            got.set()

    async def body(c: Client):
        await c.subscribe_resource("notes://acme/1")
        with anyio.fail_after(5):
            await got.wait()
        assert updates[0] == "notes://acme/1"
        await c.unsubscribe_resource("notes://acme/1")
        seen = len(updates)
        await anyio.sleep(0.6)
        assert len(updates) == seen

    run(body, tick_ms=150, handler=handler)
