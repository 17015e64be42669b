"""100,000 parse + expand iterations leave neither Python objects nor native memory behind.

tracemalloc sees Python allocations only; the Rust side allocates with the system allocator,
so the process RSS is checked too.
"""

import gc
import tracemalloc
from pathlib import Path

import pytest

from mcp_context import TemplateError, UriTemplate

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


@pytest.mark.skipif(not STATUS.exists(), reason="needs /proc (Linux) for RSS")
@pytest.mark.parametrize(("work", "n"), [(parse_and_expand, ITERATIONS), (parse_errors, 20_000)])
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
