"""Telemetry exported over OTLP/HTTP to a receiver on loopback (docs/operations.md, "Tests
with a collector"): the real ``opentelemetry-exporter-otlp-proto-http`` exporters (a batch span
processor, a periodic metric reader) under :class:`mcp_context.telemetry.Otel`, a scripted
session over the ASGI runner (a list, a read, a prompt, a tool error, an unknown resource, a
response over the cap, a request over the caller's rate), one request traced by its
``_meta.traceparent`` and one by the HTTP ``traceparent`` header; then what reached
tests/otlp/receiver.py (decoded with ``opentelemetry-proto``): span names, kinds, attributes,
the client's trace and parent span ids, statuses, and the metric points. Then a 2025-11-25
session (``mcp.session.id``, the open-sessions gauge), the stdio runner (``pipe``), and the
receiver itself (OTLP/JSON, gzip, chunked bodies, garbage refused)."""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

import httpx
import pytest

from mcp_context.server import App, NotFound
from mcp_context.telemetry import RATE_LIMITED, RESPONSE_TOO_LARGE, Otel, RateLimit

pytest.importorskip("opentelemetry.exporter.otlp.proto.http")
pytest.importorskip("opentelemetry.proto")
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter  # noqa: E402
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "otlp"))
from receiver import Receiver  # noqa: E402

V = "2026-07-28"
META_TRACE, META_PARENT = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
HEADER_TRACE, HEADER_PARENT = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"


def message(id: int, method: str, params: dict[str, Any], traceparent: str | None = None) -> bytes:  # noqa: A002
    meta: dict[str, Any] = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {}}
    if traceparent:
        meta["traceparent"] = traceparent
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": {**params, "_meta": meta}}).encode()


def headers(method: str, name: str | None = None, **extra: str) -> dict[str, str]:
    h = {"content-type": "application/json", "accept": "application/json, text/event-stream",
         "mcp-protocol-version": V, "mcp-method": method, **extra}
    if name is not None:
        h["mcp-name"] = name
    return h


def demo() -> App:
    app = App("otlp")

    @app.resource("notes://{id}", list=lambda: ["notes://1"])
    def note(id: str) -> str:  # noqa: A002
        if id != "1":
            raise NotFound(f"notes://{id}")
        return "hi"

    @app.prompt()
    def greet(who: str) -> str:
        return f"hello {who}"

    @app.tool()
    def boom() -> str:
        raise RuntimeError("boom")

    @app.tool()
    def big() -> str:
        return "x" * 4096

    @app.tool()
    def echo() -> str:
        return "hi"

    return app


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def providers(endpoint: str) -> tuple[TracerProvider, MeterProvider]:
    """The OTLP/HTTP protobuf exporters to ``endpoint``: spans through a batch processor,
    metrics through a periodic reader (flushed by the test)."""
    resource = Resource.create({"service.name": "otlp-python-test"})
    tracer = TracerProvider(resource=resource)
    tracer.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{endpoint}/v1/traces")))
    reader = PeriodicExportingMetricReader(OTLPMetricExporter(endpoint=f"{endpoint}/v1/metrics"),
                                           export_interval_millis=3_600_000)
    return tracer, MeterProvider(resource=resource, metric_readers=[reader])


