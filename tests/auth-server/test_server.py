"""The tests' authorization server end to end with plain HTTP: metadata, registration, the
PKCE authorization redirect with ``iss``, tokens (signature, ``aud``), refresh, introspection,
revocation, and the refusals a client must be able to rely on."""

from __future__ import annotations

import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlsplit

import httpx
import jwt
import pytest

from launch import auth_server

REDIRECT = "http://127.0.0.1:1/callback"
RESOURCE = "http://127.0.0.1:9/mcp"


@pytest.fixture(scope="module")
def issuer():
    with auth_server("--scopes", "mcp:read mcp:write") as i:
        yield i


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def authorize(http: httpx.Client, meta: dict, client_id: str, challenge: str, **extra: str) -> dict[str, list[str]]:
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "code_challenge": challenge, "code_challenge_method": "S256", "state": "s1", "resource": RESOURCE, **extra}
    r = http.get(meta["authorization_endpoint"], params=params)
    assert r.status_code == 302, r.text
    location = r.headers["location"]
    assert location.startswith(REDIRECT + "?")
    return parse_qs(urlsplit(location).query)


def test_full_flow(issuer: str) -> None:
    with httpx.Client(follow_redirects=False) as http:
        meta = http.get(f"{issuer}/.well-known/oauth-authorization-server").json()
        assert meta["issuer"] == issuer
        assert meta["code_challenge_methods_supported"] == ["S256"]
        assert meta["authorization_response_iss_parameter_supported"] is True
        reg = http.post(meta["registration_endpoint"], json={"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none", "client_name": "t"})
        assert reg.status_code == 201
        client_id = reg.json()["client_id"]
        assert "client_secret" not in reg.json()
        verifier, challenge = pkce()
        q = authorize(http, meta, client_id, challenge, scope="mcp:read")
        assert q["state"] == ["s1"] and q["iss"] == [issuer]
        code = q["code"][0]
        # A wrong verifier is refused, and the code is spent.
        bad = http.post(meta["token_endpoint"], data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "code_verifier": "x" * 43, "client_id": client_id})
        assert bad.status_code == 400 and bad.json()["error"] == "invalid_grant"
        q = authorize(http, meta, client_id, challenge, scope="mcp:read")
        tok = http.post(meta["token_endpoint"], data={"grant_type": "authorization_code", "code": q["code"][0], "redirect_uri": REDIRECT, "code_verifier": verifier, "client_id": client_id, "resource": RESOURCE})
        assert tok.status_code == 200, tok.text
        body = tok.json()
        assert body["token_type"] == "Bearer" and body["scope"] == "mcp:read"
        # The access token verifies with the published key; its audience is the resource.
        jwks = jwt.PyJWKSet.from_dict(http.get(meta["jwks_uri"]).json())
        header = jwt.get_unverified_header(body["access_token"])
        key = next(k for k in jwks.keys if k.key_id == header["kid"])
        claims = jwt.decode(body["access_token"], key.key, algorithms=["RS256"], audience=RESOURCE, issuer=issuer)
        assert claims["scope"] == "mcp:read" and claims["client_id"] == client_id
        # Refresh rotates the refresh token; the old one is spent.
        r1 = http.post(meta["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": body["refresh_token"], "client_id": client_id})
        assert r1.status_code == 200
        again = http.post(meta["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": body["refresh_token"], "client_id": client_id})
        assert again.status_code == 400
        access = r1.json()["access_token"]
        assert jwt.decode(access, key.key, algorithms=["RS256"], audience=RESOURCE)["aud"] == RESOURCE
        # Introspection, then revocation.
        assert http.post(meta["introspection_endpoint"], data={"token": access}).json()["active"] is True
        assert http.post(meta["revocation_endpoint"], data={"token": access}).status_code == 200
        assert http.post(meta["introspection_endpoint"], data={"token": access}).json() == {"active": False}
        stats = http.get(f"{issuer}/_test/stats").json()
        assert stats["registrations"] == 1 and stats["tokens"] == 1 and stats["refreshes"] == 1


def test_confidential_client_and_refusals(issuer: str) -> None:
    with httpx.Client(follow_redirects=False) as http:
        meta = http.get(f"{issuer}/.well-known/oauth-authorization-server").json()
        reg = http.post(meta["registration_endpoint"], json={"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "client_secret_basic"}).json()
        cid, secret = reg["client_id"], reg["client_secret"]
        verifier, challenge = pkce()
        # No PKCE: an error redirect; an unregistered redirect URI: no redirect at all.
        r = http.get(meta["authorization_endpoint"], params={"response_type": "code", "client_id": cid, "redirect_uri": REDIRECT})
        assert parse_qs(urlsplit(r.headers["location"]).query)["error"] == ["invalid_request"]
        r = http.get(meta["authorization_endpoint"], params={"response_type": "code", "client_id": cid, "redirect_uri": "http://evil.example/cb", "code_challenge": challenge, "code_challenge_method": "S256"})
        assert r.status_code == 400
        assert "error" in authorize(http, meta, cid, challenge, scope="admin")
        q = authorize(http, meta, cid, challenge)
        form = {"grant_type": "authorization_code", "code": q["code"][0], "redirect_uri": REDIRECT, "code_verifier": verifier}
        assert http.post(meta["token_endpoint"], data=form, auth=(cid, "wrong")).status_code == 401
        tok = http.post(meta["token_endpoint"], data=form, auth=(cid, secret))
        assert tok.status_code == 200 and tok.json()["scope"] == "mcp:read mcp:write"
        # A different resource than the authorization request's is refused.
        q = authorize(http, meta, cid, challenge)
        form.update(code=q["code"][0], resource="http://127.0.0.1:9/other")
        assert http.post(meta["token_endpoint"], data=form, auth=(cid, secret)).json()["error"] == "invalid_target"


def test_without_iss() -> None:
    with auth_server("--no-iss") as issuer, httpx.Client(follow_redirects=False) as http:
        meta = http.get(f"{issuer}/.well-known/oauth-authorization-server").json()
        assert meta["authorization_response_iss_parameter_supported"] is False
        cid = http.post(meta["registration_endpoint"], json={"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"}).json()["client_id"]
        q = authorize(http, meta, cid, pkce()[1])
        assert "iss" not in q and "code" in q
