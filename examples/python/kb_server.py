# A support knowledge base for a fictional insurer (Acme Assurances), on mcp_context's App:
#   kb://acme/charte-reponse    the reply charter (tone, phrasings, commitments), markdown
#   kb://acme/fiches/{slug}     procedure sheets: each listed, `slug` completed, a missing one -32602
#   repondre_ticket             prompt: ticketId (required), ton (formel | chaleureux, validated)
# Run: python examples/python/kb_server.py [--http PORT]     (data: kb_data.py)

import sys
from typing import Annotated, Literal

from kb_data import CHARTER, SHEETS
from mcp_context.server import App, NotFound

CHARTER_URI = "kb://acme/charte-reponse"
app = App(
    "acme-kb",
    "1.0.0",
    title="Base de connaissances support — Acme Assurances",
    instructions="Lisez la charte (kb://acme/charte-reponse) avant de répondre ; les procédures sont sous kb://acme/fiches/{slug}.",
)


@app.resource(CHARTER_URI, name="charte-reponse", title="Charte de réponse", mime_type="text/markdown", cache=(3_600_000, "public"))
def charte() -> str:
    """Ton, formulations et engagements de toute réponse"""
    return CHARTER


def fiches():
    return [{"uri": f"kb://acme/fiches/{slug}", "name": slug, "title": s["title"], "description": f"Fiche procédure : {s['title']}"} for slug, s in SHEETS.items()]


@app.resource("kb://acme/fiches/{slug}", name="fiche", title="Fiche procédure", mime_type="text/markdown", cache=(60_000, "public"), list=fiches, complete={"slug": SHEETS})
def fiche(slug: str) -> str:
    """Une fiche procédure par slug"""
    if slug not in SHEETS:
        raise NotFound(slug)
    return f"# {SHEETS[slug]['title']}\n\n{SHEETS[slug]['body']}\n"


@app.prompt(title="Répondre à un ticket")
def repondre_ticket(
    ticketId: Annotated[str, "Identifiant du ticket"],  # noqa: N803 - the wire name
    ton: Annotated[Literal["formel", "chaleureux"], "formel ou chaleureux (défaut : formel)"] = "formel",
):
    """Rédiger la réponse à un ticket dans le respect de la charte"""
    charter = {"type": "resource", "resource": {"uri": CHARTER_URI, "mimeType": "text/markdown", "text": CHARTER}}
    return {
        "description": f"Réponse au ticket {ticketId} ({ton})",
        "messages": [
            charter,
            f"Lisez le ticket {ticketId} et rédigez la réponse au client sur un ton {ton}, dans le respect de la charte ci-dessus.\n"
            "Ne promettez aucun délai qui ne figure pas dans la charte.\n"
            "Terminez par une checklist des actions à mener (cases à cocher « - [ ] »).",
        ],
    }


if __name__ == "__main__":
    app.run_http(port=int(sys.argv[2])) if sys.argv[1:2] == ["--http"] else app.run_stdio()
