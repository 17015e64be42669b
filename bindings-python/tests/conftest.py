"""Shared paths for the mcp_context binding tests."""

from pathlib import Path

# bindings-python/tests -> repo root; the spec data lives in the repo, never in ../shared.
REPO = Path(__file__).resolve().parents[2]
RFC6570 = REPO / "tests" / "vectors" / "rfc6570"
STUB = Path(__file__).resolve().parents[1] / "python" / "mcp_context" / "_core.pyi"
EXAMPLES = REPO / "examples" / "python"
NOTES_SERVER = EXAMPLES / "notes_server.py"

import sys  # noqa: E402

# The examples are scripts, importable for in-process tests (notes_server.build, host.Host).
if str(EXAMPLES) not in sys.path:
    sys.path.insert(0, str(EXAMPLES))
