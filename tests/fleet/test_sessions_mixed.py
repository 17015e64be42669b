"""2025-11-25 sessions across a mixed fleet (docs/scale-out.md, "2025-11-25 sessions across
instances"): one Python, one Node and one Rust notes instance (``--share-sessions``: redis-py,
node-redis and the ``redis`` crate) share sessions on one real Redis, through the same keys,
channel and message format. Raw HTTP, the test choosing the instance of each request:

* a session initialized on Python continues on Node, its GET stream on Python hears a change
  made through Rust after a subscription made on Node, a later GET stream on Node is numbered
  after Python's stored events, and a DELETE on Rust ends Node's stream and is 404 everywhere;
* the Python fleet's session tests (bindings-python/tests/test_sessions_fleet.py) with the
  three runtimes in the roles: a Rust GET stream ended by a DELETE on Node; the stream of a
  killed Node (and a killed Rust) instance resumed on another runtime with ``Last-Event-ID``;
  Redis stopped and restarted empty under a session made on Rust.

Needs ``MCP_FLEET_NODE`` and ``MCP_FLEET_RUST`` (test.sh's mixed fleet step sets both).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings-python" / "tests"))
sys.path.insert(0, str(ROOT / "examples" / "scale-out"))

import test_sessions_fleet as shared  # noqa: E402
from fleet import Instance  # noqa: E402
from test_sessions_fleet import Events, Session, applied, run, stats, write  # noqa: E402

NODE = os.environ.get("MCP_FLEET_NODE")
RUST = os.environ.get("MCP_FLEET_RUST")
pytestmark = pytest.mark.skipif(not (NODE and RUST), reason="MCP_FLEET_NODE and MCP_FLEET_RUST (test.sh's mixed fleet step)")
CMD = {"py": None, "node": [NODE, "examples/node/notes-instance.mjs"], "rust": [RUST]}


class MixedSessions(shared.Fleet):
    """Python, Node and Rust instances sharing sessions (``instances`` in that order)."""

    def __init__(self) -> None:
        self.doomed = "node"
        super().__init__(0)
        try:
            for k in ("py", "node", "rust"):
                self.instances.append(self.start(k))
            self.wait(3)
        except BaseException:
            self.stop()  # no fixture teardown follows a failed setup
            raise

    def start(self, kind: str) -> Instance:
        i = Instance(self.keys, self.redis.url, self.db, cmd=CMD[kind])
        i.args.append("--share-sessions")
        i.start()
        if kind == "rust":  # the host's store starts with the first request it serves
            httpx.get(i.url, timeout=5)
        return i

    def instance(self) -> Instance:
        """One more instance (the shared kill test's victim), of the runtime ``doomed``."""
        return self.start(self.doomed)


class Roles:
    """The shared tests' view of the fleet: ``instances`` in the order the roles A, B, C take."""

    def __init__(self, fleet: MixedSessions, *order: str) -> None:
        self._fleet = fleet
        at = {"py": 0, "node": 1, "rust": 2}
        self._order = [at[k] for k in order]

    @property
    def instances(self) -> list[Instance]:
        f = self._fleet
        return [f.instances[i] for i in self._order] + f.instances[3:]

    @instances.setter
    def instances(self, _value: list[Instance]) -> None:  # the kill test drops its victim
        del self._fleet.instances[3:]

    def __getattr__(self, name: str):
        return getattr(self._fleet, name)

    def __setattr__(self, name: str, value) -> None:
        if name.startswith("_") or name == "instances":
            object.__setattr__(self, name, value)
        else:
            setattr(self._fleet, name, value)


@pytest.fixture(scope="module")
def mixed():
    f = MixedSessions()
    yield f
    f.stop()


def test_initialize_on_python_continue_on_node_delete_on_rust(mixed):
    py, node, rust = (i.url for i in mixed.instances)

    async def main():
        async with httpx.AsyncClient(timeout=10) as http:
            s = Session(http)
            result, note = await s.initialize(py)
            assert result["protocolVersion"] == shared.LEGACY
            assert await s.notify(node, note) == 202
            listed = await s.result(rust, "resources/list")
            assert any(r["uri"] == "notes://note-2" for r in listed["resources"])
            prompt = await s.result(node, "prompts/get", {"name": "review_note", "arguments": {"uri": "notes://note-1"}})
            assert prompt["messages"]
            # A subscription made on Node reaches the GET stream Python holds.
            async with Events(http, py, s.headers()) as ev:
                before = (await stats(py))["imported"]
                assert (await s.result(node, "resources/subscribe", {"uri": "notes://note-2"})) == {}
                await applied(py, "imported", before + 1)
                await write(rust, "notes://note-2", "- milk")
                eid, msg = await ev.next()
                assert (eid, msg["method"], msg["params"]["uri"]) == ("1", "notifications/resources/updated", "notes://note-2")
            # The next GET stream, on Node, is numbered after the event Python stored; a
            # DELETE on Rust ends it, and the session is 404 on every runtime.
            async with Events(http, node, s.headers()) as held:
                await write(py, "notes://note-2", "- bread")
                eid, msg = await held.next()
                assert (eid, msg["params"]["uri"]) == ("2", "notes://note-2")
                r = await http.delete(rust, headers=s.headers())
                assert r.status_code == 200
                with pytest.raises(EOFError):
                    await held.next()
            for url in (py, node, rust):
                r = await s.call(url, "ping")
                assert r.status_code == 404, (url, r.text)

    run(main())


def test_a_rust_stream_ends_when_node_deletes_the_python_session(mixed):
    shared.test_a_session_continues_on_b_and_c_and_a_delete_on_c_ends_it_everywhere(Roles(mixed, "rust", "py", "node"))


@pytest.mark.parametrize(("doomed", "order"), [("node", ("py", "rust", "node")), ("rust", ("node", "py", "rust"))])
def test_a_killed_runtimes_stream_resumes_on_another(mixed, doomed, order):
    mixed.doomed = doomed
    shared.test_a_stream_of_a_killed_instance_resumes_on_another_with_last_event_id(Roles(mixed, *order))


def test_redis_stops_and_restarts_under_a_rust_session(mixed):
    shared.test_redis_stops_and_restarts(Roles(mixed, "rust", "py", "node"))
