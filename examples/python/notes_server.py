"""A stateless notes server on mcp_context's ServerMachine (issue 9, part 3).

    python examples/python/notes_server.py                 # stdio (asyncio)
    python examples/python/notes_server.py --http 8000     # Streamable HTTP on 127.0.0.1:8000

What it serves:

* Resources ``notes://note-1`` ... ``notes://note-7`` with names and descriptions, listed in a
  deterministic order (the machine keeps resources in URI order and pages with keyset
  cursors); ``notes://missing`` is -32602 with ``data.uri``. ``server/discover`` advertises
  ``resources`` (listChanged, subscribe) and ``prompts`` (listChanged): the machine derives
  them from what is registered.
* A ``review_note`` prompt with a required ``uri`` argument. The prompt reads the note through
  ``Notes.read``, the same permission check as a direct read: no side channel.
* ``subscriptions/listen``: acknowledgement of the honoured subset first, notifications
  stamped with the listen id, graceful close with the final result (all the machine's).

The six exercises:

(a) ``notes://projects/{project}/notes/{id}``: both variables are validated (length and
    characters) before any storage access (``Notes.storage_reads`` counts accesses).
(b) ``resources/list`` pages of ``--page-size`` (default 3) in a deterministic order.
(c) ``notes://note-7`` ("Payroll") is served ``private`` with ``ttlMs: 0``; the host side
    adds a no-store policy in its client cache (``mcp_context.aio.Client(no_store=...)``).
    Why both: docs in ``examples/python/README.md``.
(d) A listen without ``promptsListChanged`` never receives a prompts event (the machine
    queues notifications only on subscriptions that opted in).
(e) Two concurrent listens: every event carries its own listen request id.
(f) Permission-checked reads: ``notes://note-6`` belongs to ``alice``; reads answer private
    results per caller, so no cache can serve one subject's result to another.

Callers: ``Authorization: Bearer <token>`` on HTTP, ``--token`` on stdio; tokens map to
subjects in ``TOKENS`` (no token: anonymous). The server keeps no session state: every
request is answered from its own ``_meta`` and caller context.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from dataclasses import dataclass, field
from typing import Annotated

from mcp_context.server import App, Context, InvalidParams, NotFound

TEMPLATE = "notes://projects/{project}/notes/{id}"
PROJECT = re.compile(r"[a-z][a-z0-9-]{0,31}")  # (a): 1-32 chars, lowercase, digits, dashes
NOTE_ID = re.compile(r"[1-9][0-9]{0,5}")  # (a): 1-6 digits, no leading zero

# Subject ids are the machine's `auth` values (0 = anonymous).
ANONYMOUS, ALICE, BOB = 0, 1, 2
TOKENS = {"alice-token": ALICE, "bob-token": BOB}

# Cache hints (spec: resources/read result ttlMs and cacheScope): public notes may be cached a
# minute by anyone; private answers only by the same subject; the payroll note (c) not at all.
PUBLIC = {"ttlMs": 60_000, "cacheScope": "public"}
PRIVATE = {"ttlMs": 60_000, "cacheScope": "private"}
NO_STORE = {"ttlMs": 0, "cacheScope": "private"}


@dataclass
class Note:
    title: str
    description: str
    text: str
    owner: int | None = None  # None: everyone may read it
    cache: dict = field(default_factory=lambda: PUBLIC)


class Notes:
    """The storage, with one permission check shared by reads and the prompt (f)."""

    def __init__(self) -> None:
        self.notes: dict[str, Note] = {
            "notes://note-1": Note("Welcome", "How these notes work", "# Welcome\nNotes are markdown."),
            "notes://note-2": Note("Groceries", "Shopping list", "- milk\n- bread"),
            "notes://note-3": Note("Standup", "Daily standup log", "Shipped the parser."),
            "notes://note-4": Note("Ideas", "Product ideas", "A notes server on a sans-IO core."),
            "notes://note-5": Note("Reading", "Books to read", "RFC 6570, RFC 3986."),
            "notes://note-6": Note("Alice's diary", "Private to alice", "Dear diary...", owner=ALICE, cache=PRIVATE),
            "notes://note-7": Note("Payroll", "Never cached", "Salaries: confidential.", cache=NO_STORE),
        }
        self.project_notes: dict[tuple[str, str], str] = {
            ("apollo", "1"): "# Apollo 1\nLaunch checklist.",
            ("apollo", "2"): "# Apollo 2\nPost-mortem.",
        }
        self.storage_reads = 0  # (a): proves invalid variables never reach storage

    def read(self, auth: int, uri: str) -> Note:
        """The note ``uri`` if ``auth`` may read it; else ``NotFound`` (so a caller cannot
        probe for notes it may not see)."""
        self.storage_reads += 1
        note = self.notes.get(uri)
        if note is None or (note.owner is not None and note.owner != auth):
            raise NotFound(uri)
        return note

    def read_project(self, project: str, note_id: str) -> str:
        self.storage_reads += 1
        text = self.project_notes.get((project, note_id))
        if text is None:
            raise NotFound(f"{project}/{note_id}")
        return text


def build(page_size: int = 3, **machine_config: object) -> tuple[App, Notes]:
    """The app with every handler registered, and its storage (``machine_config``: more
    ``App`` options, e.g. a fleet's ``state_keys``, examples/scale-out)."""
    notes = Notes()
    app = App(
        "notes-server",
        "0.1.0",
        instructions="Stateless notes: notes://note-N, notes://projects/{project}/notes/{id}.",
        page_size=page_size,
        read_cache=PRIVATE,
        **machine_config,
    )
    def reader(uri: str):
        def read(ctx: Context) -> str:
            return notes.read(ctx.auth, uri).text  # (f) the permission check

        return read

    for uri, n in notes.notes.items():
        # One handler per note, with the note's own hint: note-6 private, note-7 not stored (c).
        app.resource(uri, name=n.title, description=n.description, mime_type="text/markdown", cache=n.cache)(reader(uri))

    @app.resource(
        TEMPLATE,
        name="project-note",
        description="A note of a project",
        mime_type="text/markdown",
        cache=PUBLIC,
        complete={"project": sorted({p for p, _ in notes.project_notes})},
    )
    def project_note(project: str, id: str) -> str:  # noqa: A002 - the template's name
        # (a) validate both variables before touching storage.
        if not PROJECT.fullmatch(project):
            raise InvalidParams("project: 1-32 of a-z, 0-9, '-', starting with a letter")
        if not NOTE_ID.fullmatch(id):
            raise InvalidParams("id: 1-6 digits without a leading zero")
        return notes.read_project(project, id)

    @app.prompt(description="Review one note")
    def review_note(uri: Annotated[str, "The note's URI"], ctx: Context) -> dict:
        try:
            note = notes.read(ctx.auth, uri)  # same check as a direct read: no side channel
        except NotFound:
            raise InvalidParams(f"no readable note {uri}") from None
        return {
            "description": f"Review of {note.title}",
            "messages": [
                "Review this note for clarity and accuracy:",
                {"type": "resource", "resource": {"uri": uri, "mimeType": "text/markdown", "text": note.text}},
            ],
        }

    return app, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT (0: any)")
    parser.add_argument("--token", help="stdio: the caller's bearer token")
    parser.add_argument("--page-size", type=int, default=3)
    parser.add_argument("--tick-ms", type=int, default=0, help="append to the standup note every N ms (0: never)")
    args = parser.parse_args()
    app, notes = build(args.page_size)

    if args.tick_ms > 0:

        @app.on_startup
        async def tick() -> None:
            """The standup note changes: tell the listeners (resources and prompts, so that a
            listen without promptsListChanged can show it never sees the prompts event)."""
            n = 0
            while True:
                await asyncio.sleep(args.tick_ms / 1000)
                n += 1
                notes.notes["notes://note-3"].text += f"\nUpdate {n}."
                app.resource_updated("notes://note-3")
                app.prompts_list_changed()
                app.resources_list_changed()

    if args.http is None:
        app.run_stdio(auth=TOKENS.get(args.token or "", ANONYMOUS))
        return

    def authenticate(headers: dict[str, str]) -> int:
        return TOKENS.get(headers.get("authorization", "").removeprefix("Bearer ").strip(), ANONYMOUS)

    try:
        app.run_http(port=args.http, authenticate=authenticate, ready=lambda port: print(f"listening on http://127.0.0.1:{port}/mcp", flush=True))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