def test_a_scripted_session_reaches_the_otlp_receiver():
    receiver = Receiver().start()
    tracer, meter = providers(receiver.endpoint)
    try:
        app = demo()
        app.sink(Otel(tracer, meter))
        # Caller 0 has five requests (both reads, the prompt, boom, big: cut after its
        # handler ran), the sixth is over its rate; the list is caller 1's, whether or not
        # the middleware sees the requests the core answers itself.
        app.middleware(RateLimit(rate=0.001, burst=5))
        app.limit_responses(1024)

        async def session() -> list[dict[str, Any]]:
            transport = httpx.ASGITransport(app=app.asgi(authenticate=lambda h: int(h.get("x-caller", "0"))))
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
                script = [
                    (message(1, "resources/list", {}, f"00-{META_TRACE}-{META_PARENT}-01"),
                     headers("resources/list", **{"x-caller": "1"})),
                    (message(2, "resources/read", {"uri": "notes://1"}),
                     headers("resources/read", "notes://1", traceparent=f"00-{HEADER_TRACE}-{HEADER_PARENT}-01")),
                    (message(3, "prompts/get", {"name": "greet", "arguments": {"who": "ada"}}), headers("prompts/get", "greet")),
                    (message(4, "tools/call", {"name": "boom", "arguments": {}}), headers("tools/call", "boom")),
                    (message(5, "resources/read", {"uri": "notes://2"}), headers("resources/read", "notes://2")),
                    (message(6, "tools/call", {"name": "big", "arguments": {}}), headers("tools/call", "big")),
                    (message(7, "tools/call", {"name": "echo", "arguments": {}}), headers("tools/call", "echo")),
                ]
                return [(await http.post("/mcp", content=body, headers=h)).json() for body, h in script]

        answers = asyncio.run(session())
        assert "result" in answers[0] and "result" in answers[1] and "result" in answers[2], answers[:3]
        assert answers[3]["result"]["isError"] is True, answers[3]
        not_found = answers[4]["error"]["code"]
        assert answers[5]["error"]["code"] == RESPONSE_TOO_LARGE, answers[5]
        assert answers[6]["error"]["code"] == RATE_LIMITED, answers[6]

        assert tracer.force_flush() and meter.force_flush()
        got = get(f"{receiver.endpoint}/received?spans=7&metric=mcp_context.server.refusals&timeout=20")
    finally:
        tracer.shutdown()  # before the receiver goes: nothing left to retry
        meter.shutdown()
        receiver.stop()

    spans = {s["attributes"]["jsonrpc.request.id"]: s for s in got["spans"]}
    assert sorted(spans) == ["1", "2", "3", "4", "5", "6", "7"], [s["name"] for s in got["spans"]]
    assert [spans[str(i)]["name"] for i in range(1, 8)] == [
        "resources/list", "resources/read", "prompts/get greet", "tools/call boom", "resources/read",
        "tools/call big", "tools/call echo",
    ]
    for s in spans.values():
        assert s["kind"] == "SERVER" and s["scope"] == "mcp-context", s
        assert s["resource"]["service.name"] == "otlp-python-test"
        assert s["attributes"]["network.transport"] == "tcp" and s["attributes"]["mcp.protocol.version"] == V
        assert s["end_ns"] >= s["start_ns"] > 0

    listed, read = spans["1"], spans["2"]
    assert listed["trace_id"] == META_TRACE and listed["parent_span_id"] == META_PARENT, listed
    assert read["trace_id"] == HEADER_TRACE and read["parent_span_id"] == HEADER_PARENT, read
    assert listed["attributes"]["mcp.method.name"] == "resources/list" and listed["status"]["code"] == "UNSET"
    assert listed["attributes"]["mcp_context.caller"] == 1 and read["attributes"]["mcp_context.caller"] == 0
    assert read["attributes"]["mcp.resource.uri"] == "notes://1" and "error.type" not in read["attributes"]
    assert spans["3"]["attributes"]["gen_ai.prompt.name"] == "greet"
    assert spans["3"]["parent_span_id"] is None, "no traceparent: a new trace"
    boom = spans["4"]["attributes"]
    assert boom["gen_ai.tool.name"] == "boom" and boom["gen_ai.operation.name"] == "execute_tool"
    assert boom["error.type"] == "tool_error" and spans["4"]["status"] == {"code": "ERROR", "message": "tool_error"}
    assert spans["5"]["attributes"]["mcp.resource.uri"] == "notes://2"
    assert spans["5"]["attributes"]["error.type"] == str(not_found)
    assert spans["5"]["attributes"]["rpc.response.status_code"] == str(not_found)
    assert spans["6"]["attributes"]["error.type"] == str(RESPONSE_TOO_LARGE)
    assert spans["7"]["attributes"]["error.type"] == str(RATE_LIMITED)

    latest = got["latest"]
    requests = {(p["attributes"]["mcp.method.name"], p["attributes"]["outcome"], p["attributes"].get("error.type")): p["value"]
                for p in latest["mcp_context.server.requests"]}
    assert requests == {
        ("resources/list", "ok", None): 1,
        ("resources/read", "ok", None): 1,
        ("prompts/get", "ok", None): 1,
        ("tools/call", "tool_error", "tool_error"): 1,
        ("resources/read", "error", str(not_found)): 1,
        ("tools/call", "error", str(RESPONSE_TOO_LARGE)): 1,
        ("tools/call", "error", str(RATE_LIMITED)): 1,
    }, requests
    assert all(p["type"] == "sum" and p["monotonic"] for p in latest["mcp_context.server.requests"])
    duration = latest["mcp.server.operation.duration"]
    assert all(p["type"] == "histogram" and p["unit"] == "s" for p in duration)
    assert sum(p["count"] for p in duration) == 7
    refusals = {p["attributes"]["mcp_context.limit"]: p["value"] for p in latest["mcp_context.server.refusals"]}
    assert refusals == {"rate": 1, "response": 1}


