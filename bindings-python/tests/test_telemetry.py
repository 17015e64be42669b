"""Telemetry and middleware of the Python package (docs/operations.md), with the
OpenTelemetry SDK's in-memory exporters: one scripted session over the ASGI runner (a
traced call, a call traced by the HTTP header only, a call over the response cap, one over
the caller's rate, an unknown method: the middleware runs at the core's gate, so it counts
too), then spans, parents, attributes, metric values, the JSON request log; a middleware
that refuses ``server/discover`` and ``resources/list`` (answered by the core, no handler)
over ASGI and stdio, and a rate limit counting list calls; and a Redis-backed rate limit
holding across two instances sharing a real ``redis-server``."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from pathlib import Path

import httpx
import pytest

from mcp_context.server import App
from mcp_context.telemetry import RATE_LIMITED, RESPONSE_TOO_LARGE, Call, JsonLog, Middleware, Otel, RateLimit, RedisRateLimit, Refuse

otel_sdk = pytest.importorskip("opentelemetry.sdk")
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402
from opentelemetry.trace import SpanKind  # noqa: E402

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = "00f067aa0ba902b7"
V = "2026-07-28"


def body(id: int, tool: str, traceparent: str | None = None) -> bytes:  # noqa: A002
    meta = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
    if traceparent:
        meta["traceparent"] = traceparent
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"_meta": meta, "name": tool, "arguments": {}}}).encode()


def headers(tool: str, **extra: str) -> dict[str, str]:
    return {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": V,
        "mcp-method": "tools/call",
        "mcp-name": tool,
        **extra,
    }


class Tenant(Middleware):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def before(self, call: Call) -> None:
        call.annotate("app.tenant", "acme")

    def after(self, call: Call, error: BaseException | None) -> None:
        self.seen.append(f"{call.method} {call.target} {error is None}")


def app_with(*middleware: Middleware, sinks=()) -> App:
    app = App("telemetry")

    @app.tool()
    def echo() -> str:
        return "hi"

    @app.tool()
    def big() -> str:
        return "x" * 4096

    for m in middleware:
        app.middleware(m)
    for s in sinks:
        app.sink(s)
    app.limit_responses(1024)
    return app


async def post(http: httpx.AsyncClient, content: bytes, hdrs: dict[str, str]) -> dict:
    r = await http.post("/mcp", content=content, headers=hdrs)
    return r.json()


def points(reader: InMemoryMetricReader, name: str) -> list:
    data = reader.get_metrics_data()
    out = []
    for rm in data.resource_metrics:
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                if m.name == name:
                    out.extend(m.data.data_points)
    return out


def test_a_scripted_session_yields_spans_metrics_and_log_lines():
    spans = InMemorySpanExporter()
    tracer = TracerProvider()
    tracer.add_span_processor(SimpleSpanProcessor(spans))
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader])
    log = io.StringIO()
    tenant = Tenant()
    app = app_with(tenant, RateLimit(rate=0.001, burst=3), sinks=[Otel(tracer, meter), JsonLog(log)])
    tp = f"00-{TRACE}-{PARENT}-01"
    header_only = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    async def main():
        transport = httpx.ASGITransport(app=app.asgi())
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            return [
                await post(http, body(1, "echo", tp), headers("echo")),
                await post(http, body(2, "echo"), headers("echo", traceparent=header_only)),
                await post(http, body(3, "big"), headers("big")),
                await post(http, body(4, "echo"), headers("echo")),
                await post(http, json.dumps({"jsonrpc": "2.0", "id": 5, "method": "no/such", "params": {}}).encode(),
                           {"content-type": "application/json", "accept": "application/json, text/event-stream"}),
            ]

    answers = asyncio.run(main())
    assert "result" in answers[0], answers[0]
    assert answers[2]["error"]["code"] == RESPONSE_TOO_LARGE, answers[2]
    assert answers[3]["error"]["code"] == RATE_LIMITED, answers[3]
    assert answers[3]["error"]["message"].startswith("Rate limit exceeded: retry after "), answers[3]
    assert answers[4]["error"]["code"] == RATE_LIMITED, "the gate: middleware meets every request"

    got = spans.get_finished_spans()
    assert len(got) == 5, got
    first = got[0]
    assert first.name == "tools/call echo"
    assert first.kind == SpanKind.SERVER
    assert format(first.context.trace_id, "032x") == TRACE
    assert format(first.parent.span_id, "016x") == PARENT and first.parent.is_remote
    a = first.attributes
    assert a["mcp.method.name"] == "tools/call" and a["gen_ai.tool.name"] == "echo"
    assert a["gen_ai.operation.name"] == "execute_tool" and a["jsonrpc.request.id"] == "1"
    assert a["mcp.protocol.version"] == V and a["network.transport"] == "tcp"
    assert a["app.tenant"] == "acme" and "error.type" not in a
    assert format(got[1].context.trace_id, "032x") == header_only[3:35], "the header is the parent"
    assert got[2].attributes["error.type"] == str(RESPONSE_TOO_LARGE)
    assert got[3].attributes["error.type"] == str(RATE_LIMITED)
    assert got[4].attributes["mcp.method.name"] == "no/such"
    assert got[4].attributes["rpc.response.status_code"] == str(RATE_LIMITED)

    ok = [p for p in points(reader, "mcp_context.server.requests") if p.attributes.get("outcome") == "ok"]
    assert sum(p.value for p in ok) == 2
    refusals = {p.attributes["mcp_context.limit"]: p.value for p in points(reader, "mcp_context.server.refusals")}
    assert refusals == {"rate": 2, "response": 1}
    assert sum(p.count for p in points(reader, "mcp.server.operation.duration")) == 5

    lines = [json.loads(x) for x in log.getvalue().splitlines()]
    requests = [x for x in lines if "method" in x]
    assert len(requests) == 5
    assert requests[0]["trace_id"] == TRACE and requests[0]["target"] == "echo"
    assert requests[0]["annotations"] == {"app.tenant": "acme"}
    assert requests[3]["error_type"] == str(RATE_LIMITED)
    assert tenant.seen == [
        "tools/call echo True", "tools/call echo True", "tools/call big True", "tools/call echo False", "no/such None False"
    ]


def test_a_redis_rate_limit_holds_across_two_instances():
    redis = pytest.importorskip("redis")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "scale-out"))
    from fleet import Redis

    server = Redis().start()
    try:
        def instance() -> App:
            client = redis.Redis.from_url(server.url)
            return app_with(RedisRateLimit(client, rate=0.001, burst=3))

        a, b = instance(), instance()

        async def main():
            def by_caller(h: dict[str, str]) -> int:
                return int(h.get("x-caller", "0"))

            ta = httpx.ASGITransport(app=a.asgi(authenticate=by_caller))
            tb = httpx.ASGITransport(app=b.asgi(authenticate=by_caller))
            async with httpx.AsyncClient(transport=ta, base_url="http://127.0.0.1") as ha, httpx.AsyncClient(transport=tb, base_url="http://127.0.0.1") as hb:
                order = [ha, hb, ha, hb, ha]
                one = [await post(h, body(i, "echo"), headers("echo", **{"x-caller": "7"})) for i, h in enumerate(order)]
                other = await post(hb, body(9, "echo"), headers("echo", **{"x-caller": "8"}))
                return one, other

        one, other = asyncio.run(main())
        assert all("result" in x for x in one[:3]), one
        for refused in one[3:]:  # one on each instance
            assert refused["error"]["code"] == RATE_LIMITED, refused
            assert refused["error"]["message"].startswith("Rate limit exceeded: retry after "), refused
        assert "result" in other, "another caller has its own bucket"
    finally:
        server.stop()


class NoLists(Middleware):
    """Refuses the requests the core answers itself: discovery and the resource list."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def before(self, call: Call) -> None:
        if call.method in ("server/discover", "resources/list"):
            raise Refuse(-31000, "not here")

    def after(self, call: Call, error: BaseException | None) -> None:
        self.seen.append(f"{call.method} {error is None}")


