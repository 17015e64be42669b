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


LIMITED = """
from mcp_context.server import App
app = App("limits", max_line=300)

@app.resource("notes://1")
def one() -> str:
    return "hi"

app.run_stdio()
"""


def test_limits_are_app_keywords_and_a_line_over_max_line_gets_32600_with_its_id():
    """``App(max_line=300)`` reaches the core's line policy: a 600-byte line is -32600 with
    its id, the short line after it is served."""
    read = {"jsonrpc": "2.0", "method": "resources/read", "params": {"uri": "notes://1", "_meta": META}}
    long = json.dumps({**read, "id": 2, "params": {**read["params"], "pad": "x" * 400}}).encode()
    short = json.dumps({**read, "id": 1}).encode()
    assert len(short) < 300 < len(long)
    done = subprocess.run([sys.executable, "-c", LIMITED], input=long + b"\n" + short + b"\n", capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
    first, second = map(json.loads, done.stdout.splitlines())
    assert first["id"] == 2 and first["error"]["code"] == -32600
    assert second["id"] == 1 and second["result"]["contents"][0]["text"] == "hi"


def test_every_core_limit_is_a_keyword_and_reads_back():
    import pytest
    from mcp_context import ServerMachine

    m = ServerMachine(session_handshake_ms=1234, max_sessions_per_peer=3, max_sessions=9, max_line=77, legacy_sessions=False)
    assert (m.limit("session_handshake_ms"), m.limit("max_sessions_per_peer"), m.limit("max_sessions")) == (1234, 3, 9)
    assert m.max_line == 77 and m.limit("max_pending") == 10_000 and m.limit("nope") is None
    with pytest.raises(TypeError, match="max_lines"):
        ServerMachine(max_lines=1)


REFUSED = """
from mcp_context.server import App
app = App("refused")

@app.method("acme/liste")
def liste(params):
    return [1, 2]  # not a result object: the machine refuses it

app.run_stdio()
"""


def test_a_refused_result_is_answered_32603_not_left_pending():
    """A handler's value the machine refuses (``RespondError`` ``invalid_result``) is the
    handler's bug: the request gets -32603 at once instead of waiting for its timeout."""
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "acme/liste", "params": {"_meta": META}}).encode()
    done = subprocess.run([sys.executable, "-c", REFUSED], input=line + b"\n", capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
    (answer,) = map(json.loads, done.stdout.splitlines())
    assert answer["id"] == 1 and answer["error"]["code"] == -32603
