"""Our ASGI runner as a protected resource (docs/rules.md §22) for the official clients' tests:

    python tests/auth-server/protected-asgi.py ISSUER [introspection]

serves ``secret://note`` (scope ``mcp:read``), ``mine://note`` (cached a minute) and
``admin://note`` (scope ``mcp:write``) on a free loopback port, tokens checked by
``JwtVerifier`` against ISSUER's JWKS (with ``introspection``: ``IntrospectionVerifier`` at
ISSUER's RFC 7662 endpoint), and prints ``READY <endpoint URL>``."""

from __future__ import annotations

import socket
import sys

from mcp_context.server import App, Context, IntrospectionVerifier, JwtVerifier


def main() -> None:
    issuer = sys.argv[1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    app = App("protected-asgi")
    app.protect(url, [issuer], scopes_supported=["mcp:read", "mcp:write"], required_scopes=["mcp:read"])

    @app.resource("secret://note")
    def note(ctx: Context) -> str:
        p = ctx.principal or {}
        return f"secret for {p.get('client_id')} with {' '.join(p.get('scopes', []))}"

    # For the clients' cache tests (docs/rules.md §21.7): cached for a minute (private: the
    # core makes every result of a protected server private), and an item needing mcp:write
    # (a 403 step-up: a new authorization, so a new grant).
    @app.resource("mine://note", cache=(60_000, "private"))
    def mine(ctx: Context) -> str:
        p = ctx.principal or {}
        return f"mine for {p.get('client_id')} with {' '.join(p.get('scopes', []))}"

    @app.resource("admin://note")
    def admin(ctx: Context) -> str:
        return "admin"

    app.require_scopes("resource", "admin://note", "mcp:write")

    def ready(_port: int) -> None:
        print(f"READY {url}", flush=True)

    if sys.argv[2:] == ["introspection"]:
        verifier = IntrospectionVerifier(f"{issuer}/introspect", issuer=issuer)
    else:
        verifier = JwtVerifier(f"{issuer}/jwks", issuer, url)
    app.run_http(port=port, ready=ready, verifier=verifier)


if __name__ == "__main__":
    main()
