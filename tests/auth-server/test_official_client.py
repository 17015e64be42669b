"""The official ``mcp`` Python client against our protected runners, ASGI and axum
(``protected-server``, built by test.sh; ``$MCP_PROTECTED_SERVER`` or target/debug) (docs/rules.md §22):
it gets 401, discovers the tests' authorization server (server.py) through our
``WWW-Authenticate`` and protected resource metadata, registers, authorizes with PKCE, and
reads a protected resource with the token our ``JwtVerifier`` checks against the server's
JWKS. The handler never sees the token."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from launch import auth_server
from mcp_context.server import App, Context, JwtVerifier

REDIRECT = "http://127.0.0.1:1/callback"


class Memory:
    """The SDK's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_protected(issuer: str) -> str:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    app = App("protected")
    app.protect(url, [issuer], scopes_supported=["mcp:read", "mcp:write"], required_scopes=["mcp:read"])

    @app.resource("secret://note")
    def note(ctx: Context) -> str:
        p = ctx.principal or {}
        return f"secret for {p.get('client_id')} with {' '.join(p.get('scopes', []))}"

    verifier = JwtVerifier(f"{issuer}/jwks", issuer, url)
    threading.Thread(target=app.run_http, kwargs={"port": port, "verifier": verifier}, daemon=True).start()
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return url


AXUM = os.environ.get("MCP_PROTECTED_SERVER") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "debug", "protected-server"
)


@contextmanager
def axum_runner(issuer: str) -> Iterator[str]:
    """examples/protected-server: prints ``READY <url>``."""
    proc = subprocess.Popen([AXUM, issuer], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("READY "), line
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def asgi_runner(issuer: str) -> Iterator[str]:
    yield serve_protected(issuer)


@pytest.mark.parametrize("runner", [asgi_runner, axum_runner], ids=["asgi", "axum"])
def test_the_official_python_client_discovers_and_reads(runner) -> None:
    with auth_server("--scopes", "mcp:read mcp:write") as issuer, runner(issuer) as url:
        # Without a token: 401 naming our metadata, which names the authorization server.
        r = httpx.post(url, json={}, headers={"content-type": "application/json"})
        assert r.status_code == 401 and "resource_metadata=" in r.headers["www-authenticate"]
        seen: dict[str, str] = {}

        async def redirect(authorize_url: str) -> None:
            async with httpx.AsyncClient(follow_redirects=False) as http:
                seen["location"] = (await http.get(authorize_url)).headers["location"]

        async def callback() -> AuthorizationCodeResult:
            q = parse_qs(urlsplit(seen["location"]).query)
            first = lambda k: q[k][0] if k in q else None
            return AuthorizationCodeResult(code=first("code"), state=first("state"), iss=first("iss"))

        metadata = OAuthClientMetadata(
            redirect_uris=[REDIRECT],
            client_name="official-python",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        )
        provider = OAuthClientProvider(url, metadata, Memory(), redirect, callback)

        async def run() -> str:
            async with httpx2.AsyncClient(auth=provider) as http:
                async with Client(streamable_http_client(url, http_client=http)) as c:
                    result = await c.read_resource("secret://note")
                    return result.contents[0].text

        text = asyncio.run(asyncio.wait_for(run(), 60))
        # The client asked for the challenge's scope (our required_scopes).
        assert text.startswith("secret for client-") and "mcp:read" in text.split(" with ")[1].split(), text
        stats = httpx.get(f"{issuer}/_test/stats").json()
        assert stats["authorizations"] == 1 and stats["last_authorize"]["resource"] == url
