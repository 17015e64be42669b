"""The knowledge-base server of examples/python/kb_server.py on the official SDK (mcp==2.3.0's
MCPServer), written as a user of that SDK would: the comparison for line counts, and the
official server that ``aio.Client`` is tested against (tests/test_aio.py) and benchmarked.

    python sdk_kb_server.py             # stdio
    python sdk_kb_server.py --http 0    # prints "listening on http://127.0.0.1:PORT/mcp"
"""

import sys
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))

from kb_data import CHARTER, SHEETS  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.server.mcpserver.resources import TextResource  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from mcp_types import Completion, EmbeddedResource, PromptReference, ResourceTemplateReference, TextContent, TextResourceContents  # noqa: E402

CHARTER_URI = "kb://acme/charte-reponse"
mcp = MCPServer(
    "acme-kb",
    title="Base de connaissances support — Acme Assurances",
    version="1.0.0",
    instructions="Lisez la charte (kb://acme/charte-reponse) avant de répondre ; les procédures sont sous kb://acme/fiches/{slug}.",
)


@mcp.resource(CHARTER_URI, name="charte-reponse", title="Charte de réponse", mime_type="text/markdown")
def charte() -> str:
    """Ton, formulations et engagements de toute réponse"""
    return CHARTER


def markdown(slug: str) -> str:
    return f"# {SHEETS[slug]['title']}\n\n{SHEETS[slug]['body']}\n"


# The template's items: the SDK lists only registered resources, so each sheet is one.
for slug, s in SHEETS.items():
    mcp.add_resource(
        TextResource(
            uri=f"kb://acme/fiches/{slug}", name=slug, title=s["title"], description=f"Fiche procédure : {s['title']}", mime_type="text/markdown", text=markdown(slug)
        )
    )


@mcp.resource("kb://acme/fiches/{slug}", name="fiche", title="Fiche procédure", mime_type="text/markdown")
def fiche(slug: str) -> str:
    """Une fiche procédure par slug"""
    if slug not in SHEETS:
        raise MCPError(code=-32602, message="Resource not found", data={"uri": f"kb://acme/fiches/{slug}"})
    return markdown(slug)


@mcp.completion()
async def complete(ref, argument, context):
    if isinstance(ref, ResourceTemplateReference) and argument.name == "slug":
        return Completion(values=[s for s in SHEETS if s.startswith(argument.value)])
    if isinstance(ref, PromptReference) and argument.name == "ton":
        return Completion(values=[t for t in ("formel", "chaleureux") if t.startswith(argument.value)])
    return None


@mcp.prompt(title="Répondre à un ticket")
def repondre_ticket(ticketId: str, ton: Literal["formel", "chaleureux"] = "formel"):  # noqa: N803
    """Rédiger la réponse à un ticket dans le respect de la charte"""
    charter = EmbeddedResource(type="resource", resource=TextResourceContents(uri=CHARTER_URI, mime_type="text/markdown", text=CHARTER))
    return [
        charter,
        TextContent(
            type="text",
            text=f"Lisez le ticket {ticketId} et rédigez la réponse au client sur un ton {ton}, dans le respect de la charte ci-dessus.\n"
            "Ne promettez aucun délai qui ne figure pas dans la charte.\n"
            "Terminez par une checklist des actions à mener (cases à cocher « - [ ] »).",
        ),
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        import socket

        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY
        sock.bind(("127.0.0.1", int(sys.argv[2])))
        sock.listen(2048)
        print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
        uvicorn.Server(uvicorn.Config(mcp.streamable_http_app(), log_level="warning")).run(sockets=[sock])
    else:
        mcp.run()
