"""Listens deliver updates only for what their caller may read, through the Redis broker
(docs/authorization.md, docs/rules.md §22.4): two protected instances
(protected_instance.py, each under uvicorn in its own process) on one real Redis
(``redis-server`` started here). An update made through B reaches a listen on A once when its
caller has the scope, and never when it has not."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_context.aio import Client

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "examples" / "scale-out"))

from fleet import Redis  # noqa: E402

URIS = ["secret://a", "public://a"]


def instance(redis_url: str, fleet: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "protected_instance.py"), "--redis", redis_url, "--fleet", fleet],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("READY "):
        proc.kill()
        raise RuntimeError(f"instance did not start: {line!r}")
    return proc, line.split()[1]


@pytest.fixture(scope="module")
def fleet():
    redis = Redis().start()
    name = f"auth-{secrets.token_hex(4)}"
    procs = []
    try:
        procs = [instance(redis.url, name) for _ in range(2)]
        redis.wait_subscribers(2, channel=f"mcp-context:{name}:events")
        yield [url for _, url in procs]
    finally:
        for p, _ in procs:
            p.terminate()
            p.wait(10)
        redis.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def next_event(sub, timeout: float = 5.0):
    return await asyncio.wait_for(sub.__anext__(), timeout)


def test_an_update_through_b_reaches_only_the_listens_on_a_that_may_read_it(fleet):
    a, b = fleet

    async def run() -> None:
        async with Client.http(a, headers=bearer("admin")) as admin, Client.http(a, headers=bearer("reader")) as reader, Client.http(b, headers=bearer("admin")) as writer:
            async with admin.listen(resource_subscriptions=URIS) as sa, reader.listen(resource_subscriptions=URIS) as sr:
                # The acknowledgement names only what the caller may read.
                assert sa.honoured["resourceSubscriptions"] == URIS, sa.honoured
                assert sr.honoured["resourceSubscriptions"] == ["public://a"], sr.honoured
                # Through B: the secret first, then the public one (one channel, in order).
                for uri in URIS:
                    assert (await writer.call_tool("touch", {"uri": uri}))["content"][0]["text"] == "touched"
                got = [(await next_event(sa)).uri, (await next_event(sa)).uri]
                assert got == URIS, got
                # The reader's first event is the public update: the secret one, published
                # before it, was never delivered.
                assert (await next_event(sr)).uri == "public://a"
                # Exactly once each.
                for sub in (sa, sr):
                    with pytest.raises(TimeoutError):
                        await next_event(sub, 0.7)

    asyncio.run(asyncio.wait_for(run(), 60))
