"""Interop: the official MCP Python SDK client (mcp==2.3.0) against the demo server over stdio.

The demo server (examples/demo-server) runs on the sans-IO machine of mcp-context. The SDK
client connects in its default "auto" mode: it probes `server/discover` at 2026-07-28 and, on
a DiscoverResult, speaks the modern protocol (no `initialize`). Each test starts a fresh
server process.

Run by test.sh with DEMO_SERVER set to the built binary.
"""

import os

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.subscriptions import ResourceUpdated
from mcp.shared.exceptions import MCPError

SERVER = os.environ.get("DEMO_SERVER", "target/debug/demo-server")
TEMPLATE = "notes://{project}/{id}"


def client(tick_ms: int = 0) -> Client:
    params = StdioServerParameters(command=SERVER, args=["--tick-ms", str(tick_ms)])
    return Client(params, read_timeout_seconds=10, cache=None)


def run(body, tick_ms: int = 0):
    async def main():
        with anyio.fail_after(30):
            async with client(tick_ms) as c:
                await body(c)

    anyio.run(main)


def test_discover_negotiates_the_modern_protocol():
    async def body(c: Client):
        assert c.protocol_version == "2026-07-28"
        assert c.server_info is not None and c.server_info.name == "mcp-context-demo"
        caps = c.server_capabilities
        assert caps.resources is not None and caps.resources.subscribe
        assert caps.prompts is not None and caps.completions is not None
        assert caps.tools is not None and caps.tools.list_changed
        assert "notes://" in (c.instructions or "")

    run(body)


def test_list_resources_and_templates_with_cache_hints():
    async def body(c: Client):
        res = await c.list_resources()
        uris = [str(r.uri) for r in res.resources]
        assert uris == ["notes://acme", "notes://apollo", "notes://readme"]
        assert res.ttl_ms is not None and res.cache_scope == "public"
        assert res.next_cursor is None
        tpl = await c.list_resource_templates()
        assert [t.uri_template for t in tpl.resource_templates] == [TEMPLATE]

    run(body)


def test_read_static_templated_and_missing():
    async def body(c: Client):
        readme = await c.read_resource("notes://readme")
        assert "notes://{project}/{id}" in readme.contents[0].text
        assert readme.cache_scope == "public" and readme.ttl_ms == 3_600_000
        index = await c.read_resource("notes://acme")
        assert "Incident 42" in index.contents[0].text
        note = await c.read_resource("notes://acme/2")
        assert note.contents[0].text.startswith("# Incident 42")
        assert note.contents[0].mime_type == "text/markdown"
        assert note.cache_scope == "private"
        with pytest.raises(MCPError) as err:
            await c.read_resource("notes://acme/99")
        assert err.value.error.code == -32602
        assert err.value.error.data == {"uri": "notes://acme/99"}

    run(body)


def test_prompts_list_and_get_with_an_embedded_note():
    async def body(c: Client):
        prompts = await c.list_prompts()
        [p] = prompts.prompts
        assert p.name == "review_note"
        assert [(a.name, a.required) for a in p.arguments] == [
            ("project", True),
            ("id", True),
            ("focus", False),
        ]
        got = await c.get_prompt("review_note", {"project": "apollo", "id": "7", "focus": "tone"})
        assert "tone" in got.messages[0].content.text
        embedded = got.messages[1].content
        assert embedded.type == "resource"
        assert str(embedded.resource.uri) == "notes://apollo/7"
        with pytest.raises(MCPError) as err:
            await c.get_prompt("review_note", {"project": "acme"})
        assert err.value.error.code == -32602

    run(body)


def test_completion_for_prompt_arguments_and_template_variables():
    async def body(c: Client):
        r = await c.complete(
            types.PromptReference(type="ref/prompt", name="review_note"),
            {"name": "project", "value": "a"},
        )
        assert r.completion.values == ["acme", "apollo"]
        assert r.completion.total == 2 and r.completion.has_more is False
        r = await c.complete(
            types.ResourceTemplateReference(type="ref/resource", uri=TEMPLATE),
            {"name": "id", "value": ""},
            context_arguments={"project": "acme"},
        )
        assert r.completion.values == ["1", "2"]

    run(body)


def test_search_notes_tool():
    """A tool on the core's registry of the Rust host (`App::tool`): listed, called, its
    missing argument and its own error results the model sees, an unknown tool an error."""

    async def body(c: Client):
        tools = await c.list_tools()
        assert [t.name for t in tools.tools] == ["search_notes"]
        assert tools.tools[0].input_schema["required"] == ["query"]
        hit = await c.call_tool("search_notes", {"query": "CERTIFICATE"})
        assert not hit.is_error and hit.content[0].text == "notes://acme/2 Incident 42"
        miss = await c.call_tool("search_notes", {"query": "nothing like this"})
        assert not miss.is_error and miss.content[0].text == "No note matches."
        bad = await c.call_tool("search_notes", {"query": 7})
        assert bad.is_error and bad.content[0].text == "query must be a string"
        missing = await c.call_tool("search_notes", {})
        assert missing.is_error and missing.content[0].text == "Missing required argument: query"
        with pytest.raises(MCPError) as err:
            await c.call_tool("nope", {})
        assert err.value.error.code == -32602

    run(body)


def test_listen_receives_updates_for_a_sub_resource():
    async def body(c: Client):
        async with c.listen(resource_subscriptions=["notes://acme"], tools_list_changed=True) as sub:
            assert list(sub.honored.resource_subscriptions or []) == ["notes://acme"]
            assert sub.honored.tools_list_changed
            async for event in sub:
                assert isinstance(event, ResourceUpdated)
                assert event.uri == "notes://acme/1"
                break
        note = await c.read_resource("notes://acme/1")
        assert "checked (tick" in note.contents[0].text

    run(body, tick_ms=200)