def plain(id: int, method: str) -> bytes:  # noqa: A002
    meta = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": meta}}).encode()


def gated_app(*middleware: Middleware) -> App:
    app = app_with(*middleware)

    @app.resource("notes://one")
    def one() -> str:
        return "1"

    return app


def test_middleware_refuses_requests_the_core_answers_over_asgi():
    mw = NoLists()
    app = gated_app(mw)

    async def main():
        transport = httpx.ASGITransport(app=app.asgi())
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            hdr = {"content-type": "application/json", "accept": "application/json, text/event-stream", "mcp-protocol-version": V}
            return [
                await post(http, plain(1, "server/discover"), {**hdr, "mcp-method": "server/discover"}),
                await post(http, plain(2, "resources/list"), {**hdr, "mcp-method": "resources/list"}),
                await post(http, plain(3, "tools/list"), {**hdr, "mcp-method": "tools/list"}),
                await post(http, body(4, "echo"), headers("echo")),
            ]

    answers = asyncio.run(main())
    for a, id_ in zip(answers[:2], (1, 2)):
        assert a["id"] == id_ and a["error"] == {"code": -31000, "message": "not here"}, a
    assert "tools" in answers[2]["result"], answers[2]
    assert "content" in answers[3]["result"], answers[3]
    assert mw.seen == ["server/discover False", "resources/list False", "tools/list True", "tools/call True"]


