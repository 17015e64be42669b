"""Benchmark: the mixed fleet (one Python, one Node, one Rust instance on one Redis), next to a
single instance, with 1,000 listens; one standalone command printing JSON and a table.

    python examples/scale-out/bench_mixed.py --node NODE --rust target/release/notes-instance \\
        [--updates 200] [--listens 1000] [--concurrency 4] [--single rust|node|py] [--json]

Runs two configurations, one after the other, on 127.0.0.1:

* ``fleet``: Redis and the three instances (examples/python/notes_instance.py,
  examples/node/notes-instance.mjs, the Rust ``notes-instance``); the listens are spread
  round-robin over the three; the writer calls ``write_note`` on the Python instance (so
  two thirds of the notifications cross Redis);
* ``single``: one instance (``--single``, the Rust one by default) without a broker, all
  listens on it, the writer on it.

Each listen is a raw HTTP stream on its own socket (this process counts the update events in the
bytes, no SSE or JSON parsing) subscribed to
``notes://note-4``. Reported per configuration: updates/s (tool calls completed per second,
the clock stopped when every notification arrived or the wait ended), notifications/s, the
delay from each tool call's send to the last of its notifications (p50, p99; the k-th
notification of each stream is the k-th update: one writer instance's events are applied in
order), and losses (notifications expected but not received within 30 s of the last call).
The load client is one Python process: on a small machine it shares the CPU with the
instances, so the numbers are a floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from bench import META, URI, headers
from fleet import Instance, Redis, fleet_keys

ROOT = Path(__file__).resolve().parents[2]
UPDATED = b"notifications/resources/updated"
ACKED = b"notifications/subscriptions/acknowledged"


async def listen_raw(url: str, i: int, acked: asyncio.Event, arrivals: list[float]) -> None:
    """The same listen on a bare socket: counts the update events in the raw stream (no SSE or
    JSON parsing in this process, which would be the bottleneck at 1,000 listens)."""
    from urllib.parse import urlsplit

    u = urlsplit(url)
    body = json.dumps({"jsonrpc": "2.0", "id": f"l{i}", "method": "subscriptions/listen", "params": {"_meta": META, "notifications": {"resourceSubscriptions": [URI]}}}).encode()
    reader, writer = await asyncio.open_connection(u.hostname, u.port)
    head = "".join(f"{k}: {v}\r\n" for k, v in headers("subscriptions/listen").items())
    writer.write(f"POST {u.path} HTTP/1.1\r\nhost: {u.netloc}\r\n{head}content-length: {len(body)}\r\n\r\n".encode() + body)
    await writer.drain()
    tail = b""
    keep = len(ACKED)
    try:
        while chunk := await reader.read(65536):
            now = time.perf_counter()
            buf = tail + chunk
            if not acked.is_set() and ACKED in buf:
                acked.set()
            arrivals.extend([now] * buf.count(UPDATED))
            tail = buf[-keep:]
            # an event split across reads is counted once: the tail cannot hold a whole one
            if UPDATED in tail:
                arrivals.pop()
    finally:
        writer.close()


async def run(urls: list[str], writer_url: str, updates: int, listens: int, concurrency: int) -> dict[str, float]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=listens + concurrency + 8)
    async with httpx.AsyncClient(timeout=httpx.Timeout(None, connect=30), limits=limits) as http:
        per_stream: list[list[float]] = [[] for _ in range(listens)]
        acks = [asyncio.Event() for _ in range(listens)]
        tasks = [asyncio.create_task(listen_raw(urls[i % len(urls)], i, acks[i], per_stream[i])) for i in range(listens)]
        await asyncio.wait_for(asyncio.gather(*(a.wait() for a in acks)), 120)
        sent: list[float] = []
        next_id = iter(range(1, 1 << 30))

        async def writer() -> None:
            while (n := next(next_id)) <= updates:
                body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"_meta": META, "name": "write_note", "arguments": {"uri": URI, "text": f"idea {n}"}}}
                sent.append(time.perf_counter())
                r = await http.post(writer_url, content=json.dumps(body), headers=headers("tools/call", "write_note"))
                assert r.status_code == 200 and b'"written"' in r.content, r.content[:200]

        t0 = time.perf_counter()
        await asyncio.gather(*(writer() for _ in range(concurrency)))
        want = updates * listens
        deadline = time.perf_counter() + 30
        while sum(len(s) for s in per_stream) < want and time.perf_counter() < deadline:
            await asyncio.sleep(0.02)
        got = sum(len(s) for s in per_stream)
        elapsed = max(max((s[-1] for s in per_stream if s), default=t0), t0) - t0
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    sent.sort()
    delays = []
    for k in range(updates):
        arrived = [s[k] for s in per_stream if len(s) > k]
        if arrived:
            delays.append((max(arrived) - sent[k]) * 1000)
    delays.sort()
    pct = lambda q: delays[min(len(delays) - 1, int(len(delays) * q))] if delays else float("nan")  # noqa: E731
    return {
        "instances": len(urls),
        "listens": listens,
        "updates": updates,
        "updates_per_s": updates / elapsed if elapsed else 0.0,
        "notifications_per_s": got / elapsed if elapsed else 0.0,
        "delay_p50_ms": statistics.median(delays) if delays else float("nan"),
        "delay_p99_ms": pct(0.99),
        "lost": want - got,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", default=os.environ.get("MCP_FLEET_NODE", "node"))
    parser.add_argument("--rust", default=os.environ.get("MCP_FLEET_RUST", str(ROOT / "target" / "release" / "notes-instance")))
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--listens", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--single", choices=["rust", "node", "py"], default="rust")
    parser.add_argument("--json", action="store_true", help="JSON only (one line)")
    args = parser.parse_args()
    args.rust = str(Path(args.rust).resolve())
    keys = fleet_keys()
    work = tempfile.mkdtemp(prefix="mixed-bench-")
    db = os.path.join(work, "notes.sqlite")

    def make(kind: str, redis_url: str | None) -> Instance:
        if kind == "py":
            return Instance(keys, redis_url, db).start()
        cmd = [args.node, "examples/node/notes-instance.mjs"] if kind == "node" else [args.rust]
        return Instance(keys, redis_url, "unused", cmd=cmd).start()

    results = {}
    redis = Redis().start()
    instances: list[Instance] = []
    try:
        for k in ("py", "node", "rust"):
            instances.append(make(k, redis.url))
        redis.wait_subscribers(3)
        results["fleet"] = asyncio.run(run([i.url for i in instances], instances[0].url, args.updates, args.listens, args.concurrency))
    finally:
        for i in instances:
            i.stop()
        redis.stop()
    one = make(args.single, None)
    try:
        results[f"single_{args.single}"] = asyncio.run(run([one.url], one.url, args.updates, args.listens, args.concurrency))
    finally:
        one.stop()
        shutil.rmtree(work, ignore_errors=True)
    out = {"loadavg_1min": round(os.getloadavg()[0], 2), "cpus": os.cpu_count() or 0}
    for name, r in results.items():
        out[name] = {k: round(v, 2) if isinstance(v, float) else v for k, v in r.items()}
    print(json.dumps(out))
    if not args.json:
        keys_ = ["instances", "listens", "updates", "updates_per_s", "notifications_per_s", "delay_p50_ms", "delay_p99_ms", "lost"]
        print(f"\n| measure | {' | '.join(results)} |\n| --- |{' --- |' * len(results)}", file=sys.stderr)
        for k in keys_:
            print(f"| {k} | {' | '.join(str(out[n][k]) for n in results)} |", file=sys.stderr)


if __name__ == "__main__":
    main()
