"""Interop: the official MCP Python SDK client (mcp==2.3.0) against the example notes server,
which runs on mcp_context's ServerMachine, over stdio and Streamable HTTP.

Skipped when `mcp` is not installed (test.sh installs mcp==2.3.0 in the binding's venv)."""

import anyio
import pytest

mcp = pytest.importorskip("mcp")

import mcp_types as types  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.subscriptions import ResourceUpdated  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

from servers import http_server, stdio_command  # noqa: E402

TEMPLATE = "notes://projects/{project}/notes/{id}"


def stdio_client(*args: str) -> Client:
    cmd = stdio_command(*args)
    return Client(StdioServerParameters(command=cmd[0], args=cmd[1:]), read_timeout_seconds=10, cache=None)


def run(make_client, body):
    async def main():
        with anyio.fail_after(30):
            async with make_client() as c:
                await body(c)

    anyio.run(main)


async def core_session(c: Client) -> None:
    assert c.protocol_version == "2026-07-28"
    assert c.server_info is not None and c.server_info.name == "notes-server"
    caps = c.server_capabilities
    assert caps.resources.subscribe and caps.resources.list_changed
    assert caps.prompts.list_changed and caps.tools is None
    # (b) pages of three, deterministic order
    seen, cursor = [], None
    while True:
        page = await c.list_resources(cursor=cursor)
        seen += [str(r.uri) for r in page.resources]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [f"notes://note-{i}" for i in range(1, 8)]
    note = await c.read_resource("notes://note-1")
    assert note.contents[0].text.startswith("# Welcome")
    assert (note.ttl_ms, note.cache_scope) == (60000, "public")
    with pytest.raises(MCPError) as err:
        await c.read_resource("notes://missing")
    assert err.value.error.code == -32602 and err.value.error.data == {"uri": "notes://missing"}
    # (a) invalid variables refused
    with pytest.raises(MCPError) as err:
        await c.read_resource("notes://projects/Apollo/notes/1")
    assert err.value.error.code == -32602
    good = await c.read_resource("notes://projects/apollo/notes/1")
    assert good.contents[0].text.startswith("# Apollo 1")
    templates = await c.list_resource_templates()
    assert [t.uri_template for t in templates.resource_templates] == [TEMPLATE]
    # (c) the payroll note: private, ttl 0
    payroll = await c.read_resource("notes://note-7")
    assert (payroll.ttl_ms, payroll.cache_scope) == (0, "private")
    # the prompt
    got = await c.get_prompt("review_note", {"uri": "notes://note-2"})
    assert got.messages[1].content.type == "resource"
    assert str(got.messages[1].content.resource.uri) == "notes://note-2"
    with pytest.raises(MCPError) as err:
        await c.get_prompt("review_note", {})
    assert err.value.error.code == -32602
    r = await c.complete(types.ResourceTemplateReference(type="ref/resource", uri=TEMPLATE), {"name": "project", "value": "ap"})
    assert r.completion.values == ["apollo"]


async def listens(c: Client) -> None:
    # (d) no promptsListChanged: only resource events, although the server ticks both.
    async with c.listen(resource_subscriptions=["notes://note-3"]) as sub:
        assert list(sub.honored.resource_subscriptions or []) == ["notes://note-3"]
        n = 0
        async for event in sub:
            assert isinstance(event, ResourceUpdated) and event.uri == "notes://note-3"
            n += 1
            if n == 3:
                break
    # (e) two concurrent listens each get their own events.
    async with c.listen(resource_subscriptions=["notes://note-3"]) as a, c.listen(prompts_list_changed=True) as b:
        ea = await anext(aiter(a))
        eb = await anext(aiter(b))
        assert isinstance(ea, ResourceUpdated)
        assert type(eb).__name__ == "PromptsListChanged"


def test_sdk_over_stdio():
    run(lambda: stdio_client("--tick-ms", "50"), core_session)


def test_sdk_listens_over_stdio():
    run(lambda: stdio_client("--tick-ms", "50"), listens)


def test_sdk_over_http():
    with http_server("--tick-ms", "50") as url:
        run(lambda: Client(url, read_timeout_seconds=10, cache=None), core_session)


def test_sdk_listens_over_http():
    with http_server("--tick-ms", "50") as url:
        run(lambda: Client(url, read_timeout_seconds=10, cache=None), listens)


def test_sdk_subjects_over_stdio():
    """(f) with the SDK: the diary is readable with alice's token only, directly or via the prompt."""

    async def as_alice(c: Client) -> None:
        diary = await c.read_resource("notes://note-6")
        assert diary.contents[0].text == "Dear diary..." and diary.cache_scope == "private"

    async def as_bob(c: Client) -> None:
        with pytest.raises(MCPError):
            await c.read_resource("notes://note-6")
        with pytest.raises(MCPError):
            await c.get_prompt("review_note", {"uri": "notes://note-6"})

    run(lambda: stdio_client("--token", "alice-token"), as_alice)
    run(lambda: stdio_client("--token", "bob-token"), as_bob)
