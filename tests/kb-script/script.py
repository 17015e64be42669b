"""One script, every knowledge base: the same lines go to each runner's knowledge-base server
over stdio and the answers must be identical.

    python tests/kb-script/script.py NAME=COMMAND [NAME=COMMAND ...]   [--show]

Each COMMAND (run through the shell) starts a knowledge base (examples/kb/main.rs,
examples/python/kb_server.py, examples/node/kb.mjs on both engines, the Swift example) serving
newline-delimited JSON-RPC on stdin/stdout. The script (SCRIPT below) mixes 2026-07-28
requests, hostile lines (not JSON, not JSON-RPC, a 20 MiB line) and, last, a 2025-11-25 session
on the same connection. Every answer is recorded per step; a step that gets no answer records
nothing (the next step's request proves the server is still there). Exit status 1 when two
runners differ (the differing steps are printed), 0 when every runner answered alike.
Standard library only.
"""

import json
import os
import select
import subprocess
import sys
import time

PV = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": PV, "io.modelcontextprotocol/clientCapabilities": {}}
BIG = 20 * 1024 * 1024  # the over-long line: 20 MiB


def req(id_, method, params=None, meta=True):
    p = dict(params or {})
    if meta:
        p["_meta"] = dict(META)
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": p}, ensure_ascii=False)


def legacy(id_, method, params=None):
    msg = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        msg["params"] = params
    return json.dumps(msg, ensure_ascii=False)


SHEET = "kb://acme/fiches/resiliation-contrat"
TPL = {"type": "ref/resource", "uri": "kb://acme/fiches/{slug}"}

# (step name, line, expects an answer)
SCRIPT = [
    ("discover", req(1, "server/discover"), True),
    ("resources/list", req(2, "resources/list"), True),
    ("templates/list", req(3, "resources/templates/list"), True),
    ("read charter", req(4, "resources/read", {"uri": "kb://acme/charte-reponse"}), True),
    ("read sheet", req(5, "resources/read", {"uri": SHEET}), True),
    ("read missing sheet", req(6, "resources/read", {"uri": "kb://acme/fiches/inconnue"}), True),
    ("read unmatched uri", req(7, "resources/read", {"uri": "kb://acme/autre"}), True),
    ("read invalid uri", req(8, "resources/read", {"uri": "not a uri"}), True),
    ("prompts/list", req(9, "prompts/list"), True),
    ("prompt chaleureux", req(10, "prompts/get", {"name": "repondre_ticket", "arguments": {"ticketId": "T-1042", "ton": "chaleureux"}}), True),
    ("prompt default tone", req(11, "prompts/get", {"name": "repondre_ticket", "arguments": {"ticketId": "T-7"}}), True),
    ("prompt missing ticketId", req(12, "prompts/get", {"name": "repondre_ticket", "arguments": {}}), True),
    ("prompt unknown", req(13, "prompts/get", {"name": "inconnu"}), True),
    ("complete slug", req(14, "completion/complete", {"ref": TPL, "argument": {"name": "slug", "value": "declarer"}}), True),
    ("complete ton", req(15, "completion/complete", {"ref": {"type": "ref/prompt", "name": "repondre_ticket"}, "argument": {"name": "ton", "value": "ch"}}), True),
    ("complete undeclared argument", req(16, "completion/complete", {"ref": TPL, "argument": {"name": "nope", "value": ""}}), True),
    ("list page with a bad cursor", req(17, "resources/list", {"cursor": "not-a-cursor"}), True),
    ("unknown method", req(18, "acme/unknown"), True),
    ("no _meta", req(19, "resources/list", meta=False), True),
    ("unsupported version", json.dumps({"jsonrpc": "2.0", "id": 20, "method": "resources/list", "params": {"_meta": {**META, "io.modelcontextprotocol/protocolVersion": "1999-01-01"}}}), True),
    ("string id", req("s-21", "resources/read", {"uri": SHEET}), True),
    ("notification", json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}}), False),
    ("not JSON", "{not json", True),
    ("JSON, not an object", "[1,2,3]", True),
    ("wrong jsonrpc version", json.dumps({"jsonrpc": "1.0", "id": 24, "method": "resources/list"}), True),
    ("method not a string", json.dumps({"jsonrpc": "2.0", "id": 25, "method": 7}), True),
    ("deep nesting", '{"jsonrpc":"2.0","id":26,"method":"resources/list","params":{"x":' + "[" * 5000 + "]" * 5000 + "}}", True),
    ("20 MiB line", '{"jsonrpc":"2.0","id":27,"method":"resources/read","params":{"uri":"' + "a" * BIG + '"}}', True),
    ("after the big line", req(28, "resources/read", {"uri": SHEET}), True),
    # A 2025-11-25 session on the same connection.
    ("initialize (2025-11-25)", legacy(29, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "script", "version": "1"}}), True),
    ("initialized", legacy(None, "notifications/initialized"), False),
    ("legacy ping", legacy(30, "ping"), True),
    ("legacy resources/list", legacy(31, "resources/list", {}), True),
    ("legacy read", legacy(32, "resources/read", {"uri": SHEET}), True),
    ("legacy read missing", legacy(33, "resources/read", {"uri": "kb://acme/fiches/inconnue"}), True),
    ("legacy prompt", legacy(34, "prompts/get", {"name": "repondre_ticket", "arguments": {"ticketId": "T-9"}}), True),
    ("legacy subscribe", legacy(35, "resources/subscribe", {"uri": "kb://acme/charte-reponse"}), True),
    ("legacy complete", legacy(36, "completion/complete", {"ref": TPL, "argument": {"name": "slug", "value": "res"}}), True),
    ("modern request after initialize", req(37, "resources/read", {"uri": "kb://acme/charte-reponse"}), True),
    ("last", req(38, "prompts/list"), True),
]


