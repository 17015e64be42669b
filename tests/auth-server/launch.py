"""Starts ``server.py`` (the tests' authorization server) on a free loopback port."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")


@contextlib.contextmanager
def auth_server(*args: str) -> Iterator[str]:
    """Runs the authorization server with ``args`` and yields its issuer URL."""
    proc = subprocess.Popen([sys.executable, SERVER, *args], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError(f"the authorization server did not start: {line!r}")
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(10)


@contextlib.contextmanager
def protected_ts(issuer: str) -> Iterator[str]:
    """Runs ``protected-ts.mjs`` (the official TypeScript SDK's bearer middleware, tokens from
    ``issuer``) with ``$MCP_NODE`` (default ``node``); yields its MCP endpoint URL. Needs
    ``node_modules`` here (test.sh links the examples' pinned tools)."""
    node = os.environ.get("MCP_NODE", "node")
    script = os.path.join(os.path.dirname(SERVER), "protected-ts.mjs")
    proc = subprocess.Popen([node, script, issuer], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError(f"protected-ts.mjs did not start: {line!r}")
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(10)
