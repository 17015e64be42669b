"""The Swift binding's `Authorizer` through the C ABI (uniffi's Python backend): the
configuration, the challenge → discovery fetches, the restore and header rules, and the
refusals, converted both ways."""

import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, os.environ.get("UNIFFI_PY_DIR", str(ROOT / "target" / "uniffi" / "python")))

import mcp_context_ffi as m  # noqa: E402

SERVER = "https://mcp.example.com/mcp"
REDIRECT = "com.example.app:/oauth"
ENTROPY = bytes(range(48))


def authorizer(**changes):
    config = m.auth_config(SERVER, REDIRECT, "swift-test")
    for k, v in changes.items():
        setattr(config, k, v)
    return m.Authorizer(config)


def test_defaults_and_bad_urls():
    c = m.auth_config(SERVER, REDIRECT, "x")
    assert c.offline_access is True and c.max_authorizations == 3 and c.refresh_skew_ms == 60_000
    with pytest.raises(m.AuthConfigError.BadUrl):
        authorizer(server_url="ftp://example.com/")
    with pytest.raises(m.AuthConfigError.BadUrl):
        authorizer(redirect_uri="https://app.example/cb#frag")


def test_a_challenge_starts_discovery_at_the_metadata_it_names():
    a = authorizer()
    prm = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    a.handle_challenge(401, f'Bearer resource_metadata="{prm}", scope="read"', ENTROPY, 1)
    assert a.is_busy()
    act = a.poll_action()
    assert act.is_fetch() and act.method == "GET" and act.url == prm and act.body == b""
    doc = {"resource": SERVER, "authorization_servers": ["https://auth.example.com"]}
    a.handle_fetched(act.id, 200, json.dumps(doc).encode(), 2)
    nxt = a.poll_action()
    assert nxt.is_fetch() and nxt.url == "https://auth.example.com/.well-known/oauth-authorization-server"


def test_a_resource_mismatch_fails_the_flow():
    a = authorizer()
    a.handle_challenge(401, None, ENTROPY, 1)
    act = a.poll_action()
    doc = {"resource": "https://other.example.com/mcp", "authorization_servers": ["https://auth.example.com"]}
    a.handle_fetched(act.id, 200, json.dumps(doc).encode(), 2)
    failed = a.poll_action()
    assert failed.is_failed() and "does not match" in failed.error
    assert not a.is_busy()


def test_short_entropy_fails_without_running():
    a = authorizer()
    a.handle_challenge(401, None, b"short", 1)
    assert a.poll_action().is_failed()
    assert not a.is_busy()


def test_restored_tokens_go_to_the_server_origin_only():
    a = authorizer()
    tokens = m.AuthTokens(issuer="https://auth.example.com", resource=SERVER, access_token="t1", refresh_token=None, expires_at_ms=10_000, scope="read")
    assert a.restore(tokens)
    assert a.tokens() == tokens
    assert a.authorization_header(SERVER, 5_000) == "Bearer t1"
    assert a.authorization_header("https://evil.example.com/mcp", 5_000) is None
    assert a.authorization_header(SERVER, 10_000) is None  # expired
    other = m.AuthTokens(issuer="i", resource="https://other.example.com/", access_token="t2", refresh_token=None, expires_at_ms=None, scope=None)
    assert not authorizer().restore(other)
