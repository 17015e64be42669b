"""The broker's failure rules (docs/scale-out.md, "Failure behaviour") on the Node and Rust
runners, as the Python runner's tests check them (bindings-python/tests/test_scale_out.py):
one notes instance (examples/node/notes-instance.mjs, the Rust ``notes-instance``) on a real
``redis-server``.

* A silent broker (Redis SIGSTOPped: its connections stay open, as behind a partition) is
  found by the health PING after ``--health-s`` of silence: every listen ends with the
  graceful result; a listen opened while it is still silent hears no edge (no flapping); once
  Redis answers again the instance resubscribes and ends the listens once more; then it is
  stable.
* The 2025-11-25 session store on the same silent Redis: a session the instance holds is
  served from its copy (each Redis operation gives up after 2 s).

Needs ``MCP_FLEET_NODE`` and ``MCP_FLEET_RUST`` (test.sh's mixed fleet step sets both).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings-python" / "tests"))
sys.path.insert(0, str(ROOT / "examples" / "scale-out"))

from fleet import Instance, Redis, fleet_keys  # noqa: E402
from test_scale_out import ended, next_event, run  # noqa: E402
from test_sessions_fleet import Session  # noqa: E402

from mcp_context.aio import Client  # noqa: E402

NODE = os.environ.get("MCP_FLEET_NODE")
RUST = os.environ.get("MCP_FLEET_RUST")
pytestmark = pytest.mark.skipif(not (NODE and RUST), reason="MCP_FLEET_NODE and MCP_FLEET_RUST (test.sh's mixed fleet step)")
CMD = {"node": [NODE, "examples/node/notes-instance.mjs"], "rust": [RUST]}


@pytest.fixture
def silent():
    """A Redis and a work directory; ``silent.instance(runtime)`` starts one instance on it."""

    class Setup:
        dir = tempfile.mkdtemp(prefix="broker-failures-")
        redis = Redis().start()
        started: list[Instance] = []

        def instance(self, runtime: str, *extra: str) -> Instance:
            i = Instance(fleet_keys(), self.redis.url, os.path.join(self.dir, "notes.sqlite"), health_s=0.5, cmd=CMD[runtime])
            i.args += list(extra)
            self.started.append(i.start())
            return i

    s = Setup()
    yield s
    for i in s.started:
        i.stop()
    s.redis.stop()
    shutil.rmtree(s.dir, ignore_errors=True)


@pytest.mark.parametrize("runtime", ["node", "rust"])
def test_a_silent_broker_is_found_by_the_health_ping(silent, runtime):
    inst = silent.instance(runtime)
    silent.redis.wait_subscribers(1)

    async def main():
        async with Client.http(inst.url) as c:
            async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                await asyncio.sleep(0.3)
                silent.redis.pause(True)
                assert await ended(sub, 6) == "graceful"
            async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                with pytest.raises(TimeoutError):  # still silent: no edge, no flapping
                    await next_event(sub, 2.5)
                silent.redis.pause(False)
                assert await ended(sub, 8) == "graceful"  # answered again: resubscribed
            async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                with pytest.raises(TimeoutError):  # and stable: no more edges
                    await next_event(sub, 2.0)

    run(main())


@pytest.mark.parametrize("runtime", ["node", "rust"])
def test_a_silent_session_store_leaves_the_sessions_held_here_served(silent, runtime):
    inst = silent.instance(runtime, "--share-sessions")
    if runtime == "rust":  # the host's store starts with the first request it serves
        httpx.get(inst.url, timeout=5)
    silent.redis.wait_subscribers(1, "mcp-context:notes:sessions")

    async def main():
        async with httpx.AsyncClient(timeout=15) as http:
            s = Session(http)
            _, note = await s.initialize(inst.url)
            assert await s.notify(inst.url, note) == 202
            silent.redis.pause(True)
            try:
                assert (await s.result(inst.url, "ping")) == {}
                listed = await s.result(inst.url, "resources/list")
                assert listed["resources"]
            finally:
                silent.redis.pause(False)
            assert (await s.result(inst.url, "ping")) == {}

    run(main())
