"""2025-11-25 sessions across a fleet (docs/scale-out.md, "2025-11-25 sessions across
instances"): notes instances (examples/python/notes_instance.py ``--share-sessions``) on one
real Redis (``redis-server`` started here), the session store
``mcp_context._session_store.RedisSessionStore``. Raw HTTP (httpx), the test choosing the
instance of each request, as a round-robin front would.

* a session initialized on A continues on B and C; a subscription made on one reaches the GET
  stream held by another; DELETE on C is 404 on A, B and C, and ends A's GET stream;
* the instance holding a GET stream is killed (SIGKILL); the stream resumes on another with
  ``Last-Event-ID``: the events it had stored and the client had not processed are replayed,
  then live ones follow, numbered after them: none lost, none twice;
* Redis stops: sessions an instance holds keep being served from its copy; Redis restarts
  empty (no persistence): a session is 404 on its next request, a new one works fleet-wide;
* the session bound (``max_sessions``) is the fleet's: sessions established on A fill it for B,
  and one ended on B (DELETE) makes room on A.
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

SCALE_OUT = Path(__file__).resolve().parents[2] / "examples" / "scale-out"
sys.path.insert(0, str(SCALE_OUT))

from fleet import Instance, Redis, fleet_keys  # noqa: E402

LEGACY = "2025-11-25"
CHANNEL = "mcp-context:notes:sessions"
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


class Fleet:
    def __init__(self, n: int = 3) -> None:
        self.dir = tempfile.mkdtemp(prefix="sessions-fleet-")
        self.db = os.path.join(self.dir, "notes.sqlite")
        self.keys = fleet_keys()
        self.redis = Redis().start()
        self.instances = [self.instance() for _ in range(n)]
        self.wait(n)

    def instance(self) -> Instance:
        i = Instance(self.keys, self.redis.url, self.db)
        i.args.append("--share-sessions")
        return i.start()

    def wait(self, n: int) -> None:
        """Every instance's broker and session store subscribed (they serve HTTP before)."""
        self.redis.wait_subscribers(n)
        self.redis.wait_subscribers(n, CHANNEL)

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


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


class Session:
    """A 2025-11-25 client whose every request goes where the test says."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.id: str | None = None
        self.n = 0

    def headers(self, **extra: str) -> dict[str, str]:
        h = dict(HEADERS)
        if self.id is not None:
            h["mcp-session-id"] = self.id
            h["mcp-protocol-version"] = LEGACY
        return {**h, **extra}

    async def initialize(self, url: str) -> dict:
        self.n += 1
        body = {"jsonrpc": "2.0", "id": self.n, "method": "initialize",
                "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "fleet-test", "version": "1"}}}
        r = await self.http.post(url, json=body, headers=self.headers())
        assert r.status_code == 200, r.text
        self.id = r.headers["mcp-session-id"]
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        return r.json()["result"], note

    async def notify(self, url: str, body: dict) -> int:
        return (await self.http.post(url, json=body, headers=self.headers())).status_code

    async def call(self, url: str, method: str, params: dict | None = None) -> httpx.Response:
        self.n += 1
        body = {"jsonrpc": "2.0", "id": self.n, "method": method, "params": params or {}}
        return await self.http.post(url, json=body, headers=self.headers())

    async def result(self, url: str, method: str, params: dict | None = None) -> dict:
        r = await self.call(url, method, params)
        assert r.status_code == 200, r.text
        v = _message(r)
        assert "result" in v, v
        return v["result"]


def _message(r: httpx.Response) -> dict:
    """The JSON-RPC answer of a POST (a JSON body, or the last SSE event of the stream)."""
    if r.headers.get("content-type", "").startswith("text/event-stream"):
        datas = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
        return json.loads(datas[-1])
    return r.json()


class Events:
    """A GET event stream: ``(id, message)`` pairs as they come."""

    def __init__(self, http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        self.cm = http.stream("GET", url, headers={**headers, "accept": "text/event-stream"})
        self.r: httpx.Response | None = None
        self.lines = None

    async def __aenter__(self) -> Events:
        self.r = await self.cm.__aenter__()
        assert self.r.status_code == 200, await self.r.aread()
        self.lines = self.r.aiter_lines()
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.cm.__aexit__(None, None, None)
        except Exception:  # noqa: BLE001 - a stream cut by a killed instance
            pass

    async def next(self, timeout: float = 8.0) -> tuple[str | None, dict]:
        async def one() -> tuple[str | None, dict]:
            eid, data = None, []
            async for line in self.lines:
                if line.startswith("id:"):
                    eid = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and data:
                    return eid, json.loads("\n".join(data))
            raise EOFError("the stream ended")

        return await asyncio.wait_for(one(), timeout)


async def write(url: str, uri: str, text: str) -> None:
    """A modern, stateless tool call (any instance): the note changes, the fleet is told."""
    from mcp_context.aio import Client

    async with Client.http(url) as c:
        r = await c.call_tool("write_note", {"uri": uri, "text": text})
        assert r["content"][0]["text"] == "written", r


async def stats(url: str) -> dict:
    """An instance's session store counters (its ``session_store_stats`` tool)."""
    from mcp_context.aio import Client

    async with Client.http(url) as c:
        r = await c.call_tool("session_store_stats", {})
        return json.loads(r["content"][0]["text"])


