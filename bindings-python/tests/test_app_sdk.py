"""The official SDK client (mcp==2.3.0) against ``App``: ``run_stdio`` in a subprocess and the
ASGI app under uvicorn (list, read, templates, prompt, completion, listen, an unknown resource,
handler errors, an async handler answered at once)."""

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp")

import mcp_types as types  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.subscriptions import ResourceUpdated  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "app_fixture.py"
TEMPLATE = "kb://acme/fiches/{slug}"


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


def stdio_client() -> Client:
    return Client(StdioServerParameters(command=sys.executable, args=[str(FIXTURE)]), read_timeout_seconds=10, cache=None)


def run(make_client, body):
    async def main():
        with anyio.fail_after(30):
            async with make_client() as c:
                await body(c)

    anyio.run(main)


async def session(c: Client) -> None:
    assert c.protocol_version == "2026-07-28"
    assert c.server_info.name == "acme-kb"
    uris, cursor = [], None
    while True:  # the registered resources, then the template's list() (dynamic lists)
        page = await c.list_resources(cursor=cursor)
        uris += [str(r.uri) for r in page.resources]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert "kb://acme/charte-reponse" in uris and "kb://acme/fiches/changement-adresse" in uris
    charter = await c.read_resource("kb://acme/charte-reponse")
    assert charter.contents[0].text.startswith("# Charte")
    assert (charter.ttl_ms, charter.cache_scope) == (3_600_000, "public")
    sheet = await c.read_resource("kb://acme/fiches/resiliation-contrat")
    assert sheet.contents[0].text.startswith("# Résilier")
    assert (sheet.ttl_ms, sheet.cache_scope) == (60_000, "public")  # the template's hint
    assert sheet.contents[0].mime_type == "text/markdown"
    with pytest.raises(MCPError) as err:
        await c.read_resource("kb://acme/fiches/inconnue")
    assert err.value.error.code == -32602 and err.value.error.data == {"uri": "kb://acme/fiches/inconnue"}
    with pytest.raises(MCPError) as err:
        await c.read_resource("kb://ailleurs")
    assert err.value.error.code == -32602
    templates = await c.list_resource_templates()
    assert TEMPLATE in [t.uri_template for t in templates.resource_templates]
    prompts = await c.list_prompts()
    (p,) = [p for p in prompts.prompts if p.name == "repondre_ticket"]
    assert [(a.name, a.required) for a in p.arguments] == [("ticketId", True), ("ton", False)]
    got = await c.get_prompt("repondre_ticket", {"ticketId": "T-42", "ton": "chaleureux"})
    assert got.messages[0].content.type == "resource" and "chaleureux" in got.messages[1].content.text
    with pytest.raises(MCPError) as err:
        await c.get_prompt("repondre_ticket", {"ticketId": "T-42", "ton": "sec"})
    assert err.value.error.code == -32602
    r = await c.complete(types.ResourceTemplateReference(type="ref/resource", uri=TEMPLATE), {"name": "slug", "value": "dec"})
    assert sorted(r.completion.values) == ["declarer-degat-des-eaux", "declarer-sinistre-auto"]
    r = await c.complete(types.PromptReference(type="ref/prompt", name="repondre_ticket"), {"name": "ton", "value": "ch"})
    assert r.completion.values == ["chaleureux"]
    # handler errors
    for kind, code in (("params", -32602), ("app", 1001), ("boom", -32603)):
        with pytest.raises(MCPError) as err:
            await c.read_resource(f"kb://acme/erreur/{kind}")
        assert err.value.error.code == code, kind
    # an async handler that sleeps 10 ms is answered within 100 ms (best of 3: the machine is
    # shared with other work; an answer that waited for the next input would take seconds)
    elapsed = []
    for _ in range(3):
        t0 = time.monotonic()
        slow = await c.read_resource("kb://acme/lent/10")
        elapsed.append(time.monotonic() - t0)
        assert slow.contents[0].text.startswith("10 ms")
    assert min(elapsed) < 0.1, elapsed
    # tools, through the machine's extension methods
    assert c.server_capabilities.tools is not None
    tools = {t.name: t for t in (await c.list_tools()).tools}
    assert tools["chercher"].input_schema == {
        "type": "object",
        "properties": {"texte": {"type": "string", "description": "Texte à chercher dans les titres"}, "limite": {"type": "integer"}},
        "required": ["texte"],
    }
    called = await c.call_tool("chercher", {"texte": "déclarer"})
    assert not called.is_error
    assert called.content[0].text == "declarer-sinistre-auto, declarer-degat-des-eaux"
    broken = await c.call_tool("casser", {})
    assert broken.is_error and broken.content[0].text == "en panne"
    with pytest.raises(MCPError) as err:
        await c.call_tool("inconnu", {})
    assert err.value.error.code == -32602
    # progress: a tool reporting its steps, only because the call carried a progressToken
    seen = []

    async def on_progress(progress, total, message):
        seen.append((progress, total, message))

    counted = await c.call_tool("compter", {"n": 3}, progress_callback=on_progress)
    assert counted.content[0].text == "compté jusqu'à 3 (3 progressions envoyées)"
    assert seen == [(1, 3, "1/3"), (2, 3, "2/3"), (3, 3, "3/3")]
    silent = await c.call_tool("compter", {"n": 2})
    assert silent.content[0].text == "compté jusqu'à 2 (0 progressions envoyées)"
    # listen: the ticking resource
    async with c.listen(resource_subscriptions=["kb://acme/horloge"]) as sub:
        n = 0
        async for event in sub:
            assert isinstance(event, ResourceUpdated) and event.uri == "kb://acme/horloge"
            n += 1
            if n == 2:
                break


def test_sdk_client_over_stdio():
    run(stdio_client, session)


def test_sdk_client_over_asgi_uvicorn():
    with http_fixture() as url:
        run(lambda: Client(url, read_timeout_seconds=10, cache=None), session)
