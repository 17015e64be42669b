"""Interop: the official MCP Python SDK client (mcp==2.3.0) drives the Swift knowledge-base
server (bindings-swift/swift/Examples/KnowledgeBase, on MCPServerHost) over stdio.

Run by scripts/swift-test.sh with KB_SERVER set to the command that starts the built server
(inside the Swift chroot).
"""

import os
import shlex

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

COMMAND = shlex.split(os.environ.get("KB_SERVER", "mcp-kb-server"))


def run(body):
    async def main():
        with anyio.fail_after(60):
            params = StdioServerParameters(command=COMMAND[0], args=COMMAND[1:])
            async with Client(params, read_timeout_seconds=20, cache=None) as c:
                await body(c)

    anyio.run(main)


def test_discover_lists_reads_prompts_and_completion():
    async def body(c: Client):
        assert c.protocol_version == "2026-07-28"
        assert c.server_info is not None and c.server_info.name == "acme-kb"
        assert "kb://acme/charte-reponse" in (c.instructions or "")

        res = await c.list_resources()
        uris = [str(r.uri) for r in res.resources]
        assert "kb://acme/charte-reponse" in uris
        assert "kb://acme/fiches/declarer-sinistre-auto" in uris
        tpl = await c.list_resource_templates()
        assert [t.uri_template for t in tpl.resource_templates] == ["kb://acme/fiches/{slug}"]

        charter = await c.read_resource("kb://acme/charte-reponse")
        assert charter.contents[0].text.startswith("# Charte de réponse")
        assert charter.ttl_ms == 3_600_000 and charter.cache_scope == "public"

        sheet = await c.read_resource("kb://acme/fiches/changement-adresse")
        assert sheet.contents[0].text.startswith("# Changer d’adresse")

        try:
            await c.read_resource("kb://acme/fiches/inconnue")
            raise AssertionError("a missing sheet must be an error")
        except MCPError as e:
            assert e.error.code == -32602

        prompts = await c.list_prompts()
        assert [p.name for p in prompts.prompts] == ["repondre_ticket"]
        got = await c.get_prompt("repondre_ticket", {"ticketId": "T-42", "ton": "chaleureux"})
        assert "T-42" in got.messages[1].content.text
        try:
            await c.get_prompt("repondre_ticket", {"ticketId": "T-42", "ton": "sec"})
            raise AssertionError("a bad tone must be an error")
        except MCPError as e:
            assert e.error.code == -32602
    run(body)
