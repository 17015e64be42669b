"""A protected ASGI endpoint (docs/rules.md §22) under uvicorn against the hostile cases of
tests/auth/cases.json: tokens signed with PyJWT, the JWKS and an RFC 7662 introspection
endpoint served on loopback, ``JwtVerifier`` and ``IntrospectionVerifier``; then nothing
protected is listed, read or embedded for a caller without the scope."""

import json
import re
from types import SimpleNamespace
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import asyncio

import httpx
import jwt
import pytest

from mcp_context.aio import Client
from mcp_context.server import App, Context, IntrospectionVerifier, JwtVerifier

AUTH = Path(__file__).resolve().parents[2] / "tests" / "auth"
CASES = json.loads((AUTH / "cases.json").read_text())
PRIVATE = (AUTH / "rsa.pem").read_text()
PUBLIC = (AUTH / "rsa.pub.pem").read_text()
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AuthorizationServer(BaseHTTPRequestHandler):
    """The JWKS and an introspection endpoint active only for ``live-token``."""

    audience = ""

    def log_message(self, *args):
        pass

    def _json(self, doc):
        body = json.dumps(doc).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self._json(json.loads((AUTH / "jwks.json").read_text()))

    def do_POST(self):
        form = parse_qs(self.rfile.read(int(self.headers["content-length"])).decode())
        if form.get("token") == ["live-token"]:
            self._json({"active": True, "scope": "mcp", "sub": "bob", "aud": AuthorizationServer.audience, "exp": int(time.time()) + 3600})
        else:
            self._json({"active": False})


@pytest.fixture(scope="module")
def issuer():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), AuthorizationServer)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


def protected_app(url: str, issuer: str) -> App:
    app = App("protected")
    app.protect(url, [issuer], scopes_supported=["mcp", "notes:secret"], required_scopes=["mcp"])

    @app.resource("public://a")
    def public_a() -> str:
        return "public a"

    @app.resource("secret://a")
    def secret_a() -> str:
        return "the secret"

    @app.resource("whoami://me")
    def whoami(ctx: Context) -> str:
        return f"{ctx.principal['subject']} via {ctx.principal['client_id']}"

    @app.resource("vault://{name}", complete={"name": ["alpha", "beta"]})
    def vault(name: str) -> str:
        return f"vault {name}"

    @app.tool()
    def touch(uri: str) -> str:
        app.resource_updated(uri)
        return "touched"

    app.require_scopes("resource", "secret://a", "notes:secret")
    app.require_scopes("template", "vault://{name}", "notes:secret")
    return app


def serve(app: App, port: int, verifier) -> None:
    threading.Thread(target=app.run_http, kwargs={"port": port, "verifier": verifier}, daemon=True).start()
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.05)


def token(spec: dict, issuer: str, resource: str) -> str:
    now = int(time.time())
    claims = {
        "iss": issuer if spec["iss"] == "issuer" else spec["iss"],
        "aud": resource if spec["aud"] == "resource" else spec["aud"],
        "sub": "alice",
        "client_id": "c1",
        "scope": spec["scope"],
        "exp": now + spec["exp"],
        "iat": now,
    }
    if "nbf" in spec:
        claims["nbf"] = now + spec["nbf"]
    sign = spec["sign"]
    if sign in ("RS256", "RS256-other-kid"):
        kid = "test-key" if sign == "RS256" else "rotated-away"
        return jwt.encode(claims, PRIVATE, algorithm="RS256", headers={"kid": kid})
    if sign == "HS256-public-key":  # PyJWT refuses a PEM as an HMAC key: sign by hand
        import base64
        import hashlib
        import hmac

        b = lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=")
        signing = b({"alg": "HS256", "typ": "JWT", "kid": "test-key"}) + b"." + b(claims)
        sig = base64.urlsafe_b64encode(hmac.new(PUBLIC.encode(), signing, hashlib.sha256).digest()).rstrip(b"=")
        return (signing + b"." + sig).decode()
    if sign == "none":
        return jwt.encode(claims, None, algorithm="none", headers={"kid": "test-key"})
    raise AssertionError(sign)


def post(url: str, authorization: str | None, method: str, params: dict, name: str | None = None) -> SimpleNamespace:
    """A POST written on a raw socket (HTTP clients refuse some hostile header values, such
    as ``Bearer `` with its trailing space): status, lowercase headers, body text."""
    parts = urlsplit(url)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": META}}).encode()
    lines = [
        f"POST {parts.path}{'?' + parts.query if parts.query else ''} HTTP/1.1",
        f"host: {parts.netloc}",
        "content-type: application/json",
        "accept: application/json, text/event-stream",
        "mcp-protocol-version: 2026-07-28",
        f"mcp-method: {method}",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if name:
        lines.append(f"mcp-name: {name}")
    if authorization is not None:
        lines.append(f"authorization: {authorization}")
    with socket.create_connection((parts.hostname, parts.port), timeout=20) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (h.split(":", 1) for h in header_lines)}
    if headers.get("transfer-encoding") == "chunked":
        text, data = b"", rest
        while data:
            size, _, data = data.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            text, data = text + data[:n], data[n + 2 :]
        rest = text
    text = rest.decode()
    text = text[6:].strip() if text.startswith("data: ") else text
    return SimpleNamespace(status_code=int(status_line.split()[1]), headers=headers, text=text, json=lambda: json.loads(text))


