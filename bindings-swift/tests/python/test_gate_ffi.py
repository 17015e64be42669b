"""The core's gate (docs/rules.md §26.7) through the C ABI the Swift package uses (uniffi's
Python backend): `gate`, `gate_request` (a core-answered list stopped with its fields),
`gate_admit` (the machine's own answer), `gate_refuse` (the handler's error, observed with the
gate's annotation), one decision per gated request, and `rate_limited_message`."""

import json
import os
import pathlib
import sys

sys.path.insert(0, os.environ.get("UNIFFI_PY_DIR", str(pathlib.Path(__file__).resolve().parents[3] / "target" / "uniffi" / "python")))

import mcp_context_ffi as m  # noqa: E402

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
}


def listing(i):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "resources/list", "params": {"_meta": META}}).encode()


def test_the_gate_through_the_ffi():
    config = m.server_config()
    config.declare_resources = True
    server = m.ServerMachine(config)
    ctx = m.MessageContext(stream=2, auth=5, transport=m.ServerTransport.STDIO)
    assert server.gate_request(listing(1), 10, ctx) is None  # off by default
    server.gate(True)
    server.observe(True)
    assert server.gating()
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}).encode()
    assert server.gate_request(note, 10, ctx) is None  # not a request

    gate = server.gate_request(listing(1), 10, ctx)
    info = gate.info()
    assert (info.method, info.request_id, info.caller, info.stream, info.http, info.start_ms) == ("resources/list", "1", 5, 2, False, 10)
    assert info.parent.trace_id == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert server.drain().outputs == []  # the machine holds nothing meanwhile
    assert server.gate_admit(gate, listing(1), 11, ctx) == m.Received.REQUEST
    assert "result" in json.loads(server.drain().outputs[0].bytes)
    assert gate.decided() and server.gate_admit(gate, listing(1), 11, ctx) is None
    assert server.poll_observation(12).request.outcome == "ok"

    refused = server.gate_request(listing(2), 20, ctx)
    refused.annotate("tenant", "acme")
    message = m.rate_limited_message(250)
    assert message == "Rate limit exceeded: retry after 250 ms"
    assert server.gate_refuse(refused, m.Failure.APPLICATION(code=m.rate_limited_code(), message=message))
    assert not server.gate_refuse(refused, m.Failure.INTERNAL())
    answer = json.loads(server.drain().outputs[0].bytes)
    assert answer == {"jsonrpc": "2.0", "id": 2, "error": {"code": -31429, "message": message}}
    r = server.poll_observation(21).request
    assert (r.outcome, r.error_type, r.attributes["tenant"]) == ("error", "-31429", "acme")
