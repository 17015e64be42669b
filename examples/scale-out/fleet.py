"""Starts a notes fleet on 127.0.0.1: a Redis (``redis-server``, own port, no persistence), three
instances (examples/python/notes_instance.py under uvicorn) and the round-robin front (front.py).

    python examples/scale-out/fleet.py            # prints the front's URL; Ctrl-C stops all

Also the helpers the tests and the benchmark use (``Redis``, ``Instance``, ``fleet_keys``).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fleet_keys() -> str:
    """Two sealing keys, newest first (``id:hex,id:hex``), as a fleet shares them."""
    return f"2:{secrets.token_hex(32)},1:{secrets.token_hex(32)}"


class Redis:
    """A private ``redis-server`` on a free port (no config file, no persistence)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is not on PATH (Debian: apt-get install redis-server)")
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGCONT)  # if paused
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def wait_subscribers(self, n: int, channel: str = "mcp-context:notes:events", timeout: float = 15) -> None:
        """Waits until ``n`` instances are subscribed to the fleet's channel (Redis
        ``PUBSUB NUMSUB``): an instance listens on HTTP before its broker is connected."""
        import redis

        r = redis.Redis.from_url(self.url)
        try:
            deadline = time.monotonic() + timeout
            while dict(r.pubsub_numsub(channel)).get(channel.encode(), 0) < n:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"fewer than {n} instances subscribed to {channel}")
                time.sleep(0.05)
        finally:
            r.close()

    def pause(self, paused: bool) -> None:
        """SIGSTOP / SIGCONT: a broker that keeps its connections open and answers nothing
        (as behind a network partition)."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGSTOP if paused else signal.SIGCONT)


class Instance:
    """One ``notes_instance.py`` process, or with ``cmd`` another runtime's instance taking the
    same flags (examples/node/notes-instance.mjs, the Rust ``notes-instance``); ``url`` once
    started."""

    def __init__(
        self,
        keys: str,
        redis_url: str | None,
        db: str,
        *,
        fleet: str = "notes",
        page_size: int = 3,
        health_s: float = 5.0,
        cmd: list[str] | None = None,
    ) -> None:
        self.cmd = cmd or [sys.executable, str(HERE.parent / "python" / "notes_instance.py")]
        self.args = ["--keys", keys, "--db", db, "--fleet", fleet, "--page-size", str(page_size), "--health-s", str(health_s)]
        if redis_url is not None:
            self.args += ["--redis", redis_url]
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> Instance:
        self.proc = subprocess.Popen(
            [*self.cmd, "--port", "0", *self.args],
            stdout=subprocess.PIPE,
            text=True,
            cwd=HERE.parents[1],
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"{Path(self.cmd[-1]).name} did not start: {line!r}")
        self.url = line.split()[-1]
        return self

    def kill(self) -> None:
        """Dies at once (SIGKILL): no graceful end of its streams."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


def main() -> None:
    redis = Redis().start()
    work = tempfile.mkdtemp(prefix="notes-fleet-")
    keys = fleet_keys()
    instances = [Instance(keys, redis.url, os.path.join(work, "notes.sqlite")).start() for _ in range(3)]
    redis.wait_subscribers(3)
    front_port = free_port()
    front = subprocess.Popen([sys.executable, str(HERE / "front.py"), "--port", str(front_port), *(i.url for i in instances)])
    print(f"redis {redis.url}; instances {' '.join(i.url for i in instances)}")
    print(f"front: http://127.0.0.1:{front_port}/mcp", flush=True)
    try:
        front.wait()
    except KeyboardInterrupt:
        pass
    finally:
        front.terminate()
        for i in instances:
            i.stop()
        redis.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