def bearer(r: SimpleNamespace) -> SimpleNamespace:
    """The ``Bearer`` challenge's parameters (values here carry no escaped quotes)."""
    h = r.headers["www-authenticate"]
    assert h.startswith("Bearer"), h
    params = dict(re.findall(r'(\w+)="([^"]*)"', h))
    return SimpleNamespace(**{k: params.get(k) for k in ("error", "scope", "resource_metadata", "error_description")})


@pytest.fixture(scope="module")
def endpoints(issuer):
    port, iport = free_port(), free_port()
    url, iurl = f"http://127.0.0.1:{port}/mcp", f"http://127.0.0.1:{iport}/mcp"
    AuthorizationServer.audience = iurl
    serve(protected_app(url, issuer), port, JwtVerifier(f"{issuer}/jwks", issuer, url))
    serve(protected_app(iurl, issuer), iport, IntrospectionVerifier(f"{issuer}/introspect", ("rs", "secret")))
    return url, iurl


def test_the_hostile_cases_get_their_status_and_challenge(issuer, endpoints):
    url, iurl = endpoints
    table = []
    for case in CASES["cases"]:
        name = case["name"]
        endpoint = iurl if case.get("verifier") == "introspection" else url
        tok = case.get("opaque") or (token(CASES["tokens"][case["token"]], issuer, url) if "token" in case else "")
        auth = case.get("authorization")
        if auth is not None:
            auth = auth.replace("{token}", tok).replace("{big}", "a" * 65536)
        target = endpoint + ("?" + case["query"].replace("{token}", tok) if "query" in case else "")
        r = post(target, auth, "resources/list", {})
        assert r.status_code in case.get("status_any", [case["status"]]), (name, r.status_code, r.text)
        if r.status_code == case["status"] and r.status_code in (401, 403):
            c = bearer(r)
            assert c.error == case.get("error"), name
            assert c.resource_metadata == endpoint.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"), name
            if "scope" in case:
                assert c.scope == case["scope"], name
        if r.status_code == 200:
            assert "resources" in r.json()["result"], name
        table.append(f"{name}: {r.status_code}")
    print("ASGI runner:\n  " + "\n  ".join(table))
    doc = httpx.get(url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")).json()
    assert doc["resource"] == url and doc["authorization_servers"] == [issuer]


def test_nothing_protected_reaches_a_caller_without_the_scope(issuer, endpoints):
    url, _ = endpoints
    low = "Bearer " + token(CASES["tokens"]["low"], issuer, url)
    high = "Bearer " + token(CASES["tokens"]["valid"], issuer, url)
    uris = lambda r: [x["uri"] for x in r.json()["result"]["resources"]]
    assert uris(post(url, low, "resources/list", {})) == ["public://a", "whoami://me"]
    assert uris(post(url, high, "resources/list", {})) == ["public://a", "secret://a", "whoami://me"]
    # The handler sees the verified caller, never the token.
    r = post(url, low, "resources/read", {"uri": "whoami://me"}, "whoami://me")
    assert r.json()["result"]["contents"][0]["text"] == "alice via c1"
    r = post(url, low, "resources/read", {"uri": "secret://a"}, "secret://a")
    assert r.status_code == 403 and "the secret" not in r.text
    c = bearer(r)
    assert (c.error, c.scope) == ("insufficient_scope", "notes:secret")
    r = post(url, high, "resources/read", {"uri": "secret://a"}, "secret://a")
    assert r.status_code == 200 and "the secret" in r.text


def test_a_completion_of_what_needs_another_scope_is_a_step_up(issuer, endpoints):
    url, _ = endpoints
    low = "Bearer " + token(CASES["tokens"]["low"], issuer, url)
    high = "Bearer " + token(CASES["tokens"]["valid"], issuer, url)
    params = {"ref": {"type": "ref/resource", "uri": "vault://{name}"}, "argument": {"name": "name", "value": "a"}}
    r = post(url, low, "completion/complete", params)
    assert r.status_code == 403 and "alpha" not in r.text, r.text
    assert (bearer(r).error, bearer(r).scope) == ("insufficient_scope", "notes:secret")
    r = post(url, high, "completion/complete", params)
    assert r.status_code == 200 and r.json()["result"]["completion"]["values"] == ["alpha"], r.text


def test_a_listen_stream_delivers_only_what_its_caller_may_read(issuer, endpoints):
    # Two callers listen over the runner's SSE streams; the secret is updated, then the public
    # item: the caller without the scope was never told of the secret, the other once of each.
    url, _ = endpoints
    low = {"Authorization": "Bearer " + token(CASES["tokens"]["low"], issuer, url)}
    high = {"Authorization": "Bearer " + token(CASES["tokens"]["valid"], issuer, url)}
    uris = ["secret://a", "public://a"]

    async def next_event(sub, timeout: float = 5.0):
        return await asyncio.wait_for(sub.__anext__(), timeout)

    async def run() -> None:
        async with Client.http(url, headers=low) as lo, Client.http(url, headers=high) as hi:
            async with lo.listen(resource_subscriptions=uris) as sl, hi.listen(resource_subscriptions=uris) as sh:
                assert sl.honoured["resourceSubscriptions"] == ["public://a"], sl.honoured
                assert sh.honoured["resourceSubscriptions"] == uris, sh.honoured
                for uri in uris:
                    await hi.call_tool("touch", {"uri": uri})
                assert [(await next_event(sh)).uri, (await next_event(sh)).uri] == uris
                assert (await next_event(sl)).uri == "public://a"
                for sub in (sl, sh):
                    with pytest.raises(TimeoutError):
                        await next_event(sub, 0.5)

    asyncio.run(asyncio.wait_for(run(), 30))
