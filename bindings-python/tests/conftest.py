"""Shared paths for the mcp_context binding tests."""

from pathlib import Path

# bindings-python/tests -> repo root; the spec data lives in the repo, never in ../shared.
REPO = Path(__file__).resolve().parents[2]
RFC6570 = REPO / "tests" / "vectors" / "rfc6570"
STUB = Path(__file__).resolve().parents[1] / "mcp_context.pyi"
