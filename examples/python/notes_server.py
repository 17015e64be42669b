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
    adds a no-store policy in its client cache (``examples/python/host.py``, ``NoStore``).
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
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp_context import (  # noqa: E402
    Cancelled,
    Complete,
    GetPrompt,
    ReadResource,
    ServerMachine,
)
from server_io import serve_http, serve_stdio  # noqa: E402

TEMPLATE = "notes://projects/{project}/notes/{id}"
PROJECT = re.compile(r"[a-z][a-z0-9-]{0,31}")  # (a): 1-32 chars, lowercase, digits, dashes
NOTE_ID = re.compile(r"[1-9][0-9]{0,5}")  # (a): 1-6 digits, no leading zero

# Subject ids are the machine's `auth` values (0 = anonymous).
ANONYMOUS, ALICE, BOB = 0, 1, 2
TOKENS = {"alice-token": ALICE, "bob-token": BOB}

# Hints (DIGEST §4): public notes may be cached a minute by anyone; private answers only by
# the same subject; the payroll note (c) not at all.
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

    def read(self, auth: int, uri: str) -> Note | None:
        """The note ``uri`` if it exists and ``auth`` may read it (else None: "not found",
        so a caller cannot probe for notes it may not see)."""
        self.storage_reads += 1
        note = self.notes.get(uri)
        if note is None or (note.owner is not None and note.owner != auth):
            return None
        return note

    def read_project(self, project: str, note_id: str) -> str | None:
        self.storage_reads += 1
        return self.project_notes.get((project, note_id))


def build(page_size: int = 3) -> tuple[ServerMachine, Notes, callable]:
    """The machine with everything registered, the storage, and the event handler."""
    notes = Notes()
    server = ServerMachine(
        server_info={"name": "notes-server", "version": "0.1.0"},
        instructions="Stateless notes: notes://note-N, notes://projects/{project}/notes/{id}.",
        page_size=page_size,
        read_cache=PRIVATE,
    )
    for uri, n in notes.notes.items():
        server.add_resource({"uri": uri, "name": n.title, "description": n.description, "mimeType": "text/markdown"})
    server.add_template(
        {"uriTemplate": TEMPLATE, "name": "project-note", "description": "A note of a project", "mimeType": "text/markdown"},
        cache=PUBLIC,
        completions={"project": sorted({p for p, _ in notes.project_notes})},
    )
    server.add_prompt(
        {
            "name": "review_note",
            "description": "Review one note",
            "arguments": [{"name": "uri", "description": "The note's URI", "required": True}],
        }
    )

    def app(server: ServerMachine, ev) -> None:
        if isinstance(ev, ReadResource):
            if ev.target == "template":
                project, note_id = ev.variables.get("project", ""), ev.variables.get("id", "")
                # (a) validate both variables before touching storage.
                if not PROJECT.fullmatch(project):
                    server.fail(ev.handle, "invalid_params", "project: 1-32 of a-z, 0-9, '-', starting with a letter")
                    return
                if not NOTE_ID.fullmatch(note_id):
                    server.fail(ev.handle, "invalid_params", "id: 1-6 digits without a leading zero")
                    return
                text = notes.read_project(project, note_id)
                if text is None:
                    server.fail(ev.handle, "not_found")
                else:
                    server.respond_read(ev.handle, [{"uri": ev.uri, "mimeType": "text/markdown", "text": text}])
                return
            note = notes.read(ev.auth, ev.uri)  # (f) the permission check
            if note is None:
                server.fail(ev.handle, "not_found")
                return
            contents = [{"uri": ev.uri, "mimeType": "text/markdown", "text": note.text}]
            server.respond_read(ev.handle, contents, cache=note.cache)
        elif isinstance(ev, GetPrompt):
            uri = ev.arguments["uri"]
            note = notes.read(ev.auth, uri)  # same check as a direct read: no side channel
            if note is None:
                server.fail(ev.handle, "invalid_params", f"no readable note {uri}")
                return
            server.respond_prompt(
                ev.handle,
                {
                    "description": f"Review of {note.title}",
                    "messages": [
                        {"role": "user", "content": {"type": "text", "text": "Review this note for clarity and accuracy:"}},
                        {
                            "role": "user",
                            "content": {
                                "type": "resource",
                                "resource": {"uri": uri, "mimeType": "text/markdown", "text": note.text},
                            },
                        },
                    ],
                },
            )
        elif isinstance(ev, Complete):
            server.respond_completion(ev.handle, [])
        elif isinstance(ev, Cancelled):
            pass  # nothing long-running to stop

    return server, notes, app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT (0: any)")
    parser.add_argument("--token", help="stdio: the caller's bearer token")
    parser.add_argument("--page-size", type=int, default=3)
    parser.add_argument("--tick-ms", type=int, default=0, help="append to the standup note every N ms (0: never)")
    args = parser.parse_args()
    server, notes, app = build(args.page_size)
    ticks = [0]

    def tick(server: ServerMachine) -> None:
        """The standup note changes: tell the listeners (resources and prompts, so that a
        listen without promptsListChanged can show it never sees the prompts event)."""
        ticks[0] += 1
        notes.notes["notes://note-3"].text += f"\nUpdate {ticks[0]}."
        server.resource_updated("notes://note-3")
        server.prompts_list_changed()
        server.resources_list_changed()

    every = (args.tick_ms, tick) if args.tick_ms > 0 else None
    if args.http is None:
        asyncio.run(serve_stdio(server, app, auth=TOKENS.get(args.token or "", ANONYMOUS), every=every))
        return

    def authenticate(headers) -> int:
        value = headers.get("Authorization") or ""
        return TOKENS.get(value.removeprefix("Bearer ").strip(), ANONYMOUS)

    def ready(httpd, host) -> None:
        print(f"listening on http://127.0.0.1:{httpd.server_address[1]}/mcp", flush=True)
        if every is not None:
            import threading
            import time

            def loop() -> None:
                while True:
                    time.sleep(every[0] / 1000)
                    host.call(every[1])

            threading.Thread(target=loop, daemon=True).start()

    try:
        serve_http(server, app, port=args.http, authenticate=authenticate, ready=ready)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
