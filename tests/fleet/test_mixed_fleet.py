"""A mixed fleet (docs/scale-out.md): one Python, one Node and one Rust instance of the notes
catalogue (examples/python/notes_instance.py, examples/node/notes-instance.mjs,
examples/scale-out/notes_instance.rs) on one real Redis, behind the round-robin front
(examples/scale-out/front.py). Every instance speaks the core's fleet protocol
(docs/rules.md §23) through its ecosystem's Redis client (redis-py, node-redis, redis-rs).

* a listen on the Node instance gets an update written through the Python one exactly once,
  with its subscription id; the same for a listen on Python (Rust writes) and on Rust (Node
  writes);
* through the front: three listens (one per instance) each get an update once;
* a cursor from one instance pages on the others;
* an ``input_required`` retry sealed by one instance is accepted by each other one;
* Redis stops: every listen ends with the graceful result; Redis restarts on the same port:
  the listens opened meanwhile end too, and fresh listens hear updates from other instances.

Needs ``MCP_FLEET_NODE`` (a node binary) and ``MCP_FLEET_RUST`` (the built notes-instance);
test.sh's "mixed fleet" step sets both.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings-python" / "tests"))
sys.path.insert(0, str(ROOT / "examples" / "scale-out"))

from fleet import Instance, Redis, fleet_keys, free_port  # noqa: E402
from test_scale_out import CAPS, aim, ended, next_event, routed, run, written  # noqa: E402

from mcp_context.aio import Client  # noqa: E402

NODE = os.environ.get("MCP_FLEET_NODE")
RUST = os.environ.get("MCP_FLEET_RUST")
pytestmark = pytest.mark.skipif(not (NODE and RUST), reason="MCP_FLEET_NODE and MCP_FLEET_RUST (test.sh's mixed fleet step)")


class Mixed:
    def __init__(self, redis: Redis | None = None) -> None:
        self.dir = tempfile.mkdtemp(prefix="mixed-fleet-")
        self.keys = fleet_keys()
        self.redis = redis or Redis().start()
        kw = {"health_s": 2.0}
        self.py = Instance(self.keys, self.redis.url, os.path.join(self.dir, "notes.sqlite"), **kw).start()
        self.node = Instance(self.keys, self.redis.url, "unused", cmd=[NODE, "examples/node/notes-instance.mjs"], **kw).start()
        self.rust = Instance(self.keys, self.redis.url, "unused", cmd=[RUST], **kw).start()
        self.redis.wait_subscribers(3)
        self.front_port = free_port()
        self.front = subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "scale-out" / "front.py"), "--port", str(self.front_port), self.py.url, self.node.url, self.rust.url],
        )
        self.front_url = f"http://127.0.0.1:{self.front_port}/mcp"

    def stop(self) -> None:
        self.front.terminate()
        self.front.wait()
        for i in (self.py, self.node, self.rust):
            i.stop()
        self.redis.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def mixed():
    m = Mixed()
    yield m
    m.stop()


@pytest.mark.parametrize(("listen_on", "write_on"), [("node", "py"), ("py", "rust"), ("rust", "node")])
def test_a_listen_hears_another_runtimes_update_once_with_its_id(mixed, listen_on, write_on):
    at, by = getattr(mixed, listen_on).url, getattr(mixed, write_on).url
    uri = "notes://note-2"

    async def main():
        async with Client.http(at) as c, c.listen(resource_subscriptions=[uri]) as sub:
            await written(by, uri, f"written through {write_on}")
            got = await next_event(sub)
            assert (got.method, got.uri, got.subscription) == ("notifications/resources/updated", uri, sub.call)
            with pytest.raises(TimeoutError):  # exactly once
                await next_event(sub, 0.7)

    run(main())


def test_through_the_front_every_listen_hears_once(mixed):
    uri = "notes://note-4"

    async def main():
        async with Client.http(mixed.front_url) as c, contextlib.AsyncExitStack() as stack:
            # one POST each: round robin puts one listen on each instance
            subs = [await stack.enter_async_context(c.listen(resource_subscriptions=[uri])) for _ in range(3)]
            await written(mixed.front_url, uri, "through the front")
            for s in subs:
                got = await next_event(s)
                assert got.uri == uri and got.subscription == s.call
            for s in subs:
                with pytest.raises(TimeoutError):
                    await next_event(s, 0.5)

    run(main())


def test_a_cursor_pages_across_runtimes(mixed):
    urls = [mixed.py.url, mixed.node.url, mixed.rust.url]

    async def main():
        async with Client.http(urls[0]) as one:
            expected = [r["uri"] for r in await one.list_resources()]
        for order in (urls, urls[::-1], [urls[1], urls[2], urls[0]]):
            async with routed(order[0]) as client:
                await aim(client, *order)
                got = [r["uri"] for r in await client.list_resources()]
                assert client._transport.sent == order
            assert got == expected and len(got) == 7

    run(main())


@pytest.mark.parametrize(("seal", "open_"), [("py", "node"), ("node", "rust"), ("rust", "py")])
def test_a_retry_sealed_by_one_runtime_is_accepted_by_another(mixed, seal, open_):
    a, b = getattr(mixed, seal).url, getattr(mixed, open_).url

    async def main():
        async def keep(requests):
            assert requests["confirm"]["method"] == "elicitation/create"
            return {"confirm": {"action": "reject"}}

        async with routed(a, capabilities=CAPS, on_input=keep) as client:
            await aim(client, a, b)
            r = await client.call_tool("delete_note", {"uri": "notes://note-3"})
            assert client._transport.sent == [a, b]  # sealed by `seal`, retried on `open_`
            assert r["content"][0]["text"] == "kept", r

    run(main())


def test_redis_stops_and_restarts():
    m = Mixed()
    try:

        async def main():
            async with contextlib.AsyncExitStack() as stack:
                clients = [await stack.enter_async_context(Client.http(i.url)) for i in (m.py, m.node, m.rust)]

                async def listens():
                    return [await stack.enter_async_context(c.listen(resource_subscriptions=["notes://note-5"])) for c in clients]

                subs = await listens()
                m.redis.stop()
                # every listen of every runtime ends with the graceful result
                assert [await ended(s) for s in subs] == ["graceful"] * 3
                # listens opened during the outage: served locally, ended again when Redis is back
                during = await listens()
                m.redis.start()
                assert [await ended(s, 15) for s in during] == ["graceful"] * 3
                m.redis.wait_subscribers(3)
                # fresh listens hear the other runtimes again
                fresh = await listens()
                await written(m.node.url, "notes://note-5", "after the outage")
                for s in fresh:
                    got = await next_event(s)
                    assert got.uri == "notes://note-5" and got.subscription == s.call

        run(asyncio.wait_for(main(), 50))
    finally:
        m.stop()
