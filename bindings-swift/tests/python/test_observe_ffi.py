"""The core's observations through the C ABI the Swift package uses (uniffi's Python backend):
`observe`, `poll_observation` (span name, attributes under the core's names, the `_meta`
traceparent as parent, outcome), `annotate`, `limit_responses` (a `response` refusal and
-31413), `open_counts`, `parse_trace_parent`, the two error codes."""

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


def test_observations_through_the_ffi():
    config = m.server_config()
    config.server_info = m.Implementation(name="otel", version="1.0.0", title=None, description=None, website_url=None)
    server = m.ServerMachine(config)
    server.add_tool('{"name":"echo","inputSchema":{"type":"object"}}')
    assert server.poll_observation(1) is None  # off by default
    server.observe(True)
    server.limit_responses(256)
    ctx = m.MessageContext(stream=1, auth=7, transport=m.ServerTransport.STDIO)

    def call(i, text):
        msg = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "echo", "arguments": {}, "_meta": META}}
        server.handle_message(json.dumps(msg).encode(), 100, ctx)
        (event,) = [o.event for o in server.drain().outputs]
        server.annotate(event.handle, "tenant", "acme")
        server.respond_tool(event.handle, json.dumps({"content": [{"type": "text", "text": text}]}))
        return json.loads(server.drain().outputs[0].bytes)

    assert call(1, "hi")["result"]["content"][0]["text"] == "hi"
    obs = server.poll_observation(105)
    assert isinstance(obs, m.ServerObservation.REQUEST)
    r = obs.request
    assert (r.span_name, r.outcome, r.error_type, r.caller, r.start_ms, r.end_ms) == ("tools/call echo", "ok", None, 7, 100, 105)
    assert r.attributes["mcp.method.name"] == "tools/call"
    assert r.attributes["gen_ai.tool.name"] == "echo"
    assert r.attributes["jsonrpc.request.id"] == "1"
    assert r.attributes["network.transport"] == "pipe"
    assert r.attributes["tenant"] == "acme"
    assert (r.parent.trace_id, r.parent.span_id, r.parent.trace_flags) == ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", 1)
    assert server.poll_observation(105) is None
    big = call(2, "x" * 1024)
    assert big["error"]["code"] == m.response_too_large_code() == -31413
    kinds = [server.poll_observation(110) for _ in range(2)]
    refused = [o for o in kinds if isinstance(o, m.ServerObservation.REFUSED)]
    assert [(o.limit, o.caller) for o in refused] == [("response", 7)]
    (finished,) = [o for o in kinds if isinstance(o, m.ServerObservation.REQUEST)]
    assert finished.request.error_type == "-31413"
    assert server.open_counts() == m.OpenCounts(listens=0, sessions=0)
    assert m.parse_trace_parent(META["traceparent"]).span_id == "00f067aa0ba902b7"
    assert m.parse_trace_parent("00-00000000000000000000000000000000-00f067aa0ba902b7-01") is None
    assert m.rate_limited_code() == -31429