async def applied(url: str, counter: str, at_least: int) -> None:
    """Waits until the instance at ``url`` has applied ``at_least`` channel messages of that
    kind (``imported``, ``forgotten``): the fleet's table reaches each instance eventually."""
    deadline = time.monotonic() + 15
    while (await stats(url))[counter] < at_least:
        assert time.monotonic() < deadline, f"{url} did not apply the fleet's change"
        await asyncio.sleep(0.05)


def test_a_session_continues_on_b_and_c_and_a_delete_on_c_ends_it_everywhere(fleet):
    a, b, c = (i.url for i in fleet.instances)

    async def main():
        async with httpx.AsyncClient(timeout=10) as http:
            s = Session(http)
            result, note = await s.initialize(a)
            assert result["protocolVersion"] == LEGACY
            assert await s.notify(b, note) == 202
            listed = await s.result(c, "resources/list")
            assert any(r["uri"] == "notes://note-2" for r in listed["resources"])
            assert (await s.result(a, "resources/subscribe", {"uri": "notes://note-2"})) == {}
            prompt = await s.result(b, "prompts/get", {"name": "review_note", "arguments": {"uri": "notes://note-1"}})
            assert prompt["messages"]
            read = await s.result(c, "resources/read", {"uri": "notes://note-2"})
            assert read["contents"][0]["uri"] == "notes://note-2"
            # The GET stream on C: the subscription made on A is there; an update made through
            # B reaches it once, as event 1.
            async with Events(http, c, s.headers()) as ev:
                await write(b, "notes://note-2", "- milk")
                eid, msg = await ev.next()
                assert (eid, msg["method"], msg["params"]["uri"]) == ("1", "notifications/resources/updated", "notes://note-2")
                # A subscription made on A while C holds the stream: C's table learns it
                # from the fleet's channel (eventually: the change is published before A
                # answers, and applied by C when it arrives).
                before = (await stats(c))["imported"]
                assert (await s.result(a, "resources/subscribe", {"uri": "notes://note-3"})) == {}
                await applied(c, "imported", before + 1)
                await write(b, "notes://note-3", "- bread")
                eid, msg = await ev.next()
                assert (eid, msg["params"]["uri"]) == ("2", "notes://note-3")
                # An unsubscribe on B: C sends nothing for note-2 any more.
                before = (await stats(c))["imported"]
                assert (await s.result(b, "resources/unsubscribe", {"uri": "notes://note-2"})) == {}
                await applied(c, "imported", before + 1)
                await write(a, "notes://note-2", "- nothing")
                await write(a, "notes://note-3", "- jam")
                eid, msg = await ev.next()
                assert (eid, msg["params"]["uri"]) == ("3", "notes://note-3")
            # A GET stream held by A ends when the session is deleted on C.
            async with Events(http, a, s.headers()) as held:
                r = await http.delete(c, headers=s.headers())
                assert r.status_code == 200
                with pytest.raises(EOFError):
                    await held.next()
            for url in (a, b, c):
                r = await s.call(url, "ping")
                assert r.status_code == 404, (url, r.text)

    run(main())


def test_a_stream_of_a_killed_instance_resumes_on_another_with_last_event_id(fleet):
    import redis

    a, b, c = (i.url for i in fleet.instances)
    doomed = fleet.instance()  # a fourth instance, the one that will die
    fleet.wait(4)
    store = redis.Redis.from_url(fleet.redis.url)

    async def main():
        async with httpx.AsyncClient(timeout=10) as http:
            s = Session(http)
            _, note = await s.initialize(a)
            assert await s.notify(b, note) == 202
            assert (await s.result(c, "resources/subscribe", {"uri": "notes://note-4"})) == {}
            events_key = f"mcp-context:notes:events:{s.id}"
            got: list[tuple[str | None, str]] = []
            ev = Events(http, doomed.url, s.headers())
            await ev.__aenter__()
            for k in range(1, 4):
                await write(b, "notes://note-4", f"v{k}")
                eid, msg = await ev.next()
                got.append((eid, msg["params"]["uri"]))
            # Two more events are sent (and stored) while the client is not reading: then the
            # instance dies, and the client drops what it had not processed.
            for k in (4, 5):
                await write(c, "notes://note-4", f"v{k}")
            deadline = time.monotonic() + 10
            while store.zcard(events_key) < 5:
                assert time.monotonic() < deadline, "the holder did not store its events"
                await asyncio.sleep(0.05)
            doomed.kill()
            await ev.__aexit__()
            # Resume on B with the last id processed: 4 and 5 are replayed, then 6 is live.
            last = got[-1][0]
            assert last == "3"
            async with Events(http, b, s.headers(**{"last-event-id": last})) as resumed:
                for _ in range(2):
                    eid, msg = await resumed.next()
                    got.append((eid, msg["params"]["uri"]))
                await write(a, "notes://note-4", "v6")
                eid, msg = await resumed.next()
                got.append((eid, msg["params"]["uri"]))
            assert got == [(str(n), "notes://note-4") for n in range(1, 7)], got
            # An id the core did not mint (or none) replays nothing: a fresh stream, numbered
            # after what is stored.
            async with Events(http, c, s.headers(**{"last-event-id": "not-ours"})) as fresh:
                await write(a, "notes://note-4", "v7")
                eid, _ = await fresh.next()
                assert eid == "7"

    try:
        run(main())
    finally:
        store.close()
        doomed.stop()
        fleet.instances[:] = fleet.instances[:3]


