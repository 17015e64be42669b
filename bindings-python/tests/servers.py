"""Starts the example notes server as a subprocess (stdio command line, or HTTP on a free port)."""

import contextlib
import subprocess
import sys

from conftest import NOTES_SERVER


def stdio_command(*args: str) -> list[str]:
    return [sys.executable, str(NOTES_SERVER), *args]


@contextlib.contextmanager
def http_server(*args: str):
    """Yields the endpoint URL of a notes server on 127.0.0.1 (port chosen by the OS)."""
    proc = subprocess.Popen(
        [sys.executable, str(NOTES_SERVER), "--http", "0", *args], stdout=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(10)
