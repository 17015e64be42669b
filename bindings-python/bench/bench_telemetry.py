"""Cost of telemetry on stdio reads/s: the knowledge-base server (``examples/python``) with
telemetry off, then with ``telemetry.Otel`` on the OpenTelemetry SDK (a tracer provider whose
spans go through a batch processor to an in-memory exporter, a meter provider with an in-memory reader) and
``telemetry.JsonLog`` to /dev/null. Same client as bench_serve.py (``stdio_load``), rounds
alternate off/on, best of ``--rounds``.

    python bindings-python/bench/bench_telemetry.py [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serve import EXAMPLES, stdio_load  # noqa: E402

OFF = "import sys; sys.path.insert(0, sys.argv[1]); from kb_server import app; app.run_stdio()"
ON = (
    "import sys, os; sys.path.insert(0, sys.argv[1]); from kb_server import app\n"
    "from opentelemetry.sdk.trace import TracerProvider\n"
    "from opentelemetry.sdk.trace.export import BatchSpanProcessor\n"
    "from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter\n"
    "from opentelemetry.sdk.metrics import MeterProvider\n"
    "from opentelemetry.sdk.metrics.export import InMemoryMetricReader\n"
    "from mcp_context.telemetry import JsonLog, Otel\n"
    "tp = TracerProvider(); tp.add_span_processor(BatchSpanProcessor(InMemorySpanExporter()))\n"
    "app.sink(Otel(tp, MeterProvider(metric_readers=[InMemoryMetricReader()])))\n"
    "app.sink(JsonLog(open(os.devnull, 'w')))\n"
    "app.run_stdio()"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--window", type=int, default=64)
    a = ap.parse_args()
    best = {"off": 0.0, "on": 0.0}
    for _ in range(a.rounds):
        for name, code in (("off", OFF), ("on", ON)):
            rate = asyncio.run(stdio_load([sys.executable, "-c", code, str(EXAMPLES)], a.seconds, a.window))
            best[name] = max(best[name], rate)
            print(f"{name}: {rate:,.0f} reads/s", flush=True)
    print(f"best off {best['off']:,.0f}/s, on {best['on']:,.0f}/s, on/off = {best['on'] / best['off']:.2f}")


if __name__ == "__main__":
    main()
