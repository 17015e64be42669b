"""The broker metrics (docs/operations.md "Broker metrics") on ``opentelemetry-api``: a
fleet end's counters as observable instruments, under the core's names (``fleet::metrics``,
the same in the Node and Rust runners). Used by ``RedisBroker.report_metrics``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ._core import BROKER_CONNECTED, BROKER_COUNTERS, BROKER_REASON, Fleet

SCOPE = "mcp-context"


def report(fleet: Fleet, meter_provider: Any = None) -> None:
    """Registers the counters of ``BROKER_COUNTERS`` and the ``connected`` gauge on the
    meter ``mcp-context`` of ``meter_provider`` (default: the global one); they read
    ``fleet`` when the SDK collects."""
    from opentelemetry import metrics
    from opentelemetry.metrics import CallbackOptions, Observation

    meter = metrics.get_meter(SCOPE, meter_provider=meter_provider)

    def counter(name: str) -> Callable[[CallbackOptions], Iterable[Observation]]:
        def observe(_options: CallbackOptions) -> Iterable[Observation]:
            return [
                Observation(value, {BROKER_REASON: reason} if reason is not None else None)
                for n, reason, value in fleet.metrics()
                if n == name
            ]

        return observe

    for name, description in BROKER_COUNTERS:
        meter.create_observable_counter(name, callbacks=[counter(name)], description=description)

    def connected(_options: CallbackOptions) -> Iterable[Observation]:
        return [Observation(int(fleet.connected))]

    name, description = BROKER_CONNECTED
    meter.create_observable_gauge(name, callbacks=[connected], description=description)
