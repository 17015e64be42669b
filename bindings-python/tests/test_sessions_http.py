"""2025-11-25 sessions through the ASGI runner under uvicorn, over real HTTP: the core's session
rules (docs/rules.md §17.3 items 9-11) reach the wire, and the runner passes the peer address
(``scope["client"]``) to the core's per-peer bound."""

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

FIXTURE = Path(__file__).resolve().parent / "app_fixture.py"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
HEADERS = {"accept": "application/json, text/event-stream"}


@contextlib.contextmanager
def served():
    proc = subprocess.Popen([sys.executable, str(FIXTURE), "--http", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        with httpx.Client(headers=HEADERS, timeout=10) as client:
            yield client, line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(10)


def connect(client, url):
    """A real client's handshake; the session id, or the refused response."""
    r = client.post(url, json=INIT)
    if r.status_code != 200:
        return r
    sid = r.headers["mcp-session-id"]
    h = {"mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"}
    assert client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h).status_code == 202
    r = client.post(url, json=PING, headers=h)
    assert (r.status_code, r.json()["result"]) == (200, {})
    return sid


def test_an_unsupported_protocol_version_in_a_session_is_400():
    with served() as (client, url):
        sid = connect(client, url)
        r = client.post(url, json=PING, headers={"mcp-session-id": sid, "mcp-protocol-version": "1999-01-01"})
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == -32600
        r = client.post(url, json=INIT, headers={"mcp-session-id": sid})
        assert (r.status_code, r.json()["error"]["code"]) == (400, -32600)
        assert client.post(url, json=PING, headers={"mcp-session-id": sid}).status_code == 200


def test_a_flood_of_half_open_sessions_still_lets_a_real_client_in():
    with served() as (client, url):
        for i in range(1100):  # more than the 1,024 places; no request follows any of them
            r = client.post(url, json=INIT)
            assert r.status_code == 200, (i, r.text)
        assert isinstance(connect(client, url), str)


def test_the_peer_address_reaches_the_per_peer_bound():
    with served() as (client, url):
        for _ in range(256):  # ServerConfig::max_sessions_per_peer, all from 127.0.0.1
            assert isinstance(connect(client, url), str)
        r = connect(client, url)
        assert r.status_code == 429, r.text
        assert r.headers["retry-after"] == "60"
        assert r.json()["error"]["code"] == -32603