def test_middleware_refuses_requests_the_core_answers_over_stdio():
    from mcp_context._stdio import serve_stdio

    mw = NoLists()
    app = gated_app(mw, RateLimit(rate=0.001, burst=2))
    lines = [plain(1, "server/discover"), plain(2, "resources/list"), plain(3, "tools/list"), plain(4, "prompts/list"),
             plain(5, "tools/list"), body(6, "echo")]
    stdin = io.BytesIO(b"".join(x + b"\n" for x in lines))
    stdout = io.BytesIO()
    asyncio.run(serve_stdio(app, stdin=stdin, stdout=stdout))
    answers = {a["id"]: a for a in (json.loads(x) for x in stdout.getvalue().splitlines())}
    assert answers[1]["error"]["code"] == -31000 and answers[2]["error"]["code"] == -31000
    # The rate limit counts list calls: 3 and 4 take the burst of 2 (1 and 2 were refused
    # before it), so the next list and the tool call are over the rate.
    assert "tools" in answers[3]["result"], answers[3]
    assert answers[4]["error"]["code"] == -32601, "no prompts: the core's answer, after the gate"
    assert answers[5]["error"]["code"] == RATE_LIMITED, answers[5]
    assert answers[6]["error"]["code"] == RATE_LIMITED, answers[6]


@pytest.mark.parametrize("runner", ["asgi", "stdio"])
def test_a_handlers_span_is_a_child_of_the_request_span(runner):
    """The request span opens at the gate and is current while the handler runs (sync, or
    async: its task copies the context), so a span the handler opens is its child; the
    request span keeps the client's ``traceparent`` as its parent."""
    from mcp_context._stdio import serve_stdio

    spans = InMemorySpanExporter()
    tracer = TracerProvider()
    tracer.add_span_processor(SimpleSpanProcessor(spans))
    inner = tracer.get_tracer("handler")
    app = App("traced")

    @app.tool()
    def sync_tool() -> str:
        with inner.start_as_current_span("sync work"):
            return "s"

    @app.tool()
    async def async_tool() -> str:
        await asyncio.sleep(0)
        with inner.start_as_current_span("async work"):
            return "a"

    app.sink(Otel(tracer, MeterProvider(metric_readers=[InMemoryMetricReader()])))
    tp = f"00-{TRACE}-{PARENT}-01"
    messages = [body(1, "sync_tool", tp), body(2, "async_tool", tp)]
    if runner == "asgi":
        async def main():
            transport = httpx.ASGITransport(app=app.asgi())
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
                return [await post(http, m, headers(json.loads(m)["params"]["name"])) for m in messages]

        answers = asyncio.run(main())
    else:
        out = io.BytesIO()
        asyncio.run(serve_stdio(app, stdin=io.BytesIO(b"".join(m + b"\n" for m in messages)), stdout=out))
        answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert all("result" in a for a in answers), answers
    got = {s.name: s for s in spans.get_finished_spans()}
    for tool, work in (("sync_tool", "sync work"), ("async_tool", "async work")):
        request, child = got[f"tools/call {tool}"], got[work]
        assert format(request.parent.span_id, "016x") == PARENT and request.parent.is_remote
        assert child.parent is not None and child.parent.span_id == request.context.span_id, (tool, child.parent)
        assert child.context.trace_id == request.context.trace_id
        assert request.attributes["gen_ai.tool.name"] == tool
