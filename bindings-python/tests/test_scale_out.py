"""Scale-out (docs/scale-out.md): three notes instances (examples/python/notes_instance.py, each
under uvicorn in its own process) on one real Redis (``redis-server`` started here on a free
port), one shared SQLite store and the same sealing keys. The tests send each request to the
instance they choose.

* a listen through A gets an update made through B once, stamped with the listen's id;
* an ``input_required`` retry sent to C succeeds (the state sealed by A opens there); one
  sealed by the older key (rotation) too; one sealed by a key the fleet does not know is -32602;
* a cursor from A pages on B and C;
* the broker stops: reads and local listens keep working, and every listen stream ends (the
  documented signal); the broker comes back: the streams end again and cross-instance updates
  flow again;
* an instance dies: its listen streams end; the client re-listens elsewhere.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from mcp_context import McpError
from mcp_context.aio import Client, _Http

SCALE_OUT = Path(__file__).resolve().parents[2] / "examples" / "scale-out"
sys.path.insert(0, str(SCALE_OUT))

from fleet import Instance, Redis, fleet_keys  # noqa: E402

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
CAPS = {"elicitation": {"form": {}}}


class Routed(_Http):
    """Streamable HTTP where the test picks the instance of each POST: ``route`` is the list
    of URLs used in turn (round robin), ``sent`` the URL each request went to."""

    def __init__(self, urls: list[str]) -> None:
        super().__init__(urls[0], {})
        self.route = list(urls)
        self.turn = 0
        self.sent: list[str] = []

    async def _post(self, client, body, headers, id):  # noqa: A002 - the base's name
        self.url = self.route[self.turn % len(self.route)]
        self.turn += 1
        self.sent.append(self.url)
        await super()._post(client, body, headers, id)


def routed(*urls: str, **kw) -> Client:
    return Client(Routed(list(urls)), **kw)


async def aim(client: Client, *urls: str) -> None:
    """Discovers first (the client does it once, through the first URL), then sends the
    next requests to ``urls`` in turn."""
    await client.discover()
    t = client._transport
    t.route, t.turn, t.sent = list(urls), 0, []


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def next_event(sub, timeout: float = 5.0):
    return await asyncio.wait_for(sub.__anext__(), timeout)


async def ended(sub, timeout: float = 8.0) -> str:
    """Waits until ``sub`` ends (events before the end are skipped); its reason."""
    deadline = time.monotonic() + timeout
    try:
        while True:
            await asyncio.wait_for(sub.__anext__(), max(0.01, deadline - time.monotonic()))
    except StopAsyncIteration:
        return sub.ended
    except McpError:
        return sub.ended or "failed"


class Fleet:
    def __init__(self, n: int = 3) -> None:
        self.dir = tempfile.mkdtemp(prefix="scale-out-")
        self.db = os.path.join(self.dir, "notes.sqlite")
        self.keys = fleet_keys()
        self.redis = Redis().start()
        self.instances = [Instance(self.keys, self.redis.url, self.db).start() for _ in range(n)]
        self.redis.wait_subscribers(n)

    def stop(self) -> None:
        for i in self.instances:
            i.stop()
        self.redis.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def fleet():
    f = Fleet(3)
    yield f
    f.stop()


async def written(url: str, uri: str, text: str) -> None:
    async with Client.http(url) as c:
        r = await c.call_tool("write_note", {"uri": uri, "text": text})
        assert r["content"][0]["text"] == "written", r


def test_update_through_b_reaches_a_listen_once_with_its_id(fleet):
    a, b, c = (i.url for i in fleet.instances)

    async def main():
        async with Client.http(a) as ca, Client.http(c) as cc:
            async with ca.listen(resource_subscriptions=["notes://note-2"]) as sub_a, cc.listen(resource_subscriptions=["notes://note-2"]) as sub_c:
                await written(b, "notes://note-2", "- eggs")
                got = await next_event(sub_a)
                assert (got.method, got.uri, got.subscription) == ("notifications/resources/updated", "notes://note-2", sub_a.call)
                got_c = await next_event(sub_c)
                assert got_c.uri == "notes://note-2" and got_c.subscription == sub_c.call
                # exactly once: nothing else arrives on either stream
                for s in (sub_a, sub_c):
                    with pytest.raises(TimeoutError):
                        await next_event(s, 0.7)
                # and A reads what B wrote (the shared store)
                text = (await ca.read_resource("notes://note-2", refresh=True))["contents"][0]["text"]
                assert text == "- eggs"

        # the listen request's own id on the wire (a string id, kept as is)
        async with httpx.AsyncClient(timeout=10) as http:
            body = {"jsonrpc": "2.0", "id": "listen-on-A", "method": "subscriptions/listen", "params": {"_meta": META, "notifications": {"resourceSubscriptions": ["notes://note-4"]}}}
            hdrs = {"content-type": "application/json", "accept": "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen"}
            async with http.stream("POST", a, content=json.dumps(body), headers=hdrs) as r:
                lines = r.aiter_lines()
                msgs = []
                async for line in lines:
                    if line.startswith("data: "):
                        msgs.append(json.loads(line[6:]))
                        if len(msgs) == 1:  # acknowledged: now write through B
                            await written(b, "notes://note-4", "idea 2")
                        else:
                            break
                note = msgs[1]
                assert note["method"] == "notifications/resources/updated", note
                assert note["params"]["uri"] == "notes://note-4"
                assert note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen-on-A"

    run(main())


def test_input_required_retry_on_c(fleet):
    a, b, c = (i.url for i in fleet.instances)
    pid_c = fleet.instances[2].proc.pid

    async def main():
        client = routed(b, capabilities=CAPS)

        async def confirm(requests):
            assert requests["confirm"]["method"] == "elicitation/create"
            return {"confirm": {"action": "accept", "content": {"ok": True}}}

        client.on_input = confirm
        async with client:
            await aim(client, a, c)
            r = await client.call_tool("delete_note", {"uri": "notes://note-1"})
            assert client._transport.sent == [a, c]  # first try on A, the retry on C
            assert r["content"][0]["text"] == f"deleted by {pid_c}", r
            with pytest.raises(McpError):
                await client.read_resource("notes://note-1", refresh=True)

    run(main())


def test_retry_sealed_by_the_older_key_or_an_unknown_key(fleet):
    """Rotation: an instance still sealing with the older key (key 1 first) is opened by the
    fleet (keys 2 and 1); a key the fleet does not know is -32602, and the instance lives on."""
    a = fleet.instances[0].url
    newest, older = fleet.keys.split(",")
    old_sealer = Instance(f"{older},{newest}", None, fleet.db).start()
    stranger = Instance("7:" + "ab" * 32, None, fleet.db).start()
    try:

        async def main():
            async def confirm(requests):
                return {"confirm": {"action": "reject"}}

            async with routed(a, capabilities=CAPS, on_input=confirm) as client:
                await aim(client, old_sealer.url, a)
                r = await client.call_tool("delete_note", {"uri": "notes://note-3"})
                assert r["content"][0]["text"] == "kept" and client._transport.sent == [old_sealer.url, a]
            async with routed(a, capabilities=CAPS, on_input=confirm) as client:
                await aim(client, stranger.url, a)
                with pytest.raises(McpError) as e:
                    await client.call_tool("delete_note", {"uri": "notes://note-3"})
                assert e.value.code == -32602, e.value
                assert client._transport.sent == [stranger.url, a]
            async with Client.http(a) as client:  # A still serves
                assert (await client.read_resource("notes://note-3"))["contents"][0]["text"]

        run(main())
    finally:
        old_sealer.stop()
        stranger.stop()


def test_cursor_from_a_pages_on_b_and_c(fleet):
    a, b, c = (i.url for i in fleet.instances)

    async def main():
        async with Client.http(a) as one:
            expected = [r["uri"] for r in await one.list_resources()]
        async with routed(c) as client:
            await aim(client, a, b, c)
            got = [r["uri"] for r in await client.list_resources()]
            assert client._transport.sent == [a, b, c]  # 7 notes, pages of 3: one page each
        assert got == expected and len(got) == 7

    run(main())


def test_instance_dies_its_listens_end_clients_relisten_elsewhere(fleet):
    a, b = fleet.instances[0].url, fleet.instances[1].url
    doomed = Instance(fleet.keys, fleet.redis.url, fleet.db).start()
    fleet.redis.wait_subscribers(4)

    async def main():
        async with Client.http(doomed.url) as cd:
            async with cd.listen(resource_subscriptions=["notes://note-5"]) as sub:
                doomed.kill()
                reason = await ended(sub)
                assert reason in ("failed", "unexpected_close"), reason
        async with Client.http(a) as ca:  # re-listen elsewhere
            async with ca.listen(resource_subscriptions=["notes://note-5"]) as sub:
                await written(b, "notes://note-5", "RFC 9110")
                got = await next_event(sub)
                assert got.uri == "notes://note-5" and got.subscription == sub.call

    try:
        run(main())
    finally:
        doomed.stop()


def test_broker_down_then_back():
    f = Fleet(2)
    a, b = (i.url for i in f.instances)
    try:

        async def main():
            async with Client.http(a) as ca, Client.http(b) as cb:
                # cross-instance first
                async with ca.listen(resource_subscriptions=["notes://note-2"]) as sub:
                    await written(b, "notes://note-2", "v1")
                    assert (await next_event(sub)).uri == "notes://note-2"
                    async with cb.listen(resource_subscriptions=["notes://note-2"]) as sub_b:
                        f.redis.stop()
                        # the signal: both instances end their listen streams (graceful result)
                        assert await ended(sub) == "graceful"
                        assert await ended(sub_b) == "graceful"
                # reads keep working, local listens too
                assert (await cb.read_resource("notes://note-2", refresh=True))["contents"][0]["text"] == "v1"
                async with ca.listen(resource_subscriptions=["notes://note-2"]) as sub, cb.listen(resource_subscriptions=["notes://note-2"]) as sub_b:
                    await written(a, "notes://note-2", "v2 (broker down)")
                    got = await next_event(sub)
                    assert got.uri == "notes://note-2" and got.subscription == sub.call
                    with pytest.raises(TimeoutError):  # B cannot hear of it
                        await next_event(sub_b, 0.7)
                    # the broker comes back: each instance resubscribes and ends its streams
                    f.redis.start()
                    assert await ended(sub, 10) == "graceful"
                    assert await ended(sub_b, 10) == "graceful"
                async with ca.listen(resource_subscriptions=["notes://note-2"]) as sub:
                    await written(b, "notes://note-2", "v3")
                    got = await next_event(sub)
                    assert got.uri == "notes://note-2" and got.subscription == sub.call
                    with pytest.raises(TimeoutError):
                        await next_event(sub, 0.5)

        run(main())
    finally:
        f.stop()


def test_through_the_round_robin_front(fleet):
    """examples/scale-out/front.py: one URL, each request to the next instance; a listen, a
    write, a paged list and an input_required retry all work through it."""
    import subprocess

    from fleet import free_port

    port = free_port()
    front = subprocess.Popen([sys.executable, str(SCALE_OUT / "front.py"), "--port", str(port), *(i.url for i in fleet.instances)])
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

        async def main():
            async def confirm(requests):
                return {"confirm": {"action": "reject"}}

            async with Client.http(url, capabilities=CAPS, on_input=confirm) as c, Client.http(url) as w:
                assert len(await c.list_resources()) == 7
                # the retry goes to another instance than the first try (round robin)
                assert (await c.call_tool("delete_note", {"uri": "notes://note-2"}))["content"][0]["text"] == "kept"
                async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                    for n in range(3):
                        await w.call_tool("write_note", {"uri": "notes://note-2", "text": f"front {n}"})
                        got = await next_event(sub)
                        assert got.uri == "notes://note-2" and got.subscription == sub.call

        run(main())
    finally:
        front.terminate()
        try:
            front.wait(5)
        except subprocess.TimeoutExpired:
            front.kill()
            front.wait()
            raise AssertionError("the front did not stop") from None


def test_silent_broker_is_detected_by_ping():
    """A broker that answers nothing (SIGSTOP: connections stay open, as behind a partition)
    is found by the PING after ``health_s`` of silence: the listens end; once it answers
    again the instance resubscribes and ends them again."""
    d = tempfile.mkdtemp(prefix="scale-out-")
    redis = Redis().start()
    inst = Instance(fleet_keys(), redis.url, os.path.join(d, "notes.sqlite"), health_s=0.5).start()
    try:

        async def main():
            async with Client.http(inst.url) as c:
                async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                    await asyncio.sleep(0.3)
                    redis.pause(True)
                    assert await ended(sub, 6) == "graceful"
                async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                    with pytest.raises(TimeoutError):  # still paused: no edge, no flapping
                        await next_event(sub, 2.5)
                    redis.pause(False)
                    assert await ended(sub, 6) == "graceful"  # back: resubscribed
                async with c.listen(resource_subscriptions=["notes://note-2"]) as sub:
                    with pytest.raises(TimeoutError):  # and stable: no more edges
                        await next_event(sub, 2.0)

        run(main())
    finally:
        inst.stop()
        redis.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_hostile_events_on_the_channel_are_dropped(fleet):
    """Anything on the fleet's channel that is not an event of the fleet changes nothing:
    garbage, wrong types, unknown kinds; the next real event arrives once."""
    import redis

    a, b = fleet.instances[0].url, fleet.instances[1].url

    async def main():
        async with Client.http(a) as ca:
            async with ca.listen(resource_subscriptions=["notes://note-2"], resources_list_changed=True) as sub:
                r = redis.Redis.from_url(fleet.redis.url)
                try:
                    for junk in (b"garbage", b"[]", b"{}", b'{"o":"x","k":"resource_updated","u":5}', b'{"o":"x","k":"drop_tables"}', b'{"o":1}', "é".encode("latin-1"), b"\xff" * 70000, b"[" * 50000 + b"]" * 50000):
                        r.publish("mcp-context:notes:events", junk)
                finally:
                    r.close()
                with pytest.raises(TimeoutError):
                    await next_event(sub, 0.5)
                await written(b, "notes://note-2", "after junk")
                got = await next_event(sub)
                assert got.uri == "notes://note-2" and got.subscription == sub.call
                with pytest.raises(TimeoutError):
                    await next_event(sub, 0.5)

    run(main())
