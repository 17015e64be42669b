"""An HTTP server of ``./bench.sh --only offcost``: the knowledge base (examples/python) on
``App.run_http`` with telemetry on: ``telemetry.Otel`` on the OpenTelemetry SDK (spans through a
batch processor to an in-memory exporter, a meter provider with an in-memory reader), as
docs/operations.md describes.

    python benches/run/py-otel-http.py PORT
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))

from kb_server import app  # noqa: E402
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from mcp_context.telemetry import Otel  # noqa: E402

tracer_provider = TracerProvider()
tracer_provider.add_span_processor(BatchSpanProcessor(InMemorySpanExporter()))
app.sink(Otel(tracer_provider, MeterProvider(metric_readers=[InMemoryMetricReader()])))
app.run_http(port=int(sys.argv[1]))
