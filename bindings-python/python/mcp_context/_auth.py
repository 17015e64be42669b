"""Token verifiers for a protected endpoint (docs/rules.md §22.3, the host's part).

A verifier is any object with ``async verify(token) -> dict`` returning the caller
(``subject``, ``client_id``, ``scopes``, ``audience``, ``expires_at_ms``) or raising
``InvalidToken(why)``; the core then checks expiry, audience and required scopes itself and
answers every 401/403. The token goes no further than the verifier.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

__all__ = ["InvalidToken", "JwtVerifier", "IntrospectionVerifier", "caller_id"]


class InvalidToken(Exception):
    """The verifier refused the token; the message is the 401's ``error_description`` (keep
    token contents out of it)."""


def _caller(claims: dict[str, Any]) -> dict[str, Any]:
    scopes = [s for s in str(claims.get("scope") or "").split(" ") if s]
    scopes += list(claims.get("scp") or [])
    aud = claims.get("aud") or []
    exp = claims.get("exp")
    return {
        "subject": claims.get("sub"),
        "client_id": claims.get("client_id") or claims.get("azp"),
        "scopes": scopes,
        "audience": [aud] if isinstance(aud, str) else list(aud),
        "expires_at_ms": int(exp) * 1000 if isinstance(exp, (int, float)) else None,
    }


def caller_id(caller: dict[str, Any]) -> int:
    """The caller's ``auth`` id: one per (subject, client, scopes), never 0 (anonymous)."""
    key = "\0".join([str(caller.get("subject")), str(caller.get("client_id")), *sorted(caller.get("scopes") or [])])
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") or 1


class JwtVerifier:
    """JWT access tokens (RFC 9068) with PyJWT: the signature by a key of the issuer's JWKS
    (``PyJWKClient``, cached for ``cache_s``), an algorithm from ``algorithms`` (default
    RS256, PS256, ES256: never ``none`` or HMAC, so a token signed with the public key as an
    HMAC secret is refused), ``iss``, ``aud`` (the resource), ``exp`` required and ``nbf``,
    with ``leeway_s`` of clock skew."""

    def __init__(
        self,
        jwks_url: str,
        issuer: str,
        audience: str,
        *,
        algorithms: tuple[str, ...] = ("RS256", "PS256", "ES256"),
        leeway_s: float = 60,
        cache_s: int = 300,
    ) -> None:
        import jwt

        self.issuer = issuer
        self.audience = audience
        self.algorithms = list(algorithms)
        self.leeway_s = leeway_s
        self._jwks = jwt.PyJWKClient(jwks_url, cache_jwk_set=True, lifespan=cache_s)

    def _check(self, token: str) -> dict[str, Any]:
        import jwt

        try:
            header = jwt.get_unverified_header(token)
            if header.get("alg") not in self.algorithms:
                raise InvalidToken("a signature algorithm that is not accepted")
            key = self._jwks.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                key,
                algorithms=[header["alg"]],
                audience=self.audience,
                issuer=self.issuer,
                leeway=self.leeway_s,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError:
            raise InvalidToken("the token has expired") from None
        except jwt.ImmatureSignatureError:
            raise InvalidToken("the token is not valid yet") from None
        except jwt.InvalidAudienceError:
            raise InvalidToken("the token is not for this resource") from None
        except jwt.InvalidIssuerError:
            raise InvalidToken("the token is from another issuer") from None
        except (jwt.PyJWTError, KeyError, ValueError):
            raise InvalidToken("the token is invalid") from None
        return _caller(claims)

    async def verify(self, token: str) -> dict[str, Any]:
        """The caller of ``token`` (the JWKS is fetched in a worker thread)."""
        return await asyncio.to_thread(self._check, token)


class IntrospectionVerifier:
    """RFC 7662 token introspection: every token is POSTed to ``endpoint`` (with client
    credentials by HTTP Basic when given); only an ``active`` one is accepted, so a revoked
    token is refused at once."""

    def __init__(self, endpoint: str, credentials: tuple[str, str] | None = None, *, issuer: str | None = None) -> None:
        self.endpoint = endpoint
        self.credentials = credentials
        self.issuer = issuer

    async def verify(self, token: str) -> dict[str, Any]:
        """The caller of an active ``token``."""
        import httpx

        try:
            async with httpx.AsyncClient() as http:
                r = await http.post(
                    self.endpoint,
                    data={"token": token, "token_type_hint": "access_token"},
                    auth=self.credentials,
                    headers={"Accept": "application/json"},
                )
            claims = r.json() if r.status_code == 200 else {}
        except (httpx.HTTPError, ValueError):
            raise InvalidToken("the introspection endpoint failed") from None
        if not isinstance(claims, dict) or claims.get("active") is not True:
            raise InvalidToken("the token is not active")
        if self.issuer is not None and claims.get("iss") != self.issuer:
            raise InvalidToken("the token is from another issuer")
        return _caller(claims)
