"""The Redis rate limit across runners (docs/operations.md "A rate limit across instances",
docs/rules.md §23.5): a Python, a Node and a Rust instance (each a stdio server with an
``echo`` tool behind its runner's Redis rate limit) on one real Redis (``redis-server``
started here on a free port) take from one bucket per caller: a caller over its rate is
refused -31429 by each of them, another caller is not.

``MCP_RATE_NODE``: the node binary (default ``node``); ``MCP_RATE_RUST``: the built
``rate_instance`` example (``cargo build -p mcp-context-primitives-host --features redis
--example rate_instance``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "examples" / "scale-out"))
from fleet import Redis  # noqa: E402

PREFIX = "fleet:rate:"
RATE, BURST = "0.001", "3"  # 3 requests, then none for ~1000 s
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


class Instance:
    def __init__(self, name: str, argv: list[str]) -> None:
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        self.next_id = 0

    def call(self) -> dict:
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": {"_meta": META, "name": "echo", "arguments": {}}}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise AssertionError(f"{self.name} ended: {err}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return answer

    def stop(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def test_python_node_and_rust_instances_share_one_bucket_per_caller():
    rust = os.environ.get("MCP_RATE_RUST", str(ROOT / "target" / "debug" / "examples" / "rate_instance"))
    if not Path(rust).exists():
        pytest.fail(f"build the Rust instance first: {rust}")
    node = os.environ.get("MCP_RATE_NODE", "node")
    server = Redis().start()
    args = [server.url, PREFIX, RATE, BURST]
    instances: list[Instance] = []
    try:
        py = Instance("python", [sys.executable, str(HERE / "python_instance.py"), *args, "0"])
        js = Instance("node", [node, str(HERE / "node_instance.mjs"), *args])
        rs = Instance("rust", [rust, *args])
        other = Instance("python, caller 8", [sys.executable, str(HERE / "python_instance.py"), *args, "8"])
        instances = [py, js, rs, other]
        # caller 0: one request through each runner takes the three tokens of one bucket
        for i in (py, js, rs):
            answer = i.call()
            assert "result" in answer, (i.name, answer)
        # then every runner refuses it, with the core's code and message
        for i in (rs, js, py):
            answer = i.call()
            assert answer.get("error", {}).get("code") == -31429, (i.name, answer)
            assert re.fullmatch(r"Rate limit exceeded: retry after \d+ ms", answer["error"]["message"]), (i.name, answer)
        # another caller has its own bucket
        assert "result" in other.call()
    finally:
        for i in instances:
            i.stop()
        server.stop()