def test_the_receiver_reads_otlp_json_gzip_and_chunks_and_refuses_garbage():
    """What the other languages' exporters may send: OTLP/JSON (hex ids), gzip, a chunked
    body; a body that is not OTLP is answered 400 and kept out; delta points are summed."""
    import gzip
    import http.client

    from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

    receiver = Receiver().start()
    try:
        def send(path: str, body: bytes, **hdrs: str) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", receiver.port, timeout=10)
            try:
                if hdrs.pop("chunked", None):
                    conn.putrequest("POST", path)
                    for k, v in {**hdrs, "transfer-encoding": "chunked"}.items():
                        conn.putheader(k, v)
                    conn.endheaders()
                    for part in (body[:3], body[3:]):
                        conn.send(b"%x\r\n%s\r\n" % (len(part), part))
                    conn.send(b"0\r\n\r\n")
                else:
                    conn.request("POST", path, body=body, headers=hdrs)
                r = conn.getresponse()
                r.read()
                return r.status
            finally:
                conn.close()

        as_json = {"resourceSpans": [{"scopeSpans": [{"spans": [
            {"traceId": META_TRACE, "spanId": META_PARENT, "name": "json", "kind": 2}]}]}]}
        assert send("/v1/traces", json.dumps(as_json).encode(), **{"content-type": "application/json"}) == 200
        req = trace_service_pb2.ExportTraceServiceRequest()
        req.resource_spans.add().scope_spans.add().spans.add(name="gzip", trace_id=bytes.fromhex(HEADER_TRACE), span_id=bytes(8))
        assert send("/v1/traces", gzip.compress(req.SerializeToString()),
                    **{"content-type": "application/x-protobuf", "content-encoding": "gzip"}) == 200
        req.resource_spans[0].scope_spans[0].spans[0].name = "chunked"
        assert send("/v1/traces", req.SerializeToString(), chunked="1", **{"content-type": "application/x-protobuf"}) == 200
        assert send("/v1/traces", b"\xff\xff\xff", **{"content-type": "application/x-protobuf"}) == 400
        assert send("/v1/traces", b"not gzip", **{"content-type": "application/x-protobuf", "content-encoding": "gzip"}) == 400

        metrics = metrics_service_pb2.ExportMetricsServiceRequest()
        m = metrics.resource_metrics.add().scope_metrics.add().metrics.add(name="n")
        m.sum.aggregation_temporality = 1  # delta
        m.sum.data_points.add(as_int=2)
        for _ in range(2):
            assert send("/v1/metrics", metrics.SerializeToString(), **{"content-type": "application/x-protobuf"}) == 200

        got = get(f"{receiver.endpoint}/received")
        assert [(s["name"], s["trace_id"], s["kind"]) for s in got["spans"]] == [
            ("json", META_TRACE, "SERVER"), ("gzip", HEADER_TRACE, "UNSPECIFIED"), ("chunked", HEADER_TRACE, "UNSPECIFIED")]
        assert got["spans"][0]["span_id"] == META_PARENT
        assert got["exports"] == {"traces": 3, "metrics": 2, "logs": 0}
        assert [p["value"] for p in got["metrics"]] == [2, 2] and got["latest"]["n"][0]["value"] == 4
        with urllib.request.urlopen(urllib.request.Request(f"{receiver.endpoint}/reset", method="POST")) as r:
            assert r.status == 200
        assert get(f"{receiver.endpoint}/received")["spans"] == []
    finally:
        receiver.stop()