def _fix_notification(line):
    # json.dumps(None id) writes "id": null; a notification has no id at all.
    msg = json.loads(line)
    if msg.get("id", 0) is None:
        del msg["id"]
    return json.dumps(msg)


SCRIPT = [(n, _fix_notification(l) if not e and l.startswith("{") else l, e) for n, l, e in SCRIPT]


class Runner:
    def __init__(self, name, command):
        self.name = name
        self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""

    def send(self, line):
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read_line(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def run(name, command, timeout=10.0):
    """Every step's answers (a list of parsed messages, or the raw text of a line that is
    not JSON) from one runner."""
    r = Runner(name, command)
    out = {}
    try:
        for step, line, expects in SCRIPT:
            r.send(line)
            got = []
            if expects:
                deadline = time.monotonic() + timeout
                while True:
                    raw = r.read_line(deadline)
                    if raw is None:
                        got.append("<no answer>")
                        break
                    try:
                        msg = json.loads(raw)
                    except ValueError:
                        got.append("<not JSON> " + raw[:200].decode("utf-8", "replace"))
                        continue
                    got.append(msg)
                    if isinstance(msg, dict) and ("result" in msg or "error" in msg):
                        break
            out[step] = got
    finally:
        r.close()
    return out


def main(argv):
    show = "--show" in argv
    runners = [a.split("=", 1) for a in argv if a != "--show"]
    if len(runners) < 1 or any(len(r) != 2 for r in runners):
        print(__doc__)
        return 2
    results = {}
    for name, command in runners:
        t0 = time.monotonic()
        results[name] = run(name, command)
        print(f"{name}: {len(SCRIPT)} steps in {time.monotonic() - t0:.1f} s")
    base_name, base = runners[0][0], results[runners[0][0]]
    if show:
        for step, _, _ in SCRIPT:
            print(f"--- {step}\n{json.dumps(base[step], ensure_ascii=False)[:2000]}")
    differ = 0
    for name, _ in runners[1:]:
        for step, _, _ in SCRIPT:
            if results[name][step] != base[step]:
                differ += 1
                print(f"DIFFER {step!r}: {base_name} vs {name}")
                print(f"  {base_name}: {json.dumps(base[step], ensure_ascii=False)[:600]}")
                print(f"  {name}: {json.dumps(results[name][step], ensure_ascii=False)[:600]}")
    agree = len(SCRIPT) * (len(runners) - 1) - differ
    print(f"kb-script: {agree} passed, {differ} failed")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
