"""Telemetry and middleware (docs/operations.md): the core's observations as OpenTelemetry
spans and metrics (:class:`Otel`, on ``opentelemetry-api``) and one JSON line per request
(:class:`JsonLog`); a :class:`Middleware` hook on every request with ready pieces
(:class:`RateLimit`, :class:`RedisRateLimit`, ``App.limit_responses``).

Nothing runs unless asked: without a sink the machine records nothing, without middleware
the gate is off and a handler is called directly.

    app = App("notes")
    app.sink(Otel())                         # global tracer/meter providers
    app.sink(JsonLog())                      # one JSON line per request on stderr
    app.middleware(RateLimit(rate=10, burst=20))
    app.limit_responses(1 << 20)
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import sys
import threading
import time
from typing import Any, TextIO

from . import _core

_log = logging.getLogger("mcp_context.rate")

RATE_LIMITED: int = _core.RATE_LIMITED
"""The JSON-RPC code of a rate limit's refusal (docs/rules.md §26.6)."""
RESPONSE_TOO_LARGE: int = _core.RESPONSE_TOO_LARGE
"""The JSON-RPC code of an answer over ``App.limit_responses``."""

# OpenTelemetry semantic conventions for MCP (mcp_context::observe::attr in the core).
METHOD_NAME = "mcp.method.name"
SESSION_ID = "mcp.session.id"
PROTOCOL_VERSION = "mcp.protocol.version"
REQUEST_ID = "jsonrpc.request.id"
RESPONSE_STATUS_CODE = "rpc.response.status_code"
ERROR_TYPE = "error.type"
OPERATION_NAME = "gen_ai.operation.name"
NETWORK_TRANSPORT = "network.transport"
CALLER = "mcp_context.caller"
LIMIT = "mcp_context.limit"
OPERATION_DURATION = "mcp.server.operation.duration"
REQUESTS = "mcp_context.server.requests"
REFUSALS = "mcp_context.server.refusals"
OPEN_LISTENS = "mcp_context.server.open_listens"
OPEN_SESSIONS = "mcp_context.server.open_sessions"


class Refuse(Exception):
    """Raised by :meth:`Middleware.before` to answer the request with this error instead of
    calling its handler."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Call:
    """A request on its way to a handler: ``method``, ``target`` (tool or prompt name, URI),
    ``caller`` (the auth id, 0 = anonymous), ``principal`` (the verified caller, if any)."""

    __slots__ = ("method", "target", "caller", "principal", "annotations", "started")

    def __init__(self, method: str, target: str | None, caller: int, principal: Any = None) -> None:
        self.method = method
        self.target = target
        self.caller = caller
        self.principal = principal
        self.annotations: list[tuple[str, str]] = []
        self.started = time.monotonic()

    def annotate(self, key: str, value: str) -> None:
        """Adds ``key = value`` to the request's span attributes and log line."""
        self.annotations.append((key, value))


class Middleware:
    """Runs around every handler: ``before`` in the order added (raise :class:`Refuse` to
    answer with an error; later middleware and the handler are skipped), ``after`` in reverse
    order with the handler's exception (``None`` on success). ``before`` runs at the core's
    gate (docs/rules.md §26.7), so every request meets it, the ones the core answers itself
    (lists, ``server/discover``, static resources) included; their ``after`` runs at once.

    Either hook may be ``async def`` (or return an awaitable). An awaiting ``before`` holds
    only its own request: the runner reads and answers others meanwhile (on stdio a request
    may pass another still at the gate; nothing else does), and the request span is current
    while it runs. An awaiting ``after`` runs in a task, the answer never waits for it.
    Synchronous hooks run inline, as before: no task, no await."""

    def before(self, call: Call) -> Any:  # noqa: B027 - a hook, empty by default
        pass

    def after(self, call: Call, error: BaseException | None) -> Any:  # noqa: B027
        pass


def _refusal(wait_ms: int) -> Refuse:
    return Refuse(RATE_LIMITED, f"Rate limit exceeded: retry after {wait_ms} ms")


