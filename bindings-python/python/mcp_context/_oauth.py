"""OAuth for ``aio.Client.http``: the core's ``Authorizer`` (every rule of the flow) driven
with httpx, a user agent the application supplies, and a token store.

    async def user_agent(url: str) -> str:      # open url in a browser, return the redirect URL
        ...
    oauth = OAuth("http://127.0.0.1:8765/callback", user_agent, store=MemoryTokenStore())
    async with Client.http(url, auth=oauth) as c:
        await c.read_resource("secret://note")   # a 401 runs the flow, then the call goes on

Time here is wall-clock milliseconds, so stored ``expires_at_ms`` stay meaningful across
processes.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from ._core import (
    AUTH_ENTROPY_LEN,
    AuthAuthorize,
    AuthFailed,
    AuthFetch,
    Authorizer,
    AuthRetry,
    AuthStore,
)

__all__ = ["AuthorizationError", "MemoryTokenStore", "OAuth", "TokenStore", "UserAgent"]

UserAgent = Callable[[str], Awaitable[str] | str]
"""Opens an authorization URL and returns the URL the authorization server redirected back
to (with ``code``, ``state``, ``iss``), e.g. as caught by a loopback listener."""


class AuthorizationError(Exception):
    """The authorization flow stopped (the ``__cause__`` of the failed call's ``McpError``)."""


class TokenStore(Protocol):
    """Where tokens live between runs, keyed by the MCP server's URL. Methods may be plain or
    ``async``; tokens are dicts (``issuer``, ``resource``, ``access_token``, ``refresh_token``,
    ``expires_at_ms``, ``scope``)."""

    def load(self, server_url: str) -> dict[str, Any] | None | Awaitable[dict[str, Any] | None]:
        """The tokens kept for ``server_url``, or ``None``."""

    def save(self, server_url: str, tokens: dict[str, Any]) -> None | Awaitable[None]:
        """Keeps ``tokens`` for ``server_url`` (replacing earlier ones)."""


class MemoryTokenStore:
    """The default ``TokenStore``: a dict, gone with the process."""

    def __init__(self) -> None:
        self.tokens: dict[str, dict[str, Any]] = {}

    def load(self, server_url: str) -> dict[str, Any] | None:
        """The tokens kept for ``server_url``."""
        return self.tokens.get(server_url)

    def save(self, server_url: str, tokens: dict[str, Any]) -> None:
        """Keeps ``tokens`` for ``server_url``."""
        self.tokens[server_url] = dict(tokens)


class OAuth:
    """How a client authorizes: ``redirect_uri`` (registered with the authorization server),
    the ``user_agent`` that follows the authorization URL, the ``store``, and the flow's
    options (``client_name``, ``client_id_metadata_document``, ``pre_registered`` as
    ``(issuer, client_id, client_secret)``, ``offline_access``, ``max_authorizations``,
    ``refresh_skew_ms``)."""

    def __init__(
        self,
        redirect_uri: str,
        user_agent: UserAgent,
        *,
        store: TokenStore | None = None,
        client_name: str = "mcp-context",
        client_id_metadata_document: str | None = None,
        pre_registered: Sequence[tuple[str, str, str | None]] = (),
        offline_access: bool = True,
        max_authorizations: int = 3,
        refresh_skew_ms: int = 60_000,
    ) -> None:
        self.redirect_uri = redirect_uri
        self.user_agent = user_agent
        self.store: TokenStore = store if store is not None else MemoryTokenStore()
        self.client_name = client_name
        self.options: dict[str, Any] = {
            "client_id_metadata_document": client_id_metadata_document,
            "pre_registered": list(pre_registered),
            "offline_access": offline_access,
            "max_authorizations": max_authorizations,
            "refresh_skew_ms": refresh_skew_ms,
        }

    def flow(self, server_url: str) -> AuthFlow:
        """The flow of one client of ``server_url``."""
        return AuthFlow(self, server_url)


def now_ms() -> int:
    """Wall-clock milliseconds."""
    return time.time_ns() // 1_000_000


async def _maybe(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class AuthFlow:
    """One client's flow: the ``Authorizer`` behind a lock (one flow at a time; requests that
    meet a challenge meanwhile wait, then use its token)."""

    def __init__(self, oauth: OAuth, server_url: str) -> None:
        self.oauth = oauth
        self.server_url = server_url
        self.authorizer = Authorizer(server_url, oauth.redirect_uri, oauth.client_name, **oauth.options)
        self.lock = asyncio.Lock()
        self.loaded = False
        self.http: Any = None

    async def _ready(self) -> None:
        if self.http is None:
            import httpx

            self.http = httpx.AsyncClient(follow_redirects=False, timeout=30)
        if not self.loaded:
            self.loaded = True
            stored = await _maybe(self.oauth.store.load(self.server_url))
            if stored:
                self.authorizer.restore(stored)

    async def header(self, url: str) -> str | None:
        """The ``Authorization`` value for a request to ``url``, refreshing a token about to
        expire (a failed refresh only drops the token: the next 401 authorizes again)."""
        return (await self.credentials(url))[0]

    async def credentials(self, url: str) -> tuple[str | None, int | None]:
        """``header`` and the authorization context (the grant) it belongs to, read together:
        the client's cache keeps a private result for the grant whose token obtained it."""
        async with self.lock:
            await self._ready()
            a = self.authorizer
            if a.refresh_due(now_ms()):
                a.start_refresh(now_ms())
                try:
                    await self._drive()
                except AuthorizationError:
                    pass
            return a.authorization_header(url, now_ms()), a.auth_context()

    async def challenge(self, url: str, sent: str | None, status: int, www_authenticate: str | None) -> None:
        """A request carrying ``sent`` was answered ``status``: runs the flow unless another
        request renewed the token meanwhile. Returns when the request may be sent again;
        raises ``AuthorizationError`` when the flow failed."""
        async with self.lock:
            await self._ready()
            a = self.authorizer
            current = a.authorization_header(url, now_ms())
            if status == 401 and current is not None and current != sent:
                return
            a.handle_challenge(status, www_authenticate, os.urandom(AUTH_ENTROPY_LEN), now_ms())
            await self._drive()

    def success(self) -> None:
        """A request went through."""
        self.authorizer.handle_success()

    async def _drive(self) -> None:
        a = self.authorizer
        while (action := a.poll_action()) is not None:
            t = type(action)
            if t is AuthFetch:
                try:
                    r = await self.http.request(action.method, action.url, headers=dict(action.headers), content=action.body or None)
                except Exception:  # noqa: BLE001 - the flow decides what a failed fetch means
                    a.handle_fetch_failed(action.id, now_ms())
                else:
                    a.handle_fetched(action.id, r.status_code, r.content, now_ms())
            elif t is AuthAuthorize:
                try:
                    redirect = await _maybe(self.oauth.user_agent(action.url))
                except Exception as e:
                    # Ends the flow (an error response), so the next challenge starts afresh.
                    a.handle_redirect(f"{self.oauth.redirect_uri}?error=access_denied", now_ms())
                    while a.poll_action() is not None:
                        pass
                    raise AuthorizationError(f"the user agent failed: {e}") from e
                a.handle_redirect(str(redirect), now_ms())
            elif t is AuthStore:
                await _maybe(self.oauth.store.save(self.server_url, action.tokens))
            elif t is AuthRetry:
                return
            elif t is AuthFailed:
                raise AuthorizationError(action.error)

    async def close(self) -> None:
        """Closes the flow's HTTP client."""
        if self.http is not None:
            await self.http.aclose()
