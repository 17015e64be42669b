"""One protected instance of a fleet for test_auth_fleet.py (docs/authorization.md):

    python bindings-python/tests/protected_instance.py --redis redis://... --fleet NAME

A protected ASGI endpoint (``App.protect``) on a free loopback port, its updates shared with
the other instances through ``RedisBroker``; prints ``READY <endpoint URL>``. ``public://a``
needs ``mcp``, ``secret://a`` also ``notes:secret``; the tool ``touch(uri)`` reports ``uri``
updated (to every listen of the fleet that may read it). The verifier is a table of opaque
tokens (the hostile token cases are test_auth.py's): ``reader`` has ``mcp``, ``admin`` has
``mcp notes:secret``.
"""

from __future__ import annotations

import argparse
import socket
from typing import Any

from mcp_context.broker import RedisBroker
from mcp_context.server import App, InvalidToken

SCOPES = {"reader": ["mcp"], "admin": ["mcp", "notes:secret"]}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--redis", required=True)
    p.add_argument("--fleet", required=True)
    a = p.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"

    class Table:
        async def verify(self, token: str) -> dict[str, Any]:
            if token not in SCOPES:
                raise InvalidToken("unknown token")
            return {"subject": token, "client_id": "fleet-test", "scopes": SCOPES[token], "audience": [url], "expires_at_ms": None}

    app = App("protected-fleet")
    app.protect(url, ["https://issuer.invalid"], scopes_supported=["mcp", "notes:secret"], required_scopes=["mcp"])

    @app.resource("public://a")
    def public() -> str:
        return "public a"

    @app.resource("secret://a")
    def secret() -> str:
        return "the secret"

    app.require_scopes("resource", "secret://a", "notes:secret")

    @app.tool()
    def touch(uri: str) -> str:
        app.resource_updated(uri)
        return "touched"

    app.use_broker(RedisBroker(a.redis, fleet=a.fleet))
    app.run_http(port=port, ready=lambda _p: print(f"READY {url}", flush=True), verifier=Table())


if __name__ == "__main__":
    main()
