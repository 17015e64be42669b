"""The broker metrics of the Python runner (docs/operations.md "Broker metrics", the core's
``fleet::metrics``) on a real Redis (``redis-server`` started here on a free port) with the
OpenTelemetry SDK's in-memory reader: events published through one instance are delivered on
another, and each instance's counters read back under the core's names, whether reported
explicitly or through the app's ``Otel`` sink."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_context._core import BROKER_CONNECTED, BROKER_COUNTERS
from mcp_context.broker import RedisBroker
from mcp_context.server import App
from mcp_context.telemetry import Otel

redis = pytest.importorskip("redis")
pytest.importorskip("opentelemetry.sdk")
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "scale-out"))
from fleet import Redis  # noqa: E402

PUBLISHED, DELIVERED, DROPPED, SKIPPED, SIGNALS = (name for name, _ in BROKER_COUNTERS)
CONNECTED = BROKER_CONNECTED[0]


def test_the_names_are_the_cores():
    assert [n for n, _ in BROKER_COUNTERS] == [
        "mcp_context.broker.published",
        "mcp_context.broker.delivered",
        "mcp_context.broker.dropped",
        "mcp_context.broker.skipped",
        "mcp_context.broker.signals",
    ]
    assert CONNECTED == "mcp_context.broker.connected"


class Instance:
    """``report``: ``"explicit"`` (``RedisBroker.report_metrics``), ``"otel-first"`` (an
    ``Otel`` sink, then ``use_broker``) or ``"broker-first"`` (the other order): nothing
    else asks for the broker metrics."""

    def __init__(self, url: str, id: str, report: str) -> None:  # noqa: A002
        self.app = App("notes")
        self.broker = RedisBroker(url, fleet="metrics", instance_id=id, retry_s=0.2)
        self.reader = InMemoryMetricReader()
        provider = MeterProvider(metric_readers=[self.reader])
        if report == "otel-first":
            self.app.sink(Otel(meter_provider=provider))
        self.app.use_broker(self.broker)
        if report == "broker-first":
            self.app.sink(Otel(meter_provider=provider))
        if report == "explicit":
            self.broker.report_metrics(provider)
        self.broker.report_metrics(MeterProvider())  # a second report does nothing

    def value(self, name: str, reason: str | None = None) -> int:
        data = self.reader.get_metrics_data()
        seen: list[Any] = []
        for rm in data.resource_metrics if data else ():
            for sm in rm.scope_metrics:
                for m in sm.metrics:
                    for p in m.data.data_points:
                        seen.append((m.name, dict(p.attributes or {}), p.value))
                        if m.name == name and (p.attributes or {}).get("reason") == reason:
                            return p.value
        raise AssertionError(f"{name} {reason} not reported: {seen}")


async def until(what: str, ok) -> None:
    for _ in range(400):
        if ok():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.parametrize("report", ["explicit", "otel-first", "broker-first"])
def test_published_on_one_instance_delivered_on_another(report: str):
    server = Redis().start()
    try:
        a, b = Instance(server.url, "a", report), Instance(server.url, "b", "otel-first")

        async def main() -> None:
            rt_a, rt_b = a.app.runtime(), b.app.runtime()  # starts each broker's task
            try:
                await until("both subscribed", lambda: a.broker.connected and b.broker.connected)
                assert a.value(CONNECTED) == 1
                assert b.value(DELIVERED) == 0

                a.app.resource_updated("notes://1")
                a.app.resource_updated("notes://2")
                a.app.tools_list_changed()
                raw = redis.asyncio.Redis.from_url(server.url)
                await raw.publish(a.broker.channel, b"not json")  # no instance can read it
                await raw.aclose()
                sa, sb = a.broker.stats, b.broker.stats
                await until(
                    "b applied 3, a saw its echoes and counted its publish (after the pipeline answered: the echoes may come first)",
                    lambda: sb()["applied"] == 3 and sa()["echoes"] == 3 and sa()["published"] == 3 and sa()["rejected"] == 1 and sb()["rejected"] == 1,
                )
                assert a.value(PUBLISHED) == 3
                assert a.value(DELIVERED) == 0
                assert a.value(SKIPPED, "echo") == 3
                assert a.value(SKIPPED, "rejected") == 1
                assert a.value(DROPPED) == 0
                assert b.value(PUBLISHED) == 0
                assert b.value(DELIVERED) == 3
                assert b.value(SKIPPED, "echo") == 0
                assert b.value(SKIPPED, "rejected") == 1
                assert b.value(SIGNALS) == 0

                # the broker gone: the edge is counted, and a change made now is dropped
                server.stop()
                await until("both down", lambda: not a.broker.connected and not b.broker.connected)
                a.app.resource_updated("notes://3")
                assert a.value(DROPPED) == 1
                assert a.value(SIGNALS) == 1
                assert a.value(CONNECTED) == 0
            finally:
                for t in rt_a.background + rt_b.background:
                    t.cancel()
                await asyncio.gather(*rt_a.background, *rt_b.background, return_exceptions=True)

        asyncio.run(asyncio.wait_for(main(), 30))
    finally:
        server.stop()
