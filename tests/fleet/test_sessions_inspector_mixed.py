"""The MCP Inspector CLI (2.12.0, a 2025-11-25 client) through the round-robin front over a
mixed fleet: one Python, one Node and one Rust notes instance sharing their sessions in Redis
(docs/scale-out.md, "2025-11-25 sessions across instances"). The Python fleet's Inspector test
(bindings-python/tests/test_sessions_inspector.py) on these three: it lists, reads and gets a
prompt, every request of each of its sessions lands on another runtime than the one before,
and each session uses all three.

Needs ``MCP_FLEET_NODE``, ``MCP_FLEET_RUST`` and the pinned Inspector
(``MCP_INTEROP_LEGACY_TOOLS``); test.sh's mixed fleet step sets them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "bindings-python" / "tests"))
sys.path.insert(0, str(HERE))

import test_sessions_inspector as inspector_test  # noqa: E402
from test_sessions_mixed import MixedSessions  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (os.environ.get("MCP_FLEET_NODE") and os.environ.get("MCP_FLEET_RUST") and os.environ.get("MCP_INTEROP_LEGACY_TOOLS")),
    reason="MCP_FLEET_NODE, MCP_FLEET_RUST and MCP_INTEROP_LEGACY_TOOLS (test.sh's mixed fleet step)",
)


def test_the_inspector_through_a_round_robin_front_over_python_node_and_rust(monkeypatch):
    monkeypatch.setattr(inspector_test, "Fleet", lambda n: MixedSessions())
    inspector_test.test_the_inspector_through_a_round_robin_front_over_three_instances()
