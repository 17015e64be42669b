"""2025-11-25 sessions across Node instances (docs/scale-out.md, "2025-11-25 sessions across
instances"): three Node notes instances (examples/node/notes-instance.mjs ``--share-sessions``,
the package's ``RedisSessionStore`` on node-redis; served straight on node:http and through
``server.fetch``, each run with the runners in the other roles) on one real Redis, driven by the very tests
the Python fleet passes (bindings-python/tests/test_sessions_fleet.py), raw HTTP, the test
choosing the instance of each request:

* initialize on A, continue on B and C; a subscription made on one instance reaches the GET
  stream held by another; DELETE on C is 404 on A, B and C and ends A's GET stream;
* SIGKILL the instance holding a GET stream; resume on another with ``Last-Event-ID``: the
  stored events the client had not processed, then live ones, none lost, none twice;
* Redis stops (sessions served from each instance's copy) and restarts empty (404, then a new
  session works fleet-wide);
* the session bound (``max_sessions``) is the fleet's;
* a DELETE published while an instance's channel was cut ends the session there on the reload;
* the first three again with an async middleware on every instance (the core's gate).

Needs ``MCP_FLEET_NODE`` (test.sh's mixed fleet step sets it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings-python" / "tests"))
sys.path.insert(0, str(ROOT / "examples" / "scale-out"))

import test_sessions_fleet as shared  # noqa: E402
from fleet import Instance  # noqa: E402

NODE = os.environ.get("MCP_FLEET_NODE")
RUST = os.environ.get("MCP_FLEET_RUST")
pytestmark = pytest.mark.skipif(not NODE, reason="MCP_FLEET_NODE (test.sh's mixed fleet step)")


def node_instance(fleet: shared.Fleet, *extra: str) -> Instance:
    i = Instance(fleet.keys, fleet.redis.url, fleet.db, cmd=[NODE, "examples/node/notes-instance.mjs"])
    i.args += ["--share-sessions", *extra]
    return i.start()


class NodeFleet(shared.Fleet):
    """Node instances sharing sessions, every other one served through ``server.fetch`` (web
    ``Request``/``Response``) rather than straight on node:http (``first``: the runner of A and
    C; B and the killed fourth have the other); ``instance()`` starts one more. ``middleware``:
    each instance runs an async middleware, so requests reach the machine after the gate (a
    promise in the runners) and the session store still stores before the answer goes."""

    def __init__(self, first: str, middleware: bool = False) -> None:
        self.runners = [first, "fetch" if first == "node" else "node"]
        self.extra = ["--middleware"] if middleware else []
        self.started = 0
        super().__init__(3)

    def instance(self) -> Instance:
        self.started += 1
        return node_instance(self, "--runner", self.runners[(self.started - 1) % 2], *self.extra)


@pytest.fixture(scope="module", params=["node", "fetch", "node+middleware"])
def fleet(request):
    first, _, mw = request.param.partition("+")
    f = NodeFleet(first, middleware=bool(mw))
    yield f
    f.stop()


def test_a_session_continues_on_b_and_c_and_a_delete_on_c_ends_it_everywhere(fleet):
    shared.test_a_session_continues_on_b_and_c_and_a_delete_on_c_ends_it_everywhere(fleet)


def test_a_stream_of_a_killed_instance_resumes_on_another_with_last_event_id(fleet):
    shared.test_a_stream_of_a_killed_instance_resumes_on_another_with_last_event_id(fleet)


def test_redis_stops_and_restarts(fleet):
    shared.test_redis_stops_and_restarts(fleet)


def test_the_session_bound_is_the_fleets(monkeypatch):
    """Two Node instances with ``--max-sessions 2``: sessions established on A fill the bound
    for B (503), and one ended on B (DELETE) makes room on A."""
    monkeypatch.setattr(shared, "Instance", lambda *a, **kw: Instance(*a, cmd=[NODE, "examples/node/notes-instance.mjs"], **kw))
    shared.test_the_session_bound_is_the_fleets()


def test_a_delete_published_while_an_instance_was_not_listening_ends_the_session_there(monkeypatch):
    """Two Node instances: their session channels are cut and a session is deleted on B before
    A subscribes again; A forgets it when it loads the table again (the core's
    ``retainSessions``)."""
    monkeypatch.setattr(shared, "Instance", lambda *a, **kw: Instance(*a, cmd=[NODE, "examples/node/notes-instance.mjs"], **kw))
    shared.test_a_delete_published_while_an_instance_was_not_listening_ends_the_session_there()