def test_redis_stops_and_restarts(fleet):
    a, b, c = (i.url for i in fleet.instances)

    async def main():
        async with httpx.AsyncClient(timeout=10) as http:
            s = Session(http)
            before = (await stats(c))["imported"]
            _, note = await s.initialize(a)
            assert await s.notify(b, note) == 202
            await applied(c, "imported", before + 2)  # C's copy of the table, from the channel
            fleet.redis.stop()
            # Redis down: every instance serves the session from its own copy.
            for url in (a, b, c):
                assert (await s.result(url, "ping")) == {}, url
            # A new session is served by the instance that made it (not stored: another
            # instance does not know it).
            t = Session(http)
            _, note = await t.initialize(b)
            assert (await s.result(b, "ping")) == {}
            assert (await t.call(c, "ping")).status_code == 404
            # Redis restarts empty (no persistence): the sessions are gone from the fleet,
            # so the next request is 404 and the client initializes again.
            port = fleet.redis.port
            fleet.redis = Redis(port).start()
            fleet.wait(3)
            for sess in (s, t):
                assert (await sess.call(a, "ping")).status_code == 404
            u = Session(http)
            _, note = await u.initialize(c)
            assert await u.notify(a, note) == 202
            for url in (a, b, c):
                assert (await u.result(url, "ping")) == {}, url

    run(main())




def test_a_delete_published_while_an_instance_was_not_listening_ends_the_session_there():
    """The session channel of every instance is cut (``CLIENT KILL TYPE pubsub``) and a
    session is deleted on B before A subscribes again (its retry is 0.5 s): the message is
    lost for A, which forgets the session when it loads the table again."""
    small = Fleet(0)
    try:
        for _ in range(2):
            i = Instance(small.keys, small.redis.url, small.db)
            i.args += ["--share-sessions"]
            small.instances.append(i.start())
        small.wait(2)
        a, b = (i.url for i in small.instances)

        async def main():
            import redis.asyncio as aioredis

            r = aioredis.Redis.from_url(small.redis.url)
            async with httpx.AsyncClient(timeout=10) as http:
                s = Session(http)
                _, note = await s.initialize(a)
                assert await s.notify(a, note) == 202
                await applied(b, "imported", 2)
                assert await r.execute_command("CLIENT", "KILL", "TYPE", "pubsub") >= 2
                d = await http.delete(b, headers=s.headers())
                assert d.status_code == 200
                await applied(a, "forgotten", 1)  # from the reload, not the channel
                assert (await s.call(a, "ping")).status_code == 404
            await r.aclose()

        run(main())
    finally:
        small.stop()


def test_the_session_bound_is_the_fleets():
    small = Fleet(0)
    try:
        for _ in range(2):
            i = Instance(small.keys, small.redis.url, small.db)
            i.args += ["--share-sessions", "--max-sessions", "2"]
            small.instances.append(i.start())
        small.wait(2)
        a, b = (i.url for i in small.instances)

        async def main():
            async with httpx.AsyncClient(timeout=10) as http:
                for _ in range(2):  # two established sessions, made on A
                    s = Session(http)
                    _, note = await s.initialize(a)
                    assert await s.notify(a, note) == 202
                await applied(b, "imported", 4)  # B's table, from the channel
                body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
                r = await http.post(b, json=body, headers=HEADERS)
                assert r.status_code == 503, r.text
                assert int(r.headers["retry-after"]) >= 1
                # Ending one (DELETE on B) makes room on A.
                r = await http.delete(b, headers=s.headers())
                assert r.status_code == 200
                await applied(a, "forgotten", 1)  # A's table, from the channel
                t = Session(http)
                await t.initialize(a)

        run(main())
    finally:
        small.stop()
