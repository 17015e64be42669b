"""100,000 iterations of parse + expand, match, route and a server round trip leave neither
Python objects nor native memory behind.

tracemalloc sees Python allocations only; the Rust side allocates with the system allocator,
so the process RSS is checked too.
"""

import gc
import tracemalloc
from pathlib import Path

import pytest

import json

from mcp_context import ClientMachine, ReadResource, Router, ServerMachine, TemplateError, UriTemplate

ITERATIONS = 100_000
STATUS = Path("/proc/self/status")


def rss_bytes():
    for line in STATUS.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS line")


def parse_and_expand(n):
    for i in range(n):
        t = UriTemplate("repo://{owner}/{repo}/issues{?labels*}{&page}")
        t.expand({"owner": "acme"}, repo="web", labels={"a": "1", "b": i}, page=i)


def parse_errors(n):
    for _ in range(n):
        try:
            UriTemplate("repo://{owner")
        except TemplateError:
            pass


TEMPLATE = UriTemplate("repo://{owner}/{repo}/issues/{number}")
ROUTER = Router()
for _i in range(100):
    ROUTER.add(f"repo://{{owner}}/{{repo}}/t{_i}/{{number}}")


def match_and_route(n):
    for i in range(n):
        assert TEMPLATE.match(f"repo://acme/web%20app/issues/{i}") is not None
        assert TEMPLATE.match("repo://acme/web/pulls/1") is None
        assert ROUTER.match(f"repo://acme/web/t{i % 100}/{i}") is not None


META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
SERVER = ServerMachine()
SERVER.add_resource({"uri": "notes://1", "name": "one"})
SERVER.add_template({"uriTemplate": "notes://p/{id}", "name": "p"})


def read_request(i):
    uri = "notes://1" if i % 2 else f"notes://p/{i}"
    msg = {"jsonrpc": "2.0", "id": i, "method": "resources/read", "params": {"_meta": META, "uri": uri}}
    return json.dumps(msg).encode()


REQUESTS = [read_request(i) for i in range(64)]


def handle(n):
    """A full read round trip through the server machine: message in, event, respond, bytes out."""
    for i in range(n):
        SERVER.handle_message(REQUESTS[i % 64], i)
        while (out := SERVER.poll_output()) is not None:
            if isinstance(out, ReadResource):
                SERVER.respond_read(out.handle, [{"uri": out.uri, "text": "hello"}])
    assert SERVER.pending_requests == 0


def client_round_trip(n):
    """The client machine's hot path: a read answered by a (scripted) server."""
    c = ClientMachine("m", "1", cache=None)
    c.connect(0)
    probe = c.poll_output()
    c.handle_message(
        json.dumps({"jsonrpc": "2.0", "id": probe.id, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"resources": {}}, "ttlMs": 0, "cacheScope": "public"}}).encode(),
        0,
    )
    while c.poll_output() is not None:
        pass
    for i in range(n):
        c.read_resource("notes://1", i)
        t = c.poll_output()
        c.handle_message(b'{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":"notes://1","text":"x"}],"ttlMs":0,"cacheScope":"private"}}' % t.id, i)
        assert c.poll_output() is not None


@pytest.mark.skipif(not STATUS.exists(), reason="needs /proc (Linux) for RSS")
@pytest.mark.parametrize(
    ("work", "n"),
    [
        (parse_and_expand, ITERATIONS),
        (parse_errors, 20_000),
        (match_and_route, ITERATIONS),
        (handle, ITERATIONS),
        (client_round_trip, 20_000),
    ],
)
def test_no_memory_growth(work, n):
    work(n // 10)  # warm caches, interned strings, allocator arenas
    gc.collect()
    tracemalloc.start()
    try:
        traced_before, rss_before = tracemalloc.get_traced_memory()[0], rss_bytes()
        work(n)
        gc.collect()
        traced_after, rss_after = tracemalloc.get_traced_memory()[0], rss_bytes()
    finally:
        tracemalloc.stop()
    # One leaked Python object per iteration would be megabytes; allow a few KiB of noise.
    assert traced_after - traced_before < 64 * 1024, traced_after - traced_before
    # A native leak of 16 bytes per iteration would exceed this bound.
    assert rss_after - rss_before < 16 * n, rss_after - rss_before
