"""``App.run_stdio`` reads whatever stdin is: a pipe, a regular file (``server < requests.jsonl``)
or a terminal; at end of input it answers what is in flight (async handlers included), then
exits."""

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "app_fixture.py"
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def requests() -> bytes:
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "kb://acme/charte-reponse", "_meta": META}},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "kb://acme/lent/30", "_meta": META}},
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "kb://acme/fiches/nope", "_meta": META}},
    ]
    return b"".join(json.dumps(m).encode() + b"\n" for m in lines)


def check(out: bytes) -> None:
    answers = {m["id"]: m for m in map(json.loads, out.splitlines())}
    assert answers[1]["result"]["contents"][0]["text"].startswith("# Charte")
    assert answers[2]["result"]["contents"][0]["text"].startswith("30 ms")  # in flight at EOF
    assert answers[3]["error"]["code"] == -32602


def test_stdin_is_a_regular_file(tmp_path):
    path = tmp_path / "requests.jsonl"
    path.write_bytes(requests())
    with path.open("rb") as stdin:
        done = subprocess.run([sys.executable, str(FIXTURE)], stdin=stdin, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
    check(done.stdout)


def test_stdin_is_a_pipe():
    done = subprocess.run([sys.executable, str(FIXTURE)], input=requests(), capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
    check(done.stdout)


def test_stdin_is_a_terminal():
    leader, follower = pty.openpty()
    try:
        # raw-ish: no echo, so the terminal gives back only what the server reads
        import termios

        attrs = termios.tcgetattr(follower)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(follower, termios.TCSANOW, attrs)
        proc = subprocess.Popen([sys.executable, str(FIXTURE)], stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.write(leader, requests())
        time.sleep(0.5)
        os.write(leader, b"\x04")  # end of input on a terminal
        out, err = proc.communicate(timeout=30)
    finally:
        os.close(leader)
        os.close(follower)
    assert proc.returncode == 0, err.decode()
    check(out)


def test_a_20_mib_line_gets_32600_with_its_id_and_the_next_line_is_served():
    """The core's line policy in the stdio runner: the over-long line is answered (its id
    read from the line's start) as soon as the bound is crossed, never buffered whole, and
    the lines after it are served."""
    big = b'{"jsonrpc":"2.0","id":"big","method":"resources/read","params":{"uri":"' + b"a" * (20 << 20) + b'"}}\n'
    done = subprocess.run([sys.executable, str(FIXTURE)], input=big + requests(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    first = json.loads(done.stdout.splitlines()[0])
    assert first["id"] == "big"
    assert first["error"]["code"] == -32600
    assert first["error"]["message"].startswith("Message too large")
    check(done.stdout)
