"""Benchmark: a writer on one instance, 100 listen streams spread over three instances, one run.

    python examples/scale-out/bench.py [--updates 500] [--listens 100]

Starts its own Redis and three instances (fleet.py). The listens (raw HTTP SSE streams, one
``httpx`` client in this process) are spread round-robin over the instances and subscribe to
``notes://note-4``. The writer sends ``write_note`` tool calls to instance A, ``--concurrency``
at a time. Each tool call stores the note, then calls ``resource_updated``: A notifies its own
listens, and the event goes through Redis to B and C.

Reported:

* updates/s: tool calls completed per second by the writer (with every notification of every
  listen received before the clock stops);
* publish -> last notification: for each update, from the moment its event is seen on the
  fleet's Redis channel (this process subscribes to it too) to the arrival of the last of the
  100 notifications it caused; median and p99. Notifications carry no update id, so the k-th
  notification on each stream is matched to the k-th published event: valid because one
  instance's events are published and applied in order. ``from_send_*``: the same from the
  tool call's send (it includes the call's own latency).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import time

import httpx
from fleet import Instance, Redis, fleet_keys

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
URI = "notes://note-4"


def headers(method: str, name: str | None = None) -> dict[str, str]:
    h = {"content-type": "application/json", "accept": "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": method}
    if name:
        h["mcp-name"] = name
    return h


async def listen(http: httpx.AsyncClient, url: str, i: int, acked: asyncio.Event, arrivals: list[float], total: list[int], want: int, done: asyncio.Event) -> None:
    body = {"jsonrpc": "2.0", "id": f"l{i}", "method": "subscriptions/listen", "params": {"_meta": META, "notifications": {"resourceSubscriptions": [URI]}}}
    async with http.stream("POST", url, content=json.dumps(body), headers=headers("subscriptions/listen")) as r:
        async for line in r.aiter_lines():
            if not line.startswith("data: "):
                continue
            msg = json.loads(line[6:])
            if msg.get("method") == "notifications/subscriptions/acknowledged":
                acked.set()
            elif msg.get("method") == "notifications/resources/updated":
                arrivals.append(time.perf_counter())
                total[0] += 1
                if total[0] == want:
                    done.set()


async def bench(urls: list[str], redis_url: str, updates: int, listens: int, concurrency: int) -> dict[str, float]:
    import redis.asyncio as aioredis

    published: list[float] = []
    r = aioredis.Redis.from_url(redis_url)
    pubsub = r.pubsub()
    await pubsub.subscribe("mcp-context:notes:events")

    async def watch() -> None:
        while True:
            msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if msg is not None:
                published.append(time.perf_counter())

    watcher = asyncio.create_task(watch())
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=listens + concurrency + 8)
    async with httpx.AsyncClient(timeout=httpx.Timeout(None, connect=10), limits=limits) as http:
        per_stream: list[list[float]] = [[] for _ in range(listens)]
        acks = [asyncio.Event() for _ in range(listens)]
        total = [0]
        done = asyncio.Event()
        want = updates * listens
        tasks = [asyncio.create_task(listen(http, urls[i % len(urls)], i, acks[i], per_stream[i], total, want, done)) for i in range(listens)]
        await asyncio.wait_for(asyncio.gather(*(a.wait() for a in acks)), 30)

        answered: list[float] = []
        sent: list[float] = []
        next_id = iter(range(1, 1 << 30))

        async def writer() -> None:
            while True:
                n = next(next_id)
                if n > updates:
                    return
                body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"_meta": META, "name": "write_note", "arguments": {"uri": URI, "text": f"idea {n}"}}}
                sent.append(time.perf_counter())
                r = await http.post(urls[0], content=json.dumps(body), headers=headers("tools/call", "write_note"))
                assert r.status_code == 200 and b'"written"' in r.content, r.content[:200]
                answered.append(time.perf_counter())

        t0 = time.perf_counter()
        await asyncio.gather(*(writer() for _ in range(concurrency)))
        await asyncio.wait_for(done.wait(), 60)
        elapsed = time.perf_counter() - t0
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    watcher.cancel()
    await pubsub.aclose()
    await r.aclose()
    assert len(published) == updates, (len(published), updates)

    sent.sort()
    delays, upper = [], []
    for k in range(updates):
        last = max(s[k] for s in per_stream)
        delays.append((last - published[k]) * 1000)
        upper.append((last - sent[k]) * 1000)
    delays.sort()
    upper.sort()
    return {
        "updates": updates,
        "listens": listens,
        "notifications": want,
        "updates_per_s": updates / elapsed,
        "notifications_per_s": want / elapsed,
        "delay_median_ms": statistics.median(delays),
        "delay_p99_ms": delays[min(len(delays) - 1, int(len(delays) * 0.99))],
        "from_send_median_ms": statistics.median(upper),
        "from_send_p99_ms": upper[min(len(upper) - 1, int(len(upper) * 0.99))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=500)
    parser.add_argument("--listens", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    redis = Redis().start()
    work = tempfile.mkdtemp(prefix="scale-bench-")
    keys = fleet_keys()
    instances = []
    try:
        instances = [Instance(keys, redis.url, os.path.join(work, "notes.sqlite")).start() for _ in range(3)]
        redis.wait_subscribers(3)
        result = asyncio.run(bench([i.url for i in instances], redis.url, args.updates, args.listens, args.concurrency))
        result["loadavg_1min"] = os.getloadavg()[0]
        result["cpus"] = os.cpu_count() or 0
        print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in result.items()}))
    finally:
        for i in instances:
            i.stop()
        redis.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
