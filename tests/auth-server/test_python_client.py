"""``mcp_context.aio.Client`` with ``auth=OAuth(...)`` against a server protected by the
official TypeScript SDK's bearer middleware (protected-ts.mjs), tokens from the tests'
authorization server (server.py): the caller never handles a token."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from launch import auth_server, protected_asgi, protected_axum, protected_ts
from mcp_context import McpError
from mcp_context.aio import AuthorizationError, Client, MemoryTokenStore, OAuth

REDIRECT = "http://127.0.0.1:1/callback"


async def follow(url: str) -> str:
    """The test's user agent: the authorization endpoint approves at once; hand back where it
    redirects."""
    async with httpx.AsyncClient(follow_redirects=False) as http:
        r = await http.get(url)
        assert r.status_code == 302, r.text
        return r.headers["location"]


def stats(issuer: str) -> dict:
    return httpx.get(f"{issuer}/_test/stats").json()


@pytest.fixture(scope="module")
def servers():
    with auth_server("--scopes", "mcp:read mcp:write") as issuer, protected_ts(issuer) as url:
        yield issuer, url


def test_reads_a_protected_resource(servers) -> None:
    issuer, url = servers
    store = MemoryTokenStore()
    before = stats(issuer)

    async def run() -> dict:
        async with Client.http(url, auth=OAuth(REDIRECT, follow, store=store, client_name="py-test")) as c:
            return await c.read_resource("secret://note")

    result = asyncio.run(run())
    text = result["contents"][0]["text"]
    assert text.startswith("secret for client-") and "mcp:read" in text
    after = stats(issuer)
    assert after["registrations"] == before["registrations"] + 1
    assert after["authorizations"] == before["authorizations"] + 1
    # The authorization request named the server (RFC 8707) and asked the challenge's scope.
    q = after["last_authorize"]
    assert q["resource"] == url and q["code_challenge_method"] == "S256"
    assert q["scope"].split()[0] == "mcp:read"
    saved = store.load(url)
    assert saved is not None and saved["resource"] == url and saved["refresh_token"]

    # A second client with the same store reads without authorizing again.
    async def again() -> dict:
        async with Client.http(url, auth=OAuth(REDIRECT, follow, store=store)) as c:
            return await c.read_resource("secret://note")

    assert asyncio.run(again())["contents"][0]["text"] == text
    assert stats(issuer)["authorizations"] == after["authorizations"]


def test_refreshes_a_token_about_to_expire() -> None:
    # Tokens live 30 s; a 60 s refresh skew makes every later request refresh first.
    with auth_server("--ttl", "30") as issuer, protected_ts(issuer) as url:

        async def run() -> list[str]:
            async with Client.http(url, auth=OAuth(REDIRECT, follow)) as c:
                return [(await c.read_resource("secret://note", refresh=True))["contents"][0]["text"] for _ in range(3)]

        texts = asyncio.run(run())
        assert len(set(texts)) == 1
        s = stats(issuer)
        assert s["authorizations"] == 1 and s["tokens"] == 1 and s["refreshes"] >= 1


def test_a_failed_flow_fails_the_call(servers) -> None:
    _issuer, url = servers

    def refuse(url: str) -> str:
        raise RuntimeError("the user closed the window")

    async def run() -> None:
        async with Client.http(url, auth=OAuth(REDIRECT, refuse)) as c:
            await c.read_resource("secret://note")

    with pytest.raises(McpError) as e:
        asyncio.run(run())
    assert isinstance(e.value.__cause__, AuthorizationError)
    assert "user closed the window" in str(e.value.__cause__)


def test_without_auth_the_call_fails(servers) -> None:
    _issuer, url = servers

    async def run() -> None:
        async with Client.http(url) as c:
            await c.read_resource("secret://note")

    with pytest.raises(McpError):
        asyncio.run(run())


def test_reads_from_our_protected_axum_runner() -> None:
    # Our own resource server (examples/protected-server: JwtVerifier, the core's rules):
    # discovered through its challenge and metadata, the token checked against the JWKS.
    with auth_server("--scopes", "mcp:read mcp:write") as issuer, protected_axum(issuer) as url:

        async def run() -> dict:
            async with Client.http(url, auth=OAuth(REDIRECT, follow, client_name="py-axum")) as c:
                return await c.read_resource("secret://note")

        text = asyncio.run(run())["contents"][0]["text"]
        assert text.startswith("secret for client-") and "mcp:read" in text.split(" with ")[1].split(), text
        s = stats(issuer)
        assert s["registrations"] == 1 and s["authorizations"] == 1
        assert s["last_authorize"]["resource"] == url


def test_a_private_result_stays_with_its_grant() -> None:
    # Our ASGI runner: mine://note is cached a minute, private (per caller). The first grant
    # has mcp:read; reading admin://note is a 403 step-up, a new authorization with mcp:write:
    # another grant, so mine://note is fetched again, never served from the first grant's
    # cache entry (docs/rules.md §21.7).
    with auth_server("--scopes", "mcp:read mcp:write") as issuer, protected_asgi(issuer) as url:

        async def run() -> list:
            async with Client.http(url, auth=OAuth(REDIRECT, follow, client_name="py-grants")) as c:
                first = await c.read_resource_reply("mine://note")
                again = await c.read_resource_reply("mine://note")
                admin = await c.read_resource("admin://note")
                after = await c.read_resource_reply("mine://note")
                cached = await c.read_resource_reply("mine://note")
                return [first, again, admin, after, cached]

        first, again, admin, after, cached = asyncio.run(run())
        text = lambda r: r.result["contents"][0]["text"]  # noqa: E731
        assert not first.from_cache and "mcp:write" not in text(first).split(), text(first)
        assert again.from_cache and text(again) == text(first)
        assert admin["contents"][0]["text"] == "admin"
        assert not after.from_cache, "the first grant's private result was served to the second"
        assert "mcp:write" in text(after).split(), text(after)
        assert cached.from_cache and text(cached) == text(after)
        assert stats(issuer)["authorizations"] == 2


def test_introspection_refuses_a_revoked_token() -> None:
    # Our ASGI runner with IntrospectionVerifier at the authorization server's RFC 7662
    # endpoint: the token the client obtained is admitted, then revoked there: 401 invalid_token.
    with auth_server("--scopes", "mcp:read mcp:write") as issuer, protected_asgi(issuer, "introspection") as url:
        store = MemoryTokenStore()

        async def run() -> str:
            async with Client.http(url, auth=OAuth(REDIRECT, follow, store=store, client_name="py-introspection")) as c:
                return (await c.read_resource("secret://note"))["contents"][0]["text"]

        assert "mcp:read" in asyncio.run(run())
        token = store.load(url)["access_token"]
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
        body = {"jsonrpc": "2.0", "id": 1, "method": "resources/list", "params": {"_meta": meta}}
        headers = {"authorization": f"Bearer {token}", "accept": "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/list"}
        assert httpx.post(url, json=body, headers=headers).status_code == 200
        assert httpx.post(f"{issuer}/revoke", data={"token": token}).status_code == 200
        r = httpx.post(url, json=body, headers=headers)
        assert r.status_code == 401
        assert 'error="invalid_token"' in r.headers["www-authenticate"]
