"""The session channel's messages as every runtime reads them (docs/scale-out.md, "In Redis"):
``<instance>\\n<id>`` ends session ``id`` everywhere, ``<instance>`` being 16 random bytes. A
reader must take the instance by its length: random bytes may hold a newline, and a reader
that splits at the first one reads another session id (the DELETE is missed, the GET stream
held here is not ended). Each runtime's instance holds a session's GET stream; an end message
from a foreign instance, with and without a newline in its id, must end it.

Needs ``MCP_FLEET_NODE`` and ``MCP_FLEET_RUST`` (test.sh's mixed fleet step sets both).
"""

from __future__ import annotations

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
from test_sessions_fleet import CHANNEL, Events, Session, run  # noqa: E402

NODE = os.environ.get("MCP_FLEET_NODE")
RUST = os.environ.get("MCP_FLEET_RUST")
pytestmark = pytest.mark.skipif(not (NODE and RUST), reason="MCP_FLEET_NODE and MCP_FLEET_RUST (test.sh's mixed fleet step)")
CMD = {"py": None, "node": [NODE, "examples/node/notes-instance.mjs"], "rust": [RUST]}


@pytest.mark.parametrize("foreign", [b"\x01" * 16, b"\x01" * 5 + b"\n" + b"\x01" * 10], ids=["plain", "newline"])
@pytest.mark.parametrize("runtime", ["py", "node", "rust"])
def test_an_end_from_any_instance_ends_the_stream_held_here(runtime, foreign):
    import redis as redis_py

    work = tempfile.mkdtemp(prefix="sessions-wire-")
    r = Redis().start()
    inst = Instance(fleet_keys(), r.url, os.path.join(work, "notes.sqlite"), cmd=CMD[runtime])
    inst.args.append("--share-sessions")
    inst.start()
    pub = redis_py.Redis.from_url(r.url)
    try:
        if runtime == "rust":  # the host's store starts with the first request it serves
            httpx.get(inst.url, timeout=5)
        r.wait_subscribers(1, CHANNEL)

        async def main():
            async with httpx.AsyncClient(timeout=10) as http:
                s = Session(http)
                _, note = await s.initialize(inst.url)
                assert await s.notify(inst.url, note) == 202
                async with Events(http, inst.url, s.headers()) as held:
                    pub.hdel(CHANNEL, s.id)  # ended on the foreign instance: gone from the store
                    assert pub.publish(CHANNEL, foreign + b"\n" + s.id.encode()) == 1
                    with pytest.raises(EOFError):
                        await held.next()
                assert (await s.call(inst.url, "ping")).status_code == 404

        run(main())
    finally:
        pub.close()
        inst.stop()
        r.stop()
        shutil.rmtree(work, ignore_errors=True)
