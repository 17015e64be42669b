"""A small OAuth 2.1 authorization server for the tests (never for production).

    python tests/auth-server/server.py [--port 0] [--scopes "mcp:read mcp:write"] [--ttl 3600]
                                        [--client ID:SECRET ...] [--no-iss]

It prints ``READY <issuer>`` on stdout once it listens on loopback (``--port 0``: a free port),
then serves until killed:

* ``GET /.well-known/oauth-authorization-server`` (RFC 8414) and the same document at
  ``/.well-known/openid-configuration``;
* ``POST /register``: dynamic client registration (RFC 7591); ``token_endpoint_auth_method``
  ``none`` (public client) or ``client_secret_basic`` / ``client_secret_post`` (a secret is issued);
* ``GET /authorize``: the authorization endpoint; PKCE ``S256`` is required; it approves at once
  and redirects (302) to the registered ``redirect_uri`` with ``code``, ``state`` and ``iss``
  (RFC 9207; ``--no-iss`` leaves ``iss`` out and stops advertising it);
* ``POST /token``: ``authorization_code`` and ``refresh_token`` grants; the access token is an
  RS256 JWT whose ``aud`` is the ``resource`` parameter (RFC 8707) and whose ``scope`` is the
  granted scope; a refresh token is issued every time and rotated on use;
* ``GET /jwks``: the signing key as a JWK Set;
* ``POST /introspect`` (RFC 7662) and ``POST /revoke`` (RFC 7009), open to any caller;
* ``GET /_test/stats``: counts (``registrations``, ``authorizations``, ``tokens``, ``refreshes``,
  ``revocations``) and the last authorization request's query, for the tests' assertions.

Requested scopes must be among ``--scopes`` (``offline_access`` is always accepted); no scope
means all of them. ``--ttl`` sets the access token lifetime in seconds (``expires_in``).
Everything is in memory; the RSA key is made at start.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import secrets
import socket
import sys
import time
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit, parse_qsl

import jwt
import uvicorn
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class AuthServer:
    """The server's state and its endpoints (``app`` is the ASGI application)."""

    def __init__(self, issuer: str, scopes: list[str], ttl: int, clients: dict[str, str], iss: bool) -> None:
        self.issuer = issuer.rstrip("/")
        self.scopes = scopes
        self.ttl = ttl
        self.iss = iss
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = secrets.token_hex(8)
        # client_id -> registration (redirect_uris, token_endpoint_auth_method, client_secret)
        self.clients: dict[str, dict[str, Any]] = {
            cid: {"client_id": cid, "client_secret": secret, "redirect_uris": None, "token_endpoint_auth_method": "client_secret_basic"}
            for cid, secret in clients.items()
        }
        self.codes: dict[str, dict[str, Any]] = {}
        self.refresh: dict[str, dict[str, Any]] = {}
        self.revoked: set[str] = set()
        self.stats: dict[str, Any] = {"registrations": 0, "authorizations": 0, "tokens": 0, "refreshes": 0, "revocations": 0, "last_authorize": {}}
        self.app = Starlette(
            routes=[
                Route("/.well-known/oauth-authorization-server", self.metadata),
                Route("/.well-known/openid-configuration", self.metadata),
                Route("/register", self.register, methods=["POST"]),
                Route("/authorize", self.authorize),
                Route("/token", self.token, methods=["POST"]),
                Route("/jwks", self.jwks),
                Route("/introspect", self.introspect, methods=["POST"]),
                Route("/revoke", self.revoke, methods=["POST"]),
                Route("/_test/stats", self.get_stats),
            ]
        )

    # --- metadata -------------------------------------------------------------------------

    async def metadata(self, request: Request) -> Response:
        i = self.issuer
        doc = {
            "issuer": i,
            "authorization_endpoint": f"{i}/authorize",
            "token_endpoint": f"{i}/token",
            "registration_endpoint": f"{i}/register",
            "jwks_uri": f"{i}/jwks",
            "introspection_endpoint": f"{i}/introspect",
            "revocation_endpoint": f"{i}/revoke",
            "scopes_supported": [*self.scopes, "offline_access"],
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
            "authorization_response_iss_parameter_supported": self.iss,
        }
        return JSONResponse(doc)

    async def jwks(self, request: Request) -> Response:
        jwk = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        jwk.update({"kid": self.kid, "use": "sig", "alg": "RS256"})
        return JSONResponse({"keys": [jwk]})

    async def get_stats(self, request: Request) -> Response:
        return JSONResponse(self.stats)

    # --- registration (RFC 7591) ----------------------------------------------------------

    async def register(self, request: Request) -> Response:
        try:
            meta = await request.json()
        except ValueError:
            return _error("invalid_client_metadata", "body is not JSON")
        uris = meta.get("redirect_uris") if isinstance(meta, dict) else None
        if not isinstance(uris, list) or not uris or not all(isinstance(u, str) for u in uris):
            return _error("invalid_redirect_uri", "redirect_uris is required")
        method = meta.get("token_endpoint_auth_method", "client_secret_basic")
        if method not in ("none", "client_secret_basic", "client_secret_post"):
            return _error("invalid_client_metadata", f"token_endpoint_auth_method {method}")
        cid = "client-" + secrets.token_hex(8)
        client = {**meta, "client_id": cid, "client_id_issued_at": int(time.time()), "token_endpoint_auth_method": method}
        if method != "none":
            client["client_secret"] = secrets.token_urlsafe(24)
            client["client_secret_expires_at"] = 0
        self.clients[cid] = client
        self.stats["registrations"] += 1
        return JSONResponse(client, status_code=201)

    # --- authorization endpoint -----------------------------------------------------------

    async def authorize(self, request: Request) -> Response:
        q = dict(request.query_params)
        self.stats["last_authorize"] = q
        client = self.clients.get(q.get("client_id", ""))
        redirect_uri = q.get("redirect_uri")
        if client is None:
            return _error("invalid_client", "unknown client_id", 400)
        registered = client.get("redirect_uris")
        if redirect_uri is None or (registered is not None and redirect_uri not in registered):
            return _error("invalid_request", "redirect_uri is not registered", 400)

        def back(params: dict[str, str]) -> Response:
            if "state" in q:
                params["state"] = q["state"]
            if self.iss:
                params["iss"] = self.issuer
            parts = urlsplit(redirect_uri)
            query = urlencode([*parse_qsl(parts.query), *params.items()])
            return RedirectResponse(urlunsplit(parts._replace(query=query)), status_code=302)

        if q.get("response_type") != "code":
            return back({"error": "unsupported_response_type"})
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return back({"error": "invalid_request", "error_description": "PKCE S256 is required"})
        scope = q.get("scope")
        granted = self._scopes(scope)
        if granted is None:
            return back({"error": "invalid_scope"})
        code = secrets.token_urlsafe(24)
        self.codes[code] = {
            "client_id": client["client_id"],
            "redirect_uri": redirect_uri,
            "challenge": q["code_challenge"],
            "scope": granted,
            "resource": q.get("resource"),
            "expires": time.time() + 300,
        }
        self.stats["authorizations"] += 1
        return back({"code": code})

    def _scopes(self, scope: str | None) -> str | None:
        """The granted scope string, or ``None`` when a requested scope is unknown."""
        if scope is None or not scope.strip():
            return " ".join(self.scopes)
        asked = scope.split()
        if any(s not in self.scopes and s != "offline_access" for s in asked):
            return None
        return " ".join(asked)

    # --- token endpoint -------------------------------------------------------------------

    def _client(self, request: Request, form: dict[str, str]) -> dict[str, Any] | None:
        """The authenticated client (its registered method), or ``None``."""
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("basic "):
            try:
                cid, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
            except ValueError:
                return None
            from urllib.parse import unquote_plus

            cid, secret = unquote_plus(cid), unquote_plus(secret)
            c = self.clients.get(cid)
            ok = c is not None and c.get("client_secret") is not None and secrets.compare_digest(c["client_secret"], secret)
            return c if ok else None
        c = self.clients.get(form.get("client_id", ""))
        if c is None:
            return None
        if c.get("client_secret") is None:
            return c
        given = form.get("client_secret")
        return c if given is not None and secrets.compare_digest(c["client_secret"], given) else None

    async def token(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        client = self._client(request, form)
        if client is None:
            return _error("invalid_client", "client authentication failed", 401)
        grant = form.get("grant_type")
        if grant == "authorization_code":
            code = self.codes.pop(form.get("code", ""), None)
            if code is None or code["expires"] < time.time() or code["client_id"] != client["client_id"]:
                return _error("invalid_grant", "unknown or expired code")
            if form.get("redirect_uri") != code["redirect_uri"]:
                return _error("invalid_grant", "redirect_uri differs")
            verifier = form.get("code_verifier", "")
            if _b64url(hashlib.sha256(verifier.encode()).digest()) != code["challenge"]:
                return _error("invalid_grant", "PKCE verification failed")
            resource = form.get("resource", code["resource"])
            if code["resource"] is not None and resource != code["resource"]:
                return _error("invalid_target", "resource differs from the authorization request")
            self.stats["tokens"] += 1
            return self._issue(client["client_id"], code["scope"], resource)
        if grant == "refresh_token":
            rt = self.refresh.pop(form.get("refresh_token", ""), None)
            if rt is None or rt["client_id"] != client["client_id"]:
                return _error("invalid_grant", "unknown refresh token")
            scope = rt["scope"]
            if "scope" in form:
                if not set(form["scope"].split()) <= set(scope.split()):
                    return _error("invalid_scope", "scope exceeds the original grant")
                scope = form["scope"]
            resource = form.get("resource", rt["resource"])
            if rt["resource"] is not None and resource != rt["resource"]:
                return _error("invalid_target", "resource differs from the original grant")
            self.stats["refreshes"] += 1
            return self._issue(client["client_id"], scope, resource)
        return _error("unsupported_grant_type", f"grant_type {grant}")

    def _issue(self, client_id: str, scope: str, resource: str | None) -> Response:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": "user-1",
            "client_id": client_id,
            "scope": scope,
            "iat": now,
            "exp": now + self.ttl,
            "jti": secrets.token_hex(12),
        }
        if resource is not None:
            claims["aud"] = resource
        access = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": self.kid, "typ": "at+jwt"})
        refresh = secrets.token_urlsafe(24)
        self.refresh[refresh] = {"client_id": client_id, "scope": scope, "resource": resource}
        body = {"access_token": access, "token_type": "Bearer", "expires_in": self.ttl, "scope": scope, "refresh_token": refresh}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    # --- introspection (RFC 7662), revocation (RFC 7009) ----------------------------------

    async def introspect(self, request: Request) -> Response:
        token = str((await request.form()).get("token", ""))
        if token in self.revoked:
            return JSONResponse({"active": False})
        try:
            claims = jwt.decode(token, self.key.public_key(), algorithms=["RS256"], options={"verify_aud": False}, issuer=self.issuer)
        except jwt.PyJWTError:
            return JSONResponse({"active": token in self.refresh, **({"token_type": "refresh_token"} if token in self.refresh else {})})
        return JSONResponse({"active": True, "token_type": "Bearer", **claims})

    async def revoke(self, request: Request) -> Response:
        token = str((await request.form()).get("token", ""))
        self.refresh.pop(token, None)
        self.revoked.add(token)
        self.stats["revocations"] += 1
        return Response(status_code=200)


def _error(code: str, description: str, status: int = 400) -> Response:
    return JSONResponse({"error": code, "error_description": description}, status_code=status)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--scopes", default="mcp:read mcp:write")
    p.add_argument("--ttl", type=int, default=3600, help="access token lifetime (s)")
    p.add_argument("--client", action="append", default=[], help="a pre-registered client ID:SECRET")
    p.add_argument("--no-iss", action="store_true", help="no iss in the authorization response")
    a = p.parse_args()
    sock = socket.socket()
    sock.bind(("127.0.0.1", a.port))
    port = sock.getsockname()[1]
    issuer = f"http://127.0.0.1:{port}"
    clients = dict(c.split(":", 1) for c in a.client)
    server = AuthServer(issuer, a.scopes.split(), a.ttl, clients, not a.no_iss)
    config = uvicorn.Config(server.app, log_level="warning", lifespan="off")

    class Ready(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            print(f"READY {issuer}", flush=True)

    Ready(config).run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
