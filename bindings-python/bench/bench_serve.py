"""Reads per second of the knowledge-base server: ours (``App``) against the official SDK's
(``mcp`` 2.3.0 ``MCPServer``), same client, same run.

* HTTP: ``app.asgi()`` under uvicorn against the SDK's ``streamable_http_app()`` under uvicorn
  (both one uvicorn process, default settings, logging off). The client is a keep-alive
  HTTP/1.1 load generator on raw asyncio streams (``--connections`` connections, one request in
  flight on each), so the client is not what is measured.
* stdio: ``app.run_stdio()`` against the SDK's stdio server (``MCPServer.run()``), each a
  subprocess; the client writes requests with up to ``--window`` in flight and reads the answers.

Every request is the same ``resources/read`` of a template-matched sheet
(``kb://acme/fiches/changement-adresse``), in the 2026-07-28 era (no session); each answer is
checked. Rounds alternate ours/SDK; the best of ``--rounds`` is reported.

    python bindings-python/bench/bench_serve.py [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "python"
SDK_KB = ROOT / "bindings-python" / "tests" / "sdk_kb_server.py"
URI = "kb://acme/fiches/changement-adresse"
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

OURS_HTTP = (
    "import sys; sys.path.insert(0, sys.argv[1]); from kb_server import app; "
    "app.run_http(port=0, ready=lambda p: print(f'listening on http://127.0.0.1:{p}/mcp', flush=True))"
)


def request(i: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "resources/read", "params": {"uri": URI, "_meta": META}}).encode()


def check(body: bytes) -> None:
    if b'"# Changer' not in body:
        raise AssertionError(f"unexpected answer: {body[:300]!r}")


# --- HTTP -------------------------------------------------------------------------------


async def _read_response(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:] if ":" in ln)}
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        raise AssertionError(f"no body framing: {headers}")
    if status != 200:
        raise AssertionError(f"HTTP {status}: {body[:200]!r}")
    return body


async def http_load(url: str, seconds: float, connections: int) -> float:
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    host, port = host_port.split(":")
    path = "/" + url.split("//", 1)[1].split("/", 1)[1]
    body = request(1)
    raw = (
        f"POST {path} HTTP/1.1\r\nHost: {host_port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
        f"Mcp-Method: resources/read\r\nMcp-Name: {URI}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    done = 0
    stop = time.monotonic() + seconds

    async def worker() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            while time.monotonic() < stop:
                writer.write(raw)
                check(await _read_response(reader))
                done += 1
        finally:
            writer.close()

    t0 = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(connections)))
    return done / (time.monotonic() - t0)


def start_http(cmd: list[str]) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("listening on "), line
    return proc, line.split()[-1]


# --- stdio ------------------------------------------------------------------------------


async def stdio_load(cmd: list[str], seconds: float, window: int) -> float:
    proc = await asyncio.create_subprocess_exec(*cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 24)
    assert proc.stdin is not None and proc.stdout is not None
    # warm up (and prove the server answers this era)
    proc.stdin.write(request(0) + b"\n")
    check(await proc.stdout.readline())
    sent = received = 0
    stop = time.monotonic() + seconds
    t0 = time.monotonic()
    while time.monotonic() < stop or received < sent:
        while sent - received < window and time.monotonic() < stop:
            sent += 1
            proc.stdin.write(request(sent) + b"\n")
        await proc.stdin.drain()
        check(await proc.stdout.readline())
        received += 1
    rate = received / (time.monotonic() - t0)
    proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), 5)
    except TimeoutError:
        proc.kill()
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--window", type=int, default=32)
    args = ap.parse_args()
    py = sys.executable
    servers_http = {
        "mcp_context App.asgi() (uvicorn)": [py, "-c", OURS_HTTP, str(EXAMPLES)],
        "SDK streamable_http_app() (uvicorn)": [py, str(SDK_KB), "--http", "0"],
    }
    servers_stdio = {
        "mcp_context App.run_stdio()": [py, str(EXAMPLES / "kb_server.py")],
        "SDK MCPServer.run() stdio": [py, str(SDK_KB)],
    }
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, cmd in servers_http.items():
            proc, url = start_http(cmd)
            try:
                asyncio.run(http_load(url, 0.5, args.connections))  # warm-up
                rate = asyncio.run(http_load(url, args.seconds, args.connections))
            finally:
                proc.terminate()
                proc.wait(10)
            best[name] = max(best.get(name, 0.0), rate)
        for name, cmd in servers_stdio.items():
            rate = asyncio.run(stdio_load(cmd, args.seconds, args.window))
            best[name] = max(best.get(name, 0.0), rate)
    print("| transport | server | reads/s | vs SDK |")
    print("| --- | --- | ---: | ---: |")
    for transport, servers in (("HTTP", servers_http), ("stdio", servers_stdio)):
        names = list(servers)
        sdk = best[names[1]]
        for name in reversed(names):
            print(f"| {transport} | {name} | {best[name]:,.0f} | {best[name] / sdk:.1f}x |")


if __name__ == "__main__":
    main()
