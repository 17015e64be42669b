"""Cost of the middleware chain on stdio reads/s: the knowledge-base server
(``examples/python``) with a synchronous chain (one no-op ``Middleware`` and a ``RateLimit``
that never refuses), run by this checkout's package and, with ``--base DIR``, by another copy
of the package (e.g. the code before awaitable hooks: ``DIR/mcp_context``, same ``_core``
build); and ``async``: the same chain with the no-op hook ``async def`` (a task per request).
Same client as bench_serve.py (``stdio_load``), rounds alternate (each configuration first in
turn); the best and the median of ``--rounds`` (on a shared machine the median says more). ``--cpu N``: instead, each server
reads ``N`` requests from an in-memory file (one process, no client) and reports the CPU
time it spent per request (``time.process_time``), which other load disturbs less.

    python bindings-python/bench/bench_middleware.py [--base DIR] [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serve import EXAMPLES, stdio_load  # noqa: E402

SERVER = (
    "import sys; sys.path[0:0] = [p for p in sys.argv[2:] if p]; sys.path.insert(0, sys.argv[1])\n"
    "from kb_server import app\n"
    "from mcp_context.telemetry import Middleware, RateLimit\n"
    "class Noop(Middleware):\n"
    "    {kind}def before(self, call):\n"
    "        pass\n"
    "app.middleware(Noop())\n"
    "app.middleware(RateLimit(rate=1e9, burst=1e9))\n"
    "{run}"
)
STDIO = "app.run_stdio()"
CPU = (
    "import asyncio, io, json, time\n"
    "meta = {'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}}\n"
    "read = {'uri': 'kb://acme/fiches/changement-adresse', '_meta': meta}\n"
    "n = int(sys.argv[-1]); out = io.BytesIO()\n"
    "data = b''.join(json.dumps({'jsonrpc': '2.0', 'id': i, 'method': 'resources/read', 'params': read}).encode() + b'\\n' for i in range(n))\n"
    "t0 = time.process_time(); asyncio.run(app.serve_stdio(stdin=io.BytesIO(data), stdout=out)); t = time.process_time() - t0\n"
    "assert out.getvalue().count(b'# Changer') == n\n"
    "print(t / n * 1e6)"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=None, help="a directory holding another mcp_context package")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--window", type=int, default=64)
    ap.add_argument("--cpu", type=int, default=0, metavar="N")
    a = ap.parse_args()
    run = CPU if a.cpu else STDIO
    runs = [("sync", SERVER.format(kind="", run=run), "")]
    if a.base:
        runs.insert(0, ("base sync", SERVER.format(kind="", run=run), str(Path(a.base).resolve())))
    runs.append(("async", SERVER.format(kind="async ", run=run), ""))
    if a.cpu:
        cpu(runs, a.rounds, a.cpu)
        return
    rates: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    for k in range(a.rounds):
        for name, code, base in runs[k % len(runs):] + runs[: k % len(runs)]:  # each first in turn
            rate = asyncio.run(stdio_load([sys.executable, "-c", code, str(EXAMPLES), base], a.seconds, a.window))
            rates[name].append(rate)
            print(f"{name}: {rate:,.0f} reads/s", flush=True)
    first = next(iter(rates.values()))
    best0, median0 = max(first), statistics.median(first)
    for name, r in rates.items():
        best, median = max(r), statistics.median(r)
        print(f"{name}: best {best:,.0f}/s ({best / best0:.2f}), median {median:,.0f}/s ({median / median0:.2f})")


def cpu(runs: list[tuple[str, str, str]], rounds: int, n: int) -> None:
    us: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    for k in range(rounds):
        for name, code, base in runs[k % len(runs):] + runs[: k % len(runs)]:
            out = subprocess.run([sys.executable, "-c", code, str(EXAMPLES), base, str(n)], capture_output=True, text=True, check=True)
            us[name].append(float(out.stdout.split()[-1]))
            print(f"{name}: {us[name][-1]:.1f} us CPU per request", flush=True)
    first = statistics.median(next(iter(us.values())))
    for name, r in us.items():
        print(f"{name}: median {statistics.median(r):.1f} us ({statistics.median(r) / first:.3f}), min {min(r):.1f} us")


if __name__ == "__main__":
    main()
