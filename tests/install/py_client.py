"""The official Python SDK client (mcp==2.3.0) against the Python knowledge base
(examples/python/kb_server.py) over stdio, as a user who installed the wheel runs it.
Usage: python py_client.py SERVER_PY   (exit status 0 when every check passes)"""

import sys
from importlib.metadata import version

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

TEMPLATE = "kb://acme/fiches/{slug}"


async def main(server: str) -> None:
    params = StdioServerParameters(command=sys.executable, args=[server])
    with anyio.fail_after(60):
        async with Client(params, read_timeout_seconds=20, cache=None) as c:
            assert c.protocol_version == "2026-07-28", c.protocol_version
            assert c.server_info.name == "acme-kb"
            uris = [str(r.uri) for r in (await c.list_resources()).resources]
            assert "kb://acme/charte-reponse" in uris, uris
            charter = await c.read_resource("kb://acme/charte-reponse")
            assert charter.contents[0].text.startswith("# Charte")
            sheet = await c.read_resource("kb://acme/fiches/resiliation-contrat")
            assert sheet.contents[0].text.startswith("# Résilier")
            try:
                await c.read_resource("kb://acme/fiches/inconnue")
                raise AssertionError("a missing sheet was read")
            except MCPError as err:
                assert err.error.code == -32602
            templates = await c.list_resource_templates()
            assert [t.uri_template for t in templates.resource_templates] == [TEMPLATE]
            got = await c.get_prompt("repondre_ticket", {"ticketId": "T-42", "ton": "chaleureux"})
            assert "chaleureux" in got.messages[1].content.text
            ref = types.ResourceTemplateReference(type="ref/resource", uri=TEMPLATE)
            r = await c.complete(ref, {"name": "slug", "value": "dec"})
            assert sorted(r.completion.values) == ["declarer-degat-des-eaux", "declarer-sinistre-auto"]
    print(f"py_client: the knowledge base served mcp {version('mcp')} on Python {sys.version.split()[0]}")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
