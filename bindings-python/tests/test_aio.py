"""``mcp_context.aio.Client`` against the official SDK's server (mcp==2.3.0's MCPServer, over
stdio and Streamable HTTP under uvicorn) and against ``App`` (listen, cache, errors)."""

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp_context import McpError  # noqa: E402
from mcp_context.aio import Client  # noqa: E402

TESTS = Path(__file__).resolve().parent
SDK_KB = TESTS / "sdk_kb_server.py"
FIXTURE = TESTS / "app_fixture.py"


@contextlib.contextmanager
def http_server(script: Path):
    proc = subprocess.Popen([sys.executable, str(script), "--http", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(10)


def run(coro):
    asyncio.run(asyncio.wait_for(coro, 30))


async def kb_session(c: Client) -> None:
    resources = await c.list_resources()
    assert "kb://acme/fiches/changement-adresse" in [r["uri"] for r in resources]
    charter = await c.read_resource("kb://acme/charte-reponse")
    assert charter["contents"][0]["text"].startswith("# Charte")
    sheet = await c.read_resource("kb://acme/fiches/resiliation-contrat")
    assert sheet["contents"][0]["text"].startswith("# Résilier")
    with pytest.raises(McpError) as err:
        await c.read_resource("kb://acme/fiches/inconnue")
    assert err.value.code == -32602
    templates = await c.list_resource_templates()
    assert [t["uriTemplate"] for t in templates if t["name"] == "fiche"] == ["kb://acme/fiches/{slug}"]
    prompts = await c.list_prompts()
    assert "repondre_ticket" in [p["name"] for p in prompts]
    got = await c.get_prompt("repondre_ticket", {"ticketId": "T-1", "ton": "chaleureux"})
    assert got["messages"][0]["content"]["type"] == "resource"
    comp = await c.complete({"type": "ref/resource", "uri": "kb://acme/fiches/{slug}"}, {"name": "slug", "value": "res"})
    assert comp["values"] == ["resiliation-contrat"]


def test_aio_client_against_official_sdk_stdio():
    async def main():
        # The discover probe's timer runs while the SDK server imports (seconds on a loaded
        # machine): a generous probe timeout keeps the era modern.
        async with Client.stdio([sys.executable, str(SDK_KB)], probe_timeout_ms=20_000) as c:
            await kb_session(c)

    run(main())


def test_aio_client_against_official_sdk_http():
    with http_server(SDK_KB) as url:

        async def main():
            async with Client.http(url) as c:
                await kb_session(c)

        run(main())


def test_aio_client_against_app_listen_and_cache():
    async def body(c: Client) -> None:
        await kb_session(c)
        first = await c.read_resource("kb://acme/charte-reponse")
        assert c.machine.read_cached("kb://acme/charte-reponse", __import__("time").monotonic_ns() // 1_000_000) == first
        async with c.listen(resource_subscriptions=["kb://acme/horloge"]) as events:
            assert events.honoured.get("resourceSubscriptions") == ["kb://acme/horloge"]
            n = 0
            async for e in events:
                assert e.method == "notifications/resources/updated" and e.uri == "kb://acme/horloge"
                n += 1
                if n == 3:
                    break
        # tools, through the client machine's requests for methods it does not own
        assert "chercher" in [t["name"] for t in await c.list_tools()]
        called = await c.call_tool("chercher", {"texte": "adresse"})
        assert called["content"][0]["text"] == "changement-adresse" and not called.get("isError")
        # a pydantic model from mcp.types is accepted where a dict is
        import mcp_types

        ref = mcp_types.ResourceTemplateReference(type="ref/resource", uri="kb://acme/fiches/{slug}")
        comp = await c.complete(ref, {"name": "slug", "value": "chan"})
        assert comp["values"] == ["changement-adresse"]

    async def stdio():
        async with Client.stdio([sys.executable, str(FIXTURE)]) as c:
            await body(c)

    run(stdio())
    with http_server(FIXTURE) as url:

        async def http():
            async with Client.http(url) as c:
                await body(c)

        run(http())


def test_aio_client_input_required_and_cancellation():
    async def main():
        asked = []

        async def on_input(requests):
            asked.append(requests)
            await asyncio.sleep(0)
            return {"confirm": {"action": "accept", "content": {"ok": True}}}

        caps = {"elicitation": {"form": {}}}
        async with Client.stdio([sys.executable, str(FIXTURE)], on_input=on_input, capabilities=caps) as c:
            got = await c.read_resource("kb://acme/confirmer/remboursement")
            assert got["contents"][0]["text"] == "remboursement: accept True"
            assert asked[0]["confirm"]["method"] == "elicitation/create"
            # cancelling the awaiting task cancels the request: the handler sees ctx.cancelled
            task = asyncio.ensure_future(c.read_resource("kb://acme/attente/5000"))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            for _ in range(50):
                if (await c.read_resource("kb://acme/annulations", refresh=True))["contents"][0]["text"] == "1":
                    break
                await asyncio.sleep(0.02)
            else:
                raise AssertionError("the handler was not cancelled")
        async with Client.stdio([sys.executable, str(FIXTURE)]) as c:  # no on_input: the call fails
            with pytest.raises(McpError):
                await c.read_resource("kb://acme/confirmer/x")

    run(main())


def test_aio_client_falls_back_to_the_legacy_era():
    legacy = TESTS / "legacy_server.py"

    async def stdio():
        async with Client.stdio([sys.executable, str(legacy)]) as c:
            assert (await c.read_resource("x://a"))["contents"][0]["text"] == "legacy hello"
            assert c.machine.protocol_version == "2025-11-25"

    run(stdio())
    with http_server(legacy) as url:

        async def http():
            async with Client.http(url) as c:  # initialize, then Mcp-Session-Id on every POST
                assert (await c.read_resource("x://a"))["contents"][0]["text"] == "legacy hello"
                assert c.machine.protocol_version == "2025-11-25"

        run(http())


PAGED_TOOLS = """
from mcp_context.server import App
app = App("paged-tools", page_size=2)
for i in range(5):
    app.tool(name=f"outil_{i}")(lambda: "ok")
app.run_stdio()
"""


def test_list_tools_is_paged_by_the_client_machine():
    """``tools/list`` in pages of 2: ``list_tools()`` walks them (the core's client machine
    follows ``nextCursor``), ``all_pages=False`` gives one page, ``cursor`` the next."""

    async def main():
        async with Client.stdio([sys.executable, "-c", PAGED_TOOLS]) as c:
            every = await c.list_tools(refresh=True)
            assert [t["name"] for t in every] == [f"outil_{i}" for i in range(5)]
            listed = await c._await(lambda m, t: m.list_tools(t, all_pages=False, refresh=True))
            assert listed.kind == "tools" and len(listed.pages) == 1 and listed.next_cursor is not None
            assert [t["name"] for t in listed.pages[0]["tools"]] == ["outil_0", "outil_1"]
            nxt = await c.list_tools(cursor=listed.next_cursor, all_pages=False, refresh=True)
            assert [t["name"] for t in nxt] == ["outil_2", "outil_3"]

    run(main())
