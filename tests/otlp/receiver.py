"""An OTLP/HTTP receiver for the telemetry tests (docs/operations.md, "Tests with a collector").

No OpenTelemetry Collector binary is installable where the tests run, so this stands in for
one: it listens on loopback, accepts ``POST /v1/traces``, ``/v1/metrics`` and ``/v1/logs`` in
OTLP/HTTP protobuf (``application/x-protobuf``; gzip, chunked) or OTLP/JSON, decodes them with
the ``opentelemetry-proto`` package and keeps what it received, so a test in any language can
assert on it over plain HTTP:

- ``GET /received`` -> ``{"spans": [...], "metrics": [...], "latest": {...}, "logs": [...],
  "exports": {"traces": n, "metrics": n, "logs": n}}``. ``?spans=N&timeout=S`` waits (up to S
  seconds) until at least N spans arrived; ``?metric=NAME`` until a point of NAME arrived.
- ``POST /reset`` forgets everything.

``latest`` folds the metric points: per metric name, one entry per attribute set, the last
point of a cumulative sum, gauge or histogram, the sum of delta points.

Run: ``python receiver.py [--port P] [--until-stdin-closes]``; it prints the port on stdout
(one line) when it is ready. ``--until-stdin-closes`` exits when its stdin reaches EOF, so a
test that dies does not leave it behind. In-process: ``Receiver().start()`` / ``.stop()``.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

SPAN_KINDS = {0: "UNSPECIFIED", 1: "INTERNAL", 2: "SERVER", 3: "CLIENT", 4: "PRODUCER", 5: "CONSUMER"}
STATUS = {0: "UNSET", 1: "OK", 2: "ERROR"}
TEMPORALITY = {0: "unspecified", 1: "delta", 2: "cumulative"}

# path -> (request message, response message)
SIGNALS = {
    "/v1/traces": (trace_service_pb2.ExportTraceServiceRequest, trace_service_pb2.ExportTraceServiceResponse),
    "/v1/metrics": (metrics_service_pb2.ExportMetricsServiceRequest, metrics_service_pb2.ExportMetricsServiceResponse),
    "/v1/logs": (logs_service_pb2.ExportLogsServiceRequest, logs_service_pb2.ExportLogsServiceResponse),
}


ID_FIELDS = ("traceId", "spanId", "parentSpanId")


def ids_as_base64(v: Any) -> Any:
    """OTLP/JSON writes trace and span ids in hex, protobuf's JSON mapping reads bytes as base64."""
    if isinstance(v, list):
        return [ids_as_base64(x) for x in v]
    if not isinstance(v, dict):
        return v
    out = {k: ids_as_base64(x) for k, x in v.items()}
    for k in ID_FIELDS:
        if isinstance(out.get(k), str):
            out[k] = base64.b64encode(bytes.fromhex(out[k])).decode()
    return out


