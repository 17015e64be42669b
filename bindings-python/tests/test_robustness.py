"""Nothing from the wire raises or panics: random and mutated bytes into both machines, and
dicts of the wrong shape into every structured input, end in error responses, events or the
binding's exceptions, never in a PanicException or a crash."""

import json
import random

import pytest

from mcp_context import ClientMachine, InvalidMessage, McpContextError, ServerMachine, Transmit

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
SEEDS = [
    {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"_meta": META, "uri": "notes://p/1"}},
    {"jsonrpc": "2.0", "id": "a", "method": "resources/list", "params": {"_meta": META, "cursor": "x"}},
    {"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"_meta": META, "name": "p", "arguments": {"a": "1"}}},
    {"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {"_meta": META, "notifications": {"resourceSubscriptions": ["notes://1"]}}},
    {"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {"_meta": META, "ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}}},
    {"jsonrpc": "2.0", "id": 5, "result": {"resultType": "complete", "contents": [{"uri": "notes://1", "text": "x"}]}},
]


def mutations(rng: random.Random, n: int):
    for i in range(n):
        base = bytearray(json.dumps(SEEDS[i % len(SEEDS)]).encode())
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(3)
            pos = rng.randrange(len(base))
            if op == 0:
                base[pos] = rng.randrange(256)
            elif op == 1:
                del base[pos]
            else:
                base.insert(pos, rng.choice(b'{}[]",:\\0-e9\xff'))
        yield bytes(base)
        yield bytes(rng.randrange(256) for _ in range(rng.randrange(64)))


def test_server_survives_mutated_messages():
    rng = random.Random(6570)
    server = ServerMachine(declare_prompts=True)
    server.add_resource({"uri": "notes://1", "name": "one"})
    server.add_template({"uriTemplate": "notes://p/{id}", "name": "p"})
    server.add_prompt({"name": "p", "arguments": [{"name": "a"}]})
    for i, data in enumerate(mutations(rng, 3000)):
        kind = server.handle_message(data, i, stream=i % 7, transport="http" if i % 2 else "stdio")
        assert kind in ("request", "notification", "response", "invalid")
        while (out := server.poll_output()) is not None:
            if isinstance(out, Transmit):
                json.loads(out.bytes)  # every answer is JSON
            elif hasattr(out, "handle"):
                try:
                    server.fail(out.handle, "not_found")
                except McpContextError:
                    pass  # e.g. a Cancelled handle


def test_client_survives_mutated_messages():
    rng = random.Random(3986)
    client = ClientMachine("fuzz", "1")
    client.read_resource("notes://1", 0)
    for i, data in enumerate(mutations(rng, 3000)):
        client.handle_message(data, i)
        while client.poll_output() is not None:
            pass


@pytest.mark.parametrize(
    "bad",
    [None, 1, "x", [], {"uri": 1, "name": "n"}, {"uri": "notes://x", "name": None}, {"uri": "notes://x", "name": "n", "size": -1}, {"uri": "notes://x", "name": "n", "annotations": {"priority": "high"}}],
)
def test_wrong_shapes_are_invalid_message(bad):
    server = ServerMachine()
    with pytest.raises(InvalidMessage) as info:
        server.add_resource(bad)
    assert info.value.code in (-32602, -32700)
