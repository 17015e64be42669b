"""Starts ``server.py`` (the tests' authorization server) on a free loopback port, and the
protected servers the clients' tests read from."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")

PROTECTED_SERVER = os.environ.get("MCP_PROTECTED_SERVER") or os.path.join(
    os.path.dirname(SERVER), "..", "..", "target", "debug", "protected-server"
)


@contextlib.contextmanager
def _ready(cmd: list[str], name: str) -> Iterator[str]:
    """Runs ``cmd``, which prints ``READY <url>``; yields the url, then stops it."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError(f"{name} did not start: {line!r}")
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(10)


def auth_server(*args: str) -> contextlib.AbstractContextManager[str]:
    """Runs the authorization server with ``args`` and yields its issuer URL."""
    return _ready([sys.executable, SERVER, *args], "the authorization server")


def protected_ts(issuer: str) -> contextlib.AbstractContextManager[str]:
    """Runs ``protected-ts.mjs`` (the official TypeScript SDK's bearer middleware, tokens from
    ``issuer``) with ``$MCP_NODE`` (default ``node``); yields its MCP endpoint URL. Needs
    ``node_modules`` here (test.sh links the examples' pinned tools)."""
    node = os.environ.get("MCP_NODE", "node")
    script = os.path.join(os.path.dirname(SERVER), "protected-ts.mjs")
    return _ready([node, script, issuer], "protected-ts.mjs")


def protected_axum(issuer: str) -> contextlib.AbstractContextManager[str]:
    """Runs our protected axum runner (examples/protected-server, ``$MCP_PROTECTED_SERVER`` or
    target/debug: ``secret://note`` needs ``mcp:read``, tokens checked against ``issuer``'s
    JWKS); yields its MCP endpoint URL."""
    return _ready([PROTECTED_SERVER, issuer], "protected-server")


def protected_asgi(issuer: str, *args: str) -> contextlib.AbstractContextManager[str]:
    """Runs our protected ASGI runner (protected-asgi.py, this interpreter's ``mcp_context``:
    ``secret://note`` and ``mine://note`` need ``mcp:read``, ``admin://note`` ``mcp:write``);
    yields its MCP endpoint URL; ``args``: ``introspection`` checks tokens by RFC 7662)."""
    return _ready([sys.executable, os.path.join(os.path.dirname(SERVER), "protected-asgi.py"), issuer, *args], "protected-asgi.py")