def value(v: Any) -> Any:
    """An ``AnyValue`` as a plain JSON value."""
    kind = v.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [value(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return attributes(v.kvlist_value.values)
    if kind == "bytes_value":
        return v.bytes_value.hex()
    return getattr(v, kind)


def attributes(kvs: Any) -> dict[str, Any]:
    return {kv.key: value(kv.value) for kv in kvs}


def spans_of(req: trace_service_pb2.ExportTraceServiceRequest) -> list[dict[str, Any]]:
    out = []
    for rs in req.resource_spans:
        resource = attributes(rs.resource.attributes)
        for ss in rs.scope_spans:
            for s in ss.spans:
                out.append({
                    "name": s.name,
                    "kind": SPAN_KINDS.get(s.kind, str(s.kind)),
                    "trace_id": s.trace_id.hex(),
                    "span_id": s.span_id.hex(),
                    "parent_span_id": s.parent_span_id.hex() or None,
                    "trace_state": s.trace_state,
                    "flags": s.flags,
                    "start_ns": s.start_time_unix_nano,
                    "end_ns": s.end_time_unix_nano,
                    "attributes": attributes(s.attributes),
                    "status": {"code": STATUS.get(s.status.code, str(s.status.code)), "message": s.status.message},
                    "events": [{"name": e.name, "attributes": attributes(e.attributes)} for e in s.events],
                    "scope": ss.scope.name,
                    "resource": resource,
                })
    return out


def number(p: Any) -> float | int:
    return p.as_int if p.WhichOneof("value") == "as_int" else p.as_double


def metrics_of(req: metrics_service_pb2.ExportMetricsServiceRequest) -> list[dict[str, Any]]:
    """One dict per data point: ``name``, ``type`` (sum, gauge, histogram...), ``attributes``,
    ``value`` (sum, gauge) or ``count``/``sum``/``bucket_counts`` (histograms)."""
    out = []
    for rm in req.resource_metrics:
        resource = attributes(rm.resource.attributes)
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                kind = m.WhichOneof("data")
                data = getattr(m, kind) if kind else None
                base = {"name": m.name, "unit": m.unit, "type": kind, "scope": sm.scope.name, "resource": resource}
                if kind in ("sum", "histogram", "exponential_histogram"):
                    base["temporality"] = TEMPORALITY.get(data.aggregation_temporality, "unspecified")
                if kind == "sum":
                    base["monotonic"] = data.is_monotonic
                for p in data.data_points if data is not None else ():
                    point = dict(base, attributes=attributes(p.attributes), time_ns=p.time_unix_nano)
                    if kind in ("sum", "gauge"):
                        point["value"] = number(p)
                    elif kind == "histogram":
                        point.update(count=p.count, sum=p.sum, bucket_counts=list(p.bucket_counts),
                                     explicit_bounds=list(p.explicit_bounds))
                    elif kind in ("exponential_histogram", "summary"):
                        point.update(count=p.count, sum=p.sum)
                    out.append(point)
    return out


def logs_of(req: logs_service_pb2.ExportLogsServiceRequest) -> list[dict[str, Any]]:
    out = []
    for rl in req.resource_logs:
        for sl in rl.scope_logs:
            for r in sl.log_records:
                out.append({
                    "body": value(r.body),
                    "severity": r.severity_text,
                    "attributes": attributes(r.attributes),
                    "trace_id": r.trace_id.hex() or None,
                    "span_id": r.span_id.hex() or None,
                })
    return out


def latest(points: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per metric name, one point per attribute set: the last one, or delta points summed."""
    folded: dict[str, dict[str, dict[str, Any]]] = {}
    for p in points:
        key = json.dumps(p["attributes"], sort_keys=True)
        per = folded.setdefault(p["name"], {})
        prev = per.get(key)
        if prev is not None and p.get("temporality") == "delta":
            p = dict(p)
            for f in ("value", "count", "sum"):
                if f in p:
                    p[f] = p[f] + prev[f]
            if "bucket_counts" in p:
                p["bucket_counts"] = [a + b for a, b in zip(p["bucket_counts"], prev["bucket_counts"])]
        per[key] = p
    return {name: list(per.values()) for name, per in folded.items()}


class Store:
    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.reset()

    def reset(self) -> None:
        with self.cond:
            self.spans: list[dict[str, Any]] = []
            self.metrics: list[dict[str, Any]] = []
            self.logs: list[dict[str, Any]] = []
            self.exports = {"traces": 0, "metrics": 0, "logs": 0}

    def add(self, path: str, req: Any) -> None:
        with self.cond:
            if path == "/v1/traces":
                self.spans.extend(spans_of(req))
                self.exports["traces"] += 1
            elif path == "/v1/metrics":
                self.metrics.extend(metrics_of(req))
                self.exports["metrics"] += 1
            else:
                self.logs.extend(logs_of(req))
                self.exports["logs"] += 1
            self.cond.notify_all()

    def snapshot(self, spans: int = 0, metric: str | None = None, timeout: float = 0.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            def ready() -> bool:
                return len(self.spans) >= spans and (metric is None or any(p["name"] == metric for p in self.metrics))

            while not ready():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(left)
            return {
                "spans": list(self.spans),
                "metrics": list(self.metrics),
                "latest": latest(self.metrics),
                "logs": list(self.logs),
                "exports": dict(self.exports),
            }


class Handler(BaseHTTPRequestHandler):
    server_version = "mcp-context-otlp-receiver"
    protocol_version = "HTTP/1.1"
    store: Store  # set on the subclass by Receiver

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def reply(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def reply_json(self, status: int, v: Any) -> None:
        self.reply(status, json.dumps(v).encode(), "application/json")

    def body(self) -> bytes:
        """The request body: ``content-length`` bytes, or chunks (Node's exporters stream)."""
        if "chunked" not in (self.headers.get("transfer-encoding") or "").lower():
            return self.rfile.read(int(self.headers.get("content-length") or 0))
        chunks = []
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

    def do_GET(self) -> None:  # noqa: N802
        url = urlsplit(self.path)
        if url.path != "/received":
            return self.reply_json(404, {"error": "not found"})
        q = parse_qs(url.query)
        spans = int(q.get("spans", ["0"])[0])
        metric = q.get("metric", [None])[0]
        timeout = float(q.get("timeout", ["0"])[0])
        self.reply_json(200, self.store.snapshot(spans, metric, timeout))

    def do_POST(self) -> None:  # noqa: N802
        path = urlsplit(self.path).path
        raw = self.body()
        if path == "/reset":
            self.store.reset()
            return self.reply_json(200, {})
        if path not in SIGNALS:
            return self.reply_json(404, {"error": "not found"})
        request_type, response_type = SIGNALS[path]
        is_json = (self.headers.get("content-type") or "").startswith("application/json")
        req = request_type()
        try:
            if (self.headers.get("content-encoding") or "").lower() == "gzip":
                raw = gzip.decompress(raw)
            if is_json:
                json_format.ParseDict(ids_as_base64(json.loads(raw)), req)
            else:
                req.ParseFromString(raw)
        except Exception as e:  # noqa: BLE001 - a malformed export is answered 400, as a collector does
            return self.reply_json(400, {"error": str(e)})
        self.store.add(path, req)
        if is_json:
            self.reply(200, json_format.MessageToJson(response_type()).encode(), "application/json")
        else:
            self.reply(200, response_type().SerializeToString(), "application/x-protobuf")


class Receiver:
    """The receiver on ``127.0.0.1:port`` (0: a free port), served from a thread."""

    def __init__(self, port: int = 0) -> None:
        self.store = Store()
        handler = type("BoundHandler", (Handler,), {"store": self.store})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._thread: threading.Thread | None = None

    def start(self) -> Receiver:
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def received(self, spans: int = 0, metric: str | None = None, timeout: float = 0.0) -> dict[str, Any]:
        return self.store.snapshot(spans, metric, timeout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--until-stdin-closes", action="store_true")
    args = ap.parse_args()
    r = Receiver(args.port).start()
    print(r.port, flush=True)
    try:
        if args.until_stdin_closes:
            sys.stdin.read()
        else:
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    r.stop()


if __name__ == "__main__":
    main()