def test_a_2025_session_carries_its_session_id_to_the_receiver():
    """A 2025-11-25 HTTP session (initialize, a call traced by the header): its spans carry
    ``mcp.session.id``, the open-sessions gauge counts it."""
    receiver = Receiver().start()
    tracer, meter = providers(receiver.endpoint)
    try:
        app = demo()
        app.sink(Otel(tracer, meter))

        async def session() -> tuple[str, dict[str, Any]]:
            transport = httpx.ASGITransport(app=app.asgi())
            accept = {"accept": "application/json, text/event-stream"}
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", headers=accept) as http:
                init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
                r = await http.post("/mcp", json=init)
                sid = r.headers["mcp-session-id"]
                h = {"mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"}
                r = await http.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
                assert r.status_code == 202, r.text
                call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
                r = await http.post("/mcp", json=call, headers={**h, "traceparent": f"00-{HEADER_TRACE}-{HEADER_PARENT}-01"})
                return sid, r.json()

        sid, answer = asyncio.run(session())
        assert answer["result"]["content"][0]["text"] == "hi", answer
        assert tracer.force_flush() and meter.force_flush()
        got = get(f"{receiver.endpoint}/received?spans=2&metric=mcp_context.server.open_sessions&timeout=20")
    finally:
        tracer.shutdown()
        meter.shutdown()
        receiver.stop()

    spans = {s["attributes"]["mcp.method.name"]: s for s in got["spans"]}
    assert sorted(spans) == ["initialize", "tools/call"], got["spans"]
    echo = spans["tools/call"]
    assert echo["name"] == "tools/call echo"
    assert echo["attributes"]["mcp.session.id"] == sid
    assert (echo["trace_id"], echo["parent_span_id"]) == (HEADER_TRACE, HEADER_PARENT)
    assert [p["value"] for p in got["latest"]["mcp_context.server.open_sessions"]] == [1]
    assert got["latest"]["mcp_context.server.open_sessions"][0]["type"] == "gauge"


def test_a_stdio_session_reaches_the_receiver():
    """The stdio runner (``network.transport`` ``pipe``): ``_meta.traceparent`` is the parent."""
    import io

    receiver = Receiver().start()
    tracer, meter = providers(receiver.endpoint)
    try:
        app = demo()
        app.sink(Otel(tracer, meter))
        script = b"\n".join([
            message(1, "resources/read", {"uri": "notes://1"}, f"00-{META_TRACE}-{META_PARENT}-01"),
            message(2, "tools/call", {"name": "boom", "arguments": {}}),
        ]) + b"\n"
        out = io.BytesIO()
        asyncio.run(app.serve_stdio(stdin=io.BytesIO(script), stdout=out))
        answers = {a["id"]: a for a in map(json.loads, out.getvalue().splitlines())}
        assert answers[1]["result"]["contents"][0]["text"] == "hi", answers
        assert answers[2]["result"]["isError"] is True, answers
        assert tracer.force_flush() and meter.force_flush()
        got = get(f"{receiver.endpoint}/received?spans=2&metric=mcp_context.server.requests&timeout=20")
    finally:
        tracer.shutdown()
        meter.shutdown()
        receiver.stop()

    spans = {s["attributes"]["jsonrpc.request.id"]: s for s in got["spans"]}
    assert [(spans[i]["name"], spans[i]["attributes"]["network.transport"]) for i in ("1", "2")] == [
        ("resources/read", "pipe"), ("tools/call boom", "pipe")]
    assert (spans["1"]["trace_id"], spans["1"]["parent_span_id"]) == (META_TRACE, META_PARENT)
    assert spans["2"]["parent_span_id"] is None
    outcomes = sorted((p["attributes"]["mcp.method.name"], p["attributes"]["outcome"], p["value"])
                      for p in got["latest"]["mcp_context.server.requests"])
    assert outcomes == [("resources/read", "ok", 1), ("tools/call", "tool_error", 1)]