class RateLimit(Middleware):
    """A token bucket per caller in this process: ``burst`` tokens, ``rate`` per second."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = max(rate, 1e-9), max(burst, 1.0)
        self._buckets: dict[int, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def before(self, call: Call) -> None:
        now = time.monotonic()
        with self._lock:
            tokens, at = self._buckets.get(call.caller, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            if tokens >= 1.0:
                self._buckets[call.caller] = (tokens - 1.0, now)
                return
            self._buckets[call.caller] = (tokens, now)
        raise _refusal(int((1.0 - tokens) / self.rate * 1000) + 1)


# KEYS[1] the caller's bucket; ARGV rate/s, burst. Redis's clock, so instances agree.
_BUCKET = _core.REDIS_TOKEN_BUCKET  # the core's, shared with the Node and Rust runners


class RedisRateLimit(Middleware):
    """The same token bucket kept in Redis (one hash per caller, updated atomically by the
    core's Lua script on Redis's clock), so every instance sharing the Redis, in any runner,
    enforces one rate per caller. ``prefix`` separates fleets on one Redis.

    ``client``: a ``redis.asyncio.Redis`` (its round trip is awaited: the loop serves other
    requests meanwhile), or a synchronous ``redis.Redis`` (run in a worker thread with
    ``asyncio.to_thread``; give it a ``socket_timeout``, or a stalled Redis keeps the thread).

    When Redis cannot answer within ``timeout`` seconds (unreachable, an error, no answer),
    the core's one policy applies (docs/rules.md §23.6): the request is admitted (fails
    open) unless ``fail_closed=True``, which refuses it with ``RATE_LIMITED`` and
    ``Rate limit unavailable: request refused``. Either way the failure is logged
    (``mcp_context.rate``), counted in ``failures``, and the request annotated
    ``mcp_context.rate_limit.failure`` = ``open`` or ``closed``."""

    def __init__(
        self,
        client: Any,
        rate: float,
        burst: float,
        prefix: str = _core.RATE_KEY_PREFIX,
        *,
        fail_closed: bool = _core.RATE_FAIL_CLOSED,
        timeout: float = 1.0,
    ) -> None:
        self.rate, self.burst, self.prefix = max(rate, 1e-9), max(burst, 1.0), prefix
        self.fail_closed, self.timeout = fail_closed, timeout
        self.failures = 0
        self._script = client.register_script(_BUCKET)
        self._awaits = inspect.iscoroutinefunction(getattr(client, "execute_command", None))

    async def before(self, call: Call) -> None:
        keys, args = [f"{self.prefix}{call.caller}"], [self.rate, self.burst]
        try:
            if self._awaits:
                wait = int(await asyncio.wait_for(self._script(keys=keys, args=args), self.timeout))
            else:
                wait = int(await asyncio.wait_for(asyncio.to_thread(self._script, keys=keys, args=args), self.timeout))
        except Exception as e:  # noqa: BLE001 - Redis unreachable, an error, or too slow
            self._failed(call, e)
            return
        if wait > 0:
            raise _refusal(wait)

    def _failed(self, call: Call, e: BaseException) -> None:
        self.failures += 1
        policy = "closed" if self.fail_closed else "open"
        call.annotate(_core.RATE_FAILURE_ANNOTATION, policy)
        _log.warning(
            "rate limit: Redis did not answer (%s), request %s (fail %s)",
            type(e).__name__ if isinstance(e, TimeoutError) else e,
            "refused" if self.fail_closed else "admitted",
            policy,
        )
        if self.fail_closed:
            raise Refuse(RATE_LIMITED, _core.RATE_UNAVAILABLE_MESSAGE)


class Sink:
    """Where observations go (called on the server's loop, in order)."""

    def request(self, obs: dict[str, Any], parent: tuple[str, str, int] | None) -> None:  # noqa: B027
        """A finished request: the core's record (``method``, ``request_id``, ``target``,
        ``caller``, ``era``, ``session_id``, ``outcome``, ``error_type``, ``start_ms``,
        ``end_ms``, ``annotations``...); ``parent`` ``(trace_id, span_id, flags)`` from the
        ``_meta`` or HTTP ``traceparent``."""

    def refused(self, obs: dict[str, Any]) -> None:  # noqa: B027
        """A limit refused a request: ``limit``, ``caller``."""

    def gauges(self, open_listens: int, open_sessions: int) -> None:  # noqa: B027
        """After each batch of observations."""


class JsonLog(Sink):
    """One JSON object per line per request (and per refusal) on ``stream`` (stderr)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def _line(self, v: dict[str, Any]) -> None:
        out = self.stream or sys.stderr
        out.write(json.dumps(v, separators=(",", ":")) + "\n")
        out.flush()

    def request(self, obs: dict[str, Any], parent: tuple[str, str, int] | None) -> None:
        self._line({
            "ts_ms": int(time.time() * 1000),
            "method": obs["method"],
            "request_id": obs["request_id"],
            "target": obs["target"],
            "caller": obs["caller"],
            "era": "2026-07-28" if obs["era"] == "modern" else "2025-11-25",
            "session_id": obs["session_id"],
            "outcome": obs["outcome"],
            "error_type": obs["error_type"],
            "duration_ms": obs["end_ms"] - obs["start_ms"],
            "trace_id": parent[0] if parent else None,
            "annotations": dict(obs["annotations"]),
        })

    def refused(self, obs: dict[str, Any]) -> None:
        self._line({"ts_ms": int(time.time() * 1000), "refused": obs["limit"], "caller": obs["caller"]})


class Otel(Sink):
    """One ``SERVER`` span per request (named ``{method} {tool|prompt}``, parented on the
    request's ``traceparent``) and the metrics of docs/operations.md, on the given providers
    (default: the global ones of ``opentelemetry-api``)."""

    def __init__(self, tracer_provider: Any = None, meter_provider: Any = None) -> None:
        from opentelemetry import metrics, trace

        self._trace = trace
        self.tracer = trace.get_tracer("mcp-context", tracer_provider=tracer_provider)
        meter = metrics.get_meter("mcp-context", meter_provider=meter_provider)
        self.requests = meter.create_counter(REQUESTS, description="MCP requests by method and outcome")
        self.duration = meter.create_histogram(OPERATION_DURATION, unit="s", description="MCP request duration")
        self.refusals = meter.create_counter(REFUSALS, description="Requests refused by a limit")
        self.listens = meter.create_gauge(OPEN_LISTENS, description="Open listen subscriptions")
        self.sessions = meter.create_gauge(OPEN_SESSIONS, description="Open 2025-11-25 HTTP sessions")
        self._open: dict[tuple[int, str], Any] = {}  # spans opened at the gate, by (stream, id)
        self.meter_provider = meter_provider

    def report_broker(self, broker: Any) -> None:
        """The broker metrics of ``broker`` (``RedisBroker.report_metrics``) on this sink's
        meter provider: ``App`` calls it when it has both (``sink`` and ``use_broker``)."""
        broker.report_metrics(self.meter_provider)

    def _parent(self, parent: tuple[str, str, int] | None, tracestate: str | None) -> Any:
        if parent is None:
            return None
        trace = self._trace
        state = trace.TraceState()
        if tracestate:
            try:
                state = trace.TraceState.from_header([tracestate])
            except Exception:  # noqa: BLE001 - a malformed tracestate is dropped
                pass
        sc = trace.SpanContext(int(parent[0], 16), int(parent[1], 16), True, trace.TraceFlags(parent[2]), state)
        return trace.set_span_in_context(trace.NonRecordingSpan(sc))

    def start(self, gate: Any, header: str | None) -> Any:
        """Opens the request's span at the gate (docs/rules.md §26.7) and returns the context
        to make current while its handler runs: a span the handler opens is its child. The
        observation ends it with the outcome's attributes."""
        parent = _core.trace_parent(gate.traceparent, header)
        span = self.tracer.start_span(
            gate.span_name, context=self._parent(parent, gate.tracestate), kind=self._trace.SpanKind.SERVER,
            start_time=self._ns(gate.start_ms),
        )
        if len(self._open) >= 4096:  # observations never drained: the oldest are dropped
            self._open.pop(next(iter(self._open)))
        self._open[(gate.stream, gate.request_id)] = span
        return self._trace.set_span_in_context(span)
    @staticmethod
    def _ns(ms: int) -> int:
        # The server machine's clock is wall-clock ms (_host.server_now_ms).
        return ms * 1_000_000

    def request(self, obs: dict[str, Any], parent: tuple[str, str, int] | None) -> None:
        trace = self._trace
        attrs: dict[str, Any] = {
            METHOD_NAME: obs["method"],
            REQUEST_ID: obs["request_id"],
            NETWORK_TRANSPORT: obs["transport"],
            CALLER: obs["caller"],
        }
        if obs["target"] is not None:
            attrs[obs["target_attribute"]] = obs["target"]
        if obs["method"] == "tools/call":
            attrs[OPERATION_NAME] = "execute_tool"
        if obs["protocol_version"]:
            attrs[PROTOCOL_VERSION] = obs["protocol_version"]
        if obs["session_id"]:
            attrs[SESSION_ID] = obs["session_id"]
        error_type = obs["error_type"]
        if error_type:
            attrs[ERROR_TYPE] = error_type
        if obs["error_code"] is not None:
            attrs[RESPONSE_STATUS_CODE] = str(obs["error_code"])
        for k, v in obs["annotations"]:
            attrs[k] = v
        span = self._open.pop((obs["stream"], obs["request_id"]), None)
        if span is not None:  # opened at the gate
            span.set_attributes(attrs)
        else:
            span = self.tracer.start_span(
                obs["span_name"], context=self._parent(parent, obs["tracestate"]), kind=trace.SpanKind.SERVER,
                attributes=attrs, start_time=self._ns(obs["start_ms"]),
            )
        if error_type:
            span.set_status(trace.Status(trace.StatusCode.ERROR, error_type))
        span.end(end_time=self._ns(obs["end_ms"]))
        labels = {METHOD_NAME: obs["method"], "outcome": obs["outcome"]}
        if error_type:
            labels[ERROR_TYPE] = error_type
        self.requests.add(1, labels)
        labels[NETWORK_TRANSPORT] = obs["transport"]
        self.duration.record((obs["end_ms"] - obs["start_ms"]) / 1000.0, labels)

    def refused(self, obs: dict[str, Any]) -> None:
        self.refusals.add(1, {LIMIT: obs["limit"]})

    def gauges(self, open_listens: int, open_sessions: int) -> None:
        self.listens.set(open_listens)
        self.sessions.set(open_sessions)


_METHODS = {"ReadResource": "resources/read", "GetPrompt": "prompts/get", "CallTool": "tools/call",
            "Complete": "completion/complete", "ListResources": "resources/list"}


def call_of(ev: Any, principal: Any = None) -> Call:
    """The :class:`Call` of a machine event."""
    name = type(ev).__name__
    method = _METHODS.get(name) or getattr(ev, "method", name)
    target = getattr(ev, "uri", None) if name == "ReadResource" else getattr(ev, "name", None) if name in ("GetPrompt", "CallTool") else None
    return Call(method, target, int(getattr(ev, "auth", 0)), principal)


class Layers:
    """What a running server holds: the middleware and the sinks (the runtime's seam)."""

    def __init__(self, middleware: list[Middleware], sinks: list[Sink]) -> None:
        self.middleware = middleware
        self.sinks = sinks
        self.trace_headers: dict[int, str] = {}
        self.tracing = [s for s in sinks if callable(getattr(s, "start", None))]

    def start(self, gate: Any, header: str | None) -> Any:
        """Opens the request's span at the gate in the tracing sinks: the context to make
        current while its handler runs (the first sink's), or ``None``."""
        ctx = None
        for s in self.tracing:
            c = s.start(gate, header)
            ctx = c if ctx is None else ctx
        return ctx

    def refused_rate(self, caller: int) -> None:
        for s in self.sinks:
            s.refused({"kind": "refused", "limit": "rate", "caller": caller, "stream": 0, "at_ms": 0})

    def deliver(self, machine: Any, now_ms: int) -> None:
        obs = _core.poll_observations(machine, now_ms)
        if not obs:
            return
        for o in obs:
            if o["kind"] == "request":
                header = self.trace_headers.pop(o["stream"], None)
                parent = _core.trace_parent(o["traceparent"], header)
                for s in self.sinks:
                    s.request(o, parent)
            else:
                for s in self.sinks:
                    s.refused(o)
        listens, sessions = machine.subscriptions, getattr(machine, "open_sessions", 0)
        for s in self.sinks:
            s.gauges(listens, sessions)
