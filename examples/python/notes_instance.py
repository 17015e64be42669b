"""One instance of the notes fleet (examples/scale-out): the notes server next to this file under uvicorn, with the
fleet's shared configuration and the Redis broker (docs/scale-out.md).

    python examples/python/notes_instance.py --port 8001 --redis redis://127.0.0.1:6379/0 \\
        --fleet notes --keys 2:<64 hex>,1:<64 hex> --db /tmp/notes.sqlite

Shared by every instance of a fleet (the operator's job, see docs/scale-out.md):

* ``--keys``: the sealing keys, ``id:hex`` newest first (the first seals ``requestState``; all
  open it), so an ``input_required`` retry may land on any instance;
* the catalogue: the same code and the same ``--page-size``, so a cursor of one instance pages
  on another;
* ``--db``: the notes' text (SQLite here, the fleet's database in production), so a read on
  any instance sees a write made on another;
* ``--redis`` and ``--fleet``: the broker and the fleet's channel.

What it adds to the notes server: the tools ``write_note(uri, text)`` (stores, then
``resource_updated``: every listen of the fleet that asked for ``uri`` is told) and
``delete_note(uri)`` (asks for confirmation with ``input_required``, the URI in the sealed
state; the retry may come to any instance).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3

from mcp_context.broker import RedisBroker
from mcp_context.server import AskInput, Context, InvalidParams
from notes_server import ANONYMOUS, TOKENS, build  # the sibling example this instance extends


def parse_keys(text: str) -> list[tuple[int, bytes]]:
    """``"2:hex,1:hex"`` as the machine's ``state_keys`` (newest first)."""
    keys = []
    for part in text.split(","):
        kid, _, secret = part.partition(":")
        keys.append((int(kid), bytes.fromhex(secret)))
    return keys


class Store:
    """The fleet's shared note texts (one SQLite file; autocommit, one statement each)."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # an example: no fsync per write
        self.db.execute("CREATE TABLE IF NOT EXISTS notes (uri TEXT PRIMARY KEY, text TEXT, deleted INTEGER DEFAULT 0)")

    def get(self, uri: str) -> tuple[str, bool] | None:
        row = self.db.execute("SELECT text, deleted FROM notes WHERE uri = ?", (uri,)).fetchone()
        return None if row is None else (row[0], bool(row[1]))

    def put(self, uri: str, text: str, deleted: bool = False) -> None:
        self.db.execute("INSERT OR REPLACE INTO notes (uri, text, deleted) VALUES (?, ?, ?)", (uri, text, int(deleted)))


def make_app(keys: list[tuple[int, bytes]], redis_url: str | None, fleet: str, db: str, page_size: int = 3, health_s: float = 5.0):
    """The instance's ``App`` and its broker (``None`` without ``redis_url``)."""
    app, notes = build(page_size, state_keys=keys)
    store = Store(db)
    own_read = notes.read

    def read(auth: int, uri: str):
        note = own_read(auth, uri)  # the permission check first
        stored = store.get(uri)
        if stored is not None:
            if stored[1]:
                from mcp_context.server import NotFound

                raise NotFound(uri)
            note.text = stored[0]
        return note

    notes.read = read  # type: ignore[method-assign]

    @app.tool(description="Replace a note's text; every listen of the fleet on it is told")
    def write_note(uri: str, text: str, ctx: Context) -> str:
        read(ctx.auth, uri)  # may the caller see it at all
        store.put(uri, text)
        app.resource_updated(uri)
        return "written"

    @app.tool(description="Delete a note, after the user confirms (input_required)")
    def delete_note(uri: str, ctx: Context) -> str:
        read(ctx.auth, uri)
        if ctx.retry is None:
            ask = {"mode": "form", "message": f"Delete {uri}?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}
            raise AskInput({"confirm": {"method": "elicitation/create", "params": ask}}, state=uri.encode())
        if ctx.retry.state != uri.encode():
            raise InvalidParams("the confirmation is for another note")
        answer = ctx.retry.input_responses.get("confirm") or {}
        if answer.get("action") != "accept" or not answer.get("content", {}).get("ok"):
            return "kept"
        store.put(uri, "", deleted=True)
        app.resource_updated(uri)
        app.resources_list_changed()
        return f"deleted by {os.getpid()}"

    broker = None
    if redis_url is not None:
        broker = RedisBroker(redis_url, fleet=fleet, health_s=health_s)
        app.use_broker(broker)
    return app, broker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis", help="redis://host:port/db (none: no broker)")
    parser.add_argument("--fleet", default="notes")
    parser.add_argument("--keys", required=True, help="id:hex,... newest first")
    parser.add_argument("--db", required=True)
    parser.add_argument("--page-size", type=int, default=3)
    parser.add_argument("--health-s", type=float, default=5.0, help="broker silence before a PING, and the PING's deadline")
    parser.add_argument("--share-sessions", action="store_true", help="2025-11-25 sessions and their streams' events in Redis too")
    parser.add_argument("--max-sessions", type=int, help="the 2025-11-25 session table's bound (with --share-sessions: the fleet's)")
    args = parser.parse_args()
    app, _ = make_app(parse_keys(args.keys), args.redis, args.fleet, args.db, args.page_size, args.health_s)
    if args.max_sessions is not None:
        app._config["max_sessions"] = args.max_sessions
    if args.share_sessions and args.redis:
        from mcp_context._session_store import RedisSessionStore

        store = RedisSessionStore(args.redis, fleet=args.fleet)
        app.use_session_store(store)

        @app.tool(description="The session store's counters (what the fleet tests wait on)")
        def session_store_stats() -> str:
            names = ("connected", "stored", "ended", "imported", "forgotten", "events", "replayed", "dropped")
            return json.dumps({n: getattr(store, n) for n in names})

    def authenticate(headers: dict[str, str]) -> int:
        return TOKENS.get(headers.get("authorization", "").removeprefix("Bearer ").strip(), ANONYMOUS)

    try:
        app.run_http(port=args.port, authenticate=authenticate, ready=lambda port: print(f"listening on http://127.0.0.1:{port}/mcp", flush=True))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
