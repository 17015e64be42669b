"""A test server on ``mcp_context.server.App``: the knowledge-base example plus what the tests
need (an async handler that sleeps 10 ms, a resource that ticks, a tool when the extension has
extension methods).

    python app_fixture.py             # stdio
    python app_fixture.py --http 0    # prints "listening on http://127.0.0.1:PORT/mcp"
"""

import asyncio
import sys
from typing import Annotated
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))

from kb_data import SHEETS  # noqa: E402
from kb_server import app  # noqa: E402

from mcp_context.server import AskInput, Context, InvalidParams, McpError  # noqa: E402

TICK = "kb://acme/horloge"
ticks = 0


@app.resource(TICK, mime_type="text/plain", cache=(0, "private"))
def horloge() -> str:
    return str(ticks)


@app.resource("kb://acme/lent/{ms}")
async def lent(ms: int, ctx: Context) -> str:
    """Answers after ``ms`` milliseconds of async work."""
    await asyncio.sleep(ms / 1000)
    return f"{ms} ms (caller {ctx.auth})"


@app.resource("kb://acme/erreur/{kind}")
def erreur(kind: str) -> str:
    if kind == "params":
        raise InvalidParams("bad kind")
    if kind == "app":
        raise McpError("teapot", code=1001)
    raise RuntimeError("boom")


cancellations = 0


@app.resource("kb://acme/attente/{ms}")
async def attente(ms: int, ctx: Context) -> str:
    """Waits ``ms`` milliseconds; counts the waits that were cancelled."""
    global cancellations
    try:
        await asyncio.sleep(ms / 1000)
    except asyncio.CancelledError:
        cancellations += 1 if ctx.is_cancelled else 1000
        raise
    return "fini"


@app.resource("kb://acme/annulations")
def annulations() -> str:
    return str(cancellations)


@app.resource("kb://acme/confirmer/{sujet}")
def confirmer(sujet: str, ctx: Context) -> str:
    """Asks the user to confirm (input_required), then answers with what they said."""
    if ctx.retry is None:
        ask = {"mode": "form", "message": f"Confirmer {sujet} ?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}
        raise AskInput({"confirm": {"method": "elicitation/create", "params": ask}})
    answer = ctx.retry.input_responses["confirm"]
    return f"{sujet}: {answer['action']} {answer.get('content', {}).get('ok')}"


@app.tool(title="Chercher une fiche")
async def chercher(texte: Annotated[str, "Texte à chercher dans les titres"], limite: int = 3) -> str:
    """Les slugs des fiches dont le titre contient le texte."""
    await asyncio.sleep(0)
    found = [slug for slug, s in SHEETS.items() if texte.lower() in s["title"].lower()]
    return ", ".join(found[:limite])


@app.tool()
async def compter(n: int, ctx: Context) -> str:
    """Counts to ``n``, reporting progress at each step."""
    sent = 0
    for i in range(1, n + 1):
        await asyncio.sleep(0.005)
        sent += await ctx.report_progress(i, n, f"{i}/{n}")
    return f"compté jusqu'à {n} ({sent} progressions envoyées)"


@app.tool()
async def journaliser(ctx: Context) -> str:
    """Logs one line at each of debug, info, warning and error for this call, and one not tied
    to a request (``app.log``); says which the client's level let through."""
    sent = [level for level in ("debug", "info", "warning", "error") if await ctx.log(level, {"niveau": level}, "journal")]
    streams = app.log("notice", "hors requête", "app")
    return f"{','.join(sent)} ({streams} flux)"


@app.tool()
def casser() -> str:
    """Always fails (a tool error, not a protocol error)."""
    raise RuntimeError("en panne")


@app.on_startup
async def tick() -> None:
    global ticks
    while True:
        await asyncio.sleep(0.05)
        ticks += 1
        app.resource_updated(TICK)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        app.run_http(port=int(sys.argv[2]), ready=lambda port: print(f"listening on http://127.0.0.1:{port}/mcp", flush=True))
    else:
        app.run_stdio()
